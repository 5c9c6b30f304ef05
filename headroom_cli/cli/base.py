"""The typer application object and what every command module shares: failing with one line,
the exit-status help, and the run's Settings. Command modules (filter, store, agents, report,
history) register themselves on `app`; cli/commands.py imports them all."""

from __future__ import annotations

import os
from enum import Enum
from typing import NoReturn

import typer

from ..settings import ENCODINGS, Settings, SettingsError
from ..sink import warn
from ..status import EXIT_STATUS_HELP, ExitStatus

HELP = f"""Clip a tool's output to a token budget before it enters an LLM agent's context.

Reads stdin (or runs CMD after --), sniffs its shape (search results, a diff, JSON, source code,
a build/test log, a listing, a document, other: see --kind), keeps what a person debugging would look for,
and replaces whatever it drops with a marker that says how much was dropped and how to get it
back. Output that fits passes through unchanged.
Whatever is dropped is kept whole in a private local store ($HEADROOM_STORE, else
$XDG_STATE_HOME/headroom/store) under the id the marker names; `headroom show ID` prints it.

\b
Examples:
  rg -n parse_args | headroom --tool Grep --budget 2000
  headroom --tool Bash -- pytest -x        (CMD's stdout+stderr, merged; its exit status)
  make 2>&1 | headroom --budget 4000
  headroom show 3f2a9c1b7d4e --lines 301:4870

\b
{EXIT_STATUS_HELP}
"""

# The tokenizers, as a typer choice (tokens.ENCODINGS is the list).
Encoding = Enum("Encoding", {name: name for name in ENCODINGS}, type=str)

app = typer.Typer(
    help=HELP,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
    add_completion=False,
    no_args_is_help=False,
    subcommand_metavar="[-- CMD [ARGS]... | COMMAND [ARGS]...]",
    context_settings={"help_option_names": ["-h", "--help"]},
)


def fail(message: str, status: int) -> NoReturn:
    """One line on stderr, and the run ends with `status`."""
    warn(message)
    raise typer.Exit(int(status))


def exit_status_help(done: str, error: str) -> str:
    """A subcommand's exit statuses, laid out as in the app's help (statuses from status.py)."""
    return (f"\b\nExit status:\n  {ExitStatus.OK:<4} {done}\n  {ExitStatus.ERROR:<4} {error}\n"
            f"  {ExitStatus.USAGE:<4} usage error: bad option or argument\n")


def settings(ctx: typer.Context | None = None, **flags) -> Settings:
    """The run's Settings (flags given on the command line as keyword arguments; None: not
    given), its warnings said once; a broken config file or a bad value ends the run."""
    obj = (ctx.obj if ctx is not None else None) or {}
    try:
        resolved = Settings.load(os.environ, config=obj.get("config"), **flags)
    except SettingsError as err:
        fail(str(err), err.status)
    for message in resolved.warnings:
        warn(message)
    return resolved


def configured_store():
    """The store as configured (None when it is off) and its retention caps: for command
    modules that keep outputs themselves (history.py)."""
    from ..run import configured_store as of_settings

    return of_settings(settings())


def store_or_fail(resolved: Settings):
    """The store, or the run ends: it is off."""
    if resolved.store_dir is None:
        fail("the store is off (HEADROOM_STORE=off)", ExitStatus.ERROR)
    from ..store import Store

    return Store(resolved.store_dir)
