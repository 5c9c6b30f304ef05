"""The thin shell: argv and stdin are read here, and the run handed on.

    flags → Settings (settings.py) → one run (run.py) → sink (sink.py)

headroom runs on every agent tool call, and most outputs fit their budget. So main() first
tries the pass-through: when the arguments are only options that change nothing about output
that fits (cli/options.py, the same table the typer app is declared from) and stdin holds at
most `budget` bytes (every token covers at least one byte), the bytes go straight back out —
before typer, the tokenizer or any planner is imported. It reads no more than budget + 1 bytes
to find out: a larger input goes on, that prefix first, to the typer app (cli/commands.py),
which parses the same arguments again (so errors and help come from one place).
"""

from __future__ import annotations

import os
import sys

from .options import COMPLETE_VAR, SUBCOMMANDS


def main(argv: list[str] | None = None) -> None:
    args = list(sys.argv[1:] if argv is None else argv)
    # Everything after the first `--` is the wrapped command, never our options or subcommands.
    command: list[str] | None = None
    if "--" in args and not (args and args[0] in SUBCOMMANDS):
        split = args.index("--")
        args, command = args[:split], args[split + 1:]
    stdin = config = None
    if command is None and not os.environ.get(COMPLETE_VAR) \
            and not (args and args[0] in SUBCOMMANDS):
        budget, config = _plain_filter_budget(args)
        if budget and sys.stdin is not None and not sys.stdin.isatty():
            stdin, ended = _read_prefix(budget + 1)
            if ended and len(stdin) <= budget:
                from ..sink import write

                write(stdin)
                return
    from .commands import run_app

    run_app(args, command, stdin, config)


def _plain_filter_budget(args: list[str]):
    """The budget when `args` are only plain filter options, and the config file as read
    (None: let the typer app parse them; a broken config file ends the run here)."""
    from .options import parse_plain

    flags = parse_plain(args)
    if flags is None:
        return None, None
    from ..settings import Settings, SettingsError, read_config
    from ..sink import warn

    try:
        config = read_config(os.environ)
    except SettingsError as err:
        warn(str(err))
        sys.exit(err.status)
    budget = flags.get("budget")
    if budget is not None and not (budget.isascii() and budget.isdigit()):
        return None, config  # the typer app says what is wrong with it
    try:
        settings = Settings.load(os.environ, config=config, encoding=flags.get("encoding"),
                                 budget=None if budget is None else int(budget))
    except SettingsError:
        return None, config  # a bad value: the typer app reports it
    if settings.format != "text":
        return None, config  # a wrapped format is never a plain pass-through
    return settings.budget_for(flags.get("tool") or os.environ.get("HEADROOM_TOOL")), config


def _read_prefix(limit: int) -> tuple[bytes, bool]:
    """Up to `limit` bytes of stdin, and whether it ended within them. os.read, not the
    buffered reader: whatever is not returned here stays in the pipe for the full path."""
    parts, size = [], 0
    try:
        read = _unbuffered_reader(sys.stdin.buffer)
        while size < limit:
            part = read(limit - size)
            if not part:
                return b"".join(parts), True
            parts.append(part)
            size += len(part)
    except OSError:
        pass  # the full path reads on and reports the error properly
    return b"".join(parts), False


def _unbuffered_reader(stream):
    try:
        fd = stream.fileno()
    except (OSError, ValueError):  # an in-memory stream (tests): nothing to read ahead
        return stream.read
    return lambda size: os.read(fd, size)


def __getattr__(name: str):
    # `from headroom_cli.cli import app` (tests, the man page generator) without paying for typer
    # on the pass-through.
    if name == "app":
        from .commands import app

        return app
    raise AttributeError(name)
