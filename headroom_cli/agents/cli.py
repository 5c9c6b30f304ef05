"""The bodies of `headroom init AGENT` and `headroom hook AGENT` (registered in cli/commands.py).

`headroom hook filter` is the step wrapped commands end with: raw output on stdin, the clipped
output on stdout (`--exit-status` puts the command's status in the marker). Like every hook it
exits 0 and, on any internal error, prints its input unchanged.
"""

from __future__ import annotations

import os
import sys

from . import AGENTS, HookOptions, canonical, load, run_hook
from ..defaults import DEFAULT_HOOK_BUDGET
from ..sink import write
from .clip import clip, headroom_argv, note

FILTER = "filter"
MCP = "mcp"  # `init mcp`: an MCP client's servers (mcp_clients.py), not an agent's hook
STALE_SECONDS = 24 * 3600  # output files of wrapped commands that never ran (declined)


# `init AGENT --history`: the opt-in integration that ages the agent's history.
HISTORY = {"pi": "pi-history", "opencode": "opencode-history"}


def init_command(agent: str, uninstall: bool, dry_run: bool, config_path: str | None,
                 history: bool = False, servers: tuple[str, ...] = ()) -> int:
    if agent.strip().lower() == MCP:
        return _init_mcp(uninstall, dry_run, config_path, servers)
    if servers:
        note("--server: only `headroom init mcp` takes it")
        return 2
    name = canonical(agent)
    if name is None:
        note(f"unknown agent {agent!r}: use one of {', '.join(AGENTS)}")
        return 2
    if history and name not in HISTORY.values():
        if name not in HISTORY:
            note(f"--history: {AGENTS[name]} has no hook on the history it sends (only pi and "
                 "opencode have one); `headroom init " + name + "` clips each output instead")
            return 2
        name = HISTORY[name]
    from pathlib import Path

    module = load(name)
    path = Path(os.path.expanduser(config_path)) if config_path else module.default_path()
    # The agent's own files: folders an uninstall leaves empty go too, up to the home.
    prune_below = None if config_path else Path(os.path.expanduser("~"))
    status = _install(lambda: module.install(path, headroom_argv(), uninstall=uninstall), path,
                      AGENTS[name], module.NOTES, uninstall, dry_run, prune_below)
    if status == 0 and not (uninstall or dry_run):
        _doctor(name, path)
    return status


def _doctor(name: str, path) -> None:
    """init ends with the agent's part of `headroom doctor`: the hook just written, and
    whether `headroom` on the agent's PATH is this one (for a person following a marker's
    `headroom show` by hand: the hook and its markers name this headroom by absolute path)."""
    from ..doctor import agent_checks, render

    checks = agent_checks(name, os.environ, headroom_argv(), path)
    if checks:
        print(render(checks), end="")


def _init_mcp(uninstall: bool, dry_run: bool, config_path: str | None,
              servers: tuple[str, ...]) -> int:
    from pathlib import Path

    from . import mcp_clients

    if not config_path:
        note("init mcp: --config FILE is required: the MCP client's configuration (e.g. "
             ".mcp.json, ~/.cursor/mcp.json, Claude Desktop's claude_desktop_config.json)")
        return 2
    path = Path(os.path.expanduser(config_path))
    return _install(lambda: mcp_clients.install(path, headroom_argv(), uninstall, servers),
                    path, f"the MCP servers of {path}", mcp_clients.NOTES, uninstall, dry_run)


def _install(changes_of, path, what: str, notes: str, uninstall: bool, dry_run: bool,
             prune_below=None) -> int:
    """Make and apply an installer's changes (`changes_of()`), and say what happened
    (`prune_below`: see config.apply)."""
    from . import config  # only init edits files: the hooks, run before every command, do not

    try:
        changes = changes_of()
        config.apply(changes, dry_run=dry_run, prune_below=prune_below)
    except config.ConfigError as err:
        note(str(err))
        return 1
    except OSError as err:
        note(f"cannot write {getattr(err, 'filename', '') or path}: {err.strerror or err}")
        return 1
    if dry_run:
        print("(dry run: nothing was written)")
    elif uninstall:
        print(f"headroom is no longer hooked into {what}.")
    elif any(change.changed for change in changes):
        print(notes)
    else:
        print(f"headroom is already hooked into {what}.")
    return 0


def hook_command(agent: str, budget: int | None, exit_status: int | None,
                 max_bytes: int | None, tool: str | None, no_store: bool,
                 max_failure_bytes: int | None = None, input_file: str | None = None,
                 status_line: str | None = None, session: str | None = None,
                 command: str | None = None, cwd: str | None = None,
                 context_tokens: int | None = None, context_window: int | None = None) -> int:
    """`budget` None: the hook's default (DEFAULT_HOOK_BUDGET), which follows the agent's
    context where the agent says how full it is (the filter: when given `--context-tokens`,
    its `--budget` is that default)."""
    budget_given = budget is not None
    budget = DEFAULT_HOOK_BUDGET if budget is None else budget
    name = FILTER if agent.strip().lower() == FILTER else canonical(agent)
    if name is None:
        note(f"unknown agent {agent!r}: use one of {', '.join(AGENTS)} (or {FILTER})")
        return 2
    status = 0
    if status_line:  # a piped wrapper (agents/piped.py): the status follows the output
        data, piped_status = _read_piped(status_line)
        if piped_status is not None:
            exit_status = status = piped_status
    else:
        data = _read_input(input_file) if input_file else _read_stdin()
    try:
        if name == FILTER:
            if exit_status and max_failure_bytes:
                max_bytes = min(max_bytes or max_failure_bytes, max_failure_bytes)
            # The decision that wrapped the command passes --budget always, and the context
            # only when that budget is the default (agents/claude.py, context_argv).
            context = None if context_tokens is None else (context_tokens, context_window)
            reply = clip(data, tool=tool or "Bash", budget=budget, exit_status=exit_status,
                         max_bytes=max_bytes, store=not no_store, session=session,
                         command=command, cwd=cwd, context=context)
        else:
            reply = run_hook(name, data, HookOptions(budget=budget,
                                                     headroom=headroom_argv(),
                                                     store=not no_store,
                                                     budget_given=budget_given))
    except Exception as err:  # noqa: BLE001 - a hook fails open, whatever went wrong
        # clip() and run_hook() fail open themselves; this is the net under both.
        note(f"hook {name}: {type(err).__name__}: {err}; left unchanged")
        reply = data if name == FILTER else b""
    write(reply, hook=True)
    return status


def _read_input(path: str) -> bytes:
    """All of FILE, which is removed: the output of a wrapped command, read once."""
    try:
        with open(path, "rb") as stream:
            data = stream.read()
    except OSError as err:
        note(f"cannot read {path}: {err.strerror or err}")
        return b""
    try:
        os.unlink(path)
    except OSError:
        pass
    _remove_stale_outputs(os.path.dirname(path) or ".")
    return data


def _remove_stale_outputs(directory: str) -> None:
    """Output files of wrapped commands that never ran (the user declined) are removed a day
    later; only this user's, only empty ones (a running command's file is fresh anyway)."""
    import time

    from .shell import OUTPUT_PREFIX, OUTPUT_SUFFIX

    cutoff = time.time() - STALE_SECONDS
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return
    for entry in entries:
        if not (entry.name.startswith(OUTPUT_PREFIX) and entry.name.endswith(OUTPUT_SUFFIX)):
            continue
        try:
            info = entry.stat(follow_symlinks=False)
            if info.st_uid == os.getuid() and info.st_mtime < cutoff and info.st_size == 0 \
                    and entry.is_file(
                    follow_symlinks=False):
                os.unlink(entry.path)
        except OSError:
            continue


def _read_piped(token: str) -> tuple[bytes, int | None]:
    from .piped import read_until_status

    if sys.stdin is None:
        return b"", None
    try:
        return read_until_status(lambda size: os.read(sys.stdin.fileno(), size), token)
    except (OSError, ValueError):
        return b"", None


def _read_stdin() -> bytes:
    # All of it, always: a writer that is cut off early would die of SIGPIPE.
    if sys.stdin is None:
        return b""
    try:
        return sys.stdin.buffer.read()
    except (OSError, ValueError):
        return b""
