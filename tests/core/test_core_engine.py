"""The typed engine state (menorca_sim/core/engine.py + engine.pxd): a copy equals its
original in every declared field and shares nothing mutable with it, the codes the
compiled modules see equal codes.py's, and the counts the engine keeps agree with a
count from scratch throughout real games."""
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


def _declared_fields() -> list[str]:
    """The Engine fields engine.pxd declares (each `cdef ... name  # comment` line)."""
    text = (CORE / "engine.pxd").read_text()
    body = text[text.index("cdef class Engine:"):]
    names = []
    for line in body.splitlines():
        found = re.match(r"\s+cdef (?:public |readonly )?[\w\[\]:, ]+? (\w+(?:, \w+)*)\s+#", line)
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


def test_engine_pxd_comments_every_field():
    text = (CORE / "engine.pxd").read_text()
    fields = [line for line in text.splitlines() if re.match(r"\s+cdef (public |readonly )?\S", line)
              and "(" not in line.partition("#")[0]]
    assert len(fields) > 60
    assert all("  # " in line for line in fields), [line for line in fields if "  # " not in line]


def test_a_copy_equals_its_original_in_every_field_and_shares_nothing_mutable():
    names = [n for n in _declared_fields() if not n.startswith("_")]
    assert {"p_cash", "cert_owner", "held", "co_vehicles", "auc_order", "or_plan"} <= set(names)
    for game in _random_states(3):
        eng = game._eng
        copy = eng.clone()
        for name in names:
            if name == "board":
                continue
            assert _value(getattr(copy, name)) == _value(getattr(eng, name)), name
        assert copy.board.version == eng.board.version
        copy.p_cash[0] += 1
        copy.set_owner(0, 1, 0 if eng.cert_owner[0][1] != 0 else 1)
        copy.co_vehicles[0].append(0)
        assert copy.p_cash[0] != eng.p_cash[0] and copy.cert_owner[0][1] != eng.cert_owner[0][1]
        assert len(copy.co_vehicles[0]) == len(eng.co_vehicles[0]) + 1


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
