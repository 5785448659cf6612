"""A copy of a game starts with the what-if answers its original holds for their common
state (WhatIf._share): after moves on the copy, on the original or on both, each answers
every company's route revenue as a WhatIf that never shared anything does."""
from __future__ import annotations

import pytest

from menorca_sim.game import Game
from menorca_sim.observation import fleet_of
from menorca_sim.play import seat_policies
from menorca_sim.rules import load_ruleset
from menorca_sim.whatif import WhatIf

RULES = load_ruleset()


def _revenues(game: Game, whatif: WhatIf) -> dict[str, int]:
    eng = game._eng
    return {company: whatif.route_revenue(company, fleet_of(eng, c))
            for c, company in enumerate(eng.t.company_ids) if eng.started[c] and not eng.closed[c] and eng.co_vehicles[c]}


def _play(game: Game, seats: list, moves: int) -> None:
    for _ in range(moves):
        if game.is_over():
            return
        game.apply_code(seats[game.current_actor()].act_code(game))


@pytest.mark.parametrize("seed", [2, 5])
def test_a_copy_and_its_original_answer_as_fresh_what_ifs_after_moves_on_either(seed):
    game = Game(RULES, players=3, seed=seed)
    seats = seat_policies(["heuristic_tuned", "heuristic", "heuristic_aggressive"], seed)
    checked = 0
    while not game.is_over():
        _play(game, seats, 7)
        if game.is_over():
            break
        _revenues(game, game.whatif)  # the original holds answers for its state
        copy = game.clone()
        _play(copy, seats, 4)
        assert _revenues(copy, copy.whatif) == _revenues(copy, WhatIf(copy._eng))
        _play(game, seats, 2)
        assert _revenues(game, game.whatif) == _revenues(game, WhatIf(game._eng))
        checked += bool(_revenues(game, game.whatif))
    assert checked > 10
