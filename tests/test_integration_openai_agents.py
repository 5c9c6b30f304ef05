"""The OpenAI Agents SDK filter (headroom_cli/integrations/openai_agents.py), with the real
package against a scripted model on 127.0.0.1: a large tool output reaches the model clipped,
one that fits byte-identical, and ageing changes an output once, when it leaves the window."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

pytest.importorskip("openai", reason="needs the openai-agents extra")  # tests/agents/ is also `agents`
agents = pytest.importorskip("agents", reason="needs the openai-agents extra")

from headroom_cli.integrations.openai_agents import HeadroomFilter  # noqa: E402

BIG = "\n".join(f"tests/test_module_{number}.py::test_case PASSED [{number % 100}%]"
                for number in range(4000)) + "\nFAILED tests/test_x.py::test_y - boom\n"
SMALL = "3 passed in 0.12s"
CALLS = ["run_tests", "status", "status", "status"]  # the scripted model's calls, in order


class Model(BaseHTTPRequestHandler):
    """Chat completions: call the next tool in CALLS, then answer; every request kept."""
    requests: list = []

    def do_POST(self):  # noqa: N802 - the http.server API
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        Model.requests.append(body)
        turn = len(Model.requests) - 1
        if turn < len(CALLS):
            message = {"role": "assistant", "content": None, "tool_calls": [{
                "id": f"call_{turn}", "type": "function",
                "function": {"name": CALLS[turn], "arguments": "{}"}}]}
        else:
            message = {"role": "assistant", "content": "done"}
        reply = json.dumps({"id": f"r{turn}", "object": "chat.completion", "created": 0,
                            "model": "scripted", "choices": [{
                                "index": 0, "message": message,
                                "finish_reason": "tool_calls" if turn < len(CALLS) else "stop"}],
                            "usage": {"prompt_tokens": 1, "completion_tokens": 1,
                                      "total_tokens": 2}}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    def log_message(self, *args):
        pass


def tool_messages(request: dict) -> list[str]:
    return [message["content"] for message in request["messages"] if message["role"] == "tool"]


def test_the_model_gets_large_outputs_clipped_small_ones_whole_and_old_ones_aged(
        private_env, counter, monkeypatch):
    from openai import AsyncOpenAI

    monkeypatch.setenv("HEADROOM_ENCODING", "cl100k_base")  # the budget the counter checks

    @agents.function_tool
    def run_tests() -> str:
        """Run the test suite."""
        return BIG

    @agents.function_tool
    def status() -> str:
        """The status."""
        return SMALL

    Model.requests = []
    server = ThreadingHTTPServer(("127.0.0.1", 0), Model)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        client = AsyncOpenAI(base_url=f"http://127.0.0.1:{server.server_port}/v1", api_key="x")
        model = agents.OpenAIChatCompletionsModel(model="scripted", openai_client=client)
        agent = agents.Agent(name="tester", instructions="Test.", model=model,
                             tools=[run_tests, status])
        config = agents.RunConfig(tracing_disabled=True, call_model_input_filter=HeadroomFilter(
            budget=1000, keep_recent=2, age_budget=200))
        result = agents.Runner.run_sync(agent, "run the tests", run_config=config)
    finally:
        server.shutdown()
    assert result.final_output == "done"
    outputs = [tool_messages(request) for request in Model.requests]
    assert [len(each) for each in outputs] == [0, 1, 2, 3, 4]
    clipped = outputs[1][0]
    assert clipped != BIG and counter.count(clipped) <= 1000 and "test_y - boom" in clipped
    assert "headroom show" in clipped
    assert outputs[2] == [clipped, SMALL]  # unchanged while in the window: the cache holds
    aged = outputs[3][0]  # left the window (2 newer outputs): aged once
    assert aged != clipped and counter.count(aged) <= 200 + 60
    assert outputs[4] == [aged, SMALL, SMALL, SMALL]  # and never again


def test_a_filter_that_fails_sends_the_input_unchanged(capsys):
    class Broken(HeadroomFilter):
        def filter_items(self, items):
            raise RuntimeError("boom")

    data = agents.run_config.CallModelData(
        model_data=agents.run_config.ModelInputData(input=[{"type": "message"}],
                                                    instructions=None),
        agent=None, context=None)
    assert Broken()(data) is data.model_data
    assert "boom" in capsys.readouterr().err
