"""What the scripted players read from a game beyond `observation()` and the legal
actions: the auction lot, the revenue a company's routes would earn (asked of the
Board's compiled `best_routes`), and the revenue being paid or withheld.

The Game API does not offer these yet, so this module is the single place that reads
the engine's state; everything else in `policies/` goes through it. When the Game
offers `auction_state()` and `route_revenue()` (proposed in the issue-5 report), only
this module changes."""
from __future__ import annotations

from menorca_sim.core.operating import bank_vehicles
from menorca_sim.core.routes import RevenueContext


def _eng(game):
    return game._eng


# --- auction -------------------------------------------------------------------------------
def auction_lot(game) -> tuple[str, int]:
    """(legacy on offer as the cheapest, its current price)."""
    eng = _eng(game)
    return eng.t.legacy_ids[eng.auc_order[eng.auc_pos]], eng.auc_price


def auction_legacies(game) -> list[str]:
    """Legacies still to be sold, cheapest first (the lot first)."""
    eng = _eng(game)
    return [eng.t.legacy_ids[l] for l in eng.auc_order[eng.auc_pos:]]


def reservations(game, seat: int) -> dict[str, int]:
    """This seat's open reservation bids per legacy."""
    eng = _eng(game)
    out = {}
    for pos in range(eng.auc_pos, len(eng.auc_order)):
        bid = eng.reservations[pos][seat]
        if bid >= 0:
            out[eng.t.legacy_ids[eng.auc_order[pos]]] = bid
    return out


# --- routes --------------------------------------------------------------------------------
def revenue_context(game, company: str) -> RevenueContext:
    """The company's route context now: event and legacy node bonuses, its own market
    markers (the same inputs the operating round gives `best_routes`)."""
    eng = _eng(game)
    t = eng.t
    c = t.company_index[company]
    bonus = dict(eng.node_bonus)
    for a in eng.owned_abilities(c, "revenue_bonus"):
        bonus[a.node] = bonus.get(a.node, 0) + a.amount
    return RevenueContext(
        epoch=eng.epoch, node_bonus=bonus,
        market_markers={t.offboards[o]: n for o, n in enumerate(eng.mmarkers[c]) if n},
        market_bonus=eng.rs.markers.market_bonus)


def _changed(game, company: str, changes) -> tuple:
    """(board, context) of `company` with `changes` applied to copies: legal
    `lay_tile`, `place_station` or `place_market_marker` actions of this company."""
    eng = _eng(game)
    board, ctx = eng.board, revenue_context(game, company)
    copied = False
    for change in changes:
        kind = change["type"]
        if kind == "place_market_marker":
            o = change["offboard"]
            ctx.market_markers[o] = ctx.market_markers.get(o, 0) + 1
            continue
        if not copied:
            board, copied = board.clone(), True
        if kind == "lay_tile":
            board.lay_tile(change["hex"], change["tile"], change["rotation"])
        elif kind == "place_station":
            c = eng.t.company_index[company]
            board.place_station(company, change["node"], "port" if eng.is_major(c) else "manufactory")
        else:
            raise ValueError(f"no route change for action {change!r}")
    return board, ctx


def route_plan(game, company: str, vehicles: list[str], changes=()):
    """The best plan of `company` with these vehicles (ids), or None without vehicles,
    on the map as it is or as `changes` would leave it ("what would it earn if")."""
    if not vehicles:
        return None
    eng = _eng(game)
    specs = game.ruleset.vehicles
    fleet = [(v, specs[v].kind, specs[v].range) for v in vehicles]
    board, ctx = _changed(game, company, changes)
    return board.best_routes(company, eng.is_major(eng.t.company_index[company]), fleet, ctx)


def route_revenue(game, company: str, vehicles: list[str], changes=()) -> int:
    plan = route_plan(game, company, vehicles, changes)
    return plan.revenue if plan is not None else 0


def next_lays(game, company: str, done=()) -> list[dict]:
    """The lays `company` could make in a later turn of this phase after the lays
    `done`, with the cash they leave (the query the operating round makes)."""
    eng = _eng(game)
    c = eng.t.company_index[company]
    board, _ = _changed(game, company, done)
    discount = sum(a.amount for a in eng.owned_abilities(c, "terrain_discount"))
    cash = eng.co_cash[c] - sum(lay["cost"] for lay in done)
    lays = board.tile_lays(company, eng.t.phases[eng.phase].tiles, cash, discount)
    return [{"type": "lay_tile", "hex": h, "tile": tile, "rotation": rot, "cost": cost}
            for h, tile, rot, cost in lays]


def pending_revenue(game) -> int:
    """The revenue the operating company's routes earned this turn (at the dividend step)."""
    plan = _eng(game).or_plan
    return plan.revenue if plan is not None else 0


def operating_company(game) -> str | None:
    """The company whose turn it is in an operating round (or whose marker is placed)."""
    label = game.actor_label()
    return None if label.startswith("P") and label[1:].isdigit() else label


def for_sale(game, company: str) -> list[str]:
    """Vehicle ids the bank sells now that this company may own."""
    eng = _eng(game)
    kinds = game.ruleset.companies[company].vehicle_kinds
    return [eng.t.vehicle_ids[v] for v in bank_vehicles(eng) if eng.t.vehicles[v].kind in kinds]


def phase_index(game) -> int:
    return _eng(game).phase


def director(game, company: str) -> int:
    """The seat deciding for a company (-1 if none)."""
    eng = _eng(game)
    return eng.director(eng.t.company_index[company])


def par(game, company: str) -> int:
    """The company's initial market value."""
    eng = _eng(game)
    return eng.co_par[eng.t.company_index[company]]


def marker_company(game) -> str:
    """The company whose market or goods marker is being placed."""
    eng = _eng(game)
    return eng.t.company_ids[eng.pm_company]


def map_key(game) -> bytes:
    """The map's state (tiles, rotations, stations) and the phase, as bytes: equal keys,
    equal answers to what-if questions about track."""
    eng = _eng(game)
    b = eng.board
    return b.tile.tobytes() + b.rot.tobytes() + b.station_company.tobytes() + bytes([eng.phase])


def revenue_key(game, company: str) -> tuple:
    """Everything a company's route revenue depends on besides its vehicles: the map
    and phase (`map_key`), the epoch, its node bonuses and its market markers."""
    ctx = revenue_context(game, company)
    return (map_key(game), ctx.epoch, tuple(sorted(ctx.node_bonus.items())),
            tuple(sorted(ctx.market_markers.items())))


def decision_key(game) -> tuple[int, int]:
    """Identifies the game state between two actions (for per-decision caches)."""
    return (game.seed, id(_eng(game)), _eng(game).actions)
