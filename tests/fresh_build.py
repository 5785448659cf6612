"""A fresh checkout's `make build`, as a new user's first `make report` or `make test`
runs it: it prints no compiler, Cython or setuptools warning, says once what it compiles,
and compiles each module of menorca_sim/compiled.py exactly once (the editable install
compiles nothing). Minutes: a new venv and the whole core.

    python3 tests/fresh_build.py [REV]      # default HEAD; exit 0 when all holds (make check-build)
"""
from __future__ import annotations

import collections
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# pip's notes on this machine's extra package indexes are its configuration, not the build's
MACHINE_NOTES = re.compile(r"^WARNING: Location '.*' is ignored")


def fresh_build(rev: str = "HEAD") -> list[str]:
    """What is wrong with `make build` in a fresh copy of `rev` (nothing: an empty list)."""
    with tempfile.TemporaryDirectory() as tmp:
        tree, calls = Path(tmp) / "tree", Path(tmp) / "cc-calls"
        tree.mkdir()
        archive = subprocess.run(["git", "archive", rev], cwd=ROOT, check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
        cc = Path(tmp) / "cc"  # the C compiler, each call noted
        cc.write_text(f'#!/bin/sh\necho "$@" >> {calls}\nexec gcc "$@"\n')
        cc.chmod(0o755)
        env = {k: v for k, v in os.environ.items() if k not in ("MENORCA_SIM_PURE", "VIRTUAL_ENV")}
        env["CC"] = str(cc)
        run = subprocess.run(["make", "build"], cwd=tree, env=env, capture_output=True, text=True)
        lines = [line for line in (run.stdout + run.stderr).splitlines() if not MACHINE_NOTES.match(line)]
        problems = [] if run.returncode == 0 else [f"make build exited {run.returncode}"]
        problems += [f"says: {line}" for line in lines if re.search(r"warn|hint", line, re.I)]
        if sum("compiling" in line for line in lines) != 1:
            problems.append("does not say once what it compiles")
        compiles = collections.Counter(re.search(r"(\S+)\.c\b", c).group(1) for c in
                                       (calls.read_text().splitlines() if calls.is_file() else []) if " -c " in c)
        listed = subprocess.run([sys.executable, str(tree / "menorca_sim" / "compiled.py"), "--modules"],
                                check=True, capture_output=True, text=True).stdout.split()
        for module in listed:
            times = compiles.get(module.replace(".", "/"), 0)
            if times != 1:
                problems.append(f"{module} compiled {times} times")
        problems += [f"{c} compiled, not in the list" for c in compiles if c.replace("/", ".") not in listed]
        return problems


if __name__ == "__main__":
    found = fresh_build(*sys.argv[1:2])
    print("\n".join(found) or "fresh build: quiet, each module compiled once")
    sys.exit(1 if found else 0)
