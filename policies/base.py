"""The policy protocol and registry. A policy plays one seat: it sees the game (its
observation) and the legal actions, and returns one of them.

Specs (see `policies.spec`): a registered name with optional arguments
(`heuristic(risk=0.5)`), a style plus an auction strategy (`heuristic+value_bidder(premium=0.2)`)
or a user factory (`package.module:Factory(key=value)`, called as
`Factory(seat=..., rng=..., **params)`)."""
from __future__ import annotations

import importlib
from typing import Callable, Protocol

import numpy as np

from policies.errors import PolicyError, PolicyFailure
from policies.spec import Call, parse_args, split_spec


class Policy(Protocol):
    """A policy may also read the legal actions as ints: one that sets `reads_codes`
    True has `act_code(game) -> int`, the index of its choice in `game.legal_codes()`
    (and `legal_actions()`), which the play loop calls instead of `act`, building no dicts."""
    name: str  # full name, e.g. "random_legal"
    auction_strategy: str

    def act(self, game, legal: list[dict]) -> dict:
        """One element of `legal` (the list game.legal_actions() returned)."""


class AuctionStrategy(Protocol):
    name: str

    def act(self, game, legal: list[dict]) -> dict:
        """One element of `legal` at an auction decision."""


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
    if auction is not None:
        strategy = _registered(_AUCTIONS, "auction strategy", auction, spec, seat, rng)
        _check_protocol(strategy, ("name",), spec)
        policy = WithAuction(policy, strategy)
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
    if not callable(getattr(obj, "act", None)):
        missing.append("act()")
    if missing:
        raise PolicyError(f"policy spec {spec!r}: {type(obj).__name__} does not implement the "
                          f"policy protocol (missing {', '.join(missing)})")


def _one_line(exc: BaseException) -> str:
    return " ".join(f"{type(exc).__name__}: {exc}".split())


class WithAuction:
    """A stock/operating style that hands the auction's decisions to a strategy."""

    def __init__(self, style: Policy, strategy: AuctionStrategy) -> None:
        self.style = style
        self.strategy = strategy
        self.name = f"{style.name}+{strategy.name}"
        self.auction_strategy = strategy.name

    def act(self, game, legal: list[dict]) -> dict:
        if game.decision() in AUCTION_DECISIONS:
            return self.strategy.act(game, legal)
        return self.style.act(game, legal)

    def check_ruleset(self, ruleset) -> None:
        check_names(self.style, ruleset)
        check_names(self.strategy, ruleset)

    @property
    def reads_codes(self) -> bool:
        return reads_codes(self.style)

    def act_code(self, game) -> int:
        """The style's choice by int; the strategy's (which reads dicts) found among the legal dicts."""
        if game.decision() in AUCTION_DECISIONS:
            legal = game.legal_actions()
            return index_of(legal, self.strategy.act(game, legal))
        return self.style.act_code(game)


def check_names(policy, ruleset) -> None:
    """Raise PolicyError when `policy` names a company or legacy `ruleset` lacks: a policy
    that names them (a probe) has `check_ruleset(ruleset)`, and the wrappers hand it on."""
    check = getattr(policy, "check_ruleset", None)
    if check is not None:
        check(ruleset)


class Checked:
    """The policy as the game sees it: named by its spec, every answer checked."""

    def __init__(self, policy: Policy, name: str, seat: int) -> None:
        self.policy = policy
        self.name = name
        self.seat = seat
        self.auction_strategy = policy.auction_strategy

    def act(self, game, legal: list[dict]) -> dict:
        try:
            action = self.policy.act(game, legal)
        except Exception as exc:
            raise PolicyFailure(self._where(game) + f" raised {_one_line(exc)}") from exc
        if not _one_of(action, legal):
            raise PolicyFailure(self._where(game) + f" chose an illegal action {action!r}")
        return action

    @property
    def reads_codes(self) -> bool:
        return reads_codes(self.policy)

    def check_ruleset(self, ruleset) -> None:
        check_names(self.policy, ruleset)

    def act_code(self, game) -> int:
        try:
            i = self.policy.act_code(game)
        except Exception as exc:
            raise PolicyFailure(self._where(game) + f" raised {_one_line(exc)}") from exc
        if type(i) is not int or not 0 <= i < game.legal_count():
            raise PolicyFailure(self._where(game) + f" chose an illegal action index {i!r}")
        return i

    def _where(self, game) -> str:
        obs = game.observation()
        return (f"policy {self.name!r} (seat {self.seat}, seed {game.seed}) at decision "
                f"{game.decision()!r} for {game.actor_label()} (round {obs['round']}, "
                f"SR {obs['sr']}, OR {obs['or']})")


def reads_codes(policy) -> bool:
    """Does `policy` choose by int (`act_code`)? (See `Policy`.)"""
    return getattr(policy, "reads_codes", False) is True


def index_of(legal: list[dict], action: dict) -> int:
    """Where `action` is in `legal`: by identity first (a player hands back one of the
    very dicts it was given), else by equality (ValueError if it is not there)."""
    for i, candidate in enumerate(legal):
        if candidate is action:
            return i
    return legal.index(action)


def _one_of(action: dict, legal: list[dict]) -> bool:
    """`action in legal`, by identity first: a player mostly hands back one of the very
    dicts it was given, and comparing it with a hundred others costs more."""
    for candidate in legal:
        if candidate is action:
            return True
    return action in legal


def find_action(legal: list[dict], *types: str, last: bool = False) -> dict | None:
    """The first legal action of one of `types` (None if there is none), or with `last`
    the last: the pass or skip, which the engine lists after a step's choices (a hundred
    tile lays, a turn's buys). A plain loop: `next()` over a generator costs more than the
    search in these short lists."""
    for action in (reversed(legal) if last else legal):
        if action["type"] in types:
            return action
    return None


def move_index(game, kind: int, last: bool = False) -> int:
    """`find_action` on the legal actions as ints: the index of the first (or `last`)
    legal action of `kind` (codes.py), -1 if there is none."""
    moves = game.legal_moves(kind)
    return moves[-1 if last else 0][0] if moves else -1


def policy_names() -> list[str]:
    return sorted(_REGISTRY)


def auction_names() -> list[str]:
    return sorted(_AUCTIONS)
