"""A seat's feature vector: what the learned value (menorca_sim/value/) reads of a state.

Everything comes from the public state, through the Game's read API (`state()`,
`result()`, the what-if `route_revenue`) and the ruleset: never the engine. One row per
seat, the same columns for every seat; the game-wide columns (phase, bank...) repeat on
each row, and the seat's own columns are set against the other seats' where a model
would otherwise have to learn the comparison (shares, rank, lead). Each column is
described in docs/strong-players.md ("The learned value: features")."""
from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from menorca_sim.game import Game

SEAT_FEATURES = (
    "cash", "cert_value", "wealth", "wealth_share", "rank", "lead", "lead_share", "certs", "legacies",
    "income", "income_share", "directed", "directed_cash", "directed_revenue", "directed_vehicles",
    "directed_without_vehicle",
)
GAME_FEATURES = (
    "players", "phase", "epoch", "ors_played", "tier_left", "bank", "bank_share", "total_wealth", "companies",
)
FEATURES: tuple[str, ...] = SEAT_FEATURES + GAME_FEATURES
"""The columns of a feature row, in order (a model file names them: it is refused if they differ)."""

_COMPANY_FIELDS = ("cash", "director", "vehicles")


def seat_features(game: Game) -> np.ndarray:
    """The state's feature rows: an array of shape (players, len(FEATURES)), row i for seat i."""
    state, result = game.state(), game.result()
    n = game.players
    companies = game.company_states(_COMPANY_FIELDS)
    revenue = {company: game.route_revenue(company, c["vehicles"]) if c["vehicles"] else 0
               for company, c in companies.items()}
    wealth = np.array(result["wealth"], dtype=float)
    cash = np.array(result["cash"], dtype=float)
    total = wealth.sum()
    # what a full payout of every company's route revenue would bring each seat (a share's part is its percent)
    income = np.array([sum(percent * revenue.get(company, 0) for company, percent in p["shares"].items()) / 100
                       for p in state["players"]])
    others_best = np.array([max(np.delete(wealth, seat)) for seat in range(n)])
    seat_columns = np.zeros((n, len(SEAT_FEATURES)))
    for seat, player in enumerate(state["players"]):
        directed = [company for company, c in companies.items() if c["director"] == seat]
        seat_columns[seat] = (
            cash[seat], wealth[seat] - cash[seat], wealth[seat], _share(wealth[seat], total, n),
            result["rank"][seat], wealth[seat] - others_best[seat],
            (wealth[seat] - others_best[seat]) / total if total else 0.0,
            player["certs"], len(player["legacies"]),
            income[seat], _share(income[seat], income.sum(), n),
            len(directed), sum(companies[c]["cash"] for c in directed), sum(revenue[c] for c in directed),
            sum(len(companies[c]["vehicles"]) for c in directed),
            sum(1 for c in directed if not companies[c]["vehicles"]),
        )
    ruleset = game.ruleset
    game_columns = (n, game.phase_index(), state["epoch"], game.ors_played(), _tier_left(game, companies),
                    state["bank"], state["bank"] / ruleset.bank, total, len(companies))
    return np.hstack([seat_columns, np.tile(np.array(game_columns, dtype=float), (n, 1))])


def _share(part: float, total: float, n: int) -> float:
    """`part` of `total`; an equal share when there is nothing to share (no income yet)."""
    return part / total if total else 1.0 / n


def _tier_left(game: Game, companies: dict[str, dict]) -> int:
    """Copies of the current phase's ship tier not owned by a running company: the public
    state has no count of operating rounds to the next phase, and the next phase begins
    when the next tier is bought, which the bank sells once this tier is gone."""
    phase = game.phase()
    tier = [v for v in game.ruleset.vehicles.values() if v.kind == "ship" and v.phase == phase]
    owned = sum(c["vehicles"].count(v.id) for c in companies.values() for v in tier)
    return sum(v.count or 0 for v in tier) - owned
