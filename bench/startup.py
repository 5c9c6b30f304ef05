"""Target 1: start-up on the hot path, as ratios to a bare `python3 -c pass` in the same run.

headroom runs on every agent tool call, so what a single small call costs is the figure agents
feel. Each case is one command headroom runs on that path (output that fits, a small clip, the
Claude Code hook's decision before every Bash command, the hook's filter after it), timed
in-process and interleaved with the reference, so a change in the machine's load touches all
alike. Each case's output is checked once, untimed, first: a fast run that does the wrong thing
(no clip, no hook reply) fails whatever its time.
"""

from __future__ import annotations

import json
import shutil
import statistics
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from harness import quick_times
from inputs import MB, input_file, small_file

MARKER = "[…headroom:"
# The targets of issues #13 and #24, as ratios of CPU time (user + system) to the reference's:
# CPU time is what a loaded machine disturbs least (wall is printed beside it).
FITS_RATIO = 2.0  # output that fits the budget passes straight through
CLIP_20KB_RATIO = 10.0  # a 20 KB output clipped to the default budget
CLIP_1MB_RATIO = 15.0  # a 1 MB output clipped to the default budget
HOOK_DECISION_RATIO = 3.5  # `headroom hook claude` on a PreToolUse payload
HOOK_FILTER_RATIO = 4.0  # the hook's filter on a small output (fits: nothing to clip)
# The filter the Claude Code hook wraps a command with (agents/claude.py), minus `--input FILE`:
# the output comes on stdin here, so that no file has to be made again before every run.
HOOK_FILTER = ["hook", "filter", "--budget", "6000", "--max-bytes", "28000",
               "--max-failure-bytes", "10000", "--tool", "Bash", "--exit-status", "0"]


@dataclass(frozen=True)
class Case:
    label: str
    cmd: list[str]
    stdin: Path | None
    limit: float | None  # ratio to the reference; None: the reference itself
    check: Callable[[bytes], str] = lambda out: ""  # what is wrong with the output, or ""


def startup(bench) -> None:
    runs = bench.mode.startup_runs
    bench.report.section(
        f"Target 1 — start-up on the hot path: CPU time (user + system, from wait4) as a ratio "
        f"to a bare `python3 -c pass`'s (median of {runs} interleaved runs; wall, timed "
        "in-process, beside it: a loaded machine disturbs it more)", "median ms", "ratio",
        "CPU ms", "CPU ratio")
    cases = _cases(bench)
    # The hook's decision makes an output file per run (in a private TMPDIR, removed after) and
    # reads Claude Code's user settings (a private, empty CLAUDE_CONFIG_DIR).
    env = dict(bench.ws.env(), TMPDIR=str(_tmp(bench)),
               CLAUDE_CONFIG_DIR=str(bench.ws.out / "claude-config"))
    wrong = {case.label: _wrong_output(case, env) for case in cases}
    walls: dict[str, list[float]] = {case.label: [] for case in cases}
    cpus: dict[str, list[float]] = {case.label: [] for case in cases}
    for _ in range(runs):
        for case in cases:
            if not wrong[case.label]:
                wall, cpu = quick_times(case.cmd, case.stdin, env)
                walls[case.label].append(wall)
                cpus[case.label].append(cpu)
    shutil.rmtree(_tmp(bench), ignore_errors=True)  # the hook's decision leaves output files
    reference, *measured = cases
    base = statistics.median(walls[reference.label])
    base_cpu = statistics.median(cpus[reference.label])
    bench.report.row(reference.label, f"{base * 1000:.1f}", "1.00", f"{base_cpu * 1000:.1f}",
                     "1.00")
    for case in measured:
        median = statistics.median(walls[case.label]) if walls[case.label] else 0.0
        cpu = statistics.median(cpus[case.label]) if cpus[case.label] else 0.0
        ratio = cpu / base_cpu
        bench.report.judged(1, case.label, [f"{median * 1000:.1f}", f"{median / base:.2f}",
                                            f"{cpu * 1000:.1f}", f"{ratio:.2f}"],
                            figure=f"{ratio:.2f} × CPU", limit=f"≤ {case.limit:g} ×",
                            passed=ratio <= case.limit and not wrong[case.label],
                            note=wrong[case.label])
        if not wrong[case.label]:
            bench.report.figure(f"start-up: {case.label} (CPU × python)", ratio,
                                higher_is_better=False)


def _cases(bench) -> list[Case]:
    out = bench.ws.out
    log = input_file(out, "log", MB).read_bytes()
    small_output = _whole_lines(log, 1000)
    clip_input = _whole_lines(log, 20_000)
    return [
        Case("python3 -c pass (same interpreter)", [sys.executable, "-c", "pass"], None, None),
        Case("echo hi | headroom", bench.headroom(), small_file(out, "hi.txt", "hi\n"),
             FITS_RATIO, _unchanged(b"hi\n")),
        Case("3 KB | headroom --budget 4000", bench.headroom("--budget", "4000"),
             small_file(out, "3KB.txt", _whole_lines(log, 3000)), FITS_RATIO,
             _unchanged(_whole_lines(log, 3000))),
        Case(f"{len(clip_input) / 1000:.0f} KB log | headroom (clipped)", bench.headroom(),
             small_file(out, "20KB.txt", clip_input), CLIP_20KB_RATIO, _clipped),
        Case(f"{len(log) / MB:.0f} MB log | headroom (clipped)", bench.headroom(),
             input_file(out, "log", MB), CLIP_1MB_RATIO, _clipped),
        Case("headroom hook claude (PreToolUse, Bash)", bench.headroom("hook", "claude"),
             _pre_tool_use(bench), HOOK_DECISION_RATIO, _wrapped),
        Case(f"{len(small_output)} B | headroom hook filter", bench.headroom(*HOOK_FILTER),
             small_file(out, "1KB.txt", small_output), HOOK_FILTER_RATIO,
             _unchanged(small_output)),
    ]


def _pre_tool_use(bench) -> Path:
    """What Claude Code sends before a Bash command it would run unasked (a read-only one in
    the project), with a project of its own holding typical permission rules."""
    project = bench.ws.out / "claude-project"
    (project / ".claude").mkdir(parents=True, exist_ok=True)
    (project / ".claude" / "settings.json").write_text(json.dumps({"permissions": {
        "allow": ["Bash(npm test:*)", "Bash(npm run lint)", "Read(./**)"],
        "deny": ["Bash(curl:*)", "Read(./.env)"]}}))
    event = {"session_id": "3f1c9a52-7d4e-4b8a-9e0f-5a6b7c8d9e01",
             "transcript_path": str(project / "transcript.jsonl"), "cwd": str(project),
             "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
             "tool_input": {"command": "git log --oneline -20 && grep -rn TODO src",
                            "description": "Recent commits and open TODOs"},
             "tool_use_id": "toolu_01ABCDEFGHJKLMNPQRSTUVWX"}
    return small_file(bench.ws.out, "pre-tool-use.json", json.dumps(event))


def _wrong_output(case: Case, env: dict) -> str:
    with open(case.stdin or "/dev/null", "rb") as source:
        done = subprocess.run(case.cmd, stdin=source, capture_output=True, env=env)
    if done.returncode:
        return f"exit {done.returncode}: {done.stderr.decode(errors='replace').strip()[-100:]}"
    return case.check(done.stdout)


def _unchanged(expected: bytes) -> Callable[[bytes], str]:
    return lambda out: "" if out == expected else "output differs from its input"


def _clipped(out: bytes) -> str:
    return "" if MARKER.encode() in out else "no marker: it was not clipped"


def _wrapped(out: bytes) -> str:
    try:
        reply = json.loads(out)["hookSpecificOutput"]
        return "" if "hook filter" in reply["updatedInput"]["command"] else "not wrapped"
    except (ValueError, KeyError, TypeError):
        return "no PreToolUse reply wrapping the command"


def _whole_lines(data: bytes, size: int) -> bytes:
    return data[:data.rindex(b"\n", 0, size) + 1]


def _tmp(bench) -> Path:
    path = bench.ws.out / "tmp"
    path.mkdir(parents=True, exist_ok=True)
    return path
