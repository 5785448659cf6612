"""Play one game between policies, one per seat."""
from __future__ import annotations

from typing import Callable, Sequence

from menorca_sim.game import Game
from menorca_sim.seeding import seat_rngs


def seat_policies(specs: Sequence[str], seed: int) -> list:
    """The policies of `specs` (one per seat), each drawing from its seat's stream of the
    game seeded `seed`: the same seed gives the same players."""
    from policies import make_policy  # here: importing the package stays light

    return [make_policy(spec, seat, rng) for seat, (spec, rng) in enumerate(zip(specs, seat_rngs(seed, len(specs))))]


def play_game(ruleset, seed: int, policies: list, minors=None, check: bool = False,
              log=None, watch: Callable[[Game], None] | None = None) -> Game:
    """Play a whole game between `len(policies)` seats; `policies[i]` decides for seat i
    by `act_code(game)` (policies/base.py; a policy with `act(game, legal)` only plays
    through `ByDicts`); `watch(game)`, if given, reads the game after each action (e.g.
    a `Trajectory`)."""
    from policies.base import as_policy

    game = Game(ruleset, players=len(policies), seed=seed, minors=minors, check=check, log=log,
                seats=[p.name for p in policies])
    players = [as_policy(p) for p in policies]
    while not game.is_over():
        game.apply_code(players[game.current_actor()].act_code(game))  # apply_code checks the index
        if watch is not None:
            watch(game)
    return game
