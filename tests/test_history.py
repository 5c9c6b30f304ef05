"""age_history(): the last K tool results verbatim, older ones shrunk once — over OpenAI,
Anthropic and pi messages, with real tool outputs (the golden cases' inputs)."""

from __future__ import annotations

import copy
import functools
import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from headroom_cli import age_history, compress
from headroom_cli.history import message_tokens, planned, replay, tool_results
from headroom_cli.store import content_id

CASES = Path(__file__).parent / "cases"


def real_output(case: str, limit: int | None = None) -> str:
    text = (CASES / case / "input").read_text("utf-8", "surrogateescape")
    return text[:limit] if limit else text


# Real outputs of several shapes, cut to keep the property tests quick (a prefix of a real
# output is still real output), and two small ones that fit any budget used here.
OUTPUTS = [real_output(case, 6000) for case in (
    "code-argparse-py", "grep-rn-express-req", "make-lua-link-error", "diff-git-diff-requests",
    "listing-pip-list", "json-npm-view-express", "pip-install-v-build-failure-cchardet")]
OUTPUTS += [real_output("grep-rn-express-req", 200), real_output("listing-ps-u", 120)]
TOOLS = ["Bash", "Read", "Grep", "bash", "read", "terminal", "mystery"]


def openai_call(call_id: str, tool: str) -> dict:
    return {"role": "assistant", "content": None, "tool_calls": [
        {"id": call_id, "type": "function", "function": {"name": tool, "arguments": "{}"}}]}


def openai_result(call_id: str, text) -> dict:
    return {"role": "tool", "tool_call_id": call_id, "content": text}


def anthropic_calls(calls: list[tuple[str, str]]) -> dict:
    return {"role": "assistant", "content": [{"type": "text", "text": "Let me look."}] + [
        {"type": "tool_use", "id": call_id, "name": tool, "input": {"command": "x"}}
        for call_id, tool in calls]}


def anthropic_results(results: list[tuple[str, object]]) -> dict:
    return {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": call_id, "content": text}
        for call_id, text in results]}


def pi_call(call_id: str, tool: str) -> dict:
    return {"role": "assistant", "content": [
        {"type": "toolCall", "id": call_id, "name": tool, "arguments": {"command": "x"}}]}


def pi_result(call_id: str, tool: str, text: str) -> dict:
    return {"role": "toolResult", "toolCallId": call_id, "toolName": tool,
            "content": [{"type": "text", "text": text}], "isError": False}


@st.composite
def conversations(draw) -> list[dict]:
    """A conversation in one format: user turns, assistant calls (sometimes two at once) and
    their results, each a real output."""
    form = draw(st.sampled_from(["openai", "anthropic", "pi"]))
    messages: list[dict] = [{"role": "user", "content": "The tests fail; find out why."}]
    for step in range(draw(st.integers(1, 8))):
        width = draw(st.integers(1, 2)) if form != "pi" else 1
        calls = [(f"call_{step}_{i}", draw(st.sampled_from(TOOLS))) for i in range(width)]
        texts = [draw(st.sampled_from(OUTPUTS)) for _ in calls]
        if form == "openai":
            messages.append({"role": "assistant", "content": None, "tool_calls": [
                openai_call(c, t)["tool_calls"][0] for c, t in calls]})
            messages += [openai_result(c, text) for (c, _), text in zip(calls, texts)]
        elif form == "anthropic":
            messages.append(anthropic_calls(calls))
            messages.append(anthropic_results([(c, text) for (c, _), text in zip(calls, texts)]))
        else:
            messages.append(pi_call(*calls[0]))
            messages.append(pi_result(calls[0][0], calls[0][1], texts[0]))
        if draw(st.booleans()):
            messages.append({"role": "assistant", "content": "Noted."})
            messages.append({"role": "user", "content": "Go on."})
    return messages


@functools.lru_cache(maxsize=None)
def _planned(text: str, tool: str | None, budget: int) -> str | None:
    return planned(budget, _COUNTER[0])(_result(text, tool))


def _result(text, tool):
    from headroom_cli.history import ToolResult

    return ToolResult(0, None, "", tool, text)


_COUNTER: list = []


@pytest.fixture(autouse=True)
def _shared_counter(counter):
    _COUNTER[:] = [counter]


def memo_shrink(budget: int):
    """The planners' strategy, remembered per (text, tool): the property tests age the same
    outputs many times; the determinism test below runs the planners afresh."""
    return lambda result: _planned(result.text, result.tool, budget)


def dumps(messages) -> str:
    return json.dumps(messages, sort_keys=True, ensure_ascii=False)


PROPERTY = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])


@PROPERTY
@given(conversations(), st.integers(0, 4))
def test_each_position_changes_at_most_once_as_the_conversation_grows(messages, keep):
    history: dict[int, list[str]] = {}
    for end in range(1, len(messages) + 1):
        aged = age_history(messages[:end], keep_recent=keep, shrink=memo_shrink(300))
        for index, message in enumerate(aged.messages):
            seen = history.setdefault(index, [])
            if not seen or seen[-1] != dumps(message):
                seen.append(dumps(message))
    assert all(len(versions) <= 2 for versions in history.values())


@PROPERTY
@given(conversations(), st.integers(0, 4))
def test_only_tool_result_contents_change(messages, keep):
    original = copy.deepcopy(messages)
    aged = age_history(messages, keep_recent=keep, shrink=memo_shrink(300))
    assert messages == original  # the input is not modified
    assert len(aged.messages) == len(messages)
    results = tool_results(messages)
    holders = {result.message for result in results}
    for index, (before, after) in enumerate(zip(messages, aged.messages)):
        if index not in holders:
            assert after == before  # user and assistant messages, tool calls and their ids
            continue
        assert after.keys() == before.keys()
        assert {k: v for k, v in after.items() if k != "content"} == \
               {k: v for k, v in before.items() if k != "content"}
    assert [(r.message, r.block, r.call_id, r.tool) for r in tool_results(aged.messages)] == \
           [(r.message, r.block, r.call_id, r.tool) for r in results]


@PROPERTY
@given(conversations(), st.integers(0, 4))
def test_recent_and_small_results_are_verbatim_and_aged_ones_fit_and_name_their_copy(messages,
                                                                                    keep):
    aged = age_history(messages, keep_recent=keep, shrink=memo_shrink(300))
    results, after = tool_results(messages), tool_results(aged.messages)
    recent = {r.message for r in results[max(0, len(results) - keep):]} if keep else set()
    stored = {item.id: item.data for item in aged.stored}
    for old, new in zip(results, after):
        if old.message in recent or _COUNTER[0].count(old.text) <= 300:
            assert new.text == old.text
        elif new.text == old.text:  # ageing would not even halve it
            assert _COUNTER[0].count(old.text) < 2 * 300
        else:
            assert _COUNTER[0].count(new.text) * 2 <= _COUNTER[0].count(old.text)
            assert _COUNTER[0].count(new.text) <= 300
            assert f"headroom show {content_id(old.text.encode())}" in new.text
            assert stored[content_id(old.text.encode())] == old.text.encode()
    assert set(stored) == {content_id(data) for data in stored.values()}


@PROPERTY
@given(conversations(), st.integers(0, 4))
def test_ageing_an_aged_view_changes_nothing(messages, keep):
    once = age_history(messages, keep_recent=keep, shrink=memo_shrink(300))
    twice = age_history(once.messages, keep_recent=keep, shrink=memo_shrink(300))
    assert dumps(twice.messages) == dumps(once.messages)
    assert twice.aged == 0 and twice.stored == ()


@PROPERTY
@given(conversations(), st.integers(0, 4))
def test_replay_sends_what_ageing_each_prefix_gives(messages, keep):
    counter = _COUNTER[0]
    turns = replay(messages, keep_recent=keep, shrink=memo_shrink(300), counter=counter).turns
    previous: list[str] = []
    for turn in turns:
        prompt = messages[:turn.messages]
        aged = age_history(prompt, keep_recent=keep, shrink=memo_shrink(300)).messages
        assert turn.baseline_tokens == sum(message_tokens(m, counter) for m in prompt)
        assert turn.aged_tokens == sum(message_tokens(m, counter) for m in aged)
        now = [dumps(m) for m in aged]
        changed = [i for i, text in enumerate(previous) if now[i] != text]
        assert turn.changed_positions == len(changed)
        assert turn.recached_tokens == (sum(message_tokens(json.loads(text), counter)
                                            for text in previous[changed[0]:]) if changed else 0)
        previous = now


def test_identical_inputs_give_byte_identical_outputs():
    messages = [anthropic_calls([("a", "Bash")]),
                anthropic_results([("a", real_output("make-lua-link-error"))]),
                anthropic_calls([("b", "Read")]),
                anthropic_results([("b", real_output("code-argparse-py"))])]
    first = age_history(copy.deepcopy(messages), keep_recent=1)
    second = age_history(copy.deepcopy(messages), keep_recent=1)
    assert dumps(first.messages) == dumps(second.messages)
    assert first.stored == second.stored and first.aged == 1


def test_an_aged_result_is_the_planners_view_for_the_tool_that_produced_it():
    # The call names the tool; the planner and its split follow it (Bash trusts a log's error
    # signal; a Read does not), and the marker names the original's store id.
    log = real_output("make-lua-link-error")
    for tool in ("Bash", "Read"):
        messages = [openai_call("x", tool), openai_result("x", log), openai_call("y", "Bash"),
                    openai_result("y", "ok")]
        aged = age_history(messages, keep_recent=1, budget=300)
        expected = compress(log, tool=tool, budget=300,
                            store_id=content_id(log.encode())).text
        assert aged.messages[1]["content"] == expected
        assert aged.stored[0].data == log.encode()
    assert compress(log, tool="Bash", budget=300).text != compress(log, tool="Read",
                                                                     budget=300).text


def test_tool_names_come_from_the_calls_in_every_format():
    messages = [openai_call("o1", "terminal"), openai_result("o1", "x"),
                anthropic_calls([("a1", "Grep"), ("a2", "Read")]),
                anthropic_results([("a1", "x"), ("a2", [{"type": "text", "text": "y"}])]),
                pi_call("p1", "bash"), pi_result("p1", "bash", "z"),
                openai_result("orphan", "no call names it")]
    assert [(r.message, r.block, r.call_id, r.tool, r.text) for r in tool_results(messages)] == [
        (1, None, "o1", "terminal", "x"), (3, 0, "a1", "Grep", "x"), (3, 1, "a2", "Read", "y"),
        (5, None, "p1", "bash", "z"), (6, None, "orphan", None, "no call names it")]


def test_text_blocks_become_one_and_images_stay():
    log = real_output("make-lua-link-error")
    image = {"type": "image", "source": {"type": "base64", "media_type": "image/png", "data": "AA"}}
    blocks = [{"type": "text", "text": log[:3000]}, image, {"type": "text", "text": log[3000:]}]
    messages = [anthropic_calls([("a", "Bash")]), anthropic_results([("a", blocks)]),
                openai_call("b", "bash"), openai_result("b", [{"type": "text", "text": log}])]
    aged = age_history(messages, keep_recent=0)
    content = aged.messages[1]["content"][0]["content"]
    assert [block["type"] for block in content] == ["text", "image"]
    assert content[1] == image
    assert aged.stored[0].data == (log[:3000] + "\n" + log[3000:]).encode()
    assert [part["type"] for part in aged.messages[3]["content"]] == ["text"]
    assert f"headroom show {content_id(log.encode())}" in aged.messages[3]["content"][0]["text"]


def test_parallel_results_in_one_message_are_aged_together():
    big = real_output("make-lua-link-error")
    messages = [anthropic_calls([("a", "Bash"), ("b", "Bash")]),
                anthropic_results([("a", big), ("b", big[:5000])]),
                anthropic_calls([("c", "Bash")]), anthropic_results([("c", "ok")])]
    # With K=2 the window holds "b" and "c": the message with "a" and "b" stays whole.
    assert age_history(messages, keep_recent=2).aged == 0
    aged = age_history(messages, keep_recent=1)
    assert aged.aged == 2 and aged.aged_messages == (1,)


def test_small_budgets_and_bad_arguments():
    messages = [openai_call("x", "Bash"), openai_result("x", real_output("listing-ps-u", 120))]
    assert age_history(messages, keep_recent=0).messages == messages  # fits: untouched
    just_over = real_output("make-lua-link-error", 1400)  # ~400 tokens: halving loses too much
    messages = [openai_call("x", "Bash"), openai_result("x", just_over)]
    assert age_history(messages, keep_recent=0, budget=300).aged == 0
    assert age_history(messages, keep_recent=0, budget=150).aged == 1
    with pytest.raises(ValueError):
        age_history(messages, keep_recent=-1)
    assert age_history([], keep_recent=0).results == 0
