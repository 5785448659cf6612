"""Charts of the balance tables, written as PNG files.

Figures are built with matplotlib's object API (`Figure`, rendered by the Agg canvas),
so nothing here opens a window or touches pyplot's global state. Each function takes
a table of the analysis and a file path, writes the chart and returns the path, or
returns None when the table has nothing to draw."""
from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator

PERCENT = 100
COLOURS = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f")
MARKERS = ("o", "s", "^", "D")


def _save(fig: Figure, path: Path) -> Path:
    fig.tight_layout()
    fig.savefig(path, dpi=110, bbox_inches="tight")  # the whole figure: no label clipped at an edge
    return path


def _series(table: pl.DataFrame) -> pl.DataFrame:
    """`table` with a `series` column naming its variant and population (the groups a
    chart draws apart); "all games" where the experiment has neither."""
    parts = [c for c in ("variant", "population") if c in table.columns and table[c].n_unique() > 1]
    if not parts:
        return table.with_columns(series=pl.lit("all games"))
    return table.with_columns(series=pl.concat_str(parts, separator=", "))


def _errors(df: pl.DataFrame, name: str, scale: float = 1) -> np.ndarray:
    """Asymmetric error-bar lengths (below, above) for column `name` and its interval."""
    est = df[name].to_numpy() * scale
    return np.vstack([est - df[f"{name}_low"].to_numpy() * scale, df[f"{name}_high"].to_numpy() * scale - est])


def seat_win_share(table: pl.DataFrame, path: Path) -> Path | None:
    """Win share per seat with 95 % intervals, one panel per player count, and the
    fair share 1/N as a dashed line."""
    if table.is_empty():
        return None
    table = _series(table)
    counts = table["players"].unique().sort().to_list()
    series = table["series"].unique().sort().to_list()
    fig = Figure(figsize=(4.2 * len(counts), 4))
    for k, players in enumerate(counts):
        ax = fig.add_subplot(1, len(counts), k + 1)
        for v, name in enumerate(series):
            rows = table.filter((pl.col("players") == players) & (pl.col("series") == name))
            offset = (v - (len(series) - 1) / 2) * 0.12
            ax.errorbar(rows["seat"].to_numpy() + offset, rows["win_share"].to_numpy() * PERCENT,
                        yerr=_errors(rows, "win_share", PERCENT), fmt="o", capsize=4,
                        color=COLOURS[v % len(COLOURS)], label=name)
        ax.axhline(PERCENT / players, linestyle="--", color="grey", label=f"fair share (1/{players})")
        ax.set_xticks(range(1, players + 1))
        ax.set_title(f"{players} players")
        ax.set_xlabel("seat (1 = first in turn order)")
        ax.set_ylabel("win share (%)")
        ax.legend(fontsize="small")
    fig.suptitle("Win share by seat, with 95 % intervals")
    return _save(fig, path)


def heatmap(table: pl.DataFrame, value: str, title: str, label: str, path: Path,
            centred: bool = False) -> Path | None:
    """A minor draw × player count grid (one column per variant, population and player
    count) coloured and annotated by `value`; `centred`: a deviation whose colours are
    symmetric around 0 (so that 2- and 3-player columns are judged on one scale)."""
    if table.is_empty():
        return None
    table = _series(table)
    columns = table.select("series", "players").unique().sort("series", "players").rows()
    draws = table["draw"].unique().sort().to_list()
    grid = np.full((len(draws), len(columns)), np.nan)
    for row in table.iter_rows(named=True):
        grid[draws.index(row["draw"]), columns.index((row["series"], row["players"]))] = row[value]
    fig = Figure(figsize=(2.2 + 1.6 * len(columns), 1.6 + 0.7 * len(draws)))
    ax = fig.add_subplot()
    if centred:
        span = float(np.nanmax(np.abs(grid))) or 1.0
        image = ax.imshow(grid, cmap="RdBu_r", vmin=-span, vmax=span, aspect="auto")
        dark = np.abs(grid) > span / 2
    else:
        image = ax.imshow(grid, cmap="viridis", aspect="auto")
        dark = grid < np.nanmean(grid)
    for (r, c), x in np.ndenumerate(grid):
        if not np.isnan(x):
            ax.text(c, r, f"{x:+.3g}" if centred else f"{x:.3g}", ha="center", va="center",
                    color="white" if dark[r, c] else "black")
    several = len({v for v, _ in columns}) > 1
    ax.set_xticks(range(len(columns)), [f"{v}\n{p} players" if several else f"{p} players" for v, p in columns])
    ax.set_yticks(range(len(draws)), draws)
    ax.set_xlabel("player count")
    ax.set_ylabel("minors drawn")
    fig.colorbar(image, ax=ax, label=label)
    ax.set_title(title)
    return _save(fig, path)


def legacy_price_value(table: pl.DataFrame, path: Path) -> Path | None:
    """Mean price paid against mean income earned per legacy, with 95 % intervals;
    above the break-even line a legacy paid back more than it cost."""
    if table.is_empty():
        return None
    fig = Figure(figsize=(7, 6))
    ax = fig.add_subplot()
    table = _series(table)
    groups = table.select("series", "players").unique().sort("series", "players").rows()
    series = table["series"].unique().sort().to_list()
    counts = table["players"].unique().sort().to_list()
    for name, players in groups:  # one colour per series (as in every chart), one marker per player count
        rows = table.filter((pl.col("series") == name) & (pl.col("players") == players))
        label = f"{players} players" + (f", {name}" if name != "all games" else "")
        ax.errorbar(rows["price"].to_numpy(), rows["income_earned"].to_numpy(), xerr=_errors(rows, "price"),
                    yerr=_errors(rows, "income_earned"), fmt=MARKERS[counts.index(players) % len(MARKERS)],
                    capsize=3, color=COLOURS[series.index(name) % len(COLOURS)], label=label)
        for legacy, x, y in rows.select("legacy", "price", "income_earned").iter_rows():
            ax.annotate(legacy, (x, y), textcoords="offset points", xytext=(5, 5), fontsize="small")
    # the intervals' tops where there are intervals (a legacy sold once has none)
    top = float(np.nanmax(table.select(pl.max_horizontal("price", "income_earned", "price_high",
                                                         "income_earned_high")).to_numpy())) * 1.05
    ax.plot([0, top], [0, top], linestyle="--", color="grey", label="break-even (income = price)")
    ax.set_xlim(0, top)
    ax.set_ylim(0, top)
    ax.set_xlabel("mean price paid at auction (R.)")
    ax.set_ylabel("mean income earned before closing (R.)")
    ax.set_title("Legacies: price paid against income earned")
    ax.legend(fontsize="small")
    return _save(fig, path)


def ratings(table: pl.DataFrame, column: str, path: Path) -> Path | None:
    """Bradley-Terry strengths with 95 % bootstrap intervals, strongest on top (None
    when no strategy has a finite rating, e.g. a single strategy at every table)."""
    if not table["strength"].is_finite().any():
        return None
    table = _series(table.filter(pl.col("strength").is_finite()))
    variants = table["series"].unique().sort().to_list()
    names = table.group_by(column).agg(pl.col("strength").mean()).sort("strength")[column].to_list()
    fig = Figure(figsize=(7, 1.5 + 0.45 * len(names) * len(variants)))
    ax = fig.add_subplot()
    for v, name in enumerate(variants):
        rows = table.filter(pl.col("series") == name)
        y = np.array([names.index(n) for n in rows[column].to_list()]) + (v - (len(variants) - 1) / 2) * 0.2
        ax.errorbar(rows["strength"].to_numpy(), y, xerr=_errors(rows, "strength"), fmt="o", capsize=4,
                    color=COLOURS[v % len(COLOURS)], label=name)
    ax.axvline(0, linestyle="--", color="grey")
    ax.set_yticks(range(len(names)), names)
    ax.set_xlabel("Bradley-Terry strength (log-odds against the average, 0 = average)")
    ax.set_ylabel(column.replace("_", " "))
    ax.set_title(f"{column.replace('_', ' ').capitalize()} ratings, with 95 % bootstrap intervals")
    if len(variants) > 1:
        ax.legend(fontsize="small")
    return _save(fig, path)


def length_histogram(table: pl.DataFrame, path: Path) -> Path | None:
    """Distribution of operating rounds played per game, one panel per player count."""
    if table.is_empty():
        return None
    table = _series(table)
    counts = table["players"].unique().sort().to_list()
    variants = table["series"].unique().sort().to_list()
    fig = Figure(figsize=(4.5 * len(counts), 3.8))
    for k, players in enumerate(counts):
        ax = fig.add_subplot(1, len(counts), k + 1)
        for v, name in enumerate(variants):
            rows = table.filter((pl.col("players") == players) & (pl.col("series") == name)).sort("ors")
            ax.step(rows["ors"].to_numpy(), rows["share"].to_numpy() * PERCENT, where="mid",
                    color=COLOURS[v % len(COLOURS)], label=name)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # rounds are whole numbers
        ax.set_title(f"{players} players")
        ax.set_xlabel("operating rounds played (ORs)")
        ax.set_ylabel("games (%)")
        if len(variants) > 1:
            ax.legend(fontsize="small")
    fig.suptitle("Game length")
    return _save(fig, path)


def end_reasons(table: pl.DataFrame, path: Path) -> Path | None:
    """Share of games per end reason, stacked, one bar per variant and player count."""
    if table.is_empty():
        return None
    table = _series(table)
    bars = table.select("series", "players").unique().sort("series", "players").rows()
    reasons = table["end_reason"].unique(maintain_order=True).to_list()
    fig = Figure(figsize=(2.5 + 1.2 * len(bars), 4.5))
    ax = fig.add_subplot()
    bottom = np.zeros(len(bars))
    for r, reason in enumerate(reasons):
        share = np.array([table.filter((pl.col("series") == v) & (pl.col("players") == p)
                                       & (pl.col("end_reason") == reason))["share"].sum() for v, p in bars])
        ax.bar(range(len(bars)), share * PERCENT, bottom=bottom, color=COLOURS[r % len(COLOURS)], label=reason)
        bottom += share * PERCENT
    ax.set_xticks(range(len(bars)), [f"{p} players" + (f"\n{v}" if v != "all games" else "") for v, p in bars])
    ax.set_ylabel("games (%)")
    ax.set_xlabel("player count")
    ax.set_title("How games end")
    ax.legend(title="end reason", fontsize="small", bbox_to_anchor=(1.02, 1), loc="upper left")
    return _save(fig, path)


def variant_differences(table: pl.DataFrame, path: Path, most: int = 12) -> Path | None:
    """Paired differences against the baseline variant with 95 % intervals, one panel
    per metric (the `most` metrics with the smallest p-values), one point per variant
    and player count; share metrics in percentage points."""
    if table.is_empty():
        return None
    metrics = (table.group_by("metric").agg(pl.col("p_value").min()).sort("p_value", "metric")
               .head(most)["metric"].to_list())
    cols = min(3, len(metrics))
    rows_n = -(-len(metrics) // cols)
    fig = Figure(figsize=(4.6 * cols, 3.2 * rows_n))
    baseline = table["baseline"][0]
    for k, metric in enumerate(metrics):
        ax = fig.add_subplot(rows_n, cols, k + 1)
        rows = table.filter(pl.col("metric") == metric).sort("variant", "population", "players")
        share = metric.startswith("share of") or metric.endswith("win share")
        scale = PERCENT if share else 1
        labels = [f"{v}\n{pop + ', ' if pop else ''}{p}p"
                  for v, pop, p in rows.select("variant", "population", "players").rows()]
        ax.errorbar(range(rows.height), rows["difference"].to_numpy() * scale,
                    yerr=_errors(rows, "difference", scale), fmt="o", capsize=4)
        ax.axhline(0, linestyle="--", color="grey")
        ax.set_xticks(range(rows.height), labels, fontsize="small")
        ax.set_title(metric, fontsize="medium")
        ax.set_ylabel("difference (percentage points)" if share else f"difference in {metric}", fontsize="small")
        ax.set_xlabel("variant, player count")
    fig.suptitle(f"Differences against variant {baseline} on the same seeds, with 95 % intervals")
    return _save(fig, path)


def sweep(table: pl.DataFrame, path: Path) -> Path | None:
    """Each sweep's measures against its swept value, with 95 % bands: a row of panels
    per sweep (seat 1's win share, operating rounds, the share of games ending each way,
    and the swept legacy's buyer edge where a legacy is swept), a line per population,
    player count and value of a grid's second key."""
    if table.is_empty():
        return None
    table = _series(table.drop("variant"))  # a point's variant is its x: lines differ by population only
    sweeps = table.select("sweep", "key").unique(maintain_order=True).rows()
    legacies = any(key.startswith("legacies.") for _, key in sweeps)
    wanted = ["seat 1 win share", "ORs played", "end reasons"] + (["buyer's edge"] if legacies else [])
    fig = Figure(figsize=(4.4 * len(wanted), 3.2 * len(sweeps)))
    for r, (name, key) in enumerate(sweeps):
        rows = table.filter((pl.col("sweep") == name) & (pl.col("key") == key))
        for c, metric in enumerate(wanted):
            ax = fig.add_subplot(len(sweeps), len(wanted), r * len(wanted) + c + 1)
            swept = f"{key.split('.')[1]} buyer's edge" if key.startswith("legacies.") else None
            chosen = rows.filter(pl.col("metric").str.starts_with("share ending by") if metric == "end reasons"
                                 else pl.col("metric") == (swept if metric == "buyer's edge" else metric))
            scale = 1 if metric == "ORs played" else PERCENT
            lines = (chosen.select("metric", "series", "players", "other").unique()
                     .sort("metric", "series", "players", "other").rows())
            for k, (what, series, players, other) in enumerate(lines):
                line = chosen.filter((pl.col("metric") == what) & (pl.col("series") == series)
                                     & (pl.col("players") == players) & (pl.col("other") == other)).sort("x")
                colour = COLOURS[k % len(COLOURS)]
                label = ", ".join(p for p in (what.removeprefix("share ending by ") if metric == "end reasons" else "",
                                              series if series != "all games" else "", f"{players} players", other)
                                  if p)
                ax.plot(line["x"].to_numpy(), line["value"].to_numpy() * scale, "o-", color=colour, label=label)
                ax.fill_between(line["x"].to_numpy(), line["low"].to_numpy() * scale,
                                line["high"].to_numpy() * scale, color=colour, alpha=0.15)
            for players in chosen["players"].unique().to_list() if metric == "seat 1 win share" else ():
                ax.axhline(PERCENT / players, linestyle=":", color="grey")  # the fair share
            if metric == "buyer's edge":
                ax.axhline(0, linestyle=":", color="grey")
            ax.set_title(f"{name}: {metric}" if name else metric, fontsize="medium")
            ax.set_xlabel(key)
            ax.set_ylabel({"ORs played": "ORs", "buyer's edge": "win share points",
                           "end reasons": "games (%)"}.get(metric, "win share (%)"))
            if lines:
                ax.legend(fontsize="x-small")
    fig.suptitle("Sweeps: each measure against the swept value, with 95 % bands")
    return _save(fig, path)


def head_to_head(table: pl.DataFrame, column: str, path: Path) -> Path | None:
    """The pairwise matrix: how often the row's strategy finished ahead of the
    column's (%), one panel per variant and population; coloured by its distance from
    an even 50 % on a scale symmetric around it."""
    if table.is_empty():
        return None
    table = _series(table)
    groups = table["series"].unique().sort().to_list()
    names = sorted(set(table[column].to_list()) | set(table["opponent"].to_list()))
    size = 1.2 + 0.9 * len(names)
    fig = Figure(figsize=(size * len(groups) + 1.5, size))
    for g, name in enumerate(groups):
        ax = fig.add_subplot(1, len(groups), g + 1)
        grid = np.full((len(names), len(names)), np.nan)
        for row in table.filter(pl.col("series") == name).iter_rows(named=True):
            grid[names.index(row[column]), names.index(row["opponent"])] = row["ahead_share"] * PERCENT
        span = float(np.nanmax(np.abs(grid - 50))) if np.isfinite(grid).any() else 1.0
        image = ax.imshow(grid, cmap="RdBu_r", vmin=50 - span, vmax=50 + span)
        for (r, c), x in np.ndenumerate(grid):
            if not np.isnan(x):
                ax.text(c, r, f"{x:.0f}", ha="center", va="center", fontsize="small")
        ax.set_xticks(range(len(names)), names, rotation=40, ha="right", fontsize="small")
        ax.set_yticks(range(len(names)), names, fontsize="small")
        ax.set_xlabel("opponent")
        ax.set_title(name if name != "all games" else "", fontsize="medium")
        fig.colorbar(image, ax=ax, label="finished ahead (%)", shrink=0.8)
    fig.suptitle(f"Head to head: how often each {column.replace('_', ' ')} finished ahead of each other")
TRAJECTORY_SHARE = 0.25  # a path is drawn while at least this share of its games still run


def trajectories(table: pl.DataFrame, measure: str, lines: str, title: str, label: str, path: Path) -> Path | None:
    """Median paths of `measure` over the ORs with their 10-90 % bands (rows of
    `tables.trajectories`), one panel per variant, population and player count, one
    line per value of column `lines`; a path ends where fewer than TRAJECTORY_SHARE of
    its games still run (beyond, the longest games alone would draw it)."""
    table = table.filter(pl.col("measure") == measure)
    if table.is_empty():
        return None
    table = _series(table).with_columns(pl.col("games").max().over("series", "players", lines).alias("most"))
    table = table.filter(pl.col("games") >= TRAJECTORY_SHARE * pl.col("most"))
    series, counts = table["series"].unique().sort().to_list(), table["players"].unique().sort().to_list()
    names = table[lines].unique().sort().to_list()  # one colour per line in every panel
    fig = Figure(figsize=(4.6 * len(counts), 3.4 * len(series)))
    for (name, players), panel in table.group_by("series", "players"):
        ax = fig.add_subplot(len(series), len(counts), series.index(name) * len(counts) + counts.index(players) + 1)
        for (line,), rows in panel.sort(lines, "or").group_by(lines, maintain_order=True):
            colour = COLOURS[names.index(line) % len(COLOURS)]
            ax.fill_between(rows["or"].to_numpy(), rows["low"].to_numpy(), rows["high"].to_numpy(), color=colour,
                            alpha=0.15, linewidth=0)
            ax.plot(rows["or"].to_numpy(), rows["median"].to_numpy(), color=colour, label=line)
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))  # rounds are whole numbers
        ax.set_title(f"{players} players" + (f", {name}" if name != "all games" else ""), fontsize="medium")
        ax.set_xlabel("operating rounds played (0 = after the auction)")
        ax.set_ylabel(label)
        ax.legend(fontsize="x-small")
    # above the figure's top (the saved area grows to it): tight_layout leaves a tall grid no room
    fig.suptitle(f"{title}: median over the games, band from the 10th to the 90th percentile", y=1.0, va="bottom")
    return _save(fig, path)


def strength_curves(curves: list[tuple[str, str, pl.DataFrame]], path: Path) -> Path | None:
    """One small panel per headline finding (its title and label): the estimate in each
    rung, weakest first, with the Holm-adjusted interval printed beside the label, and
    the balanced value as a dashed line (`strength.per_rung`'s tables)."""
    curves = [c for c in curves if not c[2].is_empty()]
    if not curves:
        return None
    fig = Figure(figsize=(3.6 * len(curves), 3.4))
    for k, (title, label, rows) in enumerate(curves):
        ax = fig.add_subplot(1, len(curves), k + 1)
        x = rows["rung"].to_numpy()
        est = rows["estimate"].to_numpy() * PERCENT
        ax.errorbar(x, est, yerr=np.vstack([est - rows["low"].to_numpy() * PERCENT,
                                            rows["high"].to_numpy() * PERCENT - est]),
                    fmt="o-", capsize=4, color=COLOURS[0])
        ax.axhline(rows["reference"][0] * PERCENT, linestyle="--", color="grey")
        ax.set_xticks(x, rows["population"].to_list(), fontsize="small")
        ax.set_title(f"{title}\n[{label}]", fontsize="small")
        ax.set_xlabel("rung (weakest first)")
        ax.set_ylabel("estimate (%, Holm interval)")
    return _save(fig, path)
