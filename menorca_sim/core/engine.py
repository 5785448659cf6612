"""The state of one game of 1713 Menorca and the flow between its rounds.

The rules of each round live in their own modules (auction, stock, operating, phases);
this module holds the state they share, the money and market primitives, round
transitions, the end of the game and the final score. Every rule value comes from
the ruleset (`Tables.rs`), read per action from its int tables.

The per-player, per-company, per-legacy and per-vehicle ints live in one int buffer
(`_grid`), each field a view of some of its rows (`_bind`): compiled, typed memoryviews
(engine.pxd comments every field); in pure mode, views of an `array`. A copy of the
state is a copy of that buffer, bound anew.

The legal actions of a state are built once, as ints, into another buffer (`_moves`,
MOVE_WIDTH ints per action: its kind, then its arguments, unused ones 0; a tile lay's
hex and tile and a station's node as MapTables indices): `legal_codes` builds them (the
operating round's automatic steps have usually just built its choices: they are kept),
`legal_action(i)` reads action i as the tuple `apply` takes (names for the map)."""
from __future__ import annotations

from array import array

import cython
import numpy as np

from menorca_sim.core import auction, operating, phases, stock

if not cython.compiled:
    from menorca_sim.core.codes import (AUCTION, BOX, DISCARD, LAY_TILE, MAJOR, MARKET_MARKER, MINOR, MOVE_WIDTH,
                                        NO_MARKER, OPERATING, OVER, OWNER_SLOTS, PLACE_GOODS, PLACE_MARKET,
                                        PLACE_STATION, SCOPE_NONE, SCOPE_OR, SCOPE_SET, STOCK, TREASURY)
from menorca_sim.core.codes import ARITY, ROUND_NAMES

# rows of the int buffer: one per 1-D field, and the companies' count of rows per 2-D field
_ROWS_1D = 31
_GRIDS_2D = 6


class Engine:
    """One game's state: `Engine(tables, players, board, setup_rng, minors, legacies)`;
    `setup_rng` makes the setup draws (`minors`/`legacies` given override the draws)."""

    def __init__(self, tables, players: cython.int, board, setup_rng: np.random.Generator,
                 minors=None, legacies=None) -> None:
        rs = tables.rs
        if players not in rs.player_counts:
            raise ValueError(f"the ruleset has no row for {players} players "
                             f"(it defines {sorted(rs.player_counts)})")
        _require(rs.operating.vehicle_trade, ("same_director", "any_with_consent"), "operating.vehicle_trade")
        _require(rs.end.bank_broken_finish, ("or",), "end.bank_broken_finish")
        _require(rs.end.bankruptcy_finish, ("or",), "end.bankruptcy_finish")
        _require(rs.operating.order_tie, ("right_up_first",), "operating.order_tie")
        self.t = tables
        self.rs = rs
        self.n = players
        self.board = board
        t = tables
        nc: cython.Py_ssize_t = t.nc
        self._width = max(players + OWNER_SLOTS, nc, t.nv, t.nl, t.no, t.max_certs)
        rows = _ROWS_1D + _GRIDS_2D * nc
        flat = array("i", bytes(4 * rows * self._width))
        self._grid = memoryview(flat).cast("B").cast("i", (rows, self._width)) if cython.compiled else flat
        self._bind()
        self.stage = AUCTION
        self.phase = 0
        self.epoch = t.phase_epoch[0]
        pc = rs.player_counts[players]
        self.cert_limit = pc.cert_limit
        self.bank = rs.bank - pc.cash * players - sum(pc.seat_cash)
        self.start_value = rs.bank
        c: cython.Py_ssize_t
        k: cython.Py_ssize_t
        for p in range(players):
            self.p_cash[p] = pc.cash + pc.seat_cash[p]
        for c in range(nc):
            for k in range(t.max_certs):  # past a company's last certificate: out of the game
                self.cert_owner[c][k] = TREASURY if k < t.co_certs[c] else BOX
            self.held[c][self._slot(TREASURY)] = t.co_certs[c]
            self.held_pct[c][self._slot(TREASURY)] = 100
            self.president[c] = -1
            self.markers_left[c] = t.co_markers[c]
            self.goods_left[c] = t.co_goods_markers[c]
            self.station_supply[c] = t.co_stations[c]
        for v in range(t.nv):
            self.vehicles_left[v] = t.veh_count[v]
        for l in range(t.nl):
            self.leg_player[l] = self.leg_company[l] = self.leg_buyer[l] = -1
        self.co_vehicles = [[] for _ in range(nc)]
        self.arrivals = 0
        self.actions = 0
        self.srs = 0
        self.ors = 0
        self.or_in_set = 0
        self.set_length = 0
        self.start_player = rs.setup.start_player
        self.end_reason = ""
        self.end_scope = SCOPE_NONE
        self.final_reason = ""
        self.node_bonus: dict[str, int] = {}
        # counts the changes of what route revenues depend on besides the map: the phase
        # (and with it the epoch, its event, closings and merger), legacies bought by
        # companies, market markers (phases.advance, operating, stock.place_marker)
        self.revenue_version = 0
        # pending marker placement (a purchase or a free marker): kind, company, player, count
        self.pm_kind = NO_MARKER
        self.pm_company = -1
        self.pm_player = -1
        self.pm_count = 0
        # round-specific state (set for real when each round begins; zero until then, as
        # the compiled fields start, so that a copy made before may read them)
        self.sr_turn = self.sr_passes = self.sr_first_passer = 0
        self.sr_acted = False
        self.or_company = -1
        self.or_step = 0
        self.or_lays_left = 0
        self.or_sold_own = False
        self.or_plan = None
        self.board_memo = ((), None)  # (question and map state, answer): see operating._ask_board
        self.offer = []  # a vehicle sale awaiting the seller's consent: buyer, vehicle, seller, price
        self.declined = []  # sellers that refused the operating company this turn
        self._no_moves()
        # The draws are always made in this order, so that forcing the minors (say) leaves
        # a seed's legacies and events as they would have been drawn.
        self.minors_in_play = self._draw_minors(setup_rng, minors)
        self.leg_in_play = self._draw_legacies(setup_rng, legacies)
        self.events = [ep.events[int(setup_rng.integers(len(ep.events)))] for ep in rs.epochs]
        for c in range(nc):
            if t.co_kind[c] == MINOR and c not in self.minors_in_play:
                self.closed[c] = True
                for k in range(t.co_certs[c]):
                    self.set_owner(c, k, BOX)
        auction.begin(self)
        self._reveal_event(self.epoch)

    def _bind(self) -> None:
        """Point every int field at its rows of `_grid` (the order is the layout)."""
        t = self.t
        nc: cython.int = t.nc
        at: cython.int = 0
        self.p_cash = self._row(at, self.n); at += 1
        self.started = self._row(at, nc); at += 1
        self.closed = self._row(at, nc); at += 1
        self.co_cash = self._row(at, nc); at += 1
        self.co_row = self._row(at, nc); at += 1
        self.co_col = self._row(at, nc); at += 1
        self.co_arrival = self._row(at, nc); at += 1
        self.co_par = self._row(at, nc); at += 1
        self.operated = self._row(at, nc); at += 1
        self.president = self._row(at, nc); at += 1
        self.markers_left = self._row(at, nc); at += 1
        self.marked_sold = self._row(at, nc); at += 1
        self.goods_left = self._row(at, nc); at += 1
        self.revenue_total = self._row(at, nc); at += 1
        self.dividends_paid = self._row(at, nc); at += 1
        self.vehicles_bought = self._row(at, nc); at += 1
        self.markers_placed = self._row(at, nc); at += 1
        self.bankrupt = self._row(at, nc); at += 1
        self.station_supply = self._row(at, nc); at += 1
        self.sold_this_turn = self._row(at, nc); at += 1
        self.operated_this_or = self._row(at, nc); at += 1
        self.n_ships = self._row(at, nc); at += 1
        self.vehicles_left = self._row(at, t.nv); at += 1
        self.leg_player = self._row(at, t.nl); at += 1
        self.leg_company = self._row(at, t.nl); at += 1
        self.leg_closed = self._row(at, t.nl); at += 1
        self.leg_price = self._row(at, t.nl); at += 1
        self.leg_drops = self._row(at, t.nl); at += 1
        self.leg_buyer = self._row(at, t.nl); at += 1
        self.leg_reservations = self._row(at, t.nl); at += 1
        self.leg_income = self._row(at, t.nl); at += 1
        self.cert_owner = self._rows(at, nc, t.max_certs); at += nc
        self.cert_left = self._rows(at, nc, t.max_certs); at += nc
        self.mmarkers = self._rows(at, nc, t.no); at += nc
        self.goods = self._rows(at, nc, t.no); at += nc
        slots: cython.int = self.n + OWNER_SLOTS
        self.held = self._rows(at, nc, slots); at += nc
        self.held_pct = self._rows(at, nc, slots); at += nc
        assert at == _ROWS_1D + _GRIDS_2D * nc, "_ROWS_1D or _GRIDS_2D does not match the layout"

    def _row(self, at: cython.int, width: cython.int) -> cython.int[::1]:
        if cython.compiled:
            return self._grid[at, :width]
        start = at * self._width
        return memoryview(self._grid)[start:start + width]

    def _rows(self, at: cython.int, count: cython.int, width: cython.int) -> cython.int[:, :]:
        if cython.compiled:
            return self._grid[at:at + count, :width]
        return [self._row(at + i, width) for i in range(count)]

    @property
    def round(self) -> str:
        """The round's name: auction, stock, operating or over."""
        return ROUND_NAMES[self.stage]

    # --- setup draws -------------------------------------------------------------------
    def _draw_minors(self, rng, minors) -> list[int]:
        t = self.t
        want = self.rs.setup.minors_in_play
        drawn = [t.minors[int(i)] for i in rng.choice(len(t.minors), size=want, replace=False)]
        if minors is None:
            return sorted(drawn)
        chosen = [t.company_index[m] for m in minors]
        if len(set(chosen)) != want or any(t.companies[c].kind != "minor" for c in chosen):
            names = [t.company_ids[i] for i in t.minors]
            raise ValueError(f"minors must be {want} distinct minors of {names}")
        return sorted(chosen)

    def _draw_legacies(self, rng, legacies) -> list[int]:
        t = self.t
        drawn = [int(i) for i in rng.choice(len(t.legacies), size=self.n, replace=False)]
        if legacies is None:
            if self.rs.setup.legacies == "random":
                return sorted(drawn)
            legacies = list(self.rs.setup.fixed_legacies)[: self.n]
        return sorted(t.legacy_index[l] for l in legacies)

    # --- copying -----------------------------------------------------------------------
    def clone(self) -> Engine:
        """An independent copy: the int buffer copied whole, the other fields one by one
        (tests/core/test_core_engine.py checks that a copy equals its original in every field
        engine.pxd declares)."""
        new: Engine = Engine.__new__(Engine)
        new.t, new.rs, new.n, new._width = self.t, self.rs, self.n, self._width
        new._grid = self._grid.copy() if cython.compiled else array("i", self._grid)
        new._bind()
        new.board = self.board.clone()
        new.co_vehicles = [list(fleet) for fleet in self.co_vehicles]
        new.node_bonus = dict(self.node_bonus)
        new.offer, new.declined = list(self.offer), list(self.declined)
        new.stage, new.phase, new.epoch, new.cert_limit = self.stage, self.phase, self.epoch, self.cert_limit
        new.bank, new.start_value, new.arrivals, new.actions = self.bank, self.start_value, self.arrivals, self.actions
        new.srs, new.ors, new.or_in_set, new.set_length = self.srs, self.ors, self.or_in_set, self.set_length
        new.start_player, new.revenue_version = self.start_player, self.revenue_version
        new.end_reason, new.end_scope, new.final_reason = self.end_reason, self.end_scope, self.final_reason
        new.pm_kind, new.pm_company, new.pm_player, new.pm_count = self.pm_kind, self.pm_company, self.pm_player, self.pm_count
        new.or_company, new.or_step, new.or_lays_left = self.or_company, self.or_step, self.or_lays_left
        new.or_sold_own = self.or_sold_own
        new.or_plan, new.board_memo = self.or_plan, self.board_memo  # never changed in place
        new.minors_in_play, new.leg_in_play, new.events = self.minors_in_play, self.leg_in_play, self.events  # set up once
        new.sr_turn, new.sr_passes, new.sr_first_passer, new.sr_acted = \
            self.sr_turn, self.sr_passes, self.sr_first_passer, self.sr_acted
        new.auc_order, new.auc_pos, new.auc_price, new.auc_turn = self.auc_order, self.auc_pos, self.auc_price, self.auc_turn
        new.auc_passes, new.last_passer, new.last_buyer = self.auc_passes, self.last_passer, self.last_buyer
        new.reservations = [list(bids) for bids in self.reservations]
        new.contest_bidders = list(self.contest_bidders)
        new.contest_high, new.contest_bid, new.contest_turn = self.contest_high, self.contest_bid, self.contest_turn
        # a memoryview of no items (a state whose moves were never built) cannot .copy()
        new._moves = self._moves.copy() if cython.compiled and len(self._moves) else array("i", self._moves)
        new.n_moves, new.moves_ready, new.choices_ready = self.n_moves, self.moves_ready, self.choices_ready
        return new

    # --- holdings ----------------------------------------------------------------------
    # Kept counted (`held`, `held_pct`) by set_owner, the one writer of cert_owner: these
    # run for every company in most build_moves() calls.
    def _slot(self, owner: cython.int) -> cython.int:
        """The column of `held` counting certificates held by `owner` (a player, TREASURY,
        POOL or BOX)."""
        return owner if owner < TREASURY else self.n + owner - TREASURY

    def set_owner(self, c: cython.int, k: cython.int, owner: cython.int) -> None:
        """Certificate k of c passes to `owner` (the only way cert_owner changes)."""
        pct: cython.int = self.t.cert_pct[c][k]
        old: cython.int = self._slot(self.cert_owner[c][k])
        new: cython.int = self._slot(owner)
        self.held[c][old] -= 1
        self.held_pct[c][old] -= pct
        self.held[c][new] += 1
        self.held_pct[c][new] += pct
        self.cert_owner[c][k] = owner

    def percent(self, c: cython.int, owner: cython.int) -> cython.int:
        return self.held_pct[c][self._slot(owner)]

    def count_of(self, c: cython.int, owner: cython.int) -> cython.int:
        return self.held[c][self._slot(owner)]

    def first_cert(self, c: cython.int, owner: cython.int) -> cython.int:
        """Index of the lowest-numbered certificate of c held by `owner`, or -1."""
        k: cython.int
        for k in range(self.t.co_certs[c]):
            if self.cert_owner[c][k] == owner:
                return k
        return -1

    def sellable_cert(self, c: cython.int, p: cython.int) -> cython.int:
        """The certificate p would sell: his highest-numbered one, never a Trust Family one,
        nor (minors.last_certificate = keep) a minor president's last one while no other
        player holds one; or -1."""
        first: cython.int = 1 if self.t.co_kind[c] == MAJOR else 0
        k: cython.int
        for k in range(self.t.co_certs[c] - 1, first - 1, -1):
            if self.cert_owner[c][k] == p:
                return -1 if self._keeps_last(c, p) else k
        return -1

    def _keeps_last(self, c: cython.int, p: cython.int) -> cython.bint:
        """Must p keep his one certificate of minor c, as its president with no other
        player holding any (so that no minor is directed by a player who owns none of it)?"""
        if not self.t.keep_last_minor_cert or self.t.co_kind[c] != MINOR or self.president[c] != p:
            return False
        q: cython.int
        players: cython.int = 0
        for q in range(self.n):
            players += self.held[c][q]
        return players == self.held[c][p] == 1

    def sold_percent(self, c: cython.int) -> cython.int:
        return 100 - self.percent(c, TREASURY) - self.percent(c, BOX)

    def counts_toward_limit(self, c: cython.int) -> cython.bint:
        """Whether certificates of c count toward a player's limit (not when c is closed
        or its price is in the orange zone)."""
        return not self.closed[c] and not (self.started[c] and self.t.mk_orange[self.co_row[c]][self.co_col[c]])

    def cert_count(self, p: cython.int) -> cython.int:
        """Certificates of player p that count toward his limit."""
        total: cython.int = 0
        held: cython.int
        c: cython.int
        for c in range(self.t.nc):
            held = self.held[c][p]
            if held and self.counts_toward_limit(c):  # the cheaper test first
                total += held
        return total

    # --- fleets: kept with their ship counts (`n_ships`) ------------------------------
    def ships(self, c: cython.int) -> cython.int:
        """How many of company c's vehicles are ships (the rest are carts)."""
        return self.n_ships[c]

    def add_vehicle(self, c: cython.int, v: cython.int) -> None:
        self.co_vehicles[c].append(v)
        self.n_ships[c] += self.t.vehicle_is_ship[v]

    def remove_vehicle(self, c: cython.int, v: cython.int) -> None:
        """One vehicle v (the first listed) leaves company c's fleet."""
        self.co_vehicles[c].remove(v)
        self.n_ships[c] -= self.t.vehicle_is_ship[v]

    def set_fleet(self, c: cython.int, vehicles: list) -> None:
        """Company c's fleet becomes `vehicles` (vehicle indices, in order)."""
        self.co_vehicles[c] = vehicles
        ships: cython.int = 0
        for v in vehicles:
            ships += self.t.vehicle_is_ship[v]
        self.n_ships[c] = ships

    def price(self, c: cython.int) -> cython.int:
        return self.t.mk_value[self.co_row[c]][self.co_col[c]]

    def cert_price(self, c: cython.int, k: cython.int) -> cython.int:
        return self.price(c) * self.t.cert_pct[c][k] // 10

    def director(self, c: cython.int) -> cython.int:
        """The player who decides for company c: the Trust Family holder of a major, else its president."""
        if self.t.co_kind[c] == MAJOR:
            return self.cert_owner[c][0]
        return self.president[c]

    def update_president(self, c: cython.int) -> None:
        """Minors and RADM: the largest holder presides; a tie keeps the sitting president."""
        if self.t.co_kind[c] == MAJOR or not self.started[c]:
            return
        best: cython.int = self.president[c]
        best_pct: cython.int = self.percent(c, best) if best >= 0 else 0
        pct: cython.int
        p: cython.int
        for p in range(self.n):
            pct = self.percent(c, p)
            if pct > best_pct:
                best, best_pct = p, pct
        self.president[c] = best

    def operates(self, c: cython.int) -> cython.bint:
        return (self.started[c] and not self.closed[c]
                and self.sold_percent(c) >= self.t.co_operate_pct[c])

    def is_major(self, c: cython.int) -> cython.bint:
        return self.t.co_kind[c] == MAJOR

    def owned_legacies(self, c: cython.int, ability: cython.int) -> list:
        """The open legacies company c owns whose ability is `ability` (an AB_* code)."""
        t = self.t
        out = []
        for l in self.leg_in_play:  # asked for every route question
            if self.leg_company[l] == c and not self.leg_closed[l] and t.ability[l] == ability:
                out.append(l)
        return out

    # --- money -------------------------------------------------------------------------
    def bank_pays(self, amount: cython.int) -> None:
        """Every payment out of the bank; the bank may go negative (the game then ends)."""
        self.bank -= amount
        if amount > 0 and self.bank <= 0:
            self.trigger_end("bank", SCOPE_OR)

    def pay_player(self, p: cython.int, amount: cython.int) -> None:
        self.bank_pays(amount)
        self.p_cash[p] += amount

    def pay_company(self, c: cython.int, amount: cython.int) -> None:
        self.bank_pays(amount)
        self.co_cash[c] += amount

    # --- market ------------------------------------------------------------------------
    def place_token(self, c: cython.int, row: cython.int, col: cython.int) -> None:
        self.co_row[c], self.co_col[c] = row, col
        self.arrivals += 1
        self.co_arrival[c] = self.arrivals
        if self.t.mk_bankrupt[row][col]:
            self.bankrupt[c] = True
            self.trigger_end("bankruptcy", SCOPE_OR)

    def move(self, c: cython.int, direction: cython.int) -> None:
        """Move c's token one step UP, DOWN, LEFT or RIGHT, as the market's edges allow."""
        t = self.t
        r: cython.int = self.co_row[c]
        col: cython.int = self.co_col[c]
        at: cython.int = direction * t.mk_rows + r
        nr: cython.int = t.mk_to_row[at][col]
        ncol: cython.int = t.mk_to_col[at][col]
        if nr != r or ncol != col:
            self.place_token(c, nr, ncol)

    # --- flow --------------------------------------------------------------------------
    def trigger_end(self, reason: str, scope: cython.int) -> None:
        """Note an end condition; the one that ends the game soonest wins (an OR before a set)."""
        if not self.end_reason or (scope == SCOPE_OR and self.end_scope == SCOPE_SET):
            self.end_reason, self.end_scope = reason, scope

    def start_stock_round(self) -> None:
        self.stage = STOCK
        self.srs += 1
        stock.begin(self)

    def finish_stock_round(self) -> None:
        """Called by the stock round when all have passed: the bank broken during it ends
        the game here under end.bank_empty_in_stock_round = end_of_round; else the
        operating set follows (and its first OR ends the game)."""
        if self.t.bank_empty_ends_sr and self.end_reason == "bank":
            self._game_over("bank")
        else:
            self.start_operating_set()

    def start_operating_set(self) -> None:
        self.stage = OPERATING
        self.set_length = self.t.phase_ors[self.phase]
        self.or_in_set = 0
        operating.begin_or(self)

    def finish_or(self) -> None:
        """Called by the operating round when every company has operated."""
        self.ors += 1
        set_done = self.or_in_set >= self.set_length
        if self.end_reason and (self.end_scope == SCOPE_OR or set_done):
            self._game_over(self.end_reason)
        elif self.ors >= self.t.max_ors:
            self._game_over("cap")
        elif set_done:
            self.start_stock_round()
        else:
            operating.begin_or(self)

    def _game_over(self, reason: str) -> None:
        self.stage = OVER
        self.final_reason = reason

    def _reveal_event(self, epoch: cython.int) -> None:
        """Once per epoch: the event card's effect (the ruleset's names read here only)."""
        effect = self.rs.events[self.events[epoch - 1]].effect
        if effect.type == "revenue_bonus":
            self.node_bonus[effect.node] = self.node_bonus.get(effect.node, 0) + effect.amount
        elif effect.type == "close_legacies":
            phases.close_legacies(self, 0)
        elif effect.type == "end_after_set":
            self.trigger_end("conquest", SCOPE_SET)

    def begin_epoch(self, epoch: cython.int) -> None:
        """A new epoch: the RADM merger first, then closings, then the event card."""
        self.epoch = epoch
        merged: cython.int = self.t.merged
        if merged >= 0 and self.t.co_formed[merged] == epoch:
            phases.merge_minors(self)
        phases.close_legacies(self, epoch)
        self._reveal_event(epoch)

    # --- decisions ---------------------------------------------------------------------
    def is_over(self) -> cython.bint:
        return self.stage == OVER

    def turn(self) -> tuple[int, int, str]:
        """(seat deciding, company it decides for or -1, the decision pending): what may
        be pending looked at once, the most urgent first."""
        if self.stage == OVER:
            return (-1, -1, "none")
        if self.pm_kind != NO_MARKER:
            return (self.pm_player, -1 if self.stage == STOCK else self.pm_company,
                    "place_market_marker" if self.pm_kind == MARKET_MARKER else "place_goods_marker")
        c: cython.int = phases.company_to_discard(self)
        if c >= 0:
            return (self.director(c), c, "discard_vehicle")
        if self.stage == AUCTION:
            return (auction.actor(self), -1, auction.decision(self))
        if self.stage == STOCK:
            return (self.sr_turn, -1, "stock_turn")
        seat, company = operating.actor(self)
        return (seat, company, operating.decision(self))

    def decision(self) -> str:
        return self.turn()[2]

    def actor(self) -> tuple[int, int]:
        """(seat deciding, company it decides for or -1)."""
        seat, company, _ = self.turn()
        return (seat, company)

    # --- the legal actions, as ints -----------------------------------------------------
    def _no_moves(self) -> None:
        """An empty buffer of moves (its room allocated by the first `add_move`)."""
        self._moves = array("i")
        self.n_moves = 0
        self.moves_ready = self.choices_ready = False

    def begin_moves(self) -> None:
        """Start writing the moves anew: the rounds' modules then write them; the Game asks
        it when the state may have been changed in place (a test's set-up), so that they
        are built again."""
        self.n_moves = 0
        self.moves_ready = self.choices_ready = False

    def add_move(self, kind: cython.int, a: cython.int = 0, b: cython.int = 0, c: cython.int = 0,
                 d: cython.int = 0) -> None:
        """Append a move: `kind`, then its arguments (see codes.ARITY)."""
        at: cython.Py_ssize_t = self.n_moves * MOVE_WIDTH
        j: cython.Py_ssize_t
        if at + MOVE_WIDTH > len(self._moves):
            grown = array("i", [0]) * max(64 * MOVE_WIDTH, 2 * len(self._moves))
            view: cython.int[::1] = grown
            for j in range(at):
                view[j] = self._moves[j]
            self._moves = grown
        self._moves[at] = kind
        self._moves[at + 1] = a
        self._moves[at + 2] = b
        self._moves[at + 3] = c
        self._moves[at + 4] = d
        self.n_moves += 1

    def build_moves(self) -> cython.int:
        """The legal actions of this state into the moves (once per state); how many."""
        if self.moves_ready:
            return self.n_moves
        c: cython.int
        if self.stage == OVER:
            self.begin_moves()
        elif self.pm_kind != NO_MARKER:
            self.begin_moves()
            stock.marker_actions(self)
        else:
            c = phases.company_to_discard(self)
            if c >= 0:
                self.begin_moves()
                phases.discard_actions(self, c)
            elif self.stage == AUCTION:
                self.begin_moves()
                auction.legal(self)
            elif self.stage == STOCK:
                self.begin_moves()
                stock.legal(self)
            else:
                operating.legal(self)  # keeps the step's choices if the automatic steps built them
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
        """Apply a legal action (the caller checks legality)."""
        self.begin_moves()  # and the moves are scratch until the state settles
        kind: cython.int = action[0]
        if kind == PLACE_MARKET or kind == PLACE_GOODS:
            stock.place_marker(self, action)
        elif kind == DISCARD:
            phases.discard(self, phases.company_to_discard(self), action[1])
        elif self.stage == AUCTION:
            auction.apply(self, action)
        elif self.stage == STOCK:
            stock.apply(self, action)
        else:
            operating.apply(self, action)
        if self.pm_kind == NO_MARKER and self.stage == OPERATING and phases.company_to_discard(self) < 0:
            operating.settle(self)
        self.actions += 1

    # --- scoring -----------------------------------------------------------------------
    def cert_value(self, p: cython.int) -> cython.int:
        total: cython.int = 0
        c: cython.int
        k: cython.int
        for c in range(self.t.nc):
            if not self.started[c] or self.closed[c]:
                continue
            for k in range(self.t.co_certs[c]):
                if self.cert_owner[c][k] == p:
                    total += self.cert_price(c, k)
        return total

    def wealth(self, p: cython.int) -> cython.int:
        return self.p_cash[p] + self.cert_value(p)

    def ranking(self) -> tuple[list[int], list[int]]:
        """(rank per seat, winners). Higher wealth, then more cash, ranks first; full ties share."""
        keys = [(self.wealth(p), self.p_cash[p]) for p in range(self.n)]
        ranks = [1 + sum(1 for q in range(self.n) if keys[q] > keys[p]) for p in range(self.n)]
        return ranks, [p for p in range(self.n) if ranks[p] == 1]

    def money_total(self) -> cython.int:
        total: cython.int = self.bank
        for p in range(self.n):
            total += self.p_cash[p]
        for c in range(self.t.nc):
            total += self.co_cash[c]
        return total


def _require(value: str, supported: tuple, key: str) -> None:
    if value not in supported:
        raise ValueError(f"ruleset option {key} = {value!r} is not supported (supported: {supported})")
