"""The report's tables from Python (analysis/study.py)."""
from __future__ import annotations

import subprocess
import sys

from helpers import ROOT, synthetic_data
from menorca_sim.analysis import open as open_study
from menorca_sim.analysis.dataset import Dataset
from menorca_sim.analysis.pipeline import analyse



def test_a_study_hands_out_the_reports_tables(tmp_path):
    data = synthetic_data.write_dataset(tmp_path, synthetic_data.Spec(games=120, player_counts=(2, 3), seed=9))
    study = open_study(data)
    expected = analyse(Dataset(data))
    assert study.seats().equals(expected.tables["seat"])
    assert set(study.tables()) >= {"seat", "draw_seat", "legacy_edge"}
    legacies = study.legacies()
    assert {"edge", "net_value", "win_share"} <= set(legacies.columns) and legacies.height > 0
    assert study.comparisons().height == len(expected.comparisons)
    assert all(isinstance(line, str) and line.endswith(".") for line in study.findings())
    assert all(line.startswith("`") for line in study.changes())


def test_the_tour_script_runs(tmp_path):
    data = synthetic_data.write_dataset(tmp_path, synthetic_data.Spec(games=60, player_counts=(2,), seed=10))
    done = subprocess.run([sys.executable, str(ROOT / "docs" / "examples" / "study_tour.py"), str(data)],
                          capture_output=True, text=True, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    assert "win_share" in done.stdout and "mean ORs" in done.stdout
