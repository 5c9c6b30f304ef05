"""How full an agent's context is, and the budget that follows it.

An agent re-sends its whole context on every turn, and the window is finite: 6,000 tokens of
output are a small part of an empty context and a large part of what is left of a nearly full
one. Where the agent says how full its context is, the default budget of its hook follows a
curve (`[context] curve`, defaults.py): the whole budget up to half full, linearly less down to
a quarter at 95 % full, a quarter beyond. An explicit budget (`headroom hook AGENT --budget N`)
is left as it is, and when the fill is unknown nothing changes.

Where the fill comes from:

- Claude Code (checked against 2.1.330: its bundled code and real transcripts). The PreToolUse
  payload names the session's `transcript_path`, a JSON-lines file Claude Code appends to.
  Each reply of the model is a line `{"type": "assistant", "message": {"model": …, "usage":
  {…}}}`; its usage's input_tokens + cache_read_input_tokens + cache_creation_input_tokens
  are the request's context, output_tokens the reply's: their sum is the context at the last
  model call. Transcripts reach hundreds of MB, so last_usage() reads the file backwards from
  its end, at most TAIL_BYTES, and parses only the lines that may be that reply. Claude Code
  writes the transcript in batches, so the latest reply may not be there yet: the usage read
  can be a turn old. The window is not written anywhere: it follows from the model's name by
  Claude Code 2.1.330's own model table (claude_window), and `[context] window` overrides it.
- pi (0.73.1): the extension context's getContextUsage() says {tokens, contextWindow}.
- hermes-agent (0.19.0): its post_api_request hook gives the tokens (usage's total_tokens),
  not the window: the fill is known only with `[context] window` (agents/hermes.py).

Nothing here imports more than os and json (the decision Claude Code waits on calls it).
"""

from __future__ import annotations

import os

# How much of a transcript's end is read at most. The last reply of the model is followed only
# by its tool results and Claude Code's bookkeeping lines (tens of KB); a reply not found in
# this much leaves the fill unknown.
TAIL_BYTES = 1 << 20
_FIRST_READ = 1 << 16

# The context windows of Claude Code 2.1.330's model table (its `context.window`), by model
# name without date or provider prefix; `claude-3…` models have 200,000 too. A name not here
# (a newer model) leaves the fill unknown.
_MILLION, _200K = 1_000_000, 200_000
WINDOWS = {
    **dict.fromkeys(("claude-haiku-4-5", "claude-opus-4", "claude-opus-4-0", "claude-opus-4-1",
                     "claude-opus-4-5", "claude-opus-4-6", "claude-sonnet-4", "claude-sonnet-4-0",
                     "claude-sonnet-4-5", "claude-sonnet-4-6"), _200K),
    **dict.fromkeys(("claude-fable-5", "claude-fable-5-1", "claude-fable-5-2",
                     "claude-haiku-5-5", "claude-mythos-5", "claude-mythos-5-1",
                     "claude-mythos-5-2", "claude-opus-4-7", "claude-opus-4-8", "claude-opus-5",
                     "claude-opus-5-5", "claude-sonnet-5", "claude-sonnet-5-5"), _MILLION),
}


def claude_window(model: object) -> int | None:
    """The context window of a Claude model as Claude Code names it in a transcript
    (`claude-sonnet-4-5-20250929`, a provider's `us.anthropic.claude-…-v1:0` or `…@date`,
    a `[1m]` tag), or None when it is not known."""
    if not isinstance(model, str) or "claude-" not in model:
        return None
    name = model[model.index("claude-"):].lower()
    if "[1m]" in name:
        return _MILLION
    parts = []
    for part in name.split("@")[0].split("-"):
        if len(part) == 8 and part.isdigit() or part.startswith("v") and part[1:2].isdigit():
            break  # a date, a provider's version: the name ends before it
        parts.append(part)
    name = "-".join(parts)
    if name.startswith("claude-3"):
        return _200K
    return WINDOWS.get(name)


def last_usage(path: object, *, sidechain: bool = False,
               limit: int = TAIL_BYTES) -> tuple[int, str] | None:
    """(tokens in the context at the model's last reply, the model's name) from a Claude Code
    transcript, or None: no readable reply in its last `limit` bytes, or a compaction since
    (the reply's usage then counts a context that is gone). `sidechain`: the file is a
    subagent's, whose every line is a sidechain (the main transcript's sidechain lines are
    another context). Never raises."""
    if not isinstance(path, str) or not path:
        return None
    try:
        with open(path, "rb") as stream:
            for line in _lines_backwards(stream, limit):
                found = _reply_usage(line, sidechain)
                if found is not None:
                    return found or None  # (): a compaction came after the last reply
    except (OSError, ValueError):
        pass
    return None


def _lines_backwards(stream, limit: int):
    """The file's complete lines, last first, within its last `limit` bytes (a line cut by
    that limit is not given)."""
    size = os.fstat(stream.fileno()).st_size
    end, carry, step = size, b"", _FIRST_READ
    while end > 0 and size - end < limit:
        start = max(0, end - step, size - limit)
        stream.seek(start)
        block = stream.read(end - start) + carry
        end, step = start, step * 4
        lines = block.split(b"\n")
        carry = lines.pop(0) if start > 0 else b""
        yield from reversed(lines)


def _reply_usage(line: bytes, sidechain: bool) -> tuple[int, str] | tuple[()] | None:
    """The line's (tokens, model) when it is a reply of the model with its usage; () when it
    is a compaction's boundary; None for any other line."""
    if b'"compact_boundary"' in line:
        entry = _json(line)
        if entry.get("type") == "system" and entry.get("subtype") == "compact_boundary":
            return ()
        return None
    if b'"assistant"' not in line or b'"usage"' not in line:
        return None
    entry = _json(line)
    message = entry.get("message")
    if entry.get("type") != "assistant" or not isinstance(message, dict) or \
            bool(entry.get("isSidechain")) != sidechain or entry.get("isApiErrorMessage"):
        return None
    usage, model = message.get("usage"), message.get("model")
    if not isinstance(usage, dict) or model == "<synthetic>":
        return None  # Claude Code's own stand-in replies (an error, an interruption)
    tokens = 0
    for key in ("input_tokens", "cache_read_input_tokens", "cache_creation_input_tokens",
                "output_tokens"):
        value = usage.get(key) or 0
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            return None
        tokens += value
    return (tokens, model if isinstance(model, str) else "") if tokens else None


def _json(line: bytes) -> dict:
    import json

    try:
        entry = json.loads(line)
    except ValueError:
        return {}
    return entry if isinstance(entry, dict) else {}


def claude_fill(event: dict) -> tuple[int, int | None] | None:
    """(tokens in the context, its window or None) for a Claude Code hook's event, or None
    when the transcript says nothing. A subagent's call (`agent_id`) is judged by the
    subagent's own transcript (`<session>/subagents/agent-ID.jsonl` beside the session's)."""
    path, agent = event.get("transcript_path"), event.get("agent_id")
    if not isinstance(path, str) or not path:
        return None
    if agent is not None:
        session = event.get("session_id")
        if not (isinstance(agent, str) and isinstance(session, str) and agent and session
                and "/" not in agent + session):
            return None
        path = os.path.join(os.path.dirname(path), session, "subagents", f"agent-{agent}.jsonl")
    found = last_usage(path, sidechain=agent is not None)
    if found is None:
        return None
    tokens, model = found
    return tokens, claude_window(model)


def share(fill: float, curve) -> float:
    """The share of the budget at `fill` (0–1) on `curve`: (fill, share) points with rising
    fills, linear between two points, the first point's share before it, the last's after."""
    first, last = curve[0], curve[-1]
    if fill <= first[0]:
        return first[1]
    for (x0, y0), (x1, y1) in zip(curve, curve[1:]):
        if fill <= x1:
            return y0 + (y1 - y0) * (fill - x0) / (x1 - x0)
    return last[1]


class Followed(tuple):
    """The budget that applied, from the budget before (base) and the context's fill: a tuple
    (budget, base, percent, tokens, window), not a dataclass (imported on the hook's path)."""
    __slots__ = ()

    def __new__(cls, budget: int, base: int, percent: int, tokens: int, window: int):
        return super().__new__(cls, (budget, base, percent, tokens, window))

    budget = property(lambda self: self[0])
    base = property(lambda self: self[1])
    percent = property(lambda self: self[2])  # how full the context is, in whole percent (floor)
    tokens = property(lambda self: self[3])
    window = property(lambda self: self[4])

    @property
    def shrunk(self) -> bool:
        return self.budget < self.base


def follow(base: int, tokens: int | None, window: int | None, curve) -> Followed | None:
    """The budget `base` becomes with `tokens` of a `window`-token context on `curve`; None
    when the fill is unknown: no window, no tokens, or more tokens than the window holds (the
    window is then larger than known: a 1M-token context, say)."""
    if not window or tokens is None or tokens < 0 or tokens > window or base <= 0:
        return None
    fill = tokens / window
    budget = max(1, min(base, round(base * share(fill, curve))))
    return Followed(budget, base, tokens * 100 // window, tokens, window)
