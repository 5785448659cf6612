"""The learned value's features read from the engine's arrays (features.py) equal the
features as the Game's public records give them (the records-based reading below, which
they replaced for speed), column by column, on states of every round of a few games,
2 and 3 players, with and without the columns a model picks."""
from __future__ import annotations

import numpy as np
import pytest

from menorca_sim.game import Game
from menorca_sim.play import seat_policies
from menorca_sim.rules import load_ruleset
from menorca_sim.value.features import FEATURES, columns, seat_features

RULES = load_ruleset()


def _record_features(game: Game) -> np.ndarray:
    """Every seat's FEATURES row as the Game's records give them."""
    n = game.players
    result = game.result()
    wealth, cash, rank = result["wealth"], result["cash"], result["rank"]
    companies = game.company_states(("cash", "director", "vehicles"))
    revenue = {company: game.whatif.route_revenue(company, c["vehicles"]) if c["vehicles"] else 0
               for company, c in companies.items()}
    holdings = [game.player_state(seat, ("shares", "certs", "legacies")) for seat in range(n)]
    total = sum(wealth)
    progress = game.round_progress()
    to_operate = set(progress.get("to_operate", ()))

    def payouts(paying) -> list[float]:
        return [sum(percent * revenue[company] for company, percent in p["shares"].items() if company in paying) / 100
                for p in holdings]

    def share(part, whole):
        return part / whole if whole else 1.0 / n

    income, to_come = payouts(revenue), payouts(to_operate)
    phase = RULES.phases[game.phase_index()]
    tier = [v for v in RULES.vehicles.values() if v.kind == "ship" and v.phase == game.phase()]
    tier_left = (sum(v.count or 0 for v in tier)
                 - sum(c["vehicles"].count(v.id) for c in companies.values() for v in tier))
    if progress["round"] == "operating":
        done, left = len(progress["operated"]), len(progress["to_operate"])
        round_columns = [0, 1, done / (done + left) if done + left else 0.0, progress["ors_left_in_set"]]
    elif progress["round"] == "stock":
        round_columns = [1, 0, progress["passes"] / n, phase.ors]
    else:
        round_columns = [0, 0, 0.0, phase.ors]
    game_columns = [n, game.phase_index(), phase.epoch, game.ors_played(), tier_left, game.bank(),
                    game.bank() / RULES.bank, total, len(companies), *round_columns]
    rows = []
    for seat, held in enumerate(holdings):
        lead = wealth[seat] - max(w for other, w in enumerate(wealth) if other != seat)
        directed = [company for company, c in companies.items() if c["director"] == seat]
        rows.append([
            cash[seat], wealth[seat] - cash[seat], wealth[seat], share(wealth[seat], total), rank[seat],
            lead, lead / total if total else 0.0, held["certs"], len(held["legacies"]),
            income[seat], share(income[seat], sum(income)),
            len(directed), sum(companies[c]["cash"] for c in directed), sum(revenue[c] for c in directed),
            sum(len(companies[c]["vehicles"]) for c in directed), sum(1 for c in directed if not companies[c]["vehicles"]),
            *game_columns,
            1 if seat == game.current_actor() else 0, sum(1 for c in directed if c in to_operate), to_come[seat],
        ])
    return np.array(rows, dtype=float)


@pytest.mark.parametrize("players, seed", [(2, 1), (3, 4), (3, 9)])
def test_the_features_are_what_the_records_say_in_every_state(players, seed):
    game = Game(RULES, players=players, seed=seed)
    seats = seat_policies(["heuristic_tuned", "heuristic_aggressive", "heuristic_cautious"][:players], seed)
    picked = columns(FEATURES[::-3])
    rounds = set()
    while not game.is_over():
        if game.action_count() % 3 == 0:
            expected = _record_features(game)
            got = seat_features(game)
            for i, name in enumerate(FEATURES):  # bit for bit: a model's trees compare with thresholds
                assert got[:, i].tolist() == expected[:, i].tolist(), (name, game.action_count())
            assert seat_features(game, picked).tolist() == expected[:, list(picked)].tolist()
            rounds.add(game.round_progress()["round"])
        game.apply_code(seats[game.current_actor()].act_code(game))
    assert rounds == {"auction", "stock", "operating"}
    assert seat_features(game).tolist() == _record_features(game).tolist()  # over: the final state
