"""`headroom hook pi` against the `tool_result` events pi 0.73.1 fires (docs/extensions.md:
toolName, input, content, details, isError; dist/core/tools/bash.js: the last 2,000 lines /
50 KB are kept, the whole output is in details.fullOutputPath, and a failing command's result
is the text, pi's note and "Command exited with code N")."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from headroom_cli.agents import HookOptions, run_hook

HEADROOM = [sys.executable, "-m", "headroom_cli"]
LOG = "".join(f"ok {i} - test {i}\n" for i in range(1, 6001)) + "not ok 6001 - the last one\n"


@pytest.fixture(autouse=True)
def private(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("HEADROOM_STORE", str(tmp_path / "store"))


def ask(text, tool="bash", details=None, is_error=False, content=None) -> dict:
    event = {"toolName": tool, "input": {"command": "npm test"},
             "content": content if content is not None else [{"type": "text", "text": text}],
             "details": details, "isError": is_error}
    return json.loads(run_hook("pi", json.dumps(event).encode(), HookOptions()))


def text_of(reply: dict) -> str:
    assert [block["type"] for block in reply["content"]] == ["text"]
    return reply["content"][0]["text"]


def tail_view(full_path) -> str:
    lines = LOG.splitlines(keepends=True)
    return "".join(lines[-2000:]) + (f"\n\n[Showing lines {len(lines) - 1999}-{len(lines)} of "
                                     f"{len(lines)}. Full output: {full_path}]")


def test_a_successful_cut_output_is_read_whole_and_clipped(tmp_path):
    full = tmp_path / "pi-bash-1.log"
    full.write_text(LOG)
    out = text_of(ask(tail_view(full), details={"truncation": {"truncated": True},
                                                "fullOutputPath": str(full)}))
    assert out.startswith("ok 1 - test 1\n")  # the head pi had dropped
    assert out.rstrip().endswith("not ok 6001 - the last one")
    assert "headroom:" in out and "Full output:" not in out


def test_a_failing_command_keeps_pis_status_line_and_the_marker_says_it(tmp_path):
    full = tmp_path / "pi-bash-2.log"
    full.write_text(LOG)
    text = tail_view(full) + "\n\nCommand exited with code 1"
    out = text_of(ask(text, details={}, is_error=True))  # the path is only in pi's note
    assert out.endswith("not ok 6001 - the last one\n\n\nCommand exited with code 1")
    assert "The command exited with status 1." in out and out.startswith("ok 1 - test 1")


def test_a_failing_command_without_its_file_is_clipped_from_the_text():
    out = text_of(ask(LOG + "\n\nCommand exited with code 2", details=None, is_error=True))
    assert out.endswith("\n\nCommand exited with code 2")
    assert "The command exited with status 2." in out


def test_a_timeout_keeps_pis_note():
    out = text_of(ask(LOG + "\n\nCommand timed out after 30 seconds", is_error=True))
    assert out.endswith("\n\nCommand timed out after 30 seconds") and "headroom:" in out


def test_results_that_fit_are_left_alone():
    assert ask("3 passed") == {}
    assert ask("(no output)") == {}
    assert ask("Command exited with code 1", is_error=True) == {}


def test_read_results_are_clipped():
    out = text_of(ask("".join(f"line {i}\n" for i in range(20000)), tool="read"))
    assert "headroom:" in out


@pytest.mark.parametrize("content", [
    [{"type": "image", "data": "iVBOR", "mimeType": "image/png"}],
    [{"type": "text", "text": LOG}, {"type": "image", "data": "x", "mimeType": "image/png"}],
    [], "not a list"])
def test_non_text_results_are_left_alone(content):
    assert ask("", content=content) == {}


@pytest.mark.parametrize("tool", ["edit", "write", "my_custom_tool"])
def test_other_tools_are_left_alone(tool):
    assert ask(LOG, tool=tool) == {}


@pytest.mark.parametrize("data", [b"", b"{{", b"\xc3\x28", b"null", b'{"toolName": "bash"}'])
def test_malformed_payloads_fail_open(data):
    done = subprocess.run([*HEADROOM, "hook", "pi"], input=data, capture_output=True,
                          timeout=120, env=dict(os.environ))
    assert done.returncode == 0 and json.loads(done.stdout) == {}


def test_undecodable_bytes_in_pis_file_become_replacement_characters(tmp_path):
    full = tmp_path / "pi-bash-3.log"
    full.write_bytes(b"\xff\xfe start\n" + LOG.encode())
    out = text_of(ask(tail_view(full), details={"fullOutputPath": str(full)}))
    assert out.startswith("\ufffd\ufffd start\n")
    json.dumps(out).encode("utf-8")  # valid Unicode: no lone surrogates
