"""Synthetic experiment datasets with the exact outcome schema (menorca_sim/run/outcomes.py),
for testing the analysis before real games exist. Effects are planted on purpose:
strategy strengths, seat advantages, legacy advantages and variant effects on game
length. Everything else (names of companies, legacies, minors, phases, par values)
comes from the default ruleset, so the tables look like a real run's.

Tests receive a dataset folder and never look inside this module's choices, so a
folder written by `menorca-sim run` can replace a synthetic one (see `DatasetBuilder`)."""
from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from menorca_sim.rules import load_ruleset
from menorca_sim.run.outcomes import TABLES

DatasetBuilder = Callable[[Path], Path]
"""Writes a dataset under the given folder and returns the dataset folder (DATA_DIR)."""


@dataclass
class Spec:
    experiment: str = "synthetic"
    games: int = 300  # per variant, spread evenly over the cells
    player_counts: tuple[int, ...] = (3,)
    names: tuple[str, ...] = ("alpha", "beta", "gamma")  # rotated over the seats
    strength: dict[str, float] = field(default_factory=dict)  # Plackett-Luce weight per name (default 1)
    seat_strength: dict[int, tuple[float, ...]] = field(default_factory=dict)  # per player count
    legacy_strength: dict[str, float] = field(default_factory=dict)  # weight factor of a legacy's owner
    variants: dict[str, float] = field(default_factory=lambda: {"": 0.0})  # name -> extra ORs
    tie_rate: float = 0.05  # share of games with a shared win
    cap_rate: float = 0.0  # share of games ending at the safety cap
    errors: int = 0  # failed games recorded in the errors table
    parts: int = 2
    seed: int = 0
    repeats: int = 1  # each distinct game played this many times identically (same fingerprint)
    legacy_buyer: dict[str, int] = field(default_factory=dict)  # legacy -> the seat (0-based) that buys it when in play
    # player populations: name -> seat strengths per player count (default: seat_strength)
    populations: dict[str, dict[int, tuple[float, ...]] | None] = field(default_factory=lambda: {"": None})
    lineups: dict[str, tuple[str, ...]] = field(default_factory=dict)  # population -> its names (default: names)
    legacy_buyer_name: dict[str, str] = field(default_factory=dict)  # legacy -> the name that buys it at its table
    never_started: dict[str, tuple[str, ...]] = field(default_factory=dict)  # population -> companies it never starts


def write_dataset(root: Path, spec: Spec) -> Path:
    """Write `root/data/{table}/part-*.parquet` and `root/data/manifest.json`; return root/data."""
    ruleset = load_ruleset()
    rng = np.random.default_rng(spec.seed)
    data = root / "data"
    draws = list(itertools.combinations(ruleset.minors, ruleset.setup.minors_in_play))
    cells = [(n, d) for n in spec.player_counts for d in draws]
    distinct = -(-spec.games // spec.repeats)
    per_cell = -(-distinct // len(cells))
    rows: dict[str, list[dict]] = {t: [] for t in TABLES}
    games = [(c, i) for i in range(per_cell) for c in cells][:distinct]
    for (p, (population, seats)), (number, ((players, minors), index)) in itertools.product(
            enumerate(spec.populations.items()), enumerate(games)):
        pop_spec = replace(spec, seat_strength=spec.seat_strength if seats is None else seats,
                           names=spec.lineups.get(population, spec.names))
        base = _play(ruleset, pop_spec, rng, players, minors, index, spec.never_started.get(population, ()))
        base["game"]["population"] = population
        for v, (variant, extra_ors) in enumerate(spec.variants.items()):
            cell = f"p{players}|{'+'.join(minors)}"
            ors = max(1, base["game"]["ors"] + int(round(extra_ors)) + int(rng.integers(-1, 2)))
            for copy in range(spec.repeats):
                number_played = number * spec.repeats + copy
                game_id = v * 10**6 + p * 10**5 + number_played
                rows["games"].append(base["game"] | dict(
                    game_id=game_id, variant=variant, cell=cell, game_index=index * spec.repeats + copy,
                    seed=1000 + number_played, ors=ors, fingerprint=f"{variant}:{population}:{number}"))
                for table in ("players", "companies", "auctions"):
                    rows[table] += [r | dict(game_id=game_id, variant=variant) for r in base[table]]
    for e in range(spec.errors):
        rows["errors"].append(dict(game_id=10**7 + e, variant="", cell="p3|x", seed=e,
                                   policies=list(spec.names), error="RuntimeError: synthetic",
                                   traceback="Traceback: synthetic"))
    for table, schema in TABLES.items():
        folder = data / table
        folder.mkdir(parents=True, exist_ok=True)
        chunks = np.array_split(np.arange(len(rows[table])), spec.parts) if rows[table] else [[]]
        for k, chunk in enumerate(chunks):
            part = pa.Table.from_pylist([rows[table][i] for i in chunk], schema=schema)
            pq.write_table(part, folder / f"part-{k:05d}.parquet")
    # Shaped like the runner's manifest: the plan under "experiment", variants in file order.
    manifest = {"experiment": {"name": spec.experiment, "ruleset": "default", "seed": spec.seed,
                               "variants": [{"name": v, "ruleset_sha256": ruleset.sha256} for v in spec.variants],
                               "populations": [{"name": p} for p in spec.populations]},
                "status": "complete", "counts": {t: len(r) for t, r in rows.items()},
                "runs": [{"versions": {"menorca-sim": "synthetic"}}]}
    (data / "manifest.json").write_text(json.dumps(manifest, indent=2))
    return data


def _play(ruleset, spec: Spec, rng: np.random.Generator, players: int,
          minors: tuple[str, ...], index: int, dead: tuple[str, ...] = ()) -> dict:
    """One synthetic game (the `index`-th of its cell): outcome rows without game_id/variant.
    The names rotate over the seats within each cell, so no name sticks to a seat."""
    names = [spec.names[(index + s) % len(spec.names)] for s in range(players)]
    legacies = list(rng.choice(list(ruleset.legacies), size=players, replace=False))
    owners = rng.permutation(players)  # owners[k] bought legacies[k]
    for k, legacy in enumerate(legacies):  # a planted habit: this seat (or this name) buys this legacy
        buyer = spec.legacy_buyer.get(legacy)
        if legacy in spec.legacy_buyer_name and spec.legacy_buyer_name[legacy] in names:
            buyer = names.index(spec.legacy_buyer_name[legacy])
        if buyer is not None:
            j = int(np.flatnonzero(owners == buyer)[0])
            owners[k], owners[j] = owners[j], owners[k]
    seat_legacy = {int(owners[k]): legacies[k] for k in range(players)}
    seat_factor = spec.seat_strength.get(players, (1.0,) * players)
    weight = np.array([spec.strength.get(names[s], 1.0) * seat_factor[s]
                       * spec.legacy_strength.get(seat_legacy[s], 1.0) for s in range(players)])
    # Plackett-Luce finishing order via the Gumbel trick.
    order = np.argsort(-(np.log(weight) + rng.gumbel(size=players)))
    rank = np.empty(players, dtype=int)
    rank[order] = np.arange(1, players + 1)
    if rng.random() < spec.tie_rate:
        rank[order[1]] = 1  # the first two share the win
    winners = [s for s in range(players) if rank[s] == 1]
    wealth = {s: int(2000 - 150 * rank[s] + rng.integers(0, 100)) for s in range(players)}
    for s in winners:
        wealth[s] = wealth[winners[0]]

    phase = ruleset.phases[int(rng.integers(2, len(ruleset.phases)))]
    srs = int(rng.integers(6, 12))
    end_reason = "cap" if rng.random() < spec.cap_rate else str(rng.choice(["bank", "conquest", "bankruptcy"],
                                                                            p=[0.6, 0.3, 0.1]))
    game = dict(players=players, minors=list(minors), legacies=legacies,
                events=[ruleset.epochs[e].events[0] for e in range(phase.epoch)],
                policies=[f"heuristic+{n}" for n in names], srs=srs, ors=2 * srs + int(rng.integers(0, 4)),
                phase=phase.name, epoch=phase.epoch, end_reason=end_reason,
                bank=int(rng.integers(-200, 500)), winners=winners, actions=int(rng.integers(500, 900)),
                duration_s=float(rng.uniform(0.1, 0.5)))

    auctions, seats = [], []
    for k, legacy_id in enumerate(legacies):
        legacy = ruleset.legacies[legacy_id]
        drops = int(rng.integers(1, 5)) if rng.random() < 0.4 else 0
        price = max(0, legacy.price - ruleset.auction.price_drop * drops) if drops else \
            legacy.price + ruleset.auction.reservation_step * int(rng.integers(0, 3))
        auctions.append(dict(legacy=legacy_id, price=price, min_price=legacy.price, drops=drops,
                             buyer_seat=int(owners[k]), buyer_policy=f"heuristic+{names[owners[k]]}",
                             reservations=int(rng.integers(0, 3)),
                             income_earned=legacy.income * int(rng.integers(3, 9))))
    price_of = {a["buyer_seat"]: a["price"] for a in auctions}
    for s in range(players):
        cash = int(wealth[s] * 0.4)
        seats.append(dict(seat=s, policy=f"heuristic+{names[s]}", auction_strategy=names[s],
                          wealth=wealth[s], cash=cash, cert_value=wealth[s] - cash, rank=int(rank[s]),
                          win_share=1 / len(winners) if s in winners else 0.0,
                          legacies=[seat_legacy[s]], legacy_prices=[price_of[s]]))

    pars = sorted({c.value for row in ruleset.market for c in row if c is not None and c.par})
    companies = []
    for cid, company in ruleset.companies.items():
        in_play = company.kind != "minor" or cid in minors
        formed = company.formed_epoch is None or phase.epoch >= company.formed_epoch
        started = bool(in_play and formed and company.available_epoch <= phase.epoch and rng.random() < 0.8
                       and cid not in dead)
        companies.append(dict(company=cid, started=started, floated=started,
                              par=int(rng.choice(pars)) if started else None,
                              final_price=int(rng.integers(30, 200)) if started else None,
                              revenue_total=int(rng.integers(100, 1500)) if started else 0,
                              dividends_paid=int(rng.integers(0, 800)) if started else 0,
                              vehicles_bought=int(rng.integers(1, 6)) if started else 0,
                              stations=int(rng.integers(1, company.stations + 1)) if started else 0,
                              market_markers=int(rng.integers(0, company.markers + 1)) if started else 0,
                              bankrupt=False))
    return dict(game=game, players=seats, companies=companies, auctions=auctions)


def symmetric_control(root: Path) -> Path:
    """2,000 three-player games: three equally strong names, seats rotated."""
    return write_dataset(root, Spec(experiment="control", games=2000, seed=7))


def planted_weak_name(root: Path) -> Path:
    """As the control, but `gamma` plays at 60 % of the others' strength."""
    return write_dataset(root, Spec(experiment="planted", games=2000, strength={"gamma": 0.6}, seed=8))


def small_mixed(root: Path) -> Path:
    """A small two-variant dataset over 2 and 3 players, with capped games and errors."""
    return write_dataset(root, Spec(experiment="small", games=120, player_counts=(2, 3),
                                    variants={"bonus_10": 0.0, "bonus_20": 2.0},
                                    cap_rate=0.05, errors=2, seed=3))
