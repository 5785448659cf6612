"""The errors a Game raises."""
from __future__ import annotations


class IllegalActionError(ValueError):
    """An action that is not among the legal ones; `choice` says which, in words."""

    def __init__(self, message: str, choice: str) -> None:
        super().__init__(message)
        self.choice = choice


class InvariantError(AssertionError):
    """A rule invariant broke (only raised with check=True)."""
