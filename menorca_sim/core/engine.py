"""One game of 1713 Menorca: the shared state (state.py), each round's own state, and the
one sequencing table between the rounds (`_advance`).

The rules of each round live in their own modules (auction, stock, operating, phases).
They read and write the shared State and their own round state, and report when their
round is over; they never begin another round. The Engine decides what comes next: the
auction -> a stock round -> an operating set -> a stock round ..., and the end.

The legal actions of a state are built once, as ints, into the State's moves buffer:
`legal_codes` builds them (the operating round's automatic steps have usually just built
its choices: they are kept), `legal_action(i)` reads action i as the tuple `apply` takes
(names for the map)."""
from __future__ import annotations

import cython
import numpy as np

from menorca_sim.core import auction, operating, phases, stock
from menorca_sim.core.auction import AuctionState
from menorca_sim.core.operating import OperatingState
from menorca_sim.core.state import State
from menorca_sim.core.stock import Placement, StockState

if not cython.compiled:
    from menorca_sim.core.codes import (AUCTION, DISCARD, LAY_TILE, MARKET_MARKER, MOVE_WIDTH, NO_MARKER, OPERATING,
                                        OVER, PLACE_GOODS, PLACE_MARKET, PLACE_STATION, SCOPE_OR, STOCK)
from menorca_sim.core.codes import ARITY


class Engine(State):
    """One game: `Engine(tables, players, board, setup_rng, minors, legacies)`; `setup_rng`
    makes the setup draws (`minors`/`legacies` given override the draws)."""

    def __init__(self, tables, players: cython.int, board, setup_rng: np.random.Generator,
                 minors=None, legacies=None) -> None:
        super().__init__(tables, players, board, setup_rng, minors, legacies)
        self.auction = AuctionState()
        self.stock = StockState(tables.n_companies)
        self.operating = OperatingState(tables.n_companies)
        self.marker = Placement()
        setup = tables.rs.setup
        if setup.assigned_legacy != "none" and setup.assigned_arm == "hold" and legacies is None:
            seat: cython.int = setup.assigned_seat if setup.assigned_seat >= 0 else int(setup_rng.integers(players))
            auction.award(self, tables.legacy_index[setup.assigned_legacy], seat, setup.assigned_price)
        auction.begin(self, self.auction)
        phases.reveal_event(self, self.epoch)

    def clone(self) -> Engine:
        """An independent copy: the shared state's (State._copy_into) and each round state's
        (tests/core/test_core_engine.py checks every field they declare)."""
        new: Engine = Engine.__new__(Engine)
        self._copy_into(new)
        new.auction, new.stock = self.auction.copy(), self.stock.copy()
        new.operating, new.marker = self.operating.copy(), self.marker.copy()
        return new

    # --- the flow between rounds -------------------------------------------------------
    def _advance(self) -> None:
        """The round in force is over: begin what follows it, until a round is going on
        (an OR may be over as soon as it begins) or the game is over."""
        o: OperatingState = self.operating
        over: cython.bint = True
        set_done: cython.bint
        while over:
            over = False
            if self.stage == AUCTION:
                self._begin_stock_round()
            elif self.stage == STOCK:
                # the bank broken during it ends the game here under
                # end.bank_empty_in_stock_round = end_of_round; else the set's first OR does
                if self.t.bank_empty_ends_sr and self.end_reason == "bank":
                    self._game_over("bank")
                else:
                    self.stage = OPERATING
                    o.set_length = self.t.phase_ors[self.phase]
                    o.in_set = 0
                    over = operating.begin_or(self, o, self.marker)
            else:  # an OR
                self.ors += 1
                set_done = o.in_set >= o.set_length
                if self.end_reason and (self.end_scope == SCOPE_OR or set_done):
                    self._game_over(self.end_reason)
                elif self.ors >= self.t.max_ors:
                    self._game_over("cap")
                elif set_done:
                    self._begin_stock_round()
                else:
                    over = operating.begin_or(self, o, self.marker)

    def _begin_stock_round(self) -> None:
        self.stage = STOCK
        self.srs += 1
        stock.begin(self, self.stock)

    def _game_over(self, reason: str) -> None:
        self.stage = OVER
        self.final_reason = reason

    # --- decisions ---------------------------------------------------------------------
    def turn(self) -> tuple[int, int, str]:
        """(seat deciding, company it decides for or -1, the decision pending): what may
        be pending looked at once, the most urgent first."""
        if self.stage == OVER:
            return (-1, -1, "none")
        m: Placement = self.marker
        if m.kind != NO_MARKER:
            return (m.player, -1 if self.stage == STOCK else m.company,
                    "place_market_marker" if m.kind == MARKET_MARKER else "place_goods_marker")
        c: cython.int = phases.company_to_discard(self)
        if c >= 0:
            return (self.director(c), c, "discard_vehicle")
        if self.stage == AUCTION:
            return (auction.actor(self.auction), -1, auction.decision(self.auction))
        if self.stage == STOCK:
            return (self.stock.turn, -1, "stock_turn")
        seat, company = operating.actor(self, self.operating)
        return (seat, company, operating.decision(self.operating))

    def decision(self) -> str:
        return self.turn()[2]

    def actor(self) -> tuple[int, int]:
        """(seat deciding, company it decides for or -1)."""
        seat, company, _ = self.turn()
        return (seat, company)

    # --- the legal actions, as ints -----------------------------------------------------
    def build_moves(self) -> cython.int:
        """The legal actions of this state into the moves (once per state); how many."""
        if self.moves_ready:
            return self.n_moves
        c: cython.int
        if self.stage == OVER:
            self.begin_moves()
        elif self.marker.kind != NO_MARKER:
            self.begin_moves()
            stock.marker_actions(self, self.marker)
        else:
            c = phases.company_to_discard(self)
            if c >= 0:
                self.begin_moves()
                phases.discard_actions(self, c)
            elif self.stage == AUCTION:
                self.begin_moves()
                auction.legal(self, self.auction)
            elif self.stage == STOCK:
                self.begin_moves()
                stock.legal(self, self.stock)
            else:
                operating.legal(self, self.operating)  # keeps the step's choices if the automatic steps built them
        self.moves_ready = True
        return self.n_moves

    def legal_codes(self) -> cython.int[::1]:
        """The legal actions of this state as ints, MOVE_WIDTH per action (kind, then
        arguments: see codes.ARITY), in the order of the Game's `legal_actions()`: a view of
        the moves for players that read ints (read it, never write it), good until the next
        action."""
        end: cython.Py_ssize_t = self.build_moves() * MOVE_WIDTH
        if cython.compiled:
            return self._moves[:end]
        return memoryview(self._moves)[:end]

    def legal_action(self, i: cython.int) -> tuple:
        """Legal action i of this state (`build_moves` first) as the tuple `apply` takes:
        the map's hexes, tiles and nodes by name."""
        at: cython.Py_ssize_t = i * MOVE_WIDTH
        kind: cython.int = self._moves[at]
        if kind == LAY_TILE:
            mt = self.board.tables
            return (kind, mt.land[self._moves[at + 1]], mt.tile_ids[self._moves[at + 2]], self._moves[at + 3],
                    self._moves[at + 4])
        if kind == PLACE_STATION:
            return (kind, self.board.tables.node_names[self._moves[at + 1]], self._moves[at + 2])
        arity: cython.int = ARITY[kind]
        if arity == 0:
            return (kind,)
        if arity == 1:
            return (kind, self._moves[at + 1])
        if arity == 2:
            return (kind, self._moves[at + 1], self._moves[at + 2])
        if arity == 3:
            return (kind, self._moves[at + 1], self._moves[at + 2], self._moves[at + 3])
        return (kind, self._moves[at + 1], self._moves[at + 2], self._moves[at + 3], self._moves[at + 4])

    def apply(self, action: tuple) -> None:
        """Apply a legal action (the caller checks legality); the rounds report whether
        theirs is over, and `_advance` begins what follows."""
        self.begin_moves()  # and the moves are scratch until the state settles
        kind: cython.int = action[0]
        over: cython.bint = False
        if kind == PLACE_MARKET or kind == PLACE_GOODS:
            over = stock.place_marker(self, self.stock, self.marker, action)
        elif kind == DISCARD:
            phases.discard(self, phases.company_to_discard(self), action[1])
        elif self.stage == AUCTION:
            over = auction.apply(self, self.auction, action)
        elif self.stage == STOCK:
            over = stock.apply(self, self.stock, self.marker, action)
        else:
            operating.apply(self, self.operating, self.marker, action)
        if not over and self.marker.kind == NO_MARKER and self.stage == OPERATING \
                and phases.company_to_discard(self) < 0:
            over = operating.settle(self, self.operating, self.marker)
        if over:
            self._advance()
        self.actions += 1
