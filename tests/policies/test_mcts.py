"""The `mcts` player: a game depends only on its seed (also on the learned value, and
however many processes play), the rollout value plays as the search did before the
learned value, the player ends its stock rounds, and with a large budget it finds the
winning choice of a real endgame that the heuristic misses."""
from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from helpers.experiment_files import one_draw_study, run_study
from helpers.states import chosen, play_until
from helpers.toy_games import dataset
from menorca_sim.game import Game
from menorca_sim.play import seat_policies
from menorca_sim.rules import load_ruleset
from menorca_sim.run.experiment import load_experiment
from menorca_sim.run.runner import run_experiment
from policies import make_policy, mcts
from policies.errors import PolicyError
from policies.heuristic import PRESETS, Heuristic

RULES = load_ruleset()
MAX_ACTIONS = 2000  # a 2-player game has a few hundred actions: far past this, a player loops


def _play(specs: list[str], seed: int, stop: int = MAX_ACTIONS) -> Game:
    """Play as `play_one` does (each seat its stream of the seed) until the game ends or
    `stop` actions were played."""
    return play_until(Game(RULES, players=len(specs), seed=seed), seat_policies(specs, seed),
                      lambda g: g.is_over() or g.action_count() >= stop)


@pytest.mark.parametrize("spec", ["mcts(playouts=8, depth=8, ors=0, value=rollout)", "mcts(playouts=4, value=rollout)",
                                  "mcts(playouts=4)", "mcts(playouts=4, backup=guarded)", "mcts(playouts=8, root=ucb)"])
def test_the_same_seed_plays_the_same_mcts_game(spec):
    # seed 0: before its stock-round guard the first sold and bought back for ever here
    specs = [spec, "heuristic"]
    first, second = _play(specs, 0), _play(specs, 0)
    assert first.is_over()
    assert first.fingerprint() == second.fingerprint()
    assert first.fingerprint() != _play(["heuristic", "heuristic"], 0).fingerprint()


# `mcts` before the learned value (its default then, commit dbe23cf) in these games: the
# fingerprints as it played them
ROLLOUT_GAMES = {("mcts(value=rollout)", "heuristic_tuned", 3): "7c079bf1a3d854e5",
                 ("mcts(value=rollout, playouts=4)", "heuristic", "heuristic", 7): "0907dd4fa4a751bc"}


@pytest.mark.parametrize("game", ROLLOUT_GAMES)
def test_the_rollout_value_plays_as_the_search_before_the_learned_value(game):
    *specs, seed = game
    assert _play(specs, seed).fingerprint()[:16] == ROLLOUT_GAMES[game]


# `mcts` on value_v1 (the default before value_v2, at its margin then) in these games, as it
# played them before the features grew the round's context (value_v2): a model reads the columns it names, so it plays as it did
VALUE_V1_GAMES = {("mcts(playouts=4, model=value_v1, margin=0.05, root=ucb)", "heuristic_tuned", 3): "847ae542c3b92f59",
                  ("mcts(playouts=4, model=value_v1, margin=0.05, root=ucb)", "heuristic", "heuristic", 7): "fc47495f5dc0d9ea",
                  ("mcts(model=value_v1, margin=0.05, root=ucb)", "heuristic_tuned", "heuristic_tuned", 11): "aa4587f23b04a2f6"}


# `mcts` on value_v2 (the default when experiments/value_data_g2.toml, value_v3's training
# games, was played) in these games: `make value` re-makes value_v3 only while it plays them so
VALUE_V2_GAMES = {("mcts(playouts=4, model=value_v2, root=ucb)", "heuristic_tuned", 3): "9f9d6aa26ed0af53",
                  ("mcts(model=value_v2, margin=0.1, root=ucb)", "heuristic_tuned", "heuristic_tuned", 11): "02665b5d1ccc9f0a"}


# `mcts` on value_v3 (the default when experiments/value_data_g3.toml, value_v4's
# training games, was played) in these games: `make value` re-makes value_v4 only while it plays them
VALUE_V3_GAMES = {("mcts(playouts=4, model=value_v3, root=ucb)", "heuristic_tuned", 3): "7b90c5098af1da08",
                  ("mcts(model=value_v3, margin=0.1, root=ucb)", "heuristic_tuned", "heuristic_tuned", 11): "935b72768e593f02"}


# `mcts` on value_v4 (the default when experiments/value_data_g4.toml, value_v5's
# training games, was played, at the margin a fifth of the fair share) in these games:
# `make value` re-makes value_v5 only while it plays them so
VALUE_V4_GAMES = {("mcts(playouts=4, model=value_v4, root=ucb)", "heuristic_tuned", 3): "730e28d13962ce64",
                  ("mcts(model=value_v4, root=ucb)", "heuristic_tuned", "heuristic_tuned", 11): "84a9eb7bb7dbcce4"}


# `mcts` on value_v5 (the default when experiments/value_data_g5.toml and
# value_data_g6.toml, value_v6's leaves, were played) in these games: `make value`
# re-makes value_v6 only while it plays them so
VALUE_V5_GAMES = {("mcts(playouts=4, model=value_v5, root=ucb)", "heuristic_tuned", 3): "730e28d13962ce64",
                  ("mcts(model=value_v5, root=ucb)", "heuristic_tuned", "heuristic_tuned", 11): "15ebc779efa063fb"}


@pytest.mark.parametrize("games", [VALUE_V1_GAMES, VALUE_V2_GAMES, VALUE_V3_GAMES, VALUE_V4_GAMES, VALUE_V5_GAMES],
                         ids=["value_v1", "value_v2", "value_v3", "value_v4", "value_v5"])
def test_the_earlier_learned_values_play_as_they_did(games):
    for game, fingerprint in games.items():
        *specs, seed = game
        assert _play(specs, seed).fingerprint()[:16] == fingerprint, game


def test_the_learned_value_plays_the_same_game_with_one_or_two_processes(tmp_path):
    study = one_draw_study("search", 42, 4, 2, 'seating = "rotate"\n[policies]\nseats = ["mcts(playouts=2)", "heuristic"]\n')
    (tmp_path / "one").mkdir()
    run_study(tmp_path / "one", study)
    run_experiment(load_experiment(tmp_path / "one" / "study.toml"), tmp_path / "two", jobs=2, chunk=1)
    one, two = dataset(tmp_path / "one" / "data"), dataset(tmp_path / "two")
    assert one["games"].num_rows == 4 and not one["errors"].num_rows
    assert one["games"].column("fingerprint").to_pylist() == two["games"].column("fingerprint").to_pylist()


def test_the_model_is_loaded_once_per_process(monkeypatch):
    loads = []
    monkeypatch.setattr(mcts, "load_model", lambda folder: loads.append(folder) or "model")
    monkeypatch.setattr(mcts, "_model", mcts.cache(mcts._model.__wrapped__))  # a fresh cache, seeing the stub
    players = [mcts._factory(args, seat, np.random.default_rng(0))
               for seat, args in enumerate(["", "playouts=4", "model=value_v5", "value=rollout"])]
    assert loads == [mcts.MODELS / name for name in ("value_v5", "value_v7", "value_v8")]  # the defaults, at the first player
    assert [p.model for p in players] == [None, None, "model", None]  # a default is chosen at the first search


def test_mcts_parameters_are_checked():
    with pytest.raises(Exception, match=r"playouts must be at least 1, got 0$"):
        make_policy("mcts(playouts=0)", 0, np.random.default_rng(0))
    with pytest.raises(Exception, match="base must be a heuristic preset"):
        make_policy("mcts(base=random_legal)", 0, np.random.default_rng(0))
    with pytest.raises(Exception, match=r"company_playouts must be at least 1, got 0$"):
        make_policy("mcts(company_playouts=0)", 0, np.random.default_rng(0))
    with pytest.raises(Exception, match=r"widen must be within \[0, 1\], got 1.5$"):
        make_policy("mcts(widen=1.5)", 0, np.random.default_rng(0))
    with pytest.raises(Exception, match=r"backup must be one of mean, guarded, got 'max'$"):
        make_policy("mcts(backup=max)", 0, np.random.default_rng(0))
    with pytest.raises(Exception, match=r"root must be one of halving, ucb, got 'gumbel'$"):
        make_policy("mcts(root=gumbel)", 0, np.random.default_rng(0))


def _after_first_search(args: str, players: int) -> mcts.Mcts:
    """`mcts(args)` after its first search, at the first decision of a game of `players`:
    what it resolves at the game's player count is set by then."""
    game = Game(RULES, players=players, seed=1)
    player = mcts._factory(args, game.current_actor(), np.random.default_rng(0))
    assert game.decision() in mcts.SEARCHED and game.legal_count() > 1
    player.act_code(game)
    return player


@pytest.mark.parametrize("args, margins", [("playouts=1", {2: 0.1, 3: 0.2 / 3}),
                                           ("playouts=64", {2: 0.08, 3: 0.2 / 3}),
                                           ("playouts=64, model=value_v8", {2: 0.1}),
                                           ("playouts=1, margin=0.1", {2: 0.1, 3: 0.1}),
                                           ("playouts=1, margin=1", {3: 1.0}),
                                           ("playouts=1, value=rollout", {2: 0.05, 3: 0.05})])
def test_the_learned_values_margin_is_a_share_of_the_fair_share_unless_given(args, margins):
    """A win share's steps shrink with the seats: the default margin does too (0.1 at 2
    players, as before; 0.08 on value_v8, the default from 64 playouts there); a given
    margin, the rollout value's, and a given model's, stay as they are."""
    for players, margin in margins.items():
        assert _after_first_search(args, players).margin == margin, (args, players)


@pytest.mark.parametrize("args, roots", [("playouts=1", {2: "halving", 3: "ucb"}),
                                         ("playouts=1, root=halving", {2: "halving", 3: "halving"}),
                                         ("playouts=1, root=ucb", {2: "ucb"}),
                                         ("playouts=1, value=rollout", {2: "ucb", 3: "ucb"})])
def test_the_root_is_searched_by_halving_at_2_players_and_by_ucb1_at_more_unless_given(args, roots):
    """Halving is the stronger root at 2 players and the weaker at 3 against the tuned
    heuristic (docs/strong-players.md); the rollout value keeps UCB1, as it played."""
    for players, root in roots.items():
        assert _after_first_search(args, players).root == root, (args, players)


@pytest.mark.parametrize("args, models", [("playouts=1", {2: "value_v7", 3: "value_v5"}),
                                          ("playouts=64", {2: "value_v8", 3: "value_v5"}),
                                          ("playouts=64, model=value_v6", {2: "value_v6", 3: "value_v6"})])
def test_the_learned_value_is_value_v7_at_2_players_value_v8_from_64_playouts_value_v5_at_more_unless_given(
        args, models):
    """value_v7, the average of value_v5 and value_v6, is the stronger value at 2 players
    up to 32 playouts, value_v8 (a perceptron blended with it) from 64; value_v6 reads
    3-player tables worse (docs/strong-players.md)."""
    for players, name in models.items():
        assert _after_first_search(args, players).model is mcts._model(name), (args, players)


@pytest.mark.parametrize("players, playouts, name, margin", [
    (2, 1, "value_v7", 0.2), (2, 63, "value_v7", 0.2), (2, 64, "value_v8", 0.16), (2, 1000, "value_v8", 0.16),
    (3, 64, "value_v5", 0.2), (4, 1, "value_v5", 0.2)])
def test_the_default_value_changes_at_its_budget_steps(players, playouts, name, margin):
    default = mcts.default_value(players, playouts)
    assert (default.model, default.margin) == (name, margin)


def test_the_default_plays_at_3_players_as_it_did_before_halving():
    specs = ["mcts", "heuristic_tuned", "heuristic_tuned"]
    assert _play(specs, 11).fingerprint()[:16] == VALUE_V5_GAMES[("mcts(model=value_v5, root=ucb)", *specs[1:], 11)]


def _visit_order(widen: float, playouts: int) -> list[int]:
    """The positions a node of 6 actions is asked for, each playout earning the same value."""
    node, order = mcts.Node(0, list(range(6)), None), []
    for _ in range(playouts):
        pos = node.select(0.3, widen)
        node.children.setdefault(pos, None)
        node.record(pos, 0.5)
        order.append(pos)
    return order


def test_progressive_widening_admits_an_action_as_the_visits_pass_each_square():
    assert _visit_order(0.0, 6) == [0, 1, 2, 3, 4, 5]  # fixed width: every action at once
    order = _visit_order(0.5, 16)
    # with widen=0.5 the k-th action comes in at the (k-1)-th square of the visits: 0, 1, 4, 9, 16
    assert [order.index(k) for k in range(4)] == [0, 1, 4, 9]
    assert 4 not in order and set(order) == {0, 1, 2, 3}


def _halved(values: list[float], margin: float, playouts: int = 16) -> tuple[list[float], int]:
    """The root visits sequential halving leaves at `playouts` over 6 actions, each
    playout through position k reading `values[k]`, and the position it plays."""
    search = mcts.Mcts("mcts", mcts.MctsParams(root="halving", margin=margin, playouts=playouts), 0,
                       np.random.default_rng(0))
    root = mcts.Node(0, list(range(6)), None)
    root.actions = list(range(6))

    def playout(node, first):
        node.children[first] = None
        node.record(first, values[first])

    search._playout = playout
    search._halve(root, playouts)
    return root.visits, search._choice(root)


def test_sequential_halving_gives_the_last_ones_in_equal_visits_within_the_budget():
    # 3 rounds: all 6 once; the best half (positions 2, 4, 0) once more; then the
    # best half again, 2 and 4, with the heuristic's choice (0), which always stays in,
    # twice each: 15 of the 16 playouts
    visits, chosen = _halved([0.5, 0.2, 0.9, 0.3, 0.8, 0.1], margin=0.1)
    assert visits == [4, 1, 4, 1, 4, 1] and chosen == 2  # the best mean of the most visited
    _, chosen = _halved([0.5, 0.2, 0.55, 0.3, 0.1, 0.1], margin=0.1)
    assert chosen == 0  # the best leads the heuristic's choice by less than the margin
    visits, _ = _halved([0.1, 0.2, 0.9, 0.3, 0.8, 0.7], margin=0.1)
    assert visits == [4, 1, 4, 1, 4, 2]  # position 0 stays in, last of the means
    visits, chosen = _halved([0.5, 0.2, 0.9, 0.3, 0.8, 0.1], margin=0.1, playouts=4)
    assert visits == [1, 1, 1, 1, 0, 0] and chosen == 2  # a budget below the width: the first four


def test_a_companys_own_decisions_are_searched_with_at_most_company_playouts():
    """More playouts read a sale's, a buy-back's or a legacy purchase's later decisions'
    random rivals more, and lost there (docs/strong-players.md): those decisions get at
    most `company_playouts`, every other searched decision `playouts`."""
    spent: dict[str, int] = {}
    search = mcts._factory("playouts=24, company_playouts=6, root=ucb", 0, np.random.default_rng(0))
    search.on_search = lambda player, root: spent.update({root.state.decision(): int(root.total)})
    rival = make_policy("heuristic_tuned", 1, np.random.default_rng(3))
    play_until(Game(RULES, players=2, seed=3), [search, rival],
               lambda g: spent.keys() & set(mcts.COMPANY_DECISIONS) and "stock_turn" in spent)
    assert {spent[d] for d in spent.keys() & set(mcts.COMPANY_DECISIONS)} == {6}
    assert {spent[d] for d in spent.keys() - set(mcts.COMPANY_DECISIONS)} == {24}
    search = mcts._factory("playouts=4, company_playouts=6", 0, np.random.default_rng(0))
    assert search._budget("company_sells") == 4 and search._budget("dividend") == 4


def test_a_root_with_one_action_left_plays_it_without_a_search():
    """A stock turn whose other actions are all banned buy-backs has one action: no
    playout is made, and the choice (read with no visits) is that action."""
    search = mcts.Mcts("mcts", mcts.MctsParams(root="halving", margin=0.1), 0, np.random.default_rng(0))
    root = mcts.Node(0, [3], None)
    root.actions = [3]
    assert search._choice(root) == 0


def _tree(reply: list[list[float]]) -> mcts.Node:
    """Two players: seat 0 at the root chooses between its heuristic's choice (first read
    0.5) and a rival (first read 0.7), after which seat 1 chose between its heuristic's
    reply and a rival reply, read as `reply`."""
    root, after = mcts.Node(0, [0, 1], None), mcts.Node(1, [0, 1], None)
    root.children, root.first = {0: None, 1: after}, {0: [0.5, 0.5], 1: [0.7, 0.3]}
    after.children = {0: None, 1: None}
    after.first = dict(enumerate(reply))
    for node in (root, after):
        node.record(0, 0.5)
        node.record(1, 0.5)
    return root


def test_the_guarded_backup_reads_the_tree_as_every_seat_plays():
    search = mcts.Mcts("mcts", mcts.MctsParams(backup="guarded", min_visits=1, margin=0.1), 0, np.random.default_rng(0))
    # seat 1 replies with its heuristic's choice unless a rival is worth 0.1 more to it
    pos, values = search._guarded(_tree([[0.75, 0.25], [0.7, 0.3]]))
    assert pos == 1 and values == [0.75, 0.25]
    assert search._guarded(_tree([[0.75, 0.25], [0.3, 0.7]]))[0] == 0  # the rival reply refutes the rival
    # seat 0 keeps its heuristic's choice unless the rival is worth 0.1 more
    assert search._guarded(_tree([[0.58, 0.42], [0.6, 0.4]]))[0] == 0
    # a rival tried but never expanded is worth its first read
    root = _tree([[0.75, 0.25], [0.7, 0.3]])
    root.children[1].children = {}
    pos, values = search._guarded(root)
    assert pos == 1 and values == [0.7, 0.3]


def test_the_guarded_backup_weighs_a_rival_only_after_min_visits_playouts():
    search = mcts.Mcts("mcts", mcts.MctsParams(backup="guarded", margin=0.1), 0, np.random.default_rng(0))  # min_visits=2
    root = _tree([[0.75, 0.25], [0.7, 0.3]])
    assert search._guarded(root)[0] == 0  # the rival, worth 0.25 more, has one playout
    root.record(1, 0.7)
    assert search._guarded(root)[0] == 1


@pytest.mark.parametrize("spec, message", [
    ("mcts(value=minimax)", r"policy mcts: value must be one of model, rollout, got 'minimax'$"),
    ("mcts(model=nothing_here)", r"policy mcts: \S*/policies/models/nothing_here: not a model folder \(no meta.json\)$"),
])
def test_a_bad_value_or_model_is_a_one_line_error_naming_the_policy(spec, message):
    with pytest.raises(PolicyError, match=message) as error:
        make_policy(spec, 0, np.random.default_rng(0))
    assert "\n" not in str(error.value)


def _greedy_finish(game: Game) -> list[float]:
    """The win shares when every seat plays the heuristic at temperature 0 to the end."""
    greedy = replace(PRESETS["heuristic"], temperature=0.0)
    players = [Heuristic("heuristic", greedy, s, np.random.default_rng(0)) for s in range(game.players)]
    return play_until(game, players, Game.is_over).result()["win_share"]


def test_a_large_search_finds_the_endgame_win_the_heuristic_misses():
    # Seed 118, two heuristics: 74 actions before the end, the second player's company
    # decides whether to buy a freight wagon. Skipping it (the heuristic's choice) loses
    # the game; buying it wins if the rival plays on with its heuristic.
    position = _play(["heuristic", "heuristic"], 118, stop=169)
    legal = position.legal_actions()
    wagon = {"type": "buy_vehicle", "vehicle": "freight_wagon", "source": "bank", "price": 100}
    assert position.decision() == "buy_vehicles" and position.current_actor() == 1
    assert legal == [wagon, {"type": "skip"}]
    outcome = {}
    for i, action in enumerate(legal):
        after = position.clone()
        after.apply_code(i)
        outcome[action["type"]] = _greedy_finish(after)[1]
    assert outcome == {"buy_vehicle": 1.0, "skip": 0.0}
    heuristic = make_policy("heuristic", 1, np.random.default_rng(0))
    assert chosen(heuristic, position.clone()) == {"type": "skip"}
    shallow = make_policy("mcts(playouts=50, depth=10, ors=0, base=heuristic)", 1, np.random.default_rng(0))
    assert chosen(shallow, position.clone()) == {"type": "skip"}  # its horizon ends before the game
    deep = make_policy("mcts(playouts=200, depth=100, ors=0, base=heuristic)", 1, np.random.default_rng(0))
    assert chosen(deep, position.clone()) == wagon
    # the guarded backup reads the rival's best reply in the same tree: a reply that wins
    # for it after the wagon too, so both lose and the heuristic's choice stands
    guarded = make_policy("mcts(playouts=200, depth=100, ors=0, base=heuristic, backup=guarded)", 1,
                          np.random.default_rng(0))
    assert chosen(guarded, position.clone()) == {"type": "skip"}
