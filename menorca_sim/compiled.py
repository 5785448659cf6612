"""The one list of the modules setup.py compiles (Cython); every other module is plain
Python. setup.py, the Makefile (`python3 menorca_sim/compiled.py`: the sources a build
depends on), the build tests and the docs all read it from here. Standard library only:
the Makefile runs it before any package is installed.

- CORE: every module of menorca_sim/core/ and of its packages (the revenue wing,
  core/revenue/) but those in PLAIN_CORE, in Cython's pure-Python mode, typed by the .pxd
  beside each (C types Cython enforces).
- LAYERS: the Python layers every decision runs through (the Game API, its records,
  move views and fingerprint, its what-if service, the heuristic's valuations, and the
  search player with the learned value's features and tree walk, which it runs at every
  leaf),
  compiled as they are, for speed only: their annotations stay hints and indexing
  keeps Python's checks, so they behave exactly like
  their sources (which MENORCA_SIM_PURE=1 runs instead)."""
from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CORE_DIR = "menorca_sim/core"
# codes.py holds constants only: its .pxd gives them to the compiled modules as C enums
# (a compiled codes.py could not assign them), so it stays plain Python; so do the
# packages' __init__.py (docstrings and a helper).
PLAIN_CORE = ("__init__.py", "codes.py")
LAYERS = ("menorca_sim/game.py", "menorca_sim/observation.py", "menorca_sim/moves.py", "menorca_sim/fingerprint.py",
          "menorca_sim/whatif.py", "policies/base.py",
          "policies/valuation.py", "policies/heuristic.py", "policies/auction.py", "policies/operating_play.py",
          "policies/stock_play.py", "policies/choice.py", "policies/mcts.py",
          "menorca_sim/value/features.py", "menorca_sim/value/trees.py")


def core_files(pattern: str) -> list[str]:
    """The files of the core and of its packages named like `pattern`, relative to the
    repository root."""
    return sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / CORE_DIR).rglob(pattern))


def core_sources() -> list[str]:
    """The core's compiled sources, relative to the repository root."""
    return [s for s in core_files("*.py") if s.rpartition("/")[2] not in PLAIN_CORE]


def sources() -> list[str]:
    """Every compiled source: the core's, then the layers."""
    return core_sources() + list(LAYERS)


def module_name(source: str) -> str:
    """`menorca_sim/core/revenue/routes.py` -> `menorca_sim.core.revenue.routes`."""
    return source.removesuffix(".py").replace("/", ".")


def build_inputs() -> list[str]:
    """The files a build reads: the compiled sources, every .pxd beside them, this list."""
    pxds = sorted(p.relative_to(ROOT).as_posix() for folder in ("menorca_sim", "menorca_sim/value", "policies")
                  for p in (ROOT / folder).glob("*.pxd")) + core_files("*.pxd")
    return sources() + pxds + ["menorca_sim/compiled.py"]


def stale() -> list[str]:
    """The compiled sources whose extension is missing or older than the source or its
    .pxd: the next build compiles them (and Cython, which follows cimports, may add the
    modules that cimport a changed .pxd)."""
    out = []
    for source in sources():
        path = ROOT / source
        built = [p.stat().st_mtime for p in path.parent.glob(path.stem + ".*.so")]
        pxd = path.with_suffix(".pxd")
        newest = max(path.stat().st_mtime, pxd.stat().st_mtime if pxd.is_file() else 0.0)
        if not built or min(built) < newest:
            out.append(source)
    return out


if __name__ == "__main__":  # `--modules`: the compiled modules' names; else the build's inputs
    print(" ".join(map(module_name, sources()) if sys.argv[1:] == ["--modules"] else build_inputs()))
