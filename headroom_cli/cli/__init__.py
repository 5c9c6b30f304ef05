"""The thin shell: argv, environment, stdin, stdout and files are touched here and nowhere else.

headroom runs on every agent tool call, and most outputs fit their budget. So main() first
tries the pass-through: when the arguments are plain filter options and stdin holds at most
`budget` bytes (every token covers at least one byte), the bytes go straight back out — before
typer, the tokenizer or any planner is imported. Everything else goes to the typer app in
cli/commands.py, which re-parses the same arguments (so errors and help come from one place).
"""

from __future__ import annotations

import os
import sys

# Subcommands take everything after them, `--` included; only the filter wraps a command.
SUBCOMMANDS = ("show", "store")
DEFAULT_BUDGET = 4000
# The filter options the pass-through understands; anything else goes to the full parser.
_VALUED = {"--budget": "budget", "-b": "budget", "--tool": None, "-t": None,
           "--encoding": "encoding", "-e": "encoding"}
_FLAGS = {"--no-store"}


def main(argv: list[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    # Everything after the first `--` is the wrapped command, never our options or subcommands.
    command: list[str] | None = None
    if "--" in args and not (args and args[0] in SUBCOMMANDS):
        split = args.index("--")
        args, command = args[:split], args[split + 1:]
    stdin = None
    if command is None:
        budget = _plain_filter_budget(args, os.environ)
        if budget is not None and sys.stdin is not None and not sys.stdin.isatty():
            stdin = _read_all()
            if stdin is not None and (budget == 0 or len(stdin) <= budget):
                write(stdin)
                return
    from .commands import run_app

    run_app(args, command, stdin)


def _plain_filter_budget(args: list[str], environ) -> int | None:
    """The budget when args are only plain filter options (else None: let typer parse them)."""
    values = {"budget": environ.get("HEADROOM_BUDGET") or str(DEFAULT_BUDGET),
              "encoding": environ.get("HEADROOM_ENCODING") or "cl100k_base"}
    position = 0
    while position < len(args):
        name, _, attached = args[position].partition("=")
        if name in _FLAGS and not attached:
            position += 1
            continue
        if name not in _VALUED:
            return None
        if attached:
            value, position = attached, position + 1
        elif position + 1 < len(args):
            value, position = args[position + 1], position + 2
        else:
            return None
        if _VALUED[name]:
            values[_VALUED[name]] = value
    from ..tokens import ENCODINGS

    budget = values["budget"].strip()
    if not budget.isdigit() or values["encoding"] not in ENCODINGS:
        return None
    return int(budget)


def _read_all() -> bytes | None:
    try:
        return sys.stdin.buffer.read()
    except OSError:
        return None  # the full path reads again and reports the error properly


def write(data: bytes) -> None:
    """All of data to stdout; a reader that went away ends the run quietly (exit 141)."""
    out = sys.stdout.buffer
    view = memoryview(data)
    try:
        # A pipe whose reader left mid-write takes part of a large write without an error;
        # writing the rest is what raises BrokenPipeError.
        while view:
            written = out.write(view)
            if not written:
                break
            view = view[written:]
        out.flush()
    except BrokenPipeError:
        # Here, not in main(): typer turns a broken pipe into exit status 1 on its own.
        quiet_broken_pipe()


def quiet_broken_pipe() -> None:
    # The reader went away (`| head -1`): not an error worth a traceback.
    from ..status import ExitStatus

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except OSError:
        pass
    sys.exit(ExitStatus.PIPE_CLOSED)


def __getattr__(name: str):
    # `from headroom_cli.cli import app` (tests, the man page generator) without paying for typer
    # on the pass-through.
    if name == "app":
        from .commands import app

        return app
    raise AttributeError(name)
