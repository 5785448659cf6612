"""The state of one game of 1713 Menorca and the flow between its rounds.

The rules of each round live in their own modules (auction, stock, operating, phases);
this module holds the state they share, the money and market primitives, round
transitions, the end of the game and the final score. Every rule value comes from
the ruleset (`Tables.rs`)."""
from __future__ import annotations

import cython
import numpy as np

from menorca_sim.core import actions as A
from menorca_sim.core import auction, operating, phases, stock
from menorca_sim.core.codes import BOX, MARKET_MARKER, NO_MARKER, TREASURY

# Mutable containers copied by clone(): flat lists, then lists of lists.
_FLAT = ("p_cash", "started", "closed", "co_cash", "co_row", "co_col", "co_arrival", "co_par",
         "operated", "president", "markers_left", "marked_sold", "goods_left", "vehicles_left",
         "leg_in_play", "leg_player", "leg_company", "leg_closed", "revenue_total", "dividends_paid",
         "vehicles_bought", "markers_placed", "bankrupt", "leg_price", "leg_drops", "leg_buyer",
         "leg_reservations", "leg_income", "events", "auc_order", "contest_bidders",
         "sold_this_turn", "operated_this_or", "station_supply", "offer", "declined")
_NESTED = ("cert_owner", "cert_left", "co_vehicles", "mmarkers", "goods", "reservations")


class Engine:
    """One game's state: `Engine(tables, players, board, setup_rng, minors, legacies)`;
    `setup_rng` makes the setup draws (`minors`/`legacies` given override the draws)."""

    def __init__(self, tables, players: int, board, setup_rng: np.random.Generator,
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
        nc = len(tables.companies)
        self.round = "auction"
        self.phase = 0
        self.epoch = tables.phases[0].epoch
        pc = rs.player_counts[players]
        self.cert_limit = pc.cert_limit
        self.p_cash = [pc.cash] * players
        self.bank = rs.bank - pc.cash * players
        self.start_value = rs.bank
        self.cert_owner = [[TREASURY] * len(c.certificates) for c in tables.companies]
        self.cert_left = [[False] * len(c.certificates) for c in tables.companies]
        self.started = [False] * nc
        self.closed = [False] * nc
        self.co_cash = [0] * nc
        self.co_row = [0] * nc
        self.co_col = [0] * nc
        self.co_arrival = [0] * nc
        self.co_par = [0] * nc
        self.operated = [False] * nc
        self.president = [-1] * nc
        self.markers_left = [c.markers for c in tables.companies]
        self.marked_sold = [0] * nc
        self.goods_left = [c.goods_markers for c in tables.companies]
        self.co_vehicles = [[] for _ in range(nc)]
        self.mmarkers = [[0] * len(tables.offboards) for _ in range(nc)]
        self.goods = [[0] * len(tables.offboards) for _ in range(nc)]
        self.station_supply = [c.stations for c in tables.companies]
        self.vehicles_left = [v.count if v.count is not None else -1 for v in tables.vehicles]
        self.revenue_total = [0] * nc
        self.dividends_paid = [0] * nc
        self.vehicles_bought = [0] * nc
        self.markers_placed = [0] * nc
        self.bankrupt = [False] * nc
        nl = len(tables.legacies)
        self.leg_player = [-1] * nl
        self.leg_company = [-1] * nl
        self.leg_closed = [False] * nl
        self.leg_price = [0] * nl
        self.leg_drops = [0] * nl
        self.leg_buyer = [-1] * nl
        self.leg_reservations = [0] * nl
        self.leg_income = [0] * nl
        self.arrivals = 0
        self.actions = 0
        self.srs = 0
        self.ors = 0
        self.or_in_set = 0
        self.set_length = 0
        self.start_player = rs.setup.start_player
        self.end_reason = ""
        self.end_scope = ""
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
        # round-specific state (set for real when each round begins)
        self.sold_this_turn = [False] * nc
        self.operated_this_or = [False] * nc
        self.or_company = -1
        self.or_step = 0
        self.or_lays_left = 0
        self.or_plan = None
        self.board_memo = ((), None)  # (question and map state, answer): see operating._ask_board
        self.offer = []  # a vehicle sale awaiting the seller's consent: buyer, vehicle, seller, price
        self.declined = []  # sellers that refused the operating company this turn
        # The draws are always made in this order, so that forcing the minors (say) leaves
        # a seed's legacies and events as they would have been drawn.
        self.minors_in_play = self._draw_minors(setup_rng, minors)
        self.leg_in_play = self._draw_legacies(setup_rng, legacies)
        self.events = [ep.events[int(setup_rng.integers(len(ep.events)))] for ep in rs.epochs]
        for c in range(nc):
            if tables.companies[c].kind == "minor" and c not in self.minors_in_play:
                self.closed[c] = True
                for k in range(len(self.cert_owner[c])):
                    self.cert_owner[c][k] = BOX
        auction.begin(self)
        self._reveal_event(self.epoch)

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
    def clone(self) -> "Engine":
        new = Engine.__new__(Engine)
        new.__dict__.update(self.__dict__)
        for name in _FLAT:
            setattr(new, name, list(getattr(self, name)))
        for name in _NESTED:
            setattr(new, name, [list(x) for x in getattr(self, name)])
        new.node_bonus = dict(self.node_bonus)
        new.board = self.board.clone()
        return new

    # --- holdings ----------------------------------------------------------------------
    # These run for every company in most legal() calls: plain loops on C ints (a
    # generator costs an object per call once compiled)
    def percent(self, c: int, owner: int) -> int:
        return _held(self.cert_owner[c], owner, self.t.companies[c].certificates)

    def count_of(self, c: int, owner: int) -> int:
        return _held(self.cert_owner[c], owner, None)

    def first_cert(self, c: int, owner: int) -> int:
        """Index of the lowest-numbered certificate of c held by `owner`, or -1."""
        owners = self.cert_owner[c]
        who: cython.int = owner
        o: cython.int
        k: cython.Py_ssize_t
        for k in range(len(owners)):
            o = owners[k]
            if o == who:
                return k
        return -1

    def sellable_cert(self, c: int, p: int) -> int:
        """The certificate p would sell: his highest-numbered one, never a Trust Family one; or -1."""
        owners = self.cert_owner[c]
        first: cython.Py_ssize_t = 1 if self.is_major(c) else 0
        who: cython.int = p
        o: cython.int
        k: cython.Py_ssize_t
        for k in range(len(owners) - 1, first - 1, -1):
            o = owners[k]
            if o == who:
                return k
        return -1

    def sold_percent(self, c: int) -> int:
        return 100 - self.percent(c, TREASURY) - self.percent(c, BOX)

    def counts_toward_limit(self, c: int) -> bool:
        """Whether certificates of c count toward a player's limit (not when c is closed
        or its price is in the orange zone)."""
        return not self.closed[c] and not (self.started[c] and self.t.market.orange(self.co_row[c], self.co_col[c]))

    def cert_count(self, p: int) -> int:
        """Certificates of player p that count toward his limit."""
        total: cython.int = 0
        held: cython.int
        owners = self.cert_owner
        for c in range(len(owners)):
            held = _held(owners[c], p, None)
            if held and self.counts_toward_limit(c):  # the cheaper test first
                total += held
        return total

    def ships(self, c: int) -> int:
        """How many of company c's vehicles are ships (the rest are carts)."""
        is_ship = self.t.vehicle_is_ship
        own = self.co_vehicles[c]
        count: cython.int = 0
        k: cython.Py_ssize_t
        for k in range(len(own)):
            if is_ship[own[k]]:
                count += 1
        return count

    def price(self, c: int) -> int:
        return self.t.market.value(self.co_row[c], self.co_col[c])

    def cert_price(self, c: int, k: int) -> int:
        return self.price(c) * self.t.companies[c].certificates[k] // 10

    def director(self, c: int) -> int:
        """The player who decides for company c: the Trust Family holder of a major, else its president."""
        if self.t.companies[c].kind == "major":
            return self.cert_owner[c][0]
        return self.president[c]

    def update_president(self, c: int) -> None:
        """Minors and RADM: the largest holder presides; a tie keeps the sitting president."""
        if self.t.companies[c].kind == "major" or not self.started[c]:
            return
        best = self.president[c]
        best_pct = self.percent(c, best) if best >= 0 else 0
        for p in range(self.n):
            pct = self.percent(c, p)
            if pct > best_pct:
                best, best_pct = p, pct
        self.president[c] = best

    def operates(self, c: int) -> bool:
        return (self.started[c] and not self.closed[c]
                and self.sold_percent(c) >= self.t.companies[c].operate_percent)

    def is_major(self, c: int) -> bool:
        return self.t.companies[c].kind == "major"

    def owned_abilities(self, c: int, ability_type: str) -> list:
        """Abilities of type `ability_type` of the open legacies company c owns."""
        owner, closed, legacies = self.leg_company, self.leg_closed, self.t.legacies  # asked for every route question
        return [legacies[l].ability for l in self.leg_in_play
                if owner[l] == c and not closed[l] and legacies[l].ability.type == ability_type]

    # --- money -------------------------------------------------------------------------
    def bank_pays(self, amount: int) -> None:
        """Every payment out of the bank; the bank may go negative (the game then ends)."""
        self.bank -= amount
        if amount > 0 and self.bank <= 0:
            self.trigger_end("bank", "or")

    def pay_player(self, p: int, amount: int) -> None:
        self.bank_pays(amount)
        self.p_cash[p] += amount

    def pay_company(self, c: int, amount: int) -> None:
        self.bank_pays(amount)
        self.co_cash[c] += amount

    # --- market ------------------------------------------------------------------------
    def place_token(self, c: int, row: int, col: int) -> None:
        self.co_row[c], self.co_col[c] = row, col
        self.arrivals += 1
        self.co_arrival[c] = self.arrivals
        if self.t.market.bankrupt(row, col):
            self.bankrupt[c] = True
            self.trigger_end("bankruptcy", "or")

    def move(self, c: int, direction: str) -> None:
        m = self.t.market
        r, col = self.co_row[c], self.co_col[c]
        if direction == "up":
            nr, nc = m.up(r, col)
        elif direction == "down":
            nr, nc = m.down(r, col)
        elif direction == "left":
            nr, nc = m.left(r, col)
        else:
            nr, nc = m.right(r, col)
        if (nr, nc) != (r, col):
            self.place_token(c, nr, nc)

    # --- flow --------------------------------------------------------------------------
    def trigger_end(self, reason: str, scope: str) -> None:
        """Note an end condition; the one that ends the game soonest wins (an OR before a set)."""
        if not self.end_reason or (scope == "or" and self.end_scope == "set"):
            self.end_reason, self.end_scope = reason, scope

    def start_stock_round(self) -> None:
        self.round = "stock"
        self.srs += 1
        stock.begin(self)

    def start_operating_set(self) -> None:
        self.round = "operating"
        self.set_length = self.t.phases[self.phase].ors
        self.or_in_set = 0
        operating.begin_or(self)

    def finish_or(self) -> None:
        """Called by the operating round when every company has operated."""
        self.ors += 1
        if self.end_reason and self.end_scope == "or":
            return self._game_over(self.end_reason)
        set_done = self.or_in_set >= self.set_length
        if set_done and self.end_reason:
            return self._game_over(self.end_reason)
        if self.ors >= self.rs.end.max_ors:
            return self._game_over("cap")
        if set_done:
            self.start_stock_round()
        else:
            operating.begin_or(self)

    def _game_over(self, reason: str) -> None:
        self.round = "over"
        self.final_reason = reason

    def _reveal_event(self, epoch: int) -> None:
        effect = self.rs.events[self.events[epoch - 1]].effect
        if effect.type == "revenue_bonus":
            self.node_bonus[effect.node] = self.node_bonus.get(effect.node, 0) + effect.amount
        elif effect.type == "close_legacies":
            phases.close_legacies(self, 0)
        elif effect.type == "end_after_set":
            self.trigger_end("conquest", "set")

    def begin_epoch(self, epoch: int) -> None:
        """A new epoch: the RADM merger first, then closings, then the event card."""
        self.epoch = epoch
        if self.t.merged >= 0 and self.t.companies[self.t.merged].formed_epoch == epoch:
            phases.merge_minors(self)
        phases.close_legacies(self, epoch)
        self._reveal_event(epoch)

    # --- decisions ---------------------------------------------------------------------
    def is_over(self) -> bool:
        return self.round == "over"

    def turn(self) -> tuple[int, int, str]:
        """(seat deciding, company it decides for or -1, the decision pending): what may
        be pending looked at once, the most urgent first."""
        if self.round == "over":
            return (-1, -1, "none")
        if self.pm_kind != NO_MARKER:
            return (self.pm_player, -1 if self.round == "stock" else self.pm_company,
                    "place_market_marker" if self.pm_kind == MARKET_MARKER else "place_goods_marker")
        c = phases.company_to_discard(self)
        if c >= 0:
            return (self.director(c), c, "discard_vehicle")
        if self.round == "auction":
            return (auction.actor(self), -1, auction.decision(self))
        if self.round == "stock":
            return (self.sr_turn, -1, "stock_turn")
        seat, company = operating.actor(self)
        return (seat, company, operating.decision(self))

    def decision(self) -> str:
        return self.turn()[2]

    def actor(self) -> tuple[int, int]:
        """(seat deciding, company it decides for or -1)."""
        seat, company, _ = self.turn()
        return (seat, company)

    def legal(self) -> list[tuple]:
        if self.round == "over":
            return []
        if self.pm_kind != NO_MARKER:
            return stock.marker_actions(self)
        c = phases.company_to_discard(self)
        if c >= 0:
            return phases.discard_actions(self, c)
        if self.round == "auction":
            return auction.legal(self)
        if self.round == "stock":
            return stock.legal(self)
        return operating.legal(self)

    def apply(self, action: tuple) -> None:
        """Apply a legal action (the caller checks legality)."""
        kind = action[0]
        if kind == A.PLACE_MARKET or kind == A.PLACE_GOODS:
            stock.place_marker(self, action)
        elif kind == A.DISCARD:
            phases.discard(self, phases.company_to_discard(self), action[1])
        elif self.round == "auction":
            auction.apply(self, action)
        elif self.round == "stock":
            stock.apply(self, action)
        else:
            operating.apply(self, action)
        if self.pm_kind == NO_MARKER and self.round == "operating" and phases.company_to_discard(self) < 0:
            operating.settle(self)
        self.actions += 1

    # --- scoring -----------------------------------------------------------------------
    def cert_value(self, p: int) -> int:
        total = 0
        for c in range(len(self.t.companies)):
            if not self.started[c] or self.closed[c]:
                continue
            for k in range(len(self.cert_owner[c])):
                if self.cert_owner[c][k] == p:
                    total += self.cert_price(c, k)
        return total

    def wealth(self, p: int) -> int:
        return self.p_cash[p] + self.cert_value(p)

    def ranking(self) -> tuple[list[int], list[int]]:
        """(rank per seat, winners). Higher wealth, then more cash, ranks first; full ties share."""
        keys = [(self.wealth(p), self.p_cash[p]) for p in range(self.n)]
        ranks = [1 + sum(1 for q in range(self.n) if keys[q] > keys[p]) for p in range(self.n)]
        return ranks, [p for p in range(self.n) if ranks[p] == 1]

    def money_total(self) -> int:
        return self.bank + sum(self.p_cash) + sum(self.co_cash)


@cython.cfunc
def _held(owners: list, who: cython.int, sizes) -> cython.int:
    """How many of the certificates whose holders `owners` lists `who` holds, or, given
    their `sizes`, how many percent."""
    total: cython.int = 0
    o: cython.int
    k: cython.Py_ssize_t
    for k in range(len(owners)):
        o = owners[k]
        if o == who:
            total += 1 if sizes is None else sizes[k]
    return total


def _require(value: str, supported: tuple, key: str) -> None:
    if value not in supported:
        raise ValueError(f"ruleset option {key} = {value!r} is not supported (supported: {supported})")
