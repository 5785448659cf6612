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
    """Play a whole game between `len(policies)` seats; `policies[i]` (with `act(game,
    legal)`, or `act_code(game)` if it `reads_codes`: policies/base.py) decides for seat i;
    `watch(game)`, if given, reads the game after each action (e.g. a `Trajectory`)."""
    game = Game(ruleset, players=len(policies), seed=seed, minors=minors, check=check, log=log,
                seats=[p.name for p in policies])
    codes = [getattr(p, "reads_codes", False) is True for p in policies]  # the seats whose policies choose by int
    while not game.is_over():
        seat = game.current_actor()  # read before the policy acts: a policy may misbehave
        policy = policies[seat]
        if codes[seat]:  # no dicts built (apply_code checks the index)
            game.apply_code(policy.act_code(game))
        else:
            legal = game.legal_actions()
            action = policy.act(game, legal)
            if action not in legal:
                raise ValueError(f"policy {policy.name!r} (seat {seat}, seed {seed}) chose an illegal action "
                                 f"{action!r} at decision {game.decision()!r}")
            game.apply(action)
        if watch is not None:
            watch(game)
    return game
