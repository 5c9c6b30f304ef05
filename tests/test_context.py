"""A budget that follows the context: how full an agent's context is (a Claude Code transcript's
last usage, pi's getContextUsage), the curve, and the Claude Code hook end to end.

Transcripts are built from real lines of one Claude Code 2.1.330 wrote in an end-to-end run
(tests/agents/claude_transcript.jsonl: its user, assistant and bookkeeping lines as written;
the lines that carry Claude Code's own prompts left out), with the usage of its replies set by
each test. Every expected budget is worked out here from the documented curve — the whole
budget up to 50 % full, linearly less down to a quarter at 95 %, a quarter beyond — never by
calling the code under test.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from headroom_cli import context
from headroom_cli.agents import HookOptions, run_hook

HEADROOM = [sys.executable, "-m", "headroom_cli"]
REAL = (Path(__file__).parent / "agents" / "claude_transcript.jsonl").read_text().splitlines()
HOOK_BUDGET = 6000  # `headroom hook claude` with no --budget (README: "Hooks clip to 6,000")


def usage(tokens: int, *, cached: bool = True) -> dict:
    """A usage block as Claude Code writes it, summing to `tokens`: mostly read from the cache,
    a little written to it, a few new input tokens and the reply (as a long session's is)."""
    if not cached:
        return {"input_tokens": tokens - 5, "cache_creation_input_tokens": 0,
                "cache_read_input_tokens": 0, "output_tokens": 5}
    output, created, fresh = 300, 1200, 3
    return {"input_tokens": fresh, "cache_creation_input_tokens": created,
            "cache_read_input_tokens": tokens - output - created - fresh,
            "output_tokens": output, "output_tokens_details": {"thinking_tokens": 0},
            "server_tool_use": {"web_search_requests": 0, "web_fetch_requests": 0},
            "service_tier": "standard", "cache_creation": {"ephemeral_1h_input_tokens": 0,
                                                           "ephemeral_5m_input_tokens": created}}


def transcript(path: Path, last: int | None, *, model: str = "claude-sonnet-4-5-20250929",
               earlier: int = 50_000, extra: list[dict] = (), head: bytes = b"") -> Path:
    """The real transcript with every reply's model set to `model`, the last reply's usage
    summing to `last` (None: the replies keep the e2e run's) and the earlier ones' to
    `earlier`; `extra` lines after it, `head` bytes before it all."""
    lines = [json.loads(line) for line in REAL]
    replies = [i for i, entry in enumerate(lines) if entry["type"] == "assistant"]
    for i in replies:
        lines[i]["message"]["model"] = model
        if last is not None:
            lines[i]["message"]["usage"] = usage(last if i == replies[-1] else earlier)
    text = "".join(json.dumps(entry, separators=(",", ":")) + "\n" for entry in lines + list(extra))
    path.write_bytes(head + text.encode())
    return path


# ------------------------------------------------------------------- reading the transcript

def test_the_last_reply_s_usage_is_the_context(tmp_path):
    path = transcript(tmp_path / "t.jsonl", 180_000)
    assert context.last_usage(str(path)) == (180_000, "claude-sonnet-4-5-20250929")


def test_the_real_transcript_as_written_is_read():
    """The e2e run's own replies: 10 input tokens and 5 output, no cache."""
    path = Path(__file__).parent / "agents" / "claude_transcript.jsonl"
    assert context.last_usage(str(path)) == (15, "claude-opus-5-5")


def test_every_part_of_the_usage_counts(tmp_path):
    path = transcript(tmp_path / "t.jsonl", 1)
    lines = path.read_text().splitlines()
    last = max(i for i, line in enumerate(lines) if '"type":"assistant"' in line)
    entry = json.loads(lines[last])
    entry["message"]["usage"] = {"input_tokens": 1, "cache_creation_input_tokens": 20,
                                 "cache_read_input_tokens": 300, "output_tokens": 4000}
    lines[last] = json.dumps(entry)
    path.write_text("\n".join(lines) + "\n")
    assert context.last_usage(str(path))[0] == 4321


def test_a_subagent_s_lines_and_claude_code_s_own_replies_are_not_the_context(tmp_path):
    """Sidechain replies (a subagent's context) and `<synthetic>` ones (an error Claude Code
    wrote itself, with zero usage) are passed over for the session's own last reply."""
    base = json.loads(next(line for line in REAL if '"type":"assistant"' in line))
    side = dict(base, isSidechain=True, message=dict(base["message"], usage=usage(190_000)))
    synthetic = dict(base, message=dict(base["message"], model="<synthetic>",
                                        usage=usage(10, cached=False)))
    path = transcript(tmp_path / "t.jsonl", 120_000, extra=[side, synthetic])
    assert context.last_usage(str(path))[0] == 120_000
    # In a subagent's own file every line is a sidechain: those are the ones read.
    assert context.last_usage(str(path), sidechain=True)[0] == 190_000


def test_after_a_compaction_the_fill_is_unknown_until_the_next_reply(tmp_path):
    boundary = {"type": "system", "subtype": "compact_boundary",
                "content": "Conversation compacted", "isMeta": False, "level": "info",
                "compactMetadata": {"trigger": "auto", "preTokens": 170_000}}
    path = transcript(tmp_path / "t.jsonl", 170_000, extra=[boundary])
    assert context.last_usage(str(path)) is None
    reply = json.loads(next(line for line in REAL if '"type":"assistant"' in line))
    reply["message"]["usage"] = usage(30_000)
    path = transcript(tmp_path / "t2.jsonl", 170_000, extra=[boundary, reply])
    assert context.last_usage(str(path))[0] == 30_000


@pytest.mark.parametrize("content", [
    None,  # no file
    b"",
    b"\x00\xff garbage \xfe\n" * 1000,
    b'{"type":"assistant","message":{"usage":{"input_tokens":"many"}}}\n',
    b'{"type":"assistant","message":{"usage":{"input_tokens":-5,"output_tokens":1}}}\n',
    b'{"type":"assistant","message":{"model":"claude-sonnet-4-5","usage":{"input_tok',  # cut
    b"[1, 2, 3]\n",
])
def test_a_missing_or_garbled_transcript_says_nothing(tmp_path, content):
    path = tmp_path / "t.jsonl"
    if content is not None:
        path.write_bytes(content)
    assert context.last_usage(str(path)) is None
    assert context.last_usage(str(tmp_path)) is None  # a directory
    assert context.last_usage(None) is None and context.last_usage("") is None


def test_only_the_end_of_a_huge_transcript_is_read(tmp_path, monkeypatch):
    """A 4 GB transcript (sparse: its first 4 GB are a hole) with its last reply at the end:
    found, reading at most TAIL_BYTES; a reply further back than that is not looked for."""
    read = []

    def counting_open(path, mode="r", *args, **kwargs):
        stream = open(path, mode, *args, **kwargs)
        real_read = stream.read

        def counted(size=-1):
            data = real_read(size)
            read.append(len(data))
            return data

        stream.read = counted
        return stream

    monkeypatch.setattr(context, "open", counting_open, raising=False)
    path = tmp_path / "huge.jsonl"
    with open(path, "wb") as stream:
        stream.truncate(4 << 30)
    tail = transcript(tmp_path / "tail.jsonl", 150_000).read_bytes()
    with open(path, "ab") as stream:
        stream.write(b"\n" + tail)
    assert context.last_usage(str(path))[0] == 150_000
    assert 0 < sum(read) <= context.TAIL_BYTES

    read.clear()
    filler = json.dumps({"type": "attachment", "content": "x" * (context.TAIL_BYTES + 10)})
    with open(path, "ab") as stream:
        stream.write(filler.encode() + b"\n")
    assert context.last_usage(str(path)) is None
    assert sum(read) <= context.TAIL_BYTES


def test_a_subagent_call_reads_the_subagent_s_transcript(tmp_path):
    """A subagent's PreToolUse names the session's transcript and its `agent_id`; its own
    transcript is <session>/subagents/agent-ID.jsonl beside it (Claude Code 2.1.330)."""
    main = transcript(tmp_path / "s1.jsonl", 180_000)
    own = tmp_path / "s1" / "subagents"
    own.mkdir(parents=True)
    side = [dict(json.loads(line), isSidechain=True) for line in REAL]
    for entry in side:
        if entry["type"] == "assistant":
            entry["message"]["model"] = "claude-sonnet-4-5-20250929"
            entry["message"]["usage"] = usage(20_000)
    (own / "agent-a7f.jsonl").write_text("".join(json.dumps(e) + "\n" for e in side))
    event = {"session_id": "s1", "transcript_path": str(main)}
    assert context.claude_fill(event) == (180_000, 200_000)
    assert context.claude_fill(dict(event, agent_id="a7f")) == (20_000, 200_000)
    assert context.claude_fill(dict(event, agent_id="gone")) is None
    assert context.claude_fill(dict(event, agent_id="../x")) is None


@pytest.mark.parametrize("model, window", [
    # Claude Code 2.1.330's model table (its `context.window`), as transcripts name them.
    ("claude-sonnet-4-5-20250929", 200_000),
    ("claude-sonnet-4-20250514", 200_000),
    ("claude-opus-4-1-20250805", 200_000),
    ("claude-haiku-4-5-20251001", 200_000),
    ("claude-opus-5-5", 1_000_000),
    ("claude-sonnet-5", 1_000_000),
    ("claude-opus-4-7", 1_000_000),
    ("us.anthropic.claude-sonnet-4-5-20250929-v1:0", 200_000),  # Bedrock
    ("claude-sonnet-4-5@20250929", 200_000),  # Vertex
    ("claude-sonnet-4-5[1m]", 1_000_000),
    ("claude-3-5-haiku-20241022", 200_000),
    ("claude-opus-9", None),  # a model this table does not know
    ("gpt-5", None),
    ("", None),
    (None, None),
])
def test_the_window_follows_the_model(model, window):
    assert context.claude_window(model) == window


# --------------------------------------------------------------------------------- the curve

CURVE = ((0.5, 1.0), (0.95, 0.25))


@pytest.mark.parametrize("tokens, window, budget", [
    (0, 200_000, 6000),
    (100_000, 200_000, 6000),  # half full: the whole budget
    (145_000, 200_000, 3750),  # 72.5 %: halfway down, 1 - 0.75 * 0.5 = 0.625
    (180_000, 200_000, 2000),  # 90 %: 1 - 0.75 * 0.4 / 0.45 = 1/3
    (190_000, 200_000, 1500),  # 95 %: a quarter
    (200_000, 200_000, 1500),
    (900_000, 1_000_000, 2000),
])
def test_the_budget_follows_the_documented_curve(tokens, window, budget):
    followed = context.follow(HOOK_BUDGET, tokens, window, CURVE)
    assert followed.budget == budget and followed.base == HOOK_BUDGET
    assert followed.percent == tokens * 100 // window
    assert followed.shrunk == (budget < HOOK_BUDGET)


@pytest.mark.parametrize("tokens, window", [(None, 200_000), (10, None), (10, 0),
                                            (250_000, 200_000)])  # more than the window holds
def test_an_unknown_fill_changes_nothing(tokens, window):
    assert context.follow(HOOK_BUDGET, tokens, window, CURVE) is None


def test_a_curve_of_more_points():
    curve = ((0.2, 1.0), (0.6, 0.5), (0.8, 0.1))
    assert context.follow(1000, 40, 100, curve).budget == 750  # halfway 0.2 → 0.6
    assert context.follow(1000, 70, 100, curve).budget == 300  # halfway 0.6 → 0.8
    assert context.follow(1000, 99, 100, curve).budget == 100


# ------------------------------------------------------------ the Claude Code hook, end to end

@pytest.fixture
def home(tmp_path, monkeypatch):
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    for name in [n for n in os.environ if n.startswith(("HEADROOM_", "CLAUDE_"))]:
        monkeypatch.delenv(name)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("HEADROOM_STORE", str(tmp_path / "store"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)
    return tmp_path


def pre_tool_use(path: Path, command: str = "seq 1 50000", session: str = "s-90") -> bytes:
    return json.dumps({
        "session_id": session, "transcript_path": str(path), "cwd": str(path.parent),
        "permission_mode": "bypassPermissions", "hook_event_name": "PreToolUse",
        "tool_name": "Bash", "tool_input": {"command": command, "description": "numbers"},
        "tool_use_id": "toolu_01"}).encode()


def wrapped(payload: bytes, **options) -> str:
    reply = json.loads(run_hook("claude", payload, HookOptions(headroom=HEADROOM, **options)))
    return reply["hookSpecificOutput"]["updatedInput"]["command"]


def run_wrapped(command: str) -> str:
    done = subprocess.run(["bash", "-c", command], capture_output=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.decode()


def tokens(text: str) -> int:
    from headroom_cli.tokens import load_counter

    return load_counter("cl100k_base").count(text)


def test_a_90_percent_full_context_makes_the_hook_s_budget_smaller_by_the_curve(home):
    """The issue's check: the same command, a transcript whose last usage says 90 % of the
    200,000-token window (Claude Sonnet 4.5) against a nearly empty one (3 %). 90 % is 4/9 of
    the way from 50 % to 95 %, so the share is 1 - 0.75 * 4/9 = 1/3: 6,000 → 2,000 tokens."""
    full = transcript(home / "full.jsonl", 180_000)
    empty = transcript(home / "empty.jsonl", 6_000)
    full_cmd = wrapped(pre_tool_use(full, session="s-full"))
    empty_cmd = wrapped(pre_tool_use(empty, session="s-empty"))
    assert "--context-tokens 180000 --context-window 200000" in full_cmd
    assert "--context-tokens 6000 --context-window 200000" in empty_cmd

    clipped_full, clipped_empty = run_wrapped(full_cmd), run_wrapped(empty_cmd)
    assert 0.9 * 2000 <= tokens(clipped_full) <= 2000
    assert 0.9 * HOOK_BUDGET <= tokens(clipped_empty) <= HOOK_BUDGET
    assert "Budget 2,000 of 6,000 tokens: the context is 90% full." in clipped_full
    assert "Budget" not in clipped_empty  # the whole budget: nothing to say
    assert clipped_full.startswith("1\n2\n") and clipped_full.rstrip().endswith("50000")

    # The ledger says which budget applied, the one before, and how full the context was.
    ledger = sqlite3.connect(home / "state" / "headroom" / "ledger.sqlite3")
    rows = dict((session, rest) for session, *rest in ledger.execute(
        "SELECT session, budget, base_budget, context_fill, clipped FROM calls"))
    assert rows == {"s-full": [2000, 6000, 90, 1], "s-empty": [6000, 6000, 3, 1]}


def test_an_explicit_budget_does_not_follow_the_context(home):
    full = transcript(home / "full.jsonl", 180_000)
    command = wrapped(pre_tool_use(full), budget=6000, budget_given=True)
    assert "--context-tokens" not in command
    out = run_wrapped(command)
    assert tokens(out) > 2000 and "Budget" not in out


def test_a_transcript_that_says_nothing_changes_nothing(home):
    """No transcript, a garbled one, a model whose window is unknown, a compaction since the
    last reply: the filter gets no context (or none it can use) and the budget stays."""
    garbled = home / "garbled.jsonl"
    garbled.write_bytes(b"\xff\xfe not json\n" * 100)
    unknown_model = transcript(home / "unknown.jsonl", 180_000, model="claude-opus-9")
    for path in (home / "missing.jsonl", garbled):
        assert "--context-tokens" not in wrapped(pre_tool_use(path))
    command = wrapped(pre_tool_use(unknown_model))
    assert "--context-tokens 180000" in command and "--context-window" not in command
    done = subprocess.run(["bash", "-c", command], capture_output=True, timeout=120)
    assert done.returncode == 0 and done.stderr == b""
    assert tokens(done.stdout.decode()) > 2000 and b"Budget" not in done.stdout


def test_the_hook_s_decision_is_deterministic(home):
    full = transcript(home / "full.jsonl", 180_000)
    first, second = (wrapped(pre_tool_use(full)) for _ in range(2))
    # The same but for the private output file each call makes.
    assert re.sub(r"headroom-\w+\.out", "F", first) == re.sub(r"headroom-\w+\.out", "F", second)


def filter_run(args: list[str], data: bytes, env: dict | None = None) -> bytes:
    done = subprocess.run([*HEADROOM, "hook", "filter", *args, "--tool", "Bash"], input=data,
                          capture_output=True, timeout=120, env={**os.environ, **(env or {})})
    assert done.returncode == 0 and done.stderr == b"", done.stderr
    return done.stdout


NUMBERS = "".join(f"{n}\n" for n in range(1, 50001)).encode()


def test_the_filter_is_a_function_of_its_input_and_options(home):
    args = ["--budget", "6000", "--context-tokens", "180000", "--context-window", "200000"]
    assert filter_run(args, NUMBERS) == filter_run(args, NUMBERS)


def test_the_config_file_sets_the_curve_the_window_or_turns_it_off(home):
    config = home / "config" / "headroom" / "config.toml"
    config.parent.mkdir(parents=True)
    args = ["--budget", "6000", "--context-tokens", "180000", "--context-window", "200000"]
    config.write_text("[context]\nfollow = false\n")
    assert b"Budget" not in filter_run(args, NUMBERS)
    # The window said there overrides the agent's: 180,000 of 1,000,000 is 18 %: whole.
    config.write_text("[context]\nwindow = 1000000\n")
    assert b"Budget" not in filter_run(args, NUMBERS)
    # A curve of its own: a half from 80 % on.
    config.write_text("[context]\ncurve = [[0.8, 0.5]]\n")
    assert b"Budget 3,000 of 6,000 tokens: the context is 90% full." in filter_run(args, NUMBERS)


@pytest.mark.parametrize("curve", ["[]", "[[0.5]]", "[[0.9, 1.0], [0.5, 0.5]]", "[[0.5, 0]]",
                                   "[[1.5, 0.5]]", '[["a", 1]]', "0.5"])
def test_a_broken_curve_is_a_broken_config_file(tmp_path, curve):
    from headroom_cli.config import ConfigError, parse

    with pytest.raises(ConfigError, match=r"config.toml:2: context.curve"):
        parse(f"[context]\ncurve = {curve}\n", "config.toml")


# ------------------------------------------------------------------------------------------ pi

def pi_reply(context_usage, **options) -> str:
    """`headroom hook pi` on a bash result with the extension's `context` (pi 0.73.1's
    ctx.getContextUsage(): {tokens, contextWindow, percent})."""
    event = {"toolName": "bash", "input": {"command": "seq 1 50000"},
             "content": [{"type": "text", "text": NUMBERS.decode()}], "details": {},
             "isError": False, "context": context_usage}
    reply = json.loads(run_hook("pi", json.dumps(event).encode(), HookOptions(**options)))
    return reply["content"][0]["text"]


def test_pi_s_context_usage_shrinks_its_default_budget_by_the_curve(home):
    """pi says its window: 243,000 of 270,000 tokens is 90 % full, so 6,000 → 2,000, as for
    Claude Code; 27,000 (10 %) keeps the whole budget; an explicit budget keeps it too."""
    full = pi_reply({"tokens": 243_000, "contextWindow": 270_000, "percent": 90.0})
    empty = pi_reply({"tokens": 27_000, "contextWindow": 270_000, "percent": 10.0})
    unknown = pi_reply({"tokens": None, "contextWindow": 270_000, "percent": None})
    given = pi_reply({"tokens": 243_000, "contextWindow": 270_000, "percent": 90.0},
                     budget=6000, budget_given=True)
    assert 0.9 * 2000 <= tokens(full) <= 2000
    assert "Budget 2,000 of 6,000 tokens: the context is 90% full." in full
    for text in (empty, unknown, given):
        assert tokens(text) > 0.9 * HOOK_BUDGET and "Budget" not in text


def test_pi_s_extension_passes_its_context_usage():
    from headroom_cli.agents import pi

    source = pi.extension_source(HEADROOM).decode()
    assert "context: contextUsage(ctx)" in source and "ctx?.getContextUsage?.()" in source
