"""Valuations shared by the scripted players: what a decision asks of the game more
than once (`DecisionCache`), a company's vehicles' outlook, a legacy's worth."""
from __future__ import annotations

from menorca_sim.core.tables import per_ruleset

# The parts of the state records the scripted players read (built at every decision):
# of every company, and of the company whose own decision it is.
COMPANY_FIELDS = ("cash", "price", "par", "director", "vehicles")
OWN_FIELDS = ("cash", "price", "vehicles")
PLAYER_FIELDS = ("cash", "certs")


class DecisionCache:
    """The company records, the player records and other answers (next lays, revenues
    after them, the harm of a phase change) asked for in one decision: `begin` starts
    each (the player calls it before deciding), so that no question checks the state
    again. (Route revenues need no cache here: the Game remembers them for every seat.)"""

    def __init__(self) -> None:
        self._companies: dict[str, dict] = {}  # the records built so far, all or some
        self._all_companies = False
        self._players: dict[int, dict] = {}
        self._answers: dict[tuple, object] = {}  # other answers (`once`)

    def begin(self) -> None:
        """A new decision: drop the answers of the last one (new dicts only where it kept
        some: the last decision's callers may still hold them)."""
        if self._companies or self._all_companies:
            self._companies, self._all_companies = {}, False
        if self._players:
            self._players = {}
        if self._answers:
            self._answers = {}

    def companies(self, game) -> dict[str, dict]:
        """`game.company_states()` of the companies started and not closed, with the
        fields the scripted players read (`COMPANY_FIELDS`)."""
        if not self._all_companies:
            self._companies, self._all_companies = game.company_states(COMPANY_FIELDS), True
        return self._companies

    def company(self, game, company: str) -> dict:
        """`companies(game)[company]`, or, built alone when the others are not asked for,
        its `OWN_FIELDS` only (what a company's own decisions read)."""
        if company not in self._companies:
            self._companies[company] = game.company_state(company, OWN_FIELDS)
        return self._companies[company]

    def player(self, game, seat: int) -> dict:
        """`game.player_state(seat)` with the fields the scripted players read (`PLAYER_FIELDS`)."""
        if seat not in self._players:
            self._players[seat] = game.player_state(seat, PLAYER_FIELDS)
        return self._players[seat]

    def next_lays(self, game, company: str, done: list[tuple]) -> list[tuple]:
        """`game.whatif.next_lays(company, done)` (lays as tuples), asked once per decision."""
        return self.once(("next_lays", company, tuple(done)), game.whatif.next_lays, company, done)

    def next_lay_revenues(self, game, company: str, fleet: list[str], done: list[tuple]) -> list[int]:
        """`game.whatif.next_lay_revenues(company, fleet, done)`, asked once per decision."""
        return self.once(("next_lay_revenues", company, tuple(fleet), tuple(done)),
                         game.whatif.next_lay_revenues, company, fleet, done)

    def ask_next_lay_revenues(self, game, company: str, fleet: list[str], done: list[tuple],
                              firsts: list[tuple]) -> None:
        """Ask `next_lay_revenues(game, company, fleet, done + [lay])` for each lay of
        `firsts` not asked yet in this decision, all in one core call: `next_lay_revenues`
        then finds them."""
        keys = [("next_lay_revenues", company, tuple(fleet), tuple(done + [lay])) for lay in firsts]
        todo = [i for i, key in enumerate(keys) if key not in self._answers]
        if todo:
            answers = game.whatif.next_lay_revenues_each(company, fleet, [firsts[i] for i in todo], done)
            for i, revenues in zip(todo, answers):
                self._answers[keys[i]] = revenues

    def once(self, key: tuple, ask, *args):
        """`ask(*args)`, asked once per decision for each `key` (the arguments given, not
        bound in a closure: compiled, a function holding one builds it at every call).
        One look-up where it was asked already (a tuple's hash is not kept)."""
        answer = self._answers.get(key, _UNASKED)
        if answer is _UNASKED:
            answer = self._answers[key] = ask(*args)
        return answer


_UNASKED = object()  # `once`'s mark of a key not asked yet (an answer may be None)


class Outlook:
    """A ruleset's vehicles as the players read them in one phase (kind, price, tier,
    retirement, the fleet limits now and after the next phase change), in plain dicts
    made once, and each fleet's `surviving` and `after_change` remembered: the players
    ask them for the same few fleets at most decisions, for every seat and game."""

    def __init__(self, rs, phase: int) -> None:
        self.phase = phase
        self.next = phase + 1  # the next phase's index
        self.kind = {v: spec.kind for v, spec in rs.vehicles.items()}
        self.price = {v: spec.price for v, spec in rs.vehicles.items()}
        self.tier = rs.tier_index
        self.retire = rs.retire_index
        self.limit = rs.phases[phase].limit
        # (no next phase: asked of no fleet, since no vehicle starts it)
        self.next_limit = rs.phases[self.next].limit if self.next < len(rs.phases) else 0
        self._surviving: dict[tuple, tuple] = {}  # fleet -> surviving(fleet)
        self._after: dict[tuple, tuple] = {}  # fleet -> after_change(fleet)

    def surviving(self, fleet) -> tuple[str, ...]:
        """The vehicles of `fleet` still running after the next phase change."""
        key = tuple(fleet)
        out = self._surviving.get(key)
        if out is None:
            retire, nxt = self.retire, self.next
            out = self._surviving[key] = tuple([v for v in key if retire[v] > nxt])
        return out

    def after_change(self, fleet) -> tuple[str, ...]:
        """`fleet` once the next phase begins: its retired vehicles gone and each kind
        cut down to the new limit, the cheapest first (the ruleset's default discard order)."""
        key = tuple(fleet)
        out = self._after.get(key)
        if out is None:
            price, kind, limit = self.price, self.kind, self.next_limit
            kept = sorted(self.surviving(key), key=price.__getitem__, reverse=True)  # stable: equal prices keep their order
            out = tuple([v for v in kept if kind[v] != "cart"][:limit] + [v for v in kept if kind[v] == "cart"][:limit])
            self._after[key] = out
        return out


def outlooks(rs) -> list[Outlook]:
    """Each phase's `Outlook` of `rs`, by phase index (made once per ruleset: `per_ruleset`)."""
    return [Outlook(rs, phase) for phase in range(len(rs.phases))]


_last_ruleset = None  # the ruleset of the last Outlook asked for,
_last_outlook: Outlook | None = None  # which is almost always the one asked next


def outlook(game) -> Outlook:
    """The `Outlook` of the game's ruleset in the phase in force."""
    global _last_ruleset, _last_outlook
    rs, phase = game.ruleset, game.phase_index()
    out = _last_outlook
    if out is not None and rs is _last_ruleset and out.phase == phase:
        return out
    out = _last_outlook = per_ruleset(outlooks, rs)[phase]
    _last_ruleset = rs
    return out


def surviving(game, fleet: list[str]) -> tuple[str, ...]:
    """The vehicles of `fleet` still running after the next phase change."""
    return outlook(game).surviving(fleet)


def cheapest_vehicle(game, company: str) -> int:
    """Price of the cheapest vehicle the bank sells this company now (0 if none)."""
    price = outlook(game).price
    prices = [price[v] for v in game.vehicles_for_sale(company)]
    return min(prices) if prices else 0


def vehicle_shortfall(game, company: str, info: dict) -> int:
    """Cash the company lacks to keep a running vehicle through the next phase change:
    what a forced purchase could take from its director."""
    if surviving(game, info["vehicles"]):
        return 0
    return max(0, cheapest_vehicle(game, company) - info["cash"])


def ors_before_close(game, legacy: str, sets_per_phase: float) -> float:
    """Expected ORs a legacy still pays before its closing epoch: the ORs of the sets
    left in the phases before that epoch, `sets_per_phase` sets each."""
    rs = game.ruleset
    close = rs.legacies[legacy].close_epoch
    if close is None:
        close = next((e.number for e in rs.epochs if e.legacies_close), len(rs.epochs) + 1)
    now = game.phase_index()
    return sum([p.ors * sets_per_phase for i, p in enumerate(rs.phases) if i >= now and p.epoch < close])


def legacy_worth(game, legacy: str, sets_per_phase: float, ability_share: float) -> int:
    """Income × expected ORs before it closes, plus its ability: revenue bonuses and
    granted certificates at face value, other abilities as a share (`ability_share`) of
    the legacy's minimum price (what the designer priced them at)."""
    rs = game.ruleset
    leg = rs.legacies[legacy]
    ors = ors_before_close(game, legacy, sets_per_phase)
    ability = leg.ability
    if ability.type == "revenue_bonus":
        extra = ability.amount * ors * ability_share
    elif ability.type == "grant_certificate":
        pars = [c.value for row in rs.market for c in row if c is not None and c.par]
        extra = ability.percent // 10 * sorted(pars)[len(pars) // 2]
    elif ability.type == "none":
        extra = 0
    else:
        extra = leg.price * ability_share
    return int(leg.income * ors + extra)
