"""Checks across sections: every name referenced exists, the map's geometry holds,
certificates add up, phases match the ship tiers."""
from __future__ import annotations

from menorca_sim.rules import model as m
from menorca_sim.rules.errors import RulesetError
from menorca_sim.rules.geometry import edge_between, neighbour


def cross_check(file: str, r: m.Ruleset) -> None:
    def fail(key: str, problem: str) -> None:
        raise RulesetError(file, key, problem)

    phase_names = [p.name for p in r.phases]
    epochs = [e.number for e in r.epochs]
    if epochs != list(range(1, len(epochs) + 1)):
        fail("epochs", f"epochs must be numbered 1, 2, ... in order, got {epochs}")
    if len(set(phase_names)) != len(phase_names):
        fail("phases", f"duplicate phase name in {phase_names}")
    for i, p in enumerate(r.phases):
        if p.epoch not in epochs:
            fail(f"phases[{i}].epoch", f"unknown epoch {p.epoch}")
        if i and p.epoch < r.phases[i - 1].epoch:
            fail(f"phases[{i}].epoch", "epochs must not go back from one phase to the next")
    for i, e in enumerate(r.epochs):
        for ev in e.events:
            if ev not in r.events:
                fail(f"epochs[{i}].events", f"unknown event {ev!r}")
    for eid, ev in r.events.items():
        if ev.effect.node is not None and ev.effect.node not in r.map.nodes:
            fail(f"events.{eid}.effect.node", f"unknown node {ev.effect.node!r}")

    # Phases are started by ships: one ship tier per phase, in the same order.
    ship_tiers = [v.phase for v in r.vehicles.values() if v.kind == "ship"]
    for vid, v in r.vehicles.items():
        if v.phase not in phase_names:
            fail(f"vehicles.{vid}.phase", f"unknown phase {v.phase!r}")
        if v.retire is not None:
            if v.retire not in phase_names:
                fail(f"vehicles.{vid}.retire", f"unknown phase {v.retire!r}")
            if phase_names.index(v.retire) <= phase_names.index(v.phase):
                fail(f"vehicles.{vid}.retire", f"retires at {v.retire} before or when it enters at {v.phase}")
    if sorted(ship_tiers, key=phase_names.index) != phase_names or len(ship_tiers) != len(phase_names):
        fail("phases", f"phase sequence {phase_names} does not match the ship tiers {ship_tiers}")

    # Companies.
    grid_values = {c.value for row in r.market for c in row if c is not None}
    par_values = {c.value for row in r.market for c in row if c is not None and c.par}
    if not par_values:
        fail("market.rows", "no par cell (flag p)")
    for cid, c in r.companies.items():
        key = f"companies.{cid}"
        if sum(c.certificates) != 100:
            fail(f"{key}.certificates", f"certificates sum to {sum(c.certificates)} %, not 100 %")
        if c.home is not None and c.home not in r.map.nodes:
            fail(f"{key}.home", f"unknown node {c.home!r}")
        if c.kind == "major":
            if c.certificates[0] != 20:
                fail(f"{key}.certificates", "a major's first (Trust Family) certificate must be 20 %")
            if c.marked > len(c.certificates) - 1:
                fail(f"{key}.marked", f"{c.marked} marked certificates but only {len(c.certificates) - 1} 10 % ones")
            if c.home is not None and not r.map.nodes[c.home].port:
                fail(f"{key}.home", f"home {c.home!r} of a major must be a port node")
        if c.par is not None and c.par not in par_values:
            fail(f"{key}.par", f"par {c.par} is not a par cell of the market")
        if c.available_epoch not in epochs:
            fail(f"{key}.available_epoch", f"unknown epoch {c.available_epoch}")
        if c.formed_epoch is not None and c.formed_epoch not in epochs:
            fail(f"{key}.formed_epoch", f"unknown epoch {c.formed_epoch}")
    minors = [c for c in r.companies.values() if c.kind == "minor"]
    if r.setup.minors_in_play > len(minors):
        fail("setup.minors_in_play", f"{r.setup.minors_in_play} minors in play but only {len(minors)} defined")

    # Player counts, setup, options referring to other sections.
    for n, row in r.player_counts.items():
        if r.setup.start_player >= n:
            fail("setup.start_player", f"seat {r.setup.start_player} does not exist with {n} players")
    for lid in r.setup.fixed_legacies:
        if lid not in r.legacies:
            fail("setup.fixed_legacies", f"unknown legacy {lid!r}")
    if r.operating.company_legacy_purchase_phase not in phase_names:
        fail("operating.company_legacy_purchase_phase", f"unknown phase {r.operating.company_legacy_purchase_phase!r}")
    lo, hi = r.operating.company_legacy_price_percent
    if lo > hi:
        fail("operating.company_legacy_price_percent", f"minimum {lo} % is above maximum {hi} %")
    if len(r.markers.goods_payment) != len(epochs):
        fail("markers.goods_payment", f"expected one payment per epoch ({len(epochs)}), got {len(r.markers.goods_payment)}")
    if len(r.legacies) < max(r.player_counts):
        fail("legacies", f"{len(r.legacies)} legacies cannot give one to each of {max(r.player_counts)} players")
    for lid, leg in r.legacies.items():
        ab = leg.ability
        if ab.node is not None and ab.node not in r.map.nodes:
            fail(f"legacies.{lid}.ability.node", f"unknown node {ab.node!r}")
        if ab.company is not None and ab.company not in r.companies:
            fail(f"legacies.{lid}.ability.company", f"unknown company {ab.company!r}")

    # Market: cells hold values that rise to the right and upwards.
    for ri, row in enumerate(r.market):
        for ci, cell in enumerate(row):
            if cell is None:
                continue
            right = row[ci + 1] if ci + 1 < len(row) else None
            if right is not None and right.value < cell.value:
                fail(f"market.rows[{ri}]", f"cell {ci + 1} ({right.value}) is lower than the cell to its left ({cell.value})")
            if ri and ci < len(r.market[ri - 1]) and r.market[ri - 1][ci] is not None and r.market[ri - 1][ci].value < cell.value:
                fail(f"market.rows[{ri}]", f"cell {ci} ({cell.value}) is higher than the cell above it")
    if not grid_values:
        fail("market.rows", "the market has no cells")

    _check_map(r, fail, len(epochs))
    _check_tiles(r, fail)


def _check_map(r: m.Ruleset, fail, n_epochs: int) -> None:
    mp = r.map
    hex_of: dict[str, str] = {}
    for name, node in mp.nodes.items():
        if node.hex not in mp.land:
            fail(f"map.nodes.{name}.hex", f"{node.hex} is not a land hex")
        if node.hex in hex_of.values():
            fail(f"map.nodes.{name}.hex", f"{node.hex} already holds a node")
        hex_of[name] = node.hex
        for a, b in node.track:
            for end in (a, b):
                if end != m.NODE and neighbour(node.hex, end) not in mp.land:
                    fail(f"map.nodes.{name}.track", f"edge {end} of {node.hex} leads off the land")
    for name, off in mp.offboards.items():
        if off.hex in mp.land or off.hex in mp.sea or off.hex in hex_of.values():
            fail(f"map.offboards.{name}.hex", f"{off.hex} is already used by the map")
        if len(off.revenue) != n_epochs:
            fail(f"map.offboards.{name}.revenue", f"expected one value per epoch ({n_epochs}), got {len(off.revenue)}")
        hex_of[name] = off.hex
    seen = set()
    for i, (a, b) in enumerate(mp.lanes):
        ends = []
        for end in (a, b):
            if end in mp.sea:
                ends.append(end)
            elif end in mp.nodes:
                if not mp.nodes[end].port:
                    fail(f"map.lanes[{i}]", f"node {end!r} is not a port node")
                ends.append(mp.nodes[end].hex)
            elif end in mp.offboards:
                ends.append(mp.offboards[end].hex)
            else:
                fail(f"map.lanes[{i}]", f"unknown lane end {end!r} (not a sea hex, port node or offboard)")
        if edge_between(ends[0], ends[1]) is None:
            fail(f"map.lanes[{i}]", f"{a} ({ends[0]}) and {b} ({ends[1]}) are not adjacent")
        key = frozenset((a, b))
        if key in seen:
            fail(f"map.lanes[{i}]", f"duplicate lane {a}-{b}")
        seen.add(key)


def _check_tiles(r: m.Ruleset, fail) -> None:
    for tid, t in r.tiles.items():
        has_node_path = any(m.NODE in p for p in t.paths)
        if t.node == "none" and has_node_path:
            fail(f"tiles.{tid}.paths", "a path reaches the node but the tile has node = none")
        if t.node != "none" and not has_node_path:
            fail(f"tiles.{tid}.paths", f"a {t.node} tile needs at least one path to its node")
        edges = [e for p in t.paths for e in p if e != m.NODE]
        if t.node == "none" and len(edges) != len(set(edges)) and t.colour == "yellow":
            fail(f"tiles.{tid}.paths", "a yellow tile uses an edge twice")
