"""`menorca-sim play` (called through click's test runner)."""
from click.testing import CliRunner

from menorca_sim.cli.play import command
from policies.spec import split_seat_specs
from menorca_sim.log import read


def test_play_prints_the_result(tmp_path):
    log = tmp_path / "g.jsonl"
    out = CliRunner().invoke(command, ["--players", "3", "--seed", "42", "--minors", "Ramaders,Artesans",
                                       "--policies", "random_legal", "--log", str(log), "--check"])
    assert out.exit_code == 0, out.output
    assert "minors Ramaders, Artesans" in out.output
    assert out.output.count("wealth") == 3 and "winner: P" in out.output and "operating rounds" in out.output
    records = read(log)
    assert records[0]["seed"] == 42 and records[-1]["type"] == "result"


def test_play_rejects_a_wrong_number_of_policies():
    out = CliRunner().invoke(command, ["--players", "3", "--policies", "random_legal,random_legal"])
    assert out.exit_code != 0 and "2 policies for 3 players" in out.output


def test_policy_specs_split_outside_parentheses():
    assert split_seat_specs("random_legal, h(a=1,b=2)+v(p=0.2)") == ["random_legal", "h(a=1,b=2)+v(p=0.2)"]
