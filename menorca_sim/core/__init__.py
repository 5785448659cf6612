"""The compiled engine (Cython pure-Python mode: each module runs compiled or as plain
Python from one source; see menorca_sim._pure)."""
import importlib.machinery as _machinery


def is_compiled(module) -> bool:
    """True when `module` was loaded from a compiled extension."""
    return isinstance(getattr(module, "__loader__", None), _machinery.ExtensionFileLoader)
