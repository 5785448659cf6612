"""Bad rulesets: each edit of the default TOML gives its own one-line error, through the
API and through `menorca-sim rules check` (exit 2, the line on stderr, no traceback)."""
from __future__ import annotations

import tomllib

import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given, settings, strategies as st

from menorca_sim.cli import main
from menorca_sim.play import play_game
from menorca_sim.rules import RulesetError, default_ruleset_path, load_ruleset
from policies import make_policy

DEFAULT_TEXT = default_ruleset_path().read_text(encoding="utf-8")

# (id, [(text in the default file, replacement), ...], expected message after "bad.toml: ")
CASES = [
    ("negative price", [("price = 80\n", "price = -5\n")],
     "vehicles.xebec.price: expected a positive integer, got -5"),
    ("price not a number", [("price = 80\n", 'price = "80"\n')],
     "vehicles.xebec.price: expected an integer, got '80'"),
    ("bad vehicle count", [('count = "unlimited"\nphase = "9H"', 'count = "lots"\nphase = "9H"')],
     "vehicles.escorted_convoy.count: expected a positive integer or \"unlimited\", got 'lots'"),
    ("unknown vehicle phase", [('count = 6\nphase = "4H"', 'count = 6\nphase = "4X"')],
     "vehicles.xebec.phase: unknown phase '4X'"),
    ("retire before entry", [('phase = "5H"\nretire = "8H"', 'phase = "5H"\nretire = "4H"')],
     "vehicles.polacca.retire: retires at 4H before or when it enters at 5H"),
    ("phases do not match ship tiers", [('count = 3\nphase = "8H"', 'count = 3\nphase = "9H"')],
     "phases: phase sequence ['4H', '5H', '6H', '7H', '8H', '9H'] does not match the ship tiers "
     "['4H', '5H', '6H', '7H', '9H', '9H']"),
    ("duplicate phase name", [('name = "5H"', 'name = "4H"')],
     "phases: duplicate phase name '4H'"),
    ("unknown tile colour", [('tiles = ["yellow"]', 'tiles = ["yellow", "purple"]')],
     "phases[0].tiles: unknown tile colour 'purple' (expected yellow, green, brown, grey)"),
    ("unknown event", [('events = ["utrecht"]', 'events = ["utrech"]')],
     "epochs[0].events: unknown event 'utrech'"),
    ("event in two epochs", [('events = ["capital_mao"]', 'events = ["utrecht"]')],
     "epochs[1].events: event 'utrecht' is already a candidate of epoch 1"),
    ("unknown event node", [('node = "Maó", amount = 10', 'node = "Mao", amount = 10')],
     "events.capital_mao.effect.node: unknown node 'Mao'"),
    ("unknown home node", [('home = "Ciutadella"', 'home = "Ciutadela"')],
     "companies.RCC.home: unknown node 'Ciutadela'"),
    ("unknown legacy", [("fixed_legacies = []", 'fixed_legacies = ["L1", "L10"]')],
     "setup.fixed_legacies: unknown legacy 'L10'"),
    ("unknown ability company", [('company = "RCC"', 'company = "RXX"')],
     "legacies.L6.ability.company: unknown company 'RXX'"),
    ("major certificates not 100 %", [("certificates = [20, 10, 10, 10, 10, 10, 10, 10, 10]   # [D]",
                                       "certificates = [20, 10, 10, 10, 10, 10, 10, 10]   # [D]")],
     "companies.RNC.certificates: certificates sum to 90 %, not 100 %"),
    ("merged certificates do not match the minors", [("certificates = [10, 10, 10, 10, 10, 10, 10, 10, 10, 10]",
                                                      "certificates = [20, 10, 10, 10, 10, 10, 10, 10, 10]")],
     "companies.RADM.certificates: expected 10 certificates (one per certificate of the minors in play), got 9"),
    ("par not on the grid", [("par = 60                          # [D]", "par = 65  # [D]")],
     "companies.Ramaders.par: par 65 is not a par cell of the market"),
    ("player row without cash", [("players = 2\ncash = 420\n", "players = 2\n")],
     "player_counts[0].cash: missing"),
    ("player row without limit", [("cash = 380\ncert_limit = 13", "cash = 380")],
     "player_counts[1].cert_limit: missing"),
    ("duplicate player row", [("players = 3", "players = 2")],
     "player_counts[1].players: duplicate row for 2 players"),
    ("bank cannot pay starting cash", [("cash = 10000", "cash = 1000")],
     "bank.cash: 1000 R. cannot pay 3 players 380 R. each (and their seat_cash)"),
    ("a seat cash per seat", [("seat_cash = [0, 0, 0]", "seat_cash = [0, 0]")],
     "player_counts[1].seat_cash: expected 3 whole numbers, one per seat, got (0, 0)"),
    ("no seat below nothing", [("seat_cash = [0, 0]  ", "seat_cash = [0, -500]  ")],
     "player_counts[0].seat_cash: a seat would start with less than nothing (420 R. + -500)"),
    ("unknown key", [("cash = 10000", "cassh = 10000")],
     "bank.cassh: unknown key (expected one of: cash)"),
    ("bad option value", [('unstarted_minor = "join"', 'unstarted_minor = "merge"')],
     "merger.unstarted_minor: expected one of discard, join, got 'merge'"),
    ("bad last-certificate option", [('last_certificate = "keep"', 'last_certificate = "sell"')],
     "minors.last_certificate: expected one of keep, may_sell, got 'sell'"),
    ("a route of no node", [("min_distinct_nodes = 2", "min_distinct_nodes = 0")],
     "routes.min_distinct_nodes: expected a positive integer, got 0"),
    ("bad buy-back option", [('buy_back_after_sale = "allowed"', 'buy_back_after_sale = "never"')],
     "company_shares.buy_back_after_sale: expected one of allowed, next_or, got 'never'"),
    ("bad stock-round bank option", [('bank_empty_in_stock_round = "next_or"', 'bank_empty_in_stock_round = "now"')],
     "end.bank_empty_in_stock_round: expected one of end_of_round, next_or, got 'now'"),
    ("misspelt options table", [('[minors]\n', '[minorz]\n')],
     "minorz: unknown key (expected one of: auction, bank, companies, company_shares, end, epochs, events, "
     "legacies, map, markers, market, merger, meta, minors, operating, phases, player_counts, routes, setup, "
     "stock, tiles, vehicles)"),
    ("offboard revenue missing an epoch", [("revenue = [20, 30, 30, 40]", "revenue = [20, 30, 30]")],
     "map.offboards.Palma.revenue: expected one value per epoch (4), got 3"),
    ("lane between non-adjacent hexes", [('"K14-K12"', '"K14-K8"')],
     "map.lanes[13]: K14 (K14) and K8 (K8) are not adjacent"),
    ("lane to a non-port node", [('"Maó-K12"', '"Sant Lluís-K12"')],
     "map.lanes[32]: node 'Sant Lluís' is not a port node"),
    ("unknown lane end", [('"Palma-B13"', '"Mallorca-B13"')],
     "map.lanes[40]: unknown lane end 'Mallorca' (not a sea hex, port node or offboard)"),
    ("duplicate lane", [('"K12-L11",', '"K12-L11", "L11-K12",')],
     "map.lanes[15]: duplicate lane L11-K12"),
    ("port without a lane", [('"Es Castell-L9", "Es Castell-L11",', "")],
     "map.nodes.Es Castell.port: a port node needs a sea lane"),
    ("node on a sea hex", [('hex = "D9"', 'hex = "D13"')],
     "map.nodes.Ferreries.hex: D13 is a sea hex; nodes stand on land"),
    ("node on no hex of the map", [('hex = "I12"', 'hex = "M12"')],
     "map.nodes.Sant Climent.hex: M12 is not a land hex"),
    ("preprinted track into the sea", [('track = "0-n 2-n"', 'track = "0-n 5-n"')],
     "map.nodes.Maó.track: edge 5 of J11 leads off the land (to K12)"),
    ("node name reused by an offboard", [('[map.nodes."Sant Climent"]', '[map.nodes."Palma"]')],
     "map.offboards.Palma: name 'Palma' is also a node"),
    ("tile path edge out of range", [('paths = "0-1" }', 'paths = "0-7" }')],
     "tiles.7.paths: path '0-7': '7' is not an edge 0-5 or n"),
    ("tile path joins an edge to itself", [('paths = "0-1" }', 'paths = "1-1" }')],
     "tiles.7.paths: path '1-1' joins an end to itself"),
    ("yellow tile uses an edge twice", [('paths = "0-3" }', 'paths = "0-3 3-5" }')],
     "tiles.9.paths: a yellow tile uses an edge twice"),
    ("plain tile reaches a node", [('paths = "0-3" }', 'paths = "0-n" }')],
     "tiles.9.paths: a path reaches the node but the tile has node = none"),
    ("town tile without a node path", [('node = "town", paths = "0-n" }', 'node = "town", paths = "0-3" }')],
     "tiles.T1.paths: a town tile needs at least one path to its node"),
    ("tile kind absent from the map", [('kind = "city"\nslots = 2\nport = true\ntrack = "4-n', 'kind = "town"\nslots = 2\nport = true\ntrack = "4-n'),
                                       ('kind = "city"\nslots = 2\nport = true\ntrack = "0-n', 'kind = "town"\nslots = 2\nport = true\ntrack = "0-n')],
     "tiles.14.node: the map has no city node to lay it on"),
    ("brown tile nothing upgrades to", [('node = "city", paths = "0-n 1-n 2-n 3-n 4-n" }', 'node = "city", paths = "0-n 3-n" }')],
     "tiles.63: no green tile upgrades to it"),
    ("market cell with a bad flag", [('"55y 60  65', '"55q 60  65')],
     "market.rows[0]: cell 0 '55q' is not a value with flags p, o, y, b (or - for no cell)"),
    ("market cell orange and yellow", [('"35o 40y 45y 50y 55y 60p', '"35oy 40y 45y 50y 55y 60p')],
     "market.rows[4]: cell 0 '35oy' cannot be both orange (o) and yellow (y)"),
    ("market value falls to the right", [("230  280  350", "230  280  250")],
     "market.rows[0]: cell 15 (250) is lower than the cell to its left (280)"),
    ("par value on two cells", [('"30o 35o 40y 45y 50y 55y 60  ', '"30o 35o 40y 45y 50y 55y 60p ')],
     "market.rows: par value 60 is on 2 cells; a par must name one cell"),
    ("ability with too few tiles", [("tiles = 2 }", "tiles = 1 }")],
     "legacies.L4.ability.tiles: expected an integer >= 2, got 1"),
    ("ability with a foreign field", [('"terrain_discount", amount = 20 }', '"terrain_discount", amount = 20, node = "Alaior" }')],
     "legacies.L3.ability.node: unknown key (expected one of: amount, type)"),
    ("free port on a non-port node", [('node = "Fornells" }', 'node = "Alaior" }')],
     "legacies.L2.ability.node: 'Alaior' is not a port node"),
    ("unknown ability type", [('type = "terrain_discount"', 'type = "terrain_rebate"')],
     "legacies.L3.ability.type: expected one of extra_tile_lay, free_market_marker, free_port, grant_cash, "
     "grant_certificate, none, revenue_bonus, terrain_discount, vehicle_discount, got 'terrain_rebate'"),
    ("legacy closing in an unknown epoch", [("income = 5\n", "income = 5\nclose_epoch = 7\n")],
     "legacies.L1.close_epoch: unknown epoch 7"),
]


def variant(edits: list[tuple[str, str]]) -> str:
    text = DEFAULT_TEXT
    for old, new in edits:
        assert text.count(old) == 1, f"edit target {old!r} must occur once in the default file"
        text = text.replace(old, new)
    return text


@pytest.fixture
def bad_file(tmp_path):
    def write(text: str):
        path = tmp_path / "bad.toml"
        path.write_text(text, encoding="utf-8")
        return path
    return write


def test_cases_are_distinct():
    assert len(CASES) >= 25
    assert len({message for _, _, message in CASES}) == len(CASES)


@pytest.mark.parametrize("edits, message", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_api_error(bad_file, edits, message):
    with pytest.raises(RulesetError) as info:
        load_ruleset(bad_file(variant(edits)))
    assert str(info.value) == f"bad.toml: {message}"


@pytest.mark.parametrize("edits, message", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_cli_check_error(bad_file, edits, message):
    path = bad_file(variant(edits))
    result = CliRunner().invoke(main, ["rules", "check", str(path)])
    assert result.exit_code == 2
    assert result.stderr == f"error: {path}: {message}\n"  # the path as given
    assert result.stdout == ""
    assert "Traceback" not in result.output


def test_invalid_toml_names_the_line(bad_file):
    text = DEFAULT_TEXT.replace("price = 80\n", "price = 80\nprice = 90\n")
    line = text[: text.index("price = 90")].count("\n") + 1
    with pytest.raises(RulesetError) as info:
        load_ruleset(bad_file(text))
    assert str(info.value) == f"bad.toml: not valid TOML (Cannot overwrite a value (at line {line}, column 11))"


def _leaf_paths(node, prefix=()):
    """Dotted paths of every scalar in the parsed default file (list items by index)."""
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    if not items and prefix:
        yield ".".join(prefix)
    for key, value in items:
        yield from _leaf_paths(value, (*prefix, str(key)))


LEAVES = sorted(_leaf_paths(tomllib.loads(DEFAULT_TEXT)))
JUNK = st.one_of(st.integers(-3, 1000), st.text(max_size=6), st.booleans(), st.none().map(lambda _: []),
                 st.lists(st.integers(-1, 7), max_size=3), st.sampled_from(["Maó", "K12", "0-n", "4H", "RCC", "L1"]))


@settings(max_examples=200, deadline=None)
@given(key=st.sampled_from(LEAVES), value=JUNK)
def test_any_bad_value_is_one_line_error(key, value):
    """Whatever a designer types into one value, loading either works or says why in one line."""
    try:
        load_ruleset(overrides={key: value})
    except RulesetError as exc:
        assert str(exc).startswith("menorca_v11.toml: ") and "\n" not in str(exc)


def _with_vehicle_types(n: int) -> str:
    """The default file with extra carts appended until it has n vehicle types."""
    extra = n - len(tomllib.loads(DEFAULT_TEXT)["vehicles"])
    carts = "".join(f'\n[vehicles.extra_cart_{i}]\nkind = "cart"\nrange = 3\nprice = 40\ncount = 1\nphase = "4H"\n'
                    for i in range(extra))
    return DEFAULT_TEXT + carts


def test_vehicle_types_are_at_most_one_per_bit_of_the_sold_out_mask(bad_file):
    """The engine keeps the sold-out vehicle types in a 64-bit mask: 64 types load, 65 do not."""
    rules = load_ruleset(bad_file(_with_vehicle_types(64)))
    assert len(rules.vehicles) == 64
    policies = [make_policy("heuristic", seat, np.random.default_rng(seat)) for seat in range(3)]
    game = play_game(rules, 2, policies, check=True)  # the invariants checked after each action
    assert game.is_over() and game._offer.sold_out >> 32  # extra carts late in the order sold out
    with pytest.raises(RulesetError) as info:
        load_ruleset(bad_file(_with_vehicle_types(65)))
    assert str(info.value) == ("bad.toml: vehicles: 65 vehicle types, at most 64 "
                               "(the engine keeps one bit per type in a 64-bit mask)")
