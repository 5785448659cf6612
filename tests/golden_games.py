"""Golden games: whole-game logs pinned as fixtures in tests/golden/, each played again
from its seed by tests/golden/test_golden.py (compiled and pure) and required to be identical.

A commit that changes games rewrites them (`make golden`, which prints which games
changed and at which action) and says why; every other commit leaves them byte for byte.
The games are listed in tests/golden/games.toml.

    python tests/golden_games.py            # compare, exit 1 when any game differs
    python tests/golden_games.py --write    # rewrite the logs, naming the changes
    python tests/golden_games.py --out DIR  # play them into DIR (the pure-mode test)
"""
from __future__ import annotations

import argparse
import filecmp
import json
import shutil
import sys
import tempfile
import tomllib
from dataclasses import dataclass, field
from pathlib import Path


ROOT = Path(__file__).resolve().parents[1]
GOLDEN = Path(__file__).resolve().parent / "golden"
GAMES = GOLDEN / "games.toml"


@dataclass(frozen=True)
class GoldenGame:
    name: str  # the log is GOLDEN / f"{name}.jsonl"
    players: int
    seed: int
    minors: tuple[str, ...]
    policies: tuple[str, ...]  # one spec per seat
    overrides: dict = field(default_factory=dict)  # ruleset overrides (key path -> value)
    why: str = ""  # what this game pins

    @property
    def log(self) -> Path:
        return GOLDEN / f"{self.name}.jsonl"


def load_games(path: Path = GAMES) -> list[GoldenGame]:
    with open(path, "rb") as f:
        data = tomllib.load(f)
    return [GoldenGame(name=g["name"], players=g["players"], seed=g["seed"], minors=tuple(g["minors"]),
                       policies=tuple(g["policies"]), overrides=dict(g.get("overrides", {})),
                       why=g.get("why", ""))
            for g in data["game"]]


def play(game: GoldenGame, log: Path) -> None:
    """Play `game` as `menorca-sim play` would (each seat's policy on its own stream of
    the seed), writing its log to `log`."""
    from menorca_sim.play import play_game, seat_policies
    from menorca_sim.rules import load_ruleset

    ruleset = load_ruleset(overrides=game.overrides) if game.overrides else load_ruleset()
    play_game(ruleset, game.seed, seat_policies(game.policies, game.seed), minors=list(game.minors), log=log)


def first_difference(expected: Path, actual: Path) -> str | None:
    """None when the files are identical, else where they part: the header, the action
    index (the log's "i") or the result."""
    if expected.exists() and filecmp.cmp(expected, actual, shallow=False):
        return None
    if not expected.exists():
        return "new game"
    old = expected.read_text(encoding="utf-8").splitlines()
    new = actual.read_text(encoding="utf-8").splitlines()
    for line, (a, b) in enumerate(zip(old, new)):
        if a != b:
            return _where(line, new)
    return f"length: {len(old)} lines, now {len(new)}"


def _where(line: int, lines: list[str]) -> str:
    record = json.loads(lines[line])
    if record["type"] == "action":
        return f"action {record['i']} ({record['round']}, {record['phase']}: {record['action']['type']})"
    return record["type"]


def features(log: Path) -> dict:
    """What a logged game exercises: its table, how it ended, whether RADM was formed
    with no minor ever started, and the largest sale a company made of its own certificates."""
    records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    header, actions, result = records[0], records[1:-1], records[-1]
    minors = set(header["minors"])
    minor_started = radm = False
    for record in actions:
        companies = record["state"]["companies"]
        minor_started = minor_started or bool(minors & companies.keys())
        if "RADM" in companies:
            radm = True
            break
    sales = [r["action"]["count"] for r in actions if r["action"]["type"] == "company_sells_certs"]
    return {"players": header["players"], "minors": tuple(sorted(minors)), "seats": tuple(header["seats"]),
            "end_reason": result["reason"], "radm_without_minors": radm and not minor_started,
            "largest_company_sale": max(sales, default=0)}


def compare_all(games: list[GoldenGame], played: Path) -> dict[str, str]:
    """Game name -> where its log in `played` departs from the golden one (only those that do)."""
    return {g.name: diff for g in games
            if (diff := first_difference(g.log, played / g.log.name)) is not None}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="rewrite the golden logs")
    parser.add_argument("--out", type=Path, help="play the games into this folder only")
    args = parser.parse_args(argv)
    games = load_games()
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        for g in games:
            play(g, args.out / g.log.name)
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        played = Path(tmp)
        for g in games:
            play(g, played / g.log.name)
        changed = compare_all(games, played)
        for name, where in changed.items():
            print(f"{name}: changed at {where}")
        if args.write:
            for g in games:
                shutil.move(played / g.log.name, g.log)
            stale = {p.name for p in GOLDEN.glob("*.jsonl")} - {g.log.name for g in games}
            for name in sorted(stale):
                (GOLDEN / name).unlink()
                print(f"{name}: removed (no longer listed)")
            print(f"{len(games)} golden games written, {len(changed)} changed")
            return 0
    print(f"{len(games)} golden games, {len(changed)} differ" + ("" if not changed else
          ": if the change is meant, run `make golden` and say why in the commit"))
    return 1 if changed else 0


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    sys.exit(main())
