# Compiled declarations of routes.py (augmenting .pxd: routes.py stays the plain Python
# reference). v a vertex (nodes, then offboards, sea vertices and road stubs: see
# maptables), h a land hex, r a route found, k a depth (vehicles or route length).

from menorca_sim.core.revenue.context cimport RevenueContext
from menorca_sim.core.revenue.scratch cimport Scratch, scratch_of

cdef class _Search:
    # graph and per-vertex data of the current search
    cdef int[::1] degree  # [v] arcs of vertex v in the graph searched
    cdef int[::1] target  # [v * stride + i] the vertex arc i of v leads to
    cdef int[::1] unit  # [v * stride + i] the track unit arc i crosses, -1 none
    cdef int stride  # arc slots per vertex
    # the two graphs searched (the tables' lanes, the last board's roads) as taken by
    # prepare: taking an array's memoryview anew costs more than setting up a search
    cdef object lanes  # the tables' lane graph
    cdef object graph_now  # the graph of degree, target and unit now (see _use_graph)
    # what the routes held were enumerated for (see _routes_of): a map state, company
    # and kind, with the vertex values in `value`, up to a range
    cdef bint holds  # the routes held are those of the fields below (False: unknown)
    cdef long long held_version  # the board's version (Board.version: equal versions, equal maps)
    cdef int held_company  # the company index
    cdef bint held_major  # the company is a major
    cdef bint held_ship  # ships (else carts)
    cdef int enumerated_range  # the range enumerated for
    cdef long long held_at  # when last asked for (`_routes_of`' clock: the least recent is enumerated over)
    cdef long long clock  # (the tables' shared search only) questions `_routes_of` answered: its pool's clock
    cdef list pool  # (the tables' shared search only) the searches that hold the last enumerations
    cdef int[::1] lane_degree  # the lane graph's degree
    cdef int[::1] lane_target  # its target
    cdef int[::1] lane_unit  # its unit
    cdef object road  # the road graph of the last board searched
    cdef int[::1] road_degree  # its degree
    cdef int[::1] road_target  # its target
    cdef int[::1] road_unit  # its unit
    cdef int[::1] value  # [v] revenue of a route stopping at v (fill_vertex_values)
    cdef unsigned char[::1] flags  # [v] REVENUE, PASS, FORBID, OWN bits of the kind searched (_flags)
    cdef int[::1] dist  # lower bound of the units from a vertex to an OWN vertex
    cdef int dist_set  # dist[:dist_set] may hold a lane search's bounds; beyond, all 0
    cdef int[::1] queue  # vertices to visit (_spread, _distances)
    cdef unsigned char[::1] seen  # `_spread`'s answer: per vertex, reached
    # walk state
    cdef int[::1] visits  # [v] times the current walk holds v
    cdef unsigned long long[::1] used  # units the current walk crossed, a bit each (words words)
    cdef int[::1] ustack  # [k] the unit crossed k-th by the current walk
    cdef int[::1] trail  # the vertices of the current walk (depth of them)
    cdef int words  # 64-bit words of a set of units
    cdef int maxk  # units a route may cross (the range less one)
    cdef int min_nodes  # different revenue vertices a route must visit (the tables' min_distinct_nodes)
    cdef int distinct  # different revenue vertices the current walk holds
    cdef int free_from  # vertices below it have no arc crossing no unit in the graph searched (prepare)
    cdef int depth  # vertices on the trail
    cdef int cur  # revenue of the current walk's stops
    cdef int own  # the current walk holds an OWN vertex
    cdef int origin  # the vertex the current walk started from
    cdef bint undirected  # a route and its reverse are one (kept once)
    # routes found: revenue, hexes, units used, trail (vertices) in r_trail[r_off[r]:r_off[r+1]]
    cdef int n  # routes found
    cdef int cap  # routes the r_ arrays hold room for
    cdef int trail_cap  # vertices r_trail holds room for
    cdef int[::1] r_rev  # [r] revenue
    cdef int[::1] r_len  # [r] hexes
    cdef unsigned long long[::1] r_mask  # [r * words ..] units used
    cdef int[::1] r_off  # [r] start of its vertices in r_trail
    cdef int[::1] r_trail  # the routes' vertices
    # branch and bound
    cdef int[::1] order  # routes by revenue, best first (_sort_by_revenue)
    cdef bint in_order  # `order` is that of the routes and revenues held now (False: sort again)
    cdef list assigned  # the ranges best and best_choice answer for the routes held now (None: none)
    cdef int[::1] vrange  # [k] range of the k-th vehicle assigned
    cdef int[::1] bound  # [k] most the vehicles k.. can add (the assignment's bound)
    cdef int[::1] choice  # [k] route of vehicle k in the assignment tried
    cdef int[::1] best_choice  # [k] route of vehicle k in the best assignment
    cdef int[::1] at  # [k] the place in `order` of vehicle k's next candidate (_branch)
    cdef int[::1] gained  # [k] revenue of the routes of vehicles 0..k-1 picked (_branch)
    cdef int[::1] count  # counting-sort buffer, grown as revenues need
    cdef int nv  # vehicles assigned
    cdef int best  # revenue of the best assignment
    cdef dict _arrays  # name -> the array behind a growable view (_resize)
    # the map tables and what the searches' set-up reads of them (see bind), taken once
    cdef object tables  # the MapTables bound (bind)
    # MapTables' arrays of the same names:
    cdef int[::1] tile_colour
    cdef int[::1] node_land
    cdef int[::1] land_node
    cdef int[::1] node_revenue
    cdef int[::1] offboard_revenue
    cdef int[::1] node_slots
    cdef list rev_vertices  # 0 .. n_rev-1, where ship routes start (shared: never change it)
    # MapTables' counts and maps of the same names:
    cdef dict vertex_index
    cdef int n_nodes
    cdef int n_rev
    cdef int n_land
    cdef int sea_base
    cdef int stub_base
    cdef int epochs
    # the last board searched and typed views of the arrays the set-up reads (a board's
    # arrays change in place, never replaced: the views stay good; see view_board)
    cdef object viewed  # the board b_tile, b_company and b_kind view
    cdef int[::1] b_tile  # its tiles
    cdef int[::1] b_company  # its station slots' companies
    cdef int[::1] b_kind  # its station slots' kinds
    cdef void view_board(self, object board)
    cpdef void prepare(self, object graph, int maxrange, bint undirected, bint symmetric)
    cdef void _use_graph(self, object graph)
    cdef void _spread(self, object graph, unsigned char[::1] flags, int top, unsigned char[::1] out, int at)
    cdef void _mark(self, int v, unsigned char[::1] out, int at)
    cdef void _distances(self, bint symmetric)
    cpdef int walk_from(self, list starts)
    cdef int _walk(self, int v, int k) except? -1
    cdef int _record(self, int k) except? -1
    cpdef list assign(self, list ranges)
    cdef int _assign(self, list ranges)
    cdef void _routes_changed(self)
    cdef void _sort_by_revenue(self)
    cdef void _branch(self)
    cdef void add_at_ends(self, int v, int amount)
    cdef void add_on_trails(self, int v, int amount)
    cpdef list trail_of(self, int r)
    cpdef int revenue_of(self, int r)
cdef _Search _search_for(object tables)
cdef int _printed_value(_Search search, int[::1] tile, int n)
cdef void fill_vertex_values(_Search search, int[::1] tile, RevenueContext ctx)
cdef list _flags(_Search search, object board, int c, bint ship, bint is_major)
cdef class Fleet:
    cdef readonly list vehicles  # (id, kind, range) each
    cdef readonly list kinds  # per kind present, ships first: (ships?, indices of its vehicles, their ranges), longest first
cpdef Fleet fleet_of(Scratch scratch, object vehicles)
cdef void _enumerate(_Search search, object board, bint is_major, bint ship, list starts, int maxrange)
cdef int _enumerated_revenue(_Search search, object board, bint is_major, bint ship, list starts, list ranges)
cdef bint _holds(_Search held, _Search asking, long long version, int c, bint is_major, bint ship, int maxrange)
cdef _Search _routes_of(_Search search, object board, int c, bint is_major, bint ship, int maxrange)

cdef void _affected_hexes(_Search search, object graph, unsigned char[::1] flags, unsigned char[::1] out, int at)
cdef object _route(object tb, object vehicle, list trail, int revenue)

