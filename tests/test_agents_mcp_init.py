"""`headroom init mcp --config FILE [--server NAME …]`: an MCP client's stdio servers run
through the proxy, as a lossless text edit of the client's configuration."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import invoke_cli
from headroom_cli.agents import config, jsonedit, mcp_clients

HEADROOM = ["/opt/headroom/bin/headroom"]

CLAUDE_DESKTOP = """{
  // servers
  "mcpServers": {
    "fs": {
      "command": "npx",
      "args": [
        "-y",
        "@modelcontextprotocol/server-filesystem",
        "/srv"
      ],
      "env": {"TOKEN": "t"}
    },
    "remote": {"type": "http", "url": "https://example.com/mcp"},
    "jira": {"command": "jira-mcp"}
  },
  "globalShortcut": "Ctrl+Space"
}
"""
VS_CODE = ('{\r\n\t"inputs": [],\r\n\t"servers": {\r\n\t\t"db": {"type": "stdio", '
           '"command": "uvx", "args": ["mcp-server-sqlite", "--db-path", "a.db"]}\r\n\t}\r\n}\r\n')


def install(tmp_path, text: str, *servers: str, uninstall: bool = False, name="mcp.json"):
    path = tmp_path / name
    if not (uninstall and path.exists()):
        path.write_text(text, newline="")
    config.apply(mcp_clients.install(path, HEADROOM, uninstall, servers), dry_run=False,
                 out=open("/dev/null", "w"))
    return path


def servers_of(path) -> dict:
    value = config.load_json(path, path.read_bytes(), comments=True)
    return value.get("mcpServers") or value["servers"]


def test_every_stdio_server_is_wrapped_and_nothing_else_changes(tmp_path):
    path = install(tmp_path, CLAUDE_DESKTOP)
    servers = servers_of(path)
    assert servers["fs"] == {"command": HEADROOM[0], "env": {"TOKEN": "t"},
                             "args": ["mcp", "--", "npx", "-y",
                                      "@modelcontextprotocol/server-filesystem", "/srv"]}
    assert servers["jira"] == {"command": HEADROOM[0], "args": ["mcp", "--", "jira-mcp"]}
    assert servers["remote"] == {"type": "http", "url": "https://example.com/mcp"}
    text = path.read_text()
    assert "// servers" in text and '"globalShortcut": "Ctrl+Space"' in text
    # the wrapped args keep the original's layout: one element a line, same indentation
    assert '      "args": [\n        "mcp",\n        "--",\n        "npx",\n' in text


def test_installing_twice_changes_nothing_and_uninstall_gives_back_the_bytes(tmp_path):
    path = install(tmp_path, CLAUDE_DESKTOP)
    changes = mcp_clients.install(path, HEADROOM)
    assert not any(change.changed for change in changes)
    install(tmp_path, "", uninstall=True)
    assert path.read_text() == CLAUDE_DESKTOP
    assert not (tmp_path / "mcp.json.headroom-backup").exists()


def test_uninstall_after_the_user_edited_the_file_unwraps_and_keeps_their_edit(tmp_path):
    path = install(tmp_path, VS_CODE, name="vscode.json")
    path.write_bytes(path.read_bytes().replace(b'"inputs": []', b'"inputs": [1]'))
    install(tmp_path, "", uninstall=True, name="vscode.json")
    assert path.read_bytes() == VS_CODE.replace('"inputs": []', '"inputs": [1]').encode()


def test_only_the_named_servers_are_wrapped(tmp_path):
    path = install(tmp_path, CLAUDE_DESKTOP, "jira")
    servers = servers_of(path)
    assert servers["jira"]["args"] == ["mcp", "--", "jira-mcp"]
    assert servers["fs"]["command"] == "npx"


def test_a_wrapped_server_is_unwrapped_whatever_proxy_options_it_was_given():
    entry = {"command": "/x/bin/headroom", "args": ["mcp", "--budget", "900", "--skip-tool",
                                                    "a", "--", "srv", "--", "mcp"]}
    assert mcp_clients.unwrapped(entry) == ("srv", ["--", "mcp"])
    assert mcp_clients.unwrapped({"command": "python3", "args": ["-m", "headroom_cli", "mcp",
                                                                 "--", "srv"]}) == ("srv", [])
    assert mcp_clients.unwrapped({"command": "mcp", "args": ["--", "x"]}) == ("mcp", ["--", "x"])


@pytest.mark.parametrize("text, names, says", [
    ('{"mcpServers": {"s": {"type": "sse", "url": "https://x"}}}', ("s",),
     "another transport is not proxied"),
    (CLAUDE_DESKTOP, ("nope",), "no stdio or streamable-HTTP MCP server named nope"),
    ('{"mcpServers": {"r": {"url": "https://x"}}}', (), "no stdio MCP server"),
    ('{"theme": "dark"}', (), 'no "mcpServers" or "servers"'),
    ("{not json", (), "is not valid JSON"),
])
def test_a_file_it_cannot_edit_is_left_untouched_with_one_line(tmp_path, text, names, says):
    path = tmp_path / "c.json"
    path.write_text(text)
    args = ["init", "mcp", "--config", str(path), *(f"--server={name}" for name in names)]
    run = invoke_cli(args, base_dir=str(tmp_path))
    assert run.exit_code == 1 and says in run.stderr and len(run.stderr.splitlines()) == 1
    assert path.read_text() == text


REMOTE = """{
  "mcpServers": {
    "linear": {
      "type": "http",
      "url": "https://mcp.linear.app/mcp",
      "headers": {"Authorization": "Bearer ${LINEAR_TOKEN}"},
      "timeout": 30
    },
    "docs": {"url": "https://docs.example.com/mcp"},
    "jira": {"command": "jira-mcp"}
  }
}
"""


def test_a_named_remote_server_runs_through_the_proxys_url_and_comes_back(tmp_path):
    path = install(tmp_path, REMOTE, "linear", "docs")
    servers = servers_of(path)
    assert servers["linear"] == {"type": "stdio", "timeout": 30, "command": HEADROOM[0],
                                 "args": ["mcp", "--url", "https://mcp.linear.app/mcp",
                                          "--header", "Authorization: Bearer ${LINEAR_TOKEN}"]}
    assert servers["docs"] == {"command": HEADROOM[0],
                               "args": ["mcp", "--url", "https://docs.example.com/mcp"]}
    assert servers["jira"] == {"command": "jira-mcp"}
    again = mcp_clients.install(path, HEADROOM, servers=("linear", "docs"))
    assert not any(change.changed for change in again)  # twice is once
    install(tmp_path, "", uninstall=True)
    assert path.read_text() == REMOTE  # from the backup: the bytes


def test_a_remote_server_unwrapped_after_an_edit_is_the_same_json(tmp_path):
    path = install(tmp_path, REMOTE, "linear")
    path.write_text(path.read_text().replace('"jira-mcp"', '"jira-mcp2"'))
    install(tmp_path, "", uninstall=True)
    assert json.loads(path.read_text()) == json.loads(REMOTE.replace("jira-mcp", "jira-mcp2"))


def test_init_says_which_remote_servers_it_left_alone(tmp_path):
    path = tmp_path / "c.json"
    path.write_text(REMOTE)
    run = invoke_cli(["init", "mcp", "--config", str(path), "--server", "jira"],
                     base_dir=str(tmp_path))
    assert run.exit_code == 0
    assert b"Left alone: the remote servers linear, docs; name one with --server" in run.stdout


def test_the_wrapped_remote_server_is_a_command_headroom_accepts(tmp_path):
    path = install(tmp_path, REMOTE, "linear")
    args = servers_of(path)["linear"]["args"]
    run = invoke_cli([*args[:-4], "--url", "ftp://x", *args[-2:]], base_dir=str(tmp_path))
    assert run.exit_code == 2 and "http:// or https://" in run.stderr  # parsed to the URL check


def test_init_mcp_needs_the_client_configuration(tmp_path):
    run = invoke_cli(["init", "mcp"], base_dir=str(tmp_path))
    assert run.exit_code == 2 and "--config FILE is required" in run.stderr
    run = invoke_cli(["init", "claude", "--server", "x"], base_dir=str(tmp_path))
    assert run.exit_code == 2 and "only `headroom init mcp`" in run.stderr


layouts = st.sampled_from(["one line", "indented"])


@given(st.dictionaries(st.text("abc-_", min_size=1, max_size=4),
                       st.fixed_dictionaries({"command": st.sampled_from(["npx", "uvx", "é"]),
                                              "args": st.lists(st.text(max_size=5),
                                                               max_size=3)}),
                       min_size=1, max_size=3),
       st.sampled_from([None, 2, "\t"]))
@settings(max_examples=60, deadline=None)
def test_wrap_then_unwrap_is_the_identity_for_any_layout(servers, indent):
    text = json.dumps({"mcpServers": servers, "x": 1}, indent=indent, ensure_ascii=False)
    data = text.encode()
    wrapped = mcp_clients.edit_servers("f", data, HEADROOM, ())
    value = json.loads(wrapped)
    for name, entry in servers.items():
        assert value["mcpServers"][name]["args"] == ["mcp", "--", entry["command"],
                                                     *entry["args"]]
    assert mcp_clients.edit_servers("f", wrapped, None, ()) == data


def test_set_value_replaces_in_place_or_adds_a_member():
    text = '{\n  "a": {"b": [1,\n    2]}\n}'
    assert jsonedit.set_value(text, ("a", "b"), [3]) == '{\n  "a": {"b": [\n    3\n  ]}\n}'
    assert json.loads(jsonedit.set_value(text, ("a", "c"), "x")) == {"a": {"b": [1, 2],
                                                                         "c": "x"}}
    with pytest.raises(ValueError):
        jsonedit.set_value(text, ("nope", "c"), 1)


@given(st.dictionaries(st.text("abc-_", min_size=1, max_size=4),
                       st.fixed_dictionaries({"url": st.text(min_size=1, max_size=8)},
                                             optional={"type": st.just("http"),
                                                       "headers": st.dictionaries(
                                                           st.text("XY-", min_size=1),
                                                           st.text("ab :é", max_size=5).map(
                                                               str.strip),  # HTTP's OWS
                                                           min_size=1),
                                                       "timeout": st.integers()}),
                       min_size=1, max_size=3),
       st.sampled_from([None, 2]))
@settings(max_examples=60, deadline=None)
def test_wrap_then_unwrap_of_remote_servers_is_the_same_json(servers, indent):
    data = json.dumps({"mcpServers": servers}, indent=indent, ensure_ascii=False).encode()
    wrapped = mcp_clients.edit_servers("f", data, HEADROOM, tuple(servers))
    for entry in json.loads(wrapped)["mcpServers"].values():
        assert entry["command"] == HEADROOM[0] and entry["args"][:2] == ["mcp", "--url"]
    unwrapped = mcp_clients.edit_servers("f", wrapped, None, ())
    assert json.loads(unwrapped) == json.loads(data)
