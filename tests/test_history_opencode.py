"""`headroom init opencode --history` and `headroom hook opencode-history`: opencode's
`experimental.chat.messages.transform` (the request's copy of the session, mutated in place;
opencode 1.18.33) ages old tool results through headroom."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from headroom_cli.agents import HookOptions, run_hook

HEADROOM = [sys.executable, "-m", "headroom_cli"]
CASES = Path(__file__).parent / "cases"
LOG = (CASES / "make-lua-link-error" / "input").read_text()
GREP = (CASES / "grep-rn-express-req" / "input").read_text()


@pytest.fixture(autouse=True)
def private(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("HEADROOM_STORE", str(tmp_path / "store"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))


def ask(results: list[tuple[str, str, str]], **options) -> dict:
    payload = {"results": [{"id": id_, "tool": tool, "output": output}
                           for id_, tool, output in results],
               "keep_recent": 3, "budget": 300, **options}
    return json.loads(run_hook("opencode-history", json.dumps(payload).encode(),
                               HookOptions()) or b"{}")


def test_results_older_than_the_last_three_come_back_aged_with_their_stored_copy(tmp_path):
    results = [("c1", "bash", LOG), ("c2", "grep", GREP), ("c3", "bash", LOG[:4000]),
               ("c4", "read", GREP), ("c5", "bash", "ok")]
    outputs = ask(results)["outputs"]
    assert sorted(outputs) == ["c1", "c2"]  # c3 is among the last three
    for id_, original in (("c1", LOG), ("c2", GREP)):
        aged = outputs[id_]
        assert len(aged) < len(original) // 2
        stored = re.search(r"headroom show ([0-9a-f]{12})", aged).group(1)
        assert (tmp_path / "store" / stored).read_text() == original
    # The grep keeps a search map, the build log its error line: the planners of their tools.
    assert "make: *** [makefile:125: lua] Error 1" in outputs["c1"]
    assert "lib/request.js (38 matches" in outputs["c2"]  # named with its count


def test_the_plugin_resends_aged_text_and_nothing_is_planned_twice():
    first = ask([("c1", "bash", LOG), ("c2", "bash", "ok"), ("c3", "bash", "ok"),
                 ("c4", "bash", "ok")])["outputs"]
    # Next request: the plugin sends the aged text it kept for c1; only c2 left the window.
    later = ask([("c1", "bash", first["c1"]), ("c2", "bash", GREP), ("c3", "bash", "ok"),
                 ("c4", "bash", "ok"), ("c5", "bash", "ok")])["outputs"]
    assert list(later) == ["c2"]
    # Ageing is a function of the result alone: the same input, the same bytes.
    again = ask([("c1", "bash", LOG), ("c2", "bash", "ok"), ("c3", "bash", "ok"),
                 ("c4", "bash", "ok")])["outputs"]
    assert again == first


def test_nothing_to_age_and_bad_payloads_leave_the_request_alone():
    assert ask([("c1", "bash", LOG), ("c2", "bash", "ok")]) == {}
    assert ask([("c1", "bash", "ok")] * 5) == {}  # small results are never aged
    assert run_hook("opencode-history", b"not json", HookOptions()) == b""  # fails open
    assert run_hook("opencode-history", b'{"results": 3}', HookOptions()) == b"{}"
    odd = ask([("c1", "bash", LOG), ("c2", "bash", "ok"), ("c3", "bash", "ok"),
               ("c4", "bash", "ok")], keep_recent="3", budget=None)  # defaults apply
    assert list(odd["outputs"]) == ["c1"]
    mixed = json.dumps({"results": [{"id": 1, "output": LOG}, "x", None]}).encode()
    assert run_hook("opencode-history", mixed, HookOptions()) == b"{}"


def test_init_writes_the_plugin_beside_the_clipping_one_and_uninstall_removes_it(tmp_path):
    plugin = tmp_path / "config" / "opencode" / "plugins" / "headroom-history.js"
    done = subprocess.run([*HEADROOM, "init", "opencode", "--history"], capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr
    source = plugin.read_text()
    assert '"experimental.chat.messages.transform"' in source
    assert 'askHeadroom("opencode-history"' in source
    assert not (plugin.parent / "headroom.js").exists()
    clipping = subprocess.run([*HEADROOM, "init", "opencode"], capture_output=True, text=True)
    assert clipping.returncode == 0 and (plugin.parent / "headroom.js").exists()
    assert plugin.read_text() == source
    gone = subprocess.run([*HEADROOM, "init", "opencode", "--history", "--uninstall"],
                          capture_output=True, text=True)
    assert gone.returncode == 0 and not plugin.exists()
    assert (plugin.parent / "headroom.js").exists()


def test_the_plugin_is_valid_javascript(tmp_path):
    node = subprocess.run(["node", "--version"], capture_output=True)
    if node.returncode:
        pytest.skip("node is not installed")
    subprocess.run([*HEADROOM, "init", "opencode", "--history"], check=True,
                   capture_output=True)
    plugin = tmp_path / "config" / "opencode" / "plugins" / "headroom-history.js"
    checked = subprocess.run(["node", "--check", str(plugin)], capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
