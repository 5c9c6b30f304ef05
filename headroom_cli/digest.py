"""The digest (optional, off by default): a cheap model's short summary of a large omitted part.

The model is reached through a command the user configures (`llm -m gpt-4o-mini`: the prompt
on its stdin, the summary on its stdout) or an OpenAI-compatible chat-completions URL (a local
llama.cpp or vLLM server counts). summarize() never raises: any failure, a non-zero exit, a
timeout, an empty or malformed reply, gives None, and the marker is printed without a digest.

The text sent is what the clip left out, so with a remote model it leaves the machine: that is
why the digest is off until a command or URL is configured.
"""

from __future__ import annotations

import contextlib
import os
import shlex
import subprocess
import threading

MIN_DROPPED_CHARS = 4_000  # smaller omissions get no digest: the marker says enough
MAX_INPUT_CHARS = 24_000  # what the model is fed at most (api.omitted_text samples beyond)
MAX_WORDS = 120
# The room a digest gets in the marker, in tokens (and never more than a quarter of the budget):
# 120 dense words of identifiers and numbers run to about 3 tokens each.
MAX_TOKENS = 400
DEFAULT_TIMEOUT = 10.0

PROMPT = (
    "Below is the part of a command's output that was cut to save space. Summarize it in at "
    f"most {MAX_WORDS} words, as one dense, factual paragraph: keep identifiers, file paths, "
    "numbers, counts and error messages verbatim. No preamble, no headings, no advice: start "
    "with the facts.\n\n"
)


def summarize(text: str, command: str | None = None, url: str | None = None,
              model: str | None = None, timeout: float = DEFAULT_TIMEOUT) -> str | None:
    """A one-line digest of `text` of at most MAX_WORDS words, or None on any failure."""
    prompt = PROMPT + text[:MAX_INPUT_CHARS]
    try:
        if command:
            reply = _by_command(command, prompt, timeout)
        elif url:
            reply = _by_url(url, model, prompt, timeout)
        else:
            return None
    except Exception:  # noqa: BLE001 - a digest is never worth failing the run
        return None
    return tidy(reply) if isinstance(reply, str) else None


def tidy(reply: str) -> str | None:
    """One line, at most MAX_WORDS words, ending in a full stop (the marker goes on after it)."""
    words = reply.replace("\x00", " ").split()
    if not words:
        return None
    cut = len(words) > MAX_WORDS
    line = " ".join(words[:MAX_WORDS])
    if cut:
        return line.rstrip(".,;:") + " …"
    return line if line.endswith((".", "!", "?", "…")) else line + "."


def _by_command(command: str, prompt: str, timeout: float) -> str | None:
    args = shlex.split(command)
    if not args:
        return None
    # Its own session, so a timeout kills whatever it started too (and nothing holds our pipes).
    proc = subprocess.Popen(args, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        out, _ = proc.communicate(prompt.encode("utf-8", "replace"), timeout=timeout)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(OSError):
            os.killpg(proc.pid, 9)
        with contextlib.suppress(Exception):
            proc.communicate(timeout=1)
        return None
    if proc.returncode != 0:
        return None
    return out.decode("utf-8", "replace")


def _by_url(url: str, model: str | None, prompt: str, timeout: float) -> str | None:
    # The socket timeout bounds each read; the thread bounds the whole exchange.
    answer: list = []
    worker = threading.Thread(target=lambda: answer.append(_post(url, model, prompt, timeout)),
                              daemon=True)
    worker.start()
    worker.join(timeout)
    return answer[0] if answer else None


def _post(url: str, model: str | None, prompt: str, timeout: float) -> str | None:
    import json
    import urllib.request

    try:
        body = {"messages": [{"role": "user", "content": prompt}], "temperature": 0,
                "max_tokens": 400, "stream": False}
        if model:
            body["model"] = model
        request = urllib.request.Request(url, data=json.dumps(body).encode("utf-8"),
                                         headers={"Content-Type": "application/json"},
                                         method="POST")
        with urllib.request.urlopen(request, timeout=timeout) as response:
            data = json.loads(response.read(1 << 20).decode("utf-8"))
        content = data["choices"][0]["message"]["content"]
        return content if isinstance(content, str) else None
    except Exception:  # noqa: BLE001
        return None
