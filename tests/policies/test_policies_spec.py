"""Policy specs: parsing, the registry, user policies, and the errors of bad specs and
of policies that fail during a game."""
import numpy as np
import pytest

from menorca_sim.play import play_game
from policies import PolicyError, PolicyFailure, make_policy
from policies.heuristic import PRESETS
from policies.spec import parse_args, split_spec


def make(spec, seat=0):
    return make_policy(spec, seat, np.random.default_rng(seat))


def test_parse_args_types():
    assert parse_args("a=1, b=-0.25, c=true, d=false, e=market, f='x y', g=\"q,r\"", "t") == \
        {"a": 1, "b": -0.25, "c": True, "d": False, "e": "market", "f": "x y", "g": "q,r"}
    assert parse_args("", "t") == {}


def test_split_spec_keeps_plus_inside_parentheses():
    style, auction = split_spec("heuristic(risk=0.7)+value_bidder(premium=+0.2)")
    assert (style.name, style.args) == ("heuristic", "risk=0.7")
    assert (auction.name, auction.args) == ("value_bidder", "premium=+0.2")


def test_presets_and_overrides():
    assert make("heuristic").policy.params == PRESETS["heuristic"]
    cautious = make("heuristic_cautious(horizon=9, payout=market)").policy.params
    assert cautious.horizon == 9 and cautious.payout == "market"
    assert cautious.risk == PRESETS["heuristic_cautious"].risk
    assert make("heuristic(risk=1)").policy.params.risk == 1.0  # an int is accepted for a float


def test_combination_names_its_auction_strategy():
    p = make("heuristic+value_bidder(premium=0.2)")
    assert p.name == "heuristic+value_bidder(premium=0.2)"
    assert p.auction_strategy == "value_bidder(premium=0.2)"
    assert make("random_legal+wait_for_drop").auction_strategy == "wait_for_drop"
    assert make("heuristic_aggressive").auction_strategy == "value_bidder(premium=0.2)"


@pytest.mark.parametrize("spec, message", [
    ("nobody", "unknown policy 'nobody'"),
    ("heuristic+nobody", "unknown auction strategy 'nobody'"),
    ("heuristic(risk=0.5", "unbalanced '('"),
    ("heuristic)", "unbalanced ')'"),
    ("heuristic+value_bidder+cheapest_first", "at most one '+'"),
    ("heuristic(risk)", "bad argument 'risk'"),
    ("heuristic(risk=0.5, risk=0.6)", "given twice"),
    ("heuristic(colour=red)", "unknown parameter 'colour'"),
    ("heuristic(risk=high)", "parameter 'risk' must be float"),
    ("heuristic(horizon=2.5)", "parameter 'horizon' must be int"),
    ("heuristic(horizon=true)", "parameter 'horizon' must be int"),
    ("heuristic(risk=1.5)", "risk must be within [0, 1]"),
    ("heuristic(payout=never)", "payout must be one of"),
    ("heuristic(risk=0.5$)", "cannot read value '0.5$'"),
    ("random_legal(x=1)", "random_legal takes no arguments"),
    ("heuristic+wait_for_drop(drop=2)", "drop must be within [0, 1]"),
    ("heuristic+cheapest_first(x=1)", "cheapest_first takes no arguments"),
    ("no_such_module_xyz:Factory", "cannot import 'no_such_module_xyz'"),
    ("helpers.user_policies:Missing", "has no callable 'Missing'"),
    ("helpers.user_policies:NotAPolicy", "does not implement the policy protocol (missing auction_strategy, act())"),
    ("helpers.user_policies:broken_factory", "failed: ValueError: cannot build"),
    ("helpers.user_policies:PreferPass(speed=3)", "failed: TypeError"),
    ("helpers.user_policies", "unknown policy 'helpers.user_policies'"),
    ("a b", "cannot read 'a b'"),
])
def test_bad_specs_give_one_line_errors(spec, message):
    with pytest.raises(PolicyError) as err:
        make(spec)
    text = str(err.value)
    assert message in text
    assert "\n" not in text and repr(spec) in text


def test_user_policy_plays_a_full_game(ruleset):
    specs = ["helpers.user_policies:PreferPass(lazy=0.8)", "heuristic", "random_legal"]
    policies = [make(s, i) for i, s in enumerate(specs)]
    game = play_game(ruleset, 11, policies)
    assert game.is_over()
    assert game.summary()["end_reason"] in ("bank", "bankruptcy", "conquest", "cap")
    assert policies[0].name == specs[0]


@pytest.mark.parametrize("factory, what", [("Raising", "raised RuntimeError: boom"),
                                            ("Illegal", "chose an illegal action {'type': 'fly_to_the_moon'}")])
def test_failing_policy_error_names_policy_seat_seed_and_decision(ruleset, factory, what):
    spec = f"helpers.user_policies:{factory}"
    policies = [make("heuristic", 0), make(spec, 1), make("heuristic", 2)]
    with pytest.raises(PolicyFailure) as err:
        play_game(ruleset, 5, policies)
    text = str(err.value)
    assert f"policy {spec!r} (seat 1, seed 5) at decision 'stock_turn' for P2" in text
    assert what in text and "\n" not in text


@pytest.mark.parametrize("spec, target", [
    ("probe(start=CCM)", ("start", "CCM")),
    ("probe(legacy='L9', up_to=200)", ("legacy", "L9")),
    ('probe(pump=true, play="heuristic(temperature=0.1)")', ("pump", "true")),
    ("probe(tier=true)+cheapest_first", ("tier", "true")),
    ("heuristic(risk=0.5)", None),
    ("probe(start=CCM", None),  # unbalanced: no spec
])
def test_the_analysis_reads_a_probe_by_the_spec_grammar(spec, target):
    from policies.probe import probe_target
    assert probe_target(spec) == target
