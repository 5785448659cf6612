"""Experiment files: what a valid file plans, and the one-line error of each bad one."""
from __future__ import annotations

import collections
import itertools
import re
import subprocess
import sys
from pathlib import Path

import pytest
from helpers.experiment_files import study_toml

from menorca_sim.rules import default_ruleset_path, load_ruleset
from menorca_sim.run.experiment import ExperimentError, load_experiment

RULES = load_ruleset()
MINORS = RULES.minors

GOOD = study_toml("study", 7)


def good(top: str) -> str:
    """GOOD with top-level keys added (before the tables)."""
    return GOOD.replace("[policies.seats]", top + "[policies.seats]")


def write(tmp_path: Path, text: str, name: str = "exp.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_cells_are_player_counts_times_minor_draws(tmp_path):
    exp = load_experiment(write(tmp_path, GOOD))
    draws = list(itertools.combinations(MINORS, RULES.setup.minors_in_play))
    assert len(draws) == 3
    assert [(c.players, c.minors) for c in exp.cells] == [(p, d) for p in (2, 3) for d in draws]
    assert exp.cells[0].name == f"p2|{MINORS[0]}+{MINORS[1]}"
    assert exp.total_games == 6 * 6 and [v.name for v in exp.variants] == [""]


def test_a_cell_has_the_same_games_in_every_experiment(tmp_path):
    big = load_experiment(write(tmp_path, GOOD, "big.toml"))
    text = GOOD.replace("players = [2, 3]", "players = [3]").replace('2 = ["a", "b"]', "")
    small = load_experiment(write(tmp_path, text.replace('minors = "all"', f'minors = [["{MINORS[2]}", "{MINORS[0]}"]]')))
    cell = next(c for c in big.cells if c.players == 3 and set(c.minors) == {MINORS[0], MINORS[2]})
    from_big = [g for g in big.games_in(0, big.total_games) if g.cell == cell.name]
    assert [(g.cell, g.seed, g.policies) for g in small.games_in(0, small.total_games)] == \
        [(g.cell, g.seed, g.policies) for g in from_big]
    assert len({g.seed for g in big.games_in(0, big.total_games)}) == big.total_games


def test_rotate_seats_every_arrangement_equally_often(tmp_path):
    exp = load_experiment(write(tmp_path, GOOD))
    p3 = [exp.game(3 * 6 + i) for i in range(6)]  # first 3-player cell
    assert {g.cell for g in p3} == {exp.cells[3].name}
    assert sorted(g.policies for g in p3) == sorted(itertools.permutations(("a", "b", "c")))
    p2 = collections.Counter(exp.game(i).policies for i in range(6))
    assert p2 == {("a", "b"): 3, ("b", "a"): 3}


def test_repeated_policies_rotate_over_distinct_arrangements(tmp_path):
    text = GOOD.replace('3 = ["a", "b", "c"]', '3 = ["h", "r", "r"]').replace('2 = ["a", "b"]', "")
    text = text.replace("games = 6", "games = 3").replace("players = [2, 3]", "players = [3]")
    exp = load_experiment(write(tmp_path, text))
    assert sorted(exp.game(i).policies for i in range(3)) == [("h", "r", "r"), ("r", "h", "r"), ("r", "r", "h")]


def test_random_seating_is_a_function_of_the_game(tmp_path):
    exp = load_experiment(write(tmp_path, good('seating = "random"\n').replace("games = 6", "games = 600")))
    again = load_experiment(write(tmp_path, good('seating = "random"\n').replace("games = 6", "games = 600")))
    seatings = [exp.game(3 * 600 + i).policies for i in range(600)]
    assert seatings == [again.game(3 * 600 + i).policies for i in range(600)]
    counts = collections.Counter(seatings)
    assert len(counts) == 6 and min(counts.values()) > 60  # each of 6 seatings near 100


def test_variants_share_seeds_and_merge_overrides(tmp_path):
    text = GOOD + """
[overrides]
"markers.market_bonus" = 15
[variants.low]
[variants.high.markers]
market_bonus = 30
"""
    exp = load_experiment(write(tmp_path, text))
    low, high = exp.variants
    assert (low.name, low.overrides, high.overrides) == ("low", {"markers.market_bonus": 15},
                                                         {"markers.market_bonus": 30})
    assert low.ruleset_sha256 != high.ruleset_sha256
    per_variant = len(exp.cells) * exp.games
    for i in range(per_variant):
        a, b = exp.game(i), exp.game(per_variant + i)
        assert (a.variant, b.variant) == ("low", "high")
        assert (a.cell, a.game_index, a.seed, a.policies) == (b.cell, b.game_index, b.seed, b.policies)
    assert len({exp.game(i).seed for i in range(per_variant)}) == per_variant


def test_pool_seats_different_policies(tmp_path):
    text = GOOD.split("[policies.seats]")[0].replace("games = 6", "games = 24") + \
        '[policies]\npool = ["w", "x", "y", "z"]\n'
    exp = load_experiment(write(tmp_path, text))
    assert len(exp.populations[0].arrangements[3]) == 24 and len(exp.populations[0].arrangements[2]) == 12
    assert all(len(set(g.policies)) == g.players for g in exp.games_in(0, exp.total_games))


def test_one_policy_name_fills_every_seat_and_explicit_minors(tmp_path):
    text = f"""
name = "all-h"
seed = 1
games = 4
players = [2, 3]
minors = [["{MINORS[2]}", "{MINORS[0]}"]]
policies = {{ seats = "heuristic" }}
"""
    exp = load_experiment(write(tmp_path, text))
    assert [c.name for c in exp.cells] == [f"p2|{MINORS[0]}+{MINORS[2]}", f"p3|{MINORS[0]}+{MINORS[2]}"]
    assert exp.game(5).policies == ("heuristic",) * 3


def test_random_minors_and_ruleset_path_and_games_override(tmp_path):
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "mine.toml").write_bytes(default_ruleset_path().read_bytes())
    text = good('ruleset = "rules/mine.toml"\n').replace('minors = "all"', 'minors = "random"')
    exp = load_experiment(write(tmp_path, text), games=12)
    assert [c.name for c in exp.cells] == ["p2|random", "p3|random"] and exp.game(0).minors is None
    assert exp.ruleset_path == str((tmp_path / "rules" / "mine.toml").resolve())
    assert exp.total_games == 24


def test_policy_check_failure_names_the_seat(tmp_path):
    def check(spec, ruleset):
        if spec == "c":
            raise KeyError("no policy named 'c'")
    with pytest.raises(ExperimentError) as err:
        load_experiment(write(tmp_path, GOOD), check_policy=check)
    assert str(err.value) == "exp.toml: policies.seats.3[2]: policy 'c': KeyError: \"no policy named 'c'\""


BAD = [
    ("name = \n", re.compile(r"exp.toml: not valid TOML \(.*\)")),
    (GOOD.replace('name = "study"\n', ""), "exp.toml: name: missing"),
    (GOOD.replace('name = "study"', 'name = "a/b"'), "exp.toml: name: 'a/b' cannot name a file (no '/', '\\' or NUL)"),
    (GOOD.replace('name = "study"', 'name = "../evil/x"'),
     "exp.toml: name: '../evil/x' cannot name a file (empty, or a leading '.')"),
    (GOOD.replace('name = "study"', 'name = "a\\u0000b"'), "exp.toml: name: 'a\\x00b' cannot name a file (no '/', '\\' or NUL)"),
    (GOOD.replace("games = 6", "games = 2400000000"),
     "exp.toml: games: 2400000000 games per cell, variant and population make 14,400,000,000 games in all; "
     "a dataset holds at most 100,000,000"),
    (good("gmaes = 3\n"), "exp.toml: gmaes: unknown key (expected one of: description, games, minors, name, "
                           "overrides, plan, players, policies, populations, record_leaves, record_states, ruleset, seating, seed, "
                           "sweep, sweeps, variants)"),
    (good('record_states = "yes"\n'), "exp.toml: record_states: expected true or false, got 'yes'"),
    (good('record_leaves = "deep"\n'), "exp.toml: record_leaves: leaves are rows of the states table: set "
                                       "record_states = true too"),
    (good('record_states = true\nrecord_leaves = true\n'), "exp.toml: record_leaves: expected a non-empty string, got true (a boolean)"),
    (good('record_states = true\nrecord_leaves = "wide"\n'),
     "exp.toml: record_leaves: expected one of deep, principal, got 'wide'"),
    (GOOD.replace("games = 6", "games = 0"), "exp.toml: games: expected a positive integer, got 0"),
    (GOOD.replace("games = 6", "games = 8"), 'exp.toml: games: 8 is not a multiple of 6, the number of seatings of '
                                              '3 players (seating = "rotate" plays each equally often)'),
    (GOOD.replace("seed = 7", "seed = -1"), "exp.toml: seed: expected an integer >= 0, got -1"),
    (GOOD.replace("seed = 7", 'seed = "x"'), "exp.toml: seed: expected an integer, got 'x'"),
    (GOOD.replace("players = [2, 3]", "players = [2, 5]"),
     "exp.toml: players: the ruleset has no 5-player setup (it has 2, 3)"),
    (GOOD.replace("players = [2, 3]", "players = [2, 2]"), "exp.toml: players: duplicate player count in [2, 2]"),
    (GOOD.replace('minors = "all"', f'minors = [["{MINORS[0]}", "{MINORS[1]}"], ["{MINORS[1]}", "{MINORS[0]}"]]'),
     f"exp.toml: minors[1]: draw ['{MINORS[1]}', '{MINORS[0]}'] given twice"),
    (GOOD.replace('minors = "all"', 'minors = "some"'),
     f'exp.toml: minors: expected "all", "random" or a list of draws like [["{MINORS[0]}", "{MINORS[1]}"]], got \'some\''),
    (GOOD.replace('minors = "all"', f'minors = [["{MINORS[0]}", "Pescadors"]]'),
     f"exp.toml: minors[0]: unknown minor 'Pescadors' (the ruleset has {', '.join(MINORS)})"),
    (GOOD.replace('minors = "all"', f'minors = [["{MINORS[0]}", "{MINORS[0]}"]]'),
     f"exp.toml: minors[0]: a draw is 2 different minors, got ['{MINORS[0]}', '{MINORS[0]}']"),
    (good('seating = "shuffle"\n'), "exp.toml: seating: expected one of random, rotate, got 'shuffle'"),
    (GOOD.split("[policies.seats]")[0], "exp.toml: policies: missing"),
    (GOOD.replace('3 = ["a", "b", "c"]', '3 = ["a", "b"]'), "exp.toml: policies.seats.3: 2 policies for 3 seats"),
    (GOOD.replace('3 = ["a", "b", "c"]', ""), "exp.toml: policies.seats: no seat list for 3 players"),
    (GOOD + '4 = ["a", "b", "c", "d"]\n', "exp.toml: policies.seats.4: not a player count of this experiment (2, 3)"),
    (GOOD.split("[policies.seats]")[0] + '[policies]\nseats = "a"\npool = ["a", "b", "c"]\n',
     "exp.toml: policies: give exactly one of seats (a policy per seat) or pool (policies to seat from)"),
    (GOOD.split("[policies.seats]")[0] + '[policies]\npool = ["a", "b"]\n',
     "exp.toml: policies.pool: 2 policies cannot fill 3 seats with different ones"),
    (GOOD.split("[policies.seats]")[0] + '[policies]\npool = ["a", 3]\n',
     "exp.toml: policies.pool: expected a non-empty list of policy names, got ['a', 3]"),
    (GOOD + '[overrides]\n"markers.bonus" = 20\n',
     re.compile(r"exp.toml: overrides: menorca_v11.toml: .*markers.bonus.*")),
    (GOOD + '[variants.big]\n"vehicles.nope.price" = 90\n',
     re.compile(r"exp.toml: variants.big: menorca_v11.toml: .*vehicles.nope.*")),
    (good('variants = 3\n'), "exp.toml: variants: expected a table of named override tables"),
    (good('ruleset = "missing.toml"\n'),
     "exp.toml: ruleset: missing.toml: cannot read file (No such file or directory)"),
    (GOOD + '[overrides]\n"bank" = -5\n', re.compile(r"exp.toml: overrides: menorca_v11.toml: bank: .+")),
]


@pytest.mark.parametrize("text, expected", BAD, ids=[f"bad{i}" for i in range(len(BAD))])
def test_bad_file_gives_its_one_line_error(tmp_path, text, expected):
    with pytest.raises(ExperimentError) as err:
        load_experiment(write(tmp_path, text))
    message = str(err.value)
    assert "\n" not in message
    if isinstance(expected, re.Pattern):
        assert expected.fullmatch(message), message
    else:
        assert message == expected


def test_missing_file(tmp_path):
    with pytest.raises(ExperimentError, match=r"^nope.toml: cannot read file \(No such file or directory\)$"):
        load_experiment(tmp_path / "nope.toml")


def test_cli_prints_the_error_line_without_traceback(tmp_path):
    path = write(tmp_path, GOOD.replace("games = 6", "games = 0"))
    proc = subprocess.run([sys.executable, "-c", "from menorca_sim.cli.run import command; command()",
                           str(path), "--out", str(tmp_path / "out")], capture_output=True, text=True)
    assert (proc.returncode, proc.stdout, proc.stderr) == (2, "", "error: exp.toml: games: expected a positive integer, got 0\n")


POPULATIONS = GOOD.split("[policies.seats]")[0] + """
[populations.plain]
seats = "a"
[populations.mixed.seats]
2 = ["a", "b"]
3 = ["a", "b", "c"]
[variants.low]
"markers.market_bonus" = 0
[variants.high]
"markers.market_bonus" = 20
"""


def test_populations_play_the_same_games_with_other_players(tmp_path):
    exp = load_experiment(write(tmp_path, POPULATIONS))
    assert [p.name for p in exp.populations] == ["plain", "mixed"]
    per = len(exp.cells) * exp.games
    assert exp.total_games == 2 * 2 * per  # variants x populations x cells x games
    games = [exp.game(i) for i in range(exp.total_games)]
    assert [(g.variant, g.population) for g in games[::per]] == [
        ("low", "plain"), ("low", "mixed"), ("high", "plain"), ("high", "mixed")]
    for a, b in zip(games[:per], games[per:2 * per]):  # the same seed and cell, other players
        assert (a.cell, a.game_index, a.seed) == (b.cell, b.game_index, b.seed)
        assert set(a.policies) == {"a"} and len(set(b.policies)) == b.players
    assert [p["name"] for p in exp.plan()["populations"]] == ["plain", "mixed"]


@pytest.mark.parametrize("tables, problem", [
    ("[policies]\nseats = \"a\"\n[populations.x]\nseats = \"a\"\n",
     "exp.toml: populations: give either [policies] or named [populations.NAME] tables, not both"),
    ("populations = 3\n", "exp.toml: populations: expected named tables, e.g. [populations.warm] seats = \"heuristic\""),
    ("[populations.x]\nseat = \"a\"\n", "exp.toml: populations.x.seat: unknown key (expected one of: pool, seats)"),
])
def test_bad_populations_are_named(tmp_path, tables, problem):
    top = tables.startswith("populations =")  # a key, not a table: before the tables
    text = GOOD.split("[policies.seats]")[0] + tables if not top else tables + GOOD.split("[policies.seats]")[0]
    with pytest.raises(ExperimentError) as err:
        load_experiment(write(tmp_path, text))
    assert str(err.value).startswith(problem)


EFFECT_RANGE = ("expected a non-zero win-share difference (0.03 = 3 points) with 0 < 1/players + effect < 1 "
                "for every player count, got ")


@pytest.mark.parametrize("plan, problem", [
    ("effect = 2", f"plan.effect: {EFFECT_RANGE}2.0"),
    ("effect = -0.6", f"plan.effect: {EFFECT_RANGE}-0.6"),
    ("effect = 0", f"plan.effect: {EFFECT_RANGE}0.0"),
    ("effect = nan", "plan.effect: expected a finite number, got nan"),
    ("effect = 0.03\npower = 5", "plan.power: expected a number within [0.5, 0.999], got 5.0"),
    ("effect = 0.03\npower = 1.0", "plan.power: expected a number within [0.5, 0.999], got 1.0"),
    ("effect = 0.03\nalpha = -1", "plan.alpha: expected a number within (0, 0.5], got -1.0"),
    ("effect = 0.03\nalpha = 0", "plan.alpha: expected a number within (0, 0.5], got 0.0"),
    ("effect = 0.03\nalpha = \"x\"", "plan.alpha: expected a finite number, got 'x'"),
])
def test_a_bad_plan_is_refused_at_the_file_check(tmp_path, plan, problem):
    with pytest.raises(ExperimentError) as err:
        load_experiment(write(tmp_path, f"{GOOD}[plan]\n{plan}\n"))
    assert str(err.value) == f"exp.toml: {problem}"


SWEEP = GOOD + """
[variants.base]
[sweep]
"legacies.L9.price" = {from = 100, to = 180, step = 40}
"markers.market_bonus" = {values = [0, 20]}
"auction.price_drop" = 10
"""


def test_a_sweep_is_a_variant_per_point_on_the_same_seeds(tmp_path):
    exp = load_experiment(write(tmp_path, SWEEP))
    names = [v.name for v in exp.variants]
    assert names[0] == "base" and len(names) == 1 + 3 * 2
    assert names[1] == "legacies.L9.price=100, markers.market_bonus=0"
    point = exp.variants[-1].overrides
    assert point == {"legacies.L9.price": 180, "markers.market_bonus": 20, "auction.price_drop": 10}
    assert [(s.name, s.keys, len(s.points)) for s in exp.sweeps] == [
        ("", ("legacies.L9.price", "markers.market_bonus"), 6)]
    per = len(exp.cells) * exp.games
    assert [exp.game(i).seed for i in range(per)] == [exp.game(i + 6 * per).seed for i in range(per)]
    assert exp.plan()["sweeps"][0]["points"] == names[1:]


def test_named_sweeps_and_their_errors(tmp_path):
    exp = load_experiment(write(tmp_path, GOOD + '[sweeps.L8]\n"legacies.L8.price" = {values = [100, 130]}\n'
                                '[sweeps.L9]\n"legacies.L9.price" = {from = 100, to = 120, step = 20}\n'))
    assert [v.name for v in exp.variants] == ["L8: legacies.L8.price=100", "L8: legacies.L8.price=130",
                                              "L9: legacies.L9.price=100", "L9: legacies.L9.price=120"]
    # one key in two tables that set another key differently: different points (legacy_values.toml)
    exp = load_experiment(write(tmp_path, GOOD + '[sweeps.L1]\n"setup.assigned_price" = {values = [0, 20]}\n'
                                '"setup.assigned_legacy" = "L1"\n[sweeps.L2]\n"setup.assigned_price" = {values = [0]}\n'
                                '"setup.assigned_legacy" = "L2"\n'))
    assert [v.overrides["setup.assigned_legacy"] for v in exp.variants] == ["L1", "L1", "L2"]
    for text, problem in [
        ('[sweep]\n"legacies.L9.price" = {from = 100, to = 80, step = 20}\n',
         "exp.toml: sweep.legacies.L9.price: expected finite numbers with from <= to and step > 0"),
        ('[sweep]\n"legacies.L9.price" = {from = 100, to = nan, step = 20}\n',
         "exp.toml: sweep.legacies.L9.price: expected finite numbers with from <= to and step > 0"),
        ('[sweep]\n"legacies.L9.price" = {from = 100, to = inf, step = 20}\n',
         "exp.toml: sweep.legacies.L9.price: expected finite numbers with from <= to and step > 0"),
        ('[sweep]\n"legacies.L9.price" = {from = 0, to = 1e8, step = 1}\n',
         "exp.toml: sweep.legacies.L9.price: 100,000,001 points; a sweep has at most 1,000"),
        ('[sweep]\n"legacies.L9.price" = {from = 0, to = 1e308, step = 1e-308}\n',
         "exp.toml: sweep.legacies.L9.price: inf points; a sweep has at most 1,000"),
        ('[sweep]\n"legacies.L9.price" = {values = [1, 2]}\n"markers.market_bonus" = {from = 0, to = 999, step = 1}\n',
         "exp.toml: sweep: 2,000 sweep points in all; at most 1,000"),
        ('[sweeps.a]\n"legacies.L9.price" = {values = [100, 120]}\n[sweeps.b]\n"legacies.L9.price" = {values = [140]}\n',
         "exp.toml: sweeps.b.legacies.L9.price: already swept by sweeps.a with the same other keys: sweep a key in one table"),
        ('[sweeps]\n', "exp.toml: sweeps: no sweep in it"),
        ('[sweep]\n"legacies.L9.price" = {from = 100, step = 20}\n',
         "exp.toml: sweep.legacies.L9.price: expected {from, to, step} or {values = [...]}"),
        ('[sweep]\n"auction.price_drop" = 10\n', "exp.toml: sweep: sweep one or two keys"),
        ('[sweep]\n"legacies.L99.price" = {values = [1]}\n', "exp.toml: sweep: "),
    ]:
        with pytest.raises(ExperimentError) as err:
            load_experiment(write(tmp_path, GOOD + text))
        assert str(err.value).startswith(problem), str(err.value)


def test_a_run_of_some_populations_plays_their_games_as_the_whole_plan_does(tmp_path):
    text = GOOD.split("[policies.seats]")[0] + ('[populations.first]\nseats = "heuristic"\n'
                                                '[populations.second]\nseats = "random_legal"\n')
    whole = load_experiment(write(tmp_path, text))
    part = whole.only_populations(["second"])
    assert [p.name for p in part.populations] == ["second"] and part.total_games == whole.total_games // 2
    in_whole = {(g.variant, g.cell, g.game_index): g for g in map(whole.game, range(whole.total_games))
                if g.population == "second"}
    for g in map(part.game, range(part.total_games)):
        same = in_whole[g.variant, g.cell, g.game_index]
        assert (g.seed, g.policies, g.minors) == (same.seed, same.policies, same.minors)
    with pytest.raises(ExperimentError, match="populations: no population 'third' \\(the file has: first, second\\)"):
        whole.only_populations(["third"])


def test_overrides_may_come_from_a_file_of_them(tmp_path):
    (tmp_path / "suggested.toml").write_text('[overrides]\n"legacies.L1.price" = 25\n', encoding="utf-8")
    exp = load_experiment(write(tmp_path, good('overrides = "suggested.toml"\n')))
    assert all(v.overrides["legacies.L1.price"] == 25 for v in exp.variants)
    for text, problem in [('overrides = "missing.toml"\n', "overrides: cannot read missing.toml"),
                          ('overrides = "exp.toml"\n', "overrides: exp.toml has no \\[overrides\\] table")]:
        with pytest.raises(ExperimentError, match=problem):
            load_experiment(write(tmp_path, good(text)))
