"""`menorca-sim rules check|show`: validate a ruleset file or print what it defines."""
from __future__ import annotations

import dataclasses
from itertools import groupby

import click

from menorca_sim.cli.errors import one_line_errors
from menorca_sim.rules import Ruleset, RulesetError, load_ruleset
from menorca_sim.rules.model import Company

# Sections of plain options ([D]/[A] values), printed as `section.key = value`; the
# attribute names are the TOML section names and keys.
OPTION_SECTIONS = ("setup", "auction", "merger", "operating", "stock", "markers", "end")


@click.group("rules")
def command() -> None:
    """Check or summarise a ruleset file."""


@command.command("check")
@click.argument("file")
@one_line_errors
def check(file: str) -> None:
    """Validate FILE: exit 0 with a one-line summary, or exit 2 with the error line (both
    name FILE as given)."""
    r = _load(file)
    click.echo(f"{file}: ok: {r.name}: {len(r.companies)} companies, {len(r.vehicles)} vehicles, "
               f"{len(r.phases)} phases, {len(r.legacies)} legacies, {len(r.map.land)} land hexes, "
               f"{len(r.tiles)} tile types")


@command.command("show")
@click.argument("file", required=False)
@one_line_errors
def show(file: str | None) -> None:
    """Print a readable summary of FILE (default: the built-in v11 rules)."""
    click.echo(describe(_load(file) if file else load_ruleset()))


def _load(file: str) -> Ruleset:
    """The ruleset of FILE; an error names FILE as given (the loader names the file alone,
    as an experiment's errors show it)."""
    try:
        return load_ruleset(file)
    except RulesetError as exc:
        raise RulesetError(file, exc.key, exc.problem) from None


def describe(r: Ruleset) -> str:
    """The multi-line summary printed by `rules show`."""
    lines = [f"{r.name} ({r.source})", f"sha256 {r.sha256[:16]}", ""]
    lines.append(f"Bank: {r.bank} R.")
    lines.append("Players: " + "; ".join(f"{n}: {p.cash} R., limit {p.cert_limit}"
                                        for n, p in sorted(r.player_counts.items())))
    lines += _section("Companies", ["id", "kind", "home", "certificates", "par", "stations", "epoch", "operates",
                                    "vehicles", "markers"], [
        [c.id, c.kind, c.home or "-", _certificates(c.certificates), c.par or "-", c.stations,
         c.formed_epoch if c.kind == "merged" else c.available_epoch, f"{c.operate_percent} %", "+".join(c.vehicle_kinds),
         _markers(c)] for c in r.companies.values()])
    lines += _section("Vehicles", ["id", "kind", "range", "price", "count", "phase", "retire"], [
        [v.id, v.kind, v.range, v.price, "unlimited" if v.count is None else v.count, v.phase, v.retire or "-"]
        for v in r.vehicles.values()])
    lines += _section("Phases", ["name", "epoch", "tiles", "limit", "ORs"], [
        [p.name, p.epoch, "+".join(p.tiles), p.limit, p.ors] for p in r.phases])
    lines += _section("Epochs", ["epoch", "phases", "legacies close", "event candidates"], [
        [e.number, " ".join(p.name for p in r.phases if p.epoch == e.number), "yes" if e.legacies_close else "no",
         "; ".join(f"{r.events[ev].name} ({_fields(r.events[ev].effect)})" for ev in e.events)]
        for e in r.epochs])
    lines += _section("Legacies", ["id", "name", "price", "income", "closes", "ability"], [
        [leg.id, leg.name, leg.price, leg.income, f"epoch {leg.close_epoch}" if leg.close_epoch else "never",
         _fields(leg.ability)] for leg in r.legacies.values()])
    mp = r.map
    kinds = [n.kind for n in mp.nodes.values()]
    cells = [c for row in r.market for c in row if c is not None]
    lines += ["", "Map:",
              f"  {len(mp.land)} land hexes, {len(mp.sea)} sea hexes, {len(mp.nodes)} nodes "
              f"({kinds.count('city')} cities, {kinds.count('town')} towns, "
              f"{sum(n.port for n in mp.nodes.values())} ports), {len(mp.offboards)} offboards, {len(mp.lanes)} lanes",
              "  terrain costs: " + ", ".join(f"{name} {cost}" for name, cost in mp.terrain_costs.items()),
              "  node revenue by tile colour: " + ", ".join(f"{kind} {'/'.join(map(str, rev))}"
                                                           for kind, rev in mp.revenue.items()),
              "  offboard revenue by epoch: " + ", ".join(f"{name} {'/'.join(map(str, off.revenue))}"
                                                         for name, off in mp.offboards.items()),
              f"  tiles: {len(r.tiles)} types, " + ", ".join(
                  f"{sum(t.count for t in r.tiles.values() if t.colour == colour)} {colour}"
                  for colour in dict.fromkeys(t.colour for t in r.tiles.values())),
              "", "Market:",
              f"  {len(r.market)} rows x {max(len(row) for row in r.market)} columns, {len(cells)} cells, "
              f"values {min(c.value for c in cells)}-{max(c.value for c in cells)}",
              "  par values: " + ", ".join(str(v) for v in sorted({c.value for c in cells if c.par}))]
    lines += ["", "Options:"]
    for section in OPTION_SECTIONS:
        for f in dataclasses.fields(getattr(r, section)):
            lines.append(f"  {section}.{f.name} = {_value(getattr(getattr(r, section), f.name))}")
    if r.overrides:
        lines += ["", "Overrides:"] + [f"  {k} = {_value(v)}" for k, v in r.overrides.items()]
    return "\n".join(lines)


def _section(title: str, headers: list[str], rows: list[list[object]]) -> list[str]:
    """A titled table with left-aligned columns."""
    table = [headers] + [[str(cell) for cell in row] for row in rows]
    widths = [max(len(row[i]) for row in table) for i in range(len(headers))]
    return ["", f"{title}:"] + ["  " + "  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip()
                                for row in table]


def _certificates(certs: tuple[int, ...]) -> str:
    """(20, 10, 10) -> '20 + 2x10 %'."""
    runs = [(pct, len(list(group))) for pct, group in groupby(certs)]
    return " + ".join(f"{n}x{pct}" if n > 1 else str(pct) for pct, n in runs) + " %"


def _markers(c: Company) -> str:
    if c.kind == "major":
        return f"{c.marked} marked, {c.markers} markers"
    return f"{c.goods_markers} {c.goods}" if c.goods else "-"


def _fields(record: object) -> str:
    """A typed effect or ability as `type(key=value, ...)`, leaving out unset fields."""
    values = dataclasses.asdict(record)
    kind = values.pop("type")
    args = ", ".join(f"{k}={v}" for k, v in values.items() if v not in (None, 0))
    return f"{kind}({args})" if args else kind


def _value(value: object) -> str:
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    return str(value)
