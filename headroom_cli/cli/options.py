"""The filter's options, defined once: their names, and whether they take a value (and the
names of the subcommands, which the pass-through leaves to the typer app).

Both parsers read this table: the typer app (cli/filter.py) declares each option with these
names, and the pass-through (cli/__init__.py) recognises the same names before typer is even
imported. tests/test_fast_path.py checks that the two agree. Imports nothing.
"""

from __future__ import annotations

# Subcommands take everything after them, `--` included; only the filter wraps a command.
SUBCOMMANDS = ("show", "store", "init", "hook", "config", "stats", "history")
# Set by the shell completion scripts (completions/): the full app answers, whatever stdin holds.
COMPLETE_VAR = "_HEADROOM_COMPLETE"


class Option(tuple):
    """One option (a tuple, not a dataclass: importing dataclasses costs the pass-through
    ~8 ms, as much as the rest of its start-up)."""
    __slots__ = ()

    def __new__(cls, dest: str, names: tuple[str, ...], takes_value: bool, plain: bool):
        return super().__new__(cls, (dest, names, takes_value, plain))

    dest = property(lambda self: self[0])  # the parameter's name in the typer command
    names = property(lambda self: self[1])
    takes_value = property(lambda self: self[2])
    plain = property(lambda self: self[3])  # the pass-through may take it: changes nothing
    #                                         about output that fits (but for --session: a
    #                                         session's output is never passed through
    #                                         unread; main() checks, see SESSION)


FILTER_OPTIONS = (
    Option("budget", ("--budget", "-b"), True, True),
    Option("tool", ("--tool", "-t"), True, True),
    Option("kind", ("--kind", "-k"), True, False),
    Option("encoding", ("--encoding", "-e"), True, True),
    Option("fmt", ("--format", "-f"), True, False),
    Option("no_store", ("--no-store",), False, True),
    Option("live", ("--live",), False, False),
    Option("no_digest", ("--no-digest",), False, True),
    Option("session", ("--session",), True, True),
    Option("version", ("--version",), False, False),
)
SESSION = "session"  # the option (and defaults.SESSION_VAR) that keeps output off the pass-through
NAMES = {option.dest: option.names for option in FILTER_OPTIONS}
_BY_NAME = {name: option for option in FILTER_OPTIONS for name in option.names}


def parse_plain(args: list[str]) -> dict[str, str | bool] | None:
    """The values of `args` when they are only options the pass-through may take (a flag's
    value is True); None when anything else is there (the typer app then parses them, and
    reports any error)."""
    values: dict[str, str | bool] = {}
    position = 0
    while position < len(args):
        name, equals, attached = args[position].partition("=")
        option = _BY_NAME.get(name)
        if option is None or not option.plain:
            return None
        if not option.takes_value:
            if equals:
                return None
            values[option.dest], position = True, position + 1
        elif equals:
            values[option.dest], position = attached, position + 1
        elif position + 1 < len(args):
            values[option.dest], position = args[position + 1], position + 2
        else:
            return None
    return values
