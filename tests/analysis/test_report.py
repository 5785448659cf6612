"""The report: what its Findings say on a symmetric control and on a planted
imbalance, and the files `menorca-sim report` writes.

The datasets come from builders (folder -> dataset folder): synthetic ones in the
default run, and real heuristic games (the same policy under three names, and one name
weakened; tests/helpers/real_games.py) in the slow run."""
from __future__ import annotations

import base64
import re
import shutil

import pytest
from click.testing import CliRunner

from helpers import real_games, synthetic_data
from menorca_sim.analysis.dataset import Dataset
from menorca_sim.analysis.pipeline import analyse
from menorca_sim.analysis.report import build_report, findings, players
from menorca_sim.cli.report import command

CONTROLS: list[synthetic_data.DatasetBuilder] = [synthetic_data.symmetric_control]
PLANTED: list[tuple[synthetic_data.DatasetBuilder, str]] = [(synthetic_data.planted_weak_name, "heuristic+gamma")]


@pytest.mark.parametrize("build", CONTROLS)
def test_symmetric_control_flags_nothing(build, tmp_path):
    analysis = analyse(Dataset(build(tmp_path)))
    assert findings(analysis) == [f"No imbalance was found at the 5 % level after Holm correction across "
                                  f"the report's {len(analysis.comparisons)} comparisons."]


@pytest.mark.slow
def test_real_symmetric_control_flags_no_policy(tmp_path):
    """Real games may well favour a seat (that is a finding), but three names of one
    player must not differ."""
    analysis = analyse(Dataset(real_games.heuristic_control(tmp_path)))
    flagged = [c.sentence for c in analysis.significant if c.section in ("policy", "auction_strategy")]
    assert not flagged, flagged


@pytest.mark.slow
def test_real_planted_weak_name_is_flagged(tmp_path):
    analysis = analyse(Dataset(real_games.heuristic_planted(tmp_path)))
    flagged = {c.subject.rpartition("policy ")[2]: c for c in analysis.significant if c.section == "policy"}
    weak = flagged.pop(real_games.WEAK)
    assert weak.estimate < weak.reference
    # The others may be flagged too, but only for winning more than their fair share.
    assert all(c.estimate > c.reference for c in flagged.values())


@pytest.mark.parametrize("build,weak", PLANTED)
def test_planted_weak_name_is_flagged(build, weak, tmp_path):
    analysis = analyse(Dataset(build(tmp_path)))
    lines = findings(analysis) + players(analysis)
    flagged = [line for line in players(analysis) if f"policy {weak} wins" in line]
    assert len(flagged) == 1
    fair, share = re.search(r"wins against a fair (\d+) %: (\d+) %", flagged[0]).groups()
    assert int(share) < int(fair)
    assert not any("seat" in line for line in lines)


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    return synthetic_data.small_mixed(tmp_path_factory.mktemp("small"))


def test_report_goes_beside_the_run_or_named_after_the_experiment_never_over_another(small, tmp_path):
    run_layout = tmp_path / "reports" / "small" / "data"  # where `menorca-sim run` puts it by default
    shutil.copytree(small, run_layout)
    assert CliRunner().invoke(command, [str(run_layout)]).exit_code == 0
    assert (run_layout.parent / "index.html").is_file()
    elsewhere = tmp_path / "try"
    other = tmp_path / "other"
    for data in (elsewhere, other):
        shutil.copytree(small, data)
    assert CliRunner().invoke(command, [str(elsewhere)]).exit_code == 0
    assert (tmp_path / "small-report" / "index.html").is_file()
    refused = CliRunner().invoke(command, [str(other)])  # the same experiment, another dataset
    assert refused.exit_code == 2
    assert refused.output.strip() == (f"error: {tmp_path / 'small-report'} holds the report of another dataset "
                                      f"({elsewhere}); give --out DIR for this one (--out {tmp_path / 'small-report'} "
                                      f"replaces that report)")
    assert CliRunner().invoke(command, [str(other), "--out", str(tmp_path / "small-report")]).exit_code == 0


def test_report_command_writes_page_charts_and_summary(small):
    result = CliRunner().invoke(command, [str(small)])
    assert result.exit_code == 0, result.output
    out = small.parent / "small-report"  # the default beside a dataset not in reports/small/data: named after it
    page = (out / "index.html").read_text()
    embedded = re.findall(r"<img src='data:image/png;base64,([A-Za-z0-9+/=]+)'", page)
    written = {p.name: p.read_bytes() for p in out.glob("*.png")}
    assert len(written) >= 7 and sorted(base64.b64decode(e) for e in embedded) == sorted(written.values())
    assert "src='" not in page.replace("src='data:", "")  # the page needs no file beside it
    assert all(len(png) > 0 for png in written.values())
    summary = (out / "summary.md").read_text()
    assert summary.startswith("# Balance report: small\n") and "\nThis report rests on " in summary
    headings = re.findall(r"^## (.+)$", summary, re.M)
    assert headings[:4] == ["What to change", "Dead content", "Findings about the rules", "Players"]
    findings_section = summary.split("\n## Findings about the rules\n", 1)[1].split("\n## ", 1)[0]
    for players in (2, 3):  # the planted +2 ORs
        assert f"In {players}-player games variant bonus_20 changes ORs played by +" in findings_section
    assert "ended at the safety cap" in findings_section and "2 games failed" in findings_section
    for title in ("Seats", "Minor draws", "Strategies", "Legacies", "Auction prices", "Game length",
                  "End reasons", "Variants", "Errors", "All comparisons"):
        assert f"\n## {title}\n" in summary and f">{title}</h2>" in page


def test_report_command_honours_out(tmp_path):
    data = synthetic_data.write_dataset(tmp_path, synthetic_data.Spec(games=30, seed=4))
    shutil.rmtree(data / "rounds")  # as a dataset written before the rounds table
    stale = tmp_path / "elsewhere" / "variant_differences.png"  # from an earlier report with variants
    stale.parent.mkdir()
    stale.write_bytes(b"old")
    result = CliRunner().invoke(command, [str(data), "--out", str(tmp_path / "elsewhere")])
    assert result.exit_code == 0, result.output
    assert not stale.exists()
    assert (tmp_path / "elsewhere" / "index.html").is_file()
    assert "\n## Seats\n" in (tmp_path / "elsewhere" / "summary.md").read_text()
    assert "Trajectories" not in (tmp_path / "elsewhere" / "summary.md").read_text()


def test_report_reads_a_dataset_written_by_the_runner(tmp_path):
    """Real games (random players, two variants on common seeds) through `menorca-sim run`."""
    from menorca_sim.cli.run import command as run

    (tmp_path / "tiny.toml").write_text(
        'name = "tiny"\nseed = 1\ngames = 1\nplayers = [2, 3]\nminors = "all"\nseating = "rotate"\n'
        '[policies]\nseats = "random_legal"\n[variants.plain]\n[variants.bonus20]\n"markers.market_bonus" = 20\n')
    data = tmp_path / "tiny" / "data"
    played = CliRunner().invoke(run, [str(tmp_path / "tiny.toml"), "--out", str(data), "--jobs", "1", "--quiet"])
    assert played.exit_code == 0, played.output
    analysis = analyse(Dataset(data))
    assert analysis.experiment == "tiny" and analysis.variants == ["bonus20", "plain"]
    assert analysis.tables["game_length"]["games"].sum() == 12
    assert set(analysis.tables["variant_differences"]["baseline"]) == {"plain"}
    assert len(analysis.comparisons) > 0 and all(c.p_holm >= c.p_value for c in analysis.comparisons)
    files = build_report(data)  # with the trajectories of its rounds table
    assert {"wealth_paths.png", "price_paths.png", "bank_paths.png"} <= {p.name for p in files.charts}
    assert "\n## Trajectories\n\n" in files.summary.read_text() and ">Trajectories</h2>" in files.index.read_text()


@pytest.mark.parametrize("make", [lambda p: p / "missing", lambda p: p])
def test_report_command_rejects_a_missing_or_empty_dataset(make, tmp_path):
    result = CliRunner().invoke(command, [str(make(tmp_path))])
    assert result.exit_code == 2
    assert len(result.output.strip().splitlines()) == 1 and result.output.startswith("error: ")


def test_the_report_states_its_distinct_games_and_warns_when_games_repeat(tmp_path):
    repeated = synthetic_data.write_dataset(tmp_path / "rep", synthetic_data.Spec(games=300, repeats=3, seed=5))
    build_report(repeated, tmp_path / "rep_report")
    first = (tmp_path / "rep_report" / "summary.md").read_text(encoding="utf-8").splitlines()[2]
    assert first.startswith("This report rests on 300 games, 100 of them distinct (33.3 %). Warning: games repeat")
    distinct = synthetic_data.write_dataset(tmp_path / "dist", synthetic_data.Spec(games=300, seed=5))
    build_report(distinct, tmp_path / "dist_report")
    first = (tmp_path / "dist_report" / "summary.md").read_text(encoding="utf-8").splitlines()[2]
    assert first == "This report rests on 300 games, 300 of them distinct (100.0 %)."
    assert "| games | distinct games | distinct (%) |" in (tmp_path / "dist_report" / "summary.md").read_text()


def test_an_interrupted_runs_report_says_it_is_incomplete_in_its_first_line(tmp_path):
    import json

    data = synthetic_data.write_dataset(tmp_path, synthetic_data.Spec(games=60, seed=6))
    manifest = json.loads((data / "manifest.json").read_text())
    for status, how in (("stopped", "its run stopped"), ("running", "its run did not finish")):
        manifest.update(status=status, total_games=90)
        (data / "manifest.json").write_text(json.dumps(manifest))
        files = build_report(data, tmp_path / status)
        first = files.summary.read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith(f"**Incomplete dataset: {how}") and "with 60 of 90 games" in first
        assert "--resume" in first and "Incomplete dataset" in files.index.read_text(encoding="utf-8")


def test_the_header_carries_the_experiments_description(tmp_path):
    from menorca_sim.cli.run import command as run

    (tmp_path / "d.toml").write_text('name = "d"\ndescription = "Does seat 1 win too often?"\nseed = 1\ngames = 1\n'
                                     'players = [2]\nminors = "all"\n[policies]\nseats = "random_legal"\n')
    data = tmp_path / "d" / "data"
    assert CliRunner().invoke(run, [str(tmp_path / "d.toml"), "--out", str(data), "--quiet"]).exit_code == 0
    files = build_report(data)
    assert files.summary.read_text(encoding="utf-8").splitlines()[:3] == [
        "# Balance report: d", "", "Does seat 1 win too often?"]
    assert "<p class='description'>Does seat 1 win too often?</p>" in files.index.read_text(encoding="utf-8")
