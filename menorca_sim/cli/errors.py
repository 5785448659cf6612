"""Bad input answered in one place: every known user-error type becomes one line on
stderr and exit status 2, never a traceback.

- `one_line_errors` wraps a command's callback: ruleset, experiment, run, policy and
  dataset errors and file-system errors (missing file, folder not writable).
- `OneLineGroup` is the `menorca-sim` group class: click's own usage errors (bad
  numbers, unknown options or commands, `click.BadParameter` raised by a command)
  become one line too, instead of the usage text plus the error.
- `one_line_warnings` shows a category of warnings as `warning: ...` lines.
- `interruptible` ends a long command on Ctrl-C or SIGTERM with a line and exit 130
  (143 after SIGTERM), its cleanup done (locks released, worker processes ended).
- `Finite` is a float option that refuses nan and inf."""
from __future__ import annotations

import contextlib
import errno
import functools
import math
import signal
import threading
import warnings
from typing import Any, Callable, Iterator, NoReturn

import click

EXIT_BAD_INPUT = 2
FILE_SIZE_LIMIT = " (the process's file-size limit, `ulimit -f`, is too low for it; not a lack of disk space)"


def known_errors() -> tuple[type[BaseException], ...]:
    """The exception types that mean bad user input (imported only when one is raised,
    so that a command does not pay for the others' imports)."""
    from menorca_sim.analysis.dataset import DatasetError
    from menorca_sim.analysis.planning import PlanError
    from menorca_sim.run.experiment import ExperimentError
    from menorca_sim.rules import RulesetError
    from menorca_sim.run.parquet_store import DatasetRefused, ManifestError
    from menorca_sim.run.runner import RunError
    from policies import PolicyError

    return (RulesetError, ExperimentError, RunError, PolicyError, DatasetError, PlanError, DatasetRefused, ManifestError,
            OSError)


def message(exc: BaseException) -> str:
    """The error's one line (a file-system error names its file first)."""
    if isinstance(exc, OSError) and exc.filename is not None and exc.strerror:
        text = f"{exc.filename}: {exc.strerror}{FILE_SIZE_LIMIT if exc.errno == errno.EFBIG else ''}"
    else:
        text = str(exc) or type(exc).__name__
    return " ".join(text.split())


def fail(text: str) -> NoReturn:
    click.echo(f"error: {' '.join(text.split())}", err=True)
    raise SystemExit(EXIT_BAD_INPUT)


def one_line_errors(callback: Callable[..., Any]) -> Callable[..., Any]:
    """Decorate a command's callback (below the click decorators)."""
    @functools.wraps(callback)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return callback(*args, **kwargs)
        except known_errors() as exc:
            fail(message(exc))
    return wrapper


@contextlib.contextmanager
def one_line_warnings(category: type[Warning]) -> Iterator[None]:
    """Warnings of `category` go to stderr as they come, each as one `warning: ...` line
    (every one of them, not just the first from each place); others show as usual."""
    with warnings.catch_warnings():
        warnings.simplefilter("always", category)
        usual = warnings.showwarning

        def show(message: Warning | str, kind: type[Warning], *args: Any, **kwargs: Any) -> None:
            if issubclass(kind, category):
                click.echo(f"warning: {' '.join(str(message).split())}", err=True)
            else:
                usual(message, kind, *args, **kwargs)

        warnings.showwarning = show
        yield


class _OneLineUsageError(click.ClickException):
    exit_code = EXIT_BAD_INPUT

    def __init__(self, error: click.UsageError) -> None:
        super().__init__(error.format_message())
        self.where = error.ctx.command_path if error.ctx is not None else None

    def show(self, file: Any = None) -> None:
        where = f"{self.where}: " if self.where else ""
        click.echo(f"error: {where}{' '.join(self.message.split())}", err=True)


# A group called without arguments shows its help as a "usage error": keep it whole.
_HELP = getattr(click.exceptions, "NoArgsIsHelpError", ())


class OneLineGroup(click.Group):
    """A click group whose usage errors (its own and its subcommands') are one line."""

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        try:
            return super().parse_args(ctx, args)
        except _HELP:
            raise
        except click.UsageError as exc:
            raise _OneLineUsageError(exc) from None

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except _HELP:
            raise
        except click.UsageError as exc:
            raise _OneLineUsageError(exc) from None


class Seed(click.ParamType):
    """A seed option: an integer >= 0, and a message that says so for anything else
    (click's IntRange calls 'abc' 'not a valid integer range')."""
    name = "seed"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
            return value
        text = str(value).strip()
        if text.isdigit():
            return int(text)
        self.fail(f"expected an integer >= 0, got {value!r}", param, ctx)


class Finite(click.FloatRange):
    """A float option within a range that also refuses nan and inf: nan passes every
    comparison a range makes, and inf passes an open-ended one."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> float:
        number = super().convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"expected a finite number, got {value!r}", param, ctx)
        return number


@contextlib.contextmanager
def interruptible(what_is_kept: str) -> Iterator[None]:
    """Ctrl-C (SIGINT) or SIGTERM in the block: its cleanup runs as the interrupt unwinds it
    (SIGTERM is turned into one; by default it would end the process on the spot, leaving
    the workers and the lock behind), then one line, `interrupted: ` and `what_is_kept`,
    and exit 128 + the signal's number."""
    received: list[int] = []

    def terminate(signum: int, frame: Any) -> None:
        received.append(signum)
        raise KeyboardInterrupt

    main = threading.current_thread() is threading.main_thread()  # only it may set a handler
    previous = signal.signal(signal.SIGTERM, terminate) if main else None
    try:
        yield
    except KeyboardInterrupt:
        click.echo(f"interrupted: {what_is_kept}", err=True)
        raise SystemExit(128 + (received[0] if received else signal.SIGINT)) from None
    finally:
        if main:
            signal.signal(signal.SIGTERM, previous)
