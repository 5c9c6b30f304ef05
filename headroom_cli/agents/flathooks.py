"""The flat hooks shape Crush and Cursor share: one list of entries per event, no groups.

    {"hooks": {EVENT: [{"command": "…", "matcher": "…", …}, …]}}     (Crush's crush.json)
    {"version": 1, "hooks": {EVENT: [{"command": "…", …}]}}           (Cursor's hooks.json)

Claude Code's shape nests each entry in a group (config.install_hook); this one does not, so
our entries are recognised, added and taken out directly — as text splices (jsonedit), every
other byte of the file kept, and with config.install_edit's backup and uninstall rules.
`preamble` holds top-level members the file needs (Cursor's "version"): added, when missing,
to a file init creates, and taken out again with it.
"""

from __future__ import annotations

import json
from pathlib import Path

from . import config, jsonedit


def install(path: Path, agent: str, entries: dict[str, dict], uninstall: bool = False,
            comments: bool = True, preamble: dict | None = None) -> list[config.Change]:
    """Our one entry under hooks[EVENT] for each EVENT of `entries` (or none of ours)."""
    def edit(data: bytes | None, install: bool) -> bytes | None:
        return edit_hooks(path, data, agent, entries if install else {}, comments, preamble)

    return config.install_edit(path, edit, uninstall)


def is_ours(entry: object, agent: str) -> bool:
    return isinstance(entry, dict) and config.is_hook_command(entry.get("command"), agent)


def edit_hooks(path: Path, data: bytes | None, agent: str, entries: dict[str, dict],
               comments: bool, preamble: dict | None = None) -> bytes | None:
    """`data` with every entry of ours taken out and then `entries` added, as a text edit."""
    settings = config.load_json(path, data, comments=comments)
    if data is None or not data.strip():
        if not entries:
            return data
        fresh = dict(preamble or {})
        fresh["hooks"] = {event: [entry] for event, entry in entries.items()}
        return config.dump_json(fresh)
    if "hooks" in settings and not isinstance(settings["hooks"], dict):
        raise config.ConfigError(f'{path}: "hooks" is not a JSON object; left untouched')
    raw = data.decode("utf-8-sig")
    bom = data[:len(data) - len(raw.encode("utf-8"))]
    text = _without_ours(raw, agent)
    for event, entry in entries.items():
        if not isinstance(settings.get("hooks", {}).get(event, []), list):
            raise config.ConfigError(f'{path}: "hooks.{event}" is not a JSON array; left '
                                     "untouched")
        text = jsonedit.append(text, ("hooks", event), entry)
    after = bom + text.encode("utf-8")
    return data if after == data else after


def _without_ours(text: str, agent: str) -> str:
    """`text` without our entries (nor the event lists, nor `hooks`, they alone filled)."""
    root = jsonedit.parse(text)
    hooks = jsonedit.find(root, ("hooks",))
    if hooks is None or hooks.kind != "object":
        return text
    for event in hooks.keys:
        while True:
            found = jsonedit.find(jsonedit.parse(text), ("hooks", event))
            if found is None or found.kind != "array":
                break
            values = json.loads(config.strip_comments(text[found.start:found.end]))
            index = next((i for i, entry in enumerate(values) if is_ours(entry, agent)), None)
            if index is None:
                break
            text = jsonedit.remove_element(text, ("hooks", event), index)
            if len(values) == 1:
                text = jsonedit.remove_member(text, ("hooks",), event)
                if not jsonedit.find(jsonedit.parse(text), ("hooks",)).items:
                    text = jsonedit.remove_member(text, (), "hooks")
                break
    return text
