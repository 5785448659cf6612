"""What a designer reads first: dead content, then the findings, one sentence per fact,
each ending with what it suggests looking at, and, where the experiment has several
player populations, whether the finding holds for all of them.

Every sentence is built from the tables and the Holm-corrected comparisons of
`aggregate.analyse`; nothing is tested again here. Facts are folded: the second seat
of a 2-player game is the complement of the first, a seat effect found in every minor
draw is one sentence, a variant's changes are one sentence per player count, and one
fact seen in several populations is one sentence with each population's estimate."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Iterable

import polars as pl

from menorca_sim.analysis import stats
from menorca_sim.analysis.aggregate import Analysis, baseline_variant, planned

RARE = 0.05  # a rate at or below this is dead content
PINNED = 0.5  # a company ending at the market's top in this share of its games or more is pinned there
ROBUST, DEPENDENT, NOT_FOUND = "robust", "player-dependent", "not found"
MAX_METRICS = 4  # a variant's sentence names at most this many of its significant changes


@dataclass(frozen=True)
class Finding:
    text: str  # the fact, one sentence without its final full stop
    look_at: str  # what it suggests looking at (never a verdict)
    label: str = ""  # ROBUST or DEPENDENT where the experiment has several populations

    def line(self) -> str:
        label = f" [{self.label}]" if self.label else ""
        return f"{self.text}{label}. Look at: {self.look_at}."


# --- dead content ---------------------------------------------------------------------------

def dead_content(a: Analysis) -> list[Finding]:
    """Companies never or rarely started or floated, legacies never sold above their
    minimum, endings never reached, companies pinned at the market's top: each with
    its rate and interval over every player count and population where it holds, and
    one sentence for what holds in every variant alike."""
    t = a.tables
    found: dict[tuple, dict[str, Finding]] = defaultdict(dict)  # (kind, subject) -> variant -> finding
    companies = t["variant_companies"]
    for variant, company, rows in _by(companies, "company"):
        start = _pooled(rows, "start_rate")
        if start[0] <= RARE:
            found["start", company][variant] = Finding(
                f"{company} is {_never(start[0])} started: {_rate(start)} of the {start[3]} games it is in play"
                f"{_where(a, companies, variant, company)}", f"{company}'s start rules, par and home")
            continue
        floats = _pooled(rows, "float_rate")
        if floats[0] <= RARE:
            found["float", company][variant] = Finding(
                f"{company} is started but {_never(floats[0])} floats: {_rate(floats)} of its {floats[3]} games",
                f"what {company} needs before it operates, and its capital")
    for variant, legacy, rows in _by(t["auction_prices"], "legacy"):
        above = _pooled(rows, "above_min_rate")
        if above[0] <= RARE:
            found["price", legacy][variant] = Finding(
                f"{legacy} {_never(above[0])} sells above its minimum price: {_rate(above)} of {above[3]} sales",
                f"{legacy}'s price")
    for variant, reason, rows in _by(t["end_reasons"].filter(pl.col("end_reason") != "cap"), "end_reason"):
        share = _pooled(rows, "share")
        if share[0] <= RARE:
            found["end", reason][variant] = Finding(
                f"{_never(share[0]).capitalize()} does a game end by {reason}: {_rate(share)} of {share[3]} games",
                _ENDING_LOOK[reason])
    edges = t.get("company_edges")
    for variant, company, rows in _by(edges, "company") if edges is not None else ():
        top = _pooled(rows, "top_rate")
        if top[0] >= PINNED:
            found["top", company][variant] = Finding(
                f"{company} ends at the market's top value in {_rate(top)} of the {top[3]} games it starts",
                "the market's top rows and the payout rule")
    return [f for by_variant in found.values() for f in _fold_variants(a, by_variant)]


def _fold_variants(a: Analysis, by_variant: dict[str, Finding]) -> list[Finding]:
    """One finding per variant it holds in, or one for all of them, told with the
    baseline's figures (and that the others' differ, where they do)."""
    if len(a.variants) == 1:
        return list(by_variant.values())
    if len(by_variant) == 1:
        [(v, f)] = by_variant.items()
        return [Finding(f"In variant {v}: {f.text}", f.look_at)]
    if len(by_variant) < len(a.variants):  # told once, with the first such variant's figures
        v, f = next(iter(by_variant.items()))
        return [Finding(f"In {len(by_variant)} of {len(a.variants)} variants: {f.text} (variant {v})", f.look_at)]
    baseline = baseline_variant(a.manifest, a.variants)
    base = by_variant.get(baseline, next(iter(by_variant.values())))
    alike = len({f.text for f in by_variant.values()}) == 1
    return [Finding(f"In every variant{' alike' if alike else ''}: {base.text}"
                    + ("" if alike else f" (variant {baseline}; the others differ a little)"),
                    base.look_at)]


_ENDING_LOOK = {"bank": "the bank's size", "bankruptcy": "what drives a company's price to the bottom",
                "conquest": "the epoch boundaries and the ship supply (docs/rules.md)"}


def _by(df: pl.DataFrame, column: str) -> Iterable[tuple[str, str, pl.DataFrame]]:
    for (variant, value), rows in df.group_by("variant", column, maintain_order=True):
        yield variant, value, rows


def _pooled(rows: pl.DataFrame, rate: str) -> tuple[float, float, float, int]:
    """A rate over every player count and population of `rows` (rate, low, high, n):
    counts added up, the interval on their distinct games."""
    n = rows["games"].to_numpy().astype(float)
    s = float((rows[rate].to_numpy() * n).sum())
    total = float(n.sum())
    factor = float(rows["distinct"].sum() / rows["game_count"].sum()) if "distinct" in rows.columns else 1.0
    low, high = stats.wilson_interval(s * factor, total * factor)
    return s / total, float(low), float(high), int(total)


def _never(rate: float) -> str:
    return "never" if rate == 0 else "rarely"


def _rate(r: tuple[float, float, float, int]) -> str:
    return f"{_pct(r[0])} % ({_pct(r[1])}–{_pct(r[2])} %)"


def _pct(x: float) -> str:
    return f"{100 * x:.0f}" if x == 0 or x >= 0.01 else f"{100 * x:.1f}"


def _where(a: Analysis, table: pl.DataFrame, variant: str, company: str) -> str:
    """Where a company is dead only in some player counts or populations, which."""
    every = table.filter((pl.col("variant") == variant) & (pl.col("company") == company))
    dead = every.filter(pl.col("start_rate") <= RARE)
    if dead.height == every.height:
        return ""
    return " (" + ", ".join(_group_name(a, r) for r in dead.iter_rows(named=True)) + " only)"


def _group_name(a: Analysis, row: dict) -> str:
    name = f"{row['players']} players"
    return f"{name} among {row['population']}" if len(a.populations) > 1 else name


# --- findings -------------------------------------------------------------------------------

def facts(a: Analysis) -> dict[tuple, dict[str, stats.Comparison]]:
    """Every tested fact (its comparison's key columns, the population left out) with
    its comparison in each population."""
    out: dict[tuple, dict[str, stats.Comparison]] = defaultdict(dict)
    for c in a.comparisons:
        out[_fact(c)][c.row.get("population", "")] = c
    return out


def _fact(c: stats.Comparison) -> tuple:
    r = c.row
    if c.section == "seat":
        return ("seat", r["variant"], r["players"], r["seat"])
    if c.section == "draw":
        return ("draw", r["variant"], r["players"], r["seat"], r["draw"])
    if c.section == "legacy":
        return ("legacy", r["variant"], r["players"], r["legacy"])
    if c.section == "variants":
        return ("variants", r["variant"], r["players"], r["metric"])
    if c.section == "probe":
        return ("probe", r["variant"], r["players"], r["probe"])
    return (c.section, r["variant"], r["players"], r[c.section])


def label(a: Analysis, by_population: dict[str, stats.Comparison]) -> str:
    """ROBUST: significant in every population, in one direction; DEPENDENT: significant
    in some; NOT_FOUND: in none. A fact only some populations can show (a strategy only
    one of them plays) is labelled by where it was tested."""
    found = [c for c in by_population.values() if c.significant]
    if not found:
        return NOT_FOUND
    if len(by_population) < len(a.populations):
        return f"tested among {', '.join(sorted(by_population))} only"
    directions = {c.estimate > c.reference for c in found}
    return ROBUST if len(found) == len(a.populations) and len(directions) == 1 else DEPENDENT


def findings(a: Analysis) -> list[Finding]:
    """The significant facts, folded, in the report's order: seats, strategies,
    legacies, variants."""
    points = _sweep_points(a)  # a sweep's points are read off its chart and fair values, not one by one
    all_facts = {k: v for k, v in facts(a).items() if k[1] not in points}
    found = {k: v for k, v in all_facts.items() if label(a, v) != NOT_FOUND}
    out = _seat_findings(a, found, all_facts)
    for key, by_pop in found.items():
        if key[0] in ("policy", "auction_strategy"):
            out.append(_finding(a, key, by_pop, f"{_players(key)} {key[0].replace('_', ' ')} {key[3]} wins",
                                f"what {key[3]} does differently: a strategy that wins more may exploit a rule"))
    for key, by_pop in found.items():
        if key[0] == "legacy":
            out.append(_finding(a, key, by_pop, f"{_players(key)} the buyer of {key[3]} wins more than players of "
                                "the same seat and minor draw, by", f"{key[3]}'s price, income or ability",
                                points=True))
    out += _variant_findings(a, found)
    out += [f for f in probe_verdicts(a).values() if f.label != NO_EFFECT]
    return fair_value_findings(a) + out


def _sweep_points(a: Analysis) -> set[str]:
    return {p for s in planned(a.manifest, "sweeps") for p in s.get("points", [])}


def fair_value_findings(a: Analysis) -> list[Finding]:
    """Each fair value a sweep found (or the statement that its range misses it): the
    answer to "which value makes it fair", so the findings open with them."""
    out = []
    for r in a.tables.get("fair_values", pl.DataFrame()).iter_rows(named=True):
        seat_target = r["target"].startswith("seat ")
        if seat_target and not r["key"].startswith("player_counts.") and r["status"] != "in range":
            continue  # a seat's share against a rule not meant for it: in the table only
        where = ", ".join(p for p in (r["sweep"], r["other"], f"among {r['population']}" if r["population"] else "",
                                      f"{r['players']} players") if p)
        if r["status"] == "in range":
            text = (f"{r['target']} at {r['key']} = {r['fair_value']:.3g} ({r['fair_value_low']:.3g} to "
                    f"{r['fair_value_high']:.3g}) ({where})")
        elif r["status"] == "no trend":
            text = f"{r['target']}: no trend in {r['key']} over the swept range ({where})"
        else:
            text = (f"{r['target']}: {r['status']} of {r['key']} (the fitted curve meets it at about "
                    f"{r['fair_value']:.3g}; {where})")
        out.append(Finding(text[0].upper() + text[1:], f"{r['key']}"))
    return out


RAISES, LOWERS, NO_EFFECT = "blind spot", "weak", "no effect found"
PAYS, COSTS = "loophole pays", "loophole costs"  # the verdicts of the probes that exploit a loophole


def probe_verdicts(a: Analysis) -> dict[tuple, Finding]:
    """Each probe's verdict (its label), by (variant, players, probe): forcing the item
    raised the prober's win share against the same seat on the same seeds (RAISES: the
    players miss it), lowered it (LOWERS: the content is weak), or neither was found."""
    out = {}
    for key, by_pop in facts(a).items():
        if key[0] != "probe":
            continue
        c = next(iter(by_pop.values()))
        verdict = NO_EFFECT if not c.significant else RAISES if c.estimate > 0 else LOWERS
        r = c.row
        loophole = LOOPHOLES.get(r["forces"])
        if loophole is not None:
            what, rule = loophole
            meaning = {RAISES: f"it pays (a variant with {rule} tells whether that rule closes it)",
                       LOWERS: "the loophole costs the prober more than it brings",
                       NO_EFFECT: "no gain from the loophole was found"}[verdict]
            look = rule if verdict == RAISES else "nothing to change"
            verdict = {RAISES: PAYS, LOWERS: COSTS}.get(verdict, verdict)
        else:
            what = f"taking {r['item']}'s first certificate" if r["forces"] == "start" else f"buying {r['item']}"
            meaning = {RAISES: f"the players miss it ({r['item']} is worth more than they think)",
                       LOWERS: f"{r['item']} is weak", NO_EFFECT: "neither helps nor costs"}[verdict]
            look = f"{r['item']}'s price" if r["forces"] == "legacy" else f"{r['item']}'s start rules, par and capital"
            look = f"how the players value {r['item']}" if verdict == RAISES else look
        text = (f"{_in_variant(a, key[1])}In {key[2]}-player games, always {what} ({r['probe']}) changes the "
                f"prober's win share by {100 * c.estimate:+.0f} points ({100 * c.low:+.0f} to {100 * c.high:+.0f}) "
                f"against the same seat on the same seeds, over {r['pairs']} games: {meaning}")
        out[key[1:]] = Finding(text, look, verdict)
    return out


# The probes that exploit a loophole of the rules (policies/probe.py): what the prober
# does, and the ruleset key that closes the loophole.
LOOPHOLES = {
    "pump": ("selling its company's certificates and buying them back cheaper in the same OR",
             'company_shares.buy_back_after_sale = "next_or"'),
    "loot": ("selling out of a minor it presides and spending the minor's treasury on its own company",
             'minors.last_certificate = "keep"'),
}


def _in_variant(a: Analysis, variant: str) -> str:
    return f"In variant {variant}: " if len(a.variants) > 1 else ""


def _seat_findings(a: Analysis, found: dict, all_facts: dict) -> list[Finding]:
    out = []
    draws = sorted({k[4] for k in all_facts if k[0] == "draw"})
    folded = set()
    for key, by_pop in found.items():
        if key[0] != "seat" or (key[2] == 2 and key[3] != 1):  # seat 2 of 2 is seat 1's complement
            continue
        same = [d for d in draws if label(a, all_facts.get(("draw", *key[1:], d), {})) != NOT_FOUND]
        folded |= {("draw", *key[1:], d) for d in same}
        where = ("in every minor draw" if same == draws else f"(in the draws {', '.join(same)})" if same else "")
        out.append(_finding(a, key, by_pop, f"{_players(key)} seat {key[3]} wins", _SEAT_LOOK, where=where))
    for key, by_pop in found.items():
        if key[0] == "draw" and key not in folded and not (key[2] == 2 and key[3] != 1):
            out.append(_finding(a, key, by_pop, f"{_players(key)} with minors {key[4]}, seat {key[3]} wins",
                                _SEAT_LOOK + ", and the drawn minors' homes"))
    return out


_SEAT_LOOK = "the seat order: the start-player marker through the auction and the first stock round"


def _players(key: tuple) -> str:
    return f"In {key[2]}-player games"


def _finding(a: Analysis, key: tuple, by_pop: dict[str, stats.Comparison], subject: str, look_at: str,
             where: str = "", points: bool = False) -> Finding:
    """`subject` + each population's estimate (a win share against the fair share, or
    with `points` a difference in points); `where`, the draws it holds in."""
    variant = f"In variant {key[1]}, " if len(a.variants) > 1 else ""
    subject = f"{variant}{subject[0].lower()}{subject[1:]}" if variant else subject
    subject += f" {where}" if where else ""
    estimates = sorted(by_pop.items())
    fair = "" if points else f" against a fair {_pct(estimates[0][1].reference)} %"
    if len(a.populations) == 1:
        return Finding(f"{subject} {_estimate(estimates[0][1], points)}{fair}", look_at)
    parts = "; ".join(f"{pop} {_estimate(c, points)}" for pop, c in estimates)
    return Finding(f"{subject}{fair}: {parts}", look_at, label(a, by_pop))


def _estimate(c: stats.Comparison, points: bool) -> str:
    if points:
        return f"{100 * c.estimate:+.0f} points ({100 * c.low:+.0f} to {100 * c.high:+.0f})"
    return f"{_pct(c.estimate)} % ({_pct(c.low)}–{_pct(c.high)} %)"


def _variant_findings(a: Analysis, found: dict) -> list[Finding]:
    """One sentence per variant and player count: its largest significant changes."""
    by_variant: dict[tuple, list] = defaultdict(list)
    for key, by_pop in found.items():
        if key[0] == "variants":
            by_variant[key[1], key[2]].append(min(by_pop.values(), key=lambda c: c.p_holm))
    overrides = _overrides(a)
    out = []
    for (variant, players), comparisons in by_variant.items():
        comparisons.sort(key=lambda c: c.p_holm)
        changes = [_change(c) for c in comparisons[:MAX_METRICS]]
        more = len(comparisons) - MAX_METRICS
        keys = ", ".join(overrides.get(variant, [])) or "its overrides"
        out.append(Finding(f"In {players}-player games variant {variant} changes {'; '.join(changes)}"
                           + (f" (and {more} more)" if more > 0 else ""), f"the keys it sets: {keys}"))
    return out


def _change(c: stats.Comparison) -> str:
    metric = c.row["metric"]
    share = metric.startswith("share of") or metric.endswith("win share")
    scale, unit = (100, " points") if share else (1, "")
    return f"{metric} by {scale * c.estimate:+.1f}{unit} ({scale * c.low:+.1f} to {scale * c.high:+.1f})"


def _overrides(a: Analysis) -> dict[str, list[str]]:
    return {v["name"]: sorted(v.get("overrides", {})) for v in planned(a.manifest, "variants") if "name" in v}


def robustness_table(a: Analysis) -> pl.DataFrame:
    """Every tested fact with its label and, per population, its estimate and whether it
    is significant there (where the experiment has several populations)."""
    rows = []
    for key, by_pop in facts(a).items():
        first = next(iter(by_pop.values()))
        subject = first.subject
        for pop in a.populations:
            subject = subject.replace(f"among {pop} players, ", "")
        row = {"fact": subject, "label": label(a, by_pop)}
        for pop in a.populations:
            c = by_pop.get(pop)
            row[pop] = "–" if c is None else f"{c.estimate:.3g}{' *' if c.significant else ''}"
        rows.append(row)
    order = {ROBUST: 0, DEPENDENT: 1, NOT_FOUND: 2}
    rows.sort(key=lambda r: order.get(r["label"], 1))  # "tested among ... only" beside player-dependent
    return pl.DataFrame(rows, schema={"fact": pl.String, "label": pl.String, **{p: pl.String for p in a.populations}})

