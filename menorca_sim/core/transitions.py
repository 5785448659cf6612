"""Invariants of one action (check=True), beside the state invariants of
`invariants.py`: what an action may change, given the state before it and, for rules
that span a turn or the game, what the checker remembers of earlier actions.

- the start-player marker is held by one player, and it goes to the last passer of
  the auction and the first passer of each stock round;
- a price token moves only as the market-movement table allows for the action:
  one cell down per certificate sold into the Exchange, right for a payout of at least
  the market value, left for withholding or (in an automatic turn) no revenue, up
  for a company sold out at the end of a stock round, to a par cell when started;
- no player buys and sells certificates of one company in one turn; nobody sells in
  the first stock round; a Trust Family certificate never changes hands;
- phase and epoch only advance; retired vehicles are gone from every company;
- in actions that only move money out of the bank, the bank pays exactly the
  dividend or withheld revenue, the legacy incomes and the goods payments due;
- a finished game has a known end reason whose condition holds, and a full ranking."""
from __future__ import annotations

from menorca_sim.core.codes import (AUCTION_PASS, DISCARD, END_TURN, FORCED_BUY, PAYOUT, PLACE_GOODS, PLACE_MARKET,
                                    POOL, RESERVE, SKIP, SR_PASS, START_COMPANY, STEP_DIVIDEND, TREASURY, WITHHOLD)
from menorca_sim.core.invariants import holdings, violations

END_REASONS = ("bank", "bankruptcy", "conquest", "cap")
# Actions after which money only leaves the bank (incomes, goods, dividends), never enters it.
_PAYMENTS_ONLY = (SKIP, SR_PASS, END_TURN, PAYOUT, WITHHOLD, AUCTION_PASS, RESERVE,
                  PLACE_MARKET, PLACE_GOODS, DISCARD)


class Before:
    """What the action-level checks need of the state before an action."""

    def __init__(self, eng, action: tuple) -> None:
        self.action = action
        self.holdings = holdings(eng)
        self.round = eng.round
        self.srs = eng.srs
        self.ors = eng.ors
        self.phase = eng.phase
        self.epoch = eng.epoch
        self.actor = eng.actor()[0]
        o = eng.operating
        self.or_company = o.company if eng.round == "operating" else -1
        self.routes_pending = self.or_company >= 0 and o.step < STEP_DIVIDEND  # its routes run later
        self.revenue = o.plan.revenue if self.or_company >= 0 and o.plan is not None else 0
        self.price = eng.price(self.or_company) if self.or_company >= 0 else 0
        self.cells = [(eng.co_row[c], eng.co_col[c]) for c in range(len(eng.t.companies))]
        self.started = list(eng.started)
        self.closed = list(eng.closed)
        self.bankrupt = list(eng.bankrupt)
        self.owners = [list(owners) for owners in eng.cert_owner]
        self.operated_this_or = list(eng.operating.operated_this_or)
        self.revenue_total = list(eng.revenue_total)
        self.leg_income = list(eng.leg_income)
        self.bank = eng.bank


class Checker:
    """Runs every invariant after each action; remembers the current turn's purchases
    and sales, the passers who get the start-player marker and the Trust Family holders."""

    def __init__(self) -> None:
        self.turn = (-1, -1)  # (stock round, player) of the turn going on
        self.turn_bought = set()
        self.turn_sold = set()
        self.auction_last_passer = -1
        self.sr_first_passer = -1
        self.trust = {}  # company -> holder of its Trust Family certificate
        # The bank went to 0 or below at some point (it may fill again before the OR ends);
        # a forced sale may empty it in the middle of an action that then refills it.
        self.bank_broke = False

    def clone(self) -> "Checker":
        other = Checker()
        other.__dict__.update(self.__dict__)
        other.turn_bought, other.turn_sold, other.trust = set(self.turn_bought), set(self.turn_sold), dict(self.trust)
        return other

    def before(self, eng, action: tuple) -> Before:
        return Before(eng, action)

    def after(self, eng, before: Before) -> list[str]:
        """Every violation of the state invariants and of this action's."""
        out = violations(eng, before.holdings)
        out += self._start_player(eng, before)
        out += self._turn(eng, before)
        out += _market_moves(eng, before)
        out += _trust_and_progress(eng, before, self.trust)
        out += _bank_payments(eng, before)
        forced_sale = before.action[0] == FORCED_BUY and any(
            _moved_to_pool(eng, before, c) for c in range(len(eng.t.companies)))
        self.bank_broke = self.bank_broke or eng.bank <= 0 or forced_sale
        if eng.round == "over":
            out += _ending(eng, self.bank_broke)
        return out

    def _start_player(self, eng, before: Before) -> list[str]:
        out = []
        kind = before.action[0]
        if before.round == "auction" and kind == AUCTION_PASS:
            self.auction_last_passer = before.actor
        if before.round == "stock" and kind == SR_PASS and self.sr_first_passer < 0:
            self.sr_first_passer = before.actor
        if not 0 <= eng.start_player < eng.n:
            out.append(f"start-player marker held by {eng.start_player}, not one of the {eng.n} players")
        if before.round == "auction" and eng.round != "auction" and self.auction_last_passer >= 0 \
                and eng.start_player != self.auction_last_passer:
            out.append(f"auction over: start-player marker with P{eng.start_player + 1}, "
                       f"not the last passer P{self.auction_last_passer + 1}")
        if _sr_ended(eng, before):
            if eng.start_player != self.sr_first_passer:
                out.append(f"SR {before.srs} over: start-player marker with P{eng.start_player + 1}, "
                           f"not the first passer P{self.sr_first_passer + 1}")
            self.sr_first_passer = -1
        return out

    def _turn(self, eng, before: Before) -> list[str]:
        """Purchases and sales of the player whose stock-round turn it is."""
        if before.round != "stock":
            return []
        p = before.actor
        if (before.srs, p) != self.turn:
            self.turn, self.turn_bought, self.turn_sold = (before.srs, p), set(), set()
        out = []
        ids = eng.t.company_ids
        for c in range(len(ids)):
            had = sum(1 for o in before.owners[c] if o == p)
            has = sum(1 for o in eng.cert_owner[c] if o == p)  # counted afresh, not the engine's count
            if has > had:
                self.turn_bought.add(c)
            elif has < had:
                self.turn_sold.add(c)
                if before.srs == 1 and not eng.rs.stock.first_sr_sales:
                    out.append(f"P{p + 1} sold {ids[c]} in the first stock round")
            if c in self.turn_bought and c in self.turn_sold:
                out.append(f"P{p + 1} bought and sold {ids[c]} in one turn")
        return out


def _sr_ended(eng, before: Before) -> bool:
    """The action ended a stock round (the next one may already have begun, after an
    operating set in which nothing operated)."""
    return before.round == "stock" and (eng.round != "stock" or eng.srs != before.srs)


def _moved_to_pool(eng, before: Before, c: int) -> int:
    """Certificates of c sold into the Exchange by this action (by players or c itself)."""
    return sum(1 for k, owner in enumerate(eng.cert_owner[c]) if owner == POOL and before.owners[c][k] != POOL)


def _market_moves(eng, before: Before) -> list[str]:
    t = eng.t
    m = t.market
    out = []
    sr_ended = _sr_ended(eng, before)
    kind = before.action[0]
    for c in range(len(t.companies)):
        if not eng.started[c] or eng.closed[c] or before.closed[c]:
            continue
        cell = (eng.co_row[c], eng.co_col[c])
        if not before.started[c]:  # started (or formed) now: on a par cell, or RADM's merged value
            if kind == START_COMPANY and not (m.cells[cell[0]][cell[1]].par and (
                    t.companies[c].kind == "major" or m.value(*cell) == t.companies[c].par)):
                out.append(f"{t.company_ids[c]} started on {cell}, not on its par cell")
            continue
        if eng.bankrupt[c] and not before.bankrupt[c]:
            if not m.bankrupt(*cell):
                out.append(f"{t.company_ids[c]} went bankrupt on {cell}, not on a bankruptcy cell")
            continue
        moves = ["down"] * _moved_to_pool(eng, before, c)
        if c == before.or_company and kind == PAYOUT and before.revenue >= before.price:
            moves.append("right")
        elif c == before.or_company and kind == WITHHOLD:
            moves.append("left")
        if sr_ended and eng.count_of(c, TREASURY) == 0 and eng.count_of(c, POOL) == 0:
            moves.append("up")
        reachable = {_follow(m, before.cells[c], moves)}
        for _ in range(_turns_run(eng, before, c)):  # each may have run no route: one cell left
            reachable |= {m.left(*x) for x in reachable}
        if cell not in reachable:
            out.append(f"{t.company_ids[c]} moved from {before.cells[c]} to {cell}; "
                       f"the action allows {sorted(reachable)} (moves {moves})")
    return out


def _turns_run(eng, before: Before, c: int) -> int:
    """At most how many of c's turns ran their routes during this action (automatically)."""
    ors_done = eng.ors - before.ors
    if ors_done:  # the rest of an OR, and every OR after it
        return ors_done + 1
    if c == before.or_company and before.routes_pending:
        return 1
    began = eng.operating.operated_this_or[c] and (not before.operated_this_or[c] or before.round != "operating")
    return 1 if eng.round == "operating" and began else 0


def _follow(m, cell: tuple[int, int], moves: list[str]) -> tuple[int, int]:
    for move in moves:
        cell = getattr(m, move)(*cell)
    return cell


def _trust_and_progress(eng, before: Before, trust: dict[int, int]) -> list[str]:
    t = eng.t
    out = []
    for c in range(len(t.companies)):
        if t.companies[c].kind != "major" or not eng.started[c]:
            continue
        holder = eng.cert_owner[c][0]
        if trust.setdefault(c, holder) != holder:
            out.append(f"{t.company_ids[c]}: Trust Family certificate passed from {trust[c]} to {holder}")
    if eng.phase < before.phase or eng.epoch < before.epoch:
        out.append(f"went back from phase {before.phase}/epoch {before.epoch} to {eng.phase}/{eng.epoch}")
    if eng.epoch != t.phases[eng.phase].epoch:
        out.append(f"epoch {eng.epoch} in phase {t.phases[eng.phase].name} of epoch {t.phases[eng.phase].epoch}")
    for c in range(len(t.companies)):
        for v in eng.co_vehicles[c]:
            if t.vehicle_retire[v] <= eng.phase:
                out.append(f"{t.company_ids[c]} still owns {t.vehicle_ids[v]}, "
                           f"retired in {t.phases[t.vehicle_retire[v]].name}")
    return out


def _bank_payments(eng, before: Before) -> list[str]:
    """After an action that only pays out, the bank's loss is the dividend (or withheld
    revenue), the legacy incomes and the goods payments that the rules make due."""
    kind = before.action[0]
    if kind not in _PAYMENTS_ONLY:
        return []
    t = eng.t
    rs = eng.rs
    out = []
    due = 0
    if kind == WITHHOLD:
        due += before.revenue
    elif kind == PAYOUT:
        unit = rs.operating.dividend_unit
        certs = t.companies[before.or_company].certificates
        for k, owner in enumerate(before.owners[before.or_company]):
            if owner < eng.n or owner == TREASURY or (owner == POOL and rs.operating.pool_dividends == "company"):
                due += (before.revenue // unit) * certs[k] // (100 // unit)
    for l in range(len(t.legacies)):
        income = eng.leg_income[l] - before.leg_income[l]
        if income % t.legacies[l].income:
            out.append(f"{t.legacy_ids[l]} earned {income}, not a multiple of its income")
        due += income
    ran = [c for c in range(len(t.companies)) if eng.revenue_total[c] > before.revenue_total[c]]
    for c in ran:
        if c != eng.operating.company or eng.operating.plan is None:
            out.append(f"{t.company_ids[c]} earned revenue with no dividend decision pending")
        else:
            due += _goods_due(eng, eng.operating.plan.routes)
    if before.bank - eng.bank != due:
        out.append(f"the bank paid {before.bank - eng.bank}, but {due} was due")
    return out


def _goods_due(eng, routes) -> int:
    """Each ship route reaching an offboard pays every goods marker there."""
    t = eng.t
    markers = eng.rs.markers
    rate = markers.goods_payment[eng.epoch - 1]
    due = 0
    for route in routes:
        if route.kind != "ship":
            continue
        for node in route.nodes:
            if node not in t.offboards:
                continue
            o = t.offboards.index(node)
            for g in range(len(t.companies)):
                if t.companies[g].kind == "minor" and markers.goods_pay_before_merger == "none":
                    continue
                due += eng.goods[g][o] * rate
    return due


def _ending(eng, bank_broke: bool) -> list[str]:
    rs = eng.rs
    out = []
    reason = eng.final_reason
    holds = {"bank": bank_broke, "bankruptcy": any(eng.bankrupt), "cap": eng.ors >= rs.end.max_ors,
             "conquest": any(rs.events[eng.events[e]].effect.type == "end_after_set" for e in range(eng.epoch))}
    if reason not in END_REASONS:
        out.append(f"game over with end reason {reason!r}")
    elif not holds[reason]:
        out.append(f"game over for {reason!r}, but that condition does not hold")
    ranks, winners = eng.ranking()
    keys = [(eng.wealth(p), eng.p_cash[p]) for p in range(eng.n)]
    if len(ranks) != eng.n or not winners or winners != [p for p in range(eng.n) if ranks[p] == 1]:
        out.append(f"incomplete ranking {ranks}, winners {winners}")
    for p in range(eng.n):
        for q in range(eng.n):
            if (keys[p] > keys[q]) != (ranks[p] < ranks[q]):
                out.append(f"ranking {ranks} disagrees with wealth and cash {keys}")
                return out
    return out
