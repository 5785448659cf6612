"""Balance tables from synthetic datasets: checked against direct computations over
the Parquet rows, and against effects planted in the data."""
from __future__ import annotations

import itertools
from dataclasses import replace
from collections import defaultdict

import numpy as np
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from helpers import synthetic_data
from helpers.reference_fits import per_game_bradley_terry
from menorca_sim.analysis import dataset, effects, pipeline, strategies, tables
from menorca_sim.analysis.dataset import Dataset, DatasetError
from menorca_sim.run.outcomes import TABLES


def _rows(data, table):
    return pq.read_table(data / table).to_pylist()


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    """Two variants on common seeds, the second planted 2 ORs longer; 2 and 3 players.
    The baseline ("plain") is listed first but is not first by name."""
    return synthetic_data.write_dataset(tmp_path_factory.mktemp("mixed"), synthetic_data.Spec(
        games=300, player_counts=(2, 3), variants={"plain": 0.0, "longer": 2.0}, cap_rate=0.03, seed=11))


@pytest.fixture(scope="module")
def planted(tmp_path_factory):
    return synthetic_data.write_dataset(tmp_path_factory.mktemp("planted"), synthetic_data.Spec(
        games=900, strength={"gamma": 0.5}, legacy_strength={"L9": 3.0}, seed=12))


def test_missing_or_empty_dataset_is_an_error(tmp_path):
    with pytest.raises(DatasetError, match="no such dataset folder"):
        Dataset(tmp_path / "nowhere")
    with pytest.raises(DatasetError, match="no games"):
        Dataset(tmp_path)


def test_seat_win_share_counts_shared_wins_fractionally(mixed):
    games = {g["game_id"]: g for g in _rows(mixed, "games")}
    wins, count = defaultdict(float), defaultdict(int)
    for p in _rows(mixed, "players"):
        key = (p["variant"], games[p["game_id"]]["players"], p["seat"] + 1)
        wins[key] += p["win_share"]
        count[key] += 1
    table = tables.seat_win_share(Dataset(mixed))
    assert table.height == len(wins)
    for row in table.iter_rows(named=True):
        key = (row["variant"], row["players"], row["seat"])
        assert row["wins"] == pytest.approx(wins[key]) and row["games"] == count[key]
        assert row["fair"] == pytest.approx(1 / row["players"])
        assert row["win_share_low"] < row["win_share"] < row["win_share_high"]
    # Every game hands out exactly one win, shared or not.
    per_count = table.group_by("variant", "players").agg(wins=pl.col("wins").sum(),
                                                          games=pl.col("games").first())
    assert (per_count["wins"] == per_count["games"].cast(float)).all()


def test_end_reasons_list_cap_even_when_absent(tmp_path):
    data = synthetic_data.write_dataset(tmp_path, synthetic_data.Spec(games=60, cap_rate=0.0, seed=2))
    table = tables.end_reasons(Dataset(data))
    assert table["end_reason"].to_list()[:4] == list(dataset.END_REASONS)
    cap = table.filter(pl.col("end_reason") == "cap").row(0, named=True)
    assert cap["count"] == 0 and cap["share"] == 0 and cap["share_high"] > 0
    assert table["share"].sum() == pytest.approx(1)


def test_companies_by_draw_leave_out_the_minor_not_drawn(mixed):
    table = tables.draw_companies(tables.company_groups(Dataset(mixed)))
    for draw, company in table.select("draw", "company").unique().iter_rows():
        minors = set(draw.split("+"))
        assert company in minors or company not in {"Ramaders", "Artesans", "Destil·ladors"}
    started = table.filter(pl.col("start_rate") > 0)
    assert (started["final_price"] > 0).all()


def test_games_carry_their_draw(mixed):
    expected = {(g["variant"], g["game_id"]): "+".join(sorted(g["minors"])) for g in _rows(mixed, "games")}
    games = Dataset(mixed).games
    assert dict(zip(games.select("variant", "game_id").iter_rows(), games["draw"])) == expected


def test_companies_by_draw_match_the_company_rows_in_play(mixed):
    games = {(g["variant"], g["game_id"]): g for g in _rows(mixed, "games")}
    minors = {m for g in games.values() for m in g["minors"]}
    rows = defaultdict(list)
    for c in _rows(mixed, "companies"):
        game = games[c["variant"], c["game_id"]]
        if c["company"] not in minors or c["company"] in game["minors"]:
            rows[c["variant"], game["players"], "+".join(sorted(game["minors"])), c["company"]].append(c)
    table = tables.draw_companies(tables.company_groups(Dataset(mixed)))
    assert table.height == len(rows)
    for row in table.iter_rows(named=True):
        companies = rows[row["variant"], row["players"], row["draw"], row["company"]]
        floated = [c["revenue_total"] for c in companies if c["floated"]]
        assert row["games"] == len(companies)
        assert row["start_rate"] == pytest.approx(np.mean([c["started"] for c in companies]))
        if floated:
            assert row["revenue"] == pytest.approx(np.mean(floated))
        else:
            assert row["revenue"] is None


def test_variant_overview_matches_the_game_rows(mixed):
    games = defaultdict(list)
    for g in _rows(mixed, "games"):
        games[g["variant"], g["players"]].append(g)
    table = tables.variant_overview(Dataset(mixed))
    last = max(g["epoch"] for rows in games.values() for g in rows)
    assert table.height == len(games) == 4  # two variants x two player counts
    for row in table.iter_rows(named=True):
        rows = games[row["variant"], row["players"]]
        assert row["games"] == len(rows)
        assert row["ors"] == pytest.approx(np.mean([g["ors"] for g in rows]))
        for reason in dataset.END_REASONS:
            share = np.mean([g["end_reason"] == reason for g in rows])
            assert row[f"ends_by_{reason}_rate"] == pytest.approx(share)
            assert row[f"ends_by_{reason}_rate_low"] <= share <= row[f"ends_by_{reason}_rate_high"]
        assert row[f"epoch_{last}_reached_rate"] == pytest.approx(np.mean([g["epoch"] >= last for g in rows]))
    longer = table.filter(pl.col("variant") == "longer")["ors"].to_numpy()
    plain = table.filter(pl.col("variant") == "plain")["ors"].to_numpy()
    assert (longer > plain + 1).all()  # the planted 2 ORs


def test_companies_by_variant_add_up_the_draws(mixed):
    groups = tables.company_groups(Dataset(mixed))
    by_draw = tables.draw_companies(groups)
    table = tables.variant_companies(groups)
    assert table.select("variant", "players", "company").is_duplicated().sum() == 0
    for row in table.iter_rows(named=True):
        draws = by_draw.filter((pl.col("variant") == row["variant"]) & (pl.col("players") == row["players"])
                               & (pl.col("company") == row["company"]))
        assert row["games"] == draws["games"].sum()
        assert row["float_rate"] == pytest.approx((draws["float_rate"] * draws["games"]).sum() / row["games"])
    minors = {"Ramaders", "Artesans", "Destil·ladors"}
    majors = table.filter(~pl.col("company").is_in(minors))
    assert (majors["games"] == 150).all()  # 300 games per variant over 2 player counts: all in play


def test_legacy_value_matches_the_auction_rows(mixed):
    expected = defaultdict(list)
    games = {g["game_id"]: g for g in _rows(mixed, "games")}
    for a in _rows(mixed, "auctions"):
        expected[(a["variant"], games[a["game_id"]]["players"], a["legacy"])].append(a["income_earned"] - a["price"])
    table = tables.legacy_value(Dataset(mixed))
    for row in table.iter_rows(named=True):
        values = expected[(row["variant"], row["players"], row["legacy"])]
        assert row["games"] == len(values)
        assert row["net_value"] == pytest.approx(np.mean(values))


def test_auction_prices_count_drops_to_zero(mixed):
    sales = [a for a in _rows(mixed, "auctions") if a["legacy"] == "L1"]
    table = tables.auction_prices(Dataset(mixed)).filter(pl.col("legacy") == "L1")
    assert table["games"].sum() == len(sales)
    zero = sum(a["price"] == 0 for a in sales)
    assert (table["zero_rate"] * table["games"]).sum() == pytest.approx(zero)
    assert zero > 0  # L1 (20 R.) reaches 0 after four drops in the synthetic auction


def test_variant_differences_find_the_planted_length_and_nothing_else(mixed):
    table = effects.variant_differences(Dataset(mixed))
    assert set(table["variant"]) == {"longer"} and set(table["baseline"]) == {"plain"}
    ors = table.filter(pl.col("metric") == "ORs played")
    for row in ors.iter_rows(named=True):
        assert row["pairs"] == 150  # every game of that player count has its twin on the same seed
        assert row["difference_low"] < 2 < row["difference_high"]
        assert row["p_value"] < 1e-6
    assert (table.filter(pl.col("metric") != "ORs played")["difference"] == 0).all()


def test_strategy_ratings_equal_the_per_game_fit(mixed):
    """The ratings fitted on line-up patterns equal a fit on every game's own pairs."""
    ratings = strategies.strategy_ratings(Dataset(mixed), "auction_strategy", np.random.default_rng(0))
    by_game = defaultdict(list)
    for r in _rows(mixed, "players"):
        by_game[r["variant"], r["game_id"]].append(r)
    for variant in ("plain", "longer"):
        table = ratings.filter(pl.col("variant") == variant).sort("auction_strategy")
        names = table["auction_strategy"].to_list()
        game, i, j, score = [], [], [], []
        for (v, game_id), seats in by_game.items():
            for a, b in itertools.combinations(seats, 2):
                if v == variant and a["auction_strategy"] != b["auction_strategy"]:
                    game.append(game_id), i.append(names.index(a["auction_strategy"]))
                    j.append(names.index(b["auction_strategy"]))
                    score.append(1.0 if a["rank"] < b["rank"] else 0.5 if a["rank"] == b["rank"] else 0.0)
        expected, games = per_game_bradley_terry(len(names), game, i, j, score)
        np.testing.assert_allclose(table["strength"].to_numpy(), expected, rtol=1e-12, atol=1e-14)
        assert (table["games"] == games).all()


def test_strategy_ratings_and_win_shares_find_the_weak_name(planted):
    ds = Dataset(planted)
    ratings = strategies.strategy_ratings(ds, "auction_strategy", np.random.default_rng(0))
    assert ratings["auction_strategy"].to_list()[-1] == "gamma"
    gamma = ratings.row(2, named=True)
    assert gamma["strength_high"] < 0
    shares = strategies.strategy_win_share(ds, "policy")
    assert shares.filter(pl.col("policy") == "heuristic+gamma")["win_share_high"][0] < 1 / 3
    assert (shares["seats"] == 3).all()  # names rotate over all three seats


def test_analyse_corrects_every_comparison_together(planted):
    """gamma plays at 60 % of the others' strength: a population that mixes strengths
    feeds the strategy comparisons only, and they are corrected together."""
    analysis = pipeline.analyse(Dataset(planted))
    assert analysis.roles.mixed == ("",)
    assert {c.section for c in analysis.comparisons} == {"policy"}
    assert all(not np.isnan(c.p_holm) and c.p_holm >= c.p_value for c in analysis.comparisons)
    assert all(c.holm_low <= c.low and c.holm_high >= c.high for c in analysis.comparisons)
    assert "with 3 players, policy heuristic+gamma" in {c.subject for c in analysis.significant}


def test_a_population_of_one_strength_tests_the_rules(tmp_path):
    analysis = pipeline.analyse(Dataset(synthetic_data.symmetric_control(tmp_path)))
    assert analysis.roles.styles == ("",)
    assert {c.section for c in analysis.comparisons} == {"seat", "draw", "policy", "legacy"}


def test_auction_strategies_get_their_own_tables_when_they_split_the_players_otherwise(tmp_path):
    data = synthetic_data.write_dataset(tmp_path, synthetic_data.Spec(games=60, seed=4))
    assert "auction_strategy_win_share" not in pipeline.analyse(Dataset(data)).tables
    for part in (data / "players").glob("*.parquet"):
        pl.read_parquet(part).with_columns(auction_strategy=pl.when(pl.col("seat") == 0).then(pl.lit("opener"))
                                           .otherwise("auction_strategy")).write_parquet(part)
    tables = pipeline.analyse(Dataset(data)).tables
    assert {"policy_win_share", "auction_strategy_win_share", "policy_ratings", "auction_strategy_ratings"} <= set(tables)


def test_one_grouping_is_rated_by_what_tells_the_players_apart(tmp_path):
    """Policy and auction strategy group alike in both: an auction tournament (one style,
    its auction strategies) is rated by auction strategy, a ladder of different players
    (each its own auction strategy) by policy, the name the experiment gave them."""
    data = synthetic_data.write_dataset(tmp_path, synthetic_data.Spec(games=60, seed=4))
    tables = pipeline.analyse(Dataset(data)).tables
    assert "auction_strategy_ratings" in tables and "policy_ratings" not in tables
    for part in (data / "players").glob("*.parquet"):
        pl.read_parquet(part).with_columns(policy=pl.format("player_{}", pl.col("auction_strategy"))).write_parquet(part)
    tables = pipeline.analyse(Dataset(data)).tables
    assert "policy_ratings" in tables and "auction_strategy_ratings" not in tables
    assert all(p.startswith("player_") for p in tables["policy_ratings"]["policy"])


def test_a_dataset_with_only_games_still_analyses(tmp_path):
    data = synthetic_data.write_dataset(tmp_path, synthetic_data.Spec(games=30, seed=5))
    for table in ("players", "companies", "auctions"):
        for part in (data / table).glob("*.parquet"):
            part.unlink()
    analysis = pipeline.analyse(Dataset(data))
    assert analysis.comparisons == []
    assert analysis.tables["seat"].is_empty() and analysis.tables["auction_strategy_ratings"].is_empty()
    assert analysis.tables["game_length"]["games"].sum() == 30


def test_planted_duplicate_games_widen_the_intervals(tmp_path):
    """600 games that are 150 distinct games played 4 times each carry the evidence of
    150 games: their intervals are about twice as wide as 600 distinct games' and as
    wide as the 150 distinct games' alone."""
    spec = synthetic_data.Spec(games=600, player_counts=(2,), seat_strength={2: (1.5, 1.0)}, seed=21)
    repeated = Dataset(synthetic_data.write_dataset(tmp_path / "rep", replace(spec, repeats=4)))
    distinct = Dataset(synthetic_data.write_dataset(tmp_path / "dist", spec))
    alone = Dataset(synthetic_data.write_dataset(tmp_path / "alone", replace(spec, games=150)))

    def width(ds, table):
        row = table(ds).filter(pl.col("seat") == 1).row(0, named=True)
        return row["win_share_high"] - row["win_share_low"], row

    w_rep, rep_row = width(repeated, tables.seat_win_share)
    w_dist, _ = width(distinct, tables.seat_win_share)
    w_alone, alone_row = width(alone, tables.seat_win_share)
    assert (rep_row["games"], rep_row["distinct"]) == (600, 150)
    assert w_rep > 1.8 * w_dist
    assert w_rep == pytest.approx(w_alone, rel=0.02) and rep_row["win_share"] == pytest.approx(alone_row["win_share"])
    assert rep_row["p_value"] == pytest.approx(alone_row["p_value"], rel=0.05)
    assert tables.distinct_games(repeated)["distinct"].to_list() == [150]
    ends = tables.end_reasons(repeated).filter(pl.col("end_reason") == "bank").row(0, named=True)
    ends_alone = tables.end_reasons(alone).filter(pl.col("end_reason") == "bank").row(0, named=True)
    assert ends["share_high"] - ends["share_low"] == pytest.approx(ends_alone["share_high"] - ends_alone["share_low"],
                                                                   rel=0.02)
    lengths = tables.game_length(repeated).row(0, named=True)
    lengths_alone = tables.game_length(alone).row(0, named=True)
    assert lengths["ors_high"] - lengths["ors_low"] == pytest.approx(lengths_alone["ors_high"] - lengths_alone["ors_low"],
                                                                     rel=0.1)


def test_a_legacy_its_strong_seat_always_buys_is_not_reported_as_strong(tmp_path):
    """Seat 1 of 2-player games is planted strong and always buys L2, which does
    nothing: the raw win share of L2's buyers is far above the fair half, the edge
    against players of the same seat and draw is not."""
    data = synthetic_data.write_dataset(tmp_path, synthetic_data.Spec(
        games=1200, player_counts=(2,), seat_strength={2: (2.5, 1.0)}, legacy_buyer={"L2": 0}, seed=31))
    analysis = pipeline.analyse(Dataset(data))
    raw = analysis.tables["legacy_value"].filter(pl.col("legacy") == "L2").row(0, named=True)
    assert raw["win_share_low"] > 0.6 and raw["p_value"] < 1e-6
    edge = analysis.tables["legacy_edge"].filter(pl.col("legacy") == "L2").row(0, named=True)
    assert edge["edge_low"] < 0 < edge["edge_high"]
    assert not any(c.section == "legacy" and "L2" in c.subject for c in analysis.significant)
    assert any(c.section == "seat" for c in analysis.significant)  # the seat effect itself is found


def test_head_to_head_counts_who_finished_ahead_of_whom(planted):
    """gamma plays at half strength: every other name finishes ahead of it more often than not."""
    table = strategies.head_to_head(Dataset(planted), "auction_strategy")
    assert set(table["auction_strategy"]) == {"alpha", "beta", "gamma"}
    vs_gamma = table.filter(pl.col("opponent") == "gamma")
    assert (vs_gamma["ahead_share_low"] > 0.5).all()
    pair = table.filter((pl.col("auction_strategy") == "alpha") & (pl.col("opponent") == "beta")).row(0, named=True)
    back = table.filter((pl.col("auction_strategy") == "beta") & (pl.col("opponent") == "alpha")).row(0, named=True)
    assert pair["ahead_share"] + back["ahead_share"] == pytest.approx(1) and pair["games"] == back["games"]
def test_trajectories_are_median_paths_with_bands(tmp_path):
    """Rounds rows whose values spread evenly over five levels per OR (k % 5 in game k):
    the median is the middle level, the band the lowest and the highest; a company's path
    counts the games in which it runs, and a closed company's row (no price) none."""
    data = synthetic_data.write_dataset(tmp_path, synthetic_data.Spec(games=60, player_counts=(2,), seed=13))
    rows = []
    for k, (game_id, variant) in enumerate(pl.read_parquet(data / "games").select("game_id", "variant").rows()):
        for o in range(3):
            head = {"game_id": game_id, "variant": variant, "or": o, "phase": "2H", "bank": 1000 - 100 * o - k % 5}
            rows += [head | {"kind": "player", "seat": s, "cash": 0, "wealth": 100 * s + 10 * o + k % 5}
                     for s in range(2)]
            rows += [head | {"kind": "company", "company": "RNC", "cash": 0, "price": 50 + o + k % 5, "revenue": 0}
                     for _ in range(k % 2)]  # RNC runs in every other game
            rows.append(head | {"kind": "company", "company": "Ramaders", "revenue": 40})  # closed in this OR
    for part in (data / "rounds").glob("*.parquet"):
        part.unlink()
    pq.write_table(pa.Table.from_pylist(rows, schema=TABLES["rounds"]), data / "rounds" / "part-0.parquet")
    paths = tables.trajectories(Dataset(data))
    pooled = {(r["measure"], r["who"], r["or"]): (r["games"], r["median"], r["low"], r["high"])
              for r in paths.filter(pl.col("draw") == "all").iter_rows(named=True)}
    assert set(pooled) == {(m, w, o) for m, w in (("wealth", "seat 1"), ("wealth", "seat 2"), ("price", "RNC"),
                                                  ("bank", "bank")) for o in range(3)}
    for o in range(3):
        assert pooled[("wealth", "seat 2", o)] == (60, 100 + 10 * o + 2, 100 + 10 * o, 100 + 10 * o + 4)
        assert pooled[("bank", "bank", o)] == (60, 1000 - 100 * o - 2, 1000 - 100 * o - 4, 1000 - 100 * o)
        assert pooled[("price", "RNC", o)][0] == 30
    by_draw = paths.filter((pl.col("draw") != "all") & (pl.col("measure") == "bank"))
    assert by_draw["draw"].n_unique() == 3 and (by_draw["games"] == 20).all()


def test_phases_reached_count_every_later_phase_even_where_a_variant_moves_an_epoch(tmp_path):
    data = synthetic_data.write_dataset(tmp_path, synthetic_data.Spec(
        games=120, player_counts=(2,), variants={"a": 0.0, "b": 0.0}, seed=13))
    for part in (data / "games").glob("*.parquet"):  # variant b puts 7H in epoch 4 (as epoch4_at_9H moves 8H)
        df = pl.read_parquet(part)
        df.with_columns(epoch=pl.when((pl.col("variant") == "b") & (pl.col("phase") == "7H")).then(4)
                        .otherwise("epoch")).write_parquet(part)
    ds = Dataset(data)
    table = tables.phases_reached(ds)
    games = ds.games.filter(pl.col("variant") == "b")
    order = ["6H", "7H", "8H", "9H"]  # the phases the synthetic games end in
    later = games.filter(pl.col("phase").is_in(order[order.index("7H"):])).height
    row = table.filter((pl.col("variant") == "b") & (pl.col("phase") == "7H")).row(0, named=True)
    assert table.filter(pl.col("variant") == "b")["phase"].to_list() == order
    assert (row["reached"], row["games"]) == (later, games.height)
