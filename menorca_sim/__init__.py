"""menorca-sim: simulation and balance analysis for the 18xx game 1713 Menorca."""
from menorca_sim import _pure

_pure.install()

__version__ = "0.1.0"
