"""What watches a game's actions from inside it, when asked: the rule invariants checked
around each action (`Game(check=True)`) and the JSON-lines game log (`Game(log=path)`)."""
from __future__ import annotations

from menorca_sim.core.actions import describe
from menorca_sim.core.transitions import Checker
from menorca_sim.errors import InvariantError
from menorca_sim.gamelog import GameLog


class Watchers:
    """The invariant checker and the log of one game (either may be None)."""

    def __init__(self, checker: Checker | None, log: GameLog | None) -> None:
        self.checker, self.log = checker, log

    @classmethod
    def of(cls, game, check: bool, log) -> Watchers | None:
        """Those `Game(check=..., log=...)` asks for, None for neither."""
        if not check and log is None:
            return None
        return cls(Checker() if check else None, GameLog(log, game) if log is not None else None)

    def clone(self) -> Watchers | None:
        """A copy's: its own checker, no log."""
        return Watchers(self.checker.clone(), None) if self.checker is not None else None

    def before(self, game, eng, move: tuple, action: dict | None) -> tuple:
        """What they note before `move` (its dict `action`, or None) is applied."""
        if action is None:
            action = describe(eng.t, move)
        return (action, self.checker.before(eng, move) if self.checker is not None else None,
                self.log.before(game, action) if self.log is not None else None)

    def after(self, game, eng, noted: tuple) -> None:
        """Check the invariants (InvariantError on the first action that breaks one) and
        log the action."""
        action, checked, logged = noted
        if self.checker is not None:
            problems = self.checker.after(eng, checked)
            if problems:
                raise InvariantError(f"seed {game.seed}, action index {eng.actions - 1} ({action!r}): "
                                     + "; ".join(problems))
        if self.log is not None:
            self.log.after(game, action, logged)
