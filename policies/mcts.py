"""`mcts`: a perfect-information Monte Carlo tree search player (UCT).

The game's only chance is its setup, drawn before the first decision, so from any state
the game is a deterministic function of the players' choices: the search copies the game
(`Game.clone`) and plays on the copy. It searches at the decisions that decide a game
(the auction, stock turns, vehicle purchases, dividends, and with the learned value a
company's own share sales, buy-backs and legacy purchases) and leaves the rest (track,
stations, markers...) to its heuristic.

The tree's nodes are those decisions, for every player; each node considers at most
`width` actions: the heuristic's own choice first (so a search too small to learn
anything plays like the heuristic), then others drawn from the player's generator. A
playout walks down by UCB1 (each node maximises the value of the seat deciding there),
adds one node, then plays on with the heuristic at temperature 0 for `depth` actions,
then until `ors` more operating rounds have ended, and scores the state: the win shares
if the game ended, else by `value`:

- `model` (the default): the learned value (menorca_sim/value/, the model folder
  `model` under policies/models/, loaded once per process), each seat's expected final
  win share, read at the next searched decision (`ors=0`): a leaf costs tens of µs,
  not a rollout's few milliseconds. The model reads mid-round states: value_v2 was
  trained on them (value_v1 only on states between rounds, and misread them: 0.21
  against two heuristic_tuned at 3 players, against value_v2's 0.52), value_v3 also on
  games of the search on value_v2, which it beats (0.68 of 400), value_v4 on the
  search's games of two generations (on value_v2 and value_v3) beside the heuristics'
  3-player states, so it reads tables of heuristics too (it beats value_v3's search,
  0.63 of 400), and value_v5 (the default at 3 players) also on games of the search on value_v4
  against the rollout search, a league's states that self-play never reaches (it beats
  value_v4's search, 0.57 of 400). value_v6 also learns states deep in the trees of the
  search on value_v5 at 16 and 64 playouts, each labelled by greedy play to the end and
  counted ten times: on UCB1 roots it loses to the rollout search more than value_v5 does,
  with halving at the root it beats value_v5's search 0.68 of 400 (docs/strong-players.md).
  The default at 2 players is value_v7, the average of value_v5 and value_v6 (one model
  of both their trees, `menorca-sim average-models`), at more value_v5 (`DEFAULT_VALUES`):
  the average beats value_v5 head to head and, unlike value_v6, also where value_v5 meets
  the rest of the panel (heuristic_tuned and the rollout search), at twice the trees.
  From 64 playouts at 2 players the default is value_v8, a blend of a perceptron and
  value_v7 (menorca_sim/value/blend.py): a smooth reading that tells a large tree's
  leaves apart better and a small tree's worse than the trees alone.
- `rollout`: each player's share of the total wealth after rollouts to the end of the
  next operating round (`ors=1`), the search before the learned value, kept as it
  played. Ending rollouts at the end of an operating round rather than after a fixed
  number of actions matters: wealth is only comparable between states at the same point
  of the round cycle, and a search cut at a fixed depth lost nearly every game to the
  heuristic.

At the root, `root="halving"` spends the playouts by sequential halving rather than by
UCB1 (`Mcts._halve`): every action the same playouts, then the better half again, and so
on, so the actions compared at the end have had the same visits. Under UCB1 (`root="ucb"`)
the most visited action's mean, read over many playouts, is compared with the heuristic
choice's, read over a few, and each mean is an average over whatever was tried below it,
so the two are not alike. By default the root is searched by halving at 2 players and by
UCB1 at more, the stronger root at each count (docs/strong-players.md, "Sequential halving
at the root"): at 2 players on value_v5 halving beats UCB1 at the root 0.585 of 400 games,
the rollout search 0.868 of 2,400 (UCB1: 0.759) and heuristic_tuned 0.891 of 2,400 (UCB1:
0.871); at 3 players it makes 0.555 of 600 with two heuristic_tuned where UCB1 makes
0.640 on the same seeds, and holds no more than UCB1's share with two rollout searches
(0.459 of 1,200 against 0.463). The rollout value and the studies that made value_v3 to
value_v6 keep UCB1 at every count, as they played.

What it plays, `backup`:

- `mean` (the default): the most visited action (by halving, the best mean of those
  visited most), if its mean value beats the heuristic's choice by at least `margin`
  (win share or wealth share: on rollouts 0.05; on the learned value a fifth of the fair
  share unless given, 0.1 at 2 players and 0.067 at 3: a win share's steps shrink with
  the seats, and at 3 players with two rollout searches value_v4 won 0.38 of 600 games
  at 0.1, 0.435 of 1,800 on other seeds at 0.067; docs/strong-players.md; on value_v8,
  the default from 64 playouts at 2 players, 0.08, `DEFAULT_VALUES`).
- `guarded`: the tree read as every seat plays, this player included: at each node the
  heuristic's choice, unless a rival tried there (with at least `min_visits` playouts)
  is worth `margin` more to the seat deciding there; an action is worth what its
  subtree says, or its first playout's value if it has none. On UCB1 roots (value_v3)
  it beat the mean backup head to head (0.60 of 400 games) but lost more to everyone
  else (to heuristic_tuned 0.73 of 300 two-player games against the mean's 0.90; to the
  rollout search 0.62 of 900 against 0.67). On value_v5's halving root it matches the
  mean against heuristic_tuned (0.882 of 400 each) and is the one backup whose 32
  playouts beat its 16 (0.549 of 1,000), but it still gives up about ten points to the
  rollout search (0.772 of 400 against the mean's 0.845 on the same seeds) and 64
  playouts gain little more
  (docs/strong-players.md), so it is an option, not the default.

Either way the heuristic's choice stands unless the search finds better by `margin`:
without this guard the search overrode sound heuristic moves with noisy or myopic
estimates and lost (to the heuristic on rollouts, to the rollout search on the learned
value; docs/strong-players.md). By default it searches on top of the tuned heuristic.

The budget is `playouts` per decision, never seconds, so a game depends only on the seed
and the parameters, not on the machine. A company's own decisions (its sales, buy-backs
and legacy purchases) get at most `company_playouts` (16, the default budget): what they
earn comes through the seat's later decisions, whose random rivals a larger tree reads
more, and a larger budget there lost what it won elsewhere (`Mcts._budget`;
docs/strong-players.md, "Where a doubling pays"). Between its searched decisions the
seat plays with a heuristic at the preset's own temperature, drawing from the seat's
generator."""
from __future__ import annotations

import math
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Callable

import numpy as np

from menorca_sim.value.model import ModelError, Value, load_model
from policies.base import AUCTION_DECISIONS, register
from policies.errors import PolicyError
from policies.heuristic import PRESETS, Heuristic
from policies.spec import bind, check_ranges, parse_args

SEARCHED = (*AUCTION_DECISIONS, "stock_turn", "buy_vehicles", "dividend")
COMPANY_DECISIONS = ("company_sells", "company_buys_back", "company_buys_legacy")
# the learned value also searches a company's own sales, buy-backs and legacy purchases:
# the rollout value left them to the heuristic, and it is kept as it played
SEARCHED_BY_MODEL = (*SEARCHED, *COMPANY_DECISIONS)
VALUES = ("model", "rollout")
BACKUPS = ("mean", "guarded")
ROOTS = ("halving", "ucb")
MODELS = Path(__file__).resolve().parent / "models"


@dataclass(frozen=True)
class MctsParams:
    value: str = "model"  # how a leaf is scored: the learned value ("model") or wealth share after a rollout ("rollout")
    model: str | None = None  # the learned value (trees, a perceptron or a blend): a folder under policies/models/ (None: DEFAULT_VALUES' at the game's player count and this budget)
    playouts: int = 16  # per searched decision...
    company_playouts: int = 16  # ...but at most this many at a company's own decisions (sales, buy-backs, legacy purchases)
    depth: int = 0  # heuristic actions played after the tree...
    ors: int = 0  # ...then on until this many more operating rounds have ended (the rollout value's default: 1)
    c: float = 0.3  # UCB1's exploration weight (values are shares in [0, 1])
    width: int = 6  # actions considered at a node
    # how the root spends its playouts: by sequential halving or by UCB1 as every node
    # ("ucb"); None: halving at 2 players, UCB1 at more (the stronger at each count)
    root: str | None = None
    widen: float = 0.0  # progressive widening: after n visits a node tries 1 + floor(n ** widen) of them; 0: all at once
    # the heuristic's choice stands unless the search's beats it by this much (None: DEFAULT_VALUES' share / players; rollout: 0.05)
    margin: float | None = None
    backup: str = "mean"  # what it plays: by the mean of the playouts, or the tree read as every seat plays ("guarded")
    min_visits: int = 2  # backup="guarded": a rival is weighed once it has this many playouts (one read is the noisiest)
    base: str = "heuristic_tuned"  # the heuristic preset of the rollouts and the decisions not searched

    def __post_init__(self) -> None:
        check_ranges(self, {"playouts": (1, None), "company_playouts": (1, None), "depth": (0, None),
                            "ors": (0, None), "c": (0, None), "width": (1, None), "widen": (0, 1),
                            "min_visits": (1, None)})
        if self.base not in PRESETS:
            raise ValueError(f"base must be a heuristic preset ({', '.join(sorted(PRESETS))}), got {self.base!r}")
        if self.value not in VALUES:
            raise ValueError(f"value must be one of {', '.join(VALUES)}, got {self.value!r}")
        if self.root is not None and self.root not in ROOTS:
            raise ValueError(f"root must be one of {', '.join(ROOTS)}, got {self.root!r}")
        if self.backup not in BACKUPS:
            raise ValueError(f"backup must be one of {', '.join(BACKUPS)}, got {self.backup!r}")


FAIR_MARGIN = 0.2
"""The learned value's default margin, as a share of the fair share 1 / players."""


@dataclass(frozen=True)
class DefaultValue:
    """The learned value `mcts` reads unless given `model`, from a budget on."""
    playouts: int  # from this many playouts on
    model: str  # its folder under policies/models/
    margin: float = FAIR_MARGIN  # the margin unless given, as a share of the fair share


DEFAULT_VALUES = {2: (DefaultValue(1, "value_v7"), DefaultValue(64, "value_v8", margin=0.16))}
DEFAULT_VALUE = DefaultValue(1, "value_v5")
"""By player count, from each budget on; else DEFAULT_VALUE. At 2 players value_v7, the
average of value_v5 and value_v6: value_v6 beats value_v5 only head to head, their
average beats both it and the panel; value_v6 reads 3-player tables worse, so value_v5
stays at more. From 64 playouts at 2 players value_v8, the blend of a perceptron and
value_v7, with a margin of 0.08: at 64 and 128 playouts it beats value_v7 at the same
budget, at 32 it loses to it, and at 64 the smaller margin beats 0.1 clearly (at 32, on
value_v7, not: docs/strong-players.md, "value_v8"). A model given by name keeps a fifth
of the fair share, so the studies that name theirs play as they did."""


def default_value(players: int, playouts: int) -> DefaultValue:
    """The learned value `mcts(playouts=playouts)` reads at `players` unless given one."""
    steps = DEFAULT_VALUES.get(players, (DEFAULT_VALUE,))
    return [step for step in steps if playouts >= step.playouts][-1]


ROLLOUT_DEFAULTS = {"ors": 1, "margin": 0.05, "root": "ucb"}
"""Where the rollout value's defaults differ: they are the search's before the learned value."""


class Node:
    """A searched decision reached by one sequence of choices: its seat, the actions it
    considers (indices of the legal actions) and what each has earned so far. Plain
    lists of floats: numpy's cost per call outweighs its speed on a handful of actions
    (the same float operations, so the same choices). Its actions are drawn when it is
    made (`picks`: positions among the `allowed` actions other than the heuristic's
    choice, or None: all of them), the heuristic's choice itself asked when a playout
    first walks through it (`Mcts._actions`): most leaves never are. That walk keeps its
    state, so later playouts start below it instead of replaying the moves to it."""
    __slots__ = ("seat", "allowed", "picks", "actions", "visits", "total", "value", "children", "state", "first")

    def __init__(self, seat: int, allowed: list[int], picks: list[int] | None) -> None:
        self.seat = seat
        self.allowed = allowed
        self.picks = picks
        self.actions: list[int] | None = None
        size = len(allowed) if picks is None else len(picks) + 1
        self.visits = [0.0] * size
        self.total = 0.0  # sum(visits), kept as they grow
        self.value = [0.0] * size  # summed value for `seat`
        self.children: dict[int, Node | None] = {}  # by position in `actions`; None: the game ended
        self.state = None  # the game at this decision, once a playout has walked through it
        self.first: dict[int, list[float]] = {}  # by position: the values the playout that tried it first read (backup="guarded")

    def record(self, pos: int, value: float) -> None:
        """A playout through position `pos` that earned `value` for the node's seat."""
        self.visits[pos] += 1
        self.total += 1
        self.value[pos] += value

    def select(self, c: float, widen: float) -> int:
        """The next position to try: each admitted one once in order, then the best UCB1
        among them (the first best). All are admitted at once, or with `widen` > 0 one
        more each time the visits pass the next k ** (1 / widen): a small budget then
        spends its playouts on the heuristic's choice and a few rivals, a large one
        reaches the others (progressive widening)."""
        tried = len(self.children)
        visits = self.total
        admitted = len(self.visits) if widen == 0 else min(len(self.visits), 1 + int(visits ** widen))
        if tried < admitted:
            return tried
        log_n = math.log(visits)
        ucb = [v / n + c * math.sqrt(log_n / n) for v, n in zip(self.value[:admitted], self.visits[:admitted])]
        return ucb.index(max(ucb))


class Mcts:
    def __init__(self, name: str, params: MctsParams, seat: int, rng: np.random.Generator,
                 model: Value | None = None) -> None:
        self.name = name
        self.params = params
        self.seat = seat
        self.rng = rng
        self.model = model  # the learned value, when params.value is "model" (None until the first search if `model` is)
        self.searched = SEARCHED_BY_MODEL if params.value == "model" else SEARCHED
        self.own = Heuristic(params.base, PRESETS[params.base], seat, rng)
        self.auction_strategy = "mcts"
        self.rollout: list[Heuristic] = []  # one greedy heuristic per seat, made at the first search
        self.margin = params.margin  # if None, the default at the game's player count, set with the rollouts
        self.root = params.root  # likewise: if None, halving at 2 players and UCB1 at more
        self.sold: tuple[int, set[str]] = (-1, set())  # (ORs played, companies it sold since): this stock round's
        self.on_search: Callable[[Mcts, Node], None] | None = None  # shown each searched tree (menorca_sim/run/states.py)

    def act_code(self, game) -> int:
        if game.legal_count() == 1 or game.decision() not in self.searched:
            return self.own.act_code(game)
        legal = game.legal_actions()
        if not self.rollout:
            greedy = replace(PRESETS[self.params.base], temperature=0.0)
            self.rollout = [Heuristic(self.params.base, greedy, s, self.rng) for s in range(game.players)]
            share = FAIR_MARGIN  # a given model's
            if self.model is None and self.params.value == "model":
                default = default_value(game.players, self.params.playouts)
                self.model, share = _model(default.model), default.margin
            if self.margin is None:
                self.margin = share / game.players
            if self.root is None:
                self.root = "halving" if game.players == 2 else "ucb"
        banned = self._banned(game, legal)
        root = self._node(game, banned)
        root.actions = self._actions(root, game, legal, banned)
        root.state = game  # only ever copied
        if len(root.actions) > 1:
            budget = self._budget(game.decision())
            if self.root == "halving":
                self._halve(root, budget)
            else:
                for _ in range(budget):
                    self._playout(root)
            if self.on_search is not None:
                self.on_search(self, root)
        chosen = root.actions[self._choice(root)]
        if legal[chosen]["type"] == "sell_cert":
            self.sold[1].add(legal[chosen]["company"])
        return chosen

    def _budget(self, decision: str) -> int:
        """The playouts of a search at `decision`: `playouts`, but at most
        `company_playouts` at a company's own decisions (the module's docstring). With
        64 playouts at those and 32 at the rest the search lost 0.41 of 400 games to 32
        everywhere; with them at 16, 32 playouts beat 16 (0.585 and 0.630 of 400 on two
        seed sets, 0.512 uncapped). One read per action there lost 0.41 to the default:
        these decisions want the default's reading, neither a deeper nor a shallower one."""
        if decision in COMPANY_DECISIONS:
            return min(self.params.playouts, self.params.company_playouts)
        return self.params.playouts

    def _halve(self, root: Node, budget: int) -> None:
        """Sequential halving (Karnin et al. 2013, the root of Gumbel MuZero): the budget
        split evenly over log2(width) rounds; in each, every action still in gets the
        same playouts (at least one, while the budget lasts), then the better half by
        mean stays in, the heuristic's choice always. The last ones in have had equal
        visits, so their means, each an average over as many tries below, compare like
        with like."""
        alive = list(range(len(root.actions)))
        rounds = math.ceil(math.log2(len(alive)))
        left = budget
        for r in range(rounds):
            each = max(1, left // ((rounds - r) * len(alive)))
            for pos in alive:
                tries = min(each, left)  # a budget below the width runs out in the first round
                for _ in range(tries):
                    self._playout(root, pos)
                left -= tries
            if not left:
                return
            ranked = sorted(alive, key=lambda k: root.value[k] / root.visits[k], reverse=True)
            alive = sorted({0, *ranked[:math.ceil(len(alive) / 2)]})

    def _choice(self, root: Node) -> int:
        """The most visited action (by halving: the best mean of those visited most),
        unless its mean value beats the heuristic's (position 0) by less than `margin`:
        then the heuristic's. With `backup="guarded"`, the action `_guarded` reads from
        the tree."""
        if self.params.backup == "guarded":
            return self._guarded(root)[0] if root.children else 0
        most = max(root.visits)
        tied = [k for k, n in enumerate(root.visits) if n == most]
        best = max(tied, key=lambda k: root.value[k]) if self.root == "halving" else tied[0]
        means = [v / max(n, 1.0) for v, n in zip(root.value, root.visits)]
        return best if means[best] - means[0] >= self.margin else 0

    def _guarded(self, node: Node) -> tuple[int, list[float]]:
        """The position `node`'s seat plays and the values it leads to, every seat below
        playing as this player does (`backup="guarded"`, the module's docstring): the
        heuristic's choice unless a rival with `min_visits` playouts is worth `margin`
        more to it, each action worth its subtree's reading or else its first playout's."""
        values = [node.first[pos] if child is None or not child.children else self._guarded(child)[1]
                  for pos, child in node.children.items()]  # tried in order: positions 0, 1, ...
        mine = [v[node.seat] if pos == 0 or node.visits[pos] >= self.params.min_visits else -math.inf
                for pos, v in enumerate(values)]
        best = mine.index(max(mine))
        pos = best if mine[best] - mine[0] >= self.margin else 0
        return pos, values[pos]

    def _banned(self, game, legal: list[dict]) -> set[int]:
        """Buying back a company it sold in this stock round: the rules allow it, and a
        search that sees no difference between a sale and its buy-back at its horizon
        could trade in a circle for ever with the heuristic's own buys, so it is banned
        (the heuristic's choice included), as most 18xx rules ban it."""
        if self.sold[0] != game.ors_played():
            self.sold = (game.ors_played(), set())
        return {i for i, a in enumerate(legal)
                if a["type"] == "buy_cert" and a["company"] in self.sold[1]}

    def _node(self, game, banned: set[int] = frozenset()) -> Node:
        """A new node: the heuristic's choice (asked later) and up to width - 1 others
        (none of `banned`) drawn at random."""
        allowed = [i for i in range(game.legal_count()) if i not in banned]
        picks = None
        if len(allowed) - 1 >= self.params.width:
            picks = sorted(self.rng.choice(len(allowed) - 1, self.params.width - 1, replace=False).tolist())
        return Node(game.current_actor(), allowed, picks)

    def _actions(self, node: Node, game, legal: list[dict] | None = None, banned: set[int] = frozenset()) -> list[int]:
        """The node's actions in the state of `game`: the heuristic's choice first (if
        `banned`, which `legal`, the legal actions' dicts, must come with, a pass instead),
        then its picks of the others."""
        first = self.rollout[node.seat].act_code(game)
        if first in banned:
            first = next(i for i in node.allowed if legal[i]["type"] in ("pass", "end_turn"))
        others = [i for i in node.allowed if i != first]
        return [first, *(others if node.picks is None else [others[j] for j in node.picks])]

    def _playout(self, node: Node, first: int = -1) -> None:
        """One playout from `node` (the root), through its action `first` if given: down
        the tree by UCB1 to where it ends, one node added there, the leaf scored, and the
        value backed up the path. The walk plays no move inside the tree: it starts from
        a copy of the deepest node it reaches whose state is kept."""
        path: list[tuple[Node, int]] = []
        while True:
            pos = node.select(self.params.c, self.params.widen) if first < 0 else first
            first = -1
            path.append((node, pos))
            child = node.children.get(pos)
            if child is not None and child.state is not None:
                node = child
                continue
            game = node.state.clone()
            game.apply_code(node.actions[pos])
            expanded = pos not in node.children
            searched = self._to_next_search(game)
            if expanded or not searched:
                if searched:
                    node.children[pos] = self._node(game)
                elif expanded:
                    node.children[pos] = None
                break
            child.actions = self._actions(child, game)  # its first walk through: kept from now on
            child.state = game
            node = child
        value = self._value(game)
        if expanded and self.params.backup == "guarded":  # only its reading needs them
            node.first[pos] = value
        for node, pos in path:
            node.record(pos, value[node.seat])

    def _to_next_search(self, game) -> bool:
        """Play the heuristic's moves up to the next searched decision with a choice;
        False if the game ended first."""
        while not game.is_over():
            if game.legal_count() > 1 and game.decision() in self.searched:
                return True
            self._greedy_move(game)
        return False

    def _greedy_move(self, game) -> None:
        """One move of the rollouts' heuristic, read as an int (no legal dicts built)."""
        game.apply_code(self.rollout[game.current_actor()].act_code(game))

    def play_out(self, game) -> list[float]:
        """Each seat's win share when every seat plays the rollouts' greedy heuristic from
        `game` (played on, so pass a copy) to the end: a label of a state deep in a tree
        (menorca_sim/run/states.py)."""
        while not game.is_over():
            self._greedy_move(game)
        return game.result()["win_share"]

    def _value(self, game) -> list[float]:
        """Each seat's value after `depth` more heuristic actions and the operating rounds
        `ors` asks: its win share if the game ended, else the learned value's win shares
        or (the rollout value) its share of the players' total wealth. Python floats: the
        tree adds them up, and numpy's scalars cost more per operation (the same doubles)."""
        for _ in range(self.params.depth):
            if game.is_over():
                break
            self._greedy_move(game)
        until = game.ors_played() + self.params.ors
        while not game.is_over() and game.ors_played() < until:
            self._greedy_move(game)
        if self.model is not None and not game.is_over():
            return self.model.evaluate(game)
        result = game.result()
        if game.is_over():
            return result["win_share"]
        wealth = np.maximum(np.array(result["wealth"], dtype=float), 0)
        total = wealth.sum()
        return (wealth / total).tolist() if total > 0 else [1 / game.players] * game.players


@cache
def _model(name: str) -> Value:
    """The learned value in policies/models/NAME, loaded once per process."""
    return load_model(MODELS / name)


def _factory(args: str, seat: int, rng: np.random.Generator) -> Mcts:
    values = parse_args(args, "policy mcts")
    defaults = ROLLOUT_DEFAULTS if values.get("value") == "rollout" else {}
    params = bind(MctsParams, {**defaults, **values}, "policy mcts")
    if params.value != "model":
        return Mcts("mcts", params, seat, rng)
    try:
        if params.model is None:  # the defaults, all loaded now: a damaged one is an error before any game
            names = (DEFAULT_VALUE.model, *(step.model for steps in DEFAULT_VALUES.values() for step in steps))
            for name in dict.fromkeys(names):
                _model(name)
        return Mcts("mcts", params, seat, rng, None if params.model is None else _model(params.model))
    except ModelError as exc:
        raise PolicyError(f"policy mcts: {exc}") from None


register("mcts", _factory)
