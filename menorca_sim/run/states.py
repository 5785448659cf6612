"""The `states` table's rows (menorca_sim/run/outcomes.py): every seat's feature vector
(menorca_sim/value/features.py) at snapshots of a game, labelled at the end with the
seat's final win share. Recorded only when the experiment asks (`record_states`): the
features read what-if revenues, which a default run need not pay for.

Two kinds of snapshot: those of the game's trajectory (right after the auction and after
each OR: `kind` "auction" and "or"), and a sample of the decisions a search reads the
learned value at (`kind` "decision": the decisions `mcts` searches with the model, with
more than one legal action), where a model trained on the trajectory's states alone
reads states it has not seen. The sample is drawn by a hash of (game seed, actions
applied), never from a generator of the game or its players, so recording changes no game.

A third kind, when the experiment also asks (`record_leaves`): states deep in the trees of
the `mcts` seats (`kind` "leaf"), where a larger search compares siblings one move apart
that no game's trajectory passes through. Each is labelled not by the game's outcome
(the game never went there) but by the seat's greedy heuristic played from it to the
end in every seat (`Mcts.play_out`), on a copy: the search and the game go on unchanged.
Which states: `record_leaves = "deep"`, one kept anywhere in the tree two or more
searched decisions below the root; `"principal"`, the deepest kept state on the most
visited line below each root move the search's choice weighs (the heuristic's and the
most visited), the states whose readings decide between siblings at a large budget.
Deep leaves of 16- and 64-playout trees, each counted ten times beside the trajectories'
rows (`learn`'s `weight`), make the first good value on which 32 playouts beat 16 and 64
beat 32, but 128 still loses to 64. That value, value_v6, loses ground against the
rollout search on UCB1 roots and is the strongest two-player search with halving at the
root (docs/strong-players.md, "Leaves of the search's trees" and "Sequential halving at
the root")."""
from __future__ import annotations

import hashlib
from typing import Any, Sequence

from menorca_sim.game import Game
from menorca_sim.value.features import FEATURES, seat_features
from policies.mcts import SEARCHED_BY_MODEL, Mcts, Node

LEAF_RATE = 0.25
"""The share of a search seat's searches that give a leaf: one state each, labelled by a
greedy play to the end (a few ms, about a heuristic game's cost)."""
LEAF_DEPTH = 2
"""A leaf is a state kept in the tree at least this many searched decisions below the
root: the states one below are the root's moves, which the trajectory's rows resemble."""
DECISION_RATE = 0.2
"""The share of the searched decisions recorded: a heuristic game has 150 to 180 of them
with a choice, and states a few actions apart say nearly the same: a fifth keeps a few
dozen per game."""


class StateRecorder:
    """Called by a `Trajectory` at each of its snapshots (`Trajectory(on_snapshot=...)`),
    by the play loop after each action (`at_decision`), and by the `mcts` seats after each
    search when `leaves` ("deep" or "principal", the module's docstring) asks (`at_search`)."""

    def __init__(self, leaves: str | None = None) -> None:
        self._rows: list[dict[str, Any]] = []
        self._leaves = leaves

    def __call__(self, game: Game, ors: int) -> None:
        self._record(game, "auction" if ors == 0 else "or")

    def at_decision(self, game: Game) -> None:
        """Record the state when its decision is a searched one, with a choice, and sampled."""
        if not game.is_over() and game.decision() in SEARCHED_BY_MODEL and game.legal_count() > 1 \
                and sampled(game.seed, game.action_count()):
            self._record(game, "decision")

    def at_search(self, search: Mcts, root: Node) -> None:
        """`Mcts.on_search`: for a sample of the searches, states kept in the tree
        `LEAF_DEPTH` or more searched decisions below `root` (one anywhere, or the end of
        each weighed root move's principal line), each labelled by `search.play_out`.
        Their `action` is the root's: with the kind, it names the search they come from."""
        game = root.state
        action = game.action_count()
        if _draw(game.seed, action, "leaf") >= LEAF_RATE * 2 ** 64:
            return
        if self._leaves == "principal":
            states = [state for state in (_line_end(root, pos) for pos in _weighed(root)) if state is not None]
        else:
            deep = [node.state for node in _below(root, LEAF_DEPTH) if node.state is not None]
            states = [deep[_draw(game.seed, action, "pick") % len(deep)]] if deep else []
        for state in states:
            self._record(state, "leaf", action, search.play_out(state.clone()))

    def _record(self, game: Game, kind: str, action: int | None = None,
                label: Sequence[float] | None = None) -> None:
        if game.is_over():  # its outcome is known: a search reads the result there, not a value
            return
        head = {"kind": kind, "action": game.action_count() if action is None else action, "or": game.ors_played()}
        for seat, row in enumerate(seat_features(game).tolist()):
            self._rows.append({**head, "seat": seat, **dict(zip(FEATURES, row)),
                               **({} if label is None else {"win_share": float(label[seat])})})

    def rows(self, win_share: Sequence[float]) -> list[dict[str, Any]]:
        """The rows so far, each with its seat's final `win_share` (the label to learn)
        unless it has its own (a leaf's)."""
        return [{"win_share": win_share[row["seat"]], **row} for row in self._rows]


def watch_searches(policies: Sequence[Any], recorder: StateRecorder) -> None:
    """Show `recorder` the trees of the `mcts` seats among `policies` (each found inside
    the wrappers `make_policy` puts around it: a checked policy, a style with its own
    auction strategy)."""
    for policy in policies:
        while policy is not None and not isinstance(policy, Mcts):
            policy = getattr(policy, "policy", getattr(policy, "style", None))
        if policy is not None:
            policy.on_search = recorder.at_search


def _below(root: Node, depth: int) -> list[Node]:
    """The tree's nodes `depth` or more levels below `root`, in the order of a walk down
    each child in the order it was added (so a game's leaves do not depend on Python's hashing)."""
    found, stack = [], [(child, 1) for child in reversed(list(root.children.values()))]
    while stack:
        node, level = stack.pop()
        if node is None:
            continue
        if level >= depth:
            found.append(node)
        stack.extend((child, level + 1) for child in reversed(list(node.children.values())))
    return found


def _most_visited(node: Node) -> int:
    """The position `node`'s search would play on its visits: the most visited, ties by value."""
    return max(node.children, key=lambda pos: (node.visits[pos], node.value[pos]))


def _weighed(root: Node) -> list[int]:
    """The root moves the search's choice weighs: the heuristic's (position 0) and the
    most visited, each once."""
    return sorted({0, _most_visited(root)} & root.children.keys())


def _line_end(root: Node, pos: int) -> Game | None:
    """The deepest state kept on the line below root move `pos` that follows the most
    visited move at each node, if `LEAF_DEPTH` or more searched decisions below `root`."""
    node, depth, end = root.children.get(pos), 1, None
    while node is not None:
        if depth >= LEAF_DEPTH and node.state is not None:
            end = node.state
        if not node.children:
            break
        node, depth = node.children[_most_visited(node)], depth + 1
    return end


def sampled(seed: int, action: int, rate: float = DECISION_RATE) -> bool:
    """Whether the decision after `action` actions of the game of `seed` is recorded."""
    return _draw(seed, action) < rate * 2 ** 64


def _draw(*parts: object) -> int:
    """A 64-bit number drawn by a hash of `parts`: the same parts, the same number."""
    digest = hashlib.blake2b(":".join(map(str, parts)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big")
