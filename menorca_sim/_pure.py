"""MENORCA_SIM_PURE=1: import the plain-Python sources of the project's modules (the
core, and the layers setup.py compiles too) even where compiled extension modules sit
beside them (the import system would otherwise prefer the extensions). This is the
reference mode for debugging, coverage and the compiled-vs-reference identity test."""
from __future__ import annotations

import importlib.abc
import importlib.util
import os
import sys

PACKAGES = ("menorca_sim", "policies")  # their modules load from source in pure mode


def pure_mode() -> bool:
    """True when the plain-Python sources are requested."""
    return os.environ.get("MENORCA_SIM_PURE", "") not in ("", "0")


class _PureSourceFinder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path, target=None):
        if fullname.partition(".")[0] not in PACKAGES or path is None:
            return None
        leaf = fullname.rpartition(".")[2]
        for folder in path:
            source = os.path.join(folder, leaf + ".py")
            if os.path.isfile(source):
                return importlib.util.spec_from_file_location(fullname, source)
        return None


def install() -> None:
    if pure_mode() and not any(isinstance(f, _PureSourceFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _PureSourceFinder())
