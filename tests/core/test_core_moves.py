"""The legal actions as ints (Engine.build_moves, Game.legal_codes): built once per state,
the same as built from scratch, read back as the tuples and dicts the API has always
shown, and a game played by index is the game played by dicts."""
from __future__ import annotations

import numpy as np
import pytest

from menorca_sim.core import codes
from menorca_sim.core.actions import describe
from menorca_sim.game import Game, IllegalActionError
from menorca_sim.rules import load_ruleset

RS = load_ruleset()
W = codes.MOVE_WIDTH


def _rows(game: Game) -> list[list[int]]:
    flat = list(game.legal_codes())
    return [flat[i:i + W] for i in range(0, len(flat), W)]


def test_codes_read_back_as_the_tuples_and_dicts_and_as_built_from_scratch():
    game = Game(RS, players=3, seed=5)
    rng = np.random.default_rng(5)
    while not game.is_over():
        eng = game._eng
        rows = _rows(game)  # as the state settled (an operating step's choices kept from settle)
        dicts = game.legal_actions()
        assert len(rows) == len(dicts) == eng.n_moves
        for i, row in enumerate(rows):
            kind, args = row[0], row[1:]
            assert args[codes.ARITY[kind]:] == [0] * (W - 1 - codes.ARITY[kind])
            action = eng.legal_action(i)
            assert action[0] == kind and describe(eng.t, action) == dicts[i]
        eng.begin_moves()
        assert _rows(game) == rows  # built from scratch: the same moves
        game.apply(dicts[int(rng.integers(len(dicts)))])


def test_a_game_played_by_index_is_the_game_played_by_dicts():
    by_dict, by_code = Game(RS, players=3, seed=9, check=True), Game(RS, players=3, seed=9, check=True)
    rng = np.random.default_rng(9)
    while not by_dict.is_over():
        n = len(by_code.legal_codes()) // W
        assert n == len(by_dict.legal_actions())
        i = int(rng.integers(n))
        by_dict.apply(by_dict.legal_actions()[i])
        by_code.apply_code(i)
    assert by_code.is_over() and by_code.fingerprint() == by_dict.fingerprint()
    assert by_code.result() == by_dict.result()


def test_apply_code_checks_the_index_and_a_copy_keeps_the_moves():
    game = Game(RS, players=3, seed=2)
    n = len(game.legal_codes()) // W
    with pytest.raises(IllegalActionError):
        game.apply_code(n)
    copy = game.clone()
    assert list(copy.legal_codes()) == list(game.legal_codes())
    copy.apply_code(0)
    assert copy.action_count() == game.action_count() + 1


def test_a_state_edited_in_place_gets_its_moves_built_again():
    game = Game(RS, players=3, seed=1)
    before = game.legal_actions()
    eng = game._eng
    eng.p_cash[eng.auction.turn] = 0  # nothing affordable: only what costs nothing is left
    game._legal = None  # as the tests' helpers do after editing a state
    after = game.legal_actions()
    assert after != before and all(a["type"] != "buy_legacy" or eng.auction.price == 0 for a in after)
