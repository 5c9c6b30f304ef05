"""The filter's options, defined once: their names, and whether they take a value (and the
names of the subcommands, which the pass-through leaves to the typer app).

Both parsers read this table: the typer app (cli/filter.py) declares each option with these
names, and the pass-through (cli/__init__.py) recognises the same names before typer is even
imported. tests/test_fast_path.py checks that the two agree. Imports nothing.
"""

from __future__ import annotations

# Subcommands take everything after them, `--` included; only the filter wraps a command.
SUBCOMMANDS = ("show", "store", "init", "hook", "mcp", "config", "stats", "history", "audit",
               "doctor")
# Set by the shell completion scripts (completions/): the full app answers, whatever stdin holds.
COMPLETE_VAR = "_HEADROOM_COMPLETE"


class Option(tuple):
    """One option (a tuple, not a dataclass: importing dataclasses costs the pass-through
    ~8 ms, as much as the rest of its start-up)."""
    __slots__ = ()

    def __new__(cls, dest: str, names: tuple[str, ...], takes_value: bool, plain: bool,
                minimum: int | None = None):
        return super().__new__(cls, (dest, names, takes_value, plain, minimum))

    dest = property(lambda self: self[0])  # the parameter's name in the typer command
    names = property(lambda self: self[1])
    takes_value = property(lambda self: self[2])
    minimum = property(lambda self: self[4])  # a whole number (None: text or a flag) at least this
    plain = property(lambda self: self[3])  # the pass-through may take it: changes nothing
    #                                         about output that fits (but for --session: a
    #                                         session's output is never passed through
    #                                         unread; main() checks, see SESSION)


FILTER_OPTIONS = (
    Option("budget", ("--budget", "-b"), True, True),
    Option("tool", ("--tool", "-t"), True, True),
    Option("kind", ("--kind", "-k"), True, True),  # main() checks the shape is a known one
    Option("encoding", ("--encoding", "-e"), True, True),
    Option("fmt", ("--format", "-f"), True, False),
    Option("no_store", ("--no-store",), False, True),
    Option("live", ("--live",), False, False),
    Option("no_digest", ("--no-digest",), False, True),
    Option("session", ("--session",), True, True),
    Option("version", ("--version",), False, False),
)
# `headroom hook AGENT`'s options. A wrapped command ends with `headroom hook filter …` (the
# agent waits on it): when every option is here with a valid value, main() runs the hook's body
# without typer (tests/test_fast_path.py checks the typer command declares exactly these).
NO_MINIMUM = -(1 << 62)  # a whole number that may be negative (an exit status)
HOOK_OPTIONS = (
    Option("budget", ("--budget", "-b"), True, True, 0),
    Option("exit_status", ("--exit-status",), True, True, NO_MINIMUM),
    Option("max_bytes", ("--max-bytes",), True, True, 1),
    Option("max_failure_bytes", ("--max-failure-bytes",), True, True, 1),
    Option("tool", ("--tool", "-t"), True, True),
    Option("input_file", ("--input",), True, True),
    Option("no_store", ("--no-store",), False, True),
    Option("status_line", ("--status-line",), True, True),
    Option("session", ("--session",), True, True),
    Option("command", ("--command",), True, True),
    Option("cwd", ("--cwd",), True, True),
    Option("context_tokens", ("--context-tokens",), True, True, 0),
    Option("context_window", ("--context-window",), True, True, 1),
)
HOOK_NAMES = {option.dest: option.names for option in HOOK_OPTIONS}
SESSION = "session"  # the option (and defaults.SESSION_VAR) that keeps output off the pass-through
NAMES = {option.dest: option.names for option in FILTER_OPTIONS}
def _by_name(table: tuple[Option, ...]) -> dict[str, Option]:
    return {name: option for option in table for name in option.names}


_BY_NAME = {FILTER_OPTIONS: _by_name(FILTER_OPTIONS), HOOK_OPTIONS: _by_name(HOOK_OPTIONS)}


def parse_plain(args: list[str], table: tuple[Option, ...] = FILTER_OPTIONS
                ) -> dict[str, str | bool | int] | None:
    """The values of `args` when they are only options of `table` the pass-through may take
    (a flag's value is True, a number's an int); None when anything else is there, or a
    number is not one (the typer app then parses them, and reports any error)."""
    values: dict[str, str | bool | int] = {}
    position = 0
    by_name = _BY_NAME[table]
    while position < len(args):
        name, equals, attached = args[position].partition("=")
        option = by_name.get(name)
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
    for option in table:
        if option.minimum is not None and option.dest in values:
            number = _whole_number(values[option.dest])
            if number is None or number < option.minimum:
                return None
            values[option.dest] = number
    return values


def _whole_number(text) -> int | None:
    """`text` as click reads an int option: optional sign, digits (None: not one)."""
    digits = text[1:] if text[:1] in "+-" else text
    return int(text) if digits.isascii() and digits.isdigit() else None
