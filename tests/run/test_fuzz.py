"""`menorca-sim fuzz`: the plan it plays, a short fuzz run of the real engine with every
invariant checked, and how failures are reported (with a command that replays them)."""
from __future__ import annotations

import re
import shlex
from collections import Counter

import numpy as np
import pytest
from click.testing import CliRunner

from menorca_sim.cli.fuzz import command
from menorca_sim.cli.play import command as play_command
from menorca_sim.core.codes import POOL
from menorca_sim.core.transitions import Checker
from menorca_sim.game import Game, InvariantError
from menorca_sim.rules import load_ruleset
from menorca_sim.run import parquet_store as store
from menorca_sim.run.chunk_worker import play_one
from menorca_sim.run.fuzz import Failure, FuzzReport, fuzz_experiment, run_fuzz

# The default test run's fuzz: about 1,000 games (a multiple of the 6 player-count x draw
# cells), ~60 s on 2 idle cores (~18 games/s with every check on); `make fuzz` plays 100,000.
SHORT_FUZZ_GAMES = 1002
RS = load_ruleset()


def test_short_fuzz_of_the_real_engine_finds_no_violation_and_no_crash():
    out = CliRunner().invoke(command, ["--games", str(SHORT_FUZZ_GAMES), "--jobs", "2", "--quiet"])
    assert out.exit_code == 0, out.output
    summary = out.output.strip().splitlines()[-1]
    assert summary.startswith(f"fuzz: {SHORT_FUZZ_GAMES} games played (2/3 players x 3 minor draws; "), summary
    assert "0 invariant violations, 0 crashes" in summary
    actions = int(re.search(r"(\d+) actions checked", summary).group(1))
    assert actions > 100 * SHORT_FUZZ_GAMES  # every game's actions, not one per game


def test_plan_covers_every_player_count_minor_draw_and_table():
    experiment, description = fuzz_experiment(100, seed=7)
    assert {c.players for c in experiment.cells} == set(RS.player_counts) == {2, 3}
    assert {c.minors for c in experiment.cells if c.players == 3} == {
        ("Ramaders", "Artesans"), ("Ramaders", "Destil·ladors"), ("Artesans", "Destil·ladors")}
    assert experiment.total_games == 102  # 100 rounded up to a multiple of the 6 cells
    assert experiment.populations[0].arrangements[3] == (
        ("random_legal",) * 3, ("heuristic", "random_legal", "random_legal"),
        ("random_legal", "heuristic", "random_legal"), ("random_legal", "random_legal", "heuristic"))
    for cell in experiment.cells:  # every table equally often (within one game) in every cell
        tables = Counter(g.policies for g in experiment.games_in(0, experiment.total_games) if g.cell == cell.name)
        assert set(tables) == set(experiment.populations[0].arrangements[cell.players])
        assert max(tables.values()) - min(tables.values()) <= 1
    assert len({experiment.game(i).seed for i in range(experiment.total_games)}) == experiment.total_games
    assert "one heuristic" in description


def test_without_heuristic_players_the_plan_says_random_only():
    experiment, description = fuzz_experiment(12, seed=0, heuristic=False)
    assert all(set(experiment.game(i).policies) == {"random_legal"} for i in range(experiment.total_games))
    assert "random_legal only: no heuristic policy is registered" in description


def flaky_engine(ruleset, game):
    """The real checked engine, except that some seeds break an invariant or crash."""
    if game.seed % 4 == 0:
        raise InvariantError(f"seed {game.seed}, action index 17: money not conserved")
    if game.seed % 4 == 1:
        raise KeyError("boom")
    return play_one(ruleset, game, check=True)


def test_failures_come_with_their_seed_and_a_replay_command(tmp_path):
    report = run_fuzz(24, seed=3, jobs=1, out=tmp_path / "data", play=flaky_engine)
    errors = store.read_table(tmp_path / "data", "errors").to_pylist()
    expected = {row["seed"]: row for row in errors}
    assert report.games == 24 and len(report.failures) == len(errors) > 0
    assert report.violations == sum(s % 4 == 0 for s in expected) > 0
    assert report.crashes == sum(s % 4 == 1 for s in expected) > 0
    lines = report.lines()
    for f in report.failures:
        kind = "violation" if f.seed % 4 == 0 else "crash"
        at = lines.index(f"{kind}: game {f.game_id}, seed {f.seed}: {expected[f.seed]['error']}")
        assert lines[at + 1].startswith("  replay: ")
        assert shlex.split(lines[at + 1]) == [
            "replay:", "menorca-sim", "play", "--players", str(f.players), "--seed", str(f.seed),
            "--minors", ",".join(expected[f.seed]["cell"].split("|")[1].split("+")),
            "--policies", ",".join(expected[f.seed]["policies"]), "--check"]
    assert lines[-1].endswith(f"{report.violations} invariant violations, {report.crashes} crashes; "
                              f"{report.wall_s:.1f} s")


def test_replay_command_plays_the_same_game(tmp_path):
    report = run_fuzz(12, seed=11, jobs=1, out=tmp_path / "data")
    assert not report.failures
    experiment, _ = fuzz_experiment(12, seed=11)
    players = store.read_table(tmp_path / "data", "players").to_pylist()
    for game_id in (1, 7):  # a heuristic table of 2 players, then of 3
        spec = experiment.game(game_id)
        assert "heuristic" in spec.policies
        replay = Failure(game_id, spec.seed, spec.players, spec.minors, spec.policies, "").replay_command()
        out = CliRunner().invoke(play_command, shlex.split(replay)[2:])
        assert out.exit_code == 0, out.output
        printed = [int(w) for w in re.findall(r"wealth\s+(\d+)", out.output)]
        assert printed == [p["wealth"] for p in players if p["game_id"] == game_id]


def test_cli_exits_1_when_a_game_failed(monkeypatch):
    failed = FuzzReport(10, 900, (Failure(3, 42, 2, ("Ramaders", "Artesans"), ("random_legal",) * 2,
                                          "KeyError: 'boom'"),), 1.0, "tables", None)
    monkeypatch.setattr("menorca_sim.run.fuzz.run_fuzz", lambda *a, **k: failed)
    out = CliRunner().invoke(command, ["--games", "10"])
    assert out.exit_code == 1
    assert ("crash: game 3, seed 42: KeyError: 'boom'\n  replay: menorca-sim play --players 2 --seed 42 "
            "--minors Ramaders,Artesans --policies random_legal,random_legal --check\n") in out.output
    assert out.output.strip().endswith("0 invariant violations, 1 crashes; 1.0 s")


@pytest.mark.parametrize("args, problem", [
    (["--games", "0"], "'--games': 0 is not in the range x>=1"),
    (["--resume"], "--resume needs --out"),
])
def test_cli_rejects_bad_arguments(args, problem):
    out = CliRunner().invoke(command, args)
    assert out.exit_code == 2 and problem in out.output


@pytest.mark.slow
def test_thousands_of_fuzz_games():
    out = CliRunner().invoke(command, ["--games", "6000", "--quiet"])
    assert out.exit_code == 0, out.output
    assert "0 invariant violations, 0 crashes" in out.output


# --- the checks fuzzing relies on catch what a buggy engine would do ---------------------


class _Tampering(Checker):
    """A checker that first has `tamper(engine)` change the state the engine left, as a
    buggy engine would (the checks run right after the engine applied the action)."""

    def __init__(self, checker: Checker, tamper) -> None:
        super().__init__()
        self.__dict__.update(checker.__dict__)
        self.tamper = tamper

    def after(self, eng, before):
        self.tamper(eng)
        return super().after(eng, before)


def broken_engine_error(when, tamper, players: int = 3) -> str:
    """Play random-legal games with the checks on; from the first action for which
    `when(game, action)` holds, `tamper(engine)` right after each action the engine
    applies. Returns the InvariantError's message."""
    for seed in range(40):
        game = Game(RS, players=players, seed=seed, check=True)
        rng = np.random.default_rng(seed)
        while not game.is_over():
            legal = game.legal_actions()
            action = legal[int(rng.integers(len(legal)))]
            watchers = game._watchers
            if when(game, action) and not isinstance(watchers.checker, _Tampering):
                watchers.checker = _Tampering(watchers.checker, tamper)
            try:
                game.apply(action)
            except InvariantError as exc:
                return str(exc)
    raise AssertionError("no game reached the situation")


def first_started(eng, kind: str | None = None) -> int:
    return next(c for c in range(len(eng.t.companies))
                if eng.started[c] and not eng.closed[c] and kind in (None, eng.t.companies[c].kind))


def _to_the_pool(eng) -> None:
    """Every certificate players hold, but Trust Family ones, into the Exchange."""
    for c, owners in enumerate(eng.cert_owner):
        for k, owner in enumerate(owners):
            if owner < eng.n and not (k == 0 and eng.t.companies[c].kind == "major"):
                owners[k] = POOL


def _bought(game, action) -> bool:
    return action["type"] == "buy_cert"


@pytest.mark.parametrize("name, when, tamper, message", [
    ("start-player marker lost", lambda g, a: True, lambda e: setattr(e, "start_player", e.n),
     "start-player marker held by 3, not one of the 3 players"),
    ("marker not with the first passer", lambda g, a: g.decision() == "stock_turn" and a["type"] == "pass",
     lambda e: setattr(e, "start_player", (e.start_player + 1) % e.n) if e.round == "operating" else None,
     "over: start-player marker with P"),
    ("bank pays what nobody is due", lambda g, a: a["type"] == "pass" and g.decision() == "auction_turn",
     lambda e: (setattr(e, "bank", e.bank - 10), e.p_cash.__setitem__(0, e.p_cash[0] + 10)),
     "the bank paid 10, but 0 was due"),
    ("price token moves with no cause", _bought,
     lambda e: e.co_row.__setitem__(first_started(e), e.co_row[first_started(e)] - 1),
     "moved from"),
    ("bought then sold in the first stock round", lambda g, a: _bought(g, a) and g.context()["sr"] == 1,
     lambda e: _to_the_pool(e) if e.srs == 1 else None, "in the first stock round"),
    ("Trust Family certificate changes hands", _bought,
     lambda e: e.cert_owner[first_started(e, "major")].__setitem__(
         0, (e.cert_owner[first_started(e, "major")][0] + 1) % e.n),
     "Trust Family certificate passed from"),
    ("certificate with an owner code nobody has", _bought,
     lambda e: e.cert_owner[first_started(e)].__setitem__(1, POOL + 50),
     "certificates with an unknown owner"),
    ("phase goes back", lambda g, a: g.phase_index() >= 1, lambda e: setattr(e, "phase", 0),
     "went back from phase 1"),
    ("retired vehicles kept", lambda g, a: any(g._eng.co_vehicles),
     lambda e: (setattr(e, "phase", RS.phase_index("7H")), setattr(e, "epoch", 3)),
     "retired in 7H"),
    ("game ends without a reason", lambda g, a: True, lambda e: setattr(e, "final_reason", "tired"),
     "game over with end reason 'tired'"),
])
def test_checks_catch_a_broken_engine(name, when, tamper, message):
    error = broken_engine_error(when, tamper)
    assert re.match(r"seed \d+, action index \d+ \(", error) and message in error, error
