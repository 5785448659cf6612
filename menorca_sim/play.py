"""Play one game between policies, one per seat."""
from __future__ import annotations

from typing import Callable

from menorca_sim.game import Game


def play_game(ruleset, players: int, seed: int, policies: list, minors=None, check: bool = False,
              log=None, watch: Callable[[Game], None] | None = None) -> Game:
    """Play a whole game; `policies[i]` (with `act(game, legal)`, or `act_code(game)` if it
    `reads_codes`: policies/base.py) decides for seat i;
    `watch(game)`, if given, reads the game after each action (e.g. a `Trajectory`)."""
    if len(policies) != players:
        raise ValueError(f"{players} players need {players} policies, got {len(policies)}")
    game = Game(ruleset, players=players, seed=seed, minors=minors, check=check, log=log,
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
