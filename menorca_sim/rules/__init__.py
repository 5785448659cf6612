"""The rules of 1713 Menorca as validated data."""
from menorca_sim.rules.errors import RulesetError
from menorca_sim.rules.loader import default_ruleset_path, load_ruleset
from menorca_sim.rules.model import Ruleset

__all__ = ["Ruleset", "RulesetError", "default_ruleset_path", "load_ruleset"]
