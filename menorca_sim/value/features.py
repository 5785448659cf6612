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
_PLAYER_FIELDS = ("shares", "certs", "legacies")


def seat_features(game: Game) -> np.ndarray:
    """The state's feature rows: an array of shape (players, len(FEATURES)), row i for seat i.
    Built in plain Python and made an array once: numpy's cost per call outweighs its
    speed on a handful of numbers (a search reads one state per leaf)."""
    n = game.players
    result = game.result()
    wealth, cash, rank = result["wealth"], result["cash"], result["rank"]
    companies = game.company_states(_COMPANY_FIELDS)
    revenue = {company: game.whatif.route_revenue(company, c["vehicles"]) if c["vehicles"] else 0
               for company, c in companies.items()}
    holdings = [game.player_state(seat, _PLAYER_FIELDS) for seat in range(n)]
    total = sum(wealth)
    # what a full payout of every company's route revenue would bring each seat (a share's part is its percent)
    income = [sum(percent * revenue[company] for company, percent in p["shares"].items() if company in revenue) / 100
              for p in holdings]
    total_income = sum(income)
    ruleset, phase, bank = game.ruleset, game.phase_index(), game.bank()
    # the engine enters an epoch with its first phase, so the phase names the epoch
    game_columns = [n, phase, ruleset.phases[phase].epoch, game.ors_played(), _tier_left(game, companies),
                    bank, bank / ruleset.bank, total, len(companies)]
    rows = []
    for seat, held in enumerate(holdings):
        lead = wealth[seat] - max(w for other, w in enumerate(wealth) if other != seat)
        directed = [company for company, c in companies.items() if c["director"] == seat]
        rows.append([
            cash[seat], wealth[seat] - cash[seat], wealth[seat], _share(wealth[seat], total, n), rank[seat],
            lead, lead / total if total else 0.0, held["certs"], len(held["legacies"]),
            income[seat], _share(income[seat], total_income, n),
            len(directed), sum(companies[c]["cash"] for c in directed), sum(revenue[c] for c in directed),
            sum(len(companies[c]["vehicles"]) for c in directed),
            sum(1 for c in directed if not companies[c]["vehicles"]),
            *game_columns,
        ])
    return np.array(rows, dtype=float)


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
