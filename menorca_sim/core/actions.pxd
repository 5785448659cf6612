# Compiled declarations of actions.py (augmenting .pxd: actions.py stays the reference).
# The action kinds stay Python ints there: the Game API and the checks read them too.
cpdef dict describe(object t, tuple action)
