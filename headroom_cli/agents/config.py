"""Editing an agent's configuration: idempotent, lossless, atomic, never interactive.

An installer computes Changes (a file's bytes before and after) without touching anything;
apply() writes them — or, for --dry-run, only describes them. Running an installer twice gives
one headroom entry, because every edit first removes whatever headroom entries are there (an
entry is ours when its command runs `headroom hook AGENT`) and then adds one.

Edits are lossless: the settings file is edited as text (jsonedit), so only headroom's entry
changes and the rest of its bytes — indentation, key order, comments — stay as they were.
Before a file that exists is first changed, its bytes are copied to FILE.headroom-backup, and
a later install never overwrites that copy. `--uninstall` puts the original bytes back when
the file is exactly what the install made of them, and otherwise takes out only headroom's
entries.
"""

from __future__ import annotations

import difflib
import json
import os
import shlex
import sys
import tempfile
from pathlib import Path
from typing import Callable, TextIO

from . import jsonedit
from .clip import headroom_argv
from ..values import value

BACKUP_SUFFIX = ".headroom-backup"


class ConfigError(Exception):
    """A configuration file that cannot be read or understood: left untouched."""


@value
class Change:
    path: Path
    before: bytes | None  # None: the file does not exist
    after: bytes | None  # None: the file is to be removed
    mode: int = 0o644
    # The backup goes after the write: `after` is the backed-up original (it has done its
    # job), or the file is removed and the backup held only headroom's own entries.
    drop_backup: bool = False
    # The file holds nothing but what headroom wrote (a plugin file of ours, a settings file
    # init created): no backup is made of it, since nothing of the user's is in it to keep.
    headroom_only: bool = False

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
        value = json.loads(strip_comments(text) if comments else text)
    except (UnicodeDecodeError, ValueError) as err:
        raise ConfigError(f"{path} is not valid JSON ({err}); fix it or move it away, "
                          "then run this again") from err
    if not isinstance(value, dict):
        raise ConfigError(f"{path} does not hold a JSON object; left untouched")
    return value


def dump_json(value: dict) -> bytes:
    return (json.dumps(value, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def apply(changes: list[Change], *, dry_run: bool, out: TextIO | None = None,
          prune_below: Path | None = None) -> None:
    """Write the changes (or, for a dry run, describe them). `prune_below`: a folder under
    which the folders a removed file leaves empty are removed too, up to it (not it): an
    uninstall then leaves the home as it was before init made them."""
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
        backup = _write(change)
        verb = ("created" if change.before is None else
                "removed" if change.after is None else
                "restored" if change.drop_backup else "changed")
        note = f" (previous version: {backup})" if backup else ""
        print(f"{verb}: {change.path}{note}", file=out)
        if change.after is None and prune_below is not None:
            for folder in _remove_empty_folders(change.path.parent, prune_below):
                print(f"removed: {folder}{os.sep}", file=out)


def _remove_empty_folders(folder: Path, stop: Path) -> list[Path]:
    """Remove `folder` and the folders above it while they are empty, up to `stop` (kept),
    when `folder` is inside `stop`; the folders removed."""
    removed = []
    try:
        folder.relative_to(stop)
    except ValueError:
        return removed
    while folder != stop and stop in folder.parents:
        try:
            folder.rmdir()  # only an empty folder goes
        except OSError:
            break
        removed.append(folder)
        folder = folder.parent
    return removed


def diff(change: Change) -> str:
    def lines(data: bytes | None) -> list[str]:
        return [] if data is None else data.decode("utf-8", "replace").splitlines(keepends=True)

    text = "".join(difflib.unified_diff(lines(change.before), lines(change.after),
                                        str(change.path), str(change.path)))
    return text if text.endswith("\n") or not text else text + "\n"


def _backup_path(path: Path) -> Path:
    return path.with_name(path.name + BACKUP_SUFFIX)


def _write(change: Change) -> Path | None:
    """Write one change; returns the backup it made (None: none, or an older one is kept)."""
    path = change.path
    backup = _backup_path(path)
    made = None
    if change.before is not None and not change.drop_backup and not change.headroom_only \
            and not os.path.lexists(backup):
        _atomic_write(backup, change.before, 0o600)
        made = backup
    if change.after is None:
        try:
            path.unlink()
        except FileNotFoundError:
            pass
    else:
        path.parent.mkdir(parents=True, exist_ok=True)
        mode = change.mode
        if change.before is not None:
            try:
                mode = path.stat().st_mode & 0o7777
            except OSError:
                pass
        _atomic_write(path, change.after, mode)
    if change.drop_backup:
        try:
            backup.unlink()
        except FileNotFoundError:
            pass
    return made


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


def strip_comments(text: str) -> str:
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

def hook_command(agent: str, headroom: list[str] | None = None) -> str:
    return " ".join(shlex.quote(part) for part in (headroom or headroom_argv())) + \
        f" hook {agent}"


def command_hook(agent: str, headroom: list[str] | None = None) -> dict:
    """The `{"type": "command", …}` entry Claude-style hook lists hold (Claude Code, Codex,
    Droid): headroom's hook command with a 30 s timeout."""
    return {"type": "command", "command": hook_command(agent, headroom), "timeout": 30}


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
    """A copy of settings with our entries under hooks[event] removed, and the groups, the
    event's list and `hooks` itself when that removal emptied them."""
    settings = json.loads(json.dumps(settings))
    hooks = settings.get("hooks")
    if not isinstance(hooks, dict) or not isinstance(hooks.get(event), list):
        return settings
    groups, removed = [], False
    for group in hooks[event]:
        if isinstance(group, dict) and isinstance(group.get("hooks"), list):
            kept = [entry for entry in group["hooks"]
                    if not (isinstance(entry, dict) and ours(entry))]
            if len(kept) < len(group["hooks"]):
                removed = True
                if not kept:
                    continue  # the group held only ours
                group = dict(group, hooks=kept)
        groups.append(group)
    if not removed:
        return settings
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
    if not isinstance(hooks.setdefault(event, []), list):
        raise ConfigError(f'"hooks.{event}" is not a JSON array; left untouched')
    hooks[event].append(group)
    return settings


def install_hook(path: Path, agent: str, event: str, group: dict, uninstall: bool = False,
                 comments: bool = False,
                 also: Callable[[bytes | None, bool], bytes | None] | None = None
                 ) -> list[Change]:
    """Put our one group under hooks[event] (or take it out), changing nothing else in the
    file; --uninstall restores the backed-up original when nothing else changed since.
    `also(data, install)` makes the agent's further edits of the same file (Claude Code: a
    second hook, an allow rule), after ours, the same way both ways."""
    def ours(entry: dict) -> bool:
        return is_hook_command(entry.get("command"), agent)

    def edit(data: bytes | None, install: bool) -> bytes | None:
        data = edit_hooks(path, data, event, group if install else None, ours, comments)
        return also(data, install) if also else data

    return install_edit(path, edit, uninstall)


def install_edit(path: Path, edit: Callable[[bytes | None, bool], bytes | None],
                 uninstall: bool = False) -> list[Change]:
    """The change `edit(data, install)` makes to the file at `path`: installing, or taking
    out what an install made — by restoring the backed-up original when the file is exactly
    what the install made of it, else by `edit(data, False)`.

    A file that holds nothing but headroom's own entries (init created it; a later init from
    another headroom rewrote it) is never backed up, and --uninstall removes it: nothing of
    the user's was in it, so nothing of it remains — nor a backup that held only ours."""
    before = read_bytes(path)
    only_ours = _holds_only_ours(edit)
    if not uninstall:
        return [Change(path, before, edit(before, True), headroom_only=only_ours(before))]
    backup = read_bytes(_backup_path(path))
    backup_ours = backup is not None and only_ours(backup)
    try:
        if backup is not None and not backup_ours and edit(backup, True) == before:
            return [Change(path, before, backup, drop_backup=True)]
    except ConfigError:
        pass  # a backup that is not JSON: take out our entries instead
    if only_ours(before):
        return [Change(path, before, None, drop_backup=backup_ours, headroom_only=True)]
    return [Change(path, before, edit(before, False))]


def _holds_only_ours(edit: Callable[[bytes | None, bool], bytes | None]
                     ) -> Callable[[bytes | None], bool]:
    """Whether a file's bytes hold headroom's entries and nothing else: taking ours out leaves
    what it leaves of a file init created."""
    created = _edited(edit, None)
    try:
        emptied = None if created is None else edit(created, False)
    except ConfigError:
        emptied = None

    def only_ours(data: bytes | None) -> bool:
        if data is None or emptied is None:
            return False
        try:
            without = edit(data, False)
        except ConfigError:
            return False
        return without != data and without == emptied

    return only_ours


def _edited(edit: Callable[[bytes | None, bool], bytes | None], data: bytes | None):
    """What an install makes of `data`; None when it cannot (nothing there to edit)."""
    try:
        return edit(data, True)
    except ConfigError:
        return None


def edit_hooks(path: Path, data: bytes | None, event: str, group: dict | None,
            ours: Callable[[dict], bool], comments: bool) -> bytes | None:
    """`data` with our entries taken out and, with a `group`, that group added: as a text
    edit, so every other byte stays (a file that would not change is returned as it is)."""
    settings = load_json(path, data, comments=comments)
    expected = (with_hook(settings, event, group, ours) if group is not None
                else without_hook(settings, event, ours))
    if expected == settings and (data is not None or group is None):
        return data
    if data is None or not data.strip():
        return dump_json(expected)
    raw = data.decode("utf-8-sig")
    bom = data[:len(data) - len(raw.encode("utf-8"))]
    try:
        text = _without_ours(raw, event, ours)
        if group is not None:
            text = jsonedit.append(text, ("hooks", event), group)
        after = bom + text.encode("utf-8")
        if load_json(path, after, comments=comments) == expected:
            return after
    except (ValueError, KeyError, IndexError, ConfigError):
        pass
    return dump_json(expected)  # never expected: the text edit disagreed with the plan


def _without_ours(text: str, event: str, ours: Callable[[dict], bool]) -> str:
    """`text` without our entries under hooks[event] (nor the containers that held only
    them), as splices."""
    removed = False
    while True:
        groups = jsonedit.find(jsonedit.parse(text), ("hooks", event))
        if groups is None or groups.kind != "array":
            return text
        values = json.loads(strip_comments(text[groups.start:groups.end]))
        where = _first_of_ours(values, ours)
        if where is None:
            break
        group_index, entry_index, alone = where
        text = (jsonedit.remove_element(text, ("hooks", event), group_index) if alone else
                jsonedit.remove_element(text, ("hooks", event, group_index, "hooks"),
                                        entry_index))
        removed = True
    if removed and not groups.items:
        text = jsonedit.remove_member(text, ("hooks",), event)
        if not jsonedit.find(jsonedit.parse(text), ("hooks",)).items:
            text = jsonedit.remove_member(text, (), "hooks")
    return text


def _first_of_ours(groups: list, ours: Callable[[dict], bool]) -> tuple[int, int, bool] | None:
    """(group index, entry index, whether the group holds only ours) of our first entry."""
    for group_index, group in enumerate(groups):
        if not (isinstance(group, dict) and isinstance(group.get("hooks"), list)):
            continue
        entries = group["hooks"]
        for entry_index, entry in enumerate(entries):
            if isinstance(entry, dict) and ours(entry):
                alone = all(isinstance(other, dict) and ours(other) for other in entries)
                return group_index, entry_index, alone
    return None
