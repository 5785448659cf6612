"""Build the compiled core: every module under menorca_sim/core/ is Cython pure-Python
mode source, compiled here to an extension and still importable as plain Python
(MENORCA_SIM_PURE=1). The Python layers every decision runs through (the Game API and
the heuristic's valuations) are compiled too, for speed only: see LAYERS."""
import os
from glob import glob

from Cython.Build import cythonize
from setuptools import setup

# Release builds drop bounds and wrap-around checks; MENORCA_SIM_DEBUG_BUILD=1 keeps them.
DEBUG = os.environ.get("MENORCA_SIM_DEBUG_BUILD") == "1"
DIRECTIVES = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "cdivision": False,  # Python semantics for // and % on negatives: identical games both ways
    "embedsignature": True,
}

# Plain Python modules compiled as they are: their annotations stay hints (not C types
# Cython would enforce) and indexing keeps Python's checks, so they behave exactly like
# their sources, which MENORCA_SIM_PURE=1 runs instead; compiled, they skip the
# interpreter's dispatch (~10 % of the players' time). Only game.py declares types of its
# own, in their .pxd: the Game (its engine typed as the core's Engine) and the WhatIf
# service with its RevenueMemo.
LAYERS = ["menorca_sim/game.py", "menorca_sim/whatif.py", "policies/base.py", "policies/valuation.py",
          "policies/heuristic.py", "policies/auction.py", "policies/operating_play.py", "policies/stock_play.py",
          "policies/choice.py"]
LAYER_DIRECTIVES = {"language_level": 3, "cdivision": False, "annotation_typing": False, "embedsignature": True}

# The Makefile installs the package editable with MENORCA_SIM_NO_EXT=1, then compiles in
# place (`setup.py build_ext --inplace`), so the core is compiled once, not twice.
SKIP = os.environ.get("MENORCA_SIM_NO_EXT") == "1"
# codes.py holds constants only: its .pxd gives them to the compiled modules as C enums
# (a compiled codes.py could not assign them), so it stays plain Python.
sources = sorted(p for p in glob("menorca_sim/core/*.py") if not p.endswith(("__init__.py", "codes.py")))
setup(
    ext_modules=[] if SKIP else (cythonize(sources, compiler_directives=DIRECTIVES, quiet=True)
                                 + cythonize(LAYERS, compiler_directives=LAYER_DIRECTIVES, quiet=True)),
    zip_safe=False,
)
