"""The compiled extensions are really used after a build, and MENORCA_SIM_PURE=1 really
runs the plain-Python sources of the same modules."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORE = sorted(p.stem for p in (ROOT / "menorca_sim" / "core").glob("*.py") if p.stem != "__init__")
# the Python layers setup.py compiles as they are (its LAYERS)
LAYERS = ["menorca_sim.game", "policies.base", "policies.valuation", "policies.heuristic",
          "policies.auction", "policies.operating_play", "policies.stock_play", "policies.choice"]
MODULES = [f"menorca_sim.core.{name}" for name in CORE] + LAYERS
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


def test_core_has_modules():
    assert {"engine", "market", "routes", "board"} <= set(CORE)


# plain Python in both modes: constants only, which its .pxd gives the compiled modules as C enums
PLAIN = ["menorca_sim.core.codes"]


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
