# Compiled declarations of features.py (augmenting .pxd: features.py stays the plain
# Python reference): a search reads a state's features at every leaf, so the engine is
# typed (its arrays read as C arrays), the sums are C ints and the rows a typed view.
cimport cython

from menorca_sim.core.engine cimport Engine
from menorca_sim.core.tables cimport Tables
from menorca_sim.observation cimport director_of, fleet_of, legacies_of

# each column's position in FEATURES
cdef int _CASH, _CERT_VALUE, _WEALTH, _WEALTH_SHARE, _RANK, _LEAD, _LEAD_SHARE, _CERTS, _LEGACIES, _INCOME
cdef int _INCOME_SHARE, _DIRECTED, _DIRECTED_CASH, _DIRECTED_REVENUE, _DIRECTED_VEHICLES, _DIRECTED_WITHOUT_VEHICLE
cdef int _PLAYERS, _PHASE, _EPOCH, _ORS_PLAYED, _TIER_LEFT, _BANK, _BANK_SHARE, _TOTAL_WEALTH, _COMPANIES
cdef int _STOCK_ROUND, _OPERATING_ROUND, _ROUND_DONE, _ORS_BEFORE_SR, _TO_ACT, _DIRECTED_TO_OPERATE
cdef int _INCOME_TO_COME

@cython.locals(eng=Engine, t=Tables, n=int, nc=int, c=int, p=int, seat=int, companies=int, live=list,
               revenue=list, to_operate=list, wealth=list, income=list, to_come=list, total=cython.long,
               paid=cython.long, coming=cython.long, part=cython.long, total_income=cython.double,
               rows="double[:, ::1]", directed=int, directed_cash=cython.long, directed_revenue=cython.long,
               directed_vehicles=int, without=int, directed_to_operate=int, fleet=int, cash=cython.long,
               lead=cython.long, tier_left=int, bank_share=cython.double)
cpdef object seat_features(object game, object picked=*)
@cython.locals(stock=int, operating=int, done=cython.double, operated=int, left=int)
cdef void _round_columns(double[:, ::1] rows, int seat, dict progress, int ors, int n) except *
cdef double _share(double part, double total, int n) except? -1
@cython.locals(t=Tables, left=int, v=int, c=int)
cdef int _tier_left(Engine eng) except? -1
