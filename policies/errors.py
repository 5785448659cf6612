"""Errors of the policies package, each a one-line message."""
from __future__ import annotations


class PolicyError(ValueError):
    """A policy spec that cannot be built: unknown name, bad parameter, unimportable
    module, or a factory whose product does not implement the protocol."""


class PolicyFailure(RuntimeError):
    """A policy raised or answered with an illegal action during a game."""
