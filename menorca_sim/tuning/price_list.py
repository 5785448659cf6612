"""What `menorca-sim balance` writes: DIR/suggested.toml, the keys it changed as an
[overrides] table (an experiment takes it as `overrides = "suggested.toml"`), and
DIR/summary.md, each key before and after with its values and intervals, and the
confirmation's verdict."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from menorca_sim.run.experiment import toml_value
from menorca_sim.tuning.balance_spec import BalanceSpec

SUGGESTED, SUMMARY = "suggested.toml", "summary.md"


def changed(spec: BalanceSpec, state: dict[str, Any]) -> dict[str, int]:
    """The keys whose confirmed price differs from the rules'."""
    final = state["confirmation"]["prices"]
    return {k.key: final[k.key] for k in spec.keys if final[k.key] != k.original}


def verdict(state: dict[str, Any]) -> tuple[bool, list[str]]:
    """Whether every target is met in the confirmation, and the ones that are not."""
    missed = [f"{v['key']} ({', '.join(_where(r)[:-1] for r in v['rows'] if not r['met']) or 'no value'})"
              for v in state["confirmation"]["values"] if not v["met"]]
    return not missed, missed


def write(spec: BalanceSpec, state: dict[str, Any], out: Path, command: str) -> None:
    moved = changed(spec, state)
    lines = [f"# {command}: the prices the games ask for ({len(moved)} of {len(spec.keys)} keys changed).",
             f"# Use it in an experiment as: overrides = \"{SUGGESTED}\"", "", "[overrides]"]
    lines += [f"{toml_value(k)} = {v}" for k, v in moved.items()]
    (out / SUGGESTED).write_text("\n".join(lines) + "\n", encoding="utf-8")
    (out / SUMMARY).write_text(_summary(spec, state, command, moved), encoding="utf-8")


def _summary(spec: BalanceSpec, state: dict[str, Any], command: str, moved: dict[str, int]) -> str:
    met, missed = verdict(state)
    first = {v["key"]: v for v in state["iterations"][0]["values"]} if state["iterations"] else {}
    confirmed = {v["key"]: v for v in state["confirmation"]["values"]}
    out = [f"# Price list: {spec.header.get('name', spec.file.stem)}", "",
           f"`{command}`", "",
           f"**Confirmation on fresh seeds (seed {spec.confirm_seed}; "
           f"{', '.join(f'{p} = {s}' for p, s in spec.confirm.items())}): "
           + ("every target is met.**" if met else f"{len(missed)} of {len(spec.keys)} targets are not met.**"), ""]
    out += [f"- not met: {m}" for m in missed]
    by_population: dict[str, list[bool]] = {}
    for v in state["confirmation"]["values"]:
        for r in v["rows"]:
            by_population.setdefault(r["population"], []).append(r["met"])
    out += ["", "Per confirming population, the targets (key and player count) met: "
            + "; ".join(f"{p} {sum(m)} of {len(m)}" for p, m in by_population.items()) + "."]
    iterations = len(state["iterations"])
    out += ["", f"{iterations} iteration{'s' if iterations != 1 else ''} on common seeds (seed {spec.header['seed']}, "
                f"{spec.header['games']} games per cell and variant), "
                + ("settled: no key moved in the last." if state["settled"] else "stopped at the file's limit before "
                   "settling."),
            f"{len(moved)} of {len(spec.keys)} keys changed; a key whose price lies within every interval of its "
            "value does not move.", "",
            "A legacy's value is the price at which its holder wins as often as the same seat without it (random "
            "assignment); a seat's, the extra starting cash at which it wins its fair share. Intervals: 95 % "
            "bootstrap over games.", "",
            "| key | before | value before | after | value after (confirmation) | met |",
            "|---|---|---|---|---|---|"]
    for key in spec.keys:
        c = confirmed[key.key]
        out.append(f"| `{key.key}` | {key.original} | {_values(first.get(key.key))} | {c['price']} | {_values(c)} | "
                   f"{'yes' if c['met'] else 'no'} |")
    out += ["", "Every iteration's prices and values: `state.json`; their games: `iter_K/data`, "
                "`confirm/data` (`menorca-sim report` reads each)."]
    return "\n".join(out) + "\n"


def _values(v: dict | None) -> str:
    if v is None or not v["rows"]:
        return "–"
    return "; ".join(f"{_where(r)} {_estimate(r)}" for r in v["rows"])


def _estimate(r: dict) -> str:
    if r["status"] != "in range":
        return r["status"]
    low = "−∞" if r["low"] is None else f"{r['low']:.0f}"
    high = "∞" if r["high"] is None else f"{r['high']:.0f}"
    return f"{r['value']:.0f} ({low} to {high})"


def _where(r: dict) -> str:
    return f"{r['population']} {r['players']}p:"

