"""A seat's feature vector: what the learned value (menorca_sim/value/) reads of a state.

Everything is public state: the numbers the Game's records (`result()`, `company_states`,
`player_state`, `round_progress`) and its what-if `route_revenue` give, read from the
engine's arrays (a search reads them at every leaf; tests/value/test_features.py checks
them against the records). One row per
seat, the same columns for every seat; the game-wide columns (phase, bank...) repeat on
each row, and the seat's own columns are set against the other seats' where a model
would otherwise have to learn the comparison (shares, rank, lead). Each column is
described in docs/strong-players.md ("The learned value: features"). A model names the
columns it reads (its meta.json): `columns` finds them by name, so a model trained
before a column was added reads what it read then."""
from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

import numpy as np

from menorca_sim.observation import director_of, fleet_of, legacies_of

if TYPE_CHECKING:
    from menorca_sim.core.engine import Engine
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

# each column's position in FEATURES (C ints compiled: features.pxd)
(_CASH, _CERT_VALUE, _WEALTH, _WEALTH_SHARE, _RANK, _LEAD, _LEAD_SHARE, _CERTS, _LEGACIES, _INCOME, _INCOME_SHARE,
 _DIRECTED, _DIRECTED_CASH, _DIRECTED_REVENUE, _DIRECTED_VEHICLES, _DIRECTED_WITHOUT_VEHICLE,
 _PLAYERS, _PHASE, _EPOCH, _ORS_PLAYED, _TIER_LEFT, _BANK, _BANK_SHARE, _TOTAL_WEALTH, _COMPANIES,
 _STOCK_ROUND, _OPERATING_ROUND, _ROUND_DONE, _ORS_BEFORE_SR, _TO_ACT, _DIRECTED_TO_OPERATE,
 _INCOME_TO_COME) = range(len(FEATURES))


def columns(names: Sequence[str]) -> tuple[int, ...]:
    """The positions in FEATURES of the columns `names`, in their order; ValueError naming
    those this version does not compute."""
    unknown = [name for name in names if name not in FEATURES]
    if unknown:
        raise ValueError(f"unknown feature columns: {', '.join(unknown)}")
    return tuple(FEATURES.index(name) for name in names)


def seat_features(game: Game, picked: Sequence[int] | None = None) -> np.ndarray:
    """The state's feature rows: an array of shape (players, len(FEATURES)), row i for seat
    i; with `picked` (`columns(...)`), only those columns, in that order. Read from the
    engine's arrays (the Game's records are dicts and lists built per call: a search
    reads a state per leaf) and written into one array, each column as the record
    readers would give it (tests/value/test_features.py checks them against the records)."""
    eng = game._eng
    t = eng.t
    n = eng.n
    nc = t.n_companies
    progress = game.round_progress()
    to_operate = [0] * nc  # the companies still to operate in this OR
    for company in progress.get("to_operate", ()):
        to_operate[t.company_index[company]] = 1
    live = [0] * nc  # the companies started and not closed
    revenue = [0] * nc  # their route revenue
    companies = 0
    for c in range(nc):
        if eng.started[c] and not eng.closed[c]:
            live[c] = 1
            companies += 1
            if eng.co_vehicles[c]:
                revenue[c] = game.whatif.route_revenue(t.company_ids[c], fleet_of(eng, c))
    wealth = [eng.wealth(p) for p in range(n)]
    total = sum(wealth)
    # what a full payout of every company's route revenue would bring each seat, and of
    # that, what the companies still to operate in this OR would
    income, to_come = [], []
    for p in range(n):
        paid = coming = 0
        for c in range(nc):
            if live[c]:
                part = eng.percent(c, p) * revenue[c]
                paid += part
                coming += part * to_operate[c]
        income.append(paid / 100)
        to_come.append(coming / 100)
    total_income = sum(income)
    ranks = eng.ranking()[0]
    actor = game.current_actor()
    phase = t.phases[eng.phase]
    tier_left = _tier_left(eng)
    bank_share = eng.bank / game.ruleset.bank
    out = np.empty((n, len(FEATURES)))
    rows = out  # compiled: a typed view of it (features.pxd)
    for seat in range(n):
        directed = directed_cash = directed_revenue = directed_vehicles = without = directed_to_operate = 0
        for c in range(nc):
            if live[c] and director_of(eng, c) == seat:
                fleet = len(eng.co_vehicles[c])
                directed += 1
                directed_cash += eng.co_cash[c]
                directed_revenue += revenue[c]
                directed_vehicles += fleet
                without += fleet == 0
                directed_to_operate += to_operate[c]
        cash = eng.p_cash[seat]
        lead = wealth[seat] - max([w for other, w in enumerate(wealth) if other != seat])
        rows[seat, _CASH] = cash
        rows[seat, _CERT_VALUE] = wealth[seat] - cash
        rows[seat, _WEALTH] = wealth[seat]
        rows[seat, _WEALTH_SHARE] = _share(wealth[seat], total, n)
        rows[seat, _RANK] = ranks[seat]
        rows[seat, _LEAD] = lead
        rows[seat, _LEAD_SHARE] = lead / total if total else 0.0
        rows[seat, _CERTS] = eng.cert_count(seat)
        rows[seat, _LEGACIES] = len(legacies_of(eng, eng.leg_player, seat))
        rows[seat, _INCOME] = income[seat]
        rows[seat, _INCOME_SHARE] = _share(income[seat], total_income, n)
        rows[seat, _DIRECTED] = directed
        rows[seat, _DIRECTED_CASH] = directed_cash
        rows[seat, _DIRECTED_REVENUE] = directed_revenue
        rows[seat, _DIRECTED_VEHICLES] = directed_vehicles
        rows[seat, _DIRECTED_WITHOUT_VEHICLE] = without
        rows[seat, _PLAYERS] = n
        rows[seat, _PHASE] = eng.phase
        rows[seat, _EPOCH] = phase.epoch  # the engine enters an epoch with its first phase: the phase names it
        rows[seat, _ORS_PLAYED] = eng.ors
        rows[seat, _TIER_LEFT] = tier_left
        rows[seat, _BANK] = eng.bank
        rows[seat, _BANK_SHARE] = bank_share
        rows[seat, _TOTAL_WEALTH] = total
        rows[seat, _COMPANIES] = companies
        _round_columns(rows, seat, progress, phase.ors, n)
        rows[seat, _TO_ACT] = seat == actor
        rows[seat, _DIRECTED_TO_OPERATE] = directed_to_operate
        rows[seat, _INCOME_TO_COME] = to_come[seat]
    return out if picked is None else out[:, list(picked)]


def _round_columns(rows, seat: int, progress: dict, ors: int, n: int) -> None:
    """Seat `seat`'s stock_round, operating_round, round_done (the share of an OR's
    companies that have operated, or of the players passed in a row in a stock round)
    and ors_before_sr (the ORs before the next stock round, the one running left out;
    `ors`: the phase's ORs per set)."""
    stock = operating = 0
    done = 0.0
    if progress["round"] == "operating":
        operating = 1
        operated, left = len(progress["operated"]), len(progress["to_operate"])
        done = operated / (operated + left) if operated + left else 0.0
        ors = progress["ors_left_in_set"]
    elif progress["round"] == "stock":
        stock = 1
        done = progress["passes"] / n
    rows[seat, _STOCK_ROUND] = stock
    rows[seat, _OPERATING_ROUND] = operating
    rows[seat, _ROUND_DONE] = done
    rows[seat, _ORS_BEFORE_SR] = ors


def _share(part: float, total: float, n: int) -> float:
    """`part` of `total`; an equal share when there is nothing to share (no income yet)."""
    return part / total if total else 1.0 / n


def _tier_left(eng: Engine) -> int:
    """Copies of the current phase's ship tier not owned by a running company: the public
    state has no count of operating rounds to the next phase, and the next phase begins
    when the next tier is bought, which the bank sells once this tier is gone."""
    t = eng.t
    left = 0
    for v in range(t.n_vehicles):
        if t.vehicle_is_ship[v] and t.vehicle_phase[v] == eng.phase:  # the phase's tier
            left += t.vehicles[v].count or 0
    for c in range(t.n_companies):
        if eng.started[c] and not eng.closed[c]:
            for v in eng.co_vehicles[c]:
                if t.vehicle_is_ship[v] and t.vehicle_phase[v] == eng.phase:
                    left -= 1
    return left
