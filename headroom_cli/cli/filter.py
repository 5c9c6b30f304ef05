"""The filter itself, `headroom [OPTIONS] [-- CMD …]`: the app's root command.

    flags → Settings → one Run (run.py) → sink

Output that fits never gets here: cli/__init__.py passes it through before typer is imported.
The options are declared with the names in cli/options.py, the table the pass-through reads.
"""

from __future__ import annotations

import sys
from typing import List, Optional

import typer

from .. import __version__
from ..settings import DEFAULT_BUDGET, DEFAULT_ENCODING, DEFAULT_FORMAT
from ..sink import write
from ..status import ExitStatus
from .base import Encoding, app, fail, settings
from .completion import complete_format, complete_kind, complete_tool
from .options import NAMES


def _version(value: bool) -> None:
    if value:
        print(f"headroom {__version__}")
        raise typer.Exit()


@app.callback(invoke_without_command=True)
def run(
    ctx: typer.Context,
    budget: int = typer.Option(DEFAULT_BUDGET, *NAMES["budget"], envvar="HEADROOM_BUDGET", min=0,
                               metavar="N", help="Token budget for the output; 0 = no clipping."),
    tool: Optional[str] = typer.Option(
        None, *NAMES["tool"], envvar="HEADROOM_TOOL", metavar="NAME",
        autocompletion=complete_tool,
        help="Agent tool that produced the output: Bash, Read, Grep, Glob, WebFetch (or an "
             "alias). Default: Bash when wrapping a command, else generic."),
    kind: str = typer.Option("auto", *NAMES["kind"], metavar="SHAPE",
                             autocompletion=complete_kind,
                             help="Shape: auto (sniff it), or a planner's name: search, "
                                  "diff, json, code, log, listing, other."),
    encoding: Encoding = typer.Option(DEFAULT_ENCODING, *NAMES["encoding"],
                                      envvar="HEADROOM_ENCODING",
                                      help="Tokenizer that counts the budget."),
    fmt: str = typer.Option(DEFAULT_FORMAT, *NAMES["fmt"], envvar="HEADROOM_FORMAT",
                            metavar="[text|markdown|json]", autocompletion=complete_format,
                            help="text: the output itself; markdown: a header line and the "
                                 "output fenced (CI summaries); json: the output and its "
                                 "figures, for harnesses."),
    no_store: bool = typer.Option(False, *NAMES["no_store"],
                                  help="Keep no copy of clipped output (also HEADROOM_STORE=off); "
                                       "markers then say how to re-run instead."),
    live: bool = typer.Option(False, *NAMES["live"],
                              help="Print the first lines as they arrive (for a person or a CI "
                                   "log watching a long command), then the plan of the rest "
                                   "when the input ends."),
    no_digest: bool = typer.Option(False, *NAMES["no_digest"],
                                   help="Ask no model for a digest of the omitted part, even "
                                        "when digest_command or digest_url is configured."),
    version: bool = typer.Option(False, *NAMES["version"], callback=_version, is_eager=True,
                                 help="Print the version and exit."),
) -> None:
    if ctx.invoked_subcommand is not None:
        return
    obj = ctx.obj or {}
    command: Optional[List[str]] = obj.get("command")
    if command is not None and not command:
        fail("nothing to run after --", ExitStatus.USAGE)
    tool = tool or ("Bash" if command else None)
    given = _given(ctx)
    resolved = settings(ctx, budget=budget if "budget" in given else None,
                        encoding=encoding.value if "encoding" in given else None,
                        fmt=fmt if "fmt" in given else None, no_store=no_store,
                        no_digest=no_digest)
    budget, fmt = resolved.budget_for(tool), resolved.format
    _check_kind(kind)
    if live and fmt != "text":
        fail("--live prints text as it arrives: it takes no --format", ExitStatus.USAGE)
    prefetched = obj.get("stdin")
    if budget == 0 and fmt == "text":  # no clipping: straight through, whatever the size
        raise typer.Exit(_take_input(command, prefetched, write) or 0)
    from ..run import ClipOptions, Run
    from ..sink import warn

    clip_run = Run(resolved, ClipOptions(tool=resolved.tool(tool), budget=budget, kind=kind,
                                         tool_name=tool), warn)
    intake = clip_run.intake(live=write if live else None)
    status = _take_input(command, prefetched, intake.feed)
    # A stopping signal ends a stdin run with 128 + N, but there is no command to report on.
    if command and status:
        clip_run.options = _with_status(clip_run.options, status)
    outcome = clip_run.finish(intake)
    clip_run.record(outcome)
    if fmt == "text":
        write(outcome.output())
    else:
        from ..formats import wrap

        write(wrap(fmt, outcome.result, outcome.result.text, tool=tool,
                   store_id=outcome.store_id, exit_status=clip_run.options.exit_status
                   ).encode("utf-8", "surrogateescape"))
    if status:
        raise typer.Exit(status)


def _given(ctx: typer.Context) -> set[str]:
    """The parameters given on the command line (flags beat everything; the environment and
    the config file are Settings' to weigh)."""
    from typer._click.core import ParameterSource

    return {name for name in ("budget", "encoding", "fmt")
            if ctx.get_parameter_source(name) is ParameterSource.COMMANDLINE}


def _with_status(options, status: int):
    from dataclasses import replace

    return replace(options, exit_status=status)


def _check_kind(kind: str) -> None:
    # The shapes are the sniffer's registry; importing it loads every planner, so only when a
    # shape is named.
    if kind == "auto":
        return
    from ..sniff import KINDS

    if kind not in KINDS:
        fail(f"unknown --kind {kind!r}: use auto or one of {', '.join(KINDS)}", ExitStatus.USAGE)


def _take_input(command: Optional[List[str]], prefetched: Optional[bytes], sink) -> Optional[int]:
    """Hand the input to sink as it arrives: the command's output (returns its status), or
    stdin (returns 128 + N when signal N stopped the reading, else None)."""
    from ..source import CannotRun, read_stream, run_command

    if command:
        try:
            return run_command(command, sink)
        except CannotRun as err:
            fail(str(err), err.status)
    if prefetched is None and (sys.stdin is None or sys.stdin.isatty()):
        fail("no input: pipe a command's output in (cmd | headroom) or wrap one "
             "(headroom -- cmd)", ExitStatus.USAGE)
    if prefetched:
        sink(prefetched)
    try:
        signum = read_stream(sys.stdin.buffer, sink)
    except OSError as err:
        fail(f"cannot read stdin: {err.strerror or err}", ExitStatus.ERROR)
    return None if signum is None else ExitStatus.SIGNAL_BASE + signum
