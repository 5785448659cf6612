# Compiled declarations of operating_play.py (augmenting .pxd: operating_play.py stays the
# plain Python reference). A vehicle purchase's value is asked for every purchase on offer,
# at most operating decisions: the module's own calls among these go straight to C, not
# through Python's call protocol (Python callers still see them as functions).
cimport cython

from policies.valuation cimport Outlook, outlook, surviving, vehicle_shortfall

cpdef object purchase_value(object game, object company, object fleet, object vehicle, object returned,
                            object price, object params, object cache)
cpdef tuple _earnings(object game, object company, object fleet)
@cython.locals(o=Outlook)
cpdef bint starts_phase(object game, object vehicle) except -1
@cython.locals(o=Outlook)
cpdef list _investments(object game, object company, object fleet)
