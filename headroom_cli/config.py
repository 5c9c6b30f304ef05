"""The config file and where every setting comes from.

    $HEADROOM_CONFIG, else $XDG_CONFIG_HOME/headroom/config.toml (~/.config/headroom/config.toml)

    budget = 4000                 # default token budget
    encoding = "cl100k_base"      # cl100k_base | o200k_base | estimate
    format = "text"               # text | markdown | json
    ledger = true                 # record runs for `headroom stats`
    digest_command = "llm -m gpt-4o-mini"   # optional digest of large omissions (off: unset)
    digest_url = "http://127.0.0.1:8080/v1/chat/completions"  # or this; the command wins
    digest_model = "qwen2.5-1.5b-instruct"  # the model the URL is asked for
    digest_timeout = 10           # seconds; past it the plain marker is printed

    [store]
    path = "~/.local/state/headroom/store"   # or "off"
    max_bytes = "1G"
    max_age_days = 14

    [hooks]                       # agent hooks beyond the shell (Claude Code, Codex)
    mcp_skip = ["jira"]           # MCP servers whose tool outputs are never clipped
    read_over = 0                 # Claude Code's Read: outline results over N tokens (0 = off)

    [session]                     # with a session (--session, HEADROOM_SESSION, agent hooks)
    dedup = true                  # an output already delivered in the session: one line
    dedup_over = 500              # tokens; smaller outputs are always delivered whole
    since = true                  # a re-run's log opens with what changed since the last run

    [stats]
    rerun_window = 5              # a re-run: the same command again within this many calls
    retrieval_share = 0.3         # retrieved more often than this: stats suggests a budget

    [context]                     # a hook's budget follows the agent's context (context.py)
    follow = true                 # false: the budget ignores how full the context is
    curve = [[0.5, 1.0], [0.95, 0.25]]   # (fill, share of the budget), linear between
    window = 0                    # tokens; 0: as the agent says or its model implies

    [tools.Bash]                  # per-tool overrides (names or aliases)
    budget = 6000
    head_share = 0.6              # of the budget, for the head/tail clip
    tail_share = 0.3

    [commands.pytest]             # per-command-family budgets (`headroom stats` names them)
    budget = 8000

Precedence: flags > HEADROOM_* environment variables > this file > built-in defaults.
Reading the file is I/O, so the caller passes its text in; this module only parses and checks.
"""

from __future__ import annotations

import re

from .defaults import (DEFAULTS, ENCODINGS, ENV, FORMATS,  # noqa: F401 - read from here too
                       parse_days, parse_size)

_CHOICES = {"encoding": ENCODINGS, "format": FORMATS}
_TOOL_KEYS = {"budget": int, "head_share": float, "tail_share": float}


class ConfigError(Exception):
    """A broken config file: the message names the file and the line."""


class Config:
    """What the file sets (nothing, for a missing file)."""

    def __init__(self, path: str | None = None, values: dict | None = None,
                 tools: dict | None = None, lines: dict | None = None,
                 commands: dict | None = None) -> None:
        self.path = path
        self.values = values or {}  # dotted key -> value, only what the file sets
        self.tools = tools or {}  # canonical tool name -> {budget, head_share, tail_share}
        self.lines = lines or {}  # dotted key -> line number in the file
        self.commands = commands or {}  # command family -> budget

    def where(self, key: str) -> str:
        return f"{self.path}:{self.lines[key]}" if key in self.lines else str(self.path)


def parse(text: str, path: str) -> Config:
    import tomllib

    from .tools import lookup

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise ConfigError(f"{path}: {err}") from None
    values, tools, lines = {}, {}, {}
    commands = _commands(data.pop("commands", {}), text, path)
    for key, value in _flatten(data):
        line = _line_of(text, key)
        if key.startswith("tools."):
            _, name, field = (key.split(".", 2) + [""])[:3]
            tool = lookup(name).name
            if field not in _TOOL_KEYS or tool == "generic":
                raise ConfigError(f"{path}:{line}: unknown setting {key!r} (tools: "
                                  f"Bash, Read, Grep, Glob, WebFetch; keys: {', '.join(_TOOL_KEYS)})")
            tools.setdefault(tool, {})[field] = _check(key, value, _TOOL_KEYS[field], path, line)
            lines[f"tools.{tool}.{field}"] = line
            continue
        if key not in DEFAULTS:
            raise ConfigError(f"{path}:{line}: unknown setting {key!r}; known: "
                              f"{', '.join(DEFAULTS)}, tools.NAME.{{budget,head_share,tail_share}}"
                              ", commands.FAMILY.budget")
        values[key] = _check_value(key, value, path, line)
        lines[key] = line
    for family, (budget, line) in commands.items():
        lines[f"commands.{family}.budget"] = line
    return Config(path, values, tools, lines, {family: budget for family, (budget, _)
                                               in commands.items()})


def _commands(table, text: str, path: str) -> dict[str, tuple[int, int]]:
    """[commands.FAMILY] budget = N: family -> (budget, line). A family may hold dots and
    spaces (`[commands."git diff"]`), so the table is read as it is, not flattened."""
    from .family import toml_key

    line = _line_of(text, "commands")
    if not isinstance(table, dict):
        raise ConfigError(f"{path}:{line}: commands must be a table of command families")
    found = {}
    for family, settings in table.items():
        header = re.search(r"^[ \t]*\[\s*commands\s*\.\s*" + re.escape(toml_key(family))
                           + r"\s*\]", text, re.M)
        line = text.count("\n", 0, header.start()) + 1 if header else line
        if not isinstance(settings, dict) or set(settings) - {"budget"} or \
                "budget" not in settings:
            raise ConfigError(f"{path}:{line}: [commands.{toml_key(family)}] takes one key, "
                              "budget (a family as `headroom stats` names it)")
        found[family] = (_check(f"commands.{family}.budget", settings["budget"], int, path,
                                line), line)
    return found


def _flatten(data: dict, prefix: str = ""):
    for key, value in data.items():
        dotted = f"{prefix}{key}"
        if isinstance(value, dict):
            yield from _flatten(value, dotted + ".")
        else:
            yield dotted, value


def _line_of(text: str, dotted: str) -> int:
    """The line that sets a dotted key (its last part, after its table's header)."""
    *tables, leaf = dotted.split(".")
    start = 0
    if tables:
        header = re.search(r"^[ \t]*\[\s*" + r"\s*\.\s*".join(re.escape(t) for t in tables)
                           + r"\s*\]", text, re.M)
        start = header.end() if header else 0
    found = re.compile(r"^[ \t]*" + re.escape(leaf) + r"[ \t]*=", re.M).search(text, start)
    return text.count("\n", 0, found.start() if found else start) + 1


def _check_value(key: str, value, path: str, line: int):
    if key == "hooks.mcp_skip":
        if not (isinstance(value, list) and all(isinstance(item, str) for item in value)):
            raise ConfigError(f"{path}:{line}: {key} must be a list of MCP server names")
        return tuple(value)
    if key in ("budget", "hooks.read_over", "session.dedup_over", "stats.rerun_window",
               "context.window"):
        return _check(key, value, int, path, line)
    if key == "context.curve":
        return _check_curve(key, value, path, line)
    if key in ("ledger", "session.dedup", "session.since", "context.follow"):
        return _check(key, value, bool, path, line)
    if key == "stats.retrieval_share":
        return _check(key, value, float, path, line)
    if key in _CHOICES:
        if value not in _CHOICES[key]:
            raise ConfigError(f"{path}:{line}: {key} must be one of {', '.join(_CHOICES[key])}")
        return value
    if key in ("store.max_age_days", "digest_timeout"):
        return _check(key, value, float, path, line)
    if key == "store.max_bytes":
        try:
            if isinstance(value, bool):
                raise ValueError(value)
            return parse_size(str(value))
        except ValueError:
            raise ConfigError(f"{path}:{line}: {key} must be a size: bytes, or with K, M, G "
                              "(\"500M\")") from None
    if not isinstance(value, (str, int)) or isinstance(value, bool):
        raise ConfigError(f"{path}:{line}: {key} must be a string")
    return str(value)


def _check(key: str, value, kind: type, path: str, line: int):
    ok = isinstance(value, kind) and not (kind is not bool and isinstance(value, bool))
    if kind is float and isinstance(value, int) and not isinstance(value, bool):
        value, ok = float(value), True
    if not ok or (kind in (int, float) and value < 0):
        noun = {int: "a whole number ≥ 0", float: "a number ≥ 0", bool: "true or false"}[kind]
        raise ConfigError(f"{path}:{line}: {key} must be {noun}")
    if key.endswith("_share") and value > 1:
        raise ConfigError(f"{path}:{line}: {key} must be between 0 and 1")
    return value


def _check_curve(key: str, value, path: str, line: int) -> tuple[tuple[float, float], ...]:
    """[[fill, share], …]: at least one point, fills rising within 0–1, shares within 0–1
    (above 0: a budget never shrinks to nothing)."""
    def number(item) -> bool:
        return isinstance(item, (int, float)) and not isinstance(item, bool)

    points = value if isinstance(value, list) else []
    if not points or not all(isinstance(point, list) and len(point) == 2
                             and all(number(item) for item in point) for point in points):
        raise ConfigError(f"{path}:{line}: {key} must be a list of [fill, share] pairs, "
                          "e.g. [[0.5, 1.0], [0.95, 0.25]]")
    curve = tuple((float(fill), float(share)) for fill, share in points)
    fills = [fill for fill, _ in curve]
    if not all(0 <= fill <= 1 for fill in fills) or fills != sorted(set(fills)) or \
            not all(0 < share <= 1 for _, share in curve):
        raise ConfigError(f"{path}:{line}: {key}: each fill between 0 and 1, rising; each share "
                          "above 0 and at most 1")
    return curve


def resolve(key: str, config: Config, environ) -> tuple[object, str]:
    """A setting's value and where it came from (no flags: the caller knows those)."""
    env = ENV.get(key)
    if env and environ.get(env, "").strip():
        return environ[env], f"env {env}"
    if key in config.values:
        return config.values[key], config.where(key)
    return DEFAULTS[key], "default"


