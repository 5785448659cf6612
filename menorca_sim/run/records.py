"""One game's outcome as rows of the tables in `menorca_sim.run.outcomes`.

The rows are built from the game's plan (ids, cell, seed, policy specs) and the
engine's `game.summary()`, whose per-seat entries the engine adapter has completed
with the seated policy's `policy` name and `auction_strategy`, and to which it has
added the game's `rounds` rows (`menorca_sim.run.trajectory`) and, when the run records
them, its `states` rows (`menorca_sim.run.states`)."""
from __future__ import annotations

from typing import Any, Mapping

import pyarrow as pa

from menorca_sim.run.experiment import GameSpec
from menorca_sim.run.outcomes import ALL_TABLES, TABLES

Rows = dict[str, list[dict[str, Any]]]


def empty_rows(names: tuple[str, ...] = tuple(TABLES)) -> Rows:
    """Rows of the tables `names` (the six by default; `outcomes.table_names`)."""
    return {name: [] for name in names}


_COLUMNS = {name: schema.names for name, schema in ALL_TABLES.items()}  # `Schema.names` builds a list per call


def _row(table: str, known: Mapping[str, Any], source: Mapping[str, Any]) -> dict[str, Any]:
    """A row of `table`: each column from `known` if there, else from `source` (a
    KeyError names a column the summary lacks)."""
    return {c: known[c] if c in known else source[c] for c in _COLUMNS[table]}


def add_game(rows: Rows, game: GameSpec, summary: Mapping[str, Any], duration_s: float) -> None:
    """Append one finished game's rows; raise (appending nothing) if the summary does
    not fit the plan or the schema."""
    if summary["seed"] != game.seed or summary["players"] != game.players or len(summary["seats"]) != game.players:
        raise ValueError(f"summary of game {game.game_id} does not match its plan "
                         f"(seed {summary['seed']} vs {game.seed}, {len(summary['seats'])} seats vs {game.players})")
    ids = {"game_id": game.game_id, "variant": game.variant}
    seats = summary["seats"]
    new = {
        "games": [_row("games", {**ids, "population": game.population, "cell": game.cell,
                                 "game_index": game.game_index, "policies": list(game.policies),
                                 "duration_s": duration_s}, summary)],
        "players": [_row("players", {**ids, "seat": i}, s) for i, s in enumerate(seats)],
        "companies": [_row("companies", ids, c) for c in summary["companies"]],
        "auctions": [_row("auctions", {**ids, "buyer_policy": seats[a["buyer_seat"]]["policy"]}, a)
                     for a in summary["auctions"]],
        "rounds": [_row("rounds", ids, r) for r in summary["rounds"]],
    }
    if "states" in rows:
        new["states"] = [_row("states", ids, r) for r in summary["states"]]
    for name, table_rows in new.items():
        rows[name].extend(table_rows)


def add_error(rows: Rows, game: GameSpec, error: str, traceback: str) -> None:
    rows["errors"].append(_row("errors", {"game_id": game.game_id, "variant": game.variant, "cell": game.cell,
                                          "seed": game.seed, "policies": list(game.policies),
                                          "error": error, "traceback": traceback}, {}))


def to_tables(rows: Rows) -> dict[str, pa.Table]:
    return {name: pa.Table.from_pylist(table_rows, schema=ALL_TABLES[name]) for name, table_rows in rows.items()}
