"""`menorca-sim compare`: two rules files on the same seeds, one report side by side."""
from __future__ import annotations

import polars as pl
import pytest
from click.testing import CliRunner

from menorca_sim.analysis.dataset import Dataset
from menorca_sim.analysis.pipeline import analyse
from menorca_sim.analysis.side_by_side import side_by_side
from menorca_sim.cli import main as CLI
from menorca_sim.rules import default_ruleset_path

SMALL = ["--players", "2", "--games", "30", "--population", "heuristic", "--jobs", "1"]


def compare(*args: str):
    return CliRunner().invoke(CLI, ["compare", *map(str, args)])


@pytest.fixture(scope="module")
def seat_cash_rules(tmp_path_factory):
    """The default rules with 150 R. more starting cash for the second seat of 2."""
    text = default_ruleset_path().read_text(encoding="utf-8")
    changed = text.replace("seat_cash = [0, 0]  ", "seat_cash = [0, 150]", 1)
    assert changed != text
    path = tmp_path_factory.mktemp("rules") / "seat2_cash.toml"
    path.write_text(changed, encoding="utf-8")
    return path


def test_a_file_compared_with_itself_reports_no_difference(tmp_path):
    done = compare(default_ruleset_path(), "default", "--out", tmp_path / "c", *SMALL)
    assert done.exit_code == 0, done.output
    summary = (tmp_path / "c" / "summary.md").read_text(encoding="utf-8")
    assert "B holds the same rules as A." in summary
    opening = summary.split("## What to change", 1)[1].split("## ", 1)[0]
    assert "B against A: every paired measure is the same in every game on the same seeds (no difference)." in opening
    a = analyse(Dataset(tmp_path / "c" / "data"))
    assert a.tables["variant_differences"]["difference"].abs().max() == 0
    facts = side_by_side(a)
    assert facts.height > 0 and facts["difference"].abs().max() < 1e-12  # the sums of an estimate may run in another order
    assert not [c for c in a.comparisons if c.section == "variants"]  # nothing differs, nothing to test


def test_a_changed_file_shows_what_it_changes_with_its_difference(tmp_path, seat_cash_rules):
    done = compare("default", seat_cash_rules, "--out", tmp_path / "c", *SMALL)
    assert done.exit_code == 0, done.output
    summary = (tmp_path / "c" / "summary.md").read_text(encoding="utf-8")
    assert "B differs from A in 1 key: player_counts.0.seat_cash: [0, 0] -> [0, 150]." in summary
    assert "## Side by side" in summary and "## Variants" in summary
    a = analyse(Dataset(tmp_path / "c" / "data"))
    seat2 = a.tables["variant_differences"].filter(pl.col("metric") == "seat 2 win share").row(0, named=True)
    assert seat2["variant"] == "B" and seat2["baseline"] == "A" and seat2["pairs"] == 90
    assert seat2["difference"] > 0 and seat2["difference_low"] < seat2["difference"] < seat2["difference_high"]
    facts = side_by_side(a).filter(pl.col("fact") == "with 2 players, seat 2")
    assert facts["difference"].item() == pytest.approx(seat2["difference"])
    opening = summary.split("## What to change", 1)[1].split("## ", 1)[0]
    assert "B against A:" in opening and "(no difference)" not in opening


def test_compare_resumes_and_refuses_other_options_in_the_same_folder(tmp_path):
    args = ["default", "default", "--out", tmp_path / "c", *SMALL]
    assert compare(*args).exit_code == 0
    again = compare(*args)
    assert again.exit_code == 2 and again.output.startswith("error: --out") and "--resume" in again.output
    assert compare(*args, "--resume").exit_code == 0
    other = compare(*[a if a != "30" else "24" for a in args], "--resume")
    assert other.exit_code == 2 and "differ from those of the comparison" in other.output


@pytest.mark.parametrize("args, gist", [
    ("nope.toml default", "nope.toml: no such rules file"),
    ("default default --players 2,x", "expected distinct player counts"),
    ("default default --players 2,2", "expected distinct player counts"),
    ("default default --players 5", "compare.toml: players: the ruleset has no 5-player setup"),
    ("default default --population heuristc", "--population 'heuristc': unknown policy 'heuristc'; did you mean"),
    ("default default --games 0", "--games"),
])
def test_bad_input_is_one_error_line(tmp_path, args, gist):
    done = compare(*args.split(), "--out", tmp_path / "c")
    assert done.exit_code == 2, done.output
    [line] = done.output.strip().splitlines()
    assert line.startswith("error: ") and gist in line
