# Compiled declarations of game.py (augmenting .pxd: game.py stays the plain Python
# reference, run as it is with MENORCA_SIM_PURE=1). Compiled, a Game is an extension type:
# its methods read these fields as C fields and call its cpdef helpers directly, not
# through Python (every decision asks a Game dozens of questions); `_eng` is typed, so
# reading the engine's fields and calling its methods skips the attribute lookups. Every
# field stays readable and writable from Python.
cimport cython

from menorca_sim.core.codes cimport LAY_TILE, MOVE_WIDTH, PAYOUT, POOL, TREASURY, WITHHOLD
from menorca_sim.core.engine cimport Engine
from menorca_sim.whatif cimport WhatIf

cdef class Game:
    cdef public object ruleset  # the Ruleset played
    cdef public object seed  # the game's seed
    cdef public object check  # run the invariant checks after each action
    cdef public object seats  # policy names per seat (the log's header)
    cdef public object _checker  # transitions.Checker, or None without check
    cdef public Engine _eng  # the game's state
    cdef public object _legal  # the legal actions' dicts in this state, or None
    cdef public bint _settled  # no dicts built since the last action: the engine's moves are this state's
    cdef public dict _for_sale  # company -> vehicles_for_sale(), in the bank's state below
    cdef public int _bank_phase  # the phase of `_for_sale`'s answers (-1: none yet)
    cdef public unsigned long long _bank_sold_out  # and the vehicle types sold out then (Game._sold_out)
    cdef public object _log  # GameLog, or None
    cdef public object _actor_now  # (seat, company index) deciding in this state, None before asked
    cdef public object _decision_now  # the decision pending in this state, None before asked
    cdef public list _history  # the internal actions applied, in order (see fingerprint)
    cdef public WhatIf _whatif  # answers the players' what-if revenue questions about this state

    cpdef int legal_count(self) except -1
    @cython.locals(codes="int[::1]", i=int)
    cpdef list legal_moves(self, int kind)
    @cython.locals(codes="int[::1]", i=int, row=int)
    cpdef tuple legal_lays(self, int max_cost)
    cpdef tuple _actor(self)
    cpdef void _forget_state(self)
    cpdef list _legal_dicts(self)
    cpdef void _apply_move(self, int i, object action) except *
    cpdef int _director(self, int c)
    @cython.locals(left="int[::1]", one=cython.ulonglong, sold_out=cython.ulonglong, v=Py_ssize_t)
    cdef unsigned long long _sold_out(self)

cdef object _player_field(Game g, int p, int field)
@cython.locals(names=tuple, k=int)
cdef dict _company_record(Game g, int c, tuple asked)
@cython.locals(ids=list, v=int)
cdef object _company_field(Game g, int c, int field)
cdef str _move_text(tuple move)
cdef list _lays(object actions)
cdef list _args(object actions, str kind, str key)
cdef object _only(object actions, str kind)
cdef tuple _fields(tuple known, object fields, dict asked)
