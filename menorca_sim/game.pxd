# Compiled declarations of game.py (augmenting .pxd: game.py stays the plain Python
# reference, run as it is with MENORCA_SIM_PURE=1). Compiled, a Game is an extension type:
# its methods read these fields as C fields and call its cpdef helpers directly, not
# through Python (every decision asks a Game dozens of questions); `_eng` is typed, so
# reading the engine's fields and calling its methods skips the attribute lookups. Every
# field stays readable and writable from Python.
cimport cython

from menorca_sim.core.engine cimport Engine
from menorca_sim.observation cimport PublicState, VehicleOffer, fleet_of
from menorca_sim.whatif cimport WhatIf

cdef class Game(PublicState):  # its `_eng`, the game's state, declared there
    cdef public object ruleset  # the Ruleset played
    cdef public object seed  # the game's seed
    cdef public object check  # run the invariant checks after each action
    cdef public object seats  # policy names per seat (the log's header)
    cdef public object _legal  # the legal actions' dicts in this state, or None
    cdef public bint _settled  # no dicts built since the last action: the engine's moves are this state's
    cdef public VehicleOffer _offer  # the bank's vehicles on sale, as asked in its state
    cdef public object _watchers  # watchers.Watchers (the invariant checks, the log), or None
    cdef public object _actor_now  # (seat, company index) deciding in this state, None before asked
    cdef public object _decision_now  # the decision pending in this state, None before asked
    cdef public list _history  # the internal actions applied, in order (see fingerprint)
    cdef public WhatIf _whatif  # answers the players' what-if revenue questions about this state

    cpdef int[::1] legal_codes(self)
    cpdef int legal_count(self) except -1
    cpdef int check_code(self, object i) except -1
    cpdef tuple _actor(self)
    cpdef void _forget_state(self)
    cpdef list _legal_dicts(self)
    cpdef void _apply_move(self, int i, object action) except *
    @cython.locals(other=Game)
    cpdef Game clone(self)  # a search copies a game per playout: the copy's fields set as C fields
