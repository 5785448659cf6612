# Compiled declarations of game.py (augmenting .pxd: game.py stays the plain Python
# reference, run as it is with MENORCA_SIM_PURE=1). Compiled, a Game is an extension type:
# its methods read these fields as C fields and call its cpdef helpers directly, not
# through Python (every decision asks a Game dozens of questions); `_eng` is typed, so
# reading the engine's fields and calling its methods skips the attribute lookups. Every
# field stays readable and writable from Python.
from menorca_sim.core.codes cimport AB_REVENUE_BONUS, PAYOUT, POOL, TREASURY, WITHHOLD
from menorca_sim.core.engine cimport Engine

cdef class RevenueMemo:
    cdef dict _numbers  # revenue key -> its number
    cdef long _next  # the number the next new key gets
    cdef dict _revenues  # (key number, fleet) -> route revenue
    cdef dict _contexts  # (company index, revenue key but its map part) -> RevenueContext

    cpdef object number(self, tuple key)
    cpdef object get(self, object number, tuple fleet)
    cpdef object put(self, object number, tuple fleet, object revenue)
    cpdef object context(self, tuple key)
    cpdef object put_context(self, tuple key, object ctx)

cdef class Game:
    cdef public object ruleset  # the Ruleset played
    cdef public object seed  # the game's seed
    cdef public object check  # run the invariant checks after each action
    cdef public object seats  # policy names per seat (the log's header)
    cdef public object _checker  # transitions.Checker, or None without check
    cdef public Engine _eng  # the game's state
    cdef public object _legal  # the legal actions' dicts in this state, or None
    cdef public bint _settled  # no dicts built since the last action: the engine's moves are this state's
    cdef public object _revenue_state  # (board version, Engine.revenue_version) of the revenues asked
    cdef public object _bank  # (phase, vehicles left) of the bank's vehicles in `_for_sale`
    cdef public dict _for_sale  # company -> vehicles_for_sale(), while `_bank` holds
    cdef public tuple _map_key  # ((board version, phase), map_key()) last asked
    cdef public tuple _own_keys  # (Engine.revenue_version, {company index: own part of its revenue key})
    cdef public RevenueMemo _revenues  # route revenues by revenue key and fleet (shared by clones)
    cdef public frozenset _ship_ids  # ids of the vehicles that are ships
    cdef public dict _searched  # vehicle id -> (id, kind, range): what a route search takes
    cdef public object _log  # GameLog, or None
    cdef public object _actor_now  # (seat, company index) deciding in this state, None before asked
    cdef public object _decision_now  # the decision pending in this state, None before asked
    cdef public bint _bank_checked  # `_bank` compared with this state's bank
    cdef public dict _contexts  # company index -> its RevenueContext in this revenue state
    cdef public dict _asked  # (company, fleet) -> route revenue asked in this revenue state
    cdef public dict _key_numbers  # company index -> the memo's number of its revenue key
    cdef public dict _keys  # company index -> its revenue key
    cdef public object _key_common  # the part of every company's revenue key, None before asked
    cdef public list _history  # the internal actions applied, in order (see fingerprint)

    cpdef tuple _actor(self)
    cpdef void _forget_state(self)
    cpdef list _legal_dicts(self)
    cpdef void _apply_move(self, int i, object action) except *
    cpdef int _director(self, int c)
    cpdef list _fleet(self, object vehicles)
    cpdef object _remembered_revenue(self, str company, tuple fleet)
    cpdef object _key_number(self, int c, str company)
    cpdef object _remember(self, int c, str company, tuple fleet, object revenue)
    cpdef object _context_of(self, int c)
    cpdef tuple _changed(self, int c, object changes, object ctx=*)

cdef object _player_field(Game g, int p, str field)
cdef object _company_field(Game g, int c, str field)
