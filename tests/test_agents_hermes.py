"""`headroom init hermes` and `headroom hook hermes`, with the keyword arguments hermes-agent
0.19.0 calls its hooks with (tools/terminal_tool.py: transform_terminal_output(command,
output, returncode, task_id, env_type); model_tools.py: transform_tool_result(tool_name,
args, result, task_id, session_id, tool_call_id, turn_id, api_request_id, duration_ms,
status, error_type, error_message)); the generated plugin itself is run here as hermes
runs it (imported, register(ctx) called, the hooks called with those keywords)."""

from __future__ import annotations

import importlib.util
import json
import sys

import pytest

from headroom_cli.agents import HookOptions, config, hermes, kilo, run_hook

HEADROOM = [sys.executable, "-m", "headroom_cli"]
LOG = "".join(f"collecting test {n}\n" for n in range(1, 3000)) + \
    'Traceback (most recent call last):\n  File "t.py", line 1\nValueError: boom\n' + \
    "".join(f"cleanup step {n}\n" for n in range(1, 3000)) + "FAILED: 1 error"


@pytest.fixture(autouse=True)
def private(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("HERMES_HOME", raising=False)
    monkeypatch.setenv("HEADROOM_STORE", str(tmp_path / "store"))


def reply(event):
    return json.loads(run_hook("hermes", json.dumps(event).encode(),
                               HookOptions(headroom=HEADROOM)))


def test_a_failing_terminal_output_is_clipped_with_its_status():
    out = reply({"hook": "terminal", "command": "pytest", "output": LOG, "returncode": 3,
                 "session_id": "task-1"})["output"]
    assert "Traceback (most recent call last):" in out and "ValueError: boom" in out
    assert "The command exited with status 3." in out and len(out) < len(LOG) // 4


def test_an_output_that_fits_and_the_terminals_own_result_are_left_alone():
    assert reply({"hook": "terminal", "command": "echo", "output": "hi\n", "returncode": 0}) == {}
    assert reply({"hook": "tool", "tool_name": "terminal", "result": LOG}) == {}
    assert reply({"hook": "other"}) == {}


def test_another_tools_large_result_is_clipped():
    result = json.dumps({"content": LOG, "total_lines": 6000})
    out = reply({"hook": "tool", "tool_name": "read_file", "args": {"path": "t.log"},
                 "result": result, "session_id": "s"})["output"]
    assert "headroom" in out and len(out) < len(result) // 4


def load_plugin(path):
    spec = importlib.util.spec_from_file_location("hermes_headroom_plugin", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    hooks = {}

    class Context:
        def register_hook(self, name, callback):
            hooks[name] = callback

    module.register(Context())
    return module, hooks


def test_the_installed_plugin_clips_through_this_headroom_and_fails_open(tmp_path):
    path = hermes.default_path()
    config.apply(hermes.install(path, HEADROOM), dry_run=False)
    assert (path.parent / "plugin.yaml").read_text().count("transform_") == 2
    module, hooks = load_plugin(path)
    assert set(hooks) == {"transform_terminal_output", "transform_tool_result"}
    out = hooks["transform_terminal_output"](command="pytest", output=LOG, returncode=3,
                                             task_id="t", env_type="local")
    assert "The command exited with status 3." in out
    assert hooks["transform_terminal_output"](command="echo", output="hi", returncode=0,
                                              task_id="t", env_type="local") is None
    assert hooks["transform_tool_result"](tool_name="terminal", args={}, result=LOG,
                                          task_id="t", session_id="s", status="ok") is None
    module.HEADROOM = [str(tmp_path / "missing-headroom")]
    assert hooks["transform_terminal_output"](command="x", output=LOG, returncode=1) is None


def test_uninstall_removes_both_files_and_a_foreign_plugin_is_left_alone(tmp_path):
    path = hermes.default_path()
    config.apply(hermes.install(path, HEADROOM), dry_run=False)
    config.apply(hermes.install(path, HEADROOM, uninstall=True), dry_run=False)
    assert not path.exists() and not (path.parent / "plugin.yaml").exists()
    path.parent.mkdir(parents=True, exist_ok=True)
    (path.parent / "plugin.yaml").write_text("name: headroom\n")
    with pytest.raises(config.ConfigError):
        hermes.install(path, HEADROOM)


def test_hermes_home_is_followed(tmp_path, monkeypatch):
    monkeypatch.setenv("HERMES_HOME", str(tmp_path / "h"))
    assert hermes.default_path() == tmp_path / "h" / "plugins" / "headroom" / "__init__.py"


def test_kilos_plugin_asks_the_kilo_hook_from_kilos_folder(tmp_path, monkeypatch):
    assert kilo.default_path() == tmp_path / "home" / ".config" / "kilo" / "plugins" / \
        "headroom.js"
    source = kilo.install(kilo.default_path(), HEADROOM)[0].after.decode()
    assert 'askHeadroom("kilo"' in source and "headroom init kilo --uninstall" in source
    monkeypatch.setenv("KILO_CONFIG_DIR", str(tmp_path / "k"))
    assert kilo.default_path() == tmp_path / "k" / "plugins" / "headroom.js"
