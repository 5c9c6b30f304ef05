"""Age-aware history: keep the last K tool results verbatim, shrink the older ones, once.

A harness re-sends its whole conversation on every turn. `age_history()` returns the view to send:
the last `keep_recent` tool results as they were, every older one rendered by the planners at a
small budget (an old test run keeps its summary and failures, an old grep its file map), with a
marker whose retrieval path is `headroom show ID`, ID being the content hash of the original.

The cache rule: whether a message is aged depends only on how many tool results come after it,
and how it is aged only on the message itself (and the name of the call it answers). So as a
conversation grows, each message changes at most once — when it leaves the window — and stays
byte-identical after that, and provider prefix caches keep hitting. A message holding several
tool results (parallel calls) is aged whole, when the last of them leaves the window.

`apply_trims()` applies the model's own `trim_tool_result(summary)` calls (a tool a harness may
offer): the latest result before each call becomes the summary, with a marker naming the
original. `replay()` gives what a harness sends request by request, with and without ageing.

Pure: no I/O. The originals of aged results come back in `AgedHistory.stored` for the caller to
keep (`headroom history` puts them in the store, so the markers' `headroom show ID` works).

Message formats, as their APIs define them (`role` tells them apart; others pass unchanged):
  OpenAI chat     {"role": "tool", "tool_call_id", "content": str | [text parts]}, the call in an
                  assistant message's "tool_calls": [{"id", "function": {"name", "arguments"}}]
  Anthropic       {"role": "user", "content": [{"type": "tool_result", "tool_use_id",
                  "content": str | [blocks]}]}, the call a {"type": "tool_use", "id", "name"} block
  pi              {"role": "toolResult", "toolCallId", "toolName", "content": [blocks]}, the call
                  a {"type": "toolCall", "id", "name"} block
  OpenAI          {"type": "function_call_output", "call_id", "output": str | [input_text
  Responses       parts]}, the call a {"type": "function_call", "call_id", "name"} item (the
                  OpenAI Agents SDK's items: integrations/openai_agents.py)
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Sequence

from .store import content_id
from .large_counts import count_large
from .tokens import DEFAULT_ENCODING, Counter
from .values import value

DEFAULT_KEEP_RECENT = 3
RESPONSES_RESULT = "function_call_output"  # an OpenAI Responses item holding a tool's output
DEFAULT_AGE_BUDGET = 300
# A result is aged only when that at least halves it: a result just over the budget would lose
# most of what it says (the marker alone costs ~60 tokens) to save little, and its message
# would change (a cache break) for nothing.
WORTH_IT = 2


@value
class ToolResult:
    """One tool result in a conversation: where it is, what produced it, and its text."""

    message: int  # index of the message that holds it
    block: int | None  # index of its block in that message's content (Anthropic); None: the message
    call_id: str
    tool: str | None  # the name of the call it answers (None when no call names it)
    text: str  # its text parts, joined by newlines


@value
class Stored:
    """An aged result's original, for the caller to keep under `id` (`headroom show ID`)."""

    id: str
    data: bytes


@value
class AgedHistory:
    messages: list  # the view to send: unchanged messages are the caller's own objects
    stored: tuple[Stored, ...]  # originals of the aged results, oldest first
    results: int  # tool results in the conversation
    aged: int  # tool results shrunk
    aged_messages: tuple[int, ...]  # indexes of the messages that differ from the input
    tokens_before: int  # tokens of the aged results, before
    tokens_after: int  # and after


# A strategy that shrinks one old result: its new text, or None to leave it as it is.
Shrink = Callable[[ToolResult], "str | None"]


def age_history(messages: Sequence[dict], *, keep_recent: int = DEFAULT_KEEP_RECENT,
                budget: int = DEFAULT_AGE_BUDGET, encoding: str = DEFAULT_ENCODING,
                counter: Counter | None = None, shrink: Shrink | None = None,
                name_copies: bool = True, program: str = "headroom") -> AgedHistory:
    """The view of `messages` to send: tool results older than the last `keep_recent` shrunk to
    `budget` tokens by the planners (or by `shrink`); everything else exactly as given.

    `messages` is not modified. Results that already fit the budget are left alone, so ageing
    an aged view changes nothing. `name_copies=False` (nobody will keep the originals): the
    markers say how to re-run the tool instead of naming a stored copy, and `stored` is empty.
    `program`: how the markers name headroom (a hook names the headroom the agent runs).
    """
    if keep_recent < 0 or budget < 0:
        raise ValueError("keep_recent and budget must be 0 or more")
    counter = counter or _counter(encoding)
    shrink = shrink or planned(budget, counter, name_copies, program)
    results = tool_results(messages)
    ageing = aged_message_indexes(results, keep_recent)
    out = list(messages)
    stored: dict[str, bytes] = {}
    aged = before = after = 0
    changed = []
    by_message: dict[int, list[ToolResult]] = {}
    for result in results:
        by_message.setdefault(result.message, []).append(result)
    for index in sorted(ageing):
        message = messages[index]
        for result in by_message[index]:
            text = shrink(result)
            if text is None or text == result.text:
                continue
            if message is messages[index]:
                message = copy.deepcopy(message)
            _replace_text(message, result.block, text)
            if name_copies:
                stored.setdefault(_stored_id(result.text), _encode(result.text))
            aged += 1
            before += count_large(counter, [result.text])
            after += count_large(counter, [text])
        if message is not messages[index]:
            out[index] = message
            changed.append(index)
    return AgedHistory(out, tuple(Stored(*item) for item in stored.items()), len(results), aged,
                       tuple(changed), before, after)


# The tool a harness may give the model to replace the latest tool result by its own summary.
TRIM_TOOL = "trim_tool_result"


def apply_trims(messages: Sequence[dict], *, encoding: str = DEFAULT_ENCODING,
                counter: Counter | None = None, name_copies: bool = True,
                program: str = "headroom") -> AgedHistory:
    """Each call of TRIM_TOOL (arguments {"summary": text}) replaces the tool result just
    before it by that summary and a marker naming the stored original. Only the latest result
    can be trimmed, so the prompt changes at its tail, once; the same messages always give the
    same view, so a harness keeps nothing but the conversation."""
    from .render import summary_marker

    counter = counter or _counter(encoding)
    results = tool_results(messages)
    out, stored, changed = list(messages), {}, []
    before = after = 0
    for index, message in enumerate(messages):
        for summary in _trim_summaries(message):
            latest = [r for r in results if r.message < index and r.tool != TRIM_TOOL]
            if not latest or latest[-1].message in changed:
                continue
            target = latest[-1]
            item_id = _stored_id(target.text) if name_copies else None
            tokens = count_large(counter, [target.text])
            text = f"{summary}\n{summary_marker(target.tool or '', tokens, item_id, program)}"
            trimmed = copy.deepcopy(messages[target.message])
            _replace_text(trimmed, target.block, text)
            out[target.message] = trimmed
            changed.append(target.message)
            if item_id:
                stored[item_id] = _encode(target.text)
            before += tokens
            after += count_large(counter, [text])
    return AgedHistory(out, tuple(Stored(*item) for item in stored.items()), len(results),
                       len(changed), tuple(sorted(changed)), before, after)


def _trim_summaries(message) -> list[str]:
    """The summaries of the TRIM_TOOL calls an assistant message makes (any of the formats)."""
    if not isinstance(message, dict) or message.get("role") != "assistant":
        return []
    found = []
    for call in message.get("tool_calls") or ():
        function = call.get("function") if isinstance(call, dict) else None
        if isinstance(function, dict) and function.get("name") == TRIM_TOOL:
            try:
                found.append(json.loads(function.get("arguments") or "{}").get("summary"))
            except (ValueError, AttributeError):
                pass
    content = message.get("content")
    for block in content if isinstance(content, list) else ():
        if isinstance(block, dict) and block.get("name") == TRIM_TOOL and \
                block.get("type") in ("tool_use", "toolCall"):
            arguments = block.get("input", block.get("arguments"))
            found.append(arguments.get("summary") if isinstance(arguments, dict) else None)
    return [summary for summary in found if isinstance(summary, str) and summary.strip()]


def planned(budget: int, counter: Counter, name_copies: bool = True,
            program: str = "headroom") -> Shrink:
    """The default strategy: the planners of the tool that produced the result, at `budget`,
    with the marker naming the original's store id."""
    from .api import compress

    def shrink(result: ToolResult) -> str | None:
        clipped = compress(result.text, tool=result.tool, budget=budget, counter=counter,
                           store_id=_stored_id(result.text) if name_copies else None,
                           program=program)
        if not clipped.clipped or clipped.output_tokens * WORTH_IT > clipped.input_tokens:
            return None
        return clipped.text

    return shrink


def tool_results(messages: Sequence[dict]) -> tuple[ToolResult, ...]:
    """Every tool result in `messages`, in order, each with the name of the call it answers."""
    names: dict[str, str] = {}
    found: list[ToolResult] = []
    for index, message in enumerate(messages):
        if not isinstance(message, dict):
            continue
        names.update(_calls(message))
        for block, call_id, content in _results(message):
            found.append(ToolResult(index, block, call_id, names.get(call_id)
                                    or message.get("toolName") or message.get("name"),
                                    _text(content)))
    return tuple(found)


def aged_message_indexes(results: Sequence[ToolResult], keep_recent: int) -> set[int]:
    """The messages to age: those with no result among the last `keep_recent`."""
    recent = {result.message for result in results[max(0, len(results) - keep_recent):]} \
        if keep_recent else set()
    return {result.message for result in results} - recent


@value
class Turn:
    """One request a harness sends: the conversation up to the model's next reply."""

    messages: int  # messages in the prompt
    baseline_tokens: int  # input tokens, every result verbatim
    aged_tokens: int  # input tokens, with ageing
    changed_positions: int  # messages whose bytes differ from the previous request's
    recached_tokens: int  # tokens of the previous prompt from its first changed message on


@value
class Replay:
    turns: tuple[Turn, ...]
    aged: AgedHistory  # the whole conversation's aged view

    def total(self, figure: str) -> int:
        return sum(getattr(turn, figure) for turn in self.turns)


def replay(messages: Sequence[dict], *, keep_recent: int = DEFAULT_KEEP_RECENT,
           budget: int = DEFAULT_AGE_BUDGET, encoding: str = DEFAULT_ENCODING,
           counter: Counter | None = None, shrink: Shrink | None = None,
           name_copies: bool = True) -> Replay:
    """What a harness sends over the conversation, turn by turn, with and without ageing.

    A request goes out before each reply of the assistant (a run of assistant messages is one
    reply), and once more at the end when the conversation does not end with a reply. Tokens
    are those of every string in the messages (text, tool calls' arguments, ids), counted alike
    for both views. Each message's aged form is computed once: it is the same at every turn.
    """
    counter = counter or _counter(encoding)
    aged = age_history(messages, keep_recent=keep_recent, budget=budget, counter=counter,
                       shrink=shrink, name_copies=name_copies)
    results = tool_results(messages)
    last_result = {result.message: number for number, result in enumerate(results)}
    plain = [message_tokens(message, counter) for message in messages]
    cost = list(plain)  # each message's tokens in the aged view, as of the current request
    # Aged messages in the order they leave the window (their last result's number).
    leaving = sorted(aged.aged_messages, key=last_result.__getitem__)
    turns, gone, seen, previous_end = [], 0, 0, 0
    for end in _request_ends(messages):
        while seen < len(results) and results[seen].message < end:
            seen += 1
        changed = []
        while gone < len(leaving) and last_result[leaving[gone]] < seen - keep_recent:
            changed.append(leaving[gone])
            gone += 1
        first = min(changed, default=previous_end)
        recached = sum(cost[first:previous_end])
        for index in changed:
            cost[index] = message_tokens(aged.messages[index], counter)
        turns.append(Turn(end, sum(plain[:end]), sum(cost[:end]),
                          sum(1 for index in changed if index < previous_end), recached))
        previous_end = end
    return Replay(tuple(turns), aged)


def message_tokens(message, counter: Counter) -> int:
    """Tokens of every string a message holds (keys aside), as a harness would send them."""
    return count_large(counter, list(_strings(message)))


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


def _request_ends(messages: Sequence[dict]) -> list[int]:
    """Where each request's prompt ends: at each reply that follows a non-reply, and at the end."""
    ends = [index for index in range(1, len(messages))
            if _is_reply(messages[index]) and not _is_reply(messages[index - 1])]
    if messages and not _is_reply(messages[-1]):
        ends.append(len(messages))
    return ends


def _is_reply(message) -> bool:
    return isinstance(message, dict) and message.get("role") == "assistant"


def _calls(message: dict) -> dict[str, str]:
    """Call id → tool name, for the calls an assistant message makes (any of the formats)."""
    if message.get("type") == "function_call":
        return {str(message.get("call_id")): message.get("name")}
    if message.get("role") != "assistant":
        return {}
    calls = {}
    for call in message.get("tool_calls") or ():
        if isinstance(call, dict) and isinstance(call.get("function"), dict):
            calls[str(call.get("id"))] = call["function"].get("name")
    content = message.get("content")
    for block in content if isinstance(content, list) else ():
        if isinstance(block, dict) and block.get("type") in ("tool_use", "toolCall"):
            calls[str(block.get("id"))] = block.get("name")
    return calls


def _results(message: dict):
    """(block index or None, call id, content) for each tool result a message holds."""
    role, content = message.get("role"), message.get("content")
    if message.get("type") == RESPONSES_RESULT and _is_text(message.get("output")):
        yield None, str(message.get("call_id")), message["output"]
    elif role == "tool" and _is_text(content):
        yield None, str(message.get("tool_call_id")), content
    elif role == "toolResult" and _is_text(content):
        yield None, str(message.get("toolCallId")), content
    elif role == "user" and isinstance(content, list):
        for block_index, block in enumerate(content):
            if (isinstance(block, dict) and block.get("type") == "tool_result"
                    and _is_text(block.get("content", ""))):
                yield block_index, str(block.get("tool_use_id")), block.get("content", "")


def _is_text(content) -> bool:
    """A string, or a list of blocks with at least one text block (images etc. are kept)."""
    if isinstance(content, str):
        return True
    return isinstance(content, list) and any(_text_block(block) for block in content)


def _text_block(block) -> bool:
    return isinstance(block, dict) and block.get("type") in ("text", "input_text") \
        and isinstance(block.get("text"), str)


def _text(content) -> str:
    if isinstance(content, str):
        return content
    return "\n".join(block["text"] for block in content if _text_block(block))


def _replace_text(message: dict, block: int | None, text: str) -> None:
    """Put `text` in place of a result's text: a string stays a string; in a list of blocks the
    text blocks become one, where the first was, and other blocks (images) stay."""
    holder = message if block is None else message["content"][block]
    key = "output" if holder.get("type") == RESPONSES_RESULT else "content"
    content = holder.get(key, "")
    if isinstance(content, str):
        holder[key] = text
        return
    first = next(i for i, part in enumerate(content) if _text_block(part))
    merged = {**content[first], "text": text}
    holder[key] = [merged if i == first else part for i, part in enumerate(content)
                         if i == first or not _text_block(part)]


def _encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def _stored_id(text: str) -> str:
    return content_id(_encode(text))


def _counter(encoding: str) -> Counter:
    from .api import counter_for

    return counter_for(encoding)
