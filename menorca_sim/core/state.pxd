# Compiled declarations of state.py (Cython augmenting .pxd: state.py stays the plain
# Python reference): the state every round shares. Indices: p a player (seat), c a company,
# k a certificate of c, v a vehicle type, l a legacy, o an offboard (all in Tables order).
# The int arrays are views of one buffer, `_grid` (see State._bind): bools are stored as 0/1.
# Each round's own fields are in its own state (auction.pxd, stock.pxd, operating.pxd).
cimport cython

from menorca_sim.core.codes cimport (AUCTION, BOX, MAJOR, MINOR, MOVE_WIDTH, OVER, OWNER_SLOTS, SCOPE_NONE,
                                     SCOPE_OR, SCOPE_SET, TREASURY)
from menorca_sim.core.tables cimport Tables

cdef class State:
    # --- the game ---
    cdef readonly Tables t  # the ruleset's tables (shared by every game of the ruleset)
    cdef readonly object rs  # the Ruleset
    cdef readonly int n  # players
    cdef public object board  # Board: tiles, manifest, stations
    cdef public list minors_in_play  # c of the minors drawn, ascending
    cdef public list leg_in_play  # l of the legacies drawn, ascending
    cdef public list events  # event id drawn per epoch (index epoch - 1)
    cdef int _width  # ints per row of _grid
    cdef int[:, ::1] _grid  # every int array below, one row per 1-D field, nc rows per 2-D field
    # --- round, phase, counters ---
    cdef public int stage  # AUCTION, STOCK, OPERATING or OVER (`round` is its name; the Engine sets it)
    cdef public int phase  # index of the phase in force
    cdef public int epoch  # epoch in force (1-based)
    cdef public int cert_limit  # certificates a player may hold (this player count's row)
    cdef public int bank  # the bank's cash (negative once broken)
    cdef public int start_value  # money in the game (the bank's at the start): conserved
    cdef public int arrivals  # price tokens placed so far (orders arrivals on a cell)
    cdef public int actions  # actions applied
    cdef public int srs  # stock rounds begun
    cdef public int ors  # operating rounds finished
    cdef public int start_player  # holder of the start-player marker
    cdef public str end_reason  # end condition noted ("" none yet): bank, bankruptcy, conquest
    cdef public int end_scope  # when it ends the game: SCOPE_OR (after this OR) or SCOPE_SET
    cdef public str final_reason  # why the game ended (end_reason or "cap"); "" while going on
    cdef public dict node_bonus  # node name -> R. added by the events so far
    cdef public int revenue_version  # counts changes route revenues depend on besides the map
    cdef public object board_memo  # (question and map version, answer): operating._ask_board
    # --- per player ---
    cdef public int[::1] p_cash  # [p] cash
    # --- per company ---
    cdef public int[::1] started  # [c] started (a par set, or RADM formed)
    cdef public int[::1] closed  # [c] closed (minors not drawn, minors merged)
    cdef public int[::1] co_cash  # [c] treasury cash
    cdef public int[::1] co_row  # [c] market row of its price token
    cdef public int[::1] co_col  # [c] market column of its price token
    cdef public int[::1] co_arrival  # [c] arrival number of its token on its cell
    cdef public int[::1] co_par  # [c] par value (RADM: its formation value)
    cdef public int[::1] operated  # [c] has operated at least once (floated)
    cdef public int[::1] president  # [c] minors and RADM: presiding player, -1 none
    cdef public int[::1] markers_left  # [c] market markers in supply
    cdef public int[::1] marked_sold  # [c] marked certificates gone from the treasury
    cdef public int[::1] goods_left  # [c] goods markers in supply
    cdef public int[::1] revenue_total  # [c] route revenue earned over the game
    cdef public int[::1] dividends_paid  # [c] dividends paid over the game
    cdef public int[::1] vehicles_bought  # [c] vehicles bought over the game
    cdef public int[::1] markers_placed  # [c] market markers placed over the game
    cdef public int[::1] bankrupt  # [c] its token reached a bankruptcy cell
    cdef public int[::1] station_supply  # [c] stations it may have on the map
    cdef public int[::1] n_ships  # [c] ships in its fleet (derived: add/remove_vehicle, set_fleet)
    cdef public list co_vehicles  # [c] its fleet: vehicle indices in the order bought
    # --- per certificate, marker and owner ---
    cdef public int[:, :] cert_owner  # [c][k] a player, TREASURY, POOL or BOX (only set_owner writes it)
    cdef public int[:, :] cert_left  # [c][k] has left the treasury once (its first-sale markers given)
    cdef public int[:, :] mmarkers  # [c][o] c's market markers on offboard o
    cdef public int[:, :] goods  # [c][o] c's goods markers on offboard o
    cdef public int[:, :] held  # [c][slot] certificates held per owner slot (derived: set_owner)
    cdef public int[:, :] held_pct  # [c][slot] percent held per owner slot (derived: set_owner)
    # --- per vehicle type and legacy ---
    cdef public int[::1] vehicles_left  # [v] copies the bank still has (-1 unlimited, 0 none or retired)
    cdef public int[::1] leg_player  # [l] owning player, -1
    cdef public int[::1] leg_company  # [l] owning company, -1
    cdef public int[::1] leg_closed  # [l] closed
    cdef public int[::1] leg_price  # [l] price paid at auction
    cdef public int[::1] leg_drops  # [l] price drops before it sold
    cdef public int[::1] leg_buyer  # [l] player who bought it at auction, -1
    cdef public int[::1] leg_reservations  # [l] reservations made on it
    cdef public int[::1] leg_income  # [l] income paid to its owners
    # --- the legal actions of this state, as ints (the rounds write them; Engine.build_moves) ---
    cdef int[::1] _moves  # move i at [i * MOVE_WIDTH ..]: its kind, then its arguments (codes.ARITY), then 0s
    cdef readonly int n_moves  # moves written
    cdef readonly bint moves_ready  # the moves are this state's legal actions (an action drops them)
    cdef readonly bint choices_ready  # the moves are this operating step's choices but skipping (operating._choices)

    # final cdef methods: called at C level without a virtual call (the Engine derives from State)
    @cython.final
    cdef int[::1] _row(self, int at, int width)
    @cython.final
    cdef int[:, :] _rows(self, int at, int count, int width)
    @cython.final
    cdef void _bind(self)
    cpdef bint is_over(self)
    cpdef State copy_shared(self)
    @cython.final
    cdef void _copy_into(self, State new)
    @cython.final
    cdef int _slot(self, int owner)
    cpdef void set_owner(self, int c, int k, int owner)
    cpdef int percent(self, int c, int owner)
    cpdef int count_of(self, int c, int owner)
    cpdef int first_cert(self, int c, int owner)
    cpdef int sellable_cert(self, int c, int p)
    @cython.final
    cdef bint _keeps_last(self, int c, int p)
    cpdef int sold_percent(self, int c)
    cpdef bint counts_toward_limit(self, int c)
    cpdef int cert_count(self, int p)
    cpdef int ships(self, int c)
    cpdef void add_vehicle(self, int c, int v)
    cpdef void remove_vehicle(self, int c, int v) except *
    cpdef void set_fleet(self, int c, list vehicles)
    cpdef int price(self, int c)
    cpdef int cert_price(self, int c, int k)
    cpdef int director(self, int c)
    cpdef void update_president(self, int c)
    cpdef bint operates(self, int c)
    cpdef bint is_major(self, int c)
    cpdef list owned_legacies(self, int c, int ability)
    cpdef void bank_pays(self, int amount)
    cpdef void pay_player(self, int p, int amount)
    cpdef void pay_company(self, int c, int amount)
    cpdef void place_token(self, int c, int row, int col)
    cpdef void move(self, int c, int direction)
    cpdef void trigger_end(self, str reason, int scope)
    @cython.final
    cdef void _no_moves(self)
    cpdef void begin_moves(self)
    cpdef void add_move(self, int kind, int a=*, int b=*, int c=*, int d=*)
    # the standings: a search's learned value reads them at every leaf
    cpdef int cert_value(self, int p)
    cpdef int wealth(self, int p)
