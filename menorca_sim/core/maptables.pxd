# Compiled declarations of maptables.py (augmenting .pxd: maptables.py stays the plain
# Python reference). One MapTables per ruleset, read-only once built; its numbering (land
# hexes h, nodes n, vertices, track units, tiles t at rotations r) is maptables.py's
# docstring's. The int arrays are array("i") objects: the route and lay code takes typed
# views of them once (revenue.routes._Search, mapviews._LayViews, track._Graph).

cdef class MapTables:
    # --- the ruleset ---
    cdef readonly object rs  # the Ruleset
    cdef readonly list company_ids  # company ids in ruleset order
    cdef readonly dict company_index  # company id -> its index
    # --- land hexes ---
    cdef readonly list land  # land hex names, sorted (h indexes them)
    cdef readonly dict land_index  # land hex name -> h
    cdef readonly int n_land  # land hexes
    cdef readonly object terrain_cost  # array: [h] terrain cost of laying on it
    cdef readonly object land_node  # array: [h] the node in h, -1 none
    cdef readonly object neighbour  # array: [h * 6 + edge] the land hex across that edge, -1 none
    cdef readonly object side_unit  # array: [h * 6 + edge] the track unit of that side, -1 none
    # --- revenue nodes, offboards, sea ---
    cdef readonly list node_names  # node names in ruleset order (n indexes them)
    cdef readonly dict node_index  # node name -> n
    cdef readonly int n_nodes  # nodes
    cdef readonly object node_land  # array: [n] its land hex
    cdef readonly list node_kind  # [n] index in NODE_KINDS
    cdef readonly object node_slots  # array: [n] station slots
    cdef readonly list node_port  # [n] is a port
    cdef readonly object node_revenue  # array: [n * len(COLOURS) + colour] printed revenue
    cdef readonly list offboard_names  # offboard names in ruleset order
    cdef readonly int n_rev  # revenue vertices: nodes, then offboards
    cdef readonly int min_distinct_nodes  # different revenue vertices a route must visit (routes.min_distinct_nodes)
    cdef readonly int epochs  # epochs of the ruleset
    cdef readonly object offboard_revenue  # array: [offboard * epochs + epoch - 1] revenue
    cdef readonly list sea  # sea hex names (vertices sea_base ..)
    cdef readonly int sea_base  # first sea vertex
    cdef readonly int stub_base  # first stub vertex
    cdef readonly int n_vertices  # all vertices
    cdef readonly dict vertex_index  # node, offboard or sea name -> vertex
    cdef readonly list rev_names  # [vertex < n_rev] its name
    cdef readonly list vertex_hex  # [vertex] the hex it lies in
    # --- track units ---
    cdef readonly list lanes  # sea lanes as (end, end) names (unit u < n_lanes)
    cdef readonly int n_lanes  # sea lanes
    cdef readonly int n_units  # track units: lanes, then land sides
    cdef readonly int mask_words  # 64-bit words of a set of units
    cdef readonly tuple lanes_graph  # the sea lanes' graph (degree, target, unit, stride), track.py's layout
    # --- tiles (the manifest's, then one pseudo-tile per preprinted hex) ---
    cdef readonly list tile_ids  # tile ids (t indexes them)
    cdef readonly dict tile_index  # tile id -> t
    cdef readonly int n_manifest  # manifest tiles: t below it
    cdef readonly object tile_colour  # array: [t] index in COLOURS
    cdef readonly list tile_node  # [t] index in NODE_KINDS
    cdef readonly list tile_count  # [t] copies in the manifest
    cdef readonly list preprinted  # [h] its pseudo-tile, -1 none
    cdef readonly list paths  # [t][r] its paths rotated by r
    cdef readonly list rotations  # [t] the rotations giving distinct path sets
    cdef readonly object path_bits  # array: [t * 6 + r] its path set as bits of PATH_PAIRS
    cdef readonly object pair_a  # array: [i] first end of PATH_PAIRS[i]
    cdef readonly object pair_b  # array: [i] second end of PATH_PAIRS[i]
    cdef readonly object edge_mask  # array: [t * 6 + r] bit e: a path touches edge e
    cdef readonly object local_arcs  # array: road arcs inside a hex, (from, to) flat
    cdef readonly object local_arc_span  # array: [t * 6 + r] .. [t * 6 + r + 1]: its arcs in local_arcs
    cdef readonly dict upgrades  # (t, r) -> the (tile, rotation) pairs upgrading it
    cdef readonly list first_lays  # [h] the (tile, rotation) pairs for the empty hex
    cdef readonly object lay_options  # array: tile, rotation, tile, ... (both spans below)
    cdef readonly object first_lay_span  # array: [2h], [2h + 1]: empty hex h's items of lay_options
    cdef readonly object upgrade_span  # array: [2(6t + r)], [2(6t + r) + 1]: upgrades' items
    # --- the searches' buffers ---
    cdef public object scratch  # revenue.scratch.Scratch of this map's searches (None until first asked: scratch_of)
