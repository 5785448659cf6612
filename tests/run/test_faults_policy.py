"""A user policy misbehaving at scale: a game past the decision limit, a policy stuck in
a loop, a crash that kills the process playing the game, a policy leaking memory. Each
such game becomes an error row with its seed and the run goes on; every other row is
the uninterrupted run's."""
from __future__ import annotations

import functools

from click.testing import CliRunner
from helpers.experiment_files import TINY
from helpers.faults import assert_same_rows, cli_playing, misbehaving_play, toy_study
from helpers.toy_games import dataset

from menorca_sim.cli import run as cli_run
from menorca_sim.run.experiment import load_experiment
from menorca_sim.run.runner import run_experiment


def test_a_game_past_the_decision_limit_is_an_error_row(tmp_path):
    exp_path = tmp_path / "tiny.toml"
    exp_path.write_text(TINY, encoding="utf-8")
    exp = load_experiment(exp_path)
    run_experiment(exp, tmp_path / "whole", jobs=1, chunk=4)  # the real engine, random_legal players
    actions = dict(zip(*dataset(tmp_path / "whole")["games"].select(["game_id", "actions"]).to_pydict().values()))
    limit = sorted(actions.values())[len(actions) // 2]  # about half the games need more decisions
    over = frozenset(g for g, n in actions.items() if n > limit)

    out = tmp_path / "data"
    result = CliRunner().invoke(cli_run.command, [str(exp_path), "--out", str(out), "--jobs", "2", "--chunk", "4",
                                                  "--quiet", "--max-decisions", str(limit)])
    assert result.exit_code == 0, result.output
    assert result.output.startswith(f"tiny: 12 games played, {len(over)} errors, ")
    assert_same_rows(out, tmp_path / "whole", exp.total_games, errors=over)
    errors = dataset(out)["errors"]["error"].to_pylist()
    assert all(e.startswith(f"DecisionLimitExceeded: the game went past {limit} decisions (--max-decisions) "
                            "with seat ") for e in errors)


def test_hanging_crashing_and_leaking_policies_are_bounded(tmp_path, monkeypatch):
    exp_path, exp = toy_study(tmp_path, 8)
    # chunk 6 (games 48-55) leaks 64 MiB a game from game 50: under a 150 MB cap, the third
    # leak of a process fails; the next game starts in a fresh process
    play = functools.partial(misbehaving_play, hang=frozenset({10, 40}), die=frozenset({25}),
                             leak=frozenset(range(50, 56)))
    cli_playing(monkeypatch, play)
    out = tmp_path / "data"
    result = CliRunner().invoke(cli_run.command, [str(exp_path), "--out", str(out), "--jobs", "2", "--chunk", "8",
                                                  "--quiet", "--chunk-timeout", "1", "--max-memory", "150"])
    assert result.exit_code == 0, result.output
    assert result.output.startswith("toy: 72 games played, 5 errors, ")
    assert_same_rows(out, tmp_path / "whole", exp.total_games, errors=frozenset({10, 25, 40, 52, 55}))
    errors = dict(zip(*dataset(out)["errors"].select(["game_id", "error"]).to_pydict().values()))
    stopped = "ChunkTimeout: the chunk's time limit of 1 s (--chunk-timeout) ran out in this game; its process was stopped"
    assert errors == {10: stopped, 40: stopped, 52: "MemoryError", 55: "MemoryError",
                      25: "ProcessDied: the process playing this game ended (killed by signal SIGKILL)"}
