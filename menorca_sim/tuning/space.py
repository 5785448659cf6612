"""The tuning file: which heuristic parameters are searched, within which bounds, and by
which games each candidate is judged. CMA-ES searches the unit cube; this module maps
a point of it to parameters (ints rounded) and back.

    name = "heuristic_tuned"        # the preset the search writes
    base = "heuristic"              # the preset whose parameters are the start (and the rest)
    opponents = ["heuristic", "mean"]  # each candidate plays these, seats rotated; "mean" is
                                    # the search's current mean (see MEAN)
    players = 2
    seed = 1713                     # root of every game's seed
    seeds = 12                      # per candidate and generation, each played in every seating
    generations = 20
    popsize = 8                     # candidates per generation
    sigma = 0.25                    # CMA-ES's first step, in units of each parameter's range
    ruleset = "default"             # or a ruleset TOML path, relative to this file
    [params]                        # name = [low, high]: the parameters searched
    risk = [0.0, 1.0]
    horizon = [2, 8]                # an int parameter: candidates are rounded"""
from __future__ import annotations

import dataclasses
import hashlib
import json
import math
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from menorca_sim.run.experiment import ExperimentError
from menorca_sim.run.manifest_check import name_problem
from menorca_sim.rules import RulesetError
from menorca_sim.rules.reader import Table

MEAN = "mean"
"""An opponent that is the search itself: the parameters at the centre of the distribution
this generation's candidates are drawn from. Against it a candidate is judged by the
population it comes from, not only by fixed anchors, so the search keeps climbing once it
has left the anchors behind (and cannot tune itself into beating only the default)."""
KEYS = {"name", "base", "opponents", "players", "seed", "seeds", "generations", "popsize", "sigma", "ruleset",
        "params"}
DIGITS = 4  # a float parameter's decimals: a spec stays short, and finer steps are lost in the noise


@dataclass(frozen=True)
class Bound:
    name: str
    low: float
    high: float
    integer: bool


@dataclass(frozen=True)
class TuneSpec:
    name: str
    base: str
    opponents: tuple[str, ...]
    players: int
    seed: int
    seeds: int
    generations: int
    popsize: int
    sigma: float
    ruleset_path: str | None
    bounds: tuple[Bound, ...]
    base_values: dict[str, Any]  # every field of the base preset's parameters

    @property
    def games_per_candidate(self) -> int:
        return self.seeds * self.players

    def digest(self) -> str:
        """What a state file must match to be resumed: everything but the generations."""
        plan = dataclasses.asdict(self)
        plan.pop("generations")
        return hashlib.sha256(json.dumps(plan, sort_keys=True, default=str).encode()).hexdigest()[:16]

    def start(self) -> np.ndarray:
        """The base preset's parameters as a point of the unit cube (clipped to the bounds)."""
        return np.array([np.clip((self.base_values[b.name] - b.low) / (b.high - b.low), 0, 1) for b in self.bounds])

    def params(self, x: np.ndarray) -> dict[str, Any]:
        """The searched parameters at point `x` of the unit cube."""
        out: dict[str, Any] = {}
        for b, u in zip(self.bounds, np.clip(x, 0, 1)):
            value = b.low + float(u) * (b.high - b.low)
            out[b.name] = int(round(value)) if b.integer else round(value, DIGITS)
        return out

    def policy(self, params: dict[str, Any]) -> str:
        """The policy spec of a candidate: the base preset with `params`."""
        return f"{self.base}({', '.join(f'{k}={v!r}' for k, v in params.items())})"


def load_tune_spec(path: str | Path) -> TuneSpec:
    """Read and check a tuning file; every problem is an ExperimentError (`file: key: problem`)."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_bytes().decode("utf-8"))
    except OSError as exc:
        raise ExperimentError(path.name, "", f"cannot read file ({exc.strerror or exc})") from None
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise ExperimentError(path.name, "", f"not valid TOML ({exc})") from None
    try:
        return _parse(Table(path.name, data), path.parent)
    except RulesetError as exc:
        raise ExperimentError(exc.file, exc.key, exc.problem) from None


def _parse(t: Table, folder: Path) -> TuneSpec:
    from policies.heuristic import PRESETS

    t.only(KEYS)
    base = t.str("base", "heuristic", choices=sorted(PRESETS))
    base_values = dataclasses.asdict(PRESETS[base])
    sigma = t.raw("sigma", 0.25)
    if not isinstance(sigma, (int, float)) or isinstance(sigma, bool) or not 0 < sigma <= 1:
        raise t.fail("sigma", f"expected a number in (0, 1], got {sigma!r}")
    name = t.str("name")
    problem = name_problem(name)  # the preset's file is NAME.toml
    if problem:
        raise t.fail("name", problem)
    ruleset = t.str("ruleset", "default")
    ruleset_path = None if ruleset == "default" else str((folder / ruleset).resolve())
    return TuneSpec(name=name, base=base, opponents=_opponents(t), players=_players(t, ruleset_path),
                    seed=t.int("seed", minimum=0), seeds=t.int("seeds", minimum=1),
                    generations=t.int("generations", minimum=1),
                    popsize=t.int("popsize", 8, minimum=2), sigma=float(sigma), ruleset_path=ruleset_path,
                    bounds=_bounds(t.table("params"), base, base_values), base_values=base_values)


def _players(t: Table, ruleset_path: str | None) -> int:
    from menorca_sim.rules import load_ruleset

    players = t.int("players", 2, minimum=2)
    counts = sorted(load_ruleset(ruleset_path).player_counts)
    if players not in counts:
        raise t.fail("players", f"the ruleset has no {players}-player setup (it has {', '.join(map(str, counts))})")
    return players


def _opponents(t: Table) -> tuple[str, ...]:
    from menorca_sim.run.experiment import check_policy_spec
    from policies import PolicyError

    opponents = t.str_list("opponents")
    if not opponents:
        raise t.fail("opponents", "expected at least one opponent")
    for i, name in enumerate(opponents):
        if name != MEAN:
            try:
                check_policy_spec(name)
            except PolicyError as exc:
                raise t.fail(f"opponents[{i}]", str(exc)) from None
    return opponents


def _bounds(t: Table, base: str, base_values: dict[str, Any]) -> tuple[Bound, ...]:
    bounds = []
    for name, value in t.data.items():
        default = base_values.get(name)
        if isinstance(default, bool) or not isinstance(default, (int, float)):
            numeric = sorted(k for k, v in base_values.items() if isinstance(v, (int, float)) and not isinstance(v, bool))
            raise t.fail(name, f"not a numeric heuristic parameter (known: {', '.join(numeric)})")
        if (not isinstance(value, list) or len(value) != 2
                or not all(isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) for v in value)
                or not value[0] < value[1]):
            raise t.fail(name, f"expected [low, high], finite numbers with low < high, got {value!r}")
        bound = Bound(name, float(value[0]), float(value[1]), isinstance(default, int))
        _check_ends(t, base, bound)
        bounds.append(bound)
    if len(bounds) < 2:  # the cma package cannot search one dimension (it fails generations later)
        raise RulesetError(t.file, t.path, f"CMA-ES searches two or more parameters, got {len(bounds)}")
    return tuple(bounds)


def _check_ends(t: Table, base: str, bound: Bound) -> None:
    """Both ends of a bound make a valid player, so no candidate fails mid-search."""
    from menorca_sim.run.experiment import check_policy_spec
    from policies import PolicyError

    for end in (bound.low, bound.high):
        value = int(round(end)) if bound.integer else end
        try:
            check_policy_spec(f"{base}({bound.name}={value!r})")
        except PolicyError as exc:
            raise t.fail(bound.name, f"the bound {value!r} is outside the parameter's range ({exc})") from None
