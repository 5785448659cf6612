"""Conclusions about the game, not about the bots (issue 40): rule effects like with
like, strength labels over rungs, dead content per population, and the analysis
package without an import circle."""
from __future__ import annotations

import ast
from pathlib import Path

import polars as pl
import pytest
from helpers import ROOT, synthetic_data
from helpers.experiment_files import one_draw_study, run_study

from menorca_sim.analysis import advice, strength
from menorca_sim.analysis import findings as find
from menorca_sim.analysis.dataset import Dataset
from menorca_sim.analysis.pipeline import analyse

RUNGS = ("heuristic", "heuristic_tuned", "mcts")  # homogeneous populations, weakest first (the file's order)


def _analysis(tmp_path, **spec):
    return analyse(Dataset(synthetic_data.write_dataset(tmp_path, synthetic_data.Spec(**spec))))


def _rungs(seats: dict[str, dict[int, tuple[float, ...]]]) -> dict:
    """Three rungs, each one policy in every seat, with the seat strengths given."""
    return dict(populations={r: seats.get(r, {2: (1.0, 1.0)}) for r in RUNGS},
                lineups={r: (r,) for r in RUNGS})


def test_a_strong_policy_that_buys_a_legacy_makes_no_legacy_finding(tmp_path):
    """heuristic against random_legal: the heuristic buys L6 whenever it is in play and
    wins almost every game. Against players of the same seat and draw L6's buyer looks
    strong; against players of the same policy it is not separable from who buys it."""
    a = _analysis(tmp_path, games=600, player_counts=(2,), seed=5, names=("heuristic", "random_legal"),
                  strength={"random_legal": 0.1}, legacy_buyer_name={"L6": "heuristic"})
    edge = a.tables["legacy_edge"].filter(pl.col("legacy") == "L6").row(0, named=True)
    assert edge["top_policy"] == "heuristic+heuristic" and edge["top_share"] == 1.0 and not edge["separable"]
    assert not [c for c in a.comparisons if c.section == "legacy"]  # a mixed-strength population tests no rule
    assert not [f for f in find.findings(a) if "buyer" in f.text]


def test_a_legacy_only_one_policy_buys_is_not_separable(tmp_path):
    a = _analysis(tmp_path, games=600, player_counts=(2,), seed=6, names=("alpha", "beta"),
                  legacy_strength={"L3": 2.0}, legacy_buyer_name={"L3": "alpha"})
    assert a.roles.styles == ("",)  # one strength: the rules are tested here
    assert not [c for c in a.comparisons if c.section == "legacy" and "L3" in c.subject]
    [line] = [line for line in find.inseparable(a) if line.startswith("L3")]
    assert line.startswith("L3's effect is not separable from who buys it (2-player games: heuristic+alpha makes "
                           "100 % of its ")
    assert any(c.section == "legacy" for c in a.comparisons)  # the other legacies are tested


def test_a_planted_legacy_effect_is_found_within_policy(tmp_path):
    a = _analysis(tmp_path, games=900, player_counts=(3,), seed=11, legacy_strength={"L4": 2.5})
    [l4] = [f for f in find.findings(a) if "buyer of L4" in f.text]
    assert l4.text.startswith("In 3-player games the buyer of L4 wins more often than players of the same policy")
    edge = a.tables["legacy_edge"].filter(pl.col("legacy") == "L4").row(0, named=True)
    assert edge["separable"] and edge["edge_low"] > 0 and edge["compared"] == edge["games"]


def test_a_planted_seat_handicap_is_stable_with_strength(tmp_path):
    handicap = {2: (0.55, 1.0)}  # seat 1 plays as if it started with less cash, at every rung
    a = _analysis(tmp_path, games=600, player_counts=(2,), seed=7, **_rungs({r: handicap for r in RUNGS}))
    assert a.roles.rungs == RUNGS and not a.roles.mixed
    [seat] = [f for f in find.findings(a) if f.text.startswith("In 2-player games seat 1 wins")]
    assert seat.label == strength.STABLE
    [change] = [c for c in advice.what_to_change(a) if "seat_cash" in c.key]
    assert change.key == "[[player_counts]] players = 2: seat_cash[0]"
    assert change.direction == "raise it: more starting cash for seat 1"
    assert "[stable with strength]" in change.evidence


def test_an_effect_of_the_lowest_rung_only_is_weak_play_only(tmp_path):
    a = _analysis(tmp_path, games=600, player_counts=(2,), seed=8, **_rungs({"heuristic": {2: (2.5, 1.0)}}))
    [seat] = [f for f in find.findings(a) if f.text.startswith("In 2-player games seat 1 wins")]
    assert seat.label == strength.WEAK_ONLY
    [curve] = [c for c in find.headline_curves(a) if c[0] == "2 players, seat 1"]
    assert curve[2]["population"].to_list() == list(RUNGS) and curve[2]["significant"].to_list() == [True, False,
                                                                                                      False]


def test_opposite_significant_effects_reverse_with_strength(tmp_path):
    a = _analysis(tmp_path, games=600, player_counts=(2,), seed=9,
                  **_rungs({"heuristic": {2: (2.5, 1.0)}, "mcts": {2: (0.4, 1.0)}}))
    [seat] = [f for f in find.findings(a) if f.text.startswith("In 2-player games seat 1 wins")]
    assert seat.label == strength.REVERSES


def test_a_company_dead_in_one_population_of_three_is_named(tmp_path):
    a = _analysis(tmp_path, games=300, player_counts=(2,), seed=10,
                  populations={"calm": None, "warm": None, "tuned": None}, never_started={"tuned": ("CCM",)})
    lines = [f.line() for f in find.dead_content(a)]
    [ccm] = [line for line in lines if line.startswith("CCM")]
    assert ccm.startswith("CCM is never started in tuned games: 0 % (0–")
    assert "calm" not in ccm and "warm" not in ccm


def test_no_import_circle_in_the_analysis_package():
    package = ROOT / "menorca_sim" / "analysis"
    graph = {path.stem: _analysis_imports(path) for path in package.glob("*.py")}
    seen: dict[str, int] = {}  # 1: on the current path, 2: done

    def visit(module: str, path: list[str]) -> None:
        seen[module] = 1
        for other in graph.get(module, ()):
            assert seen.get(other) != 1, " -> ".join([*path, module, other])
            if other not in seen:
                visit(other, [*path, module])
        seen[module] = 2

    for module in graph:
        if module not in seen:
            visit(module, [])
    assert "aggregate" not in graph and {"dataset", "tables", "effects", "comparisons", "findings"} <= set(graph)


def _analysis_imports(path: Path) -> set[str]:
    """The analysis modules a module imports, at its top or inside its functions."""
    out = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module == "menorca_sim.analysis":
                out |= {a.name for a in node.names}
            elif node.module.startswith("menorca_sim.analysis."):
                out.add(node.module.rsplit(".", 1)[1])
        elif isinstance(node, ast.Import):
            out |= {a.name.rsplit(".", 1)[1] for a in node.names if a.name.startswith("menorca_sim.analysis.")}
    return out - {"open"} if path.stem != "__init__" else set()


@pytest.mark.slow
def test_a_real_seat_cash_handicap_is_found_and_stable_over_real_rungs(tmp_path):
    """Seat 1 of a 2-player game starts with 250 R. less (the ruleset's seat_cash), played
    by two real rungs, heuristic and heuristic_tuned, in every seat."""
    data = run_study(tmp_path, one_draw_study("handicap", 40, 240, 2, """
seating = "rotate"
[overrides]
"player_counts.0.seat_cash" = [-250, 0]
[populations.heuristic]
seats = "heuristic"
[populations.tuned]
seats = "heuristic_tuned"
"""))
    a = analyse(Dataset(data))
    assert a.roles.rungs == ("heuristic", "tuned")
    [seat] = [f for f in find.findings(a) if f.text.startswith("In 2-player games seat 1 wins")]
    assert seat.label == strength.STABLE, seat.line()
    assert all(c.estimate < c.reference for c in find.facts(a)[("seat", "", 2, 1)].values())


def test_the_strongest_rung_stopping_short_of_the_late_phases_is_a_finding(tmp_path):
    data = synthetic_data.write_dataset(tmp_path, synthetic_data.Spec(games=300, player_counts=(2,), seed=12,
                                                                      **_rungs({})))
    for part in (data / "games").glob("*.parquet"):  # every mcts game ends by the bank in 6H
        df = pl.read_parquet(part)
        top = pl.col("population") == "mcts"
        df.with_columns(phase=pl.when(top).then(pl.lit("6H")).otherwise("phase"),
                        epoch=pl.when(top).then(2).otherwise("epoch"),
                        end_reason=pl.when(top).then(pl.lit("bank")).otherwise("end_reason")).write_parquet(part)
    a = analyse(Dataset(data))
    [ending] = [f for f in find.findings(a) if f.text.startswith("The stronger the players, the shorter the game")]
    assert "under the strongest play (mcts) 100 % (99–100 %) of 300 games end by the bank, and phase 7H is " \
           "reached in 0 % (0–1 %) of them, against " in ending.text
    assert any(line.startswith("Phase 7H (or any later one) is never reached in mcts games")
               for line in (f.line() for f in find.dead_content(a)))
