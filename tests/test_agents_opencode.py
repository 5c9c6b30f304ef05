"""`headroom hook opencode` and the opencode plugin, against the `tool.execute.after` arguments
opencode 1.18.33 passes (@opencode-ai/plugin types: input {tool, sessionID, callID, args},
output {title, output, metadata}; bash metadata {output, exit, truncated, outputPath})."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from headroom_cli.agents import HookOptions, opencode, run_hook

HEADROOM = [sys.executable, "-m", "headroom_cli"]
LOG = "".join(f"PASS test_{i}\n" for i in range(1, 5001)) + "FAIL test_5001: expected 1, got 2\n"


@pytest.fixture(autouse=True)
def private(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("HEADROOM_STORE", str(tmp_path / "store"))


def ask(tool="bash", output=LOG, metadata=None, args=None) -> dict:
    event = {"tool": tool, "args": args or {"command": "npm test"}, "output": output,
             "metadata": metadata if metadata is not None else {"exit": 1, "truncated": False}}
    return json.loads(run_hook("opencode", json.dumps(event).encode(), HookOptions()))


def test_a_huge_failing_bash_output_is_clipped_with_its_status():
    out = ask()["output"]
    assert "The command exited with status 1." in out
    assert out.rstrip().endswith("FAIL test_5001: expected 1, got 2")
    assert len(out) < len(LOG) / 3


def test_a_cut_output_is_read_whole_from_opencodes_file(tmp_path):
    full = tmp_path / "tool_0001"
    full.write_text("FIRST LINE of the whole output\n" + LOG)
    shown = "...output truncated...\n\nFull output saved to: %s\n\n" % full + LOG[-2000:]
    out = ask(output=shown, metadata={"exit": 0, "truncated": True,
                                      "outputPath": str(full)})["output"]
    assert out.startswith("FIRST LINE of the whole output")  # the head opencode had dropped
    assert "headroom:" in out and "exited with status" not in out


def test_opencodes_timeout_note_stays_after_the_clip():
    note = ("\n\n<shell_metadata>\nshell tool terminated command after exceeding timeout "
            "120000 ms.\n</shell_metadata>")
    out = ask(output=LOG + note, metadata={"exit": None, "truncated": False})["output"]
    assert out.endswith(note) and "headroom:" in out


def test_output_that_fits_is_left_alone():
    assert ask(output="3 passed\n", metadata={"exit": 0}) == {}
    assert ask(output="(no output)", metadata={"exit": 0}) == {}


def test_read_and_grep_results_are_clipped_with_their_tools_hints():
    numbered = "".join(f"{i}: line {i} of a big file\n" for i in range(1, 4001))
    out = ask("read", f"<path>/p/big.txt</path>\n<content>\n{numbered}</content>", {},
              {"filePath": "/p/big.txt"})["output"]
    assert out.startswith("<path>/p/big.txt</path>") and "headroom:" in out
    hits = "Found 3000 matches\n" + "".join(f"/p/src/f{i % 40}.ts:\n  Line {i}: const x{i} = 1\n"
                                             for i in range(3000))
    assert "headroom:" in ask("grep", hits, {}, {"pattern": "const"})["output"]


@pytest.mark.parametrize("tool", ["edit", "write", "task", "webfetch"])
def test_other_tools_are_left_alone(tool):
    assert ask(tool, LOG, {}) == {}


@pytest.mark.parametrize("data", [b"", b"{", b"\xff\xfe", b"[]", b'{"tool": "bash"}',
                                  b'{"tool": "bash", "output": 42}'])
def test_malformed_payloads_fail_open(data):
    done = subprocess.run([*HEADROOM, "hook", "opencode"], input=data, capture_output=True,
                          timeout=120, env=dict(os.environ))
    assert done.returncode == 0 and json.loads(done.stdout) == {}


def test_undecodable_bytes_in_opencodes_file_become_replacement_characters(tmp_path):
    full = tmp_path / "tool_0002"
    full.write_bytes(b"caf\xe9\n" + LOG.encode())
    out = ask(output=LOG[-500:], metadata={"exit": 0, "truncated": True,
                                           "outputPath": str(full)})["output"]
    assert out.startswith("caf\ufffd\n")


# --- the plugin itself, run by node as opencode would run it --------------------------------

NODE_DRIVER = """
const plugin = await import(process.argv[2]);
const hooks = await plugin.HeadroomPlugin({});
const output = {title: "npm test", output: process.argv[3], metadata: {exit: 1}};
await hooks["tool.execute.after"]({tool: "bash", sessionID: "s", callID: "c", args: {}}, output);
process.stdout.write(output.output);
"""


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
@pytest.mark.parametrize("works", [True, False])
def test_the_plugin_replaces_the_output_or_leaves_it(tmp_path, works):
    headroom = HEADROOM if works else ["/nonexistent/headroom"]
    plugin = tmp_path / "headroom.mjs"
    plugin.write_bytes(opencode.plugin_source(headroom))
    driver = tmp_path / "driver.mjs"
    driver.write_text(NODE_DRIVER)
    big = LOG[:60_000]
    done = subprocess.run(["node", str(driver), plugin.as_uri(), big], capture_output=True,
                          timeout=120, env=dict(os.environ))
    assert done.returncode == 0, done.stderr
    out = done.stdout.decode()
    if works:
        assert "headroom:" in out and len(out) < len(big)
    else:
        assert out == big
