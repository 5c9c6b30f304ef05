"""`headroom init mcp --config FILE [--server NAME …]`: run an MCP client's stdio servers
through the proxy (`headroom mcp -- SERVER …`, mcp_proxy.py).

Every MCP client keeps its servers in a JSON object of the same shape,

    {"mcpServers": {NAME: {"command": "npx", "args": ["-y", "…"], "env": {…}}}}

(Claude Desktop, Cursor, Windsurf, Claude Code's .mcp.json; VS Code's mcp.json calls it
"servers" and adds "type": "stdio"). A stdio server is one with a "command" (and no "type",
or "stdio"). Wrapping one changes only its "command" and "args" — `["mcp", "--", "npx", "-y",
"…"]` after headroom's own command — as a text edit (jsonedit), so the rest of the file keeps
its bytes; unwrapping gives them back.

A remote server ({"type": "http", "url": …, "headers": {…}}; Cursor's has no "type") is wrapped
only when named with --server: its "url" and "headers" become `mcp --url URL --header 'NAME:
VALUE'…` in "args", its "type" "stdio", and unwrapping makes them "url" and "headers" again
(after the other keys: the same JSON; the backup gives back the bytes). A server of another
transport ("sse") is never wrapped.

Like every `init`: a backup of the original, idempotent, and --uninstall restores the original
when nothing else changed since.
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
    (uninstall) unwrap them: those named, or every one an earlier install wrapped — so
    that wrapping them in the backup shows whether the file is still just what it made."""
    if uninstall and not servers:
        servers = tuple(name for name, entry in _servers(path).items() if wrapped(entry))

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
        remote = remote_of(entry)
        if remote is not None:
            text = _edit_remote(text, (section, name), entry, remote, headroom,
                                expected[section])
            continue
        command, args = unwrapped(entry)
        if headroom is None and not wrapped(entry):
            continue  # never wrapped: left as it is (no "args" added)
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


def _edit_remote(text: str, where: tuple[str, str], entry: dict, remote: dict,
                 headroom: list[str] | None, servers: dict) -> str:
    """`text` with the remote server at `where` wrapped in `headroom mcp --url` (headroom
    given) or unwrapped; `servers` (the parsed servers) changed to match."""
    expected = servers[where[1]]
    if headroom is not None:
        args = [*headroom[1:], SUBCOMMAND, "--url", remote["url"]]
        for header, value in remote.get("headers", {}).items():
            args += ["--header", f"{header}: {value}"]
        new = {"command": headroom[0], "args": args}
        gone, kind = ("url", "headers"), "stdio"
    else:
        new = {"url": remote["url"], **({"headers": remote["headers"]} if "headers" in remote
                                        else {})}
        gone, kind = ("command", "args"), "http"
    if "type" in entry:
        new = {"type": kind, **new}
    if all(entry.get(key) == value for key, value in new.items()):
        return text
    for key in gone:
        if key in entry:
            text = jsonedit.remove_member(text, where, key)
            expected.pop(key)
    for key, value in new.items():
        text = jsonedit.set_value(text, (*where, key), value)
        expected[key] = value
    return text


def _chosen(path: Path, servers: dict, names: tuple[str, ...]) -> list[str]:
    """The stdio servers (all, or those named) and the remote ones named or wrapped."""
    stdio = [name for name, entry in servers.items() if is_stdio(entry)
             and remote_of(entry) is None]
    remote = [name for name, entry in servers.items() if remote_of(entry) is not None]
    missing = [name for name in names if name not in stdio + remote]
    if missing:
        others = [name for name in missing if name in servers]
        raise config.ConfigError(
            f"{path}: no stdio or streamable-HTTP MCP server named {', '.join(missing)}"
            + (" (another transport is not proxied)" if others else "")
            + f"; its servers: {', '.join(stdio + remote) or 'none'}")
    chosen = [name for name in stdio if not names or name in names] + \
        [name for name in remote if name in names or is_stdio(servers[name])]
    if not chosen:
        raise config.ConfigError(
            f"{path} has no stdio MCP server; left untouched (a remote one is proxied when "
            f"named with --server: {', '.join(remote) or 'none'})")
    return chosen


def left_alone(path: Path, names: tuple[str, ...]) -> list[str]:
    """The remote servers of the file at `path` an install leaves alone (not named)."""
    return [name for name, entry in _servers(path).items() if name not in names
            and remote_of(entry) is not None and not is_stdio(entry)]


def _servers(path: Path) -> dict:
    """The servers' object of the file at `path` ({} when there is none to read)."""
    try:
        settings = config.load_json(path, config.read_bytes(path), comments=True)
    except config.ConfigError:
        return {}
    return next((settings[key] for key in SECTIONS if isinstance(settings.get(key), dict)), {})


def wrapped(entry: object) -> bool:
    """Whether an earlier init put this server behind the proxy."""
    return is_stdio(entry) and (remote_of(entry) is not None or
                                unwrapped(entry) != (entry["command"], entry.get("args", [])))


def remote_of(entry: object) -> dict | None:
    """{"url": …, "headers": {…}} of a streamable-HTTP server, as configured or as wrapped by
    an earlier init (`headroom mcp --url URL --header 'NAME: VALUE'…`); else None."""
    if not isinstance(entry, dict):
        return None
    if isinstance(entry.get("url"), str) and entry.get("type", "http") == "http":
        headers = entry.get("headers", {})
        if isinstance(headers, dict) and all(isinstance(value, str)
                                             for value in headers.values()):
            return {key: entry[key] for key in ("url", "headers") if key in entry}
        return None
    if not is_stdio(entry):
        return None
    words = [entry["command"], *entry.get("args", [])]
    for position in range(1, len(words) - 2):
        if words[position] == SUBCOMMAND and _is_headroom(words[position - 1]) and \
                words[position + 1] == "--url":
            return _remote_args(words[position + 1:])
    return None


def _remote_args(words: list) -> dict | None:
    """`--url URL --header 'NAME: VALUE'…` back to {"url", "headers"}; None for any other."""
    pairs = list(zip(words[::2], words[1::2]))
    if len(words) % 2 or not all(isinstance(value, str) for _, value in pairs):
        return None
    remote: dict = {}
    for option, value in pairs:
        if option == "--url":
            remote["url"] = value
        elif option == "--header" and ":" in value:
            header, _, text = value.partition(":")
            remote.setdefault("headers", {})[header.strip()] = text.strip()
        else:
            return None
    return remote


def _is_headroom(program: object) -> bool:
    return isinstance(program, str) and ("headroom" in os.path.basename(program)
                                         or program == "headroom_cli")


def is_stdio(entry: object) -> bool:
    return isinstance(entry, dict) and isinstance(entry.get("command"), str) \
        and entry.get("type", "stdio") == "stdio" \
        and isinstance(entry.get("args", []), list)


def unwrapped(entry: dict) -> tuple[str, list]:
    """The server's own command and arguments: those after `headroom mcp [OPTIONS] --` when
    an earlier init wrapped it, else the entry's."""
    words = [entry["command"], *entry.get("args", [])]
    for position in range(1, len(words) - 1):
        if words[position] == SUBCOMMAND and _is_headroom(words[position - 1]) and \
                "--" in words[position + 1:]:
            rest = words[words.index("--", position + 1) + 1:]
            if rest and isinstance(rest[0], str):
                return rest[0], rest[1:]
    return entry["command"], list(entry.get("args", []))
