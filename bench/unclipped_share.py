#!/usr/bin/env python3
"""What share of a Claude Code default-mode session's shell output headroom leaves unclipped.

Replays the shell commands of real agent sessions (../shared/sessions, via its extract.py)
through the Claude Code hook's own decision (permissions.claude_would_run: would Claude Code
run this command without asking, so the hook may wrap it?) in the default permission mode with
no allow rules — a new user's setup after `headroom init claude` — and sums the output bytes:

- wrapped: commands the hook wraps (their output is clipped when over the budget);
- asked: commands Claude Code would ask about, which stay unwrapped (a successful output over
  the budget is clipped after the fact, by the PostToolUse hook; a failing one reaches the
  model as Claude Code gives it: whole, or its first and last 5,000 characters);

each over all outputs and over the outputs larger than the hook's budget (the ones a clip
would change); of the unwrapped outputs over the budget, the bytes of those that failed (the
exit status the session recorded; a session that records none counts as failed: a floor for
what the hook clips) are what reaches the model unclipped. The sessions' harnesses cut long outputs themselves (mini-SWE-agent: 10,000
characters), so the largest outputs are under-represented: the figure is a floor for the
bytes that matter most, not a ceiling.

    python ../shared/sessions/extract.py ../shared/sessions/raw /tmp/steps.jsonl
    python bench/unclipped_share.py /tmp/steps.jsonl [--budget 6000] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict

from headroom_cli.agents import claude_readonly, permissions
from headroom_cli.defaults import DEFAULT_HOOK_BUDGET
from headroom_cli.tokens import load_counter

# The shell tool of each session source, and the directory its commands ran in (SWE-bench's
# checkout; OpenHands' workspace folder of the task; Claude Code's temporary project).
# SWE-agent's Java sessions use its own editing commands (open, goto, edit): not a shell.
SHELL_TOOLS = {"bash", "execute_bash", "Bash"}
_WORKDIR = re.compile(r"/workspace/[^/\s'\"]+|/tmp/tmp\w+")
SKIPPED_SOURCES = ("multi-swe-bench-sweagent-java",)
# The exit status as each harness records it in the output (mini-SWE-agent, OpenHands).
_STATUS = re.compile(r"<returncode>(-?\d+)</returncode>|\[Command finished with exit code (-?\d+)\]")


def command_of(step: dict) -> str:
    command = step["command"]
    if step.get("tool") == "Bash" and command.startswith("{"):
        return json.loads(command).get("command", "")
    return command


def workdir(step: dict, command: str) -> str:
    found = _WORKDIR.search(command)
    return found.group(0) if found else "/testbed"


def why_unwrapped(command: str) -> str:
    """Why the hook left a command alone: its shape is not judged (substitutions, heredocs,
    groups…), it reads outside the working directory, or Claude Code asks about it."""
    parts = permissions.split(command)
    if parts is None:
        return "unwrapped: shape not judged"
    if all(claude_readonly.read_only(part, ("/",)) for part in parts):
        return "unwrapped: read-only, outside the folder"
    return "unwrapped: asked"


def succeeded(output: str) -> bool:
    """Did the command exit 0, as its session recorded it? (No record: False.)"""
    found = _STATUS.search(output)
    return found is not None and int(found.group(1) or found.group(2)) == 0


def measure(steps: list[dict], budget: int) -> dict:
    counter = load_counter("cl100k_base")
    sums: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
    for step in steps:
        if step.get("tool") not in SHELL_TOOLS or step["source"] in SKIPPED_SOURCES:
            continue
        command = command_of(step)
        output = step.get("output") or ""
        event = {"permission_mode": "default", "cwd": workdir(step, command),
                 "tool_name": "Bash", "tool_input": {"command": command}}
        wrapped = permissions.claude_would_run(command, event, settings_files=[])
        size = len(output.encode())
        over = counter.count(output) > budget
        for source in (step["source"], "all"):
            row = sums[source]
            row["commands"] += 1
            row["bytes"] += size
            row["wrapped_bytes"] += size * wrapped
            row["wrapped_commands"] += wrapped
            row["over_budget_commands"] += over
            row["over_budget_bytes"] += size * over
            row["over_budget_wrapped_bytes"] += size * (over and wrapped)
            row["over_budget_unwrapped_failed_bytes"] += \
                size * (over and not wrapped and not succeeded(output))
            if not wrapped:
                row[why_unwrapped(command)] += size
    return {source: dict(row) for source, row in sums.items()}


def share(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f} %" if whole else "-"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("steps", help="extract.py's JSON lines")
    parser.add_argument("--budget", type=int, default=DEFAULT_HOOK_BUDGET)
    parser.add_argument("--json", help="also write the sums here")
    args = parser.parse_args(argv)
    with open(args.steps, encoding="utf-8") as lines:
        steps = [json.loads(line) for line in lines if line.strip()]
    sums = measure(steps, args.budget)
    print(f"{'source':42} {'commands':>8} {'wrapped':>8} {'bytes unwrapped':>16} "
          f"{'over budget':>11} {'of those unwrapped':>19} {'unclipped (failed)':>19}")
    for source, row in sorted(sums.items(), key=lambda item: item[0] == "all"):
        print(f"{source:42} {row['commands']:8} {row['wrapped_commands']:8} "
              f"{share(row['bytes'] - row['wrapped_bytes'], row['bytes']):>16} "
              f"{row['over_budget_commands']:11} "
              f"{share(row['over_budget_bytes'] - row['over_budget_wrapped_bytes'], row['over_budget_bytes']):>19} "
              f"{share(row['over_budget_unwrapped_failed_bytes'], row['over_budget_bytes']):>19}")
    everything = sums["all"]
    for reason in sorted(key for key in everything if key.startswith("unwrapped: ")):
        print(f"  {reason[len('unwrapped: '):]:40} {share(everything[reason], everything['bytes']):>8}"
              " of all bytes")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as out:
            json.dump(sums, out, indent=1, sort_keys=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
