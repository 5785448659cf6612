"""`mcts`: a perfect-information Monte Carlo tree search player (UCT).

The game's only chance is its setup, drawn before the first decision, so from any state
the game is a deterministic function of the players' choices: the search copies the game
(`Game.clone`) and plays on the copy. It searches at the decisions that decide a game
(the auction, stock turns, vehicle purchases, dividends) and leaves the rest (track,
stations, markers...) to its heuristic.

The tree's nodes are those decisions, for every player; each node considers at most
`width` actions: the heuristic's own choice first (so a search too small to learn
anything plays like the heuristic), then others drawn from the player's generator. A
playout walks down by UCB1 (each node maximises the value of the seat deciding there),
adds one node, then plays on with the heuristic at temperature 0 for `depth` actions,
then until `ors` more operating rounds have ended, and scores the state: each player's
share of the total wealth, or the win shares if the game ended. Cheap truncated rollouts
scored by a value function, rather than rollouts to the end, keep a game within a few
hundred heuristic games' cost. Ending them at the end of an operating round (by default
the next one) rather than after a fixed number of actions matters: wealth is only
comparable between states at the same point of the round cycle (a share bought in a
stock round is worth its price, its dividends come in the next operating round), and a
search cut at a fixed depth lost nearly every game to the heuristic (docs/strong-players.md).

It plays the most visited action only if its mean value beats the heuristic's choice
by at least `margin` (in wealth share); otherwise the heuristic's choice stands. Its
value function sees one operating round ahead, and without this guard the search
overrode sound heuristic moves with myopic ones and lost to the heuristic it was built
on (docs/strong-players.md). By default it searches on top of the tuned heuristic.

The budget is `playouts` per decision, never seconds, so a game depends only on the seed
and the parameters, not on the machine. Between its searched decisions the seat plays
with a heuristic at the preset's own temperature, drawing from the seat's generator."""
from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from policies.base import AUCTION_DECISIONS, register
from policies.heuristic import PRESETS, Heuristic
from policies.spec import bind, check_ranges, parse_args

SEARCHED = (*AUCTION_DECISIONS, "stock_turn", "buy_vehicles", "dividend")


@dataclass(frozen=True)
class MctsParams:
    playouts: int = 16  # per searched decision
    depth: int = 0  # heuristic actions played after the tree...
    ors: int = 1  # ...then on until this many more operating rounds have ended
    c: float = 0.3  # UCB1's exploration weight (values are shares in [0, 1])
    width: int = 6  # actions considered at a node
    margin: float = 0.05  # the heuristic's choice stands unless the search's beats it by this much
    base: str = "heuristic_tuned"  # the heuristic preset of the rollouts and the decisions not searched

    def __post_init__(self) -> None:
        check_ranges(self, {"playouts": (1, None), "depth": (0, None), "ors": (0, None), "c": (0, None),
                            "width": (1, None)})
        if self.base not in PRESETS:
            raise ValueError(f"base must be a heuristic preset ({', '.join(sorted(PRESETS))}), got {self.base!r}")


class Node:
    """A searched decision reached by one sequence of choices: its seat, the actions it
    considers (indices of the legal actions) and what each has earned so far."""
    __slots__ = ("seat", "actions", "visits", "value", "children")

    def __init__(self, seat: int, actions: list[int], players: int) -> None:
        self.seat = seat
        self.actions = actions
        self.visits = np.zeros(len(actions))
        self.value = np.zeros(len(actions))  # summed value for `seat`
        self.children: dict[int, Node | None] = {}  # by position in `actions`; None: the game ended

    def select(self, c: float) -> int:
        """The next position to try: each once in order, then the best UCB1."""
        tried = len(self.children)
        if tried < len(self.actions):
            return tried
        log_n = math.log(self.visits.sum())
        return int(np.argmax(self.value / self.visits + c * np.sqrt(log_n / self.visits)))


class Mcts:
    def __init__(self, name: str, params: MctsParams, seat: int, rng: np.random.Generator) -> None:
        self.name = name
        self.params = params
        self.seat = seat
        self.rng = rng
        self.own = Heuristic(params.base, PRESETS[params.base], seat, rng)
        self.auction_strategy = "mcts"
        self.rollout: list[Heuristic] = []  # one greedy heuristic per seat, made at the first search
        self.sold: tuple[int, set[str]] = (-1, set())  # (ORs played, companies it sold since): this stock round's

    def act_code(self, game) -> int:
        if game.legal_count() == 1 or game.decision() not in SEARCHED:
            return self.own.act_code(game)
        legal = game.legal_actions()
        if not self.rollout:
            greedy = replace(PRESETS[self.params.base], temperature=0.0)
            self.rollout = [Heuristic(self.params.base, greedy, s, self.rng) for s in range(game.players)]
        root = self._node(game, legal, self._banned(game, legal))
        if len(root.actions) > 1:
            for _ in range(self.params.playouts):
                self._playout(game.clone(), root)
        chosen = root.actions[self._choice(root)]
        if legal[chosen]["type"] == "sell_cert":
            self.sold[1].add(legal[chosen]["company"])
        return chosen

    def _choice(self, root: Node) -> int:
        """The most visited action, unless its mean value beats the heuristic's (position 0)
        by less than `margin`: then the heuristic's."""
        best = int(np.argmax(root.visits))
        means = root.value / np.maximum(root.visits, 1)
        return best if means[best] - means[0] >= self.params.margin else 0

    def _banned(self, game, legal: list[dict]) -> set[int]:
        """Buying back a company it sold in this stock round: the rules allow it, and a
        search that sees no difference between a sale and its buy-back at its horizon
        could trade in a circle for ever with the heuristic's own buys, so it is banned
        (the heuristic's choice included), as most 18xx rules ban it."""
        if self.sold[0] != game.ors_played():
            self.sold = (game.ors_played(), set())
        return {i for i, a in enumerate(legal)
                if a["type"] == "buy_cert" and a["company"] in self.sold[1]}

    def _node(self, game, legal: list[dict], banned: set[int] = frozenset()) -> Node:
        """A new node: the heuristic's choice first, then up to width - 1 others (none of
        `banned`) at random."""
        seat = game.current_actor()
        allowed = [i for i in range(len(legal)) if i not in banned]
        first = self.rollout[seat].act_code(game)
        if first in banned:
            first = next(i for i in allowed if legal[i]["type"] in ("pass", "end_turn"))
        others = [i for i in allowed if i != first]
        if len(others) >= self.params.width:
            others = sorted(self.rng.choice(others, self.params.width - 1, replace=False).tolist())
        return Node(seat, [first, *others], game.players)

    def _playout(self, game, node: Node) -> None:
        path: list[tuple[Node, int]] = []
        while True:
            pos = node.select(self.params.c)
            path.append((node, pos))
            game.apply_code(node.actions[pos])
            expanded = pos not in node.children
            legal = self._to_next_search(game)
            if expanded or legal is None:
                if legal is not None:
                    node.children[pos] = self._node(game, legal)
                elif expanded:
                    node.children[pos] = None
                break
            node = node.children[pos]
        value = self._value(game, self.params.depth)
        for node, pos in path:
            node.visits[pos] += 1
            node.value[pos] += value[node.seat]

    def _to_next_search(self, game) -> list[dict] | None:
        """Play the heuristic's moves up to the next searched decision with a choice;
        its legal actions, or None if the game ended first."""
        while not game.is_over():
            if game.legal_count() > 1 and game.decision() in SEARCHED:
                return game.legal_actions()
            self._greedy_move(game)
        return None

    def _greedy_move(self, game) -> None:
        """One move of the rollouts' heuristic, read as an int (no legal dicts built)."""
        game.apply_code(self.rollout[game.current_actor()].act_code(game))

    def _value(self, game, depth: int) -> np.ndarray:
        """Each seat's value after `depth` more heuristic actions and the operating rounds
        `ors` asks: its win share if the game ended, else its share of the players' total wealth."""
        for _ in range(depth):
            if game.is_over():
                break
            self._greedy_move(game)
        until = game.ors_played() + self.params.ors
        while not game.is_over() and game.ors_played() < until:
            self._greedy_move(game)
        result = game.result()
        if game.is_over():
            return np.array(result["win_share"])
        wealth = np.maximum(np.array(result["wealth"], dtype=float), 0)
        total = wealth.sum()
        return wealth / total if total > 0 else np.full(game.players, 1 / game.players)


def _factory(args: str, seat: int, rng: np.random.Generator) -> Mcts:
    params = bind(MctsParams, parse_args(args, "policy mcts"), "policy mcts")
    return Mcts("mcts", params, seat, rng)


register("mcts", _factory)
