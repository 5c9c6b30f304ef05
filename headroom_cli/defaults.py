"""Built-in defaults, choices and the environment variables that set them, defined once.

Imports nothing but os: the pass-through (cli/__init__.py) decides from these whether output
fits its budget before anything heavier is imported, so every other module imports them from
here (config.py reads the file against them, settings.py resolves a run's Settings).
"""

from __future__ import annotations

import os

ENCODINGS = ("cl100k_base", "o200k_base", "estimate")
DEFAULT_ENCODING = "cl100k_base"
FORMATS = ("text", "markdown", "json")
# The shapes `--kind` takes besides auto: each is a planner (sniff.py says which module).
KINDS = ("search", "diff", "json", "code", "log", "listing", "markdown", "html", "yaml", "toml",
         "tree", "commits", "other")
# Agent hooks clip to this many tokens unless told otherwise (`--budget`). Claude Code hands
# the model only a 2 KB preview of a successful output over 30,000 bytes, and cuts a failing
# one to its first and last 5,000 characters; 6,000 cl100k tokens of ordinary output is about
# 24,000 bytes, and a hook's byte cap guarantees the limit even for unusual text.
DEFAULT_HOOK_BUDGET = 6000

DEFAULTS = {
    "budget": 4000,
    "encoding": DEFAULT_ENCODING,
    "format": FORMATS[0],
    "ledger": True,
    "store.path": None,  # None: $XDG_STATE_HOME/headroom/store
    "store.max_bytes": "1G",
    "store.max_age_days": 14,
    "digest_command": None,  # None: no digest (unless digest_url is set)
    "digest_url": None,
    "digest_model": None,
    "digest_timeout": 10.0,
    "hooks.mcp_skip": (),  # MCP server names (a list in the file; commas in the variable)
    "hooks.read_over": 0,
    # Sessions (session.py): an output identical to one already delivered in the session, of
    # at least `dedup_over` tokens, becomes one line; a re-run's log opens with what changed.
    "session.dedup": True,
    "session.dedup_over": 500,
    "session.since": True,
    # `headroom stats`: a re-run is the same command again within this many calls; a family
    # whose clips are retrieved more often than this share gets a suggestion to raise its budget.
    "stats.rerun_window": 5,
    "stats.retrieval_share": 0.3,
    # A budget that follows the context (context.py): where an agent says how full its context
    # is (Claude Code's transcript, pi's extension context), a hook's default budget is scaled
    # by this curve: (fill, share of the budget) points, linear between them, flat outside.
    # The whole budget up to half full, down to a quarter at 95 % full and beyond.
    "context.follow": True,
    "context.curve": ((0.5, 1.0), (0.95, 0.25)),
    # The context window in tokens, over what the agent says (pi) or its model implies (Claude
    # Code); 0: as they say (an unknown model: the fill is unknown, the budget unchanged).
    "context.window": 0,
}
# Names the session of a run when no flag (`--session`) or agent hook does.
SESSION_VAR = "HEADROOM_SESSION"
ENV = {
    "budget": "HEADROOM_BUDGET",
    "encoding": "HEADROOM_ENCODING",
    "format": "HEADROOM_FORMAT",
    "ledger": "HEADROOM_LEDGER",
    "store.path": "HEADROOM_STORE",
    "store.max_bytes": "HEADROOM_STORE_MAX_BYTES",
    "store.max_age_days": "HEADROOM_STORE_MAX_AGE_DAYS",
    "digest_command": "HEADROOM_DIGEST_COMMAND",
    "digest_url": "HEADROOM_DIGEST_URL",
    "digest_model": "HEADROOM_DIGEST_MODEL",
    "digest_timeout": "HEADROOM_DIGEST_TIMEOUT",
    "hooks.mcp_skip": "HEADROOM_MCP_SKIP",
    "hooks.read_over": "HEADROOM_READ_OVER",
}


def xdg_dir(environ, name: str, default: str) -> str:
    """$NAME when it is absolute (the XDG spec ignores a relative one), else ~/DEFAULT."""
    base = environ.get(name, "")
    if not os.path.isabs(base):
        base = os.path.join(os.path.expanduser("~"), default)
    return base


def config_path(environ) -> str:
    """$HEADROOM_CONFIG, else $XDG_CONFIG_HOME/headroom/config.toml."""
    if environ.get("HEADROOM_CONFIG"):
        return os.path.expanduser(environ["HEADROOM_CONFIG"])
    return os.path.join(xdg_dir(environ, "XDG_CONFIG_HOME", ".config"), "headroom", "config.toml")


# How sizes and days are written, in the file, the environment and the defaults above.
SIZE_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def parse_size(text: str) -> int:
    """Bytes, with an optional binary unit: 1000000, 500M, 1G, 2GiB; ValueError otherwise."""
    value = text.strip().upper().removesuffix("B").removesuffix("I")
    unit = value[-1:] if value[-1:] in SIZE_UNITS else ""
    number = float(value[:len(value) - len(unit)])
    if not 0 <= number < float("inf"):  # also rejects nan
        raise ValueError(text)
    return int(number * SIZE_UNITS[unit])


def parse_days(text: str) -> float:
    """A number of days ≥ 0 (fractions allowed); ValueError otherwise."""
    days = float(text)
    if not days >= 0:
        raise ValueError(text)
    return days
