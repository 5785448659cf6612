"""`Game`: one game of 1713 Menorca as its players see it (OpenSpiel-sized): the state
and its records, the legal actions (readable dicts, or ints: `legal_codes`), apply,
clone, result, and `whatif` for revenue questions. Beside it: the records
(observation.py), the move views (moves.py), the checks and log (watchers.py); the
summary is run/records.py's."""
from __future__ import annotations

import cython
import numpy as np

from menorca_sim.core.actions import describe
from menorca_sim.core.board import Board
from menorca_sim.core.maptables import map_tables
from menorca_sim.core.tables import tables_for
from menorca_sim.errors import IllegalActionError, InvariantError  # noqa: F401  (the Game raises them)
from menorca_sim.fingerprint import fingerprint
from menorca_sim.rules import Ruleset, load_ruleset
from menorca_sim.seeding import setup_stream
from menorca_sim.watchers import Watchers
from menorca_sim.whatif import WhatIf

if not cython.compiled:  # compiled, game.pxd cimports them
    from menorca_sim.core.engine import Engine
    from menorca_sim.observation import PublicState, VehicleOffer, fleet_of


@cython.cclass
class Game(PublicState):
    """One game: setup draws from `seed`, then actions until `is_over()`; what everyone
    sees of it (records, standings, counters) its `PublicState`'s (its fields and
    compiled helpers: game.pxd)."""

    def __init__(self, ruleset: Ruleset | None = None, players: int = 3, seed: int = 0,
                 minors: list[str] | None = None, legacies: list[str] | None = None,
                 check: bool = False, log=None, seats: list[str] | None = None) -> None:
        """`check`: the rule invariants checked after each action; `log`: a path for a
        JSON-lines game log (or None); `seats`: policy names for its header."""
        self.ruleset = rs = ruleset if ruleset is not None else load_ruleset()
        self.seed = seed
        self.check = check
        setup = np.random.default_rng(setup_stream(seed))
        self._eng = Engine(tables_for(rs), players, Board(map_tables(rs)), setup, minors, legacies)
        self.seats = list(seats) if seats is not None else ["?"] * players
        self._legal = None  # the legal actions' dicts in this state
        self._settled = True  # the engine's moves, if built, are its own for this state
        self._offer = VehicleOffer()
        self._forget_state()
        self._whatif = WhatIf(self._eng)
        self._history: list = []  # the internal actions applied, in order (see fingerprint)
        self._watchers = Watchers.of(self, check, log)

    # --- who decides what ----------------------------------------------------------------
    def current_actor(self) -> int:
        """The seat that decides now (for a company: its director or president); -1 when over."""
        return self._actor()[0]

    def actor_label(self) -> str:
        """"P1".."Pn", or the id of the company the seat decides for."""
        seat, company = self._actor()
        return self._eng.t.company_ids[company] if company >= 0 else f"P{seat + 1}"

    def decision(self) -> str:
        if self._decision_now is None:
            self._actor()
        return self._decision_now

    def _actor(self) -> tuple[int, int]:
        """The engine's (seat, company index) deciding now, asked once per state with the decision."""
        if self._actor_now is None:
            eng = self._eng
            seat, company, self._decision_now = eng.turn()
            self._actor_now = (seat, company)
            if self._decision_now == "dividend":
                # the engine has just searched the operating company's routes in this
                # state: its plan's revenue answers `route_revenue` for the fleet it ran
                self._whatif.remember_plan(eng.t.company_ids[company], tuple(fleet_of(eng, company)),
                                           eng.operating.plan.revenue)
        return self._actor_now

    def _forget_state(self) -> None:
        """Drop what was remembered of the last state (its WhatIf checks its own answers)."""
        self._actor_now: tuple[int, int] | None = None
        self._decision_now: str | None = None

    # --- legal moves ---------------------------------------------------------------------
    def legal_actions(self) -> list[dict]:
        return list(self._legal_dicts())

    def _legal_dicts(self) -> list[dict]:
        """The legal actions' dicts, described once per state from the engine's moves."""
        if self._legal is None:
            eng = self._eng
            if not self._settled:  # dropped without an action: the state may have been edited
                eng.begin_moves()
            self._settled = False
            self._legal = [describe(eng.t, eng.legal_action(i)) for i in range(eng.build_moves())]
        return self._legal

    def legal_codes(self):
        """The legal actions as ints, in `legal_actions()`'s order (`Engine.legal_codes`,
        codes.py: MOVE_WIDTH ints each); read it, never write it, until the next action."""
        return self._eng.legal_codes()

    def legal_count(self) -> int:
        """How many legal actions there are (`len(legal_actions())`, without building them)."""
        return self._eng.build_moves()

    def check_code(self, i: int) -> int:
        """`i` if it is a legal action's index, else IllegalActionError: the one check of an answer."""
        if type(i) is not int or not 0 <= i < self._eng.build_moves():
            raise self._illegal(f"an illegal action index {i!r}")
        return i

    def action_index(self, action: dict) -> int:
        """`action`'s index among the legal dicts (by identity first: players mostly hand back
        one of the very dicts they were given); IllegalActionError if it is not one."""
        dicts = self._legal_dicts()
        for i, legal in enumerate(dicts):
            if legal is action:
                return i
        try:
            return dicts.index(action)
        except ValueError:
            raise self._illegal(f"an illegal action {action!r}") from None

    def _illegal(self, choice: str) -> IllegalActionError:
        return IllegalActionError(f"{choice} for {self.actor_label()} at decision {self.decision()!r} "
                                  f"(seed {self.seed}, action index {self._eng.actions})", choice)

    # --- apply, clone, fingerprint -------------------------------------------------------
    def apply(self, action: dict) -> None:
        """Apply `action`, one of the legal action dicts."""
        self._apply_move(self.action_index(action), action)

    def apply_code(self, i: int) -> None:
        """Apply legal action i (the i-th of `legal_codes()` and of `legal_actions()`)."""
        self._apply_move(self.check_code(i), None)

    def _apply_move(self, i: int, action: dict | None) -> None:
        """Apply the engine's move i (its dict `action`, or None: described if needed)."""
        eng = self._eng
        move = eng.legal_action(i)
        watchers = self._watchers
        noted = watchers.before(self, eng, move, action) if watchers is not None else None
        eng.apply(move)
        self._history.append(move)
        self._legal = None
        self._settled = True
        self._forget_state()
        if watchers is not None:
            watchers.after(self, eng, noted)

    def clone(self) -> "Game":
        """An independent copy (without the log) to explore from."""
        other = Game.__new__(Game)
        other.ruleset, other.seed, other.check, other.seats = self.ruleset, self.seed, self.check, self.seats
        other._eng = self._eng.clone()
        other._legal, other._settled = self._legal, self._settled  # the same state: the same legal actions
        other._offer = self._offer.copy()
        other._forget_state()
        other._whatif = WhatIf(other._eng, self._whatif)  # its own revenues asked, the memo shared
        other._watchers = self._watchers.clone() if self._watchers is not None else None
        other._history = list(self._history)
        return other

    def fingerprint(self) -> str:
        """A stable hash of the setup and of every action applied so far (fingerprint.py)."""
        eng = self._eng
        return fingerprint(eng.n, eng.minors_in_play, eng.leg_in_play, eng.events, self._history)

    # --- what the table sees beyond its PublicState ----------------------------------------
    def observation(self, seat: int | None = None) -> dict:
        """What `seat` (by default the one deciding) sees: the public state, where the
        game stands and what is being decided (a game of perfect information)."""
        record = self.state()
        record.update(self.context())
        record["decision"] = self.decision()
        record["seat"] = self.current_actor() if seat is None else seat
        return record

    def context(self) -> dict:
        """Where the game stands: round, stock and operating round numbers, phase, epoch,
        and who decides (the log writes it with each action)."""
        eng = self._eng
        operating = eng.round == "operating"
        return {"round": eng.round, "sr": eng.srs, "or": eng.ors + 1 if operating else eng.ors,
                "phase": eng.t.phases[eng.phase].name, "epoch": eng.epoch, "actor": self.actor_label()}

    def header(self) -> dict:
        """The setup: the game log's header."""
        eng = self._eng
        t = eng.t
        return {"type": "header", "seed": self.seed, "players": eng.n,
                "minors": [t.company_ids[m] for m in eng.minors_in_play],
                "legacies": [t.legacy_ids[l] for l in eng.leg_in_play],
                "events": list(eng.events), "seats": list(self.seats),
                "ruleset": self.ruleset.name, "ruleset_sha256": self.ruleset.sha256}

    @property
    def whatif(self) -> WhatIf:
        """The what-if revenue questions about this state (whatif.py)."""
        return self._whatif

    def marker_company(self) -> str | None:
        """The company whose market or goods marker is being placed (None if none is)."""
        if self.decision() not in ("place_market_marker", "place_goods_marker"):
            return None
        return self._eng.t.company_ids[self._eng.marker.company]

    def operating_company(self) -> str | None:
        """The company the seat decides for now, None at a player's own decision."""
        company = self._actor()[1]
        return self._eng.t.company_ids[company] if company >= 0 else None

    def vehicles_for_sale(self, company: str) -> list[str]:
        """Ids of the vehicles the bank sells now that `company` may own."""
        return self._offer.ids(self._eng, self.ruleset, company)
