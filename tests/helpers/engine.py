"""Helpers for the engine tests: build games, apply actions by their readable fields,
play random-legal stretches, and find market cells."""
from __future__ import annotations

import numpy as np

from menorca_sim.game import Game
from menorca_sim.rules import load_ruleset

RS = load_ruleset()


def new_game(players: int = 3, seed: int = 0, minors=("Ramaders", "Artesans"), legacies=None,
             ruleset=None) -> Game:
    return Game(ruleset or RS, players=players, seed=seed, minors=list(minors),
                legacies=legacies, check=True)


def matching(game: Game, type_: str, **fields) -> list[dict]:
    game._legal = None  # tests may have edited the state since the last look
    return [a for a in game.legal_actions()
            if a["type"] == type_ and all(a.get(k) == v for k, v in fields.items())]


def act(game: Game, type_: str, **fields) -> dict:
    """Apply the first legal action of this type whose fields match."""
    found = matching(game, type_, **fields)
    assert found, f"no legal {type_} {fields} at {game.decision()}: {game.legal_actions()}"
    game.apply(found[0])
    return found[0]


def buy_out_auction(game: Game) -> None:
    """Every player buys the cheapest legacy in turn (nobody passes)."""
    while game.decision() == "auction_turn":
        act(game, "buy_legacy")


def pass_stock_round(game: Game) -> None:
    """Everybody passes (or ends his turn) until this stock round is over."""
    sr = game.context()["sr"]
    while game.decision() == "stock_turn" and game.context()["sr"] == sr:
        act(game, "end_turn") if matching(game, "end_turn") else act(game, "pass")


def play_random(game: Game, seed: int, until=lambda g: False, limit: int = 100000) -> None:
    """Random legal actions until the game is over or `until(game)` holds."""
    rng = np.random.default_rng(seed)
    for _ in range(limit):
        if game.is_over() or until(game):
            return
        legal = game.legal_actions()
        game.apply(legal[int(rng.integers(len(legal)))])
    raise AssertionError("the game did not finish")


def cell_of(value: int, par: bool | None = None, flag: str | None = None) -> tuple[int, int]:
    """The first market cell with this value (and, if given, par flag or zone flag)."""
    grid = RS.market
    for r, row in enumerate(grid):
        for c, cell in enumerate(row):
            if cell is None or cell.value != value:
                continue
            if par is not None and cell.par != par:
                continue
            if flag is not None and not getattr(cell, flag):
                continue
            return (r, c)
    raise LookupError(value)


def company(game: Game, cid: str) -> int:
    return game.tables.company_index[cid]


def start_directly(game: Game, cid: str, seat: int, value: int, sold_to=()) -> int:
    """Put company `cid` in play at a cell of `value` with `seat` as director/president,
    and give each (seat, count) in `sold_to` that many more treasury certificates (test setup)."""
    eng = game._eng
    c = company(game, cid)
    try:
        row, col = cell_of(value, par=True)
    except LookupError:
        row, col = cell_of(value)
    eng.started[c] = True
    eng.co_par[c] = value
    eng.place_token(c, row, col)
    eng.set_owner(c, 0, seat)
    eng.president[c] = seat
    home = RS.companies[cid].home
    eng.board.place_station(cid, home, "port" if RS.companies[cid].kind == "major" else "manufactory")
    k = 1
    for owner, count in sold_to:
        for _ in range(count):
            eng.set_owner(c, k, owner)
            k += 1
    return c


def set_cash(game: Game, seat: int, amount: int) -> None:
    """Give a player exactly `amount`, the difference going to or from the bank."""
    eng = game._eng
    eng.bank += eng.p_cash[seat] - amount
    eng.p_cash[seat] = amount


def sr_game(players: int = 3, legacies=("L1", "L2", "L3"), **kw) -> Game:
    """A game at the start of stock round 1 (everyone bought a legacy; P1 starts)."""
    game = new_game(players=players, legacies=list(legacies[:players]), **kw)
    buy_out_auction(game)
    assert game.decision() == "stock_turn" and game.current_actor() == 0
    return game


def fund(game: Game, cid: str, amount: int) -> None:
    """Company `cid` gets exactly `amount` (the difference going to or from the bank)."""
    eng = game._eng
    c = company(game, cid)
    eng.bank += eng.co_cash[c] - amount
    eng.co_cash[c] = amount


def give_vehicles(game: Game, cid: str, names) -> None:
    eng = game._eng
    eng.set_fleet(company(game, cid), [eng.t.vehicle_index[v] for v in names])


def set_phase(game: Game, name: str) -> None:
    """Jump to a phase (and its epoch) without its entry effects (test setup)."""
    eng = game._eng
    eng.phase = RS.phase_index(name)
    eng.epoch = RS.phases[eng.phase].epoch


def load_ruleset_with(overrides: dict):
    return load_ruleset(overrides=overrides)


def rnc_at_purchase(game: Game, phase: str, sold_out, cash: int = 1000) -> None:
    """Set the game in `phase` with the tiers `sold_out` gone; RNC (P1, at 100, with
    `cash`) operates first: stop at its vehicle purchase."""
    set_phase(game, phase)
    eng = game._eng
    for v in sold_out:
        eng.vehicles_left[eng.t.vehicle_index[v]] = 0
    start_directly(game, "RNC", 0, 100)
    fund(game, "RNC", cash)
    pass_stock_round(game)
    assert game.actor_label() == "RNC"
    while game.decision() != "buy_vehicles":
        act(game, "skip")


def rnc_buys_next_tier(game: Game, vehicle: str, phase: str, sold_out, cash: int = 1000) -> None:
    """RNC operates first and buys the first vehicle of the next tier."""
    rnc_at_purchase(game, phase, sold_out, cash)
    act(game, "buy_vehicle", vehicle=vehicle, source="bank")
