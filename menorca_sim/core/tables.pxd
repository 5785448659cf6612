# Compiled declarations of tables.py (Cython augmenting .pxd: tables.py stays the plain
# Python reference). One Tables per ruleset, read-only: c a company, v a vehicle, l a
# legacy, o an offboard, k a certificate, p a phase index, (r, col) a market cell.
from menorca_sim.core.codes cimport CART, DOWN, LEFT, RIGHT, SHIP, UP

cdef class Tables:
    # --- the ruleset's records and names (the Python face; not read per action) ---
    cdef readonly object rs  # the Ruleset
    cdef readonly object market  # Market: the grid's cells and its edge rules
    cdef readonly list company_ids  # company ids in ruleset order (c indexes them)
    cdef readonly list companies  # model.Company per c
    cdef readonly dict company_index  # company id -> c
    cdef readonly list minors  # c of every minor
    cdef readonly int merged  # c of the merged company (RADM), -1 if none
    cdef readonly list vehicle_ids  # vehicle ids in ruleset order (v indexes them)
    cdef readonly list vehicles  # model.Vehicle per v
    cdef readonly dict vehicle_index  # vehicle id -> v
    cdef readonly list legacy_ids  # legacy ids in ruleset order (l indexes them)
    cdef readonly list legacies  # model.Legacy per l
    cdef readonly dict legacy_index  # legacy id -> l
    cdef readonly list offboards  # offboard names (o indexes them)
    cdef readonly dict node_index  # node name -> its index (MapTables' numbering: the Board's)
    cdef readonly list phases  # model.Phase per p
    cdef readonly int legacy_purchase_phase  # first p in which companies buy legacies
    cdef readonly int share_unit  # percent of one dividend unit (100 // dividend_unit)
    cdef readonly int n_companies, n_vehicles, n_legacies, n_offboards  # how many of each
    # --- companies ---
    cdef readonly int max_certs  # the most certificates of any company
    cdef readonly int[::1] co_kind  # MAJOR, MINOR or MERGED
    cdef readonly int[::1] co_certs  # certificates of c
    cdef readonly int[:, ::1] cert_pct  # [c][k] percent of certificate k (0 past the last)
    cdef readonly int[::1] co_operate_pct  # percent sold before c operates
    cdef readonly int[::1] co_marked  # majors: 10 % certificates carrying a market marker
    cdef readonly int[::1] co_available  # epoch from which players may start c
    cdef readonly int[::1] co_formed  # merged: epoch at whose start it forms (0 otherwise)
    cdef readonly int[::1] co_markers  # market markers in c's supply
    cdef readonly int[::1] co_goods_markers  # goods markers in c's supply
    cdef readonly int[::1] co_stations  # stations in c's supply
    cdef readonly int[::1] co_fixed_par  # minors: fixed par value (0 otherwise)
    cdef readonly list co_home  # home node name of c (None for the merged company)
    cdef readonly int[::1] co_home_node  # its node index (node_index), -1 none
    cdef readonly list start_cells  # [c] (row, col) cells a player may start c on ([] for RADM)
    cdef readonly int[:, ::1] may_own  # [c][v] 1 when v's kind is among c's vehicle_kinds
    # --- vehicles ---
    cdef readonly int[::1] vehicle_phase  # ships: their tier's p; carts: first p on sale
    cdef readonly int[::1] vehicle_retire  # p that retires v (NEVER if none)
    cdef readonly int[::1] vehicle_is_ship  # 1 for ships, 0 for carts
    cdef readonly int[::1] veh_price  # list price
    cdef readonly list route_vehicle  # [v] (id, kind, range): a vehicle as the route search takes it
    cdef readonly int[::1] veh_count  # copies in the bank at the start (-1: unlimited)
    # --- legacies and their abilities ---
    cdef readonly int[::1] leg_min_price  # minimum price at auction
    cdef readonly int[::1] leg_income_each  # income paid to its owner at every OR's start
    cdef readonly int[::1] leg_close  # epoch whose start closes l (0: never)
    cdef readonly int[::1] ability  # l's ability as an AB_* code
    cdef readonly int[::1] ab_amount  # terrain_discount, revenue_bonus: R.
    cdef readonly int[::1] ab_tiles  # extra_tile_lay: lays per OR in total
    cdef readonly int[::1] ab_percent  # vehicle_discount, grant_certificate: percent
    cdef readonly int[::1] ab_count  # free_market_marker: markers
    cdef readonly int[::1] ab_vehicle_kind  # vehicle_discount: SHIP, CART or -1 (both)
    cdef readonly list ab_node  # free_port, revenue_bonus: node name (else None)
    cdef readonly int[::1] ab_node_index  # its node index (node_index), -1 none
    cdef readonly int[::1] ab_company  # grant_certificate: the company's c (else -1)
    # --- phases ---
    cdef readonly int[::1] phase_limit  # vehicles per kind a company may own
    cdef readonly int[::1] phase_ors  # ORs in a set begun in p
    cdef readonly int[::1] phase_epoch  # epoch of p
    # --- the market grid ---
    cdef readonly int mk_rows  # rows of the grid
    cdef readonly int[:, ::1] mk_value  # [r][col] value (0 off the grid)
    cdef readonly int[:, ::1] mk_orange  # [r][col] 1 in the orange zone
    cdef readonly int[:, ::1] mk_yellow  # [r][col] 1 in the yellow zone
    cdef readonly int[:, ::1] mk_bankrupt  # [r][col] 1 on a bankruptcy cell
    cdef readonly int[:, ::1] mk_to_row  # [d * mk_rows + r][col] row reached by move d (UP..RIGHT)
    cdef readonly int[:, ::1] mk_to_col  # [d * mk_rows + r][col] column reached by move d
    # --- options read per action ---
    cdef readonly int holding_limit  # percent of one company a player may hold (outside yellow)
    cdef readonly int pool_limit  # certificates of one company the Exchange may hold
    cdef readonly bint first_sr_sales  # players may sell in the first stock round
    cdef readonly bint trade_any  # vehicle_trade = any_with_consent
    cdef readonly int trade_min_price  # lowest price of a vehicle between companies
    cdef readonly bint next_tier_any_time  # next_ship_tier = any_time
    cdef readonly bint pool_pays_company  # pool_dividends = company
    cdef readonly int dividend_unit  # a payout pays revenue // dividend_unit per unit
    cdef readonly bint sells_own  # companies may sell their own certificates (step 6)
    cdef readonly bint buys_back  # companies may buy them back (step 7)
    cdef readonly int legacy_lo_pct, legacy_hi_pct  # bounds of a company's legacy price, % of minimum
    cdef readonly int tile_lays  # tile lays per OR
    cdef readonly int station_cost  # price of a station
    cdef readonly bint reserve_home_slots  # unplaced homes keep their node's last slots
    cdef readonly bint goods_skip_minors  # goods_pay_before_merger = none
    cdef readonly int offboard_cap  # market markers per offboard and company (0: no cap)
    cdef readonly int market_bonus  # R. per own market marker on an offboard
    cdef readonly int[::1] goods_payment  # R. per goods marker reached, by epoch - 1
    cdef readonly bint free_at_zero_forced  # a legacy at price 0 must be taken
    cdef readonly int price_drop  # the cheapest legacy's drop when everybody passed
    cdef readonly int min_price  # the lowest it drops to
    cdef readonly int reservation_step  # a reservation outbids the last one by this much
    cdef readonly int contest_step  # a contest's raise
    cdef readonly bint merger_join  # unstarted_minor = join (else its certificates leave)
    cdef readonly bint merger_unowned  # no_minor_started = form_unowned
    cdef readonly bint merger_average  # price = average (else sum)
    cdef readonly int max_ors  # safety cap on operating rounds
    cdef readonly bint bank_empty_ends_sr  # bank_empty_in_stock_round = end_of_round (else the next OR ends it)
    cdef readonly bint keep_last_minor_cert  # last_certificate = keep: a minor's president keeps his last one while no other player holds one
    cdef readonly int min_distinct_nodes  # different revenue nodes a route must visit
    cdef readonly bint no_buy_back_after_sale  # buy_back_after_sale = next_or
