"""The CLI as the generated documents see it: the typer app's command tree, each command's
--help, and the parameters' facts (defaults, ranges, value sets, environment variables), read
from the app itself (docs_gen.py writes the files, docs_man.py the man page)."""

from __future__ import annotations

import contextlib
import inspect
import os
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROG = "headroom"
REGENERATE = ".venv/bin/python -m headroom_cli.docs_gen"
# Help as an 80-column terminal shows it (click leaves 2 columns free).
HELP_WIDTH = 78

# --------------------------------------------------------------------------- the app's tree

def _click():
    from typer import _click

    return _click


def root_context():
    """A click context for the whole app, formatted as an 80-column terminal would be."""
    import typer

    from .cli.commands import app

    command = typer.main.get_command(app)
    return _context(command, PROG, None)


def _context(command, name: str, parent):
    # As make_context builds it (the command's context_settings: -h for help), minus parsing.
    settings = {"terminal_width": HELP_WIDTH, "max_content_width": HELP_WIDTH,
                **(command.context_settings or {})}
    return _click().core.Context(command, info_name=name, parent=parent, **settings)


def is_group(command) -> bool:
    return hasattr(command, "list_commands")  # typer's TyperGroup (its click has no Group)


def walk(ctx=None):
    """Every visible command with its context, depth first, in the app's own order."""
    ctx = ctx or root_context()
    yield ctx
    command = ctx.command
    if is_group(command):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None and not sub.hidden:
                yield from walk(_context(sub, name, ctx))


def help_text(ctx) -> str:
    return ctx.command.get_help(ctx)


def declared_options() -> set[str]:
    """Every option name of every command (for checking what the prose mentions)."""
    return {name for ctx in walk() for param in ctx.command.get_params(ctx)
            for name in (*param.opts, *param.secondary_opts) if name.startswith("-")}


@contextlib.contextmanager
def _quiet_environment():
    # Value lists must not depend on this machine: no store (so `show ID` offers nothing).
    saved = os.environ.get("HEADROOM_STORE")
    os.environ["HEADROOM_STORE"] = "off"
    try:
        yield
    finally:
        if saved is None:
            del os.environ["HEADROOM_STORE"]
        else:
            os.environ["HEADROOM_STORE"] = saved


def fixed_values(ctx, param) -> tuple[list[str], bool]:
    """The values a parameter takes (exhaustive) or TAB offers (known), and which it is.

    Generic: a Choice type (an Enum) lists its choices; any completion callback is asked with
    nothing typed yet; a metavar like `[day|week]` lists its own. Values that depend on the
    machine (stored ids) come out empty here.
    """
    from .cli.completion import metavar_values

    choices = getattr(param.type, "choices", None)  # typer's TyperChoice (an Enum), a Choice
    if choices:
        return [str(getattr(choice, "value", choice)) for choice in choices], True
    if getattr(param, "_custom_shell_complete", None) is None:
        return metavar_values(param), False  # `[day|week]`: TAB offers them too
    with _quiet_environment():
        items = param.shell_complete(ctx, "")
    return [item.value for item in items], False


def default_of(param) -> str | None:
    if getattr(param, "is_flag", False):
        return None
    default = param.default
    if default is None or callable(default) or not getattr(param, "show_default", True):
        return None
    return str(getattr(default, "value", default))


def range_of(param) -> str | None:
    kind = param.type
    if not hasattr(kind, "min_open"):  # an IntRange or FloatRange (min=, max= on an option)
        return None
    low, high = kind.min, kind.max
    if low is not None and high is not None:
        return f"from {low} to {high}"
    if low is not None:
        return f"at least {low}" if not kind.min_open else f"more than {low}"
    if high is not None:
        return f"at most {high}" if not kind.max_open else f"less than {high}"
    return None


def envvars(param) -> list[str]:
    envvar = getattr(param, "envvar", None)
    if not envvar:
        return []
    return [envvar] if isinstance(envvar, str) else list(envvar)


# --------------------------------------------------------------------------- help text blocks

def blocks(help_: str | None) -> list[tuple[str, str]]:
    """Help text as ("text", paragraph) and ("pre", verbatim block) pieces, as click shows it:
    a paragraph that starts with \\b keeps its lines; others are re-filled."""
    out = []
    for paragraph in re.split(r"\n[ \t]*\n", inspect.cleandoc(help_ or "")):
        if not paragraph.strip():
            continue
        if paragraph.startswith("\b"):
            out.append(("pre", paragraph[1:].strip("\n")))
        else:
            out.append(("text", " ".join(paragraph.split())))
    return out


def titled(block: tuple[str, str], *titles: str) -> bool:
    kind, text = block
    return kind == "pre" and text.split("\n", 1)[0].strip().rstrip(":").lower() in titles

