"""Qwen Code, end to end, for why `headroom init qwen` refuses: the real CLI (`qwen -p`,
yolo) against a scripted Chat-Completions model (OPENAI_BASE_URL) on 127.0.0.1 inside
`unshare -n`, with a PreToolUse hook that answers the way Claude Code's, Codex's and Droid's
take a rewrite: `hookSpecificOutput.updatedInput`. Qwen Code 0.24.4 runs the hook, with this
payload (captured):

    {"session_id":"cc12e38f-…","transcript_path":"…/chats/cc12e38f-….jsonl","cwd":"…/proj",
     "hook_event_name":"PreToolUse","timestamp":"2026-11-26T19:34:21.150Z",
     "permission_mode":"yolo","prompt_id":"cc12e38f-…########0",
     "tool_name":"run_shell_command","tool_input":{"command":"echo hello-from-qwen"},
     "tool_use_id":"toolu_…","tool_call_id":"call_e2e_0"}

and then runs the command as the model wrote it. When this test fails, Qwen Code applies a
hook's rewrite: `headroom init qwen` can then wrap commands as it does for Gemini CLI.
"""

from __future__ import annotations

import json
import stat

import pytest

from harness import e2e_home, run_agent  # noqa: F401 - e2e_home is a fixture

pytestmark = pytest.mark.e2e
REWRITE = {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                  "updatedInput": {"command": "echo rewritten-by-the-hook"}}}


def test_qwen_runs_the_hook_but_not_its_rewrite(e2e_home):
    work, env = e2e_home
    seen = work / "payload.json"
    script = work / "rewrite.sh"
    script.write_text(f"#!/bin/sh\ncat > {seen}\nprintf '%s' '{json.dumps(REWRITE)}'\n")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    settings = work / "home" / ".qwen" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"hooks": {"PreToolUse": [
        {"matcher": "run_shell_command", "hooks": [{"type": "command", "command": str(script)}]}
    ]}}))
    run = run_agent("qwen", ["echo as-the-model-wrote-it"], work, env)
    payload = json.loads(seen.read_text())
    assert payload["hook_event_name"] == "PreToolUse"
    assert payload["tool_input"] == {"command": "echo as-the-model-wrote-it"}
    text = run.tool_results[0]["text"]
    assert "Output: as-the-model-wrote-it" in text and "rewritten" not in text
