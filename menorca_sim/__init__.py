"""menorca-sim: simulation and balance analysis for the 18xx game 1713 Menorca."""
from menorca_sim import _pure

_pure.install()

__version__ = "0.1.0"


def __getattr__(name: str):
    # `Game` is imported lazily so that `import menorca_sim` stays light.
    if name == "Game":
        from menorca_sim.game import Game

        return Game
    raise AttributeError(f"module 'menorca_sim' has no attribute {name!r}")
