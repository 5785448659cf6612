"""A game's trajectory: the rows of the `rounds` table (menorca_sim/run/outcomes.py), one
snapshot of every player and every running company right after the auction and right
after each operating round, taken from the play loop through the Game's read API (and the
engine's count of ORs played: see `Trajectory.__call__`)."""
from __future__ import annotations

from typing import Any, Callable

from menorca_sim.game import Game


class Trajectory:
    """Watches a game being played (`play_game(..., watch=Trajectory())`): called after
    each action applied; `rows` holds the snapshots so far, without the game's ids.
    `on_snapshot(game, ors)`, if given, reads the state at each snapshot too (the
    `states` table's recorder: menorca_sim/run/states.py)."""

    def __init__(self, on_snapshot: Callable[[Game, int], None] | None = None) -> None:
        self.rows: list[dict[str, Any]] = []
        self._on_snapshot = on_snapshot
        self._ors = -1  # ORs played at the last snapshot; -1: none taken yet (the auction runs)
        self._revenue: dict[str, int] = {}  # company -> its route revenue in the OR running

    def __call__(self, game: Game) -> None:
        # asked after every action: a whole-state record (`observation()`, 25-35 µs) would
        # cost a fifth of a game
        ors = game.ors_played()
        if ors > self._ors and (self._ors >= 0 or game.auction_state() is None):
            self._snapshot(game, ors)
        # each company with a revenue decides on it once per OR: that is its OR's revenue
        if game.decision() == "dividend":
            self._revenue[game.actor_label()] = game.pending_revenue()

    def _snapshot(self, game: Game, ors: int) -> None:
        """Rows for each OR played since the last snapshot: several ORs pass within one
        action when no company has a decision in them, and share its state."""
        result, running = game.result(), game.company_states(("cash", "price"))
        for k in range(self._ors + 1, ors + 1):
            head = {"or": k, "phase": game.phase(), "bank": game.bank()}
            self.rows += [{**head, "kind": "player", "seat": seat, "company": None, "cash": cash,
                           "wealth": wealth, "price": None, "revenue": None}
                          for seat, (cash, wealth) in enumerate(zip(result["cash"], result["wealth"]))]
            self.rows += [{**head, "kind": "company", "seat": None, "company": company, "cash": c["cash"],
                           "wealth": None, "price": c["price"], "revenue": self._revenue.get(company, 0)}
                          for company, c in running.items()]
            # a company closed since its revenue (the minors at the merger) keeps only that
            self.rows += [{**head, "kind": "company", "seat": None, "company": company, "cash": None,
                           "wealth": None, "price": None, "revenue": revenue}
                          for company, revenue in self._revenue.items() if company not in running]
            self._revenue = {}
        if self._on_snapshot is not None:
            self._on_snapshot(game, ors)
        self._ors = ors
