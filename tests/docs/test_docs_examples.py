"""Every example in README.md and docs/*.md runs as written, and docs/dataset.md names
every column of every table.

A fenced block labelled `sh` or `python` is an example: each document's examples run in
order (a later one may read what an earlier one wrote) in a scratch folder that sees the
checkout's experiments/, docs/, menorca_sim/ and .venv/, with .venv/bin on PATH; a path
under /tmp/ lands in the scratch folder instead. Blocks labelled `console`, or not
labelled, are synopses (`[--option]`) or long runs (make targets, benchmarks, a Dask
cluster) that their own targets and CI run. (docs/design/ holds interface notes, not
examples.)"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import ROOT
from menorca_sim.run.outcomes import ALL_TABLES

DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\w*)[^\n]*\n(.*?)^```\s*$", re.M | re.S)
SHARED = ("experiments", "docs", "menorca_sim", "policies", ".venv")


def examples(doc: Path) -> list[tuple[str, str]]:
    """(language, code) of each `sh` or `python` block, in order."""
    return [(lang, code) for lang, code in FENCE.findall(doc.read_text(encoding="utf-8")) if lang in ("sh", "python")]


def test_the_fences_are_found():
    assert [lang for lang, _ in examples(ROOT / "README.md")] == ["python", "sh", "sh"]
    assert sum(len(examples(doc)) for doc in DOCS) >= 12


@pytest.mark.parametrize("doc", [d for d in DOCS if examples(d)], ids=lambda d: d.name)
def test_examples_run_as_written(doc, tmp_path):
    for name in SHARED:
        (tmp_path / name).symlink_to(ROOT / name)
    (tmp_path / "tmp").mkdir()
    env = {k: v for k, v in os.environ.items() if k != "MENORCA_SIM_PURE"}
    env["PATH"] = f"{ROOT / '.venv' / 'bin'}{os.pathsep}{env['PATH']}"
    for lang, code in examples(doc):
        code = code.replace("/tmp/", f"{tmp_path}/tmp/")
        cmd = ["bash", "-e", "-o", "pipefail", "-c", code] if lang == "sh" else [sys.executable, "-c", code]
        done = subprocess.run(cmd, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, f"{doc.name}: this {lang} example failed:\n{code}\n{done.stdout}\n{done.stderr}"


def test_the_dataset_page_names_every_column():
    text = (ROOT / "docs" / "dataset.md").read_text(encoding="utf-8")
    sections = dict(re.findall(r"^## (\w+)\b.*?\n(.*?)(?=^## |\Z)", text, re.M | re.S))
    assert set(ALL_TABLES) <= set(sections)
    for table, schema in ALL_TABLES.items():
        missing = [c for c in schema.names if f"`{c}`" not in sections[table]]
        assert not missing, f"docs/dataset.md, {table}: {missing}"
