"""The OpenAI Agents SDK: a `call_model_input_filter` that clips and ages tool outputs.

    from agents import RunConfig, Runner
    from headroom_cli.integrations.openai_agents import HeadroomFilter

    config = RunConfig(call_model_input_filter=HeadroomFilter(budget=6000))
    result = await Runner.run(agent, "…", run_config=config)

Before each model call the SDK hands the filter the input it is about to send (Responses
items). Tool outputs (`function_call_output`) older than the last `keep_recent` are aged
(history.py: shrunk once to `age_budget` tokens by the planners, the originals stored); each
newer one over `budget` is clipped like a hook's output (agents/clip.py: the planner that
fits, the whole output in the store, a marker naming `headroom show ID`). Everything else goes
out as the SDK gave it.

The cache rule holds: an output's text is a function of that output alone and of whether it
has left the window, so an item changes once — when it first goes out clipped, or when it
ages — and is byte-identical on every later call. The SDK keeps its own history: the filter
copies the items it changes and never touches the SDK's. It needs nothing from the SDK (the
items are plain dicts; ModelInputData is replaced with dataclasses.replace), so importing
this module loads no SDK. Fails open: on any error the input goes out unchanged.
"""

from __future__ import annotations

import dataclasses
import hashlib
import os
import time

from ..agents.clip import clip_text, hook_program, note
from ..defaults import DEFAULT_HOOK_BUDGET
from ..history import (DEFAULT_AGE_BUDGET, DEFAULT_KEEP_RECENT, RESPONSES_RESULT, age_history,
                       planned, tool_results)

MEMO_SIZE = 256  # clipped outputs remembered: a long run re-sends each one every call


class HeadroomFilter:
    """A RunConfig.call_model_input_filter. `budget`: tokens a new tool output may take (0: no
    clipping); `keep_recent`, `age_budget`: outputs older than the last `keep_recent` are
    shrunk to `age_budget` tokens (`age=False`: never); `store`: keep the whole outputs so
    the markers' `headroom show ID` works; `skip_tools`: tools whose outputs stay whole."""

    def __init__(self, *, budget: int = DEFAULT_HOOK_BUDGET, age: bool = True,
                 keep_recent: int = DEFAULT_KEEP_RECENT, age_budget: int = DEFAULT_AGE_BUDGET,
                 store: bool = True, skip_tools: frozenset[str] | set[str] = frozenset()):
        self.budget, self.age, self.store = budget, age, store
        self.keep_recent, self.age_budget = keep_recent, age_budget
        self.skip_tools = frozenset(skip_tools)
        self._clipped: dict[str, str] = {}  # sha256 of an output -> what the model gets

    def __call__(self, data):
        try:
            items = self.filter_items(list(data.model_data.input))
        except Exception as err:  # noqa: BLE001 - a filter must never lose the input
            note(f"openai-agents filter: {type(err).__name__}: {err}; input sent unchanged")
            return data.model_data
        return dataclasses.replace(data.model_data, input=items)

    def filter_items(self, items: list) -> list:
        """The items to send: the old outputs aged, the new ones over the budget clipped."""
        aged = set()
        if self.age:
            items, aged = self._aged(items)
        for result in tool_results(items):
            if result.message in aged or result.tool in self.skip_tools:
                continue
            item = items[result.message]
            if not (isinstance(item, dict) and item.get("type") == RESPONSES_RESULT
                    and isinstance(item.get("output"), str)):
                continue  # a list of parts (an image): as the tool gave it
            text = self._clip(result.text)
            if text != result.text:
                items[result.message] = dict(item, output=text)
        return items

    def _clip(self, text: str) -> str:
        if len(text) <= self.budget or self.budget <= 0:
            return text  # fits by size alone (every token covers a byte)
        key = hashlib.sha256(text.encode("utf-8", "surrogateescape")).hexdigest()
        if key not in self._clipped:
            if len(self._clipped) >= MEMO_SIZE:
                self._clipped.pop(next(iter(self._clipped)))
            self._clipped[key] = clip_text(text, tool=None, budget=self.budget,
                                           store=self.store)
        return self._clipped[key]

    def _aged(self, items: list) -> tuple[list, set[int]]:
        """`items` with the outputs that left the window aged (a skipped tool's: whole), and
        the indexes of the items that changed; the originals go to the store."""
        from ..api import counter_for
        from ..run import configured_store
        from ..settings import Settings

        store, retention = configured_store() if self.store else (None, None)
        counter = counter_for(Settings.load(os.environ).encoding)
        shrink = planned(self.age_budget, counter, store is not None, hook_program())
        view = age_history(items, keep_recent=self.keep_recent, counter=counter,
                           name_copies=store is not None,
                           shrink=lambda result: None if result.tool in self.skip_tools
                           else shrink(result))
        for item in view.stored:
            store.put(item.id, item.data, retention, time.time())
        return view.messages, set(view.aged_messages)
