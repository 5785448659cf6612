"""The balance report of one experiment: `index.html` (one page, PNG charts beside it,
tables as HTML) and `summary.md`, which opens with the findings: every imbalance that
is significant at the 5 % level after Holm correction across all the report's
comparisons, one plain sentence each."""
from __future__ import annotations

import base64
import html
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import polars as pl

from menorca_sim.analysis import advice, charts, side_by_side, sweeps
from menorca_sim.analysis import findings as find
from menorca_sim.analysis.dataset import Dataset, DatasetError
from menorca_sim.analysis.pipeline import Analysis, analyse
from menorca_sim.analysis.stats import ALPHA, CONFIDENCE

CHART_FILES = {name: f"{name}.png" for name in (
    "seat_win_share", "draw_length", "draw_seat1", "auction_strategy_ratings", "policy_ratings",
    "legacy_price_value", "game_length", "end_reasons", "variant_differences", "sweeps",
    "auction_strategy_head_to_head", "policy_head_to_head", "wealth_paths", "price_paths", "bank_paths",
    "strength_curves")}
"""Every chart file the report may write; one left from an earlier report is removed."""
RATE_COLUMNS = ("win_share", "share", "fair", "start_rate", "float_rate", "drop_rate", "zero_rate", "distinct_share",
                "ahead_share",
                "reference_win_share", "change")
DISTINCT_ENOUGH = 0.99  # below this share of distinct games the report warns that games repeat


@dataclass
class Section:
    key: str  # anchor in the page
    title: str
    question: str  # what the section answers, in the designer's words
    tables: list[tuple[str, pl.DataFrame]] = field(default_factory=list)  # (caption, raw table)
    charts: list[Path] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class ReportFiles:
    index: Path
    summary: Path
    charts: list[Path]


SOURCE_FILE = ".dataset"
"""In a report folder: the dataset folder the report was made from (its resolved path)."""


def default_out(data_dir: str | Path) -> Path:
    """Where `report DIR` writes without `--out`: the folder `menorca-sim run` made for the
    experiment (`reports/<experiment>/` for `reports/<experiment>/data`), else a folder named
    after the experiment beside DIR (`<experiment>-report`), checked to hold no other
    dataset's report."""
    data = Path(data_dir).resolve()
    name = Dataset(data).manifest.get("experiment", {}).get("name")
    out = data.parent if not name or (data.name == "data" and data.parent.name == name) else \
        data.parent / f"{name}-report"
    source = out / SOURCE_FILE
    if source.is_file() and source.read_text(encoding="utf-8").strip() != str(data):
        raise DatasetError(f"{out} holds the report of another dataset ({source.read_text(encoding='utf-8').strip()}); "
                           f"give --out DIR for this one (--out {out} replaces that report)")
    return out


def build_report(data_dir: str | Path, out_dir: str | Path | None = None, seed: int = 0,
                 partial: str | None = None, source: str | Path | None = None) -> ReportFiles:
    """Analyse the dataset in `data_dir` and write the report into `out_dir` (default:
    `default_out`); `partial`: the banner of a report made from part of a damaged dataset
    (`--allow-partial`); `source`: the dataset folder the report names as its own when
    `data_dir` is a view of it."""
    ds = Dataset(data_dir)
    out = Path(out_dir) if out_dir is not None else default_out(ds.path)
    out.mkdir(parents=True, exist_ok=True)
    analysis = analyse(ds, seed=seed, market_top=market_top(ds))
    sections = _sections(analysis, out)
    written = [p for s in sections for p in s.charts]
    for stale in {out / f for f in CHART_FILES.values()} - set(written):
        stale.unlink(missing_ok=True)
    index = out / "index.html"
    index.write_text(_html(analysis, sections, partial), encoding="utf-8")
    summary = out / "summary.md"
    summary.write_text(_markdown(analysis, sections, partial), encoding="utf-8")
    _write_values(analysis, out / VALUES_FILE)
    (out / SOURCE_FILE).write_text(f"{Path(source or ds.path).resolve()}\n", encoding="utf-8")
    return ReportFiles(index, summary, written)


VALUES_FILE = "values.csv"


def _write_values(analysis: Analysis, path: Path) -> None:
    """The values by random assignment as CSV, for a spreadsheet or a price list (one
    left from an earlier report of this folder goes when there are none)."""
    found = analysis.tables.get("values", pl.DataFrame())
    if found.is_empty():
        path.unlink(missing_ok=True)
    else:
        found.write_csv(path)


def market_top(ds: Dataset) -> int | None:
    """The market's highest value, as the runner recorded it from the dataset's own
    ruleset; for a dataset written before it did, the default rules' where it was
    played on them, else None (the report then says why `company_edges` is missing)."""
    if ds.manifest.get("market_top") is not None:
        return int(ds.manifest["market_top"])
    plan = ds.manifest.get("experiment")
    if not isinstance(plan, dict) or plan.get("ruleset") != "default":
        return None
    from menorca_sim.rules import load_ruleset

    return max(cell.value for row in load_ruleset().market for cell in row if cell is not None)


# --- what the report says ------------------------------------------------------------------

def evidence(analysis: Analysis) -> str:
    """How many games the report rests on, and how many of them are distinct; a warning
    where games repeat (a deterministic player replays the same game from one setup)."""
    t = analysis.tables["distinct_games"]
    games, distinct = int(t["games"].sum()), int(t["distinct"].sum())
    line = f"This report rests on {games} games, {distinct} of them distinct ({100 * distinct / games:.1f} %)."
    if distinct < DISTINCT_ENOUGH * games:
        line += (" Warning: games repeat (the same setup and the same actions): every interval and test counts "
                 "distinct games, so they are wider than the number of games suggests; players with a "
                 "temperature above 0 vary their games.")
    return line


def changes(analysis: Analysis) -> list[str]:
    """What to change first (`advice.what_to_change`): the page opens with it. With
    named variants, the baseline's changes and each variant's relative to them
    (`side_by_side.relative_changes`)."""
    lines = side_by_side.relative_changes(analysis) or [c.line() for c in advice.what_to_change(analysis)]
    return lines or ["Nothing the findings point at: no seat or legacy imbalance was found after Holm correction, "
                     "and no content is dead under the strongest play."]


def dead(analysis: Analysis) -> list[str]:
    """Content the games never or rarely use (`findings.dead_content`), named with the
    populations where it is dead."""
    lines = [f.line() for f in find.dead_content(analysis)] or [
        f"Nothing: every company starts and floats, every legacy sells above its minimum and every ending "
        f"happens in more than {find.RARE * 100:.0f} % of the games of every population."]
    if "company_edges" not in analysis.tables:
        lines.append("Companies pinned at the market's top are not checked: the dataset's manifest does not "
                     "record its market (a dataset written before the runner recorded `market_top`).")
    return lines


def findings(analysis: Analysis) -> list[str]:
    """The findings about the rules, one sentence per fact (`findings.findings`), the
    legacies whose effect is not separable from who buys them, then notes on capped
    and failed games."""
    lines = [f.line() for f in find.findings(analysis)]
    if not lines:
        lines.append(f"No imbalance was found at the {ALPHA * 100:.0f} % level after Holm correction "
                     f"across the report's {len(analysis.comparisons)} comparisons.")
    lines += find.inseparable(analysis)
    ends = analysis.tables["end_reasons"].filter(pl.col("end_reason") == "cap")
    capped = int(ends["count"].sum())
    if capped:
        lines.append(f"{capped} of {int(ends['games'].sum())} games ended at the safety cap on ORs "
                     "instead of a rule's end condition: see End reasons.")
    failed = int(analysis.tables["errors"]["games"].sum())
    if failed:
        lines.append(f"{failed} games failed with an error and are missing from every table: see Errors.")
    return lines


def players(analysis: Analysis) -> list[str]:
    """Who beats whom (`findings.players`): facts about the players, not the rules."""
    return [f.line() for f in find.players(analysis)] or ["No policy wins more or less than its fair share."]


OPENING = (("What to change", changes), ("Dead content", dead), ("Findings about the rules", findings),
           ("Players", players))
"""The page's opening, in order: each heading and the function giving its lines."""


def _findings_note(a: Analysis) -> str:
    return (f"Intervals are {CONFIDENCE * 100:.0f} % intervals. A result is listed when it stays significant at "
            f"the {ALPHA * 100:.0f} % level after Holm correction across all {len(a.comparisons)} comparisons of "
            "this report (see All comparisons); the sample sizes were fixed by the experiment in advance.")


@dataclass(frozen=True)
class Part:
    """One section of the page, declared: what it asks, and how its tables, charts and
    notes come from the analysis; `when` says whether the dataset has it at all."""
    key: str  # anchor in the page
    title: str
    question: str
    tables: Callable[[Analysis], list[tuple[str, pl.DataFrame]]] = lambda a: []
    charts: Callable[[Analysis, Path], list[Path | None]] = lambda a, out: []
    notes: Callable[[Analysis], list[str]] = lambda a: []
    when: Callable[[Analysis], bool] = lambda a: True


def _chart_file(out: Path, name: str) -> Path:
    return out / CHART_FILES[name]


def _strategy_tables(t: dict[str, pl.DataFrame]) -> list[tuple[str, pl.DataFrame]]:
    kinds = (("win_share", "Win share by {}", ("policy", "auction_strategy")),
             ("ratings", "Bradley-Terry ratings by {}", ("auction_strategy", "policy")),
             ("head_to_head", "Head to head by {} (ahead share: how often it finished ahead of the opponent; "
              "win share: its win share at tables with that opponent)", ("auction_strategy", "policy")))
    return [(caption.format(c.replace("_", " ")), t[f"{c}_{kind}"]) for kind, caption, columns in kinds
            for c in columns if f"{c}_{kind}" in t]


def _strategy_charts(a: Analysis, out: Path) -> list[Path | None]:
    t = a.tables
    return ([charts.ratings(t[f"{c}_ratings"], c, _chart_file(out, f"{c}_ratings"))
             for c in ("auction_strategy", "policy") if f"{c}_ratings" in t]
            + [charts.head_to_head(t[f"{c}_head_to_head"], c, _chart_file(out, f"{c}_head_to_head"))
               for c in ("auction_strategy", "policy") if f"{c}_head_to_head" in t])


def _probe_table(a: Analysis) -> pl.DataFrame:
    verdicts = find.probe_verdicts(a)
    probes = a.tables["probe_effects"]
    labels = [verdicts[k].label if k in verdicts else "not tested"
              for k in probes.select("variant", "players", "probe").rows()]
    return probes.with_columns(verdict=pl.Series(labels, dtype=pl.String))


def _trajectory_charts(a: Analysis, out: Path) -> list[Path | None]:
    paths = a.tables["trajectories"]
    pooled = paths.filter(pl.col("draw") == "all")
    return [charts.trajectories(pooled, "wealth", "who", "Wealth by seat", "wealth (R.)", _chart_file(out, "wealth_paths")),
            charts.trajectories(pooled, "price", "who", "Share price by company", "share price (R.)",
                                _chart_file(out, "price_paths")),
            charts.trajectories(paths.filter(pl.col("draw") != "all"), "bank", "draw", "The bank by minor draw",
                                "bank (R.)", _chart_file(out, "bank_paths"))]


def _sweep_notes(a: Analysis) -> list[str]:
    legacy_swept = a.tables["sweep_metrics"]["key"].str.starts_with("legacies.").any()
    return [f.line() for f in find.fair_value_findings(a)] + ([sweeps.NO_LEGACY_FAIR_VALUE] if legacy_swept else [])


def _several(a: Analysis) -> bool:
    return len(a.populations) > 1


SECTIONS = [
    Part("strength", "Strength of play", "Which populations are rungs of one player at rising strength (ordered "
         "by their measured strength), which vary the style at one strength, and which mix strengths (those feed "
         "the Players section only)? Each finding is labelled by how it moves over the rungs: stable, grows, "
         "fades, reverses with strength, or weak play only; and across the styles: holds across styles or "
         "style-dependent. * marks a population where the fact is significant after Holm.",
         lambda a: [("Populations and their roles", a.tables["populations"]),
                    ("Every fact tested, by population", find.strength_table(a))],
         lambda a, out: [charts.strength_curves(find.headline_curves(a), _chart_file(out, "strength_curves"))],
         when=_several),
    Part("probes", "Probes", "Is a piece of content weak, or do the players only miss it? One seat is forced "
         "to take it (policies/probe.py); its win share is compared with the same seat's on the same seeds "
         "without the probe: higher means a blind spot of the players, lower means the content is weak.",
         lambda a: [("Probes", _probe_table(a))], notes=lambda a: [f.line() for f in find.probe_verdicts(a).values()],
         when=lambda a: not a.tables["probe_effects"].is_empty()),
    Part("sweeps", "Sweeps and fair values", "Which value of a swept rule makes the game fair? Each measure "
         "against the swept value; the fair value is where a fitted logistic curve meets its target (a seat's win "
         "share, a company's start rate), with a bootstrap interval over the games.",
         lambda a: [("Fair values", a.tables["fair_values"]), ("Measures at each point", a.tables["sweep_metrics"])],
         lambda a, out: [charts.sweep(a.tables["sweep_metrics"], _chart_file(out, "sweeps"))],
         lambda a: _sweep_notes(a), when=lambda a: "fair_values" in a.tables),
    Part("side", "Side by side", "How does each fact the report tested move from the baseline to each named "
         "variant? Both estimates with their intervals, and the difference; its interval takes the two as "
         "independent, so it is the wider, cautious one (the same seeds make the two move together; the Variants "
         "section pairs the games themselves). Win shares and edges are fractions (0.05 = 5 points).",
         lambda a: [("Every tested fact, baseline and variant", side_by_side.side_by_side(a))],
         when=lambda a: bool(side_by_side.named_variants(a))),
    Part("values", "Values by random assignment", "What extra starting cash makes a seat win its fair share? "
         "The cash is set by the rules in every game and swept on the same seeds; the value is where the seat's "
         "win share, fitted as a curve that can only rise with its cash, meets 1/N, with a bootstrap interval over "
         "games. It is estimated on the first half of the games and again on the second (independent seeds): "
         "reproduced when the second lies within the first's interval. Not monotone, flat or out of range is said "
         "so, with no value.",
         lambda a: [("Values (values.csv)", a.tables["values"])], notes=lambda a: [f.line() for f in find.value_findings(a)],
         when=lambda a: not a.tables.get("values", pl.DataFrame()).is_empty()),
    Part("glance", "Variants at a glance", "What does each rule variant do to the game: how long it lasts, how "
         "it ends, how far it gets, and which companies start and float?",
         lambda a: [("Length and end by variant", a.tables["variant_overview"]),
                    ("Companies by variant (over every draw that puts the company in play)",
                     a.tables["variant_companies"])], when=lambda a: len(a.variants) > 1),
    Part("evidence", "Evidence", "How many distinct games does each estimate rest on? A game played again with "
         "the same setup and the same actions (as a deterministic player does) is the same game: intervals and "
         "tests count distinct games, not rows.", lambda a: [("Games and distinct games", a.tables["distinct_games"])]),
    Part("seats", "Seats", "Does the seat a player starts from change the chance to win? Each seat's win share "
         "(shared wins count fractionally) against the fair share 1/N.",
         lambda a: [("Win share by seat", a.tables["seat"])],
         lambda a, out: [charts.seat_win_share(a.tables["seat"], _chart_file(out, "seat_win_share"))]),
    Part("draws", "Minor draws", "Does the pair of minors drawn change the seats' chances, the length of the "
         "game, how it ends, and how each company does (does it float, what does it earn, what is it worth at "
         "the end; RADM's final price is the merged company's value)?",
         lambda a: [("Game length by draw", a.tables["draw_summary"]), ("Win share by seat and draw", a.tables["draw_seat"]),
                    ("End reasons by draw", a.tables["draw_end_reasons"]),
                    ("Companies by draw (revenue: over games where the company floated; final price: where it "
                     "started)", a.tables["draw_companies"])],
         lambda a, out: [
             charts.heatmap(a.tables["draw_summary"], "ors", "Mean operating rounds per game by minor draw",
                            "operating rounds per game (ORs)", _chart_file(out, "draw_length")),
             charts.heatmap(a.tables["draw_seat"].filter(pl.col("seat") == 1).with_columns(
                 edge=(pl.col("win_share") - pl.col("fair")) * charts.PERCENT), "edge",
                 "Seat 1 win share above its fair share, by minor draw", "seat 1 win share - fair share (points)",
                 _chart_file(out, "draw_seat1"), centred=True)]),
    Part("strategies", "Strategies", "Do some policies or auction strategies win more than their fair share? "
         "Seats are rotated by the experiment, so a seat's advantage does not favour a strategy. Ratings pool "
         "every table of a variant (a game with k players counts as its pairs of different strategies, a tie as "
         "half a win): 0 is the average strategy, +0.7 about twice the odds of the average.",
         lambda a: _strategy_tables(a.tables), _strategy_charts),
    Part("legacies", "Legacies", "Is each Family Legacy worth what it costs, and does owning it help to win?",
         lambda a: [("Legacies by player count", a.tables["legacy_value"]),
                    ("Buyer's edge over players of the same policy, seat and draw who did not buy it (compared: "
                     "the buyers with such players; separable: false where one policy makes most purchases)",
                     a.tables["legacy_edge"])],
         lambda a, out: [charts.legacy_price_value(a.tables["legacy_value"], _chart_file(out, "legacy_price_value"))],
         lambda a: ["Net value = income earned before the legacy closed - price paid (R.); its special ability is "
                    "not in it.",
                    "Wealth edge = the buyer's final wealth - the mean final wealth of the other players of the "
                    "game, who hold the other legacies. It measures the whole effect of owning this legacy rather "
                    "than another one: price, income, the ability and what the money did. Where the wealth edge "
                    "of a legacy lies well above its net value, the difference is the best available estimate of "
                    "what its ability (and the timing of its income) is worth."]),
    Part("auctions", "Auction prices", "What do legacies sell for against their printed minimum, and how often "
         "does nobody want one until its price drops, or falls all the way to 0?",
         lambda a: [("Auction prices (R.) by legacy", a.tables["auction_prices"])]),
    Part("length", "Game length", "How long do games last (stock rounds, operating rounds) and how far do they "
         "get (final phase, phases reached, epoch)?",
         lambda a: [("Rounds and epoch reached", a.tables["game_length"]), ("Final phase", a.tables["phases"]),
                    ("Phases reached", a.tables["phases_reached"]), ("Final epoch", a.tables["epochs"])],
         lambda a, out: [charts.length_histogram(a.tables["length_distribution"], _chart_file(out, "game_length"))]),
    Part("ends", "End reasons", "How do games end (bank broken, bankruptcy, conquest), and do any run into the "
         "safety cap on ORs (a healthy ruleset never does)?", lambda a: [("End reasons", a.tables["end_reasons"])],
         lambda a, out: [charts.end_reasons(a.tables["end_reasons"], _chart_file(out, "end_reasons"))]),
    Part("trajectories", "Trajectories", "How does a game unfold, OR by OR: does a seat fall behind early or "
         "late, how do share prices climb, how fast does the bank drain in each minor draw?",
         charts=_trajectory_charts,
         notes=lambda a: ["OR 0 is the state right after the auction, OR k right after the k-th operating round. "
                          "At each OR a path counts the games still running (a company's, those in which it "
                          f"runs); it ends where fewer than {charts.TRAJECTORY_SHARE * 100:.0f} % of its games "
                          "still run, so that the longest games alone do not draw it. Wealth = cash + "
                          "certificates at their share price."],
         when=lambda a: not a.tables["trajectories"].is_empty()),  # none in a dataset older than the rounds table
    Part("variants", "Variants", "How does each rule variant change the game against the baseline, compared "
         "game by game on the same seeds? Share metrics are fractions (0.05 = 5 percentage points).",
         lambda a: [("Paired differences against the baseline", a.tables["variant_differences"])],
         lambda a, out: [charts.variant_differences(a.tables["variant_differences"],
                                                    _chart_file(out, "variant_differences"))],
         when=lambda a: len(a.variants) > 1),
    Part("errors", "Errors", "Did any game fail? Failed games are in no other table.",
         lambda a: [("Errors", a.tables["errors"])], when=lambda a: not a.tables["errors"].is_empty()),
    Part("tests", "All comparisons", f"Which tests did this report make? Every comparison below was corrected "
         f"together by Holm's method; a row is significant when its adjusted p-value is below {ALPHA}. Win-share "
         "estimates and references are fractions (0.41 = 41 %); differences are in the metric's unit; the Holm "
         "interval is the one printed beside a label.", lambda a: [("Comparisons", _comparisons_table(a))]),
]
"""The page's sections in order (after its opening: what to change, dead content,
findings about the rules, players)."""


def _sections(a: Analysis, out: Path) -> list[Section]:
    return [Section(p.key, p.title, p.question, p.tables(a), [c for c in p.charts(a, out) if c is not None],
                    p.notes(a)) for p in SECTIONS if p.when(a)]


def _comparisons_table(a: Analysis) -> pl.DataFrame:
    return pl.DataFrame({
        "section": [c.section for c in a.comparisons], "comparison": [c.subject for c in a.comparisons],
        "estimate": [c.estimate for c in a.comparisons], "estimate_low": [c.low for c in a.comparisons],
        "estimate_high": [c.high for c in a.comparisons], "holm_low": [c.holm_low for c in a.comparisons],
        "holm_high": [c.holm_high for c in a.comparisons], "reference": [c.reference for c in a.comparisons],
        "p_value": [c.p_value for c in a.comparisons], "p_holm": [c.p_holm for c in a.comparisons],
        "significant": ["yes" if c.significant else "" for c in a.comparisons],
    }, schema_overrides={"estimate": pl.Float64, "estimate_low": pl.Float64, "estimate_high": pl.Float64,
                         "holm_low": pl.Float64, "holm_high": pl.Float64,
                         "reference": pl.Float64, "p_value": pl.Float64, "p_holm": pl.Float64})


# --- formatting ------------------------------------------------------------------------------

HEADERS = {"ors": "ORs", "srs": "SRs", "draw": "minors drawn", "fair": "fair share", "p_value": "p",
           "p_holm": "p after Holm", "count": "games with it", "distinct": "distinct games",
           "distinct_share": "distinct"}
HIDDEN = ("game_count",)  # bookkeeping columns of the tables, not shown


def _number(x: float | None, rate: bool) -> str:
    if x is None or x != x:
        return "–"
    if math.isinf(x):
        return "∞" if x > 0 else "-∞"
    if rate:
        return f"{100 * x:.1f}"
    if x == round(x) or abs(x) >= 100:
        return f"{x:.0f}"
    return f"{x:.1f}" if abs(x) >= 10 else f"{x:.3g}"


def _display(df: pl.DataFrame, hidden: tuple[str, ...]) -> pl.DataFrame:
    """Strings for reading: each estimate merged with its interval, rates in %,
    p-values to two significant digits, the `hidden` key columns (a variant or population
    column where the experiment has only one) left out."""
    df = df.drop([c for c in hidden if c in df.columns])
    columns: dict[str, list[str]] = {}  # header -> cells
    for name in df.columns:
        # a rate column of its own name ("ends_by_bank_rate") reads without the suffix
        plain = name[:-len("_rate")] if name.endswith("_rate") and name not in RATE_COLUMNS else name
        label = HEADERS.get(name, plain.replace("_", " "))
        if name in HIDDEN or name.endswith(("_low", "_high")) and name.rsplit("_", 1)[0] in df.columns:
            continue
        values = df[name].to_list()
        rate = name in RATE_COLUMNS or name.endswith("_rate")
        if f"{name}_low" in df.columns:
            lows, highs = df[f"{name}_low"].to_list(), df[f"{name}_high"].to_list()
            columns[f"{label} ({'%, ' if rate else ''}{CONFIDENCE * 100:.0f} % CI)"] = [
                f"{_number(v, rate)} ({_number(lo, rate)} to {_number(hi, rate)})"
                for v, lo, hi in zip(values, lows, highs)]
        elif name.startswith("p_"):
            columns[label] = ["–" if v is None or v != v else f"{v:.2g}" for v in values]
        elif df[name].dtype.is_float():
            columns[f"{label} (%)" if rate else label] = [_number(v, rate) for v in values]
        else:
            columns[label] = ["" if v is None else str(v) for v in values]
    return pl.DataFrame(columns, schema={k: pl.String for k in columns})


def _manifest_table(a: Analysis) -> pl.DataFrame:
    """The manifest's values (counts, ruleset hashes, versions, ...) with dotted keys;
    lists of lists (e.g. seat arrangements) are left to the manifest file itself."""
    rows: list[tuple[str, str]] = []

    def walk(prefix: str, value: object) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                walk(f"{prefix}.{k}" if prefix else str(k), v)
        elif isinstance(value, list) and all(isinstance(v, dict) for v in value):
            for k, v in enumerate(value):
                walk(f"{prefix}.{k}", v)
        elif isinstance(value, list):
            if not any(isinstance(v, (dict, list)) for v in value):
                rows.append((prefix, ", ".join(map(str, value))))
        else:
            rows.append((prefix, str(value)))

    walk("", a.manifest)
    return pl.DataFrame(rows, schema={"manifest": pl.String, "value": pl.String}, orient="row")


def _html_table(df: pl.DataFrame) -> str:
    head = "".join(f"<th>{html.escape(c)}</th>" for c in df.columns)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(v)}</td>" for v in row) + "</tr>" for row in df.iter_rows())
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def _md_table(df: pl.DataFrame) -> str:
    def cell(v: str) -> str:
        return v.replace("|", "\\|")
    lines = ["| " + " | ".join(df.columns) + " |", "|" + "---|" * len(df.columns)]
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in df.iter_rows()]
    return "\n".join(lines)


STYLE = """body{font-family:system-ui,sans-serif;max-width:1200px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;font-size:0.85em;margin:0.5em 0 1.5em}th,td{border:1px solid #ccc;padding:2px 6px}
th{background:#f0f0f0}td{text-align:right}img{max-width:100%;display:block;margin:1em 0}
.question{font-style:italic}.findings li{margin:0.3em 0}.partial{background:#fde8e8;padding:0.5em}"""


def _warnings(a: Analysis, partial: str | None) -> list[str]:
    """What the reader must know before anything else: the dataset is incomplete, or
    only its sound part was read (`--allow-partial`)."""
    return [w for w in (a.incomplete, partial) if w]


def _single_keys(a: Analysis) -> tuple[str, ...]:
    """The key columns with one value in the whole experiment: not worth a column."""
    return tuple(k for k, values in (("variant", a.variants), ("population", a.populations)) if len(values) == 1)


def _html(a: Analysis, sections: list[Section], partial: str | None) -> str:
    single = _single_keys(a)
    parts = [f"<!DOCTYPE html><html><head><meta charset='utf-8'><title>Balance report: "
             f"{html.escape(a.experiment)}</title><style>{STYLE}</style></head><body>",
             f"<h1>Balance report: {html.escape(a.experiment)}</h1>",
             *[f"<p class='partial'><strong>{html.escape(line)}</strong></p>" for line in _warnings(a, partial)],
             *([f"<p class='description'>{html.escape(a.description)}</p>"] if a.description else []),
             f"<p>{html.escape(evidence(a))}</p>",
             *[part for title, lines in OPENING for part in (
                 f"<h2>{title}</h2><ul class='findings'>",
                 *[f"<li>{html.escape(line)}</li>" for line in lines(a)], "</ul>")],
             f"<p>{html.escape(_findings_note(a))}</p>",
             "<details><summary>Dataset manifest</summary>", _html_table(_manifest_table(a)), "</details>",
             "<nav><ul>", *[f"<li><a href='#{s.key}'>{html.escape(s.title)}</a></li>" for s in sections],
             "</ul></nav>"]
    for s in sections:
        parts += [f"<h2 id='{s.key}'>{html.escape(s.title)}</h2>", f"<p class='question'>{html.escape(s.question)}</p>"]
        parts += [f"<img src='data:image/png;base64,{base64.b64encode(p.read_bytes()).decode('ascii')}' "
                  f"alt='{html.escape(s.title)} chart'>" for p in s.charts]  # one self-contained file
        parts += [f"<p>{html.escape(n)}</p>" for n in s.notes]
        for caption, table in s.tables:
            parts += [f"<h3>{html.escape(caption)}</h3>", _html_table(_display(table, single))]
    parts.append("</body></html>")
    return "\n".join(parts)


def _markdown(a: Analysis, sections: list[Section], partial: str | None) -> str:
    single = _single_keys(a)
    lines = [*[line for w in _warnings(a, partial) for line in (f"**{w}**", "")],
             f"# Balance report: {a.experiment}", "", *([a.description, ""] if a.description else []),
             evidence(a), "",
             *[part for title, lines in OPENING for part in (f"## {title}", "", *[f"- {line}" for line in lines(a)], "")],
             _findings_note(a), "",
             f"Experiment: {a.experiment}. The dataset's manifest is at the end.", ""]
    for s in sections:
        lines += [f"## {s.title}", "", f"*{s.question}*", ""]
        for paragraph in [f"![{s.title}]({p.name})" for p in s.charts] + s.notes:
            lines += [paragraph, ""]
        for caption, table in s.tables:
            lines += [f"### {caption}", "", _md_table(_display(table, single)), ""]
    lines += ["## Dataset manifest", "", _md_table(_manifest_table(a)), ""]
    return "\n".join(lines)
