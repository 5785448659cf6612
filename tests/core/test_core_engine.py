"""The typed engine state (menorca_sim/core/state.py, the rounds' states, engine.py and
their .pxd): a copy equals its original in every declared field and shares nothing mutable
with it, the Engine declares no round's fields, the .pxd declarations have no circle, the
codes the compiled modules see equal codes.py's, and the counts the state keeps agree with
a count from scratch throughout real games."""
from __future__ import annotations

import re

import numpy as np

from helpers import ROOT
from menorca_sim.core import codes
from menorca_sim.core.invariants import tally
from menorca_sim.game import Game
from menorca_sim.rules import load_ruleset

CORE = ROOT / "menorca_sim" / "core"
RS = load_ruleset()
# the Engine's round states: its attribute -> (the .pxd declaring the class, the class)
ROUND_STATES = {"auction": ("auction.pxd", "AuctionState"), "stock": ("stock.pxd", "StockState"),
                "operating": ("operating.pxd", "OperatingState"), "marker": ("stock.pxd", "Placement")}
_FIELD = re.compile(r"\s+cdef (?:public |readonly )?[\w\[\]:, ]+? (\w+(?:, \w+)*)\s+#")


def _class_body(pxd: str, cls: str) -> list[str]:
    """The lines of `cdef class cls` in core/`pxd`, up to the next unindented line."""
    lines = (CORE / pxd).read_text().splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"cdef class {cls}"))
    body = []
    for line in lines[start + 1:]:
        if line and not line.startswith(" "):
            break
        body.append(line)
    return body


def _declared_fields(pxd: str, cls: str) -> list[str]:
    """The fields class `cls` declares in core/`pxd` (each `cdef ... name  # comment` line)."""
    names = []
    for line in _class_body(pxd, cls):
        found = _FIELD.match(line)
        if found and "(" not in line.partition("#")[0]:
            names += found.group(1).split(", ")
    return names


def _value(x):
    """A field's value for comparison: arrays and rows as nested lists."""
    if isinstance(x, (str, int, float, dict, tuple)) or x is None:
        return x
    try:
        return [_value(item) for item in x]
    except TypeError:
        return x


def _random_states(seed: int, every: int = 25):
    game = Game(RS, players=3, seed=seed)
    rng = np.random.default_rng(seed)
    while not game.is_over():
        legal = game.legal_actions()
        game.apply(legal[int(rng.integers(len(legal)))])
        if game.action_count() % every == 0:
            yield game


def test_every_state_pxd_comments_every_field():
    classes = [("state.pxd", "State"), ("engine.pxd", "Engine"), *ROUND_STATES.values()]
    for pxd, cls in classes:
        fields = [line for line in _class_body(pxd, cls) if re.match(r"\s+cdef (public |readonly )?\S", line)
                  and "(" not in line.partition("#")[0]]
        assert fields, cls
        assert all("  # " in line for line in fields), [line for line in fields if "  # " not in line]
    assert len(_declared_fields("state.pxd", "State")) > 50


def test_the_engine_declares_its_round_states_and_no_round_field():
    assert sorted(_declared_fields("engine.pxd", "Engine")) == sorted(ROUND_STATES)


def _mutables(eng) -> list:
    """(state, field) of the lists and arrays a copy must not share with its original."""
    return [(eng, "p_cash"), (eng, "co_vehicles"), (eng.auction, "reservations"), (eng.auction, "contest_bidders"),
            (eng.stock, "sold_this_turn"), (eng.operating, "operated_this_or"), (eng.operating, "offer"),
            (eng.operating, "declined")]


def test_a_copy_equals_its_original_in_every_field_and_shares_nothing_mutable():
    shared = [n for n in _declared_fields("state.pxd", "State") if not n.startswith("_")]
    assert {"p_cash", "cert_owner", "held", "co_vehicles", "board_memo"} <= set(shared)
    rounds = {attr: _declared_fields(pxd, cls) for attr, (pxd, cls) in ROUND_STATES.items()}
    assert {"order", "reservations"} <= set(rounds["auction"]) and "plan" in rounds["operating"]
    for game in _random_states(3):
        eng = game._eng
        copy = eng.clone()
        for name in shared:
            if name == "board":
                continue
            assert _value(getattr(copy, name)) == _value(getattr(eng, name)), name
        for attr, names in rounds.items():
            mine, theirs = getattr(eng, attr), getattr(copy, attr)
            assert theirs is not mine, attr
            for name in names:
                assert _value(getattr(theirs, name)) == _value(getattr(mine, name)), f"{attr}.{name}"
        assert copy.board.version == eng.board.version and copy.board is not eng.board
        for (state, name), (copied, _) in zip(_mutables(eng), _mutables(copy)):
            assert getattr(copied, name) is not getattr(state, name), name
        copy.p_cash[0] += 1
        copy.set_owner(0, 1, 0 if eng.cert_owner[0][1] != 0 else 1)
        copy.co_vehicles[0].append(0)
        copy.operating.operated_this_or[0] = 1 - eng.operating.operated_this_or[0]
        copy.stock.sold_this_turn[0] = 1 - eng.stock.sold_this_turn[0]
        assert copy.p_cash[0] != eng.p_cash[0] and copy.cert_owner[0][1] != eng.cert_owner[0][1]
        assert len(copy.co_vehicles[0]) == len(eng.co_vehicles[0]) + 1
        assert copy.operating.operated_this_or[0] != eng.operating.operated_this_or[0]
        assert copy.stock.sold_this_turn[0] != eng.stock.sold_this_turn[0]


def _pxd_cimports() -> dict[str, set[str]]:
    """Each .pxd of the package and the policies, by module name -> the modules it cimports."""
    graph = {}
    for pxd in sorted([*(ROOT / "menorca_sim").rglob("*.pxd"), *(ROOT / "policies").rglob("*.pxd")]):
        module = pxd.relative_to(ROOT).with_suffix("").as_posix().replace("/", ".")
        text = re.sub(r"\([^)]*\)", lambda m: m.group(0).replace("\n", " "), pxd.read_text())  # one line per cimport
        graph[module] = set()
        for source, names in re.findall(r"^from ([\w.]+) cimport ([^#\n]+)", text, re.M):
            if source.startswith(("menorca_sim", "policies")):
                found = [f"{source}.{n.strip()}" for n in names.strip("() ").split(",")]
                graph[module] |= {n for n in found if n in _modules()} or {source}
    return graph


def _modules() -> set[str]:
    return {p.relative_to(ROOT).with_suffix("").as_posix().replace("/", ".")
            for folder in ("menorca_sim", "policies") for p in (ROOT / folder).rglob("*.py")}


def _a_cycle(graph: dict[str, set[str]]) -> list[str]:
    """A cycle of the graph as the modules along it, [] if it has none (depth-first)."""
    state: dict[str, int] = {}  # 1 on the path being walked, 2 done
    path: list[str] = []

    def walk(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (found := walk(nxt)):
                return found
        state[node] = 2
        path.pop()
        return []

    for node in sorted(graph):
        if node not in state and (found := walk(node)):
            return found
    return []


def test_the_pxd_declarations_have_no_circle():
    graph = _pxd_cimports()
    core = "menorca_sim.core."
    assert {core + "state", core + "auction", core + "operating"} <= graph[core + "engine"]
    assert core + "state" in graph[core + "stock"] and core + "engine" not in graph[core + "stock"]
    assert _a_cycle(graph) == []
    # and the search finds a circle where one is
    circle = _a_cycle({**graph, core + "state": graph[core + "state"] | {core + "engine"}})
    assert {core + "state", core + "engine"} <= set(circle) and circle[0] == circle[-1]


def test_kept_counts_agree_with_counts_from_scratch():
    for seed in (0, 1):
        for game in _random_states(seed, every=7):
            eng = game._eng
            counts, percents = tally(eng)
            owners = list(range(eng.n)) + [codes.TREASURY, codes.POOL, codes.BOX]
            for c in range(len(eng.t.companies)):
                assert [eng.count_of(c, o) for o in owners] == counts[c][:len(owners)]
                assert [eng.percent(c, o) for o in owners] == percents[c][:len(owners)]
                assert eng.ships(c) == sum(1 for v in eng.co_vehicles[c] if eng.t.vehicle_is_ship[v])


def test_codes_pxd_gives_the_values_of_codes_py():
    text = (CORE / "codes.pxd").read_text()
    declared = dict(re.findall(r"^\s+(\w+) = (-?\d+)$", text, re.M))
    plain = {k: v for k, v in vars(codes).items() if k.isupper() and isinstance(v, int)}
    assert {k: int(v) for k, v in declared.items()} == plain
