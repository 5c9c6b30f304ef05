"""The filter's body, without typer: flags → Settings → one Run (run.py) → sink.

Both parsers end here: the typer app's root command (cli/filter.py), and main() itself when the
arguments are only plain options (cli/options.py), so a clip with plain options does not pay
for importing typer. Errors are one line on stderr and an exit status (SystemExit), which both
callers pass on as they are.
"""

from __future__ import annotations

import os
import sys
from typing import List, NoReturn, Optional

from ..settings import Settings, SettingsError
from ..sink import warn, write
from ..status import ExitStatus
from ..values import replace, value


@value
class Flags:
    """The filter's options as given on the command line (None: not given there)."""
    budget: Optional[int] = None
    tool: Optional[str] = None  # the flag, else HEADROOM_TOOL (the caller reads it)
    kind: str = "auto"
    encoding: Optional[str] = None
    fmt: Optional[str] = None
    no_store: bool = False
    live: bool = False
    no_digest: bool = False
    session: Optional[str] = None  # the flag, else HEADROOM_SESSION (the caller reads it)


def run_filter(flags: Flags, command: Optional[List[str]], prefetched: Optional[bytes],
               config=None) -> int:
    """Filter stdin (or `command`'s output) to stdout; the exit status to end with."""
    if command is not None and not command:
        _fail("nothing to run after --", ExitStatus.USAGE)
    tool = flags.tool or ("Bash" if command else None)
    try:
        settings = Settings.load(os.environ, config=config, budget=flags.budget,
                                 encoding=flags.encoding, fmt=flags.fmt,
                                 no_store=flags.no_store, no_digest=flags.no_digest)
    except SettingsError as err:
        _fail(str(err), err.status)
    for message in settings.warnings:
        warn(message)
    text = _command_text(command)
    family = None
    if text and settings.config.commands:  # [commands.FAMILY] budgets
        from ..family import family_of

        family = family_of(text)
    budget, fmt = settings.budget_for(tool, family), settings.format
    _check_kind(flags.kind)
    if flags.live and fmt != "text":
        _fail("--live prints text as it arrives: it takes no --format", ExitStatus.USAGE)
    if budget == 0 and fmt == "text":  # no clipping: straight through, whatever the size
        return _take_input(command, prefetched, write) or 0
    from ..run import ClipOptions, Run

    clip_run = Run(settings, ClipOptions(tool=settings.tool(tool), budget=budget,
                                         kind=flags.kind, tool_name=tool,
                                         session=_session_key(flags.session), command=text,
                                         cwd=_cwd() if text else None), warn)
    intake = clip_run.intake(live=write if flags.live else None)
    status = _take_input(command, prefetched, intake.feed)
    # A stopping signal ends a stdin run with 128 + N, but there is no command to report on.
    if command and status:
        clip_run.options = replace(clip_run.options, exit_status=status)
    outcome = clip_run.finish(intake)
    clip_run.record(outcome)
    if fmt == "text":
        write(outcome.output())
    else:
        from ..formats import wrap

        write(wrap(fmt, outcome.result, outcome.text(), tool=tool,
                   store_id=outcome.store_id, exit_status=clip_run.options.exit_status
                   ).encode("utf-8", "surrogateescape"))
    return status or 0


def _command_text(command: Optional[List[str]]) -> Optional[str]:
    """The wrapped command as one shell line (its identity in a session, its family)."""
    if not command:
        return None
    import shlex

    return shlex.join(command)


def _cwd() -> Optional[str]:
    try:
        return os.getcwd()
    except OSError:  # removed from under us
        return None


def _fail(message: str, status: int) -> NoReturn:
    warn(message)
    sys.exit(int(status))


def _check_kind(kind: str) -> None:
    # The shapes are the sniffer's registry; importing it loads every planner, so only when a
    # shape is named.
    if kind == "auto":
        return
    from ..defaults import KINDS

    if kind not in KINDS:
        _fail(f"unknown --kind {kind!r}: use auto or one of {', '.join(KINDS)}", ExitStatus.USAGE)


def _take_input(command: Optional[List[str]], prefetched: Optional[bytes], sink) -> Optional[int]:
    """Hand the input to sink as it arrives: the command's output (returns its status), or
    stdin (returns 128 + N when signal N stopped the reading, else None)."""
    from ..source import CannotRun, read_stream, run_command

    if command:
        try:
            return run_command(command, sink)
        except CannotRun as err:
            _fail(str(err), err.status)
    if prefetched is None and (sys.stdin is None or sys.stdin.isatty()):
        _fail("no input: pipe a command's output in (cmd | headroom) or wrap one "
              "(headroom -- cmd)", ExitStatus.USAGE)
    if prefetched:
        sink(prefetched)
    try:
        signum = read_stream(sys.stdin.buffer, sink)
    except OSError as err:
        _fail(f"cannot read stdin: {err.strerror or err}", ExitStatus.ERROR)
    return None if signum is None else ExitStatus.SIGNAL_BASE + signum


def _session_key(given: str | None) -> str | None:
    """The run's session key; session.py (~10 ms with what it loads) only when one is given."""
    if not given:
        return None
    from ..session import normal_key

    return normal_key(given)
