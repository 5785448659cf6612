"""A game's fingerprint: a stable hash of its setup and of every action applied, the
seed left out, so that a study counts distinct games, not rows (a deterministic player
replays the same game from the same setup)."""
from __future__ import annotations

import hashlib


def fingerprint(n: int, minors, legacies, events, history: list) -> str:
    """16 hex digits of (player count, minors, legacies, events in play) and `history`,
    the internal moves applied in order."""
    setup = repr((n, list(minors), list(legacies), list(events)))
    # repr of the setup's tuple with the history's list appended, each move's text remembered
    text = f"{setup[:-1]}, [{', '.join([_move_text(move) for move in history])}])"
    return hashlib.blake2b(text.encode(), digest_size=8).hexdigest()


def _move_text(move: tuple) -> str:
    """repr(move), remembered across games: their moves repeat (the same purchases, bids,
    passes), and a fingerprint writes every move of a game. A move holds ints and strs
    only (no bool, whose repr differs from its equal int's)."""
    text = _MOVE_TEXTS.get(move)
    if text is None:
        if len(_MOVE_TEXTS) >= _MOVE_TEXTS_MAX:
            _MOVE_TEXTS.clear()
        text = _MOVE_TEXTS[move] = repr(move)
    return text


_MOVE_TEXTS: dict[tuple, str] = {}  # move -> repr(move)
_MOVE_TEXTS_MAX = 1 << 16
