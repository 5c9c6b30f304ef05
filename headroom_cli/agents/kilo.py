"""Kilo CLI: opencode's plugin, in Kilo's own config folder.

Kilo CLI (@kilocode/cli 7.7.7, checked in its binary and by real runs against a scripted
model: tests/e2e/test_e2e_kilo.py) is a fork of opencode and calls a plugin's
`tool.execute.after(input, output)` as opencode does — `input = {tool, sessionID, callID,
args}`, `output = {title, output, metadata}` — and uses `output.output` afterwards. So the
plugin and the hook are opencode's (opencode.py), under Kilo's names: the plugin file is
~/.config/kilo/plugins/headroom.js ($XDG_CONFIG_HOME respected; KILO_CONFIG_DIR when set),
and it asks `headroom hook kilo`. Kilo cuts a long bash output to its last lines itself and
keeps the whole of it in a file (`metadata.outputPath`), as opencode does; the hook clips
the whole output instead.
"""

from __future__ import annotations

import os
from pathlib import Path

from . import HookOptions, config, opencode
from .plugins import plugin_change

NAME = "kilo"
SIGNATURE = "headroom: installed by `headroom init kilo`"
NOTES = opencode.NOTES.replace("opencode", "Kilo")


def default_path() -> Path:
    configured = os.environ.get("KILO_CONFIG_DIR")
    if configured:
        return Path(configured) / "plugins" / "headroom.js"
    base = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"), ".config")
    return Path(base) / "kilo" / "plugins" / "headroom.js"


def install(path: Path, headroom: list[str], uninstall: bool = False) -> list[config.Change]:
    source = opencode.plugin_source(headroom, NAME, SIGNATURE)
    return [plugin_change(path, source, SIGNATURE, uninstall)]


def handle(payload: bytes, options: HookOptions) -> bytes:
    return opencode.handle(payload, options)
