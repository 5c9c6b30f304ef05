"""Drive the `headroom-ai` package on stdin, the way headroom is driven: output in, clip out.

headroom-ai's own command (`headroom`, headroom.cli:main) runs a proxy and manages memories;
it has no mode that filters stdin (checked on 0.42.0). Its library call `headroom.compress()`
is what compresses a tool's output, so this wraps it in the smallest possible CLI: the input
becomes a tool result in an OpenAI-style conversation, and the compressed result is printed.
Run with the peers venv's Python (bench.py --peers-install makes one).
"""

import sys


def main() -> None:
    from headroom import compress

    text = sys.stdin.buffer.read().decode("utf-8", "replace")
    messages = [
        {"role": "user", "content": "Run the command and tell me what failed."},
        {"role": "assistant", "content": None, "tool_calls": [
            {"id": "call_1", "type": "function",
             "function": {"name": "Bash", "arguments": '{"command": "make"}'}}]},
        {"role": "tool", "tool_call_id": "call_1", "content": text},
    ]
    # gpt-4 counts with cl100k_base, which bench/peers.py makes available offline.
    result = compress(messages, model="gpt-4")
    sys.stdout.write(str(result.messages[2]["content"]))


if __name__ == "__main__":
    main()
