"""The thin shell: argv and stdin are read here, and the run handed on.

    flags → Settings (settings.py) → one run (run.py) → sink (sink.py)

headroom runs on every agent tool call, and most outputs fit their budget. So main() first
tries the pass-through: when the arguments are only options that change nothing about output
that fits (cli/options.py, the same table the typer app is declared from) and stdin holds at
most `budget` bytes (every token covers at least one byte), the bytes go straight back out —
before typer, the tokenizer or any planner is imported. It reads no more than budget + 1 bytes
to find out: a larger input goes on, that prefix first, to the filter's body
(cli/filtering.py) — still without typer, since the options were all plain and valid. Any
other arguments go to the typer app (cli/commands.py), which parses them (so errors and help
come from one place) — except `headroom hook AGENT [OPTIONS]`, which the agent waits on before
and after every command: when its options are all the app's and valid, the same body runs
with the app's defaults, without typer.
"""

from __future__ import annotations

import gc
import os
import sys

from .options import COMPLETE_VAR, SUBCOMMANDS

# Most of what a run allocates lives until it exits (modules, patterns, the output's lines), so
# the collector's default pace (a pass every 700 new objects) finds next to nothing, at ~6 % of
# a clip's time. Cycles are still collected, every 50,000: memory stays bounded on any stream.
_COLLECT_EVERY = 50_000


def main(argv: list[str] | None = None) -> None:
    """The console script. Ctrl-C at any point (start-up included, before the filter's own
    handlers are in place) ends it with 128 + SIGINT and no traceback."""
    gc.set_threshold(_COLLECT_EVERY, *gc.get_threshold()[1:])
    try:
        _main(list(sys.argv[1:] if argv is None else argv))
    except KeyboardInterrupt:
        from ..status import ExitStatus

        sys.exit(ExitStatus.SIGNAL_BASE + 2)


def _main(args: list[str]) -> None:
    # Everything after the first `--` is the wrapped command, never our options or subcommands.
    command: list[str] | None = None
    if "--" in args and not (args and args[0] in SUBCOMMANDS):
        split = args.index("--")
        args, command = args[:split], args[split + 1:]
    stdin = config = None
    if not os.environ.get(COMPLETE_VAR) and not (args and args[0] in SUBCOMMANDS):
        from .options import parse_plain

        values = _known_kind(parse_plain(args))
        flags = budget = None
        decided = False  # by _plain: the full settings
        if values is not None and command is None and sys.stdin is not None \
                and not sys.stdin.isatty() and not _in_session(values):
            budget = _light_budget(values, os.environ)
            if budget is None:  # a config file, or a value to check: full settings decide
                (flags, budget, config), decided = _plain(values), True
            if budget:
                from ..source import read_prefix

                stdin, ended, signum = read_prefix(sys.stdin.buffer, budget + 1)
                if signum is not None or (ended and len(stdin) <= budget):
                    from ..sink import write

                    # Stopped by a signal, it holds at most `budget` bytes: it fits as well.
                    write(stdin)
                    if signum is not None:
                        from ..status import ExitStatus

                        sys.exit(ExitStatus.SIGNAL_BASE + signum)
                    return
        if values is not None and not decided:
            flags, budget, config = _plain(values)
        if flags is not None:  # plain options: the filter's body, without typer
            _run_plain(flags, command, stdin, config)
            return
    if command is None and args[:1] == ["hook"] and not os.environ.get(COMPLETE_VAR):
        _run_hook_without_typer(args[1:])
    from .commands import run_app

    run_app(args, command, stdin, config)


def _run_hook_without_typer(args: list[str]) -> None:
    """`headroom hook AGENT [OPTIONS]` without typer (~35 ms), when every option is one of the
    app's (cli/options.py's HOOK_OPTIONS, the table cli/agents.py declares them from) with a
    valid value: the body the app's `hook` command calls, with the defaults it declares. The
    agent waits on it before every command (AGENT) and after it (filter). Returns when the
    arguments are anything else: the app then parses them and reports any error."""
    from .options import HOOK_OPTIONS, parse_plain

    if not args or args[0].startswith("-"):
        return
    values = parse_plain(args[1:], HOOK_OPTIONS)
    if values is None:
        return
    from ..agents.cli import hook_command

    defaults = {option.dest: None if option.takes_value else False for option in HOOK_OPTIONS}
    values = {**defaults, **values}
    sys.exit(hook_command(args[0], **values))


def _run_plain(flags, command, stdin, config) -> None:
    from ..sink import quiet_broken_pipe
    from .filtering import run_filter

    try:
        status = run_filter(flags, command, stdin, config)
    except BrokenPipeError:
        quiet_broken_pipe()
    if status:
        sys.exit(status)


def _known_kind(values: dict | None) -> dict | None:
    """`values`, when its --kind (if any) names a shape: an unknown one goes to the typer app,
    which reports it even for output that fits."""
    if values is None or "kind" not in values:
        return values
    from ..defaults import KINDS

    return values if values["kind"] == "auto" or values["kind"] in KINDS else None


def _in_session(values: dict) -> bool:
    """A session (--session, $HEADROOM_SESSION) sees every output: none passes through unread
    (even one that fits may open with what changed since the last run)."""
    from ..defaults import SESSION_VAR
    from .options import SESSION

    return bool(str(values.get(SESSION) or os.environ.get(SESSION_VAR) or "").strip())


def _light_budget(values: dict, environ) -> int | None:
    """The budget output that fits is held to, when only the flags and HEADROOM_BUDGET can set
    it (no config file, the text format, values that need no checking): found without
    importing settings.py and what it loads (~20 ms, twice the rest of the pass-through).
    None: _plain decides."""
    from ..defaults import DEFAULTS, ENCODINGS, ENV, FORMATS, config_path

    budget = values["budget"] if "budget" in values else \
        environ.get(ENV["budget"]) or str(DEFAULTS["budget"])
    encoding = values["encoding"] if "encoding" in values else \
        environ.get(ENV["encoding"]) or DEFAULTS["encoding"]
    if environ.get(ENV["format"], FORMATS[0]) != FORMATS[0] or encoding not in ENCODINGS \
            or not (budget.isascii() and budget.isdigit()) \
            or os.path.exists(config_path(environ)):
        return None
    return int(budget)


def _plain(values: dict):
    """For plain filter options (options.parse_plain's values), all valid: the
    filtering.Flags, the budget output that fits is held to, and the config file as read.
    (None, None, config) otherwise: the typer app parses them and reports any error. A broken
    config file ends the run."""
    from ..settings import Settings, SettingsError, read_config
    from ..sink import warn

    try:
        config = read_config(os.environ)
    except SettingsError as err:
        warn(str(err))
        sys.exit(err.status)
    budget = values.get("budget")
    if budget is not None and not (budget.isascii() and budget.isdigit()):
        return None, None, config  # the typer app says what is wrong with it
    from .filtering import Flags

    from ..defaults import SESSION_VAR

    flags = Flags(budget=None if budget is None else int(budget),
                  tool=values.get("tool") or os.environ.get("HEADROOM_TOOL") or None,
                  kind=values.get("kind", "auto"),
                  encoding=values.get("encoding"), no_store="no_store" in values,
                  no_digest="no_digest" in values,
                  session=values.get("session") or os.environ.get(SESSION_VAR) or None)
    try:
        settings = Settings.load(os.environ, config=config, budget=flags.budget,
                                 encoding=flags.encoding)
    except SettingsError:
        return None, None, config  # a bad value: the typer app reports it
    if settings.format != "text":
        return flags, None, config  # a wrapped format never passes through as it is
    return flags, settings.budget_for(flags.tool), config


def __getattr__(name: str):
    # `from headroom_cli.cli import app` (tests, the man page generator) without paying for typer
    # on the pass-through.
    if name == "app":
        from .commands import app

        return app
    raise AttributeError(name)
