# Compiled declarations of scratch.py (augmenting .pxd: scratch.py stays the plain Python
# reference). The fields are objects: each is typed where its owner module reads it (a
# typed field here would make this module cimport the modules that cimport it).
from menorca_sim.core.maptables cimport MapTables

cdef class Scratch:
    cdef public object search  # routes._Search: the map's route search and its enumerations' pool (routes._search_for)
    cdef public object fleet  # fleet.FleetSearch handed out by fleet.fleet_search, set up again per fleet (None: none yet)
    cdef public dict fleets  # vehicles, a tuple of (id, kind, range) -> their routes.Fleet (routes.fleet_of)
    cdef public object table_views  # mapviews._TableViews of the tables (None: not yet taken)
    cdef public object board_views  # mapviews._LayViews of the board asked about last (None: none yet)
    cdef public object lays  # mapviews._Lays: the candidate lays buffer, emptied by each user (mapviews._lays)
    cdef public object reached  # track._Reached: track.reach's answer and stack (None: not asked yet)
    cdef public list graphs  # track._Graph views of the last two graphs track._graph was asked for, newest first

cpdef Scratch scratch_of(MapTables tables)
