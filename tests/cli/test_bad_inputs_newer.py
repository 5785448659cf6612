"""Bad input at the newer surfaces (issue 39): `[plan]`, sweeps and overrides in an
experiment, `plan`, `tune`, `show`, policy parameters and `run`'s limits. Each case is
answered with one line `error: ...` naming the file, key or option and what is wrong,
exit status 2, never a traceback; a bound answers at once where the input would have
taken minutes or all the memory. (Hand-edited manifests and unlisted parts:
tests/run/test_dataset_integrity.py; the older surfaces: test_bad_inputs.py.)"""
from __future__ import annotations

import json
import pickle
import time
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner
from helpers.experiment_files import one_draw_study

from menorca_sim.cli import main
from menorca_sim.cli.errors import OneLineGroup
from menorca_sim.play import play_game
from menorca_sim.rules import load_ruleset
from menorca_sim.run.experiment import load_experiment
from menorca_sim.run.runner import run_experiment
from menorca_sim.tuning.search import Score, run_search
from menorca_sim.tuning.space import load_tune_spec
from policies import PolicyFailure, make_policy

CLI = OneLineGroup(name="menorca-sim", commands=main.commands)

TINY = one_draw_study("tiny", 1, 2, 2, '[policies]\nseats = "random_legal"\n', draw='["Ramaders", "Artesans"]')

TUNE = """name = "t"
opponents = ["heuristic"]
seed = 1
seeds = 1
generations = 1
popsize = 2
"""

# file name -> its text (in the scratch folder {d})
EXPERIMENTS = {
    "nul_name": TINY.replace('"tiny"', '"a\\u0000b"'),
    "plan_effect_2": TINY + "[plan]\neffect = 2\n",
    "plan_effect_nan": TINY + "[plan]\neffect = nan\n",
    "plan_effect_tiny": TINY + "[plan]\neffect = 1e-300\n",
    "plan_power_5": TINY + "[plan]\neffect = 0.03\npower = 5\n",
    "plan_power_1": TINY + "[plan]\neffect = 0.03\npower = 1.0\n",
    "plan_alpha_0": TINY + "[plan]\neffect = 0.03\nalpha = 0\n",
    "plan_alpha_x": TINY + "[plan]\neffect = 0.03\nalpha = \"x\"\n",
    "sweep_nan": TINY + '[sweep]\n"markers.market_bonus" = {from = 0, to = nan, step = 1}\n',
    "sweep_inf": TINY + '[sweep]\n"markers.market_bonus" = {from = 0, to = inf, step = 1}\n',
    "sweep_huge": TINY + '[sweep]\n"markers.market_bonus" = {from = 0, to = 1e8, step = 1}\n',
    "sweep_20001": TINY + '[sweep]\n"markers.market_bonus" = {from = 0, to = 20000, step = 1}\n',
    "sweep_twice": TINY + '[sweeps.a]\n"markers.market_bonus" = {values = [0, 10]}\n'
                          '[sweeps.b]\n"markers.market_bonus" = {values = [20]}\n',
    "sweeps_empty": TINY + "[sweeps]\n",
    "bonus_overflow": TINY + '[overrides]\n"markers.market_bonus" = 9223372036854775807\n',
    "pilot_plan": TINY.replace("games = 2", "games = 4") + '[variants.a]\n[variants.b]\n"markers.market_bonus" = 20\n',
}
TUNINGS = {
    "tune_7_players": TUNE + "players = 7\n[params]\nrisk = [0, 1]\nhorizon = [2, 8]\n",
    "tune_one_param": TUNE + "[params]\nrisk = [0, 1]\n",
    "tune_out_of_range": TUNE + "[params]\nrisk = [0, 2]\nhorizon = [2, 8]\n",
    "tune_int_out_of_range": TUNE + "[params]\nrisk = [0, 1]\nhorizon = [0, 8]\n",
    "tune_inf": TUNE + "[params]\nrisk = [0, inf]\nhorizon = [2, 8]\n",
    "tune_evil_name": TUNE.replace('"t"', '"../../etc/evil"') + "[params]\nrisk = [0, 1]\nhorizon = [2, 8]\n",
    "tune_good": TUNE + "[params]\nrisk = [0, 1]\nhorizon = [2, 8]\n",
}

# (what is wrong, arguments ({d}: the scratch folder), the line's gist)
CASES = [
    ("run: a NUL in the experiment's name", "run {d}/nul_name.toml",
     "nul_name.toml: name: 'a\\x00b' cannot name a file (no '/', '\\' or NUL)"),
    ("run: 2.4 billion games", "run {d}/pilot_plan.toml --games 2400000000 --out {d}/never",
     "pilot_plan.toml: games: 2400000000 games per cell, variant and population make 4,800,000,000 games in all; "
     "a dataset holds at most 100,000,000"),
    ("run: --chunk-timeout nan", "run {d}/pilot_plan.toml --chunk-timeout nan",
     "Invalid value for '--chunk-timeout': expected a finite number, got 'nan'"),
    ("run: --chunk-timeout inf", "run {d}/pilot_plan.toml --chunk-timeout inf",
     "Invalid value for '--chunk-timeout': expected a finite number, got 'inf'"),
    ("[plan]: effect 2", "run {d}/plan_effect_2.toml", "plan_effect_2.toml: plan.effect: expected a non-zero "
                                                      "win-share difference"),
    ("[plan]: effect nan", "run {d}/plan_effect_nan.toml", "plan.effect: expected a finite number, got nan"),
    ("[plan]: power 5", "run {d}/plan_power_5.toml", "plan.power: expected a number within [0.5, 0.999], got 5.0"),
    ("[plan]: power 1", "run {d}/plan_power_1.toml", "plan.power: expected a number within [0.5, 0.999], got 1.0"),
    ("[plan]: alpha 0", "run {d}/plan_alpha_0.toml", "plan.alpha: expected a number within (0, 0.5], got 0.0"),
    ("[plan]: alpha not a number", "run {d}/plan_alpha_x.toml", "plan.alpha: expected a finite number, got 'x'"),
    ("sweep: to = nan", "run {d}/sweep_nan.toml", "sweep.markers.market_bonus: expected finite numbers"),
    ("sweep: to = inf", "run {d}/sweep_inf.toml", "sweep.markers.market_bonus: expected finite numbers"),
    ("sweep: 1e8 points", "run {d}/sweep_huge.toml", "sweep.markers.market_bonus: 100,000,001 points; a sweep has "
                                                    "at most 1,000"),
    ("sweep: 20,001 points", "run {d}/sweep_20001.toml", "20,001 points; a sweep has at most 1,000"),
    ("sweeps: one key in two", "run {d}/sweep_twice.toml",
     "sweeps.b.markers.market_bonus: already swept by sweeps.a with the same other keys: sweep a key in one table"),
    ("sweeps: empty", "run {d}/sweeps_empty.toml", "sweeps_empty.toml: sweeps: no sweep in it"),
    ("overrides: a bonus past the engine's ints", "run {d}/bonus_overflow.toml",
     "bonus_overflow.toml: overrides: menorca_v11.toml: markers.market_bonus: expected an integer of at most "
     "1,000,000,000 in size, got 9223372036854775807"),
    ("policy: mcts(playouts=0)", "play --players 2 --policies mcts(playouts=0)",
     "policy spec 'mcts(playouts=0)': policy mcts: playouts must be at least 1, got 0"),
    ("policy: heuristic(lookahead=5)", "play --players 2 --policies heuristic(lookahead=5)",
     "lookahead must be within [0, 3], got 5"),
    ("policy: an int past a C int", "play --players 2 --policies heuristic(horizon=100000000000000000000000)",
     "parameter 'horizon' must be at most 2147483647 in size, got 100000000000000000000000"),
    ("policy: a float that reads as inf", "play --players 2 --policies heuristic(rival_harm=1e400)",
     "parameter 'rival_harm' must be a finite number, got inf"),
    ("plan: --effect 0", "plan {d}/pilot_plan.toml --effect 0",
     "Invalid value for '--effect': expected a non-zero effect (0.03 = 3 points of win share)"),
    ("plan: --effect nan", "plan {d}/pilot_plan.toml --effect nan",
     "Invalid value for '--effect': expected a finite number, got 'nan'"),
    ("plan: --power nan", "plan {d}/pilot_plan.toml --effect 0.03 --power nan",
     "Invalid value for '--power': expected a finite number, got 'nan'"),
    ("plan: --effect 2", "plan {d}/pilot_plan.toml --effect 2",
     "effect 2: a seat's fair share 0.5 plus the effect must be within (0, 1)"),
    ("plan: --effect 1e-300", "plan {d}/pilot_plan.toml --effect 1e-300",
     "error: effect 1e-300 at level 0.05 (alpha / tests) needs more than 10^15 games"),
    ("plan: --tests 1e20", "plan {d}/pilot_plan.toml --effect 0.03 --tests 100000000000000000000",
     "error: effect 0.03 at level 5e-22 (alpha / tests) needs more than 10^15 games"),
    ("[plan]: an effect too small to find", "run {d}/plan_effect_tiny.toml",
     "error: plan_effect_tiny.toml: plan: effect 1e-300 at level 0.05 (alpha / tests) needs more than 10^15 games"),
    ("plan: a pilot with one variant", "plan {d}/pilot_plan.toml --effect 1 --pilot {d}/one_variant",
     "one_variant: a pilot needs two variants on common seeds to measure pairing, it has 1"),
    ("plan: --metric nosuch", "plan {d}/pilot_plan.toml --effect 1 --pilot {d}/pilot --metric nosuch",
     "--metric 'nosuch': not a numeric column of the games table (one of: actions, bank"),
    ("plan: --metric winners", "plan {d}/pilot_plan.toml --effect 1 --pilot {d}/pilot --metric winners",
     "--metric 'winners': not a numeric column"),
    ("plan: --metric end_reason", "plan {d}/pilot_plan.toml --effect 1 --pilot {d}/pilot --metric end_reason",
     "--metric 'end_reason': not a numeric column"),
    ("plan: a metric that does not vary", "plan {d}/pilot_plan.toml --effect 1 --pilot {d}/pilot --metric players",
     "the pilot's pairs do not differ at all in the metric"),
    ("tune: 7 players", "tune {d}/tune_7_players.toml", "tune_7_players.toml: players: the ruleset has no 7-player "
                                                       "setup (it has 2, 3)"),
    ("tune: one parameter for CMA-ES", "tune {d}/tune_one_param.toml",
     "tune_one_param.toml: params: CMA-ES searches two or more parameters, got 1"),
    ("tune: a bound past the parameter's range", "tune {d}/tune_out_of_range.toml",
     "tune_out_of_range.toml: params.risk: the bound 2.0 is outside the parameter's range (policy spec "
     "'heuristic(risk=2.0)': policy heuristic: risk must be within [0, 1], got 2.0)"),
    ("tune: an int bound past the range", "tune {d}/tune_int_out_of_range.toml",
     "params.horizon: the bound 0 is outside the parameter's range (policy spec 'heuristic(horizon=0)': policy "
     "heuristic: horizon must be at least 1, got 0)"),
    ("tune: an inf bound", "tune {d}/tune_inf.toml",
     "params.risk: expected [low, high], finite numbers with low < high, got [0, inf]"),
    ("tune: a name that climbs out", "tune {d}/tune_evil_name.toml",
     "tune_evil_name.toml: name: '../../etc/evil' cannot name a file"),
    ("tune: a garbage state", "tune {d}/tune_good.toml --out {d}/t.toml --state {d}/garbage.state",
     "garbage.state: not a state file of menorca-sim tune (UnpicklingError); remove it to start afresh"),
    ("tune: a truncated state", "tune {d}/tune_good.toml --out {d}/t.toml --state {d}/truncated.state",
     "truncated.state: not a state file of menorca-sim tune"),
    ("tune: a state without its record", "tune {d}/tune_good.toml --out {d}/t.toml --state {d}/recordless.state",
     "recordless.state: not a state file of menorca-sim tune (no search or record in it)"),
    ("show: a line that is not an object", "show {d}/list_line.jsonl --out {d}/page",
     "list_line.jsonl: not a game log (line 2: expected a JSON object, got list)"),
    ("show: a line that is not JSON", "show {d}/bad_json.jsonl --out {d}/page",
     "bad_json.jsonl: not a game log (line 2: not JSON (Expecting property name enclosed in double quotes))"),
    ("show: an action without state", "show {d}/stateless.jsonl --out {d}/page",
     "stateless.jsonl: action record 1 has no 'state'"),
    ("show: a header without minors", "show {d}/no_minors.jsonl --out {d}/page",
     "no_minors.jsonl: its header has no 'minors'"),
    ("show: an action without its fields", "show {d}/tile_nowhere.jsonl --out {d}/page",
     "tile_nowhere.jsonl: action record"),
]


@pytest.fixture(scope="module")
def scratch(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("newer")
    for name, text in {**EXPERIMENTS, **TUNINGS}.items():
        (d / f"{name}.toml").write_text(text, encoding="utf-8")
    _datasets(d)
    _states(d)
    _logs(d)
    return d


def _datasets(d: Path) -> None:
    """A pilot of two variants on common seeds, and a dataset of one variant."""
    run_experiment(load_experiment(d / "pilot_plan.toml"), d / "pilot", jobs=1)
    (d / "one.toml").write_text(TINY, encoding="utf-8")
    run_experiment(load_experiment(d / "one.toml"), d / "one_variant", jobs=1)


def _states(d: Path) -> None:
    spec = load_tune_spec(d / "tune_good.toml")
    whole = d / "whole.state"
    run_search(spec, lambda candidates, mean, generation, advance: [Score(1, 2)] * len(candidates), whole)
    (d / "truncated.state").write_bytes(whole.read_bytes()[:200])
    (d / "garbage.state").write_bytes(b"\x80\x05not a pickle at all")
    (d / "recordless.state").write_bytes(pickle.dumps({"version": 2}))


def _logs(d: Path) -> None:
    log = d / "game.jsonl"
    assert CliRunner().invoke(CLI, ["play", "--players", "2", "--policies", "random_legal", "--log", str(log)]).exit_code == 0
    lines = log.read_text(encoding="utf-8").splitlines()
    header, first = json.loads(lines[0]), json.loads(lines[1])
    lay = next(i for i, line in enumerate(lines) if '"type": "lay_tile"' in line)
    broken_lay = json.loads(lines[lay])
    del broken_lay["action"]["hex"]
    variants = {
        "list_line": [lines[0], "[1, 2]", *lines[1:]],
        "bad_json": [lines[0], "{bad", *lines[1:]],
        "stateless": [lines[0], json.dumps({k: v for k, v in first.items() if k != "state"}), *lines[2:]],
        "no_minors": [json.dumps({k: v for k, v in header.items() if k != "minors"}), *lines[1:]],
        "tile_nowhere": [*lines[:lay], json.dumps(broken_lay), *lines[lay + 1:]],
    }
    for name, text in variants.items():
        (d / f"{name}.jsonl").write_text("\n".join(text) + "\n", encoding="utf-8")


def test_the_cases_are_distinct():
    assert len({c[0] for c in CASES}) == len({c[1] for c in CASES}) == len(CASES)


@pytest.mark.parametrize("args, gist", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_input_gets_one_line_and_exit_2_at_once(scratch, args, gist):
    began = time.monotonic()
    result = CliRunner().invoke(CLI, [a.format(d=scratch) for a in args.split(" ")])
    lines = result.output.strip().splitlines()
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)  # not a traceback
    assert len(lines) == 1 and lines[0].startswith("error: ") and gist.format(d=scratch) in lines[0], result.output
    assert time.monotonic() - began < 20  # a bound, not minutes of work first
    assert not (scratch / "never").exists()


def test_a_probe_of_a_name_the_ruleset_lacks_is_refused_at_the_file_check(tmp_path):
    (tmp_path / "probe.toml").write_text(TINY.replace('"random_legal"', '["probe(start=NOPE)", "random_legal"]'))
    result = CliRunner().invoke(CLI, ["run", str(tmp_path / "probe.toml"), "--out", str(tmp_path / "data")])
    assert result.exit_code == 2
    assert result.output == ("error: probe.toml: policies.seats[0]: policy spec 'probe(start=NOPE)': probe: "
                             "start='NOPE' is not in the ruleset (it has RNC, RCC, CCM, Ramaders, Artesans, "
                             "Destil·ladors, RADM)\n")
    assert not (tmp_path / "data").exists()
    played = CliRunner().invoke(CLI, ["play", "--players", "2", "--policies", "probe(legacy=L99),random_legal"])
    assert played.exit_code == 2 and played.output.startswith("error: policy spec 'probe(legacy=L99)': probe: "
                                                              "legacy='L99' is not in the ruleset (it has L1")


def test_a_probe_built_from_python_checks_its_names_at_its_first_decision():
    seats = [make_policy("probe(start=NOPE)", 0, np.random.default_rng(0)),
             make_policy("random_legal", 1, np.random.default_rng(1))]
    with pytest.raises(PolicyFailure, match=r"raised PolicyError: probe: start='NOPE' is not in the ruleset"):
        play_game(load_ruleset(), 1, seats)


def test_ctrl_c_in_tune_exits_130_with_a_line(scratch, monkeypatch):
    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr("menorca_sim.tuning.search.run_search", interrupted)
    state = scratch / "interrupted.state"
    result = CliRunner().invoke(CLI, ["tune", str(scratch / "tune_good.toml"), "--out", str(scratch / "i.toml"),
                                      "--state", str(state)])
    assert result.exit_code == 130
    assert result.output == f"interrupted: {state} holds every finished generation; the same command resumes from it\n"


def test_names_the_charts_fonts_lack_are_told_in_one_line(tmp_path):
    """A sweep named in a script the charts' fonts lack: matplotlib warns once per glyph
    and chart (40 lines for one name); the report says it once."""
    (tmp_path / "cjk.toml").write_text(TINY + '[sweeps."市場ボーナス"]\n"markers.market_bonus" = {values = [0, 20]}\n',
                                       encoding="utf-8")
    run_experiment(load_experiment(tmp_path / "cjk.toml"), tmp_path / "data", jobs=1)
    result = CliRunner().invoke(CLI, ["report", str(tmp_path / "data"), "--out", str(tmp_path / "report")])
    assert result.exit_code == 0, result.output
    assert "Glyph" not in result.stderr
    assert result.stderr in ("", "warning: the charts' fonts (DejaVu Sans) lack 6 characters of the names they show: "
                                 "those characters are drawn as boxes\n")  # "" where a CJK font is installed
