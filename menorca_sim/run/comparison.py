"""Two rules files as one experiment (`menorca-sim compare`): variant A plays the first
file, variant B the second, on the same seeds, players and seatings, so that the
runner and the report's paired variant comparison answer "what does B change?". The
experiment is written out as a file beside the dataset: the comparison can be read,
run again (`menorca-sim run DIR/compare.toml --resume`) or edited into a study."""
from __future__ import annotations

from pathlib import Path

from menorca_sim.rules.diff import rules_differences
from menorca_sim.run.experiment import toml_value

NAME = "compare"
SHOWN = 12  # differences the description names; the rest are counted


def comparison_toml(rules_a: str, rules_b: str, players: tuple[int, ...], games: int, populations: tuple[str, ...],
                    seed: int) -> str:
    """The experiment file: `rules_a`/`rules_b` are paths or "default"; one population
    per policy spec, that policy in every seat."""
    paths = [None if r == "default" else str(Path(r).resolve()) for r in (rules_a, rules_b)]
    differences = rules_differences(*paths)
    shown = "; ".join(d.line() for d in differences[:SHOWN])
    more = f"; and {len(differences) - SHOWN} more" if len(differences) > SHOWN else ""
    said = (f"B differs from A in {len(differences)} key{'s' if len(differences) != 1 else ''}: {shown}{more}."
            if differences else "B holds the same rules as A.")
    lines = [f"name = {toml_value(NAME)}",
             f"description = {toml_value(f'A = {rules_a}, B = {rules_b}. {said}')}",
             f"ruleset = {toml_value(paths[0] or 'default')}",
             f"seed = {seed}", f"games = {games}", f"players = {list(players)}", 'minors = "all"', ""]
    for spec in populations:
        lines += [f"[populations.{toml_value(spec)}]", f"seats = {toml_value(spec)}", ""]
    lines += ["[variants.A]", "", "[variants.B]", f"ruleset = {toml_value(paths[1] or 'default')}", ""]
    return "\n".join(lines)

