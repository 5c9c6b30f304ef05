"""The digest: a summarizer's few words about a large omission, inside the closing marker.

The summarizers here are real: a Python script run as the configured command, and an HTTP
server on 127.0.0.1 speaking the chat-completions shape.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import textwrap
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from conftest import invoke_cli
from headroom_cli import digest
from headroom_cli.api import compress, omitted_text
from headroom_cli.render import DIGEST_LABEL

BIG = "".join(f"line number {i}: value={i * 7} path=/srv/app/mod{i % 13}.py\n"
              for i in range(1, 4001)).encode()
BUDGET = "800"
DIGEST = "Lines 40-3960 repeat value=N path=/srv/app/modK.py; no errors."


def _script(tmp_path: Path, name: str, body: str) -> str:
    """A summarizer command: a script that notes each call in NAME.calls, then runs body."""
    path = tmp_path / f"{name}.py"
    calls = tmp_path / f"{name}.calls"
    path.write_text(textwrap.dedent(f"""\
        import sys, time
        prompt = sys.stdin.read()
        with open({str(calls)!r}, "a") as f:
            f.write(str(len(prompt)) + "\\n")
        with open({str(calls) + '.prompt'!r}, "w") as f:
            f.write(prompt)
        """) + textwrap.dedent(body))
    return f"{sys.executable} {path}"


def _calls(tmp_path: Path, name: str) -> list[int]:
    calls = tmp_path / f"{name}.calls"
    return [int(n) for n in calls.read_text().split()] if calls.exists() else []


def _run(tmp_path, args, data=BIG, budget=BUDGET, **env):
    base = {"HOME": str(tmp_path / "home")}
    return invoke_cli(["--budget", budget, *args], data, {**base, **env}, str(tmp_path))


def _marker(out: bytes) -> str:
    lines = [line for line in out.decode().splitlines() if line.startswith("[…headroom: ")]
    assert len(lines) == 1, lines
    return lines[0]


def _tokens(counter, out: bytes) -> int:
    return counter.count(out.decode("utf-8", "surrogateescape"))


# --------------------------------------------------------------------------- a command

def test_a_command_digest_goes_into_the_closing_marker(tmp_path, counter):
    command = _script(tmp_path, "ok", f'print("  {DIGEST}\\n  second line")\n')
    run = _run(tmp_path, [], HEADROOM_DIGEST_COMMAND=command)
    assert run.exit_code == 0
    marker = _marker(run.stdout)
    assert f"{DIGEST_LABEL} {DIGEST} second line. To retrieve: headroom show " in marker
    assert "model-written" in marker
    assert _tokens(counter, run.stdout) <= int(BUDGET)
    [prompt_chars] = _calls(tmp_path, "ok")
    prompt = (tmp_path / "ok.calls.prompt").read_text()
    assert prompt.startswith(digest.PROMPT) and "120 words" in prompt
    assert prompt_chars <= len(digest.PROMPT) + digest.MAX_INPUT_CHARS
    # What the model reads is what was omitted: the middle, not the kept head.
    assert "line number 2000:" in prompt and "line number 1:" not in prompt


def test_the_model_reads_exactly_the_lines_the_marker_omits(tmp_path):
    command = _script(tmp_path, "ok", f'print("{DIGEST}")\n')
    run = _run(tmp_path, [], HEADROOM_DIGEST_COMMAND=command)
    marker = _marker(run.stdout)
    assert DIGEST in marker
    first, last = re.search(r"lines ([\d,]+)–([\d,]+) of", marker).groups()
    omitted = (tmp_path / "ok.calls.prompt").read_text()[len(digest.PROMPT):].splitlines()
    # (sampled from the omission's head, middle and tail when it is long: its ends are exact)
    assert omitted[0].startswith(f"line number {first.replace(',', '')}:")
    assert omitted[-1].startswith(f"line number {last.replace(',', '')}:")


def test_a_long_reply_is_cut_to_120_words_on_one_line(tmp_path, counter):
    command = _script(tmp_path, "long", 'print("\\n".join(f"word{i}" for i in range(300)))\n')
    run = _run(tmp_path, [], budget="2000", HEADROOM_DIGEST_COMMAND=command)
    marker = _marker(run.stdout)
    said = marker.split(DIGEST_LABEL, 1)[1].split(" To retrieve:", 1)[0]
    assert "word119" in said and "word120" not in said
    assert len(said.split()) <= 121  # the words and a closing "…"
    assert _tokens(counter, run.stdout) <= 2000


def test_a_digest_too_big_for_the_budget_is_left_out(tmp_path, counter):
    command = _script(tmp_path, "long", 'print("\\n".join(f"word{i}" for i in range(300)))\n')
    run = _run(tmp_path, [], HEADROOM_DIGEST_COMMAND=command)
    assert run.exit_code == 0 and "Digest" not in _marker(run.stdout)
    assert _tokens(counter, run.stdout) <= int(BUDGET)


# "hangs" outlives any test run: had headroom waited for it, the suite would hang; instead the
# timeout kills it (its pid file then names a process that is gone).
HANG = 'import os, time\nopen(os.environ["PID_FILE"], "w").write(str(os.getpid()))\ntime.sleep(100000)\n'


@pytest.mark.parametrize("body", ['sys.exit(1)\n', 'print("")\n', HANG],
                         ids=["exits-1", "says-nothing", "hangs"])
def test_a_failing_summarizer_leaves_the_plain_marker(tmp_path, body):
    command = _script(tmp_path, "bad", body)
    pid_file = tmp_path / "summarizer.pid"
    run = _run(tmp_path, [], HEADROOM_DIGEST_COMMAND=command, HEADROOM_DIGEST_TIMEOUT="1",
               PID_FILE=str(pid_file))
    if body == HANG:
        with pytest.raises(ProcessLookupError):
            os.kill(int(pid_file.read_text()), 0)  # killed, not left behind
    assert run.exit_code == 0
    marker = _marker(run.stdout)
    assert "Digest" not in marker and "To retrieve: headroom show" in marker
    assert _calls(tmp_path, "bad")  # it was asked
    plain = _run(tmp_path / "plain", [])
    assert plain.stdout == run.stdout


def test_no_digest_asks_no_model(tmp_path):
    command = _script(tmp_path, "ok", f'print("{DIGEST}")\n')
    run = _run(tmp_path, ["--no-digest"], HEADROOM_DIGEST_COMMAND=command)
    assert run.exit_code == 0
    assert "Digest" not in _marker(run.stdout)
    assert not (tmp_path / "ok.calls").exists()


def test_a_small_omission_asks_no_model(tmp_path):
    data = "".join(f"line number {i}\n" for i in range(1, 701))
    result = compress(data, budget=3000, tool=None)
    assert result.clipped and 0 < result.dropped_chars < digest.MIN_DROPPED_CHARS
    command = _script(tmp_path, "ok", f'print("{DIGEST}")\n')
    run = invoke_cli(["--budget", "3000"], data.encode(),
                     {"HOME": str(tmp_path), "HEADROOM_DIGEST_COMMAND": command}, str(tmp_path))
    assert run.exit_code == 0 and "[…headroom: " in run.stdout.decode()
    assert not (tmp_path / "ok.calls").exists()


def test_output_that_fits_passes_through_without_a_model(tmp_path):
    command = _script(tmp_path, "ok", f'print("{DIGEST}")\n')
    run = _run(tmp_path, [], data=b"short\n", HEADROOM_DIGEST_COMMAND=command)
    assert run.stdout == b"short\n"
    assert not (tmp_path / "ok.calls").exists()


# --------------------------------------------------------------------------- the store

def test_the_store_keeps_the_digest_so_a_rerun_prints_the_same_marker(tmp_path):
    first = _script(tmp_path, "first", f'print("{DIGEST}")\n')
    second = _script(tmp_path, "second", 'print("Something else entirely.")\n')
    one = _run(tmp_path, [], HEADROOM_DIGEST_COMMAND=first)
    two = _run(tmp_path, [], HEADROOM_DIGEST_COMMAND=second)
    assert DIGEST in _marker(one.stdout)
    assert two.stdout == one.stdout
    assert _calls(tmp_path, "first") and not _calls(tmp_path, "second")
    [sidecar] = (tmp_path / "store").glob("*.digest")
    assert sidecar.stat().st_mode & 0o777 == 0o600
    assert DIGEST in sidecar.read_text()


def test_without_the_store_a_rerun_asks_again(tmp_path):
    first = _script(tmp_path, "first", f'print("{DIGEST}")\n')
    second = _script(tmp_path, "second", 'print("Something else entirely.")\n')
    _run(tmp_path, ["--no-store"], HEADROOM_DIGEST_COMMAND=first)
    two = _run(tmp_path, [], HEADROOM_STORE="off", HEADROOM_DIGEST_COMMAND=second)
    marker = _marker(two.stdout)
    assert "Something else entirely." in marker and "headroom show" not in marker
    assert _calls(tmp_path, "first") and _calls(tmp_path, "second")
    assert not list(tmp_path.glob("store/*.digest"))


def test_pruning_an_output_removes_its_digest(tmp_path):
    from headroom_cli.store import Retention, Store, content_id

    store = Store(tmp_path / "s")
    item = content_id(b"x" * 10)
    store.put(item, b"x" * 10, Retention(), time.time())
    store.put_digest(item, "a digest.", "k")
    assert store.get_digest(item, "k") == "a digest." and store.get_digest(item, "j") is None
    store.prune(Retention(max_bytes=0), time.time())
    assert store.get_digest(item, "k") is None and not list((tmp_path / "s").iterdir())


# --------------------------------------------------------------------------- a URL

class _Server:
    def __init__(self, reply):
        self.requests: list = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802
                body = self.rfile.read(int(self.headers["Content-Length"]))
                outer.requests.append((self.path, json.loads(body)))
                status, payload = reply
                data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.httpd.server_port}/v1/chat/completions"
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()

    def close(self):
        self.httpd.shutdown()
        self.httpd.server_close()


@pytest.fixture
def server(request):
    made = []

    def start(reply):
        made.append(_Server(reply))
        return made[0]

    yield start
    for each in made:
        each.close()


def test_a_chat_completions_url_gives_the_digest(tmp_path, server, counter):
    srv = server((200, {"choices": [{"message": {"role": "assistant", "content": DIGEST}}]}))
    run = _run(tmp_path, [], HEADROOM_DIGEST_URL=srv.url, HEADROOM_DIGEST_MODEL="tiny-1b")
    assert run.exit_code == 0
    assert f"{DIGEST_LABEL} {DIGEST} To retrieve:" in _marker(run.stdout)
    assert _tokens(counter, run.stdout) <= int(BUDGET)
    [(path, body)] = srv.requests
    assert path == "/v1/chat/completions" and body["model"] == "tiny-1b"
    assert body["messages"][0]["role"] == "user"
    assert body["messages"][0]["content"].startswith(digest.PROMPT)


@pytest.mark.parametrize("reply", [(500, {"error": "boom"}), (200, b"{not json"),
                                   (200, {"choices": []})], ids=["500", "bad-json", "no-choice"])
def test_a_failing_url_leaves_the_plain_marker(tmp_path, server, reply):
    srv = server(reply)
    run = _run(tmp_path, [], HEADROOM_DIGEST_URL=srv.url)
    assert run.exit_code == 0
    assert "Digest" not in _marker(run.stdout)
    assert len(srv.requests) == 1


def test_an_unreachable_url_leaves_the_plain_marker(tmp_path):
    run = _run(tmp_path, [], HEADROOM_DIGEST_URL="http://127.0.0.1:9/v1/chat/completions")
    assert run.exit_code == 0 and "Digest" not in _marker(run.stdout)


# --------------------------------------------------------------------------- config and parts

def test_the_config_file_sets_the_summarizer(tmp_path):
    command = _script(tmp_path, "ok", f'print("{DIGEST}")\n')
    config = tmp_path / "config.toml"
    config.write_text(f"digest_command = {json.dumps(command)}\ndigest_timeout = 5\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("HEADROOM_")}
    env.update(HOME=str(tmp_path), HEADROOM_CONFIG=str(config),
               HEADROOM_STORE=str(tmp_path / "store"), XDG_STATE_HOME=str(tmp_path / "state"))
    done = subprocess.run([sys.executable, "-m", "headroom_cli", "--budget", BUDGET], input=BIG,
                          capture_output=True, env=env, timeout=60)
    assert done.returncode == 0
    assert DIGEST in _marker(done.stdout)


def test_omitted_text_samples_head_middle_and_tail():
    data = "".join(f"row {i}\n" for i in range(1, 40001))
    result = compress(data, budget=200, tool=None)
    sample = omitted_text(result, 24_000)
    assert len(sample) <= 24_000
    first, middle, last = sample.split("\n[…]\n")
    assert abs(len(first) - len(last)) <= 1 and abs(len(first) - len(middle)) <= 1
    # A sample is cut by characters, so its first and last lines may be pieces of rows.
    rows = [int(line[4:]) for line in middle.split("\n")[1:-1]]
    assert 15_000 < min(rows) < max(rows) < 25_000  # from around the middle
    # The tail sample ends where the clip's shown tail begins.
    last_row = int(last.rstrip("\n").rsplit("row ", 1)[1])
    assert last_row > 39_000 and f"row {last_row}\n" not in first
    assert f"\nrow {last_row + 1}\n" in result.text and f"\nrow {last_row}\n" not in result.text
    small = compress(data[:9000], budget=200, tool=None)
    assert omitted_text(small).replace("\n[…]\n", "\n") in data


def test_tidy_makes_one_closed_line():
    assert digest.tidy("  a\nb  c ") == "a b c."
    assert digest.tidy("Done!") == "Done!"
    assert digest.tidy(" \n ") is None
    assert digest.summarize("text") is None  # nothing configured
