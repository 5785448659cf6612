"""The state every round of a game reads and writes: the setup draws, the bank, the
phase and epoch, the counters, the Board, and the per-player, per-company, per-legacy and
per-vehicle ints with the primitives that keep them (holdings, fleets, money, the market),
the legal-actions buffer the rounds write, and the final score. Each round keeps its own
fields in its own state (auction.AuctionState, stock.StockState, operating.OperatingState);
the Engine (engine.py) sequences the rounds. Every rule value comes from the ruleset
(`Tables.rs`), read per action from its int tables.

The ints live in one int buffer (`_grid`), each field a view of some of its rows (`_bind`):
compiled, typed memoryviews (state.pxd comments every field); in pure mode, views of an
`array`. A copy of the state is a copy of that buffer, bound anew.

The legal actions of a state are written as ints into another buffer (`_moves`, MOVE_WIDTH
ints per action: its kind, then its arguments, unused ones 0; a tile lay's hex and tile and
a station's node as MapTables indices) by the rounds' modules (`add_move`)."""
from __future__ import annotations

from array import array

import cython
import numpy as np

if not cython.compiled:
    from menorca_sim.core.codes import (AUCTION, BOX, MAJOR, MINOR, MOVE_WIDTH, OVER, OWNER_SLOTS, SCOPE_NONE,
                                        SCOPE_OR, SCOPE_SET, TREASURY)
from menorca_sim.core.codes import ROUND_NAMES

# rows of the int buffer: one per 1-D field, and the companies' count of rows per 2-D field
_ROWS_1D = 29
_GRIDS_2D = 6


class State:
    """One game's shared state: `State(tables, players, board, setup_rng, minors, legacies)`;
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
        nc: cython.Py_ssize_t = t.n_companies
        self._width = max(players + OWNER_SLOTS, nc, t.n_vehicles, t.n_legacies, t.n_offboards, t.max_certs)
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
        for v in range(t.n_vehicles):
            self.vehicles_left[v] = t.veh_count[v]
        for l in range(t.n_legacies):
            self.leg_player[l] = self.leg_company[l] = self.leg_buyer[l] = -1
        self.co_vehicles = [[] for _ in range(nc)]
        self.arrivals = 0
        self.actions = 0
        self.srs = 0
        self.ors = 0
        self.start_player = rs.setup.start_player
        self.end_reason = ""
        self.end_scope = SCOPE_NONE
        self.final_reason = ""
        self.node_bonus: dict[str, int] = {}
        # counts the changes of what route revenues depend on besides the map: the phase
        # (and with it the epoch, its event, closings and merger), legacies bought by
        # companies, market markers (phases.advance, operating, stock.place_marker)
        self.revenue_version = 0
        self.board_memo = ((), None)  # (question and map state, answer): see operating._ask_board
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

    def _bind(self) -> None:
        """Point every int field at its rows of `_grid` (the order is the layout)."""
        t = self.t
        nc: cython.int = t.n_companies
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
        self.n_ships = self._row(at, nc); at += 1
        self.vehicles_left = self._row(at, t.n_vehicles); at += 1
        self.leg_player = self._row(at, t.n_legacies); at += 1
        self.leg_company = self._row(at, t.n_legacies); at += 1
        self.leg_closed = self._row(at, t.n_legacies); at += 1
        self.leg_price = self._row(at, t.n_legacies); at += 1
        self.leg_drops = self._row(at, t.n_legacies); at += 1
        self.leg_buyer = self._row(at, t.n_legacies); at += 1
        self.leg_reservations = self._row(at, t.n_legacies); at += 1
        self.leg_income = self._row(at, t.n_legacies); at += 1
        self.cert_owner = self._rows(at, nc, t.max_certs); at += nc
        self.cert_left = self._rows(at, nc, t.max_certs); at += nc
        self.mmarkers = self._rows(at, nc, t.n_offboards); at += nc
        self.goods = self._rows(at, nc, t.n_offboards); at += nc
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

    def is_over(self) -> cython.bint:
        return self.stage == OVER

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
        setup = self.rs.setup
        if setup.assigned_legacy != "none" and legacies is None:
            return self._draw_around(rng, t.legacy_index[setup.assigned_legacy])
        drawn = [int(i) for i in rng.choice(len(t.legacies), size=self.n, replace=False)]
        if legacies is None:
            if self.rs.setup.legacies == "random":
                return sorted(drawn)
            legacies = list(self.rs.setup.fixed_legacies)[: self.n]
        return sorted(t.legacy_index[l] for l in legacies)

    def _draw_around(self, rng, x: cython.int) -> list[int]:
        """Random assignment of legacy x (RULES.md's setup.assigned_*): n - 1 others drawn
        from the rest (the same in both arms, so their auction is the same), and x itself
        in play only in the "hold" arm (Engine gives it to the designated seat)."""
        setup = self.rs.setup
        t = self.t
        pool = [t.legacy_index[l] for l in setup.fixed_legacies] if setup.legacies == "fixed" else list(range(len(t.legacies)))
        pool = [l for l in pool if l != x]
        others = [pool[int(i)] for i in rng.choice(len(pool), size=self.n - 1, replace=False)]
        return sorted(others + [x]) if setup.assigned_arm == "hold" else sorted(others)

    # --- copying -----------------------------------------------------------------------
    def copy_shared(self) -> State:
        """An independent copy of the shared state alone (a trial on it leaves this one as it is)."""
        new: State = State.__new__(State)
        self._copy_into(new)
        return new

    def _copy_into(self, new: State) -> None:
        """Make `new` an independent copy of this state: the int buffer copied whole, the
        other fields one by one (tests/core/test_core_engine.py checks every field state.pxd
        declares)."""
        new.t, new.rs, new.n, new._width = self.t, self.rs, self.n, self._width
        new._grid = self._grid.copy() if cython.compiled else array("i", self._grid)
        new._bind()
        new.board = self.board.clone()
        new.co_vehicles = [list(fleet) for fleet in self.co_vehicles]
        new.node_bonus = dict(self.node_bonus)
        new.stage, new.phase, new.epoch, new.cert_limit = self.stage, self.phase, self.epoch, self.cert_limit
        new.bank, new.start_value, new.arrivals, new.actions = self.bank, self.start_value, self.arrivals, self.actions
        new.srs, new.ors, new.start_player, new.revenue_version = self.srs, self.ors, self.start_player, self.revenue_version
        new.end_reason, new.end_scope, new.final_reason = self.end_reason, self.end_scope, self.final_reason
        new.board_memo = self.board_memo  # never changed in place
        new.minors_in_play, new.leg_in_play, new.events = self.minors_in_play, self.leg_in_play, self.events  # set up once
        # a memoryview of no items (a state whose moves were never built) cannot .copy()
        new._moves = self._moves.copy() if cython.compiled and len(self._moves) else array("i", self._moves)
        new.n_moves, new.moves_ready, new.choices_ready = self.n_moves, self.moves_ready, self.choices_ready

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
        for c in range(self.t.n_companies):
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

    # --- the end ---------------------------------------------------------------------
    def trigger_end(self, reason: str, scope: cython.int) -> None:
        """Note an end condition; the one that ends the game soonest wins (an OR before a set)."""
        if not self.end_reason or (scope == SCOPE_OR and self.end_scope == SCOPE_SET):
            self.end_reason, self.end_scope = reason, scope

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

    # --- scoring -----------------------------------------------------------------------
    def cert_value(self, p: cython.int) -> cython.int:
        total: cython.int = 0
        c: cython.int
        k: cython.int
        for c in range(self.t.n_companies):
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
        for c in range(self.t.n_companies):
            total += self.co_cash[c]
        return total


def _require(value: str, supported: tuple, key: str) -> None:
    if value not in supported:
        raise ValueError(f"ruleset option {key} = {value!r} is not supported (supported: {supported})")
