"""What tree reuse and transpositions could give `mcts` (issue 42, item 2): how often a
search starts at a state its seat's previous tree already read, and with how many
playouts below it; and how often one tree reaches the same state by two paths.

    .venv/bin/python benchmarks/tree_sharing.py [--games 10] [--seed 0] [--players 2] [--spec mcts]

Every seat plays `--spec`; each search is shown to a watcher after it ends (`Mcts.on_search`).

- **Reuse.** A search can reuse only a node whose state its previous search kept (a node a
  playout walked through) and whose moves from the game's start are exactly the moves
  played since (the same `Game.fingerprint`): the playouts counted there are what a kept
  tree would have saved.
- **Transpositions.** Two kept nodes of one tree hold the same state when their public
  state, what is decided and the legal moves are alike (a key, not the engine's every
  field). Each node so keyed is checked against the first by greedy play from both
  states to the end: the same game must follow (the key's false matches are counted, not
  trusted). The playouts they account for are those below all but the most read node of
  each state, what one node per state would have saved, whatever the order of the walk."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the repo's policies/

from menorca_sim.game import Game  # noqa: E402
from menorca_sim.play import play_game, seat_policies  # noqa: E402
from menorca_sim.rules import load_ruleset  # noqa: E402
from menorca_sim.run.states import _below, watch_searches  # noqa: E402
from policies.mcts import Mcts, Node  # noqa: E402


class TreeWatch:
    """Counts, over every search shown to it (`at_search`), the reuse and transpositions
    the module's docstring describes."""

    def __init__(self) -> None:
        self.previous: dict[int, dict[str, float]] = {}  # seat -> its last tree's kept nodes: fingerprint -> playouts below
        self.searches = self.reused = 0
        self.budget = self.reused_playouts = 0.0
        self.kept = self.transposed = self.false_keys = 0
        self.transposed_playouts = 0.0

    def at_search(self, search: Mcts, root: Node) -> None:
        game = root.state
        below = self.previous.get(search.seat, {}).get(game.fingerprint())
        self.searches += 1
        self.budget += root.total
        if below is not None:
            self.reused += 1
            self.reused_playouts += below
        nodes = _kept(root)
        self.previous[search.seat] = {node.state.fingerprint(): node.total for node in nodes}
        self.kept += len(nodes)
        groups: dict[str, list[Node]] = {}
        for node in nodes:
            groups.setdefault(_key(node.state), []).append(node)
        for first, *others in (group for group in groups.values() if len(group) > 1):
            outcome = search.play_out(first.state.clone())
            alike = [first, *(node for node in others if search.play_out(node.state.clone()) == outcome)]
            self.false_keys += len(others) + 1 - len(alike)
            self.transposed += len(alike) - 1
            # what one node per state would have saved: the playouts below all but the most read
            totals = [node.total for node in alike]
            self.transposed_playouts += sum(totals) - max(totals)


def _kept(root: Node) -> list[Node]:
    """The tree's nodes whose state a playout kept, the root first."""
    return [root, *(node for node in _below(root, 1) if node.state is not None)]


def _key(game: Game) -> str:
    """The state as the players see it, what is decided and the legal moves."""
    return json.dumps([game.observation(), game.auction_state(), game.legal_actions()], sort_keys=True, default=str)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10, help="seeds seed .. seed + games - 1")
    parser.add_argument("--seed", type=int, default=0, help="the first game's seed")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--spec", default="mcts", help="the policy of every seat")
    args = parser.parse_args()
    rules = load_ruleset()
    watch = TreeWatch()
    for seed in range(args.seed, args.seed + args.games):
        seats = seat_policies([args.spec] * args.players, seed)
        watch_searches(seats, watch)
        play_game(rules, seed, seats)
    print(f"{args.players} players, every seat {args.spec}, {args.games} games, {watch.searches} searches "
          f"({watch.budget / max(watch.searches, 1):.1f} playouts each):")
    print(f"  reuse: {watch.reused / max(watch.searches, 1):.1%} of the searches start at a state their seat's "
          f"previous tree kept; {watch.reused_playouts / max(watch.budget, 1):.1%} of all playouts are already "
          f"there ({watch.reused_playouts / max(watch.reused, 1):.1f} a hit)")
    print(f"  transpositions: {watch.transposed} of {watch.kept} kept nodes repeat a state of their tree "
          f"({watch.transposed_playouts / max(watch.budget, 1):.2%} of the playouts); "
          f"{watch.false_keys} keyed alike but played differently")


if __name__ == "__main__":
    main()
