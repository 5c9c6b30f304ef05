"""`headroom init qwen` and `headroom hook qwen`: Qwen Code's shell tool replaced by a discovered
tool of the same name that runs the command through headroom.

Qwen Code 0.24.4 (its bundle, chunks/chunk-DPEB6S2R.js) runs `tools.discoveryCommand` (split
like a shell would) and reads a JSON array of function declarations from its stdout; it runs
`tools.callCommand TOOL_NAME` with the call's arguments as JSON on stdin, e.g.
    {"command":"seq 1 50000 | sed 's/^/row /'"}
and gives the model its stdout (an error instead when it exits non-zero or writes to stderr).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from headroom_cli.agents import HookOptions, config, load, run_hook
from headroom_cli.agents.cli import init_command

HEADROOM = [sys.executable, "-m", "headroom_cli"]
qwen = load("qwen")


@pytest.fixture(autouse=True)
def private(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("HEADROOM_STORE", str(tmp_path / "store"))
    monkeypatch.delenv("QWEN_HOME", raising=False)
    monkeypatch.chdir(tmp_path)


def call(arguments, budget=6000) -> str:
    return run_hook("qwen", json.dumps(arguments).encode(),
                    HookOptions(budget=budget, headroom=HEADROOM)).decode()


def test_with_no_input_it_declares_the_shell_tool_under_qwen_codes_own_name():
    declared = json.loads(run_hook("qwen", b"", HookOptions(headroom=HEADROOM)))
    assert [tool["name"] for tool in declared] == ["run_shell_command"]
    assert declared[0]["parametersJsonSchema"]["required"] == ["command"]


def test_a_call_runs_the_command_as_written_and_ends_with_its_exit_status():
    assert call({"command": "printf 'a\\tb\\n'; echo err >&2; exit 3"}) == \
        "a\tb\nerr\nExit Code: 3"
    assert call({"command": "printf 'no newline'"}) == "no newline\nExit Code: 0"


def test_a_call_runs_in_the_directory_given_relative_to_the_project(tmp_path):
    (tmp_path / "sub").mkdir()
    assert call({"command": "pwd", "directory": "sub"}) == f"{tmp_path / 'sub'}\nExit Code: 0"


def test_a_long_output_is_clipped_with_the_way_back():
    text = call({"command": "seq 1 50000"}, budget=500)
    assert "omitted" in text and "show" in text and text.endswith("50000\nExit Code: 0")
    assert len(text) <= qwen.MAX_BYTES + 100


def test_a_background_job_does_not_hold_the_call_open():
    done = subprocess.run([*HEADROOM, "hook", "qwen"], capture_output=True, timeout=30,
                          input=json.dumps({"command": "sleep 60 & echo started"}).encode())
    assert done.stdout == b"started\nExit Code: 0" and done.returncode == 0


def test_a_call_without_a_command_says_so_and_runs_nothing():
    assert "needs a non-empty `command`" in call({"description": "x"})


def test_the_script_declares_and_calls_through_this_headroom(tmp_path):
    assert init_command("qwen", uninstall=False, dry_run=False, config_path=None) == 0
    settings = json.loads(qwen.default_path().read_text())
    script = settings["tools"]["callCommand"]
    assert settings["tools"]["discoveryCommand"] == script
    assert settings["env"] == {"QWEN_CODE_LEGACY_MCP_BLOCKING": "1"}
    assert os.access(script, os.X_OK)
    # discovery: no argument, and Qwen Code never closes the command's stdin
    declared = subprocess.run([script], capture_output=True, timeout=30, stdin=subprocess.PIPE)
    assert json.loads(declared.stdout)[0]["name"] == "run_shell_command"
    ran = subprocess.run([script, "run_shell_command"], capture_output=True, timeout=30,
                         input=b'{"command": "echo hi"}')
    assert (ran.stdout, ran.stderr, ran.returncode) == (b"hi\nExit Code: 0", b"", 0)


ORIGINAL = b"""{
    // Qwen Code settings, with a comment
    "model": {"name": "qwen3-coder"},
    "tools": {
        "approvalMode": "default"
    }
}
"""


def installed_over(original: bytes):
    """Qwen Code's settings holding `original`, then `init qwen`: (path, apply)."""
    path = qwen.default_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(original)
    out = open(os.devnull, "w")

    def apply(uninstall=False):
        config.apply(qwen.install(path, HEADROOM, uninstall=uninstall), dry_run=False, out=out)

    apply()
    return path, apply


def test_install_and_uninstall_are_lossless_in_a_file_with_comments(tmp_path):
    path, apply = installed_over(ORIGINAL)
    edited = path.read_bytes()
    assert edited.startswith(b"{\n    // Qwen Code settings, with a comment\n")
    settings = json.loads(config.strip_comments(edited.decode()))
    assert settings["tools"]["approvalMode"] == "default"
    assert settings["tools"]["callCommand"].endswith("headroom-shell-tool")
    apply()
    assert path.read_bytes() == edited  # twice: one entry
    apply(uninstall=True)
    assert path.read_bytes() == ORIGINAL
    assert sorted(os.listdir(path.parent)) == ["settings.json"]


def test_uninstall_after_another_change_takes_out_only_headrooms_entries(tmp_path):
    path, apply = installed_over(ORIGINAL)
    path.write_bytes(path.read_bytes().replace(b"qwen3-coder", b"qwen3-max"))
    apply(uninstall=True)
    assert path.read_bytes() == ORIGINAL.replace(b"qwen3-coder", b"qwen3-max")


def test_a_tool_command_of_the_users_is_never_replaced(tmp_path, capsys):
    path = qwen.default_path()
    path.parent.mkdir(parents=True)
    original = b'{"tools": {"callCommand": "bin/my-tools"}}'
    path.write_bytes(original)
    assert init_command("qwen", uninstall=False, dry_run=False, config_path=None) == 1
    assert "tools.callCommand is already set" in capsys.readouterr().err
    assert path.read_bytes() == original
    assert not qwen.script_path(path).exists()


def test_qwen_home_moves_the_settings(tmp_path, monkeypatch):
    monkeypatch.setenv("QWEN_HOME", str(tmp_path / "qh"))
    assert qwen.default_path() == tmp_path / "qh" / "settings.json"


def test_a_clip_of_short_lines_stays_under_qwen_codes_own_line_cut():
    text = call({"command": "seq 1 50000"})
    assert "omitted" in text and len(text.split("\n")) <= qwen.MAX_LINES
