"""Experiment files: a study as data (TOML), validated into the plan of its games.

An experiment is cells (player count x minor draw) times variants (named rule
overrides) times player populations (named policy line-ups), `games` games per cell,
variant and population. Each game is a pure function of the plan: its seed comes from
(root seed, cell, game index), the same in every variant and population, and its
seating from the population's policy list and `seating`. Every problem is an ExperimentError with
one line: `file: key: problem`.

    name = "balance"
    ruleset = "default"                 # or a ruleset TOML path, relative to this file
    seed = 20260101
    games = 600                         # per cell and variant
    players = [2, 3]
    minors = "all"                      # each draw; or [["Ramaders", "Artesans"]]; or "random"
    seating = "rotate"                  # every arrangement equally often; or "random"
    [policies]
    seats = ["heuristic", "random_legal", "random_legal"]  # or {"2" = [..], "3" = [..]},
                                        # or one name for every seat; or pool = [..]
    # or, instead of [policies], several populations on the same seeds, so that a
    # finding can be checked against other players:
    # [populations.warm]
    # seats = "heuristic(temperature=0.1)"
    # [populations.mixed]
    # pool = ["heuristic_aggressive", "heuristic_cautious", "heuristic"]
    [sweep]                             # optional: a variant per value (two keys: per pair),
    "legacies.L9.price" = {from = 100, to = 180, step = 20}   # or {values = [100, 150]};
    "setup.legacies" = "fixed"          # a plain value: set for every point
    # or several named ones: [sweeps.L9] ..., [sweeps.L8] ...
    [overrides]                         # dotted ruleset keys, for every variant (or, at the
                                        # top, overrides = "FILE.toml": that file's [overrides])
    [variants.bonus20]                  # optional: the same games with these overrides
    "markers.market_bonus" = 20
    [variants.mine]                     # a variant may play another rules file (its overrides
    ruleset = "my_rules.toml"           # apply to that file): `menorca-sim compare` is two of these
"""
from __future__ import annotations

import difflib
import itertools
import json
import math
import tomllib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

import numpy as np

from menorca_sim.rules import Ruleset, RulesetError, load_ruleset
from menorca_sim.run.manifest_check import MAX_GAMES, name_problem
from menorca_sim.rules.reader import Table
from menorca_sim.seeding import CellKey, game_seed, seating_rng

KEYS = {"name", "description", "ruleset", "overrides", "players", "minors", "games", "seed",
        "seating", "policies", "populations", "variants", "sweep", "sweeps", "plan", "record_states",
        "record_leaves"}
SEATINGS = ("rotate", "random")
LEAVES = ("deep", "principal")  # which states of the search seats' trees become rows (run/states.py)
MAX_POINTS = 1000  # sweep points in an experiment: each is a variant, its ruleset loaded and its games played


class ExperimentError(ValueError):
    def __init__(self, file: str, key: str, problem: str) -> None:
        self.file, self.key, self.problem = file, key, problem
        super().__init__(f"{file}: {key}: {problem}" if key else f"{file}: {problem}")


@dataclass(frozen=True)
class Cell:
    players: int
    minors: tuple[str, ...] | None  # None: the engine draws them from the game's seed
    seed_key: CellKey  # (players, 1 + the draw's index among all draws; 0 when drawn by the engine)

    @property
    def name(self) -> str:
        return f"p{self.players}|{'+'.join(self.minors) if self.minors else 'random'}"


@dataclass(frozen=True)
class Variant:
    index: int
    name: str  # "" when the experiment has no variants
    overrides: dict[str, Any]  # the experiment's overrides, then the variant's
    ruleset_sha256: str
    ruleset_path: str | None = None  # the rules file its overrides apply to (None: the default ruleset)


@dataclass(frozen=True)
class Sweep:
    name: str  # "" for [sweep], else its [sweeps.NAME]
    keys: tuple[str, ...]  # the swept ruleset keys (one or two)
    points: tuple[str, ...]  # the names of its variants, one per value (or pair of values)


@dataclass(frozen=True)
class Population:
    index: int
    name: str  # "" when the experiment has one ([policies])
    arrangements: dict[int, tuple[tuple[str, ...], ...]]  # player count -> seatings to rotate or draw


@dataclass(frozen=True)
class GameSpec:
    """Everything a worker needs to play one game of the plan."""
    game_id: int
    variant: str
    cell: str
    game_index: int
    seed: int
    players: int
    minors: tuple[str, ...] | None
    policies: tuple[str, ...]  # policy spec per seat
    population: str = ""
    states: bool = False  # record the `states` table's rows (Experiment.record_states)
    leaves: str | None = None  # and leaves of the search seats' trees among them (Experiment.record_leaves)


@dataclass(frozen=True)
class Experiment:
    name: str
    file: str
    ruleset_path: str | None  # None: the default ruleset
    seed: int
    games: int  # per cell and variant
    seating: str
    cells: tuple[Cell, ...]
    variants: tuple[Variant, ...]
    populations: tuple[Population, ...]
    description: str = ""  # what the study asks, for the report's header (not part of the plan)
    sweeps: tuple[Sweep, ...] = ()  # variants made by [sweep] / [sweeps.NAME]
    target: dict[str, float] | None = None  # [plan]: effect, power, alpha, tests (the run prints the games needed)
    market_top: int | None = None  # the ruleset's highest market value: the report reads it from the manifest
    record_states: bool = False  # also write the `states` table (the learned value's training data)
    record_leaves: str | None = None  # with states of the `mcts` seats' trees among its rows: LEAVES (run/states.py)

    @property
    def total_games(self) -> int:
        return len(self.variants) * len(self.populations) * len(self.cells) * self.games

    def only_populations(self, names: Iterable[str]) -> Experiment:
        """The plan with only the populations `names` (an ExperimentError names an unknown
        one): each game stays what it is in the whole plan, its seed and seating being
        the cell's and game index's."""
        names = list(dict.fromkeys(names))
        known = [p.name for p in self.populations]
        for name in names:
            if name not in known:
                raise ExperimentError(self.file, "populations",
                                      f"no population {name!r} (the file has: {', '.join(known) or 'one, unnamed'})")
        kept = [p for p in self.populations if p.name in names]
        return replace(self, populations=tuple(replace(p, index=i) for i, p in enumerate(kept)))

    def game(self, game_id: int) -> GameSpec:
        """Game ids run variant-major, then population, then cell, then game index."""
        if not 0 <= game_id < self.total_games:
            raise IndexError(game_id)
        block, game_index = divmod(game_id, self.games)
        block, cell = divmod(block, len(self.cells))
        variant, population = divmod(block, len(self.populations))
        variant, population, cell = self.variants[variant], self.populations[population], self.cells[cell]
        options = population.arrangements[cell.players]
        if self.seating == "rotate":
            seats = options[game_index % len(options)]
        else:
            seats = options[int(seating_rng(self.seed, cell.seed_key, game_index).integers(len(options)))]
        return GameSpec(game_id=game_id, variant=variant.name, cell=cell.name, game_index=game_index,
                        seed=game_seed(self.seed, cell.seed_key, game_index), players=cell.players,
                        minors=cell.minors, policies=seats, population=population.name, states=self.record_states,
                        leaves=self.record_leaves)

    def games_in(self, start: int, stop: int) -> Iterator[GameSpec]:
        return (self.game(i) for i in range(start, stop))

    def plan(self) -> dict[str, Any]:
        """A JSON-able description that fixes every game (compared on resume)."""
        return {
            "name": self.name, "ruleset": _file_name(self.ruleset_path),
            "seed": self.seed,
            "games": self.games, "seating": self.seating,
            "cells": [c.name for c in self.cells],
            "variants": [{"name": v.name, "overrides": v.overrides, "ruleset_sha256": v.ruleset_sha256,
                          **({"ruleset": _file_name(v.ruleset_path)} if v.ruleset_path != self.ruleset_path else {})}
                         for v in self.variants],
            "populations": [{"name": pop.name, "arrangements": {str(p): [list(a) for a in opts]
                                                                for p, opts in pop.arrangements.items()}}
                            for pop in self.populations],
            "sweeps": [{"name": sw.name, "keys": list(sw.keys), "points": list(sw.points)} for sw in self.sweeps],
            # only when on: a default plan (and a dataset made before the option) stays as it was
            **({"record_states": True} if self.record_states else {}),
            **({"record_leaves": self.record_leaves} if self.record_leaves else {}),
        }


def _file_name(ruleset_path: str | None) -> str:
    return Path(ruleset_path).name if ruleset_path else "default"


PolicyCheck = Callable[[str, Ruleset], None]
SpecCheck = Callable[[str], None]  # a PolicyCheck with the experiment's ruleset given


def load_experiment(path: str | Path, games: int | None = None,
                    check_policy: PolicyCheck | None = None) -> Experiment:
    """Read and validate an experiment file; `games` replaces its games per cell.

    `check_policy(spec, ruleset)` raises on a policy spec that cannot be built or names
    what the ruleset lacks (see `check_policy_spec`); without it policy names are taken
    as they are."""
    path = Path(path)
    file = path.name
    try:
        data = tomllib.loads(path.read_bytes().decode("utf-8"))
    except OSError as exc:
        raise ExperimentError(file, "", f"cannot read file ({exc.strerror or exc})") from None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ExperimentError(file, "", f"not valid TOML ({exc})") from None
    try:
        return _parse(Table(file, data), path.parent, games, check_policy)
    except RulesetError as exc:  # the typed Table getters report this way
        raise ExperimentError(exc.file, exc.key, exc.problem) from None


def toml_value(value: Any) -> str:
    """A TOML value: JSON's strings, numbers, booleans and arrays are TOML's; a table is
    written inline."""
    if isinstance(value, dict):
        return "{" + ", ".join(f"{toml_value(str(k))} = {toml_value(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def check_policy_spec(spec: str, ruleset: Ruleset | None = None) -> None:
    """Build the policy once, as the real engine adapter will (raises if it cannot). An
    unknown name is told with the nearest known one: a typo is the usual cause. With
    `ruleset`, the companies and legacies the policy names must be the ruleset's."""
    from policies import PolicyError, auction_names, make_policy, policy_names
    from policies.base import check_names
    from policies.spec import split_spec

    style, auction = split_spec(spec)
    for call, what, known in ((style, "policy", policy_names()), (auction, "auction strategy", auction_names())):
        if call is not None and call.name not in known and not (call is style and ":" in call.name):
            where = "" if spec.strip() == call.name else f"policy spec {spec!r}: "
            near = difflib.get_close_matches(call.name, known, n=1)
            hint = f"; did you mean {near[0]!r}?" if near else ""
            raise PolicyError(f"{where}unknown {what} {call.name!r}{hint} (known: {', '.join(known)})")
    policy = make_policy(spec, 0, np.random.default_rng(0))
    if ruleset is not None:
        try:
            check_names(policy, ruleset)
        except PolicyError as exc:
            raise PolicyError(f"policy spec {spec!r}: {exc}") from None


def _parse(t: Table, folder: Path, games_override: int | None, check_policy: PolicyCheck | None) -> Experiment:
    t.only(KEYS)
    name = t.str("name")
    problem = name_problem(name)
    if problem:
        raise t.fail("name", problem)
    description = t.opt_str("description") or ""
    record_states = t.bool("record_states", False)
    record_leaves = t.opt_str("record_leaves", choices=LEAVES)
    if record_leaves and not record_states:
        raise t.fail("record_leaves", "leaves are rows of the states table: set record_states = true too")
    ruleset_key = t.str("ruleset", "default")
    ruleset_path = None if ruleset_key == "default" else str((folder / ruleset_key).resolve())
    games = t.int("games", minimum=1)
    if games_override is not None:
        if games_override < 1:
            raise t.fail("games", f"--games must be a positive integer, got {games_override}")
        games = games_override
    seed = t.int("seed", minimum=0)
    seating = t.str("seating", "rotate", choices=SEATINGS)
    base = flat_overrides(t, "overrides", _overrides_table(t, folder))
    ruleset, variants, sweeps = _variants(t, ruleset_path, folder, base)
    players = _players(t, ruleset)
    for v in variants:
        if v.ruleset_path != ruleset_path:  # a variant on its own rules file must seat the same tables
            _players(t, load_ruleset(v.ruleset_path, v.overrides), f"variants.{v.name}.ruleset")
    every_draw = list(itertools.combinations(ruleset.minors, ruleset.setup.minors_in_play))
    cells = tuple(Cell(p, m, (p, _draw_number(every_draw, m)))
                  for p, m in itertools.product(players, _minor_draws(t, ruleset, every_draw)))
    check = None if check_policy is None else lambda spec: check_policy(spec, ruleset)
    populations = _populations(t, players, check)
    total = len(variants) * len(populations) * len(cells) * games
    if total > MAX_GAMES:
        raise t.fail("games", f"{games} games per cell, variant and population make {total:,} games in all; "
                              f"a dataset holds at most {MAX_GAMES:,}")
    target = _target(t.table("plan"), players) if "plan" in t.data else None
    if seating == "rotate":
        for pop in populations:
            for p in players:
                n = len(pop.arrangements[p])
                if games % n:
                    where = f" in population {pop.name}" if pop.name else ""
                    raise t.fail("games", f"{games} is not a multiple of {n}, the number of seatings of "
                                          f"{p} players{where} (seating = \"rotate\" plays each equally often)")
    return Experiment(name=name, file=t.file, ruleset_path=ruleset_path, seed=seed, games=games,
                      seating=seating, cells=cells, variants=variants, populations=populations,
                      description=description, sweeps=sweeps, target=target, record_states=record_states,
                      record_leaves=record_leaves,
                      market_top=max(c.value for row in ruleset.market for c in row if c is not None))


# [plan]'s power and alpha: the ranges `menorca-sim plan` takes
POWER = (0.5, 0.999)
ALPHA_MAX = 0.5


def _target(p: Table, players: tuple[int, ...]) -> dict[str, float]:
    """[plan]: the effect a seat test must find, at a power and level (`menorca-sim plan`)."""
    p.only({"effect", "power", "alpha", "tests"})
    effect = _finite(p, "effect")
    worst = min(players) if effect > 0 else max(players)  # where 1/p + effect first leaves (0, 1)
    if effect == 0 or not 0 < 1 / worst + effect < 1:
        raise p.fail("effect", f"expected a non-zero win-share difference (0.03 = 3 points) with 0 < 1/players + "
                               f"effect < 1 for every player count, got {effect!r}")
    power = _finite(p, "power", 0.8)
    if not POWER[0] <= power <= POWER[1]:
        raise p.fail("power", f"expected a number within [{POWER[0]}, {POWER[1]}], got {power!r}")
    alpha = _finite(p, "alpha", 0.05)
    if not 0 < alpha <= ALPHA_MAX:
        raise p.fail("alpha", f"expected a number within (0, {ALPHA_MAX}], got {alpha!r}")
    return {"effect": effect, "power": power, "alpha": alpha, "tests": float(p.int("tests", 1, minimum=1))}


def _finite(t: Table, key: str, default: Any = None) -> float:
    value = t.raw(key) if default is None else t.raw(key, default)
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
        raise t.fail(key, f"expected a finite number, got {value!r}")
    return float(value)


def _populations(t: Table, players: tuple[int, ...], check_policy: SpecCheck | None) -> tuple[Population, ...]:
    """[policies] (one population), or named [populations.NAME] tables of the same form."""
    if "policies" in t.data and "populations" in t.data:
        raise t.fail("populations", "give either [policies] or named [populations.NAME] tables, not both")
    if "populations" not in t.data:
        return (Population(0, "", _arrangements(t.table("policies"), players, check_policy)),)
    raw = t.raw("populations")
    if not isinstance(raw, dict) or not raw or not all(isinstance(v, dict) for v in raw.values()):
        raise t.fail("populations", "expected named tables, e.g. [populations.warm] seats = \"heuristic\"")
    table = t.table("populations")
    return tuple(Population(i, name, _arrangements(table.table(name), players, check_policy))
                 for i, name in enumerate(raw))


def _overrides_table(t: Table, folder: Path) -> Any:
    """[overrides], or `overrides = "FILE.toml"`: the [overrides] table of that file
    (relative to the experiment's folder), such as `menorca-sim balance`'s suggested.toml."""
    raw = t.raw("overrides", {})
    if not isinstance(raw, str):
        return raw
    try:
        data = tomllib.loads((folder / raw).read_bytes().decode("utf-8"))
    except OSError as exc:
        raise t.fail("overrides", f"cannot read {raw} ({exc.strerror or exc})") from None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise t.fail("overrides", f"{raw} is not valid TOML ({exc})") from None
    if not isinstance(data.get("overrides"), dict):
        raise t.fail("overrides", f"{raw} has no [overrides] table")
    return data["overrides"]


def flat_overrides(t: Table, key: str, value: Any) -> dict[str, Any]:
    """Nested tables become dotted keys: [overrides.markers] market_bonus = 20."""
    if not isinstance(value, dict):
        raise t.fail(key, "expected a table of ruleset keys to override")
    flat: dict[str, Any] = {}
    for k, v in value.items():
        if isinstance(v, dict):
            flat.update({f"{k}.{sub}": sv for sub, sv in flat_overrides(t, f"{key}.{k}", v).items()})
        else:
            flat[k] = v
    return flat


def _variants(t: Table, ruleset_path: str | None, folder: Path,
              base: dict[str, Any]) -> tuple[Ruleset, tuple[Variant, ...], tuple[Sweep, ...]]:
    """Load the ruleset plain, with the common overrides, then once per variant (the
    named ones, then a sweep's points), so that each problem is reported at the key
    that causes it. A named variant's `ruleset` key plays another rules file (relative
    to the experiment's folder), the common overrides and its own applied to it."""
    raw = t.raw("variants", {})
    if not isinstance(raw, dict):
        raise t.fail("variants", "expected a table of named override tables")
    _load_ruleset(t, "ruleset", ruleset_path, {})
    ruleset = _load_ruleset(t, "overrides", ruleset_path, base)
    named = [(f"variants.{name}", name, *_own_ruleset(t, f"variants.{name}", value, folder, ruleset_path))
             for name, value in raw.items()]
    sweeps, points = _sweeps(t)
    if not named and not points:
        return ruleset, (Variant(0, "", base, ruleset.sha256, ruleset_path),), ()
    variants = []
    for index, (key, name, own, path) in enumerate(named + [(*point, ruleset_path) for point in points]):
        if name in {v.name for v in variants}:
            raise t.fail(key, f"variant {name!r} is named twice")
        overrides = {**base, **own}
        variants.append(Variant(index, name, overrides, _load_ruleset(t, key, path, overrides).sha256, path))
    return ruleset, tuple(variants), sweeps


def _own_ruleset(t: Table, key: str, value: Any, folder: Path,
                 ruleset_path: str | None) -> tuple[dict[str, Any], str | None]:
    """A named variant's overrides and the rules file they apply to."""
    if not isinstance(value, dict):
        raise t.fail(key, "expected a table of ruleset keys to override")
    own = dict(value)
    path = own.pop("ruleset", None)
    if path is None:
        return flat_overrides(t, key, own), ruleset_path
    if not isinstance(path, str) or not path:
        raise t.fail(f"{key}.ruleset", f"expected a rules file's path or \"default\", got {path!r}")
    return flat_overrides(t, key, own), None if path == "default" else str((folder / path).resolve())


def _sweeps(t: Table) -> tuple[tuple[Sweep, ...], list[tuple[str, str, dict[str, Any]]]]:
    """[sweep] or [sweeps.NAME]: a variant per value of its swept key (per pair of values
    of two keys), named "key=value"; a key given a plain value is set at every point."""
    if "sweep" in t.data and "sweeps" in t.data:
        raise t.fail("sweeps", "give either [sweep] or named [sweeps.NAME] tables, not both")
    if "sweep" in t.data:
        tables = {"": ("sweep", t.raw("sweep"))}
    else:
        raw = t.raw("sweeps", {})
        if not isinstance(raw, dict) or not all(isinstance(v, dict) for v in raw.values()):
            raise t.fail("sweeps", "expected named tables, e.g. [sweeps.L9] \"legacies.L9.price\" = {from = 100, "
                                   "to = 180, step = 20}")
        if not raw and "sweeps" in t.data:
            raise t.fail("sweeps", "no sweep in it (expected named tables, e.g. [sweeps.L9])")
        tables = {name: (f"sweeps.{name}", value) for name, value in raw.items()}
    sweeps, points, swept_by = [], [], {}
    for name, (where, table) in tables.items():
        if not isinstance(table, dict):
            raise t.fail(where, "expected a table of ruleset keys")
        swept = {k: _sweep_values(t, f"{where}.{k}", v) for k, v in table.items() if isinstance(v, dict)}
        fixed = {k: v for k, v in table.items() if not isinstance(v, dict)}
        if not 1 <= len(swept) <= 2:
            raise t.fail(where, f"sweep one or two keys (a {{from, to, step}} or {{values}} table each), "
                                f"got {len(swept)}")
        for key in swept:  # in two tables that set the same other keys alike, points would repeat games
            alike = (key, repr(sorted(fixed.items())))
            if alike in swept_by:
                raise t.fail(f"{where}.{key}", f"already swept by {swept_by[alike]} with the same other keys: "
                                               f"sweep a key in one table")
            swept_by[alike] = where
        grid = math.prod(len(v) for v in swept.values())
        if len(points) + grid > MAX_POINTS:
            raise t.fail(where, f"{len(points) + grid:,} sweep points in all; at most {MAX_POINTS:,} (each is a "
                                f"variant that plays every game)")
        names = []
        for values in itertools.product(*swept.values()):
            at = dict(zip(swept, values))
            label = ", ".join(f"{k}={v}" for k, v in at.items())
            names.append(f"{name}: {label}" if name else label)
            points.append((where, names[-1], {**fixed, **at}))
        sweeps.append(Sweep(name, tuple(swept), tuple(names)))
    return tuple(sweeps), points


def _sweep_values(t: Table, key: str, spec: dict) -> list[Any]:
    """{values = [...]} or {from, to, step} (to included when a step lands on it)."""
    if set(spec) == {"values"}:
        values = spec["values"]
        if not isinstance(values, list) or not values:
            raise t.fail(key, "values must be a non-empty list")
        return values
    if set(spec) != {"from", "to", "step"}:
        raise t.fail(key, "expected {from, to, step} or {values = [...]}")
    start, stop, step = spec["from"], spec["to"], spec["step"]
    if not all(isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)
               for x in (start, stop, step)) or step <= 0 or stop < start:
        raise t.fail(key, f"expected finite numbers with from <= to and step > 0, got {spec}")
    steps = (stop - start) / step
    if not steps < MAX_POINTS:  # also an overflow to inf
        raise t.fail(key, f"{steps + 1:,.0f} points; a sweep has at most {MAX_POINTS:,} (a larger step makes fewer)")
    count = int(steps + 1e-9) + 1
    values = [start + i * step for i in range(count)]
    whole = all(isinstance(x, int) for x in (start, stop, step))
    return values if whole else [round(v, 10) for v in values]


def _load_ruleset(t: Table, key: str, path: str | None, overrides: dict[str, Any]) -> Ruleset:
    try:
        return load_ruleset(path, overrides)
    except RulesetError as exc:
        raise t.fail(key, str(exc)) from None


def _players(t: Table, ruleset: Ruleset, where: str = "players") -> tuple[int, ...]:
    players = t.int_list("players", minimum=1)
    if not players:
        raise t.fail("players", "expected at least one player count")
    if len(set(players)) != len(players):
        raise t.fail("players", f"duplicate player count in {list(players)}")
    for p in players:
        if p not in ruleset.player_counts:
            raise t.fail(where, f"the ruleset has no {p}-player setup "
                                    f"(it has {', '.join(map(str, sorted(ruleset.player_counts)))})")
    return players


def _draw_number(every_draw: list[tuple[str, ...]], minors: tuple[str, ...] | None) -> int:
    return 0 if minors is None else 1 + every_draw.index(minors)


def _minor_draws(t: Table, ruleset: Ruleset, every_draw: list[tuple[str, ...]]) -> list[tuple[str, ...] | None]:
    """The draws, each with its minors in ruleset order (one name per draw)."""
    k = ruleset.setup.minors_in_play
    value = t.raw("minors", "all")
    if value == "all":
        return list(every_draw)
    if value == "random":
        return [None]
    if not isinstance(value, list) or not value or not all(isinstance(d, list) for d in value):
        raise t.fail("minors", f"expected \"all\", \"random\" or a list of draws like "
                               f"[[\"{ruleset.minors[0]}\", \"{ruleset.minors[1]}\"]], got {value!r}")
    draws = []
    for i, draw in enumerate(value):
        key = f"minors[{i}]"
        if len(draw) != k or len(set(draw)) != k:
            raise t.fail(key, f"a draw is {k} different minors, got {draw!r}")
        for m in draw:
            if m not in ruleset.minors:
                raise t.fail(key, f"unknown minor {m!r} (the ruleset has {', '.join(ruleset.minors)})")
        canonical = next(d for d in every_draw if set(d) == set(draw))
        if canonical in draws:
            raise t.fail(key, f"draw {draw!r} given twice")
        draws.append(canonical)
    return draws


def _arrangements(t: Table, players: tuple[int, ...], check_policy: SpecCheck | None) -> dict[int, tuple[tuple[str, ...], ...]]:
    """Seatings per player count: the distinct permutations of a seat list, or the
    ordered choices of distinct pool entries."""
    t.only({"seats", "pool"})
    if ("seats" in t.data) == ("pool" in t.data):
        raise ExperimentError(t.file, t.path, "give exactly one of seats (a policy per seat) or pool (policies to seat from)")
    if "pool" in t.data:
        pool = _specs(t, "pool", t.raw("pool"), check_policy)
        if len(pool) < max(players):
            raise t.fail("pool", f"{len(pool)} policies cannot fill {max(players)} seats with different ones")
        return {p: tuple(itertools.permutations(pool, p)) for p in players}
    seats = t.raw("seats")
    if isinstance(seats, str):
        spec = _specs(t, "seats", [seats], check_policy)[0]
        return {p: ((spec,) * p,) for p in players}
    if isinstance(seats, list):
        lineup = {p: (seats, "seats") for p in players}
    elif isinstance(seats, dict):
        for key in seats:
            if key not in {str(p) for p in players}:
                raise t.fail(f"seats.{key}", f"not a player count of this experiment ({', '.join(map(str, players))})")
        missing = [p for p in players if str(p) not in seats]
        if missing:
            raise t.fail("seats", f"no seat list for {missing[0]} players")
        lineup = {p: (seats[str(p)], f"seats.{p}") for p in players}
    else:
        raise t.fail("seats", "expected a policy name, a list with one per seat, or a table of lists by player count")
    result = {}
    for p, (value, key) in lineup.items():
        specs = _specs(t, key, value, check_policy)
        if len(specs) != p:
            raise t.fail(key, f"{len(specs)} policies for {p} seats")
        result[p] = tuple(dict.fromkeys(itertools.permutations(specs)))  # distinct, identity first
    return result


def _specs(t: Table, key: str, value: Any, check_policy: SpecCheck | None) -> tuple[str, ...]:
    if not isinstance(value, list) or not value or not all(isinstance(v, str) and v for v in value):
        raise t.fail(key, f"expected a non-empty list of policy names, got {value!r}")
    if check_policy is not None:
        from policies import PolicyError

        for spec in dict.fromkeys(value):
            try:
                check_policy(spec)
            except PolicyError as exc:  # its one line names the spec where the name alone does not
                raise t.fail(f"{key}[{value.index(spec)}]", str(exc)) from None
            except Exception as exc:  # any other failure to build names the spec
                raise t.fail(f"{key}[{value.index(spec)}]", f"policy {spec!r}: {one_line(exc)}") from None
    return tuple(value)


def one_line(exc: BaseException) -> str:
    """`Type: message`, first line only, as error rows and messages show it."""
    text = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__
