"""Agent integrations: `headroom init AGENT` edits the agent's configuration, and the agent then
runs `headroom hook AGENT`, which reads the agent's JSON on stdin and writes its JSON reply.

One module per agent, each with the same small surface:

    default_path() -> Path                    the file `init` edits
    install(path, headroom, uninstall) -> [config.Change]
    handle(payload: bytes, options: HookOptions) -> bytes    the hook's reply ("" = no change)
    NOTES: str                                printed after a successful install

A hook fails open: on any internal error the reply leaves the tool call or its output exactly
as the agent had it, and the hook exits 0 (see run_hook).
"""

from __future__ import annotations

import importlib

from ..defaults import DEFAULT_HOOK_BUDGET
from ..sink import warn

AGENTS = {
    "claude": "Claude Code",
    "codex": "Codex CLI",
    "gemini": "Gemini CLI",
    "opencode": "opencode",
    "opencode-history": "opencode (age-aware history)",
    "pi": "pi",
    "pi-history": "pi (age-aware history)",
    "copilot": "GitHub Copilot CLI",
    "droid": "Factory Droid",
    "crush": "Crush",
    "kilo": "Kilo CLI",
    "cursor": "Cursor",
    "hermes": "hermes-agent",
    "qwen": "Qwen Code",
}
ALIASES = {"claude-code": "claude", "claudecode": "claude", "gemini-cli": "gemini",
           "codex-cli": "codex", "pi-coding-agent": "pi",
           "kilocode": "kilo", "kilo-cli": "kilo", "cursor-agent": "cursor",
           "hermes-agent": "hermes"}
ALIASES.update({"github-copilot": "copilot", "copilot-cli": "copilot", "gh-copilot": "copilot"})
ALIASES.update({"factory": "droid", "factory-droid": "droid"})
ALIASES.update({"qwen-code": "qwen", "qwen-coder": "qwen"})
# The second name `init --help` shows for an agent people call by two (its package's or its
# vendor's); the other aliases are accepted without being listed.
HELP_ALIASES = {"claude": "claude-code", "gemini": "gemini-cli", "copilot": "github-copilot",
                "droid": "factory", "kilo": "kilocode", "cursor": "cursor-agent",
                "hermes": "hermes-agent", "qwen": "qwen-code"}


class HookOptions:
    """A hook's options. A plain class, not a dataclass: importing dataclasses costs ~8 ms, and
    Claude Code waits on the hook before every Bash command."""
    __slots__ = ("budget", "headroom", "store", "budget_given")

    def __init__(self, budget: int = DEFAULT_HOOK_BUDGET, headroom: list[str] | None = None,
                 store: bool = True, budget_given: bool = False) -> None:
        self.budget = budget
        self.headroom = list(headroom or ())  # how to run headroom: for wrappers
        self.store = store
        # `--budget N` was given (the hook's command in the agent's settings): the budget is
        # then N whatever the context; the default one follows the context (context.py).
        self.budget_given = budget_given

    def __repr__(self) -> str:
        return (f"HookOptions(budget={self.budget}, headroom={self.headroom}, "
                f"store={self.store}, budget_given={self.budget_given})")


def canonical(name: str) -> str | None:
    key = name.strip().lower()
    key = ALIASES.get(key, key)
    return key if key in AGENTS else None


def load(name: str):
    return importlib.import_module(f"{__name__}.{name.replace('-', '_')}")


def run_hook(name: str, payload: bytes, options: HookOptions) -> bytes:
    """The agent module's reply to `payload`; b"" (change nothing) on any internal error."""
    try:
        return load(name).handle(payload, options)
    except Exception as err:  # noqa: BLE001 - a hook must never break the agent's tool call
        warn(f"hook {name}: {type(err).__name__}: {err}; left the tool call unchanged")
        return b""
