"""Load a ruleset TOML file into a validated, frozen Ruleset.

Every problem raises RulesetError with one line: `file: key.path: what is wrong`."""
from __future__ import annotations

import copy
import hashlib
import json
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any, Mapping

from menorca_sim.rules import model as m
from menorca_sim.rules.crosscheck import cross_check
from menorca_sim.rules.errors import RulesetError
from menorca_sim.rules.geometry import parse_hex
from menorca_sim.rules.reader import EngineTable, Table

DEFAULT_RULESET = "menorca_v11.toml"

VEHICLE_KINDS = ("ship", "cart")
# Game._sold_out keeps a vehicle type per bit of a 64-bit mask
MAX_VEHICLE_TYPES = 64
MARKET_FLAGS = "poyb"  # par, orange, yellow, bankruptcy
COMPANY_KINDS = ("major", "minor", "merged")
EFFECTS = ("none", "revenue_bonus", "close_legacies", "end_after_set")
ABILITIES = (
    "extra_tile_lay", "terrain_discount", "free_port", "vehicle_discount",
    "grant_certificate", "free_market_marker", "revenue_bonus", "grant_cash", "none",
)


def default_ruleset_path() -> Path:
    return Path(str(resources.files("menorca_sim.rules") / "data" / DEFAULT_RULESET))


def load_ruleset(path: str | Path | None = None, overrides: Mapping[str, Any] | None = None) -> m.Ruleset:
    """Load and validate a ruleset; `path=None` is the default v11 file.

    `overrides` maps dotted key paths to values, e.g. {"vehicles.xebec.price": 90};
    they are applied to the parsed file before validation."""
    path = Path(path) if path is not None else default_ruleset_path()
    file = path.name or str(path)
    raw_bytes, data = read_rules_file(path)
    overrides = dict(overrides or {})
    data = apply_overrides(file, data, overrides)
    digest = hashlib.sha256(raw_bytes + json.dumps(overrides, sort_keys=True, default=str).encode()).hexdigest()
    ruleset = parse_ruleset(EngineTable(file, data), str(path), digest, overrides)
    cross_check(file, ruleset)
    return ruleset


def read_rules_file(path: Path) -> tuple[bytes, dict]:
    """A rules file's bytes and its TOML tables (a file that cannot be read or parsed is
    a RulesetError naming it)."""
    file = path.name or str(path)
    try:
        raw_bytes = path.read_bytes()
    except OSError as exc:
        raise RulesetError(file, "", f"cannot read file ({exc.strerror or exc})") from None
    try:
        return raw_bytes, tomllib.loads(raw_bytes.decode("utf-8"))
    except (UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise RulesetError(file, "", f"not valid TOML ({exc})") from None


def apply_overrides(file: str, data: dict, overrides: Mapping[str, Any]) -> dict:
    """Set each dotted key path (list items by index, e.g. "phases.0.limit"); the path
    must already exist in the file, so a typo never adds a key that nothing reads."""
    data = copy.deepcopy(data)
    for dotted, value in overrides.items():
        parts = str(dotted).split(".")
        node: Any = data
        for depth, part in enumerate(parts):
            where = ".".join(parts[:depth]) or "the file"
            if isinstance(node, list):
                if not part.isdigit() or int(part) >= len(node):
                    raise RulesetError(file, dotted, f"override names no item {part!r} in {where}")
                part = int(part)
            elif not isinstance(node, dict) or part not in node:
                raise RulesetError(file, dotted, f"override names no key {part!r} in {where}")
            if depth == len(parts) - 1:
                node[part] = value
            else:
                node = node[part]
    return data


def _paths(table: Table, name: str, text: str) -> tuple[tuple[int, int], ...]:
    """Parse "0-3 1-n" into ((0, 3), (1, NODE)); edges are 0-5."""
    paths = []
    for token in text.split():
        ends = token.split("-")
        if len(ends) != 2:
            raise table.fail(name, f"path {token!r} is not of the form a-b")
        pair = []
        for end in ends:
            if end == "n":
                pair.append(m.NODE)
            elif end.isdigit() and 0 <= int(end) <= 5:
                pair.append(int(end))
            else:
                raise table.fail(name, f"path {token!r}: {end!r} is not an edge 0-5 or n")
        if pair[0] == pair[1]:
            raise table.fail(name, f"path {token!r} joins an end to itself")
        paths.append((min(pair), max(pair)))
    if len(set(paths)) != len(paths):
        raise table.fail(name, f"duplicate path in {text!r}")
    return tuple(paths)


def _companies(root: Table) -> dict[str, m.Company]:
    companies = {}
    for cid, t in root.table("companies").children():
        kind = t.str("kind", choices=COMPANY_KINDS)
        common = {"name", "kind", "stations", "certificates", "operate_percent", "vehicle_kinds"}
        extra = {
            "major": {"home", "available_epoch", "marked", "markers"},
            "minor": {"home", "available_epoch", "goods", "goods_markers", "par"},
            "merged": {"formed_epoch"},
        }[kind]
        t.only(common | extra)
        certs = t.int_list("certificates", minimum=1)
        if not certs:
            raise t.fail("certificates", "expected at least one certificate")
        formed = t.int("formed_epoch", minimum=1) if kind == "merged" else None
        vehicle_kinds = t.str_list("vehicle_kinds")
        for vk in vehicle_kinds:
            if vk not in VEHICLE_KINDS:
                raise t.fail("vehicle_kinds", f"unknown vehicle kind {vk!r} (expected {', '.join(VEHICLE_KINDS)})")
        if not vehicle_kinds:
            raise t.fail("vehicle_kinds", "expected at least one vehicle kind")
        companies[cid] = m.Company(
            id=cid,
            name=t.str("name"),
            kind=kind,
            home=t.str("home") if kind != "merged" else None,
            stations=t.int("stations", minimum=1),
            available_epoch=t.int("available_epoch", minimum=1) if kind != "merged" else formed,
            operate_percent=t.int("operate_percent", minimum=1),
            certificates=certs,
            marked=t.int("marked", minimum=0) if kind == "major" else 0,
            markers=t.int("markers", minimum=0) if kind == "major" else 0,
            goods=t.str("goods") if kind == "minor" else None,
            goods_markers=t.int("goods_markers", minimum=0) if kind == "minor" else 0,
            par=t.int("par", minimum=1) if kind == "minor" else None,
            formed_epoch=formed,
            vehicle_kinds=vehicle_kinds,
        )
    return companies


def _market(root: Table) -> tuple[tuple[m.MarketCell | None, ...], ...]:
    t = root.table("market")
    t.only({"rows"})
    rows = t.str_list("rows")
    grid = []
    for r, text in enumerate(rows):
        cells: list[m.MarketCell | None] = []
        for c, token in enumerate(text.split()):
            if token == "-":
                cells.append(None)
                continue
            digits = token.rstrip(MARKET_FLAGS)
            flags = token[len(digits):]
            problem = None
            if not digits.isdigit():
                problem = f"is not a value with flags {', '.join(MARKET_FLAGS)} (or - for no cell)"
            elif len(set(flags)) != len(flags):
                problem = "repeats a flag"
            elif "o" in flags and "y" in flags:
                problem = "cannot be both orange (o) and yellow (y)"
            elif "b" in flags and "p" in flags:
                problem = "cannot be both a bankruptcy (b) and a par (p) cell"
            if problem:
                raise t.fail(f"rows[{r}]", f"cell {c} {token!r} {problem}")
            cells.append(m.MarketCell(int(digits), "p" in flags, "o" in flags, "y" in flags, "b" in flags))
        grid.append(tuple(cells))
    return tuple(grid)


def _map(root: Table) -> m.MapData:
    t = root.table("map")
    t.only({"terrain_costs", "revenue", "land", "sea", "lanes", "nodes", "offboards"})
    costs_t = t.table("terrain_costs")
    costs = {name: costs_t.int(name, minimum=0) for name in costs_t.data}
    rev_t = t.table("revenue")
    rev_t.only({"city", "town"})
    revenue = {kind: rev_t.int_list(kind, minimum=0, length=len(m.COLOURS)) for kind in ("city", "town")}
    land: dict[str, str] = {}
    land_t = t.table("land")
    for terrain in land_t.data:
        if terrain not in costs:
            raise land_t.fail(terrain, f"unknown terrain (terrain_costs has {', '.join(costs)})")
        for hx in land_t.str_list(terrain):
            parse_hex(land_t, terrain, hx)
            if hx in land:
                raise land_t.fail(terrain, f"duplicate hex {hx}")
            land[hx] = terrain
    sea = t.str_list("sea")
    for hx in sea:
        parse_hex(t, "sea", hx)
        if hx in land:
            raise t.fail("sea", f"hex {hx} is also a land hex")
    if len(set(sea)) != len(sea):
        raise t.fail("sea", "duplicate hex")
    nodes = {}
    for name, n in t.table("nodes").children():
        n.only({"hex", "kind", "slots", "port", "track"})
        nodes[name] = m.Node(
            name=name,
            hex=n.str("hex"),
            kind=n.str("kind", choices=("city", "town")),
            slots=n.int("slots", minimum=1),
            port=n.bool("port", False),
            track=_paths(n, "track", n.str("track")) if "track" in n.data else (),
        )
    offboards = {}
    for name, o in t.table("offboards").children():
        o.only({"hex", "revenue"})
        offboards[name] = m.Offboard(name, o.str("hex"), o.int_list("revenue", minimum=0))
    lanes = []
    for i, text in enumerate(t.str_list("lanes")):
        ends = text.split("-")
        if len(ends) != 2 or not all(ends):
            raise t.fail(f"lanes[{i}]", f"{text!r} is not of the form A-B")
        lanes.append((ends[0], ends[1]))
    return m.MapData(costs, revenue, land, sea, tuple(lanes), nodes, offboards)


def _tiles(root: Table) -> dict[str, m.Tile]:
    tiles = {}
    for tid, t in root.table("tiles").children():
        t.only({"colour", "count", "node", "paths"})
        tiles[tid] = m.Tile(
            id=tid,
            colour=t.str("colour", choices=m.COLOURS),
            count=t.int("count", minimum=1),
            node=t.str("node", "none", choices=("none", "town", "city")),
            paths=_paths(t, "paths", t.str("paths")),
        )
    return tiles


def _ability(t: Table) -> m.Ability:
    kind = t.str("type", choices=ABILITIES)
    fields = {
        "extra_tile_lay": {"tiles"}, "terrain_discount": {"amount"}, "free_port": {"node"},
        "vehicle_discount": {"percent", "kind"}, "grant_certificate": {"company", "percent"},
        "free_market_marker": {"count"}, "revenue_bonus": {"node", "amount"}, "grant_cash": {"amount"},
        "none": set(),
    }[kind]
    t.only(fields | {"type"})
    return m.Ability(
        type=kind,
        node=t.str("node") if "node" in fields else None,
        amount=t.int("amount", minimum=1) if "amount" in fields else 0,
        tiles=t.int("tiles", minimum=2) if "tiles" in fields else 0,
        percent=t.int("percent", minimum=1) if "percent" in fields else 0,
        kind=t.str("kind", None, choices=VEHICLE_KINDS) if "kind" in t.data else None,
        company=t.str("company") if "company" in fields else None,
        count=t.int("count", minimum=1) if "count" in fields else 0,
    )


def parse_ruleset(root: Table, source: str, digest: str, overrides: dict) -> m.Ruleset:
    root.only({"meta", "bank", "player_counts", "setup", "auction", "companies", "merger", "phases",
               "epochs", "events", "vehicles", "operating", "stock", "market", "markers", "end",
               "minors", "routes", "company_shares", "legacies", "map", "tiles"})
    meta = root.table("meta")
    meta.only({"name", "description"})
    bank = root.table("bank")
    bank.only({"cash"})

    player_counts: dict[int, m.PlayerCount] = {}
    for t in root.tables("player_counts"):
        t.only({"players", "cash", "cert_limit", "seat_cash"})
        n = t.int("players", minimum=2)
        if n > 5:
            raise t.fail("players", f"expected 2 to 5 players, got {n}")
        if n in player_counts:
            raise t.fail("players", f"duplicate row for {n} players")
        seat_cash = tuple(t.raw("seat_cash"))
        if len(seat_cash) != n or not all(isinstance(c, int) and not isinstance(c, bool) and not t.too_large(c)
                                          for c in seat_cash):
            raise t.fail("seat_cash", f"expected {n} whole numbers, one per seat, got {seat_cash!r}")
        cash = t.int("cash", minimum=1)
        if any(cash + c < 0 for c in seat_cash):
            raise t.fail("seat_cash", f"a seat would start with less than nothing ({cash} R. + {min(seat_cash)})")
        player_counts[n] = m.PlayerCount(n, cash, t.int("cert_limit", minimum=1), seat_cash)

    s = root.table("setup")
    s.only({"minors_in_play", "legacies", "fixed_legacies", "start_player", "assigned_legacy", "assigned_arm",
            "assigned_price", "assigned_seat"})
    setup = m.SetupRules(s.int("minors_in_play", minimum=1), s.str("legacies", choices=("random", "fixed")),
                         s.str_list("fixed_legacies", []), s.int("start_player", minimum=0),
                         s.str("assigned_legacy", "none"), s.str("assigned_arm", "hold", choices=("hold", "out")),
                         s.int("assigned_price", 0), s.int("assigned_seat", -1, minimum=-1))

    a = root.table("auction")
    a.only({"price_drop", "min_price", "reservation_step", "contest_step", "free_at_zero"})
    auction = m.AuctionRules(a.int("price_drop", minimum=1), a.int("min_price", minimum=0),
                             a.int("reservation_step", minimum=1), a.int("contest_step", minimum=1),
                             a.str("free_at_zero", choices=("forced",)))

    g = root.table("merger")
    g.only({"unstarted_minor", "discard_order", "no_minor_started", "price"})
    merger = m.MergerRules(g.str("unstarted_minor", choices=("join", "discard")),
                           g.str("discard_order", choices=("cheapest",)),
                           g.str("no_minor_started", choices=("form_unowned", "not_formed")),
                           g.str("price", choices=("sum", "average")))

    phases = []
    for t in root.tables("phases"):
        t.only({"name", "epoch", "tiles", "limit", "ors"})
        colours = t.str_list("tiles")
        if not colours:
            raise t.fail("tiles", "expected at least one tile colour")
        for c in colours:
            if c not in m.COLOURS:
                raise t.fail("tiles", f"unknown tile colour {c!r} (expected {', '.join(m.COLOURS)})")
        phases.append(m.Phase(t.str("name"), t.int("epoch", minimum=1), colours,
                              t.int("limit", minimum=1), t.int("ors", minimum=1)))

    epochs = []
    for t in root.tables("epochs"):
        t.only({"number", "events", "legacies_close"})
        events_ = t.str_list("events")
        if not events_:
            raise t.fail("events", "expected at least one candidate event")
        epochs.append(m.Epoch(t.int("number", minimum=1), events_, t.bool("legacies_close")))

    events = {}
    for eid, t in root.table("events").children():
        t.only({"name", "effect"})
        e = t.table("effect")
        kind = e.str("type", choices=EFFECTS)
        e.only({"type", "node", "amount"} if kind == "revenue_bonus" else {"type"})
        effect = (m.Effect(kind, e.str("node"), e.int("amount", minimum=1)) if kind == "revenue_bonus"
                  else m.Effect(kind))
        events[eid] = m.Event(eid, t.str("name"), effect)

    vehicles = {}
    vehicle_tables = root.table("vehicles")
    if len(vehicle_tables.data) > MAX_VEHICLE_TYPES:
        raise root.fail("vehicles", f"{len(vehicle_tables.data)} vehicle types, at most {MAX_VEHICLE_TYPES} "
                                    "(the engine keeps one bit per type in a 64-bit mask)")
    for vid, t in vehicle_tables.children():
        t.only({"kind", "range", "price", "count", "phase", "retire"})
        count_raw = t.raw("count")
        if count_raw != "unlimited" and (isinstance(count_raw, bool) or not isinstance(count_raw, int) or count_raw < 1
                                         or t.too_large(count_raw)):
            raise t.fail("count", f'expected a positive integer or "unlimited", got {count_raw!r}')
        count = None if count_raw == "unlimited" else count_raw
        vehicles[vid] = m.Vehicle(vid, t.str("kind", choices=VEHICLE_KINDS), t.int("range", minimum=2),
                                  t.int("price", minimum=1), count, t.str("phase"), t.opt_str("retire"))

    o = root.table("operating")
    operating = m.OperatingRules(
        tile_lays=o.int("tile_lays", minimum=1),
        terrain_on_upgrade=o.bool("terrain_on_upgrade"),
        station_cost=o.int("station_cost", minimum=0),
        next_ship_tier=o.str("next_ship_tier", choices=("sold_out", "any_time")),
        vehicle_trade=o.str("vehicle_trade", choices=("same_director", "any_with_consent")),
        vehicle_trade_min_price=o.int("vehicle_trade_min_price", minimum=0),
        discard_order=o.str("discard_order", choices=("cheapest",)),
        forced_purchase=o.str("forced_purchase", choices=("cheapest",)),
        pool_dividends=o.str("pool_dividends", choices=("nobody", "company")),
        dividend_unit=o.int("dividend_unit", minimum=1),
        company_sells_own=o.bool("company_sells_own"),
        company_buys_back=o.bool("company_buys_back"),
        company_legacy_purchase_phase=o.str("company_legacy_purchase_phase"),
        company_legacy_price_percent=o.int_list("company_legacy_price_percent", minimum=0, length=2),
        cart_port_rule=o.str("cart_port_rule", choices=("station",)),
        reserve_home_slots=o.bool("reserve_home_slots"),
        order_tie=o.str("order_tie", choices=("right_up_first",)),
    )
    o.only(m.OperatingRules.__dataclass_fields__)

    st = root.table("stock")
    st.only(m.StockRules.__dataclass_fields__)
    stock = m.StockRules(st.int("holding_limit", minimum=1), st.int("pool_limit", minimum=0),
                         st.bool("first_sr_sales"), st.str("sold_out_check", choices=("end_of_sr",)),
                         st.str("over_limit", choices=("sell_next_turn",)))

    mk = root.table("markers")
    mk.only(m.MarkerRules.__dataclass_fields__)
    markers = m.MarkerRules(mk.int("market_bonus", minimum=0), mk.int_list("goods_payment", minimum=0),
                            mk.str("goods_pay_before_merger", choices=("minor", "none")),
                            mk.int("offboard_cap", minimum=0))

    en = root.table("end")
    en.only(m.EndRules.__dataclass_fields__)
    end = m.EndRules(en.str("bank_broken_finish", choices=("or",)), en.str("bankruptcy_finish", choices=("or",)),
                     en.int("max_ors", minimum=1), en.str("tie_break", choices=("cash",)),
                     en.str("bank_empty_in_stock_round", choices=("next_or", "end_of_round")))

    mi = root.table("minors")
    mi.only(m.MinorRules.__dataclass_fields__)
    minor_rules = m.MinorRules(mi.str("last_certificate", choices=("keep", "may_sell")))
    ro = root.table("routes")
    ro.only(m.RouteRules.__dataclass_fields__)
    routes = m.RouteRules(ro.int("min_distinct_nodes", minimum=1))
    cs = root.table("company_shares")
    cs.only(m.CompanyShareRules.__dataclass_fields__)
    company_shares = m.CompanyShareRules(cs.str("buy_back_after_sale", choices=("allowed", "next_or")))

    # A legacy closes at its own close_epoch, else when the first legacies_close epoch begins.
    default_close = next((e.number for e in epochs if e.legacies_close), None)
    legacies = {}
    for lid, t in root.table("legacies").children():
        t.only({"name", "price", "income", "ability", "close_epoch"})
        legacies[lid] = m.Legacy(lid, t.str("name"), t.int("price", minimum=0), t.int("income", minimum=0),
                                 _ability(t.table("ability")),
                                 t.int("close_epoch", minimum=1) if "close_epoch" in t.data else default_close)

    return m.Ruleset(
        name=meta.str("name"),
        source=source,
        sha256=digest,
        bank=bank.int("cash", minimum=1),
        player_counts=player_counts,
        setup=setup,
        auction=auction,
        companies=_companies(root),
        merger=merger,
        phases=tuple(phases),
        epochs=tuple(epochs),
        events=events,
        vehicles=vehicles,
        operating=operating,
        stock=stock,
        market=_market(root),
        markers=markers,
        end=end,
        minor_rules=minor_rules,
        routes=routes,
        company_shares=company_shares,
        legacies=legacies,
        map=_map(root),
        tiles=_tiles(root),
        overrides=dict(overrides),
    )
