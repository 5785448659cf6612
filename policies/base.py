"""The policy protocol and registry. A policy plays one seat: it sees the game (its
observation) and the legal actions, and returns the index of one of them (`act_code`);
a policy written on the legal actions' dicts plays through the one adapter, `ByDicts`.

Specs (see `policies.spec`): a registered name with optional arguments
(`heuristic(risk=0.5)`), a style plus an auction strategy (`heuristic+value_bidder(premium=0.2)`)
or a user factory (`package.module:Factory(key=value)`, called as
`Factory(seat=..., rng=..., **params)`)."""
from __future__ import annotations

import importlib
from typing import Callable, Protocol

import numpy as np

from menorca_sim.game import IllegalActionError
from policies.errors import PolicyError, PolicyFailure
from policies.spec import Call, parse_args, split_spec


class Policy(Protocol):
    """The one protocol the play loop calls: a policy answers with the index of its choice
    among the legal actions (`game.legal_codes()`, in `game.legal_actions()`'s order).
    A policy written on dicts (`DictPolicy`) plays through `ByDicts`."""
    name: str  # full name, e.g. "random_legal"
    auction_strategy: str

    def act_code(self, game) -> int:
        """The index of its choice among the legal actions."""


class DictPolicy(Protocol):
    """A policy as a user writes it (docs/writing-a-policy.md): it answers with one of the
    legal action dicts."""
    name: str
    auction_strategy: str

    def act(self, game, legal: list[dict]) -> dict:
        """One element of `legal` (the list game.legal_actions() returned)."""


class AuctionStrategy(Protocol):
    name: str

    def act(self, game, legal: list[dict]) -> dict:
        """One element of `legal` at an auction decision."""


class ByDicts:
    """The one adapter from dicts to the protocol: `act_code` is the index of the dict
    the wrapped policy (or auction strategy) chooses among `game.legal_actions()`
    (`Game.action_index`: an action that is not among them raises IllegalActionError)."""

    def __init__(self, policy: DictPolicy | AuctionStrategy) -> None:
        self.policy = policy
        self.name = policy.name
        self.auction_strategy = getattr(policy, "auction_strategy", policy.name)

    def act_code(self, game) -> int:
        return game.action_index(self.policy.act(game, game.legal_actions()))

    def check_ruleset(self, ruleset) -> None:
        check_names(self.policy, ruleset)


def as_policy(policy: Policy | DictPolicy) -> Policy:
    """`policy` itself if it answers by index (`act_code`), else its `ByDicts`."""
    return policy if callable(getattr(policy, "act_code", None)) else ByDicts(policy)


Factory = Callable[[str, int, np.random.Generator], Policy]  # (argument text, seat, rng)
AuctionFactory = Callable[[str, int, np.random.Generator], AuctionStrategy]
_REGISTRY: dict[str, Factory] = {}
_AUCTIONS: dict[str, AuctionFactory] = {}
AUCTION_DECISIONS = ("auction_turn", "auction_contest")


def register(name: str, factory: Factory) -> None:
    _REGISTRY[name] = factory


def register_auction(name: str, factory: AuctionFactory) -> None:
    _AUCTIONS[name] = factory


def make_policy(spec: str, seat: int, rng: np.random.Generator) -> Policy:
    """Build the policy of `spec` for `seat`; a bad spec raises a one-line PolicyError.
    The result checks every answer: a policy that raises or answers illegally stops the
    game with a PolicyFailure naming the policy, seat, seed and decision."""
    style, auction = split_spec(spec)
    if ":" in style.name:
        policy = _user_policy(style, spec, seat, rng)
    else:
        policy = _registered(_REGISTRY, "policy", style, spec, seat, rng)
    _check_protocol(policy, ("name", "auction_strategy"), spec)
    policy = as_policy(policy)
    if auction is not None:
        strategy = _registered(_AUCTIONS, "auction strategy", auction, spec, seat, rng)
        _check_protocol(strategy, ("name",), spec)
        policy = WithAuction(policy, ByDicts(strategy))
    return Checked(policy, spec.strip(), seat)


def _registered(registry: dict, what: str, call: Call, spec: str, seat: int, rng) -> object:
    factory = registry.get(call.name)
    if factory is None:
        raise PolicyError(f"policy spec {spec!r}: unknown {what} {call.name!r} "
                          f"(known: {', '.join(sorted(registry))})")
    try:
        return factory(call.args, seat, rng)
    except PolicyError as exc:
        raise PolicyError(f"policy spec {spec!r}: {exc}") from None
    except (ValueError, TypeError) as exc:
        raise PolicyError(f"policy spec {spec!r}: {_one_line(exc)}") from None


def _user_policy(call: Call, spec: str, seat: int, rng) -> object:
    module_name, _, attr = call.name.partition(":")
    if not module_name or not attr or ":" in attr:
        raise PolicyError(f"policy spec {spec!r}: a user policy is package.module:Factory")
    try:
        module = importlib.import_module(module_name)
    except Exception as exc:  # any failure to import is the spec's problem
        raise PolicyError(f"policy spec {spec!r}: cannot import {module_name!r}: {_one_line(exc)}") from None
    factory = getattr(module, attr, None)
    if not callable(factory):
        raise PolicyError(f"policy spec {spec!r}: {module_name!r} has no callable {attr!r}")
    params = parse_args(call.args, f"policy spec {spec!r}")
    try:
        return factory(seat=seat, rng=rng, **params)
    except Exception as exc:
        raise PolicyError(f"policy spec {spec!r}: {attr}(seat, rng, **{params}) failed: {_one_line(exc)}") from None


def _check_protocol(obj: object, attrs: tuple[str, ...], spec: str) -> None:
    missing = [a for a in attrs if not isinstance(getattr(obj, a, None), str)]
    if not callable(getattr(obj, "act", None)) and not callable(getattr(obj, "act_code", None)):
        missing.append("act()")
    if missing:
        raise PolicyError(f"policy spec {spec!r}: {type(obj).__name__} does not implement the "
                          f"policy protocol (missing {', '.join(missing)})")


def _one_line(exc: BaseException) -> str:
    return " ".join(f"{type(exc).__name__}: {exc}".split())


class WithAuction:
    """A stock/operating style that hands the auction's decisions to a strategy."""

    def __init__(self, style: Policy, strategy: ByDicts) -> None:
        self.style = style
        self.strategy = strategy
        self.name = f"{style.name}+{strategy.name}"
        self.auction_strategy = strategy.name

    def act_code(self, game) -> int:
        if game.decision() in AUCTION_DECISIONS:
            return self.strategy.act_code(game)
        return self.style.act_code(game)

    def check_ruleset(self, ruleset) -> None:
        check_names(self.style, ruleset)
        check_names(self.strategy, ruleset)


def check_names(policy, ruleset) -> None:
    """Raise PolicyError when `policy` names a company or legacy `ruleset` lacks: a policy
    that names them (a probe) has `check_ruleset(ruleset)`, and the wrappers hand it on."""
    check = getattr(policy, "check_ruleset", None)
    if check is not None:
        check(ruleset)


class Checked:
    """The policy as the game sees it: named by its spec, every answer checked (by
    `Game.check_code`, or `Game.action_index` for a dict): a policy that raises or
    answers illegally stops the game with a PolicyFailure naming it."""

    def __init__(self, policy: Policy, name: str, seat: int) -> None:
        self.policy = policy
        self.name = name
        self.seat = seat
        self.auction_strategy = policy.auction_strategy

    def act_code(self, game) -> int:
        try:
            return game.check_code(self.policy.act_code(game))
        except IllegalActionError as exc:
            raise PolicyFailure(self._where(game) + f" chose {exc.choice}") from None
        except Exception as exc:
            raise PolicyFailure(self._where(game) + f" raised {_one_line(exc)}") from exc

    def check_ruleset(self, ruleset) -> None:
        check_names(self.policy, ruleset)

    def _where(self, game) -> str:
        obs = game.observation()
        return (f"policy {self.name!r} (seat {self.seat}, seed {game.seed}) at decision "
                f"{game.decision()!r} for {game.actor_label()} (round {obs['round']}, "
                f"SR {obs['sr']}, OR {obs['or']})")


def find_action(legal: list[dict], *types: str, last: bool = False) -> dict | None:
    """The first legal action of one of `types` (None if there is none), or with `last`
    the last: the pass or skip, which the engine lists after a step's choices (a hundred
    tile lays, a turn's buys). A plain loop: `next()` over a generator costs more than the
    search in these short lists."""
    for action in (reversed(legal) if last else legal):
        if action["type"] in types:
            return action
    return None


def policy_names() -> list[str]:
    return sorted(_REGISTRY)


def auction_names() -> list[str]:
    return sorted(_AUCTIONS)
