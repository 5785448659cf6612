"""One error type for every bad ruleset: its message is one line naming the file,
the key path and what is wrong."""
from __future__ import annotations


class RulesetError(ValueError):
    def __init__(self, file: str, key: str, problem: str) -> None:
        # Messages quote user text (TOML parser output, cell tokens); keep them on one line.
        problem = " ".join(str(problem).split())
        self.file, self.key, self.problem = file, key, problem
        super().__init__(f"{file}: {key}: {problem}" if key else f"{file}: {problem}")
