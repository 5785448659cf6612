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

import polars as pl

from menorca_sim.analysis import charts
from menorca_sim.analysis import findings as find
from menorca_sim.analysis.aggregate import Analysis, Dataset, DatasetError, analyse
from menorca_sim.analysis.stats import ALPHA, CONFIDENCE

CHART_FILES = {name: f"{name}.png" for name in (
    "seat_win_share", "draw_length", "draw_seat1", "auction_strategy_ratings", "policy_ratings",
    "legacy_price_value", "game_length", "end_reasons", "variant_differences", "sweeps",
    "auction_strategy_head_to_head", "policy_head_to_head", "wealth_paths", "price_paths", "bank_paths")}
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
    (out / SOURCE_FILE).write_text(f"{Path(source or ds.path).resolve()}\n", encoding="utf-8")
    return ReportFiles(index, summary, written)


def market_top(ds: Dataset) -> int | None:
    """The market's highest value, where the dataset was played with the default rules
    (the manifest names only the ruleset's file, which may be anywhere)."""
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


def dead(analysis: Analysis) -> list[str]:
    """Content the games never or rarely use (`findings.dead_content`), first in the report."""
    lines = [f.line() for f in find.dead_content(analysis)]
    return lines or [f"Nothing: every company starts and floats, every legacy sells above its minimum and "
                     f"every ending happens in more than {find.RARE * 100:.0f} % of the games."]


def findings(analysis: Analysis) -> list[str]:
    """The findings, one sentence per fact (`analysis.findings`), then notes on capped
    and failed games."""
    lines = [f.line() for f in find.findings(analysis)]
    if not lines:
        lines.append(f"No imbalance was found at the {ALPHA * 100:.0f} % level after Holm correction "
                     f"across the report's {len(analysis.comparisons)} comparisons.")
    ends = analysis.tables["end_reasons"].filter(pl.col("end_reason") == "cap")
    capped = int(ends["count"].sum())
    if capped:
        lines.append(f"{capped} of {int(ends['games'].sum())} games ended at the safety cap on ORs "
                     "instead of a rule's end condition: see End reasons.")
    failed = int(analysis.tables["errors"]["games"].sum())
    if failed:
        lines.append(f"{failed} games failed with an error and are missing from every table: see Errors.")
    return lines


def _findings_note(a: Analysis) -> str:
    return (f"Intervals are {CONFIDENCE * 100:.0f} % intervals. A result is listed when it stays significant at "
            f"the {ALPHA * 100:.0f} % level after Holm correction across all {len(a.comparisons)} comparisons of "
            "this report (see All comparisons); the sample sizes were fixed by the experiment in advance.")


def _sections(a: Analysis, out: Path) -> list[Section]:
    t = a.tables

    def chart(produced: Path | None) -> list[Path]:
        return [produced] if produced is not None else []

    sections = [
        Section("evidence", "Evidence", "How many distinct games does each estimate rest on? A game played "
                "again with the same setup and the same actions (as a deterministic player does) is the same "
                "game: intervals and tests count distinct games, not rows.",
                [("Games and distinct games", t["distinct_games"])]),
        Section("seats", "Seats", "Does the seat a player starts from change the chance to win? Each seat's "
                "win share (shared wins count fractionally) against the fair share 1/N.",
                [("Win share by seat", t["seat"])],
                chart(charts.seat_win_share(t["seat"], out / CHART_FILES["seat_win_share"]))),
        Section("draws", "Minor draws", "Does the pair of minors drawn change the seats' chances, the length "
                "of the game, how it ends, and how each company does (does it float, what does it earn, "
                "what is it worth at the end; RADM's final price is the merged company's value)?",
                [("Game length by draw", t["draw_summary"]), ("Win share by seat and draw", t["draw_seat"]),
                 ("End reasons by draw", t["draw_end_reasons"]),
                 ("Companies by draw (revenue: over games where the company floated; final price: where "
                  "it started)", t["draw_companies"])],
                chart(charts.heatmap(t["draw_summary"], "ors", "Mean operating rounds per game by minor draw",
                                     "operating rounds per game (ORs)", out / CHART_FILES["draw_length"])) +
                chart(charts.heatmap(t["draw_seat"].filter(pl.col("seat") == 1).with_columns(
                    edge=(pl.col("win_share") - pl.col("fair")) * charts.PERCENT), "edge",
                    "Seat 1 win share above its fair share, by minor draw",
                    "seat 1 win share - fair share (points)", out / CHART_FILES["draw_seat1"], centred=True))),
        Section("strategies", "Strategies", "Do some policies or auction strategies win more than their fair "
                "share? Seats are rotated by the experiment, so a seat's advantage does not favour a strategy. "
                "Ratings pool every table of a variant (a game with k players counts as its pairs of "
                "different strategies, a tie as half a win): 0 is the average strategy, +0.7 about twice "
                "the odds of the average.",
                [(f"Win share by {c.split('_win_share')[0].replace('_', ' ')}", t[c])
                 for c in ("policy_win_share", "auction_strategy_win_share") if c in t] +
                [(f"Bradley-Terry ratings by {c.split('_ratings')[0].replace('_', ' ')}", t[c])
                 for c in ("auction_strategy_ratings", "policy_ratings") if c in t] +
                [(f"Head to head by {c.split('_head_to_head')[0].replace('_', ' ')} (ahead share: how often it "
                  "finished ahead of the opponent; win share: its win share at tables with that opponent)", t[c])
                 for c in ("auction_strategy_head_to_head", "policy_head_to_head") if c in t],
                [p for c in ("auction_strategy", "policy") if f"{c}_ratings" in t
                 for p in chart(charts.ratings(t[f"{c}_ratings"], c, out / CHART_FILES[f"{c}_ratings"]))] +
                [p for c in ("auction_strategy", "policy") if f"{c}_head_to_head" in t
                 for p in chart(charts.head_to_head(t[f"{c}_head_to_head"], c,
                                                    out / CHART_FILES[f"{c}_head_to_head"]))]),
        Section("legacies", "Legacies", "Is each Family Legacy worth what it costs, and does owning it help "
                "to win?",
                [("Legacies by player count", t["legacy_value"])],
                chart(charts.legacy_price_value(t["legacy_value"], out / CHART_FILES["legacy_price_value"])),
                ["Net value = income earned before the legacy closed - price paid (R.); its special ability "
                 "is not in it.",
                 "Wealth edge = the buyer's final wealth - the mean final wealth of the other players of the "
                 "game, who hold the other legacies. It measures the whole effect of owning this legacy "
                 "rather than another one: price, income, the ability and what the money did. The ability's "
                 "effect is not recorded on its own; where the wealth edge of a legacy lies well above its "
                 "net value, the difference is the best available estimate of what its ability (and the "
                 "timing of its income) is worth."]),
        Section("auctions", "Auction prices", "What do legacies sell for against their printed minimum, and how "
                "often does nobody want one until its price drops, or falls all the way to 0?",
                [("Auction prices (R.) by legacy", t["auction_prices"])]),
        Section("length", "Game length", "How long do games last (stock rounds, operating rounds) and how far "
                "do they get (final phase, epoch)?",
                [("Rounds and epoch reached", t["game_length"]), ("Final phase", t["phases"]),
                 ("Final epoch", t["epochs"])],
                chart(charts.length_histogram(t["length_distribution"], out / CHART_FILES["game_length"]))),
        Section("ends", "End reasons", "How do games end (bank broken, bankruptcy, conquest), and do any run "
                "into the safety cap on ORs (a healthy ruleset never does)?",
                [("End reasons", t["end_reasons"])],
                chart(charts.end_reasons(t["end_reasons"], out / CHART_FILES["end_reasons"]))),
    ]
    paths = t["trajectories"]
    if not paths.is_empty():  # a dataset written before the rounds table has none
        pooled = paths.filter(pl.col("draw") == "all")
        sections.append(Section(
            "trajectories", "Trajectories", "How does a game unfold, OR by OR: does a seat fall behind early "
            "or late, how do share prices climb, how fast does the bank drain in each minor draw?",
            charts=chart(charts.trajectories(pooled, "wealth", "who", "Wealth by seat", "wealth (R.)",
                                             out / CHART_FILES["wealth_paths"])) +
            chart(charts.trajectories(pooled, "price", "who", "Share price by company", "share price (R.)",
                                      out / CHART_FILES["price_paths"])) +
            chart(charts.trajectories(paths.filter(pl.col("draw") != "all"), "bank", "draw",
                                      "The bank by minor draw", "bank (R.)", out / CHART_FILES["bank_paths"])),
            notes=["OR 0 is the state right after the auction, OR k right after the k-th operating round. At "
                   "each OR a path counts the games still running (a company's, those in which it runs); it "
                   f"ends where fewer than {charts.TRAJECTORY_SHARE * 100:.0f} % of its games still run, so that the "
                   "longest games alone do not draw it. Wealth = cash + certificates at their share price."]))
    if len(a.variants) > 1:
        sections.insert(0, Section(
            "glance", "Variants at a glance", "What does each rule variant do to the game: how long it "
            "lasts, how it ends, how far it gets, and which companies start and float?",
            [("Length and end by variant", t["variant_overview"]),
             ("Companies by variant (over every draw that puts the company in play)", t["variant_companies"])]))
        sections.append(Section(
            "variants", "Variants", "How does each rule variant change the game against the baseline, "
            "compared game by game on the same seeds? Share metrics are fractions (0.05 = 5 percentage "
            "points).",
            [("Paired differences against the baseline", t["variant_differences"])],
            chart(charts.variant_differences(t["variant_differences"],
                                             out / CHART_FILES["variant_differences"]))))
    if "fair_values" in t:
        sections.insert(0, Section(
            "sweeps", "Sweeps and fair values", "Which value of a swept rule makes the game fair? Each measure "
            "against the swept value; the fair value is where a fitted curve (logistic for a win share or a rate, "
            "linear for a buyer's edge) meets its target, with a bootstrap interval over the games.",
            [("Fair values", t["fair_values"]), ("Measures at each point", t["sweep_metrics"])],
            chart(charts.sweep(t["sweep_metrics"], out / CHART_FILES["sweeps"])),
            [f.line() for f in find.fair_value_findings(a)]))
    probes = t["probe_effects"]
    if not probes.is_empty():
        verdicts = find.probe_verdicts(a)
        labels = [verdicts[k].label if k in verdicts else "not tested"
                  for k in probes.select("variant", "players", "probe").rows()]
        sections.insert(0, Section(
            "probes", "Probes", "Is a piece of content weak, or do the players only miss it? One seat is forced "
            "to take it (policies/probe.py); its win share is compared with the same seat's on the same seeds "
            "without the probe: higher means a blind spot of the players, lower means the content is weak.",
            [("Probes", probes.with_columns(verdict=pl.Series(labels, dtype=pl.String)))],
            notes=[f.line() for f in verdicts.values()]))
    if len(a.populations) > 1:
        sections.insert(0, Section(
            "robustness", "Robustness across players", "Does each fact hold whoever plays? A fact is robust "
            "when it is significant (after Holm) in every player population in one direction, "
            "player-dependent when only in some, not found when in none. * marks a population where it is "
            "significant; estimates are win shares or differences as in the tables below.",
            [("Every fact tested, by population", find.robustness_table(a))]))
    if not t["errors"].is_empty():
        sections.append(Section("errors", "Errors", "Did any game fail? Failed games are in no other table.",
                                [("Errors", t["errors"])]))
    sections.append(Section(
        "tests", "All comparisons", f"Which tests did this report make? Every comparison below was corrected "
        f"together by Holm's method; a row is significant when its adjusted p-value is below {ALPHA}. "
        "Win-share estimates and references are fractions (0.41 = 41 %); differences are in the metric's unit.",
        [("Comparisons", _comparisons_table(a))]))
    return sections


def _comparisons_table(a: Analysis) -> pl.DataFrame:
    return pl.DataFrame({
        "section": [c.section for c in a.comparisons], "comparison": [c.subject for c in a.comparisons],
        "estimate": [c.estimate for c in a.comparisons], "estimate_low": [c.low for c in a.comparisons],
        "estimate_high": [c.high for c in a.comparisons], "reference": [c.reference for c in a.comparisons],
        "p_value": [c.p_value for c in a.comparisons], "p_holm": [c.p_holm for c in a.comparisons],
        "significant": ["yes" if c.significant else "" for c in a.comparisons],
    }, schema_overrides={"estimate": pl.Float64, "estimate_low": pl.Float64, "estimate_high": pl.Float64,
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
             "<h2>Dead content</h2><ul class='findings'>",
             *[f"<li>{html.escape(line)}</li>" for line in dead(a)], "</ul>",
             "<h2>Findings</h2><ul class='findings'>",
             *[f"<li>{html.escape(line)}</li>" for line in findings(a)], "</ul>",
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
             "## Dead content", "", *[f"- {line}" for line in dead(a)], "",
             "## Findings", "", *[f"- {line}" for line in findings(a)], "", _findings_note(a), "",
             f"Experiment: {a.experiment}. The dataset's manifest is at the end.", ""]
    for s in sections:
        lines += [f"## {s.title}", "", f"*{s.question}*", ""]
        for paragraph in [f"![{s.title}]({p.name})" for p in s.charts] + s.notes:
            lines += [paragraph, ""]
        for caption, table in s.tables:
            lines += [f"### {caption}", "", _md_table(_display(table, single)), ""]
    lines += ["## Dataset manifest", "", _md_table(_manifest_table(a)), ""]
    return "\n".join(lines)
