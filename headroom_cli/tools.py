"""The one table of agent tools: names and aliases, trust in log shape, head/tail split, and how
an agent gets back what a cut dropped."""

from __future__ import annotations

from .values import value



@value
class Tool:
    name: str
    # Log shape is trusted from an error signal alone only for shell tools; elsewhere (a Read of
    # a log file) most lines must be log records.
    trusts_log_signal: bool
    head_share: float  # of the budget, for the plain head/tail clip
    tail_share: float
    hint: str  # which retrieval advice the marker gives: "shell", "read", "search", "fetch", "generic"


TOOLS = {
    "Bash": Tool("Bash", True, 0.625, 0.25, "shell"),
    "Read": Tool("Read", False, 0.75, 0.125, "read"),
    "Grep": Tool("Grep", False, 0.75, 0.125, "search"),
    "Glob": Tool("Glob", False, 0.75, 0.125, "search"),
    "WebFetch": Tool("WebFetch", False, 0.75, 0.125, "fetch"),
}
GENERIC = Tool("generic", False, 0.75, 0.125, "generic")

ALIASES = {
    "bash": "Bash", "shell": "Bash", "terminal": "Bash", "exec_command": "Bash", "sh": "Bash",
    "run_shell_command": "Bash", "exec": "Bash", "command": "Bash",
    "read": "Read", "read_file": "Read", "view": "Read", "cat": "Read",
    "grep": "Grep", "search_files": "Grep", "search": "Grep", "rg": "Grep", "ripgrep": "Grep",
    "glob": "Glob", "find_files": "Glob", "list_files": "Glob",
    "webfetch": "WebFetch", "web_fetch": "WebFetch", "web_extract": "WebFetch", "fetch": "WebFetch",
}


def lookup(name: str | None) -> Tool:
    """The tool for a name or alias (case-insensitive); unknown names are generic."""
    if not name:
        return GENERIC
    canonical = name if name in TOOLS else ALIASES.get(name.lower())
    if canonical is None:
        canonical = next((key for key in TOOLS if key.lower() == name.lower()), None)
    return TOOLS[canonical] if canonical else GENERIC


def known_names() -> list[str]:
    return sorted(set(TOOLS) | set(ALIASES))
