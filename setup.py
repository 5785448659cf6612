"""Build the compiled core (menorca_sim/compiled.py lists what is compiled and why): every
module under menorca_sim/core/ is Cython pure-Python mode source, compiled here to an
extension and still importable as plain Python (MENORCA_SIM_PURE=1); the Python layers
every decision runs through are compiled as they are, for speed only."""
import importlib.util
import os
from pathlib import Path

from Cython.Build import cythonize
from setuptools import find_namespace_packages, setup


def _compiled_list():
    # by path: importing the menorca_sim package here would need its dependencies
    spec = importlib.util.spec_from_file_location("_compiled", Path(__file__).parent / "menorca_sim" / "compiled.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


compiled = _compiled_list()
# Release builds drop bounds and wrap-around checks; MENORCA_SIM_DEBUG_BUILD=1 keeps them.
DEBUG = os.environ.get("MENORCA_SIM_DEBUG_BUILD") == "1"
DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "cdivision": False,  # Python semantics for // and % on negatives: identical games both ways
    "embedsignature": True,
    # The build says nothing a user can act on: the hints name Python-object indexing the
    # code keeps on purpose, and the `if not cython.compiled` branches (the reference
    # mode's) are unreachable by design once compiled.
    "show_performance_hints": False,
    "warn.unreachable": False,
}
# The layers keep their annotations as hints (not C types Cython would enforce).
LAYER_DIRECTIVES = {"language_level": 3, "cdivision": False, "annotation_typing": False, "embedsignature": True,
                    "show_performance_hints": False}

# The Makefile installs the package editable with MENORCA_SIM_NO_EXT=1, then compiles in
# place (`setup.py build_ext --inplace`), so the core is compiled once, not twice.
SKIP = os.environ.get("MENORCA_SIM_NO_EXT") == "1"
if not SKIP and (stale := compiled.stale()):
    print(f"compiling {len(stale)} of the {len(compiled.sources())} modules of the core and the players' layers "
          "to C (menorca_sim/compiled.py): all of them take a few minutes", flush=True)


def _extensions() -> list:
    core = cythonize(compiled.core_sources(), compiler_directives=DIRECTIVES, quiet=True)
    layers = cythonize(list(compiled.LAYERS), compiler_directives=LAYER_DIRECTIVES, quiet=True)
    # gcc reads Cython's inlined comparison of two Python bools (its bytes/bytearray
    # branches, never taken for bools) as out of bounds: a false positive.
    for ext in layers:
        ext.extra_compile_args.append("-Wno-array-bounds")
    return core + layers


setup(
    # the checkout's root as the packages' root: an editable install is then a plain .pth
    # entry for it (what the extensions built in place need), with nothing to warn about
    package_dir={"": "."},
    packages=find_namespace_packages(include=["menorca_sim*", "policies*"]),
    package_data={"menorca_sim.rules": ["data/*.toml"], "menorca_sim.core": ["*.pxd"],
                  "menorca_sim.core.revenue": ["*.pxd"],
                  "menorca_sim.viewer": ["*.html"], "policies": ["presets/*.toml", "presets/*.json", "models/*/*"]},
    ext_modules=[] if SKIP else _extensions(),
    zip_safe=False,
)
