"""The balance file (`menorca-sim balance BALANCE.toml`): which prices the solver may
change, on which games it measures them, and the two strengths that confirm them.

It is an experiment file's header (name, ruleset, seed, games, players, minors,
seating, [populations.NAME] tables, [overrides]) with a [balance] table:

    [balance]
    keys = ["legacies.*.price", "player_counts.0.seat_cash.*"]
    spread = 30              # the measured prices: the current one and +-spread, +-2 spread
    iterations = 5           # at most; it stops sooner when no target is missed
    confirm_seed = 99        # fresh seeds for the confirmation
    [balance.confirm]        # the confirmation's populations (two strengths)
    heuristic = "heuristic"
    tuned = "heuristic_tuned"

A key's target follows from its kind: a legacy's list price is its value to the seat
that holds it (analysis/value_tables.legacy_values: neutral to its buyer), and a seat's
extra starting cash is the cash at which it wins its fair share (seat_values: seats
even). `*` stands for every legacy, or every seat but the first (adding the same cash
to every seat changes nothing between them, so the first seat is the reference)."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from menorca_sim.rules import Ruleset, RulesetError, load_ruleset
from menorca_sim.rules.loader import read_rules_file
from menorca_sim.rules.reader import Table
from menorca_sim.run.experiment import flat_overrides

LEGACY_PRICE = re.compile(r"^legacies\.([^.]+)\.price$")
SEAT_CASH = re.compile(r"^player_counts\.(\d+|\*)\.seat_cash\.(\d+|\*)$")
HEADER = ("name", "description", "seed", "games", "players", "minors", "seating")  # copied into each measurement


class BalanceError(ValueError):
    """A balance file that cannot be used: `file: key: problem`, one line."""


@dataclass(frozen=True)
class PriceKey:
    key: str  # the dotted ruleset key
    kind: str  # "legacy" | "seat"
    legacy: str = ""  # its legacy
    players: int = 0  # a seat's player count (0: a legacy's key holds for every count)
    original: int = 0  # its value in the rules


@dataclass(frozen=True)
class BalanceSpec:
    file: Path
    header: dict[str, Any]  # the experiment header's plain keys, copied into each measurement
    populations: dict[str, Any]  # [populations.NAME] tables, as the file has them
    overrides: dict[str, Any]  # [overrides], as dotted keys
    keys: tuple[PriceKey, ...]
    spread: int
    iterations: int
    confirm_seed: int
    confirm: dict[str, str]  # population name -> policy spec in every seat
    ruleset_path: str | None  # absolute, None: the default rules


def load_balance(path: str | Path) -> BalanceSpec:
    path = Path(path)
    try:
        _, data = read_rules_file(path)  # a rules file's reader: the same one-line errors
        t = Table(path.name, data)
        t.only({*HEADER, "ruleset", "populations", "overrides", "balance"})
        populations = t.raw("populations")
        if not isinstance(populations, dict) or not populations:
            raise t.fail("populations", "expected named tables, e.g. [populations.tuned] seats = \"heuristic_tuned\"")
        b = t.table("balance")
        b.only({"keys", "spread", "iterations", "confirm_seed", "confirm"})
        ruleset_key = t.str("ruleset", "default")
        ruleset_path = None if ruleset_key == "default" else str((path.parent / ruleset_key).resolve())
        overrides = flat_overrides(t, "overrides", t.raw("overrides", {}))
        rules = load_ruleset(ruleset_path, overrides)
        keys = _expand(b, b.str_list("keys"), rules)
        confirm = b.table("confirm")
        specs = {name: confirm.str(name) for name in confirm.data}
        if not specs:
            raise b.fail("confirm", "name at least one population (two strengths, say)")
        return BalanceSpec(path, {k: v for k, v in data.items() if k in HEADER}, populations, overrides, keys,
                           b.int("spread", 30, minimum=1),
                           b.int("iterations", 5, minimum=1), b.int("confirm_seed", minimum=0), specs, ruleset_path)
    except RulesetError as exc:
        raise BalanceError(str(exc)) from None


def _expand(b: Table, patterns: tuple[str, ...], rules: Ruleset) -> tuple[PriceKey, ...]:
    """Each pattern's keys, in order, each once."""
    if not patterns:
        raise b.fail("keys", "name at least one key, e.g. \"legacies.*.price\"")
    out: dict[str, PriceKey] = {}
    counts = list(rules.player_counts.values())
    for pattern in patterns:
        legacy, seat = LEGACY_PRICE.match(pattern), SEAT_CASH.match(pattern)
        if legacy:
            names = list(rules.legacies) if legacy[1] == "*" else [legacy[1]]
            for name in names:
                if name not in rules.legacies:
                    raise b.fail("keys", f"{pattern}: no legacy {name!r} (the rules have {', '.join(rules.legacies)})")
                out.setdefault(f"legacies.{name}.price", PriceKey(f"legacies.{name}.price", "legacy", legacy=name,
                                                                  original=rules.legacies[name].price))
        elif seat:
            rows = range(len(counts)) if seat[1] == "*" else [int(seat[1])]
            for i in rows:
                if i >= len(counts):
                    raise b.fail("keys", f"{pattern}: the rules have {len(counts)} player counts (index 0 to "
                                         f"{len(counts) - 1})")
                n = counts[i].players
                seats = range(1, n) if seat[2] == "*" else [int(seat[2])]
                for s in seats:
                    if s >= n:
                        raise b.fail("keys", f"{pattern}: seat {s} does not exist with {n} players")
                    key = f"player_counts.{i}.seat_cash.{s}"
                    out.setdefault(key, PriceKey(key, "seat", players=n, original=counts[i].seat_cash[s]))
        else:
            raise b.fail("keys", f"{pattern!r} is no price the solver knows (legacies.X.price or "
                                 f"player_counts.I.seat_cash.S, X, I or S may be *)")
    return tuple(out.values())
