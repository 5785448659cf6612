"""A seat's feature vector: what the learned value (menorca_sim/value/) reads of a state.

Everything comes from the public state, through the Game's read API (`state()`,
`result()`, the what-if `route_revenue`) and the ruleset: never the engine. One row per
seat, the same columns for every seat; the game-wide columns (phase, bank...) repeat on
each row, and the seat's own columns are set against the other seats' where a model
would otherwise have to learn the comparison (shares, rank, lead). Each column is
described in docs/strong-players.md ("The learned value: features"). A model names the
columns it reads (its meta.json): `columns` finds them by name, so a model trained
before a column was added reads what it read then."""
from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

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
# where in its round the state is: a search reads the value at any decision, not only
# between rounds (value_v2, docs/strong-players.md)
CONTEXT_FEATURES = (
    "stock_round", "operating_round", "round_done", "ors_before_sr", "to_act", "directed_to_operate", "income_to_come",
)
FEATURES: tuple[str, ...] = SEAT_FEATURES + GAME_FEATURES + CONTEXT_FEATURES
"""Every column the code computes, in this order; a model names the ones it reads (`columns`)."""

_COMPANY_FIELDS = ("cash", "director", "vehicles")
_PLAYER_FIELDS = ("shares", "certs", "legacies")


def columns(names: Sequence[str]) -> tuple[int, ...]:
    """The positions in FEATURES of the columns `names`, in their order; ValueError naming
    those this version does not compute."""
    unknown = [name for name in names if name not in FEATURES]
    if unknown:
        raise ValueError(f"unknown feature columns: {', '.join(unknown)}")
    return tuple(FEATURES.index(name) for name in names)


def seat_features(game: Game, picked: Sequence[int] | None = None) -> np.ndarray:
    """The state's feature rows: an array of shape (players, len(FEATURES)), row i for seat
    i; with `picked` (`columns(...)`), only those columns, in that order. Built in plain
    Python and made an array once: numpy's cost per call outweighs its speed on a handful
    of numbers (a search reads one state per leaf)."""
    n = game.players
    result = game.result()
    wealth, cash, rank = result["wealth"], result["cash"], result["rank"]
    companies = game.company_states(_COMPANY_FIELDS)
    revenue = {company: game.whatif.route_revenue(company, c["vehicles"]) if c["vehicles"] else 0
               for company, c in companies.items()}
    holdings = [game.player_state(seat, _PLAYER_FIELDS) for seat in range(n)]
    total = sum(wealth)
    income = _payouts(holdings, revenue, revenue)
    total_income = sum(income)
    ruleset, phase, bank = game.ruleset, game.phase_index(), game.bank()
    progress = game.round_progress()
    to_operate = set(progress.get("to_operate", ()))
    to_come = _payouts(holdings, revenue, to_operate)  # of those, the payouts still to come in this OR
    actor = game.current_actor()
    # the engine enters an epoch with its first phase, so the phase names the epoch
    game_columns = [n, phase, ruleset.phases[phase].epoch, game.ors_played(), _tier_left(game, companies),
                    bank, bank / ruleset.bank, total, len(companies), *_round_columns(progress, ruleset.phases[phase], n)]
    rows = []
    for seat, held in enumerate(holdings):
        lead = wealth[seat] - max(w for other, w in enumerate(wealth) if other != seat)
        directed = [company for company, c in companies.items() if c["director"] == seat]
        row = [
            cash[seat], wealth[seat] - cash[seat], wealth[seat], _share(wealth[seat], total, n), rank[seat],
            lead, lead / total if total else 0.0, held["certs"], len(held["legacies"]),
            income[seat], _share(income[seat], total_income, n),
            len(directed), sum(companies[c]["cash"] for c in directed), sum(revenue[c] for c in directed),
            sum(len(companies[c]["vehicles"]) for c in directed),
            sum(1 for c in directed if not companies[c]["vehicles"]),
            *game_columns,
            1 if seat == actor else 0, sum(1 for c in directed if c in to_operate), to_come[seat],
        ]
        rows.append(row if picked is None else [row[i] for i in picked])
    return np.array(rows, dtype=float)


def _payouts(holdings: list[dict], revenue: dict[str, int], paying) -> list[float]:
    """What a full payout of the route revenue of each company in `paying` would bring
    each seat (a share's part is its percent)."""
    return [sum(percent * revenue[company] for company, percent in p["shares"].items() if company in paying) / 100
            for p in holdings]


def _round_columns(progress: dict, phase, n: int) -> list:
    """stock_round, operating_round, round_done (the share of an OR's companies that have
    operated, or of the players passed in a row in a stock round) and ors_before_sr (the
    ORs before the next stock round, the one running left out)."""
    if progress["round"] == "operating":
        done, left = len(progress["operated"]), len(progress["to_operate"])
        return [0, 1, done / (done + left) if done + left else 0.0, progress["ors_left_in_set"]]
    if progress["round"] == "stock":
        return [1, 0, progress["passes"] / n, phase.ors]
    return [0, 0, 0.0, phase.ors]


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
