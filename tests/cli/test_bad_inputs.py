"""Bad input at every command of `menorca-sim`: each is answered with one line naming
the problem and exit status 2, never a traceback. The commands run under
`OneLineGroup` (menorca_sim/cli/errors.py), the class of the `menorca-sim` group, so
that click's own usage errors are one line as well. (Ruleset files: more cases in
test_rules_errors.py; experiment files: test_experiment.py.)

Also: a corrupt or truncated Parquet part found by `run --resume` is played again,
and the intact chunks are kept."""
from __future__ import annotations

from pathlib import Path

import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from menorca_sim.cli import main
from menorca_sim.cli.errors import OneLineGroup
from menorca_sim.cli.fuzz import command as fuzz_command
from menorca_sim.run import parquet_store as store

CLI = OneLineGroup(name="menorca-sim", commands={**main.commands, "fuzz": fuzz_command})

TINY = """name = "tiny"
seed = 1
games = 2
players = [2]
minors = [["Ramaders", "Artesans"]]
[policies]
seats = "random_legal"
"""

# (what is wrong, arguments ({d}: a scratch folder with the files below), the line's gist)
CASES = [
    ("play: a player count the ruleset lacks", "play --players 4", "the ruleset has no 4-player setup (it has 2, 3)"),
    ("play: players not a number", "play --players abc", "'abc' is not a valid integer"),
    ("play: negative seed", "play --seed -1", "'--seed': expected an integer >= 0, got '-1'"),
    ("play: seed not a number", "play --seed abc", "'--seed': expected an integer >= 0, got 'abc'"),
    ("play: unknown minor", "play --minors Foo,Ramaders", "unknown minor 'Foo' (the ruleset has Ramaders, Artesans"),
    ("play: one minor", "play --minors Ramaders", "'Ramaders' is not 2 different minors"),
    ("play: the same minor twice", "play --minors Artesans,Artesans", "'Artesans,Artesans' is not 2 different minors"),
    ("play: unknown policy", "play --policies nonsense", "error: unknown policy 'nonsense' (known: heuristic"),
    ("play: a policy name mistyped", "play --policies heuristc",
     "error: unknown policy 'heuristc'; did you mean 'heuristic'? (known: heuristic"),
    ("play: policy parameter out of range", "play --policies heuristic(risk=2)",
     "risk must be within [0, 1], got 2.0"),
    ("play: unbalanced policy spec", "play --policies heuristic(risk=0.5", "unbalanced '('"),
    ("play: policy module that cannot be imported", "play --policies nosuchmodule:Factory",
     "cannot import 'nosuchmodule': ModuleNotFoundError"),
    ("play: policy that does not implement the protocol", "play --policies collections:OrderedDict",
     "OrderedDict does not implement the policy protocol (missing name, auction_strategy, act())"),
    ("play: wrong number of policies", "play --players 3 --policies random_legal,random_legal",
     "2 policies for 3 players"),
    ("play: missing ruleset file", "play --rules {d}/missing.toml", "does not exist"),
    ("play: ruleset that is not TOML", "play --rules {d}/broken.toml", "broken.toml: not valid TOML"),
    ("play: log in a missing folder", "play --log {d}/nowhere/game.jsonl", "nowhere/game.jsonl: No such file or directory"),
    ("play: unknown option", "play --colour red", "No such option '--colour'"),
    ("run: missing experiment file", "run {d}/missing.toml", "missing.toml: cannot read file (No such file or directory)"),
    ("run: experiment that is not TOML", "run {d}/broken.toml", "broken.toml: not valid TOML"),
    ("run: experiment with an unknown key", "run {d}/unknown_key.toml", "unknown_key.toml: colour: unknown key"),
    ("run: experiment with a player count the ruleset lacks", "run {d}/five_players.toml",
     "five_players.toml: players: the ruleset has no 5-player setup"),
    ("run: experiment with an unknown policy", "run {d}/unknown_policy.toml",
     "unknown_policy.toml: policies.seats[0]: unknown policy 'nonsense' (known: heuristic"),
    ("run: experiment policy module that cannot be imported", "run {d}/no_module.toml",
     "no_module.toml: policies.seats[0]: policy spec 'nosuchmodule:Factory': cannot import 'nosuchmodule'"),
    ("run: experiment policy without the protocol", "run {d}/no_protocol.toml",
     "does not implement the policy protocol"),
    ("run: zero games", "run {d}/tiny.toml --games 0", "'--games': 0 is not in the range x>=1"),
    ("run: games not a number", "run {d}/tiny.toml --games many", "'many' is not a valid integer range"),
    ("run: zero jobs", "run {d}/tiny.toml --jobs 0", "'--jobs': 0 is not in the range x>=1"),
    ("run: unknown backend", "run {d}/tiny.toml --backend spark", "'spark' is not one of 'loky', 'dask'"),
    ("run: scheduler without dask", "run {d}/tiny.toml --scheduler tcp://host:8786", "--scheduler needs --backend dask"),
    ("run: output folder not writable", "run {d}/tiny.toml --out {d}/a_file/data", "a_file/data: Not a directory"),
    ("run: used output folder without --resume", "run {d}/tiny.toml --out {d}/used",
     "used: output folder is not empty (add --resume"),
    ("report: missing dataset folder", "report {d}/nothing_here", "nothing_here: no such dataset folder"),
    ("report: folder without games", "report {d}/used", "used: no games in the dataset"),
    ("report: dataset path that is a file", "report {d}/a_file", "a_file' is a file"),
    ("rules check: missing file", "rules check {d}/missing.toml", "error: {d}/missing.toml: cannot read file"),
    ("rules check: not TOML", "rules check {d}/broken.toml", "error: {d}/broken.toml: not valid TOML"),
    ("rules check: no file named", "rules check", "menorca-sim rules check: Missing argument 'FILE'"),
    ("fuzz: zero games", "fuzz --games 0", "'--games': 0 is not in the range x>=1"),
    ("fuzz: jobs not a number", "fuzz --jobs x", "'x' is not a valid integer range"),
    ("fuzz: --resume without --out", "fuzz --resume", "--resume needs --out"),
    ("fuzz: used output folder without --resume", "fuzz --games 6 --out {d}/used", "used: output folder is not empty"),
    ("fuzz: ruleset that is not TOML", "fuzz --rules {d}/broken.toml", "broken.toml: not valid TOML"),
    ("unknown command", "frobnicate", "No such command 'frobnicate'"),
]


@pytest.fixture(scope="module")
def scratch(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("bad")
    (d / "broken.toml").write_text("x = [\n")
    (d / "a_file").write_text("not a folder\n")
    (d / "used").mkdir()
    (d / "used" / "notes.txt").write_text("someone's files\n")
    (d / "tiny.toml").write_text(TINY)
    (d / "unknown_key.toml").write_text('colour = "red"\n' + TINY)
    (d / "five_players.toml").write_text(TINY.replace("players = [2]", "players = [5]"))
    for name, spec in (("unknown_policy", "nonsense"), ("no_module", "nosuchmodule:Factory"),
                       ("no_protocol", "collections:OrderedDict")):
        (d / f"{name}.toml").write_text(TINY.replace('"random_legal"', f'"{spec}"'))
    return d


def test_at_least_30_distinct_bad_inputs():
    assert len({c[0] for c in CASES}) == len({c[1] for c in CASES}) == len(CASES) >= 30


@pytest.mark.parametrize("args, gist", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_bad_input_gets_one_line_and_exit_2(scratch, args, gist):
    result = CliRunner().invoke(CLI, [a.format(d=scratch) for a in args.split(" ")])
    lines = result.output.strip().splitlines()
    assert result.exit_code == 2, result.output
    assert isinstance(result.exception, SystemExit)  # not a traceback
    assert len(lines) == 1 and gist.format(d=scratch) in lines[0], result.output


def test_resume_with_another_plan_is_refused_and_keeps_the_games(scratch, tmp_path):
    out = tmp_path / "data"
    first = CliRunner().invoke(CLI, ["run", str(scratch / "tiny.toml"), "--out", str(out), "--jobs", "1"])
    assert first.exit_code == 0, first.output
    games = store.read_table(out, "games")
    again = CliRunner().invoke(CLI, ["run", str(scratch / "tiny.toml"), "--out", str(out), "--resume", "--games", "4"])
    assert again.exit_code == 2
    assert again.output.strip().splitlines() == [
        f"error: {out}: the dataset was started from another plan (differs in: games); resume with the same experiment and --games"]
    assert store.read_table(out, "games").equals(games)


def _truncate(path: Path) -> None:
    path.write_bytes(path.read_bytes()[: path.stat().st_size // 2])


def _corrupt(path: Path) -> None:
    data = bytearray(path.read_bytes())
    middle = len(data) // 2
    data[middle: middle + 16] = bytes(b ^ 0xFF for b in data[middle: middle + 16])
    path.write_bytes(bytes(data))


def test_resume_plays_truncated_and_corrupt_parts_again_and_keeps_the_rest(scratch, tmp_path):
    out = tmp_path / "data"
    experiment = scratch / "tiny.toml"
    args = ["run", str(experiment), "--out", str(out), "--games", "6", "--chunk", "2", "--jobs", "1"]
    assert CliRunner().invoke(CLI, args).exit_code == 0
    whole = {name: store.read_table(out, name) for name in ("games", "players")}
    _truncate(store.part_path(out, "games", 0))
    _corrupt(store.part_path(out, "players", 1))
    kept = store.part_path(out, "games", 2).read_bytes()
    with pytest.raises(Exception):  # the damage is real: these parts no longer read
        pq.read_table(store.part_path(out, "games", 0))
    resumed = CliRunner().invoke(CLI, args + ["--resume"])
    assert resumed.exit_code == 0, resumed.output
    assert resumed.stdout.startswith("tiny: 4 games played, 0 errors")  # chunks 0 and 1 again
    assert "dataset complete: 6/6 games" in resumed.stdout
    assert [line.split(": ")[1] for line in resumed.stderr.splitlines()] == [  # each damaged part named
        str(store.part_path(out, "games", 0)), str(store.part_path(out, "players", 1))]
    assert store.part_path(out, "games", 2).read_bytes() == kept
    for name, table in whole.items():
        again = store.read_table(out, name).drop_columns(["duration_s"] if name == "games" else [])
        assert again.equals(table.drop_columns(["duration_s"] if name == "games" else []))


def test_one_line_usage_errors_name_the_command(scratch):
    result = CliRunner().invoke(CLI, ["run", str(scratch / "tiny.toml"), "--jobs", "0"])
    assert result.output == "error: menorca-sim run: Invalid value for '--jobs': 0 is not in the range x>=1.\n"


def test_no_command_still_shows_the_help():
    result = CliRunner().invoke(CLI, [])
    assert result.output.startswith("Usage: menorca-sim [OPTIONS] COMMAND [ARGS]...") and "Commands:" in result.output
