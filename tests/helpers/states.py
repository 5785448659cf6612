"""Game states built through the public API only (seated policies' choices by index, no
engine field set by hand), and a policy's choice read as its action dict."""
from __future__ import annotations

from typing import Callable

from menorca_sim.game import Game


def play_until(game: Game, players: list, until: Callable[[Game], bool]) -> Game:
    """`game` played on by `players` (one per seat, answering `act_code`) until
    `until(game)` holds; AssertionError if the game ends first."""
    while not until(game):
        assert not game.is_over(), "the game ended before the state asked for"
        game.apply_code(players[game.current_actor()].act_code(game))
    return game


def chosen(policy, game: Game) -> dict:
    """The legal action dict `policy` chooses in `game` (by `act_code`, the one protocol)."""
    return game.legal_actions()[policy.act_code(game)]
