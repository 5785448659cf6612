"""What the scripted players ask of a game beyond its state records (`company_states`,
`player_state`) and the legal actions, in the terms they think in. Everything goes
through the public Game API (`auction_state`, `route_plan`, `lay_revenues`,
`station_revenues`, `next_lays`, `pending_revenue`, `vehicles_for_sale`, ...); this module
only names and reshapes those answers."""
from __future__ import annotations


# --- legal actions -------------------------------------------------------------------------
def find_action(legal: list[dict], *types: str, last: bool = False) -> dict | None:
    """The first legal action of one of `types` (None if there is none), or with `last`
    the last: the pass or skip, which the engine lists after a step's choices (a hundred
    tile lays, a turn's buys). A plain loop: `next()` over a generator costs more than the
    search in these short lists."""
    for action in (reversed(legal) if last else legal):
        if action["type"] in types:
            return action
    return None


# --- auction -------------------------------------------------------------------------------
def auction_lot(game) -> tuple[str, int]:
    """(legacy on offer as the cheapest, its current price)."""
    auction = game.auction_state()
    return auction["lot"], auction["price"]


def auction_legacies(game) -> list[str]:
    """Legacies still to be sold, cheapest first (the lot first)."""
    return game.auction_state()["left"]


def reservations(game, seat: int) -> dict[str, int]:
    """This seat's open reservation bids per legacy."""
    return {legacy: bids[seat] for legacy, bids in game.auction_state()["reservations"].items() if seat in bids}


# --- routes --------------------------------------------------------------------------------
def route_plan(game, company: str, vehicles: list[str], changes=()):
    """The best plan of `company` with these vehicles (ids), or None without vehicles,
    on the map as it is or as `changes` would leave it ("what would it earn if")."""
    return game.route_plan(company, list(vehicles), changes)


def route_revenue(game, company: str, vehicles: list[str], changes=()) -> int:
    return game.route_revenue(company, vehicles, changes)


def lay_revenues(game, company: str, vehicles: list[str], lays: list[dict], done=()) -> list[int]:
    """`route_revenue(game, company, vehicles, done + [lay])` for each tile lay, in one core call."""
    return game.lay_revenues(company, list(vehicles), lays, done)


def station_revenues(game, company: str, vehicles: list[str], stations: list[dict]) -> list[int]:
    """`route_revenue(game, company, vehicles, [station])` for each station placement, in one core call."""
    return game.station_revenues(company, list(vehicles), stations)


def marker_revenues(game, company: str, vehicles: list[str], markers: list[dict]) -> list[int]:
    """`route_revenue(game, company, vehicles, [marker])` for each market marker placement, in one core call."""
    return game.marker_revenues(company, list(vehicles), markers)


def next_lays(game, company: str, done=()) -> list[dict]:
    """The lays `company` could make in a later turn of this phase after the lays `done`."""
    return game.next_lays(company, done)


def next_lay_revenues(game, company: str, vehicles: list[str], done=()) -> list[int]:
    """`route_revenue(game, company, vehicles, done + [lay])` for each lay of `next_lays`, in one core call."""
    return game.next_lay_revenues(company, list(vehicles), done)


def next_lay_revenues_each(game, company: str, vehicles: list[str], firsts: list[dict], done=(),
                           until_earning: bool = False) -> list[list[int]]:
    """`next_lay_revenues(game, company, vehicles, done + [lay])` for each lay of `firsts`, in
    one core call (`until_earning`: up to the first that holds a revenue)."""
    return game.next_lay_revenues_each(company, list(vehicles), firsts, done, until_earning)


def pending_revenue(game) -> int:
    """The revenue the operating company's routes earned this turn (at the dividend step)."""
    return game.pending_revenue()


def operating_company(game) -> str | None:
    """The company whose turn it is in an operating round (or whose marker is placed)."""
    label = game.actor_label()
    return None if label.startswith("P") and label[1:].isdigit() else label


def for_sale(game, company: str) -> list[str]:
    """Vehicle ids the bank sells now that this company may own."""
    return game.vehicles_for_sale(company)


def phase_index(game) -> int:
    return game.phase_index()


def marker_company(game) -> str:
    """The company whose market or goods marker is being placed."""
    return game.marker_company()


def map_key(game) -> bytes:
    """The map and phase: equal keys, equal answers to what-if questions about track."""
    return game.map_key()
