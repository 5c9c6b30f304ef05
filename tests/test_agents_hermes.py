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
    assert set(hooks) == {"transform_terminal_output", "transform_tool_result",
                          "post_api_request"}
    out = hooks["transform_terminal_output"](command="pytest", output=LOG, returncode=3,
                                             task_id="t", env_type="local")
    assert "The command exited with status 3." in out
    assert hooks["transform_terminal_output"](command="echo", output="hi", returncode=0,
                                              task_id="t", env_type="local") is None
    assert hooks["transform_tool_result"](tool_name="terminal", args={}, result=LOG,
                                          task_id="t", session_id="s", status="ok") is None
    module.HEADROOM = [str(tmp_path / "missing-headroom")]
    assert hooks["transform_terminal_output"](command="x", output=LOG, returncode=1) is None


NUMBERS = "".join(f"{n}\n" for n in range(1, 50001))
# 180,000 tokens of a 200,000-token window: 90 % full. The documented curve (the whole budget
# up to 50 %, linearly less down to a quarter at 95 %) gives 6,000 * (1 - 0.75 * 40 / 45).
FOLLOWED = "Budget 2,000 of 6,000 tokens: the context is 90% full."


def window_config(tmp_path, monkeypatch, window=200_000):
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    path = tmp_path / "config" / "headroom" / "config.toml"
    path.parent.mkdir(parents=True)
    path.write_text(f"[context]\nwindow = {window}\n")


def test_the_budget_follows_the_tokens_hermes_reports_and_the_configured_window(
        tmp_path, monkeypatch):
    event = {"hook": "terminal", "command": "seq 1 50000", "output": NUMBERS, "returncode": 0,
             "context_tokens": 180_000}
    assert FOLLOWED not in reply(event)["output"]  # no window: the fill is unknown
    window_config(tmp_path, monkeypatch)
    assert FOLLOWED in reply(event)["output"]
    assert FOLLOWED in reply({"hook": "tool", "tool_name": "read_file", "args": {},
                              "result": NUMBERS, "context_tokens": 180_000})["output"]
    given = run_hook("hermes", json.dumps(event).encode(),
                     HookOptions(budget=6000, headroom=HEADROOM, budget_given=True))
    assert b"Budget" not in given  # an explicit --budget is left as it is


def test_the_plugin_carries_the_tokens_of_the_last_model_call(tmp_path, monkeypatch):
    """post_api_request(task_id, session_id, usage={…, "total_tokens"}) as hermes 0.19.0
    calls it (agent/conversation_loop.py: the turn's task id, a uuid), then the hooks as
    hermes calls them: the terminal's with the sandbox's task id ("default",
    tools/terminal_tool.py _resolve_container_task_id), another tool's with the turn's."""
    window_config(tmp_path, monkeypatch)
    path = hermes.default_path()
    config.apply(hermes.install(path, HEADROOM), dry_run=False)
    _module, hooks = load_plugin(path)
    terminal, tool = hooks["transform_terminal_output"], hooks["transform_tool_result"]
    assert FOLLOWED not in terminal(command="seq", output=NUMBERS, returncode=0,
                                    task_id="default", env_type="local")
    hooks["post_api_request"](task_id="9f1c", session_id="s1", model="m", usage={
        "prompt_tokens": 179_000, "completion_tokens": 1_000, "total_tokens": 180_000})
    followed = terminal(command="seq", output=NUMBERS, returncode=0, task_id="default",
                        env_type="local")
    assert FOLLOWED in followed
    assert FOLLOWED in tool(tool_name="read_file", args={"path": "n"}, result="n\n" + NUMBERS,
                            task_id="9f1c", session_id="s1", status="ok")
    # The terminal's output is counted in the session of the last model call, not in one
    # "default" shared by every session: another session's identical output is sent whole.
    assert "identical to the output" in terminal(command="seq", output=NUMBERS, returncode=0,
                                                 task_id="default", env_type="local")
    # A second session in the same hermes (its gateway): the terminal's output is sent with no
    # session, and no context use, from then on.
    hooks["post_api_request"](task_id="77ab", session_id="s2", model="m", usage={
        "total_tokens": 180_000})
    hooks["post_api_request"](task_id="9f1c", session_id="s1", model="m", usage={
        "total_tokens": 180_000})
    fresh = terminal(command="seq", output=NUMBERS, returncode=0, task_id="default",
                     env_type="local")
    assert "identical to the output" not in fresh and FOLLOWED not in fresh
    assert FOLLOWED in tool(tool_name="read_file", args={"path": "m"}, result="m\n" + NUMBERS,
                            task_id="9f1c", session_id="s1", status="ok")


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
