"""Checks across sections: every name referenced exists, the map's geometry holds,
certificates add up, phases match the ship tiers, tiles can be laid.

Each check raises RulesetError (via `fail`) at the first problem, naming the key path
of the value a designer has to edit."""
from __future__ import annotations

from collections import Counter
from typing import Callable, NoReturn

from menorca_sim.rules import model as m
from menorca_sim.rules.errors import RulesetError
from menorca_sim.rules.geometry import edge_between, neighbour
from menorca_sim.rules.tiles import upgrade_rotations

Fail = Callable[[str, str], NoReturn]


def cross_check(file: str, r: m.Ruleset) -> None:
    def fail(key: str, problem: str) -> NoReturn:
        raise RulesetError(file, key, problem)

    for check in (_check_epochs_and_phases, _check_vehicles, _check_market, _check_companies,
                  _check_setup, _check_legacies, _check_map, _check_tiles):
        check(r, fail)


def _check_epochs_and_phases(r: m.Ruleset, fail: Fail) -> None:
    epochs = [e.number for e in r.epochs]
    if epochs != list(range(1, len(epochs) + 1)):
        fail("epochs", f"epochs must be numbered 1, 2, ... in order, got {epochs}")
    names = [p.name for p in r.phases]
    for name, n in Counter(names).items():
        if n > 1:
            fail("phases", f"duplicate phase name {name!r}")
    for i, p in enumerate(r.phases):
        if p.epoch not in epochs:
            fail(f"phases[{i}].epoch", f"unknown epoch {p.epoch}")
        if i and p.epoch < r.phases[i - 1].epoch:
            fail(f"phases[{i}].epoch", "epochs must not go back from one phase to the next")
        if i and not set(p.tiles) >= set(r.phases[i - 1].tiles):
            fail(f"phases[{i}].tiles", f"drops a tile colour allowed in phase {r.phases[i - 1].name}")
    for n in epochs:
        if n not in {p.epoch for p in r.phases}:
            fail("phases", f"no phase belongs to epoch {n}, so it can never begin")
    seen_events: dict[str, int] = {}
    for i, e in enumerate(r.epochs):
        for ev in e.events:
            if ev not in r.events:
                fail(f"epochs[{i}].events", f"unknown event {ev!r}")
            if ev in seen_events:
                fail(f"epochs[{i}].events", f"event {ev!r} is already a candidate of epoch {seen_events[ev]}")
            seen_events[ev] = e.number
    for eid, ev in r.events.items():
        if ev.effect.node is not None and ev.effect.node not in r.map.nodes:
            fail(f"events.{eid}.effect.node", f"unknown node {ev.effect.node!r}")
    if len(r.markers.goods_payment) != len(epochs):
        fail("markers.goods_payment", f"expected one payment per epoch ({len(epochs)}), got {len(r.markers.goods_payment)}")


def _check_vehicles(r: m.Ruleset, fail: Fail) -> None:
    """Phases are started by ships: exactly one ship tier per phase, in phase order."""
    names = [p.name for p in r.phases]
    for vid, v in r.vehicles.items():
        if v.phase not in names:
            fail(f"vehicles.{vid}.phase", f"unknown phase {v.phase!r}")
        if v.retire is not None:
            if v.retire not in names:
                fail(f"vehicles.{vid}.retire", f"unknown phase {v.retire!r}")
            if names.index(v.retire) <= names.index(v.phase):
                fail(f"vehicles.{vid}.retire", f"retires at {v.retire} before or when it enters at {v.phase}")
    tiers = sorted((v.phase for v in r.vehicles.values() if v.kind == "ship"), key=names.index)
    if tiers != names:
        fail("phases", f"phase sequence {names} does not match the ship tiers {tiers}")
    if r.operating.company_legacy_purchase_phase not in names:
        fail("operating.company_legacy_purchase_phase", f"unknown phase {r.operating.company_legacy_purchase_phase!r}")


def _check_market(r: m.Ruleset, fail: Fail) -> None:
    """Cells rise to the right and upwards; par values are unique (a par is chosen by value)."""
    cells = [c for row in r.market for c in row if c is not None]
    if not cells:
        fail("market.rows", "the market has no cells")
    pars = Counter(c.value for c in cells if c.par)
    if not pars:
        fail("market.rows", "no par cell (flag p)")
    for value, n in pars.items():
        if n > 1:
            fail("market.rows", f"par value {value} is on {n} cells; a par must name one cell")
    for ri, row in enumerate(r.market):
        above = r.market[ri - 1] if ri else ()
        for ci, cell in enumerate(row):
            if cell is None:
                continue
            right = row[ci + 1] if ci + 1 < len(row) else None
            if right is not None and right.value < cell.value:
                fail(f"market.rows[{ri}]", f"cell {ci + 1} ({right.value}) is lower than the cell to its left ({cell.value})")
            up = above[ci] if ci < len(above) else None
            if up is not None and up.value < cell.value:
                fail(f"market.rows[{ri}]", f"cell {ci} ({cell.value}) is higher than the cell above it ({up.value})")


def _check_companies(r: m.Ruleset, fail: Fail) -> None:
    pars = {c.value for row in r.market for c in row if c is not None and c.par}
    epochs = {e.number for e in r.epochs}
    kinds_sold = {v.kind for v in r.vehicles.values()}
    homes: Counter[str] = Counter()
    for cid, c in r.companies.items():
        key = f"companies.{cid}"
        if sum(c.certificates) != 100:
            fail(f"{key}.certificates", f"certificates sum to {sum(c.certificates)} %, not 100 %")
        if c.operate_percent > 100:
            fail(f"{key}.operate_percent", f"expected at most 100, got {c.operate_percent}")
        for vk in c.vehicle_kinds:
            if vk not in kinds_sold:
                fail(f"{key}.vehicle_kinds", f"no vehicle of kind {vk!r} exists")
        if c.home is not None:
            if c.home not in r.map.nodes:
                fail(f"{key}.home", f"unknown node {c.home!r}")
            homes[c.home] += 1
            if homes[c.home] > r.map.nodes[c.home].slots:
                fail(f"{key}.home", f"{c.home} has {r.map.nodes[c.home].slots} slot(s), too few for every home station there")
        if c.kind == "major":
            if c.certificates[0] != 20:
                fail(f"{key}.certificates", "a major's first (Trust Family) certificate must be 20 %")
            if c.marked > len(c.certificates) - 1:
                fail(f"{key}.marked", f"{c.marked} marked certificates but only {len(c.certificates) - 1} 10 % ones")
            if c.home is not None and not r.map.nodes[c.home].port:
                fail(f"{key}.home", f"home {c.home!r} of a major must be a port node")
        if c.par is not None and c.par not in pars:
            fail(f"{key}.par", f"par {c.par} is not a par cell of the market")
        if c.available_epoch not in epochs:
            fail(f"{key}.available_epoch", f"unknown epoch {c.available_epoch}")
        if c.formed_epoch is not None and c.formed_epoch not in epochs:
            fail(f"{key}.formed_epoch", f"unknown epoch {c.formed_epoch}")
    if not any(c.kind == "major" for c in r.companies.values()):
        fail("companies", "no major company")
    minors = [c for c in r.companies.values() if c.kind == "minor"]
    merged = [c for c in r.companies.values() if c.kind == "merged"]
    if r.setup.minors_in_play > len(minors):
        fail("setup.minors_in_play", f"{r.setup.minors_in_play} minors in play but only {len(minors)} defined")
    if len(merged) > 1:
        fail("companies", f"more than one merged company ({', '.join(c.id for c in merged)})")
    if minors and not merged:
        fail("companies", "minors are defined but no merged company (kind = \"merged\") to merge into")
    if merged:
        # The merger turns each minor certificate into one certificate of the merged company.
        per_minor = {len(c.certificates) for c in minors}
        if len(per_minor) > 1:
            fail("companies", "minors must have the same number of certificates when they merge")
        expected = r.setup.minors_in_play * per_minor.pop() if per_minor else 0
        if len(merged[0].certificates) != expected:
            fail(f"companies.{merged[0].id}.certificates",
                 f"expected {expected} certificates (one per certificate of the minors in play), got {len(merged[0].certificates)}")


def _check_assigned(r: m.Ruleset, fail: Fail) -> None:
    """The random-assignment knobs: a known legacy, a seat every player count has, a price
    every count's seat can pay, and n - 1 other legacies to draw (fixed ones too)."""
    s = r.setup
    if s.assigned_legacy == "none":
        return
    if s.assigned_legacy not in r.legacies:
        fail("setup.assigned_legacy", f"unknown legacy {s.assigned_legacy!r} (or \"none\")")
    if s.assigned_seat >= min(r.player_counts):
        fail("setup.assigned_seat", f"seat {s.assigned_seat} does not exist with {min(r.player_counts)} players")
    poorest = min(row.cash + min(row.seat_cash) for row in r.player_counts.values())
    if s.assigned_arm == "hold" and abs(s.assigned_price) > poorest:  # below 0, the bank pays the seat to hold it
        fail("setup.assigned_price", f"{s.assigned_price} R. is more, either way, than a seat may start with "
                                     f"({poorest} R.)")
    others = [l for l in (s.fixed_legacies if s.legacies == "fixed" else r.legacies) if l != s.assigned_legacy]
    if len(others) < max(r.player_counts) - 1:
        fail("setup.assigned_legacy", f"{len(others)} other legacies cannot fill an auction of "
                                      f"{max(r.player_counts) - 1}")


def _check_setup(r: m.Ruleset, fail: Fail) -> None:
    most = max(r.player_counts)
    for n, row in r.player_counts.items():
        if row.cash * n + sum(row.seat_cash) > r.bank:
            fail("bank.cash", f"{r.bank} R. cannot pay {n} players {row.cash} R. each (and their seat_cash)")
    if r.setup.start_player >= min(r.player_counts):
        fail("setup.start_player", f"seat {r.setup.start_player} does not exist with {min(r.player_counts)} players")
    for name, n in Counter(r.setup.fixed_legacies).items():
        if name not in r.legacies:
            fail("setup.fixed_legacies", f"unknown legacy {name!r}")
        if n > 1:
            fail("setup.fixed_legacies", f"legacy {name!r} is listed twice")
    if r.setup.legacies == "fixed" and len(r.setup.fixed_legacies) < most:
        fail("setup.fixed_legacies", f"{len(r.setup.fixed_legacies)} legacies cannot give one to each of {most} players")
    _check_assigned(r, fail)
    lo, hi = r.operating.company_legacy_price_percent
    if lo > hi:
        fail("operating.company_legacy_price_percent", f"minimum {lo} % is above maximum {hi} %")
    if r.stock.holding_limit > 100:
        fail("stock.holding_limit", f"expected at most 100, got {r.stock.holding_limit}")


def _check_legacies(r: m.Ruleset, fail: Fail) -> None:
    if len(r.legacies) < max(r.player_counts):
        fail("legacies", f"{len(r.legacies)} legacies cannot give one to each of {max(r.player_counts)} players")
    epochs = {e.number for e in r.epochs}
    for lid, leg in r.legacies.items():
        key = f"legacies.{lid}"
        ab = leg.ability
        if leg.close_epoch is not None and leg.close_epoch not in epochs:
            fail(f"{key}.close_epoch", f"unknown epoch {leg.close_epoch}")
        if ab.node is not None:
            if ab.node not in r.map.nodes:
                fail(f"{key}.ability.node", f"unknown node {ab.node!r}")
            if ab.type == "free_port" and not r.map.nodes[ab.node].port:
                fail(f"{key}.ability.node", f"{ab.node!r} is not a port node")
        if ab.type == "vehicle_discount" and ab.percent > 100:
            fail(f"{key}.ability.percent", f"a discount of {ab.percent} % is more than the price")
        if ab.company is not None:
            company = r.companies.get(ab.company)
            if company is None:
                fail(f"{key}.ability.company", f"unknown company {ab.company!r}")
            # The Trust Family certificate (index 0 of a major) is never granted.
            grantable = company.certificates[1:] if company.kind == "major" else company.certificates
            if ab.percent not in grantable:
                fail(f"{key}.ability.percent", f"{ab.company} has no {ab.percent} % certificate to grant")


def _check_map(r: m.Ruleset, fail: Fail) -> None:
    mp = r.map
    n_epochs = len(r.epochs)
    # Lane ends and markers name nodes, offboards and sea hexes in one namespace.
    for name in mp.nodes:
        if name in mp.offboards:
            fail(f"map.offboards.{name}", f"name {name!r} is also a node")
    for name in (*mp.nodes, *mp.offboards):
        if name in mp.sea or name in mp.land:
            fail("map.nodes" if name in mp.nodes else "map.offboards", f"name {name!r} is also a hex")
    hex_of: dict[str, str] = {}
    for name, node in mp.nodes.items():
        key = f"map.nodes.{name}"
        if node.hex in mp.sea:
            fail(f"{key}.hex", f"{node.hex} is a sea hex; nodes stand on land")
        if node.hex not in mp.land:
            fail(f"{key}.hex", f"{node.hex} is not a land hex")
        if node.hex in hex_of.values():
            fail(f"{key}.hex", f"{node.hex} already holds a node")
        hex_of[name] = node.hex
        for a, b in node.track:
            for end in (a, b):
                if end != m.NODE and neighbour(node.hex, end) not in mp.land:
                    fail(f"{key}.track", f"edge {end} of {node.hex} leads off the land (to {neighbour(node.hex, end)})")
    for name, off in mp.offboards.items():
        if off.hex in mp.land or off.hex in mp.sea or off.hex in hex_of.values():
            fail(f"map.offboards.{name}.hex", f"{off.hex} is already used by the map")
        if len(off.revenue) != n_epochs:
            fail(f"map.offboards.{name}.revenue", f"expected one value per epoch ({n_epochs}), got {len(off.revenue)}")
        hex_of[name] = off.hex
    seen: set[frozenset[str]] = set()
    laned: set[str] = set()
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
        if a == b:
            fail(f"map.lanes[{i}]", f"lane {a}-{b} joins {a} to itself")
        if edge_between(ends[0], ends[1]) is None:
            fail(f"map.lanes[{i}]", f"{a} ({ends[0]}) and {b} ({ends[1]}) are not adjacent")
        if not (a in mp.sea or b in mp.sea):
            fail(f"map.lanes[{i}]", f"lane {a}-{b} crosses no sea hex")
        pair = frozenset((a, b))
        if pair in seen:
            fail(f"map.lanes[{i}]", f"duplicate lane {a}-{b}")
        seen.add(pair)
        laned.update((a, b))
    for name, node in mp.nodes.items():
        if node.port and name not in laned:
            fail(f"map.nodes.{name}.port", "a port node needs a sea lane")
    for name in mp.offboards:
        if name not in laned:
            fail(f"map.offboards.{name}", "no sea lane reaches this offboard")


def _check_tiles(r: m.Ruleset, fail: Fail) -> None:
    node_kinds = {n.kind for n in r.map.nodes.values()}
    for tid, t in r.tiles.items():
        key = f"tiles.{tid}.paths"
        has_node_path = any(m.NODE in p for p in t.paths)
        if not t.paths:
            fail(key, "a tile needs at least one path")
        if t.node == "none" and has_node_path:
            fail(key, "a path reaches the node but the tile has node = none")
        if t.node != "none" and not has_node_path:
            fail(key, f"a {t.node} tile needs at least one path to its node")
        edges = [e for p in t.paths for e in p if e != m.NODE]
        if t.colour == "yellow" and len(edges) != len(set(edges)):
            fail(key, "a yellow tile uses an edge twice")
        if t.node != "none" and t.node not in node_kinds:
            fail(f"tiles.{tid}.node", f"the map has no {t.node} node to lay it on")
        if t.colour != "yellow" and not _upgrades_something(r, t):
            below = m.COLOURS[m.COLOURS.index(t.colour) - 1]
            fail(f"tiles.{tid}", f"no {below} tile{' or preprinted track' if below == 'yellow' else ''} upgrades to it")


def _upgrades_something(r: m.Ruleset, tile: m.Tile) -> bool:
    """Whether `tile` can replace some tile (or preprinted track) of the colour below."""
    below = m.COLOURS[m.COLOURS.index(tile.colour) - 1]
    olds = [t.paths for t in r.tiles.values() if t.colour == below and t.node == tile.node]
    if below == "yellow":
        olds += [n.track for n in r.map.nodes.values() if n.track and n.kind == tile.node]
    return any(upgrade_rotations(old, tile.paths) for old in olds)
