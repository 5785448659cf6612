"""What a designer reads first: dead content (per population), then the findings about
the rules, one sentence per fact, each ending with what it suggests looking at and,
where the experiment has several player populations, how it moves with strength and
across styles (`strength`); then the facts about the players.

Every sentence is built from the tables and the Holm-corrected comparisons of
`pipeline.analyse`; nothing is tested again here. Facts are folded: the second seat
of a 2-player game is the complement of the first, a seat effect found in every minor
draw is one sentence, a variant's changes are one sentence per player count, and one
fact seen in several populations is one sentence with each population's estimate."""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Iterable

import numpy as np
import polars as pl

from menorca_sim.analysis import stats, strength, values
from menorca_sim.analysis.dataset import baseline_variant, planned
from menorca_sim.analysis.pipeline import Analysis

RARE = 0.05  # a rate at or below this is dead content
PINNED = 0.5  # a company ending at the market's top in this share of its games or more is pinned there
NOT_FOUND = "not found"
MIN_GAMES = 100  # dead content is judged in each population with at least this many games
MAX_METRICS = 4  # a variant's sentence names at most this many of its significant changes


@dataclass(frozen=True)
class Finding:
    text: str  # the fact, one sentence without its final full stop
    look_at: str  # what it suggests looking at (never a verdict)
    label: str = ""  # how it moves with strength and across styles, where the experiment has several populations

    def line(self) -> str:
        label = f" [{self.label}]" if self.label else ""
        return f"{self.text}{label}. Look at: {self.look_at}."


# --- dead content ---------------------------------------------------------------------------

def dead_content(a: Analysis) -> list[Finding]:
    """Companies never or rarely started or floated, legacies never sold above their
    minimum, endings and phases never reached, companies pinned at the market's top:
    each named with the populations where it holds (every population of `MIN_GAMES`
    games or more is judged on its own: content dead under one kind of play hides in a
    pooled rate), with its rate and interval there; one sentence for what holds in
    every variant alike."""
    t = a.tables
    found: dict[tuple, dict[str, Finding]] = defaultdict(dict)  # (kind, subject) -> variant -> finding
    for variant, company, rows in _by(t["variant_companies"], "company"):
        starts = dead_in(a, rows, "start_rate")
        if starts:
            found["start", company][variant] = Finding(
                f"{company} is {_said(starts, 'started', 'games it is in play', rows, 'start_rate')}",
                f"{company}'s start rules, par and home{_probe(a, starts, f'probe(start={company})', company)}")
        floats = dead_in(a, rows.filter(~pl.col("population").is_in([p for p, _ in starts])), "float_rate")
        if floats:
            found["float", company][variant] = Finding(
                f"{company} {'is started but ' if not starts else ''}{_said(floats, 'floats', 'games', rows, 'float_rate')}",
                f"what {company} needs before it operates, and its capital"
                f"{_probe(a, floats, f'probe(start={company})', company)}")
    for variant, legacy, rows in _by(t["auction_prices"], "legacy"):
        above = dead_in(a, rows, "above_min_rate")
        if above:
            found["price", legacy][variant] = Finding(
                f"{legacy} {_said(above, 'sells above its minimum price', 'sales', rows, 'above_min_rate')}",
                f"{legacy}'s price{_probe(a, above, f'probe(legacy={legacy})', legacy)}")
    for variant, reason, rows in _by(t["end_reasons"].filter(pl.col("end_reason") != "cap"), "end_reason"):
        share = dead_in(a, rows, "share")
        if share:
            found["end", reason][variant] = Finding(f"A game {_said(share, f'ends by {reason}', 'games', rows, 'share')}",
                                                    _ENDING_LOOK[reason])
    stopped: set[tuple[str, str]] = set()  # (variant, population) whose first phase never reached is told
    for variant, phase, rows in _by(t["phases_reached"], "phase"):  # phases in order: the first dead one is told
        reached = [(p, r) for p, r in dead_in(a, rows, "share") if (variant, p) not in stopped]
        stopped |= {(variant, p) for p, _ in reached}
        if reached:
            found["phase", phase][variant] = Finding(
                f"Phase {phase} (or any later one) is {_said(reached, 'reached', 'games', rows, 'share')}",
                "the bank's size and the payouts before it")
    edges = t.get("company_edges")
    for variant, company, rows in _by(edges, "company") if edges is not None else ():
        top = _pooled(rows, "top_rate")
        if top[0] >= PINNED:
            found["top", company][variant] = Finding(
                f"{company} ends at the market's top value in {rate_text(top)} of the {top[3]} games it starts",
                "the market's top rows and the payout rule")
    return [f for by_variant in found.values() for f in _fold_variants(a, by_variant)]


def dead_in(a: Analysis, rows: pl.DataFrame, rate: str) -> list[tuple[str, tuple]]:
    """The populations (with their pooled rate) in which `rate` is at most `RARE`, among
    those with `MIN_GAMES` games or more (all of them pooled as one where none has)."""
    pools = [(p, _pooled(g, rate)) for (p,), g in rows.group_by("population", maintain_order=True)]
    judged = [(p, r) for p, r in pools if r[3] >= MIN_GAMES] or [("", _pooled(rows, rate))]
    order = {p: k for k, p in enumerate(_in_order(a))}
    return sorted(((p, r) for p, r in judged if r[0] <= RARE), key=lambda pr: order.get(pr[0], -1))


def _probe(a: Analysis, dead: list[tuple[str, tuple]], spec: str, item: str) -> str:
    """For content dead at the strongest rung: the verdict of its probe where the
    dataset played one, else the probe that would tell a blind spot from weak content."""
    if a.roles.top is None or a.roles.top not in {p for p, _ in dead}:
        return ""
    verdicts = [f for key, f in probe_verdicts(a).items() if key[2].startswith(spec.rstrip(")"))]
    if verdicts:
        return "; its probe: " + "; ".join(f"{f.label} ({f.text.split(': ')[-1]})" for f in verdicts)
    where = f" at the top rung ({a.roles.top})" if len(a.roles.rungs) > 1 else ""
    return (f"; dead{where}: play {spec}{' there' if where else ''} (experiments/probes.toml) to tell a blind spot "
            f"of the players (forcing {item} helps) from weak content (it hurts)")


def _said(dead: list[tuple[str, tuple]], verb: str, of: str, rows: pl.DataFrame, rate: str) -> str:
    """'never started in tuned games: 0 % (0–1 %) of 900 games it is in play; rarely in
    mcts games: 3 % (...) of 900' (without populations: the first part alone); where it
    is dead in every population judged (two or more), once over all of `rows`."""
    if len(dead) > 1 and len(dead) == len({p for (p,), g in rows.group_by("population")
                                           if g["games"].sum() >= MIN_GAMES}):
        pooled = _pooled(rows.filter(pl.col("population").is_in([p for p, _ in dead])), rate)
        return f"{_never(pooled[0])} {verb} in any population: {rate_text(pooled)} of {pooled[3]} {of}"
    parts = []
    for k, (population, r) in enumerate(dead):
        where = f" in {population} games" if population else ""
        head = f"{_never(r[0])} {verb}" if k == 0 else _never(r[0])
        parts.append(f"{head}{where}: {rate_text(r)} of {r[3]} {of if k == 0 else ''}".rstrip())
    return "; ".join(parts)


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
    if total == 0:  # no game to judge it by
        return np.nan, np.nan, np.nan, 0
    factor = float(rows["distinct"].sum() / rows["game_count"].sum()) if "distinct" in rows.columns else 1.0
    low, high = stats.wilson_interval(s * factor, total * factor)
    return s / total, float(low), float(high), int(total)


def _never(rate: float) -> str:
    return "never" if rate == 0 else "rarely"


def rate_text(r: tuple[float, float, float, int]) -> str:
    """A pooled rate (`_pooled`) as 'x % (low–high %)'."""
    return f"{_pct(r[0])} % ({_pct(r[1])}–{_pct(r[2])} %)"


def _pct(x: float) -> str:
    return f"{100 * x:.0f}" if x == 0 or x >= 0.01 else f"{100 * x:.1f}"


# --- findings -------------------------------------------------------------------------------

def facts(a: Analysis) -> dict[tuple, dict[str, stats.Comparison]]:
    """Every tested fact (its comparison's key columns, the population left out) with
    its comparison in each population."""
    out: dict[tuple, dict[str, stats.Comparison]] = defaultdict(dict)
    for c in a.comparisons:
        out[fact_key(c)][c.row.get("population", "")] = c
    return out


def fact_key(c: stats.Comparison) -> tuple:
    """The fact a comparison tests: its section and key columns, the population left out."""
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
    """NOT_FOUND where no population found the fact; else, with several populations,
    how it moves with strength over the rungs (`strength.strength_label`) and whether
    it holds across styles, or which populations found it where neither applies; ""
    with one population."""
    found = sorted(p for p, c in by_population.items() if c.significant)
    if not found:
        return NOT_FOUND
    if len(a.populations) == 1:
        return ""
    parts = [x for x in (strength.strength_label(by_population, a.roles), strength.style_label(by_population, a.roles))
             if x]
    return "; ".join(parts) or f"found among {', '.join(found)} only"


PLAYER_SECTIONS = ("policy", "auction_strategy")


def findings(a: Analysis) -> list[Finding]:
    """The significant facts about the rules, folded, in the report's order: fair
    values, seats, legacies, variants, probes (the players' strength: `players`)."""
    points = sweep_points(a)  # a sweep's points are read off its chart and fair values, not one by one
    all_facts = {k: v for k, v in facts(a).items() if k[1] not in points}
    found = {k: v for k, v in all_facts.items() if label(a, v) != NOT_FOUND}
    out = _seat_findings(a, found, all_facts)
    for key, by_pop in found.items():
        if key[0] == "legacy":
            out.append(_finding(a, key, by_pop, f"{_players(key)} the buyer of {key[3]}",
                                f"{key[3]}'s price, income or ability", points="than players of the same policy, "
                                "seat and minor draw who did not buy it"))
    out += _variant_findings(a, found)
    out += [f for f in probe_verdicts(a).values() if f.label != NO_EFFECT]
    ending = strong_play_ending(a)
    return value_findings(a) + fair_value_findings(a) + ([ending] if ending else []) + out


def players(a: Analysis) -> list[Finding]:
    """Who beats whom: the significant strategy facts, in their own section (they say
    how strong the players are, not how the rules play)."""
    return [_finding(a, key, by_pop, f"{_players(key)} {key[0].replace('_', ' ')} {key[3]} wins",
                     f"what {key[3]} does differently")
            for key, by_pop in facts(a).items() if key[0] in PLAYER_SECTIONS and label(a, by_pop) != NOT_FOUND]


def inseparable(a: Analysis) -> list[str]:
    """Legacies whose effect cannot be told from who buys them (`effects.legacy_edge`'s
    `separable`): named, never made findings."""
    rows = a.tables["legacy_edge"].filter(~pl.col("separable") & pl.col("population").is_in(a.roles.of_one_strength))
    out = []
    for (variant, legacy), g in rows.group_by("variant", "legacy", maintain_order=True):
        where = "; ".join(f"{r['players']}-player games{'' if len(a.populations) == 1 else ' among ' + r['population']}"
                          f": {r['top_policy']} makes {100 * r['top_share']:.0f} % of its {r['games']} purchases"
                          for r in g.iter_rows(named=True))
        out.append(f"{_in_variant(a, variant)}{legacy}'s effect is not separable from who buys it ({where}).")
    return out


def strong_play_ending(a: Analysis) -> Finding | None:
    """Where the strongest rung stops short of the late phases that the weakest rung
    reaches (in the baseline variant): the share of its games the bank ends, the first
    phase it (almost) never reaches and, where the dataset probed it, whether forcing
    the vehicle tiers on helps the player who does it or costs him."""
    if len(a.roles.rungs) < 2:
        return None
    low, top = a.roles.rungs[0], a.roles.top
    base = baseline_variant(a.manifest, a.variants)
    reached = a.tables["phases_reached"].filter(pl.col("variant") == base)
    at_top = {ph: _pooled(g, "share") for (ph,), g in reached.filter(pl.col("population") == top)
              .group_by("phase", maintain_order=True)}
    never = next((ph for ph, r in at_top.items() if r[0] <= RARE), None)
    if never is None:
        return None
    at_low = _pooled(reached.filter((pl.col("population") == low) & (pl.col("phase") == never)), "share")
    if not at_low[0] > RARE:
        return None
    ends = a.tables["end_reasons"].filter((pl.col("variant") == base) & (pl.col("population") == top)
                                          & (pl.col("end_reason") == "bank"))
    bank = _pooled(ends, "share")
    text = (f"{_in_variant(a, base)}The stronger the players, the shorter the game: under the strongest play ({top}) "
            f"{rate_text(bank)} of {bank[3]} games end by the bank, and phase {never} is reached in "
            f"{rate_text(at_top[never])} of them, against {rate_text(at_low)} of {low} games; the content from "
            f"{never} on (the companies, vehicles, tiles and events of its epoch and later) is not played by the "
            f"strongest players")
    tiers = [(key, f) for key, f in probe_verdicts(a).items() if key[0] == base and "tier=" in key[2]
             and f.label != NO_EFFECT]
    if tiers:
        text += "; forcing the vehicle tiers on " + "; ".join(
            f"{'helps' if f.label == RAISES else 'costs'} the player who does it in {key[1]}-player games "
            f"({f.text.split('win share by ')[1].split(' against')[0]})" for key, f in tiers)
        text += (": a blind spot of the players" if all(f.label == RAISES for _, f in tiers) else
                 ": the late content is not worth reaching, the players are right to leave it"
                 if all(f.label == LOWERS for _, f in tiers) else "")
    return Finding(text, "what advances the phase (the first purchase of each vehicle tier), the late vehicles' "
                   "prices and the bank's size: experiments/strong_endgame.toml sweeps the bank and probes the "
                   "tiers under strong play (reports/strong_endgame/summary.md)", "")


def sweep_points(a: Analysis) -> set[str]:
    """The variants a sweep made, and the arms of a value by random assignment (a variant
    that assigns a legacy): read off their chart, fair values and values, not one by one."""
    arms = {v["name"] for v in planned(a.manifest, "variants")
            if v.get("overrides", {}).get("setup.assigned_legacy", "none") != "none"}
    return arms | {p for s in planned(a.manifest, "sweeps") for p in s.get("points", [])}


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


def value_findings(a: Analysis) -> list[Finding]:
    """Each value read by random assignment (`value_tables`), said with whether it
    reproduced on the second half of the games, or why there is none."""
    out = []
    for r in a.tables.get("values", pl.DataFrame()).iter_rows(named=True):
        where = ", ".join(p for p in (f"among {r['population']}" if r["population"] else "",
                                      f"{r['players']} players") if p)
        if r["status"] == values.IN_RANGE:
            again = ("reproduced on the second half of the games" if r["reproduced"] else
                     "not reproduced: the second half of the games gives " +
                     (f"{r['second']:.3g}" if np.isfinite(r["second"]) else "no value"))
            text = (f"{r['subject']} at {r['key']} = {r['value']:.3g} ({r['low']:.3g} to {r['high']:.3g}), "
                    f"{again} ({where})")
        elif r["status"] == values.NOT_MONOTONE:
            text = (f"{r['subject']}: not monotone in {r['key']}, no value (its share meets the target at "
                    f"{r['crossings'] or 'no swept value'}; {where})")
        elif r["status"] == values.FLAT:
            text = f"{r['subject']}: no trend in {r['key']} over the swept range ({where})"
        else:
            text = f"{r['subject']}: {r['status']} of {r['key']} ({where})"
        out.append(Finding(text[0].upper() + text[1:], r["key"]))
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
            item = "the next vehicle tier" if r["forces"] == "tier" else r["item"]
            what = {"start": f"taking {item}'s first certificate", "legacy": f"buying {item}",
                    "tier": f"buying {item} as soon as it may"}[r["forces"]]
            meaning = {RAISES: f"the players miss it ({item} is worth more than they think)",
                       LOWERS: f"{item} is weak", NO_EFFECT: "neither helps nor costs"}[verdict]
            look = {"legacy": f"{item}'s price", "start": f"{item}'s start rules, par and capital",
                    "tier": "the late vehicles' prices and what each phase changes"}[r["forces"]]
            look = f"how the players value {item}" if verdict == RAISES else look
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
        also = ("found in every minor draw on its own" if same == draws
                else f"found on its own in the draws {', '.join(same)}" if same else "")
        out.append(_finding(a, key, by_pop, f"{_players(key)} seat {key[3]} wins", _SEAT_LOOK, also=also))
    for key, by_pop in found.items():
        if key[0] == "draw" and key not in folded and not (key[2] == 2 and key[3] != 1):
            out.append(_finding(a, key, by_pop, f"{_players(key)} with minors {key[4]}, seat {key[3]} wins",
                                _SEAT_LOOK + ", and the drawn minors' homes"))
    return out


_SEAT_LOOK = "the seat order: the start-player marker through the auction and the first stock round"


def _players(key: tuple) -> str:
    return f"In {key[2]}-player games"


def _finding(a: Analysis, key: tuple, by_pop: dict[str, stats.Comparison], subject: str, look_at: str,
             also: str = "", points: str = "") -> Finding:
    """`subject` + each population's estimate: a win share against the fair share, or
    with `points` (whom it is compared with) a difference in points, said as "wins more
    often" or "wins less often". Beside a label the intervals are Holm's, as the label
    is; `also` closes the sentence (the draws where it holds on its own)."""
    variant = f"In variant {key[1]}, " if len(a.variants) > 1 else ""
    subject = f"{variant}{subject[0].lower()}{subject[1:]}" if variant else subject
    estimates = [(p, by_pop[p]) for p in _in_order(a) if p in by_pop]
    holm = len(a.populations) > 1
    if points:
        signs = {c.estimate > 0 for _, c in estimates if c.significant}
        how = {frozenset({True}): "wins more often", frozenset({False}): "wins less often"}.get(
            frozenset(signs), "wins more often at some rungs and less at others")
        head = f"{subject} {how} {points}"
    else:
        head = f"{subject} against a fair {_pct(estimates[0][1].reference)} %"
    values = [_estimate(c, bool(points), holm) for _, c in estimates]
    told = values[0] if len(values) == 1 else "; ".join(f"{p} {v}" for (p, _), v in zip(estimates, values))
    return Finding(f"{head}: {told}{f'; {also}' if also else ''}", look_at, label(a, by_pop))


def _in_order(a: Analysis) -> list[str]:
    """The populations rungs first (weakest first), then styles, then the others."""
    first = [*a.roles.rungs, *a.roles.styles, *a.roles.mixed]
    return first + [p for p in a.populations if p not in first]


def _estimate(c: stats.Comparison, points: bool, holm: bool = False) -> str:
    low, high = (c.holm_low, c.holm_high) if holm else (c.low, c.high)
    if points:
        return f"{100 * c.estimate:+.0f} points ({100 * low:+.0f} to {100 * high:+.0f})"
    return f"{_pct(c.estimate)} % ({_pct(low)}–{_pct(high)} %)"


def _variant_findings(a: Analysis, found: dict) -> list[Finding]:
    """One sentence per variant and player count: its largest significant changes."""
    by_variant: dict[tuple, list] = defaultdict(list)
    for key, by_pop in found.items():
        if key[0] == "variants":
            by_variant[key[1], key[2]].append(min(by_pop.values(), key=lambda c: c.p_holm))
    overrides = _overrides(a)
    files = {v["name"]: v["ruleset"] for v in planned(a.manifest, "variants") if "ruleset" in v}
    out = []
    for (variant, players), comparisons in by_variant.items():
        comparisons.sort(key=lambda c: c.p_holm)
        changes = [_change(c) for c in comparisons[:MAX_METRICS]]
        more = len(comparisons) - MAX_METRICS
        keys = ", ".join(overrides.get(variant, [])) or "its overrides"
        if variant in files:
            keys = f"its rules file {files[variant]}" + (f" and {keys}" if overrides.get(variant) else "")
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


def strength_table(a: Analysis) -> pl.DataFrame:
    """Every tested fact with its label and, per population (rungs first, weakest
    first), its estimate and whether it is significant there."""
    columns = [*a.roles.rungs, *a.roles.styles, *a.roles.mixed]
    rows = []
    for by_pop in facts(a).values():
        subject = next(iter(by_pop.values())).subject
        for pop in a.populations:
            subject = subject.replace(f"among {pop} players, ", "")
        row = {"fact": subject, "label": label(a, by_pop)}
        for pop in columns:
            c = by_pop.get(pop)
            row[pop] = "–" if c is None else f"{c.estimate:.3g}{' *' if c.significant else ''}"
        rows.append(row)
    rows.sort(key=lambda r: r["label"] == NOT_FOUND)
    return pl.DataFrame(rows, schema={"fact": pl.String, "label": pl.String, **{p: pl.String for p in columns}})


HEADLINES = 4  # findings drawn in the strength chart


def headline_curves(a: Analysis) -> list[tuple[str, str, pl.DataFrame]]:
    """The headline findings about the rules (the `HEADLINES` facts found with the
    smallest Holm p-value, tested in two rungs or more): each one's title, label and
    estimate per rung (`strength.per_rung`)."""
    ranked = []
    for key, by_pop in facts(a).items():
        if key[0] in PLAYER_SECTIONS or key[0] == "probe" or (key[0] in ("seat", "draw") and key[2] == 2
                                                              and key[3] != 1):
            continue
        rungs = [by_pop[p] for p in a.roles.rungs if p in by_pop]
        if len(rungs) >= 2 and any(c.significant for c in rungs):
            ranked.append((min(c.p_holm for c in rungs), key, by_pop))
    ranked.sort(key=lambda r: r[0])
    return [(_title(key), label(a, by_pop), strength.per_rung(by_pop, a.roles)) for _, key, by_pop in ranked[:HEADLINES]]


def _title(key: tuple) -> str:
    what = {"seat": lambda k: f"seat {k[3]}", "draw": lambda k: f"seat {k[3]}, {k[4]}",
            "legacy": lambda k: f"buyer of {k[3]}", "variants": lambda k: f"{k[1]}: {k[3]}"}
    return f"{key[2]} players, {what.get(key[0], lambda k: str(k[3]))(key)}"
