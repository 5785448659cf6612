# Compiled declarations of board.py (augmenting .pxd: board.py stays the plain Python
# reference). Board itself stays a Python class (the Game and the players read its fields
# by name); its map questions' typed work goes through mapviews' _LayViews and _Lays.
from menorca_sim.core.mapviews cimport (_colour_bits, _free, _LayViews, _lays_reached, _reached, _set_tile,
                                        _shape_fits, _views)
