"""`headroom doctor`, each agent's part: is its hook installed and pointing at this headroom, is
headroom on the PATH it gives its shell, and the last clip the ledger recorded from it.

One line per agent in AGENTS. A check never edits anything: the hook is checked by asking the
agent's own installer (its module's `install`) what it would change — nothing means the hook
is there and runs this headroom; an uninstall that would change something means a hook of an
earlier `init` is there, running another headroom.
"""

from __future__ import annotations

import os
import shlex
import shutil
from collections.abc import Callable, Mapping
from pathlib import Path

from . import AGENTS as NAMES
from . import load
from ..values import value


@value
class Check:
    """One line of the doctor's report."""

    subject: str  # what is checked: an agent's key, "store", "ledger", …
    what: str
    ok: bool | None  # None: information, neither right nor wrong
    detail: str
    fix: str = ""


def inherited_path(config: Path, environ: Mapping[str, str]) -> str:
    """The PATH of an agent that gives its shell the PATH it was started with."""
    return environ.get("PATH", os.defpath)


@value
class Agent:
    program: str  # the command that starts it: on PATH, the agent is on this machine
    home_levels: int = 1  # its home (set up, so on this machine) is that many folders above
    #                       the file `headroom init` edits
    shell_path: Callable[[Path, Mapping[str, str]], str] = inherited_path


def _claude_shell_path(config: Path, environ: Mapping[str, str]) -> str:
    from .claude import shell_path

    return shell_path(config, environ)


# One line per agent: what `headroom doctor` checks for it.
AGENTS = {
    "claude": Agent("claude", 1, _claude_shell_path),
    "codex": Agent("codex"),
    "gemini": Agent("gemini"),
    "opencode": Agent("opencode", 2),
    "pi": Agent("pi", 2),
    "copilot": Agent("copilot", 2),  # ~/.copilot/hooks/headroom.json
    "droid": Agent("droid"),  # ~/.factory/settings.json
    "crush": Agent("crush"),  # ~/.config/crush/crush.json
    "kilo": Agent("kilo", 2),  # ~/.config/kilo/plugins/headroom.js
    "cursor": Agent("cursor-agent"),  # ~/.cursor/hooks.json
    "hermes": Agent("hermes", 3),  # ~/.hermes/plugins/headroom/__init__.py
    "qwen": Agent("qwen"),  # ~/.qwen/settings.json (and the script beside it)
}


def found(name: str, environ: Mapping[str, str]) -> bool:
    """Is the agent on this machine: its program on PATH, or its home set up?"""
    agent = AGENTS[name]
    home = load(name).default_path()
    for _ in range(agent.home_levels):
        home = home.parent
    return bool(shutil.which(agent.program, path=environ.get("PATH", os.defpath))) \
        or home.is_dir()


def check(name: str, environ: Mapping[str, str], headroom: list[str],
          sessions: Callable[[str], set[str]] | None = None,
          last_clip: Callable[[set[str]], str | None] | None = None,
          config: Path | None = None) -> list[Check]:
    """The agent's checks. `sessions(agent)`: its session keys (from its transcripts);
    `last_clip(keys)`: the ledger's last clip in one of them, described (None: none);
    `config`: the file its hook is in (None: where `headroom init` puts it)."""
    label = NAMES[name]
    config = config or load(name).default_path()
    checks = [hook_check(name, label, config, headroom),
              path_check(name, f"the PATH {label} gives its shell",
                         AGENTS[name].shell_path(config, environ), headroom)]
    if sessions is not None and last_clip is not None:
        keys = sessions(name)
        described = last_clip(keys) if keys else None
        checks.append(Check(name, "last clip", None, described or
                            "none recorded in the ledger from its sessions"))
    return checks


def hook_check(name: str, label: str, config: Path, headroom: list[str]) -> Check:
    from .config import ConfigError

    module = load(name)
    init = f"{shlex.join(headroom)} init {name}"
    try:
        if not any(change.changed for change in module.install(config, headroom)):
            return Check(name, "hook", True, f"installed in {config}, runs {shlex.join(headroom)}")
        ours = any(change.changed for change in module.install(config, headroom, uninstall=True))
    except ConfigError as err:
        return Check(name, "hook", False, str(err), f"fix {config}, then run `{init}`")
    except OSError as err:
        return Check(name, "hook", False, f"cannot read {config}: {err.strerror or err}",
                     f"make {config} readable")
    if ours:
        return Check(name, "hook", False,
                     f"the hook in {config} runs another headroom (or an older set-up), not "
                     f"{shlex.join(headroom)}", f"run `{init}`")
    return Check(name, "hook", False, f"no headroom hook in {config}: {label} runs its "
                 "commands unclipped", f"run `{init}`")


def path_check(subject: str, where: str, search_path: str, headroom: list[str]) -> Check:
    """Is `headroom`, looked up on `search_path`, this headroom? Another program of that name
    first on PATH (PyPI's headroom-ai installs one) would answer every `headroom show`."""
    found_at = shutil.which("headroom", path=search_path)
    folder = os.path.dirname(headroom[0]) if len(headroom) == 1 else None
    add = f"add {folder} to that PATH" if folder else "install headroom where PATH finds it"
    if found_at is None:
        return Check(subject, "PATH", False, f"`headroom` is not on {where}", add)
    if is_this_headroom(found_at, headroom):
        return Check(subject, "PATH", True, f"`headroom` on {where} is {found_at}")
    kind = "another install of headroom" if _is_headroom_cli(found_at) else \
        "another program named headroom (PyPI's headroom-ai installs one)"
    fix = f"put {folder} first on PATH" if folder else "put this headroom first on PATH"
    return Check(subject, "PATH", False, f"`headroom` on {where} is {found_at}: {kind}",
                 f"{fix}, or remove the other one")


def is_this_headroom(path: str, headroom: list[str]) -> bool:
    if len(headroom) == 1:
        return os.path.realpath(path) == os.path.realpath(headroom[0])
    return _is_headroom_cli(path)  # this headroom runs as `python -m headroom_cli`


def _is_headroom_cli(path: str) -> bool:
    """Is this script a headroom_cli entry point (ours, possibly another install of it)?"""
    try:
        with open(path, "rb") as script:
            return b"headroom_cli" in script.read(4096)
    except OSError:
        return False
