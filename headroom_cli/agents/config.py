"""Editing an agent's configuration: idempotent, atomic, with a backup, never interactive.

An installer computes Changes (a file's bytes before and after) without touching anything;
apply() writes them — or, for --dry-run, only describes them. Running an installer twice gives
one headroom entry, because every edit first removes whatever headroom entries are there (an
entry is ours when its command runs `headroom hook AGENT`) and then adds one. Before a file
that exists is changed, its previous bytes are copied to FILE.headroom-backup.
"""

from __future__ import annotations

import difflib
import json
import os
import shlex
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, TextIO

BACKUP_SUFFIX = ".headroom-backup"


class ConfigError(Exception):
    """A configuration file that cannot be read or understood: left untouched."""


@dataclass(frozen=True)
class Change:
    path: Path
    before: bytes | None  # None: the file does not exist
    after: bytes | None  # None: the file is to be removed
    mode: int = 0o644

    @property
    def changed(self) -> bool:
        return self.before != self.after


# --- reading and writing -------------------------------------------------------------------

def read_bytes(path: Path) -> bytes | None:
    try:
        return path.read_bytes()
    except FileNotFoundError:
        return None
    except OSError as err:
        raise ConfigError(f"cannot read {path}: {err.strerror or err}") from err


def load_json(path: Path, data: bytes | None, *, comments: bool = False) -> dict:
    """The JSON object in `data` ({} when the file is missing or empty)."""
    if data is None or not data.strip():
        return {}
    try:
        text = data.decode("utf-8-sig")
        value = json.loads(_strip_comments(text) if comments else text)
    except (UnicodeDecodeError, ValueError) as err:
        raise ConfigError(f"{path} is not valid JSON ({err}); fix it or move it away, "
                          "then run this again") from err
    if not isinstance(value, dict):
        raise ConfigError(f"{path} does not hold a JSON object; left untouched")
    return value


def dump_json(value: dict) -> bytes:
    return (json.dumps(value, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def apply(changes: list[Change], *, dry_run: bool, out: TextIO | None = None) -> None:
    out = out or sys.stdout
    for change in changes:
        if not change.changed:
            print(f"unchanged: {change.path}", file=out)
            continue
        if dry_run:
            verb = ("would create" if change.before is None else
                    "would remove" if change.after is None else "would change")
            print(f"{verb}: {change.path}", file=out)
            out.write(diff(change))
            continue
        _write(change)
        verb = ("created" if change.before is None else
                "removed" if change.after is None else "changed")
        backup = f" (previous version: {_backup_path(change.path)})" if change.before else ""
        print(f"{verb}: {change.path}{backup}", file=out)


def diff(change: Change) -> str:
    def lines(data: bytes | None) -> list[str]:
        return [] if data is None else data.decode("utf-8", "replace").splitlines(keepends=True)

    text = "".join(difflib.unified_diff(lines(change.before), lines(change.after),
                                        str(change.path), str(change.path)))
    return text if text.endswith("\n") or not text else text + "\n"


def _backup_path(path: Path) -> Path:
    return path.with_name(path.name + BACKUP_SUFFIX)


def _write(change: Change) -> None:
    path = change.path
    if change.before is not None:
        _atomic_write(_backup_path(path), change.before, 0o600)
    if change.after is None:
        try:
            path.unlink()
        except FileNotFoundError:
            pass
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = change.mode
    if change.before is not None:
        try:
            mode = path.stat().st_mode & 0o7777
        except OSError:
            pass
    _atomic_write(path, change.after, mode)


def _atomic_write(path: Path, data: bytes, mode: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    # Through a symlink (dotfile managers), the link's target is what gets replaced.
    target = Path(os.path.realpath(path))
    handle, temp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temp, mode)
        os.replace(temp, target)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise


def _strip_comments(text: str) -> str:
    """JSON with // and /* */ comments (Gemini CLI's settings allow them) as plain JSON."""
    out = []
    index, quote = 0, False
    while index < len(text):
        char = text[index]
        if quote:
            out.append(char)
            if char == "\\":
                out.append(text[index + 1:index + 2])
                index += 1
            elif char == '"':
                quote = False
        elif char == '"':
            quote = True
            out.append(char)
        elif text.startswith("//", index):
            end = text.find("\n", index)
            index = len(text) if end < 0 else end
            continue
        elif text.startswith("/*", index):
            end = text.find("*/", index + 2)
            index = len(text) if end < 0 else end + 2
            continue
        else:
            out.append(char)
        index += 1
    return "".join(out)


# --- which headroom to run -----------------------------------------------------------------

def headroom_argv() -> list[str]:
    """How an agent should start this headroom: an absolute path, so a hook finds it even
    with the sanitized PATH some agents give hooks."""
    script = sys.argv[0] if sys.argv else ""
    if script and os.path.basename(script) == "headroom" and os.path.isfile(script):
        return [os.path.abspath(script)]
    import shutil

    found = shutil.which("headroom")
    if found:
        return [os.path.abspath(found)]
    return [os.path.abspath(sys.executable), "-m", "headroom_cli"]


def hook_command(agent: str, headroom: list[str] | None = None) -> str:
    return " ".join(shlex.quote(part) for part in (headroom or headroom_argv())) + \
        f" hook {agent}"


def is_hook_command(command: object, agent: str) -> bool:
    """Is this a command line an earlier `headroom init AGENT` wrote?"""
    if not isinstance(command, str):
        return False
    try:
        words = shlex.split(command)
    except ValueError:
        return False
    for position in range(len(words) - 1):
        if words[position] == "hook" and words[position + 1] == agent and position > 0 \
                and ("headroom" in os.path.basename(words[position - 1])
                     or words[position - 1] == "headroom_cli"):
            return True
    return False


# --- the hooks shape Claude Code, Codex and Gemini CLI share --------------------------------
#
#   {"hooks": {EVENT: [{"matcher": "…", "hooks": [{"type": "command", "command": "…"}]}]}}

def without_hook(settings: dict, event: str, ours: Callable[[dict], bool]) -> dict:
    """A copy of settings with our entries under hooks[event] removed (and emptied lists)."""
    settings = json.loads(json.dumps(settings))
    hooks = settings.get("hooks")
    if not isinstance(hooks, dict) or not isinstance(hooks.get(event), list):
        return settings
    groups = []
    for group in hooks[event]:
        if isinstance(group, dict) and isinstance(group.get("hooks"), list):
            kept = [entry for entry in group["hooks"]
                    if not (isinstance(entry, dict) and ours(entry))]
            if not kept:
                continue  # the group held only ours
            group = dict(group, hooks=kept)
        groups.append(group)
    if groups:
        hooks[event] = groups
    else:
        del hooks[event]
    if not hooks:
        del settings["hooks"]
    return settings


def with_hook(settings: dict, event: str, group: dict, ours: Callable[[dict], bool]) -> dict:
    """settings with exactly one group of ours under hooks[event], after any others."""
    settings = without_hook(settings, event, ours)
    hooks = settings.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise ConfigError('"hooks" is not a JSON object; left untouched')
    hooks.setdefault(event, []).append(group)
    return settings


def install_hook(path: Path, agent: str, event: str, group: dict, uninstall: bool = False,
                 comments: bool = False) -> list[Change]:
    """Put our one group under hooks[event] (or take it out); a file that would not change is
    kept byte for byte."""
    def ours(entry: dict) -> bool:
        return is_hook_command(entry.get("command"), agent)

    before = read_bytes(path)
    settings = load_json(path, before, comments=comments)
    settings = (without_hook(settings, event, ours) if uninstall
                else with_hook(settings, event, group, ours))
    after = dump_json(settings)
    if before is not None and load_json(path, before, comments=comments) == settings:
        after = before
    return [Change(path, before, after)]
