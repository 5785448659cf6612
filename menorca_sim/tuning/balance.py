"""`menorca-sim balance`: a price list from play, by stochastic approximation.

Each iteration measures, on the same seeds (common random numbers: an iteration's
differences come from the prices, not from new setups), every key's value under the
current prices: a legacy's by random assignment around its current list price, a seat's
extra cash by a sweep around its current one (analysis/value_tables.py; each a monotone
fit with a bootstrap interval over games, on all of them: the solver tests no
reproduction, so it reads no halves). A key whose current price lies within every
interval (each population and player count it holds for; a finite one) meets its target
and does not move, so the list changes as few keys as the games ask; the others move toward the mean
of their values by the Robbins-Monro step 1/(k+1) (the first jumps to the value, later
ones average the noise of successive measurements), rounded to the rules' 5 R. A value
beyond the measured range moves its key to the range's edge; a curve the games do not
order (not monotone, or flat) leaves it where it is, and the summary says so.

Why not CMA-ES (menorca_sim/tuning/search.py): the target is a fixed point, each price
equal to its own measured value, not the optimum of one score, and each key has its own
measurement; a step per key toward it needs no population of candidates.

The state (DIR/state.json) is written after every iteration; an iteration's games are
a dataset (DIR/iter_K/data) that `run --resume` finishes, so a killed solve resumes where
it stopped. The end is a confirmation on fresh seeds at the file's confirming
populations (two strengths): per key, population and player count, whether the price
lies within its value's interval."""
from __future__ import annotations

import hashlib
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import numpy as np
import polars as pl

from menorca_sim.analysis import value_tables
from menorca_sim.analysis.values import ABOVE, BELOW, IN_RANGE
from menorca_sim.run.experiment import toml_value
from menorca_sim.tuning.balance_spec import BalanceError, BalanceSpec, PriceKey
from menorca_sim.tuning.preset import write_atomically

STEP = 5  # prices and cash move in the rules' own steps
STATE = "state.json"


@dataclass(frozen=True)
class Measured:
    """One key's values in one measurement, one row per population and player count."""
    key: PriceKey
    price: int
    rows: tuple[dict, ...]  # value_tables rows (value, low, high, status, population, players)

    def met(self) -> bool:
        return bool(self.rows) and all(_holds(r, self.price) for r in self.rows)

    def aim(self, spread: int) -> float | None:
        """Where the values point: the mean of the estimates (a value beyond the measured
        range counts as the range's edge); None when no row orders the prices."""
        edge = {ABOVE: self.price + 2 * spread, BELOW: self.price - 2 * spread}
        aims = [r["value"] if r["status"] == IN_RANGE else edge[r["status"]]
                for r in self.rows if r["status"] in (IN_RANGE, ABOVE, BELOW)]
        return float(np.mean(aims)) if aims else None


def _holds(row: dict, price: int) -> bool:
    """The row's value meets its target at `price`: its interval holds the price; an
    unbounded interval decides nothing (its games are too few), so it does not."""
    return row["status"] == IN_RANGE and -math.inf < row["low"] <= price <= row["high"] < math.inf


def measurement_toml(spec: BalanceSpec, prices: dict[str, int], seed: int, populations: dict[str, str] | None,
                     name: str) -> str:
    """The experiment that measures every key at `prices`: per legacy, its "out" arm and
    its "hold" arm at the current price and +-spread, +-2 spread; per seat, a sweep of its
    extra cash over the same offsets. `populations` replaces the file's (the confirmation)."""
    h = {**spec.header, "name": name, "seed": seed, "ruleset": spec.ruleset_path or "default"}
    pops = spec.populations if populations is None else {p: {"seats": s} for p, s in populations.items()}
    lines = [f"{k} = {toml_value(v)}" for k, v in h.items()]
    for pop, body in pops.items():
        lines += ["", f"[populations.{toml_value(pop)}]"] + [f"{k} = {toml_value(v)}" for k, v in body.items()]
    lines += ["", "[overrides]"] + [f"{toml_value(k)} = {toml_value(v)}" for k, v in {**spec.overrides, **prices}.items()]
    offsets = [-2 * spec.spread, -spec.spread, 0, spec.spread, 2 * spec.spread]
    for key in spec.keys:
        grid = [prices[key.key] + d for d in offsets]
        if key.kind == "legacy":
            lines += ["", f"[variants.{key.legacy}_out]", f'"setup.assigned_legacy" = {toml_value(key.legacy)}',
                      '"setup.assigned_arm" = "out"',
                      "", f"[sweeps.{key.legacy}]", f'"setup.assigned_price" = {{values = {grid}}}',
                      f'"setup.assigned_legacy" = {toml_value(key.legacy)}']
        else:
            lines += ["", f"[sweeps.{toml_value(key.key.replace('.', '_'))}]", f"{toml_value(key.key)} = {{values = {grid}}}"]
    return "\n".join(lines) + "\n"


def read_values(spec: BalanceSpec, prices: dict[str, int], data: Path) -> list[Measured]:
    """Each key's values in the dataset `data` of a measurement."""
    from menorca_sim.analysis import sweeps
    from menorca_sim.analysis.dataset import Dataset

    ds = Dataset(data)
    points = sweeps.sweep_points(ds)
    rng = np.random.default_rng(0)
    found = pl.concat([value_tables.seat_values(ds, points, rng, split=False),
                       value_tables.legacy_values(ds, points, rng, split=False)])
    out = []
    for key in spec.keys:
        mine = (found.filter(pl.col("legacy") == key.legacy) if key.kind == "legacy"
                else found.filter((pl.col("key") == key.key) & (pl.col("players") == key.players)))
        out.append(Measured(key, prices[key.key], tuple(mine.to_dicts())))
    return out


def step(measured: list[Measured], iteration: int, spread: int) -> dict[str, int]:
    """The next prices: a missed target's key moves toward its aim by 1/(k+1)."""
    out = {}
    for m in measured:
        aim = m.aim(spread)
        if m.met() or aim is None:
            out[m.key.key] = m.price
        else:
            moved = m.price + (aim - m.price) / (iteration + 1)
            out[m.key.key] = _bounded(m.key, STEP * round(moved / STEP))
    return out


def solve(spec: BalanceSpec, out: Path, play: Callable[[str, Path], None],
          progress: Callable[[str], None] = lambda _: None) -> dict[str, Any]:
    """Iterate to settled prices, then confirm them; `play(toml_text, folder)` plays a
    measurement into folder/data (resuming a partial one). Returns the state."""
    out.mkdir(parents=True, exist_ok=True)
    state = _load_state(out, spec)
    prices = state["iterations"][-1]["next"] if state["iterations"] else {k.key: k.original for k in spec.keys}
    while not state["settled"] and len(state["iterations"]) < spec.iterations:
        k = len(state["iterations"])
        progress(f"iteration {k + 1} of at most {spec.iterations}")
        measured = _measure(spec, out / f"iter_{k}", prices, int(spec.header["seed"]), None, play)
        nxt = step(measured, k, spec.spread)
        state["iterations"].append({"prices": prices, "values": [_record(m) for m in measured], "next": nxt})
        state["settled"] = nxt == prices
        prices = nxt
        _save_state(out, state)
    if state["confirmation"] is None:
        progress("confirmation on fresh seeds")
        measured = _measure(spec, out / "confirm", prices, spec.confirm_seed, spec.confirm, play)
        state["confirmation"] = {"prices": prices, "values": [_record(m) for m in measured]}
        _save_state(out, state)
    return state


def _measure(spec: BalanceSpec, folder: Path, prices: dict[str, int], seed: int, populations: dict[str, str] | None,
             play: Callable[[str, Path], None]) -> list[Measured]:
    folder.mkdir(parents=True, exist_ok=True)
    play(measurement_toml(spec, prices, seed, populations, f"{spec.header.get('name', 'balance')}_{folder.name}"),
         folder)
    return read_values(spec, prices, folder / "data")


def _record(m: Measured) -> dict:
    """The state's record of a measured key (JSON: an unbounded end is None)."""
    rows = [{**{k: (None if isinstance(v, float) and not math.isfinite(v) else v) for k, v in r.items()
                if k in ("population", "players", "value", "low", "high", "status", "reproduced", "games")},
             "met": _holds(r, m.price)} for r in m.rows]
    return {"key": m.key.key, "price": m.price, "met": m.met(), "rows": rows}


def _bounded(key: PriceKey, price: int) -> int:
    """A legacy's list price is at least 0 (a seat's extra cash may be below 0: the rules'
    check refuses a seat left with less than nothing)."""
    return max(price, 0) if key.kind == "legacy" else price


def _fingerprint(spec: BalanceSpec) -> str:
    """What a state file must have been solving to be resumed: the file's content."""
    return hashlib.sha256(spec.file.read_bytes()).hexdigest()


def _load_state(out: Path, spec: BalanceSpec) -> dict[str, Any]:
    path = out / STATE
    fresh = {"balance": _fingerprint(spec), "iterations": [], "settled": False, "confirmation": None}
    if not path.exists():
        return fresh
    try:
        state = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise BalanceError(f"{path}: not a state this solver wrote ({exc}); remove it to start afresh") from None
    if state.get("balance") != fresh["balance"]:
        raise BalanceError(f"{path}: solves another balance file (its content changed); use another --out or "
                           f"remove it to start afresh")
    return state


def _save_state(out: Path, state: dict[str, Any]) -> None:
    write_atomically(out / STATE, json.dumps(state, indent=1) + "\n")  # a kill never leaves half a state
