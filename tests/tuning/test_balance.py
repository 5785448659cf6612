"""`menorca-sim balance` on planted prices: a worthless legacy listed at 80 R. must come
down, a legacy worth 100 R. (`grant_cash`) listed at 20 R. must go up, and the
confirmation on fresh seeds must say both targets are met (slow: thousands of games);
the solver's step on planted values, and its checks of the balance file.

Both legacies have no income; L8 has no ability either (a custom rules file: an
override can set a key, not replace a table), and a company pays nothing for a legacy,
so that a list price adds no worth of its own (at the default 50 to 150 % of it, the
planted 100 R. was worth 150 under tuned play listed at 130, and 94 under the default
heuristic). The worths are then 0 and 100 in cash, but not at every strength: the
default heuristic plays differently when it holds a legacy (the planted 100 R. was
worth 78 to it), so the confirmation is under the tuned play the prices were solved
for, on fresh seeds."""
from __future__ import annotations

import json
import math
import tomllib
from pathlib import Path

import pytest
from click.testing import CliRunner

from menorca_sim.cli import main
from menorca_sim.analysis.values import ABOVE, IN_RANGE, NOT_MONOTONE
from menorca_sim.rules import default_ruleset_path
from menorca_sim.run.experiment import load_experiment
from menorca_sim.tuning.balance import Measured, measurement_toml, step
from menorca_sim.tuning.balance_spec import BalanceError, PriceKey, load_balance

ABILITIES = {"L9": 'ability = { type = "none" }',  # L9's first: L8's becomes a line like it
             "L8": 'ability = { type = "revenue_bonus", node = "Maó", amount = 20 }'}
PLANTED = {"L8": 'ability = { type = "none" }', "L9": 'ability = { type = "grant_cash", amount = 100 }'}
BALANCE = """
name = "planted"
ruleset = "rules.toml"
seed = 3
games = 200
players = [2]
minors = [["Destil·ladors", "Ramaders"]]

[populations.tuned]
seats = "heuristic_tuned"

[overrides]
"legacies.L8.income" = 0
"legacies.L8.price" = 80
"legacies.L9.income" = 0
"legacies.L9.price" = 20
"operating.company_legacy_price_percent" = [0, 0]

[balance]
keys = ["legacies.L8.price", "legacies.L9.price"]
spread = 50
iterations = 3
confirm_seed = 11
[balance.confirm]
tuned = "heuristic_tuned"
"""


def _files(folder: Path) -> Path:
    rules = default_ruleset_path().read_text(encoding="utf-8")
    for legacy, line in ABILITIES.items():
        assert rules.count(line) == 1, legacy
        rules = rules.replace(line, PLANTED[legacy])
    (folder / "rules.toml").write_text(rules, encoding="utf-8")
    (folder / "balance.toml").write_text(BALANCE, encoding="utf-8")
    return folder / "balance.toml"


@pytest.mark.slow
def test_the_solver_moves_planted_prices_toward_their_worth_and_confirms_them(tmp_path: Path) -> None:
    balance = _files(tmp_path)
    done = CliRunner().invoke(main, ["balance", str(balance), "--out", str(tmp_path / "out"), "--jobs", "1"])
    assert done.exit_code == 0, done.output
    assert "confirmation: every target met" in done.output, done.output
    suggested = tomllib.loads((tmp_path / "out" / "suggested.toml").read_text(encoding="utf-8"))["overrides"]
    assert suggested["legacies.L8.price"] <= 30 and 70 <= suggested["legacies.L9.price"] <= 130, suggested
    summary = (tmp_path / "out" / "summary.md").read_text(encoding="utf-8")
    assert "every target is met" in summary and "| `legacies.L9.price` | 20 |" in summary
    state = json.loads((tmp_path / "out" / "state.json").read_text(encoding="utf-8"))
    assert {r["population"] for v in state["confirmation"]["values"] for r in v["rows"]} == {"tuned"}
    # a finished solve run again plays nothing more and says the same
    again = CliRunner().invoke(main, ["balance", str(balance), "--out", str(tmp_path / "out"), "--jobs", "1"])
    assert again.exit_code == 0 and again.output.splitlines()[-1] == done.output.splitlines()[-1]


def _measured(price: int, *rows: tuple[str, float, float, float]) -> Measured:
    key = PriceKey("legacies.L1.price", "legacy", legacy="L1", original=price)
    return Measured(key, price, tuple({"status": s, "value": v, "low": lo, "high": hi, "population": "p", "players": 2}
                                      for s, v, lo, hi in rows))


def test_a_key_moves_toward_its_value_unless_the_games_cannot_reject_its_price() -> None:
    inf, nan = math.inf, math.nan
    within = _measured(50, (IN_RANGE, 60, 40, 80))
    missed = _measured(50, (IN_RANGE, 100, 85, 115), (IN_RANGE, 80, 65, 95))  # two cells: their mean
    vague = _measured(50, (IN_RANGE, 90, -inf, inf))  # no finite interval: not met, moves
    beyond = _measured(50, (ABOVE, nan, -inf, inf))
    unordered = _measured(50, (NOT_MONOTONE, nan, -inf, inf))
    assert within.met() and not missed.met() and not vague.met()
    moved = [step([m], k, 30)["legacies.L1.price"] for m in (within, missed, vague, beyond, unordered) for k in (0, 1)]
    assert moved == [50, 50, 90, 70, 90, 70, 110, 80, 50, 50]  # k = 0 jumps, k = 1 goes half way; edge = 50 + 60
    assert step([_measured(10, (IN_RANGE, -40, -60, -20))], 0, 30) == {"legacies.L1.price": 0}  # a price is >= 0


def test_the_measurement_of_a_balance_file_is_an_experiment_on_the_current_prices(tmp_path: Path) -> None:
    spec = load_balance(_files(tmp_path))
    text = measurement_toml(spec, {"legacies.L8.price": 30, "legacies.L9.price": 120}, 7, None, "m")
    (tmp_path / "m.toml").write_text(text, encoding="utf-8")
    exp = load_experiment(tmp_path / "m.toml")
    assert exp.seed == 7 and exp.games == 200 and [p.name for p in exp.populations] == ["tuned"]
    holds = {v.name: v.overrides for v in exp.variants}
    assert holds["L9: setup.assigned_price=70"]["legacies.L9.price"] == 120
    assert sorted(o["setup.assigned_price"] for n, o in holds.items() if n.startswith("L8:")) == [-70, -20, 30, 80, 130]
    assert holds["L8_out"]["setup.assigned_arm"] == "out" and holds["L8_out"]["legacies.L8.income"] == 0


def test_a_state_of_another_balance_file_is_refused(tmp_path: Path) -> None:
    balance = _files(tmp_path)
    out = tmp_path / "out"
    out.mkdir()
    (out / "state.json").write_text('{"balance": "something else", "iterations": [], "settled": false, '
                                    '"confirmation": null}', encoding="utf-8")
    done = CliRunner().invoke(main, ["balance", str(balance), "--out", str(out)])
    assert done.exit_code == 2 and "solves another balance file" in done.output


@pytest.mark.parametrize("change, problem", [
    ('keys = ["legacies.L8.price", "legacies.L9.price"]', None),
    ('keys = ["legacies.L42.price"]', "balance.keys: legacies.L42.price: no legacy 'L42'"),
    ('keys = ["market.0.price"]', "balance.keys: 'market.0.price' is no price the solver knows"),
    ('keys = ["player_counts.0.seat_cash.2"]', "balance.keys: player_counts.0.seat_cash.2: seat 2 does not exist "
                                               "with 2 players"),
    ('keys = []', "balance.keys: name at least one key"),
])
def test_the_balance_file_is_checked(tmp_path: Path, change: str, problem: str | None) -> None:
    balance = _files(tmp_path)
    balance.write_text(BALANCE.replace('keys = ["legacies.L8.price", "legacies.L9.price"]', change), encoding="utf-8")
    if problem is None:
        spec = load_balance(balance)
        assert [(k.key, k.original) for k in spec.keys] == [("legacies.L8.price", 80), ("legacies.L9.price", 20)]
        return
    with pytest.raises(BalanceError, match=problem.replace("[", "\\[").replace(".", "\\.")):
        load_balance(balance)


def test_every_seat_but_the_first_is_a_seat_key(tmp_path: Path) -> None:
    balance = _files(tmp_path)
    balance.write_text(BALANCE.replace('keys = ["legacies.L8.price", "legacies.L9.price"]',
                                       'keys = ["player_counts.*.seat_cash.*"]'), encoding="utf-8")
    assert [k.key for k in load_balance(balance).keys] == ["player_counts.0.seat_cash.1", "player_counts.1.seat_cash.1",
                                                           "player_counts.1.seat_cash.2"]
