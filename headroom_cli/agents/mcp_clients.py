"""`headroom init mcp --config FILE [--server NAME …]`: run an MCP client's stdio servers
through the proxy (`headroom mcp -- SERVER …`, mcp_proxy.py).

Every MCP client keeps its servers in a JSON object of the same shape,

    {"mcpServers": {NAME: {"command": "npx", "args": ["-y", "…"], "env": {…}}}}

(Claude Desktop, Cursor, Windsurf, Claude Code's .mcp.json; VS Code's mcp.json calls it
"servers" and adds "type": "stdio"). A stdio server is one with a "command" (and no "type",
or "stdio"); a remote one ("url") is left alone. Wrapping one changes only its "command" and
"args" — `["mcp", "--", "npx", "-y", "…"]` after headroom's own command — as a text edit
(jsonedit), so the rest of the file keeps its bytes; unwrapping gives them back. Like every
`init`: a backup of the original, idempotent, and --uninstall restores the original when
nothing else changed since.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from . import config, jsonedit

SECTIONS = ("mcpServers", "servers")  # the servers' object, by client (see above)
SUBCOMMAND = "mcp"

NOTES = """\
The MCP servers above now run through headroom's proxy: every message passes unchanged, except
the text of a tool result over the budget, which is clipped with a marker saying how to get the
rest (`headroom show ID`). Restart the MCP client (or reload its servers) to start them
through the proxy."""


def install(path: Path, headroom: list[str], uninstall: bool = False,
            servers: tuple[str, ...] = ()) -> list[config.Change]:
    """Wrap the stdio servers named in `servers` (all of them when empty) in the proxy, or
    (uninstall) unwrap them."""
    def edit(data: bytes | None, install: bool) -> bytes | None:
        return edit_servers(path, data, headroom if install else None, servers)

    return config.install_edit(path, edit, uninstall)


def edit_servers(path: Path, data: bytes | None, headroom: list[str] | None,
                 names: tuple[str, ...]) -> bytes:
    """`data` with the chosen servers wrapped (`headroom`: how to run headroom) or unwrapped
    (None), as text splices; ConfigError when there is no such server."""
    settings = config.load_json(path, data, comments=True)
    section = next((key for key in SECTIONS if isinstance(settings.get(key), dict)), None)
    if section is None:
        raise config.ConfigError(f"{path} has no MCP servers (no \"mcpServers\" or \"servers\" "
                                 "object); left untouched")
    chosen = _chosen(path, settings[section], names)
    text = data.decode("utf-8-sig")
    bom = data[:len(data) - len(text.encode("utf-8"))]
    expected = json.loads(json.dumps(settings))
    for name in chosen:
        entry = settings[section][name]
        command, args = unwrapped(entry)
        if headroom is not None:
            command, args = headroom[0], [*headroom[1:], SUBCOMMAND, "--", command, *args]
        if (command, args) == (entry.get("command"), entry.get("args")):
            continue
        expected[section][name].update(command=command, args=args)
        text = jsonedit.set_value(text, (section, name, "command"), command)
        text = jsonedit.set_value(text, (section, name, "args"), args)
    after = bom + text.encode("utf-8")
    if config.load_json(path, after, comments=True) != expected:
        return config.dump_json(expected)  # never expected: the text edit disagreed
    return after


def _chosen(path: Path, servers: dict, names: tuple[str, ...]) -> list[str]:
    stdio = [name for name, entry in servers.items() if is_stdio(entry)]
    missing = [name for name in names if name not in stdio]
    if missing:
        remote = [name for name in missing if name in servers]
        raise config.ConfigError(
            f"{path}: no stdio MCP server named {', '.join(missing)}"
            + (" (a remote server is not proxied)" if remote else "")
            + f"; its stdio servers: {', '.join(stdio) or 'none'}")
    if not stdio:
        raise config.ConfigError(f"{path} has no stdio MCP server; left untouched")
    return [name for name in stdio if not names or name in names]


def is_stdio(entry: object) -> bool:
    return isinstance(entry, dict) and isinstance(entry.get("command"), str) \
        and entry.get("type", "stdio") == "stdio" \
        and isinstance(entry.get("args", []), list)


def unwrapped(entry: dict) -> tuple[str, list]:
    """The server's own command and arguments: those after `headroom mcp [OPTIONS] --` when
    an earlier init wrapped it, else the entry's."""
    words = [entry["command"], *entry.get("args", [])]
    for position in range(1, len(words) - 1):
        program = words[position - 1]
        if words[position] == SUBCOMMAND and isinstance(program, str) and \
                ("headroom" in os.path.basename(program) or program == "headroom_cli") and \
                "--" in words[position + 1:]:
            rest = words[words.index("--", position + 1) + 1:]
            if rest and isinstance(rest[0], str):
                return rest[0], rest[1:]
    return entry["command"], list(entry.get("args", []))
