"""A PreToolUse hook for the tests that asks, with headroom's own wrapper as `updatedInput`:
what headroom would answer if it wrapped the commands Claude Code asks about."""

import json
import sys

from headroom_cli.agents import HookOptions, claude, shell

event = json.load(sys.stdin)
command = event.get("tool_input", {}).get("command", "")
if event.get("tool_name") == "Bash" and shell.reason_not_to_wrap(command) is None:
    wrapped = shell.wrap_checked(command, claude.filter_argv(HookOptions(), event, command))
    print(json.dumps({"hookSpecificOutput": {
        "hookEventName": "PreToolUse", "permissionDecision": "ask",
        "permissionDecisionReason": "headroom: output clipped to the token budget",
        "updatedInput": dict(event["tool_input"], command=wrapped)}}))
