"""Built-in players. `make_policy(spec, seat, rng)` builds one from its name."""
import menorca_sim  # noqa: F401  (first: with MENORCA_SIM_PURE=1 it makes the modules below load from source)
from policies import auction, heuristic, mcts, probe, random_legal, tuned  # noqa: F401  (they register themselves)
from policies.base import Policy, auction_names, make_policy, policy_names, register, register_auction
from policies.errors import PolicyError, PolicyFailure

__all__ = ["Policy", "PolicyError", "PolicyFailure", "auction_names", "make_policy", "policy_names",
           "register", "register_auction"]
