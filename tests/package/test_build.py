"""The build compiles exactly the modules menorca_sim/compiled.py lists, the compiled
extensions are really used after a build, and MENORCA_SIM_PURE=1 really runs the
plain-Python sources of the same modules. (A fresh checkout's whole build, quiet and
compiling each module once: tests/fresh_build.py, `make check-build`.)"""
import os
import subprocess
import sys

import pytest

from helpers import ROOT
from menorca_sim import compiled

COMPILED = [compiled.module_name(s) for s in compiled.sources()]
# plain Python in both modes: constants only, which its .pxd gives the compiled modules as C enums
PLAIN = ["menorca_sim.core.codes"]
MODULES = COMPILED + PLAIN
PROBE = """
import importlib, sys
import policies  # first, before anything of menorca_sim, as a user's script might
from menorca_sim.core import is_compiled
for name in sys.argv[1:]:
    module = importlib.import_module(name)
    print(name, "compiled" if is_compiled(module) else "pure", module.__file__)
"""


def _probe(pure: bool) -> dict[str, tuple[str, str]]:
    env = {k: v for k, v in os.environ.items() if k != "MENORCA_SIM_PURE"}
    if pure:
        env["MENORCA_SIM_PURE"] = "1"
    out = subprocess.run([sys.executable, "-c", PROBE, *MODULES], env=env, capture_output=True,
                         text=True, check=True).stdout
    return {name: (mode, path) for name, mode, path in (line.split(" ", 2) for line in out.splitlines())}


def test_the_list_is_every_core_module_but_the_plain_ones_and_the_layers():
    core = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "menorca_sim" / "core").rglob("*.py"))
    plain = [s for s in core if s.rpartition("/")[2] in compiled.PLAIN_CORE]
    assert "menorca_sim/core/revenue/routes.py" in compiled.core_sources()  # the packages' modules too
    assert sorted(compiled.core_sources() + plain) == core
    assert compiled.sources() == compiled.core_sources() + list(compiled.LAYERS)
    assert all((ROOT / s).is_file() for s in compiled.LAYERS)
    assert compiled.stale() == [], "sources newer than their extensions: run `make build`"


def test_extensions_are_built_for_the_listed_modules_only():
    built = {p.relative_to(ROOT).as_posix().split(".")[0] + ".py"
             for folder in ("menorca_sim", "menorca_sim/core", "menorca_sim/core/revenue", "menorca_sim/value", "policies") for p in (ROOT / folder).glob("*.so")}
    assert built == set(compiled.sources())  # none missing, none left over to shadow a plain module


def test_normal_install_imports_compiled_extensions():
    modules = _probe(pure=False)
    stale = [n for n, (mode, _) in modules.items() if mode != "compiled" and n not in PLAIN]
    assert not stale, f"not compiled (run `make build`): {stale}"
    assert all(path.endswith(".so") for n, (_, path) in modules.items() if n not in PLAIN)
    assert all(modules[n][0] == "pure" for n in PLAIN)


def test_pure_mode_imports_the_python_sources():
    modules = _probe(pure=True)
    assert {n: mode for n, (mode, _) in modules.items()} == {n: "pure" for n in MODULES}
    assert all(path.endswith(f"{n.rpartition('.')[2]}.py") for n, (_, path) in modules.items())


@pytest.mark.slow
def test_a_fresh_checkout_builds_quietly_and_compiles_each_module_once():
    result = subprocess.run([sys.executable, str(ROOT / "tests" / "fresh_build.py")], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
