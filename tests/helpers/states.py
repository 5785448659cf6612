"""Games driven through the public API only (no engine fields set by hand)."""
from __future__ import annotations


def chosen(policy, game) -> dict:
    """The legal action dict `policy` chooses in `game` (by `act_code`, the one protocol)."""
    return game.legal_actions()[policy.act_code(game)]
