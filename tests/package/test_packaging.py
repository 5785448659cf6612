"""The package installs, its ruleset data ships with it, and the CLI entry point runs."""
import pickle
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from menorca_sim.cli import main
from menorca_sim.rules import default_ruleset_path, load_ruleset


def test_default_ruleset_ships_with_the_package():
    path = default_ruleset_path()
    assert path.name == "menorca_v11.toml" and path.is_file()
    ruleset = load_ruleset()
    assert pickle.loads(pickle.dumps(ruleset)) == ruleset


def test_console_script_is_installed():
    script = Path(sys.executable).with_name("menorca-sim")
    out = subprocess.run([str(script), "--help"], capture_output=True, text=True, check=True)
    assert "rules" in out.stdout


def test_rules_check_accepts_the_default_file():
    result = CliRunner().invoke(main, ["rules", "check", str(default_ruleset_path())])
    assert result.exit_code == 0, result.output
    assert "ok" in result.output
