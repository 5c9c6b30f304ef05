"""`headroom init` edits a user's settings file losslessly: only headroom's entry changes, and
`--uninstall` gives back the original bytes — whatever the file's indentation, key order,
line endings, comments (Gemini CLI's JSONC) and other hooks."""

from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from headroom_cli.agents import config, jsonedit, load

HEADROOM = ["/opt/headroom/bin/headroom"]
AGENTS = {"claude": "PreToolUse", "codex": "PreToolUse", "gemini": "BeforeTool"}

# --- settings files as users have them --------------------------------------------------------

words = st.text(alphabet="abcdefghijklmnopqrstuvwxyz_-éü ", min_size=1, max_size=10)
scalars = st.one_of(st.booleans(), st.integers(-5, 10_000), words, st.none())
their_hook = st.builds(
    lambda command, timeout: {"type": "command", "command": command, **(
        {"timeout": timeout} if timeout else {})},
    st.sampled_from(["./my-hook.sh", "npx lint-staged", "rtk hook", "echo 'a // b /* c */'"]),
    st.one_of(st.none(), st.integers(1, 600)))
their_group = st.fixed_dictionaries(
    {"matcher": st.sampled_from(["Bash", "Edit|Write", "run_shell_command", ".*", ""]),
     "hooks": st.lists(their_hook, min_size=1, max_size=2)})


@st.composite
def user_settings(draw, event: str) -> dict:
    value: dict = {}
    for key in draw(st.lists(st.sampled_from(
            ["model", "theme", "env", "permissions", "ui", "statusLine", "mcpServers"]),
            unique=True, max_size=5)):
        value[key] = draw(st.one_of(scalars, st.dictionaries(words, scalars, max_size=3),
                                    st.lists(scalars, max_size=3)))
    shape = draw(st.sampled_from(["none", "empty", "other event", "same event"]))
    if shape == "empty":
        value["hooks"] = {}
    elif shape != "none":
        hooks = {"SessionStart" if shape == "other event" else event:
                 draw(st.lists(their_group, min_size=1, max_size=3))}
        if draw(st.booleans()):
            hooks["PostToolUse"] = draw(st.lists(their_group, min_size=1, max_size=1))
        value["hooks"] = hooks
    keys = list(value)
    order = draw(st.permutations(keys))
    return {key: value[key] for key in order}


@st.composite
def rendered(draw, value: dict, comments: bool) -> str:
    indent = draw(st.sampled_from([2, 4, 1, "\t", None]))
    text = json.dumps(value, indent=indent, ensure_ascii=draw(st.booleans()))
    if comments and indent is not None:
        lines = text.split("\n")
        out = []
        for number, line in enumerate(lines):
            stripped = line.lstrip()
            if stripped.startswith('"') and draw(st.integers(0, 3)) == 0:
                out.append(line[:len(line) - len(stripped)] + f"// note {number}, with a comma")
            if draw(st.integers(0, 5)) == 0 and not stripped.startswith(("//",)):
                line += " /* here */" if line.rstrip().endswith(",") else " // end"
            out.append(line)
        text = "\n".join(out)
    if draw(st.booleans()):
        text += "\n"
    if draw(st.integers(0, 4)) == 0:
        text = text.replace("\n", "\r\n")
    return text


def settings_files(agent: str):
    comments = agent == "gemini"
    return user_settings(AGENTS[agent]).flatmap(lambda value: rendered(value, comments))


def install(agent, path, uninstall=False):
    config.apply(load(agent).install(path, HEADROOM, uninstall=uninstall), dry_run=False,
                 out=open(os.devnull, "w"))


def parsed(agent, data: bytes) -> dict:
    return config.load_json(None, data, comments=agent == "gemini")


PROPERTY = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture,
                                           HealthCheck.too_slow])


@pytest.mark.parametrize("agent", sorted(AGENTS))
@PROPERTY
@given(data=st.data())
def test_init_then_uninstall_gives_back_the_original_bytes(agent, data, tmp_path_factory):
    original = data.draw(settings_files(agent)).encode()
    path = tmp_path_factory.mktemp("cfg") / "settings.json"
    path.write_bytes(original)
    install(agent, path)
    installed = path.read_bytes()
    event = AGENTS[agent]
    ours = lambda entry: config.is_hook_command(entry.get("command"), agent)  # noqa: E731
    expected = config.with_hook(parsed(agent, original), event, json.loads(json.dumps(
        parsed(agent, installed)["hooks"][event][-1])), ours)
    if agent == "claude":
        expected = claude_extras(expected, parsed(agent, installed))
    if agent == "codex":  # and a PostToolUse group for MCP tools (codex_post)
        expected = config.with_hook(expected, "PostToolUse",
                                    parsed(agent, installed)["hooks"]["PostToolUse"][-1], ours)
    assert parsed(agent, installed) == expected
    install(agent, path)
    assert path.read_bytes() == installed  # idempotent
    install(agent, path, uninstall=True)
    assert path.read_bytes() == original
    assert not path.with_name(path.name + config.BACKUP_SUFFIX).exists()


@pytest.mark.parametrize("agent", sorted(AGENTS))
@PROPERTY
@given(data=st.data())
def test_the_text_edit_alone_is_undone_by_the_text_edit(agent, data):
    """Without the backup (say it was deleted), taking our entry out of the installed text
    gives the original bytes whenever the file had content around it."""
    original = data.draw(settings_files(agent))
    path = None
    group = group_of(load(agent))
    event = AGENTS[agent]
    ours = lambda entry: config.is_hook_command(entry.get("command"), agent)  # noqa: E731
    installed = config.edit_hooks(path, original.encode(), event, group, ours, agent == "gemini")
    removed = config.edit_hooks(path, installed, event, None, ours, agent == "gemini")
    root = jsonedit.parse(original)
    hooks = jsonedit.find(root, ("hooks",))
    made_inside_empty = (not root.items) or (hooks is not None and not hooks.items)
    if made_inside_empty:  # `{}` or `"hooks": {}` emptied again: the backup's job
        assert not parsed(agent, removed).get("hooks")
    else:
        assert removed == original.encode()


def claude_extras(expected: dict, installed: dict) -> dict:
    """What `init claude` adds besides its PreToolUse group (h-claude): a PostToolUse group
    for MCP tools, and allow rules for `headroom show` where the file has room for them."""
    from headroom_cli.agents import claude

    ours = lambda entry: config.is_hook_command(entry.get("command"), "claude")  # noqa: E731
    expected = config.with_hook(expected, "PostToolUse",
                                installed["hooks"]["PostToolUse"][-1], ours)
    permissions = expected.setdefault("permissions", {})
    if isinstance(permissions, dict) and isinstance(permissions.get("allow", []), list):
        permissions["allow"] = permissions.get("allow", []) + claude.show_rules(HEADROOM)
    return expected


def group_of(module) -> dict:
    """The group an installer adds (read back from a fresh install)."""
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory() as folder:
        change = module.install(Path(folder) / "settings.json", HEADROOM)[0]
    return json.loads(change.after)["hooks"][AGENTS[module.NAME]][0]


@pytest.mark.parametrize("agent", sorted(AGENTS))
@PROPERTY
@given(data=st.data())
def test_uninstall_after_other_changes_takes_out_only_ours(agent, data, tmp_path_factory):
    original = data.draw(settings_files(agent)).encode()
    path = tmp_path_factory.mktemp("cfg") / "settings.json"
    path.write_bytes(original)
    install(agent, path)
    changed = path.read_bytes().replace(b"{", b'{"added": "later", ', 1)
    path.write_bytes(changed)
    install(agent, path, uninstall=True)
    after = parsed(agent, path.read_bytes())
    expected = dict(parsed(agent, original))
    for key in ("hooks", "permissions") if agent == "claude" else ("hooks",):
        if expected.get(key) == {}:
            del expected[key]  # our entry went in there, and out: an emptied one goes too
    assert after.pop("added") == "later"
    assert after == expected
    assert path.with_name(path.name + config.BACKUP_SUFFIX).read_bytes() == original


def test_a_later_install_never_overwrites_the_backup(tmp_path):
    path = tmp_path / "settings.json"
    original = b'{\n    "model": "x"\n}\n'
    path.write_bytes(original)
    install("claude", path)
    install("claude", path, uninstall=True)
    assert path.read_bytes() == original
    path.write_bytes(b'{"model": "y"}')
    install("claude", path)
    backup = path.with_name(path.name + config.BACKUP_SUFFIX)
    assert backup.read_bytes() == b'{"model": "y"}'
    path.write_bytes(path.read_bytes().replace(b'"y"', b'"z"'))
    install("claude", path)  # re-installing keeps the first backup
    assert backup.read_bytes() == b'{"model": "y"}'


def test_an_entry_is_added_in_the_files_own_layout():
    text = '{\n\t"model": "x", // mine\n\t"hooks": {\n\t\t"Stop": []\n\t}\n}\n'
    out = jsonedit.append(text, ("hooks", "PreToolUse"), {"matcher": "Bash"})
    assert out == ('{\n\t"model": "x", // mine\n\t"hooks": {\n\t\t"Stop": [],\n'
                   '\t\t"PreToolUse": [\n\t\t\t{\n\t\t\t\t"matcher": "Bash"\n\t\t\t}\n\t\t]\n'
                   '\t}\n}\n')
    one_line = jsonedit.append('{"a": 1, "hooks": {"X": [1]}}', ("hooks", "X"), 2)
    assert one_line == '{"a": 1, "hooks": {"X": [1, 2]}}'


@pytest.mark.parametrize("text", ['{"a": 1', '{"a" 1}', "[1,]", '{"a": 1} x', '{"a": /* */'])
def test_text_that_is_not_json_is_refused(text):
    with pytest.raises(ValueError):
        jsonedit.parse(text)
