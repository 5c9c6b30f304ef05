"""Build the replay corpus (tests/replay/*.json): agent-like sessions whose tool results are REAL.

Each session is a script an agent might follow on a real project installed from PyPI or npm (or
a fetched git repository): run the tests, break them with an edit, search, read files, look at
git history, install packages. Every command is run for real, here, and its output recorded as
the tool result; nothing is synthesized. The assistant's words between calls are scripted.

Beside each step are its needles: what a person debugging would look for in that output, written
from the command and the raw output, never from an aged one. The build checks that every needle
occurs in the raw output (so a needle cannot be invented).

    .venv/bin/python bench/history_sessions.py /tmp/hh-replay     # needs the projects set up:

    /tmp/hh-replay/venv              python3 -m venv, with pytest installed
    /tmp/hh-replay/src/click-8.1.7, more-itertools-10.5.0   pip download --no-binary :all: (sdists)
    /tmp/hh-replay/js                npm install express@4.19.2
    /tmp/hh-replay/itsdangerous      git clone of github.com/pallets/itsdangerous

Outputs vary a little between machines (timings, paths); the corpus is one recorded run.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "tests" / "replay"


@dataclass(frozen=True)
class Step:
    tool: str  # the agent's tool: "bash" (a shell command), "read" (a file), "grep" (rg -n …)
    arg: str  # the command, the path, or rg's arguments
    needles: tuple[str, ...] = ()
    say: str = ""  # what the assistant says before the call


@dataclass(frozen=True)
class Session:
    name: str
    form: str  # "anthropic" (Claude Code's tool names), "openai" (hermes-agent's), "pi"
    task: str
    setup: str  # shell commands that make the working directory from the pristine sources
    steps: tuple[Step, ...] = field(default=())


TOOL_NAMES = {
    "anthropic": {"bash": "Bash", "read": "Read", "grep": "Grep"},
    "openai": {"bash": "terminal", "read": "read_file", "grep": "search_files"},
    "pi": {"bash": "bash", "read": "read", "grep": "grep"},
}


def run(step: Step, cwd: Path, env: dict) -> str:
    if step.tool == "read":  # numbered, the first 2,000 lines: as Claude Code's Read shows a file
        command = ["bash", "-c", f"cat -n {step.arg} | head -2000"]
    elif step.tool == "grep":
        command = ["bash", "-c", f"rg -n {step.arg}"]
    else:
        command = ["bash", "-c", step.arg]
    done = subprocess.run(command, cwd=cwd, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, timeout=600)
    text = done.stdout.decode("utf-8", "replace")
    if done.returncode and step.tool == "bash":
        text += f"\n[exit code {done.returncode}]"  # as agents append it
    return text


def messages_for(session: Session, outputs: list[str]) -> tuple[list[dict], dict]:
    names = TOOL_NAMES[session.form]
    messages: list[dict] = [{"role": "user", "content": session.task}]
    needles = {}
    for number, (step, output) in enumerate(zip(session.steps, outputs), 1):
        call_id = f"call_{session.name}_{number:02d}"
        needles[call_id] = list(step.needles)
        name = names[step.tool]
        arguments = {"bash": {"command": step.arg}, "read": {"path": step.arg},
                     "grep": {"pattern": step.arg}}[step.tool]
        say = step.say or "Next step."
        if session.form == "anthropic":
            messages.append({"role": "assistant", "content": [
                {"type": "text", "text": say},
                {"type": "tool_use", "id": call_id, "name": name, "input": arguments}]})
            messages.append({"role": "user", "content": [
                {"type": "tool_result", "tool_use_id": call_id, "content": output}]})
        elif session.form == "openai":
            messages.append({"role": "assistant", "content": say, "tool_calls": [
                {"id": call_id, "type": "function",
                 "function": {"name": name, "arguments": json.dumps(arguments)}}]})
            messages.append({"role": "tool", "tool_call_id": call_id, "content": output})
        else:
            messages.append({"role": "assistant", "content": [
                {"type": "text", "text": say},
                {"type": "toolCall", "id": call_id, "name": name, "arguments": arguments}]})
            messages.append({"role": "toolResult", "toolCallId": call_id, "toolName": name,
                             "content": [{"type": "text", "text": output}], "isError": False})
    messages.append({"role": "assistant", "content": "Done: the cause is found and fixed."})
    return messages, needles


def build(session: Session, base: Path) -> None:
    work = base / "work" / session.name
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    env = {"PATH": f"{base / 'venv' / 'bin'}:/usr/local/bin:/usr/bin:/bin", "HOME": str(work),
           "LANG": "C.UTF-8", "TERM": "dumb", "NO_COLOR": "1", "GIT_PAGER": "cat",
           "PIP_DISABLE_PIP_VERSION_CHECK": "1", "BASE": str(base),
           # An edit that keeps a file's size within one second leaves a stale .pyc behind.
           "PYTHONDONTWRITEBYTECODE": "1"}
    subprocess.run(["bash", "-ec", session.setup], cwd=work, env=env, check=True,
                   stdout=subprocess.DEVNULL)
    outputs, missing = [], []
    raw = base / "raw" / session.name
    raw.mkdir(parents=True, exist_ok=True)
    for number, step in enumerate(session.steps, 1):
        output = run(step, work / "project", env)
        (raw / f"{number:02d}.txt").write_text(f"$ {step.tool} {step.arg}\n{output}")
        outputs.append(output)
        missing += [(number, needle) for needle in step.needles if needle not in output]
    if missing:
        sys.exit(f"{session.name}: needles not in the raw output: {missing}")
    messages, needles = messages_for(session, outputs)
    OUT.mkdir(parents=True, exist_ok=True)
    about = (f"Replay corpus session '{session.name}': real tool outputs recorded by "
             "bench/history_sessions.py; needles per call id.")
    with open(OUT / f"{session.name}.json", "w", encoding="utf-8") as out:
        json.dump({"about": about, "messages": messages, "needles": needles}, out,
                  ensure_ascii=False, indent=1)
        out.write("\n")
    print(f"{session.name}: {len(session.steps)} tool calls, "
          f"{sum(len(o) for o in outputs):,} characters of output")


def bash(arg: str, *needles: str, say: str = "") -> Step:
    return Step("bash", arg, needles, say)


def read(arg: str, *needles: str, say: str = "") -> Step:
    return Step("read", arg, needles, say)


def grep(arg: str, *needles: str, say: str = "") -> Step:
    return Step("grep", arg, needles, say)


GIT_INIT = "git init -q && git add -A && git -c user.name=dev -c user.email=dev@example.com commit -qm import"

SESSIONS = (
    Session("more-itertools-chunked", "anthropic",
            "An edit to chunked() in more-itertools broke things. Find what fails and why, then fix it.",
            f"cp -r $BASE/src/more-itertools-10.5.0 project && cd project && {GIT_INIT}", (
        bash("ls -la", "more_itertools", "tests", "pyproject.toml", say="Let me look around."),
        read("README.rst", "More Itertools", "chunked", "Getting started", "Links elsewhere"),
        bash("python -m pip install -e . 2>&1", "Successfully installed more-itertools-10.5.0"),
        bash("python -m pytest tests -v 2>&1", "663 passed, 1 skipped",
             "DeprecationWarning: zip_equal", "test_more.py::ChunkedTests::test_even PASSED",
             say="Baseline: the whole suite, verbose."),
        grep("'def chunked' more_itertools", "more_itertools/more.py:162:def chunked",
             "more.py:4377:def chunked_even", "more.pyi:59:def chunked("),
        bash("sed -n 150,200p more_itertools/more.py", "def chunked(iterable, n, strict=False):",
             "iterator = iter(partial(take, n, iter(iterable)), [])",
             "raise ValueError('iterable is not divisible by n.')"),
        read("more_itertools/recipes.py", "def take(", "def grouper(", "def batched(",
             "def sliding_window(", "def totient("),
        bash("sed -i 's/partial(take, n, iter(iterable))/partial(take, n - 1, iter(iterable))/' "
             "more_itertools/more.py && git diff",
             "+    iterator = iter(partial(take, n - 1, iter(iterable)), [])",
             "@@ -178,7 +178,7 @@ def chunked", say="Reproducing the reported edit."),
        bash("python -m pytest tests -q 2>&1", "8 failed, 655 passed",
             "FAILED tests/test_more.py::ChunkedTests::test_even",
             "FAILED tests/test_more.py::IntersperseTest::test_n",
             "FAILED tests/test_more.py::SideEffectTests::test_chunked",
             "AssertionError: 10 != 5", "tests/test_more.py:49: AssertionError",
             "[['A', 'B'], ['C', 'D'], ['E', 'F']] != [['A', 'B', 'C'], ['D', 'E', 'F']]"),
        grep("'chunked\\(' more_itertools tests", "more_itertools/more.py:833:",
             "more_itertools/more.py:1336:", "tests/test_more.py:1183:    def test_chunked(self):",
             "more_itertools/more.py:3488:def ichunked"),
        bash("grep -n 'class ChunkedTests' -A 60 tests/test_more.py", "44:class ChunkedTests(TestCase):",
             "def test_strict_being_true", "iterable is not divisible by n"),
        bash("python -m pytest -q tests/test_more.py -k chunked 2>&1", "7 failed, 15 passed",
             "FAILED tests/test_more.py::ChunkedTests::test_none - TypeError",
             "FAILED tests/test_more.py::SideEffectTests::test_chunked"),
        bash("python -c 'import more_itertools as m; print(list(m.chunked(range(7), 3)))'",
             "[[0, 1], [2, 3], [4, 5], [6]]"),
        bash("git stash && python -m pytest -q tests -k chunked 2>&1; git stash pop",
             "22 passed, 642 deselected", "modified:   more_itertools/more.py"),
        bash("git checkout more_itertools/more.py && git diff --stat && python -m pytest -q tests 2>&1 | tail -3",
             "663 passed, 1 skipped", say="Reverting that edit."),
        bash("sed -i 's/if len(chunk) != n:/if len(chunk) > n:/' more_itertools/more.py && git diff",
             "+                if len(chunk) > n:", say="Now the second part of the edit."),
        bash("python -m pytest tests -q 2>&1", "1 failed, 662 passed",
             "FAILED tests/test_more.py::ChunkedTests::test_strict_being_true",
             "AssertionError: ValueError not raised by f", "tests/test_more.py:87: AssertionError"),
        grep("-i 'strict' tests/test_more.py", "68:    def test_strict_false(self):",
             "78:    def test_strict_being_true(self):", "4234:    def test_strict(self):"),
        bash("grep -n 'def test_strict' -B 3 -A 25 tests/test_more.py",
             "78:    def test_strict_being_true(self):",
             '87-        self.assertRaisesRegex(ValueError, "iterable is not divisible by n", f)'),
        bash("git checkout more_itertools/more.py && python -m pytest tests -q 2>&1",
             "663 passed, 1 skipped, 8 warnings"),
        bash("git status && git diff", "nothing to commit, working tree clean"),
        bash("python -m pytest -q --doctest-modules more_itertools 2>&1", "148 passed, 5 skipped",
             "more_itertools/more.py::more_itertools.more.zip_equal"),
    )),
    Session("click-options", "openai",
            "click's option parsing broke after a refactor of parser.py. Find and fix it.",
            f"cp -r $BASE/src/click-8.1.7 project && cd project && {GIT_INIT}", (
        bash("ls && sed -n 1,60p setup.cfg", "python_requires = >= 3.7", "testpaths = tests", "filterwarnings = \n\terror", say="Let me look at the project."),
        bash("python -m pip install -e . 2>&1", "Successfully installed click-8.1.7"),
        bash("python -m pytest tests -q 2>&1", "ERROR tests/test_basic.py", "PytestRemovedIn10Warning: Passing a non-Collection iterable to parametrize is deprecated", "test_boolean_conversion", "Interrupted: 1 error during collection"),
        bash("python -m pytest -W ignore::pytest.PytestRemovedIn10Warning tests -q 2>&1", "589 passed, 21 skipped, 1 xfailed", say="setup.cfg turns warnings into errors; ignoring that one."),
        grep("'def split_opt' src", "src/click/parser.py:109:def split_opt"),
        read("src/click/parser.py", "def split_opt(", "def normalize_opt(", "class OptionParser", "def _match_long_opt(", "def _process_opts("),
        bash("sed -i 's/    if opt\\[1:2\\] == first:/    if opt[1:2] != first:/' src/click/parser.py && git diff", "-    if opt[1:2] == first:", "+    if opt[1:2] != first:", "src/click/parser.py"),
        bash("python -m pytest -W ignore::pytest.PytestRemovedIn10Warning tests -q 2>&1", "ERROR tests/test_info_dict.py", "ERROR tests/test_options.py", "TypeError: Could not determine name for option", "src/click/core.py:2684: in _parse_decls", "Interrupted: 2 errors during collection"),
        grep("'split_opt|normalize_opt' src tests", "src/click/parser.py:109:def split_opt", "src/click/core.py:2661:", "src/click/core.py:2672:", "src/click/formatting.py:293:"),
        bash("python -m pytest -W ignore::pytest.PytestRemovedIn10Warning tests/test_options.py -q -x 2>&1", "tests/test_options.py:894: in <module>", "TypeError: Could not determine name for option", "1 error in"),
        read("tests/test_options.py", "def test_prefixes", "def test_counting", "def test_winstyle_options", "def test_option_names", "def test_invalid_flag_combinations"),
        bash("python -c 'from click.parser import split_opt; print(split_opt(\"--name\"), split_opt(\"-n\"))'", "('-', '-name') ('-n', '')"),
        bash("git diff --stat && git checkout src/click/parser.py", "src/click/parser.py         | 2 +-", "Updated 1 path from the index"),
        bash("python -m pytest -W ignore::pytest.PytestRemovedIn10Warning tests/test_options.py -q 2>&1", "112 passed"),
        bash("sed -i 's/    return f\"{prefix}{ctx.token_normalize_func(opt)}\"/    return ctx.token_normalize_func(opt)/' src/click/parser.py && git diff", "-    return f\"{prefix}{ctx.token_normalize_func(opt)}\"", "+    return ctx.token_normalize_func(opt)", say="The other half of the refactor."),
        bash("python -m pytest -W ignore::pytest.PytestRemovedIn10Warning tests -q 2>&1", "3 failed, 586 passed", "FAILED tests/test_normalization.py::test_option_normalization", "FAILED tests/test_normalization.py::test_command_normalization", "tests/test_normalization.py:16: AssertionError", "AssertionError: assert '' == '42\\n23\\n'"),
        grep("'token_normalize_func' src tests", "tests/test_normalization.py:4:CONTEXT_SETTINGS", "src/click/parser.py:122:    return ctx.token_normalize_func(opt)", "src/click/core.py:1733:", "src/click/types.py:279:"),
        bash("python -m pytest -W ignore::pytest.PytestRemovedIn10Warning tests -q -k normalization -vv 2>&1", "3 failed, 608 deselected", "tests/test_normalization.py::test_choice_normalization FAILED", "tests/test_normalization.py:39: AssertionError"),
        read("src/click/core.py", "class Context", "class BaseCommand", "class MultiCommand", "class Group", "class CommandCollection", "def list_commands("),
        bash("git checkout src/click/parser.py && python -m pytest -W ignore::pytest.PytestRemovedIn10Warning tests -q 2>&1", "589 passed, 21 skipped, 1 xfailed"),
        bash("pip show click && pip list", "Version: 8.1.7", "Editable project location: /tmp/hh-replay/work/click-options/project", "pytest          9.2.0"),
        bash("git log --oneline && git status --short", " M src/click.egg-info/PKG-INFO"),
    )),
    Session("express-sendfile", "pi",
            "My small express app returns 500 on /report. Find out why and fix it.",
            "cp -r $BASE/js project && cd project && cat > app.js <<'EOF'\n"
            "const express = require('express');\n"
            "const http = require('http');\n"
            "const app = express();\n"
            "app.get('/report', (req, res) => res.sendFile('reports/latest.html'));\n"
            "app.get('/data', (req, res) => res.json(JSON.parse(req.query.q)));\n"
            "const server = app.listen(0, () => {\n"
            "  const port = server.address().port;\n"
            "  const path = process.argv[2] || '/report';\n"
            "  http.get({port, path}, (r) => { let b = ''; r.on('data', (c) => b += c);\n"
            "    r.on('end', () => { console.log(r.statusCode, b); server.close(); }); });\n"
            "});\n"
            "EOF\n"
            "mkdir -p reports && echo '<h1>ok</h1>' > reports/latest.html", (
        bash("ls && cat package.json", "app.js", "\"express\": \"^4.19.2\"", say="Let me look at the app."),
        bash("ls node_modules", "express", "send", "body-parser"),
        bash("node app.js", "TypeError: path must be absolute or specify root to res.sendFile", "node_modules/express/lib/response.js:442:11", "app.js:4:38"),
        grep("'path must be absolute' node_modules/express/lib", "node_modules/express/lib/response.js:442:"),
        read("node_modules/express/lib/response.js", "res.sendFile = function", "res.json = function", "res.download = function", "function sendfile(", "res.render = function"),
        bash("npm ls --all", "express@4.19.2", "send@0.18.0", "qs@6.11.0", "serve-static@1.15.0", "body-parser@1.20.2"),
        read("node_modules/express/package.json", "\"version\": \"4.19.2\"", "\"dependencies\": {", "\"engines\": {"),
        grep("'function sendfile|function onstat|SendStream' node_modules/express/lib/response.js", "1052:function sendfile(res, file, options, callback) {"),
        read("node_modules/send/index.js", "function SendStream", "SendStream.prototype.pipe", "SendStream.prototype.send", "SendStream.prototype.stream", "function collapseLeadingSlashes"),
        bash("node -e \"console.log(Object.keys(require('express')))\"", "'static'", "'Router'"),
        bash("sed -i \"s|res.sendFile('reports/latest.html')|res.sendFile('reports/latest.html', {root: __dirname})|\" app.js && cat app.js && node app.js", "200 <h1>ok</h1>", "res.sendFile('reports/latest.html', {root: __dirname})", say="sendFile needs an absolute path or a root."),
        bash("node app.js /data?q=%7Bbad", "500 <!DOCTYPE html>", "SyntaxError: Expected property name or &#39;}&#39; in JSON at position 1", "app.js:5:46"),
        grep("'function json|JSON.stringify' node_modules/express/lib/response.js", "251:res.json = function json(obj) {", "1158:    ? JSON.stringify(value, replacer, spaces)"),
        bash("node app.js '/data?q=%7B%22a%22%3A1%7D'", "200 {\"a\":1}"),
        bash("npm install --no-audit --no-fund ky@1.2.0 2>&1", "added 1 package"),
        bash("cat node_modules/ky/package.json", "\"version\": \"1.2.0\"", "\"type\": \"module\"", "\"node\": \">=18\""),
        grep("-n 'timeout' node_modules/ky/distribution/core/Ky.js", "123:            timeout: options.timeout ?? 10000,", "14:                throw new RangeError"),
        bash("find node_modules -name '*.d.ts' | sort", "node_modules/ky/distribution/index.d.ts", "node_modules/side-channel/index.d.ts"),
        bash("du -sk node_modules/* | sort -n | tail -25", "node_modules/iconv-lite", "node_modules/ky"),
        bash("node -e \"import('ky').then(m => console.log(typeof m.default, Object.keys(m.default)))\"", "function [", "'extend'"),
        bash("cat package.json && npm ls --depth=0", "├── express@4.19.2", "└── ky@1.2.0"),
    )),
    Session("itsdangerous-history", "anthropic",
            "itsdangerous' timed signatures: what changed between 2.1.2 and 2.2.0, and does max_age "
            "still work? Check the history and the tests.",
            "git clone -q $BASE/itsdangerous project", (
        bash("git log --oneline | head -80", "672971d Merge branch 'stable'", "31f46a3 remove previously deprecated code (#406)", "1e9550e deprecate `__version__` (#371)", "53efacd drop support for Python 3.7 (#372)", say="Start with the history."),
        bash("git log --stat -5", "commit 672971d66a2ef9f85151e53283113f33d642dabd", "remove slsa provenance", ".github/workflows/publish.yaml | 22 +++-------------------"),
        bash("git tag", "2.1.2", "2.2.0"),
        bash("git log --oneline 2.1.2..2.2.0", "096c8d4 release version 2.2.0", "7f4dcf8 access sha1 lazily", "135eb23 Generic serializer (#377)", "4712ab6 start version 2.2.0"),
        bash("git diff 2.1.2 2.2.0 --stat", "src/itsdangerous/timed.py                  |  84 ++++++-----", "44 files changed, 925 insertions(+), 581 deletions(-)"),
        bash("git diff 2.1.2 2.2.0 -- src/itsdangerous/timed.py", "diff --git a/src/itsdangerous/timed.py b/src/itsdangerous/timed.py", "+from .serializer import _TSerialized", "+        max_age: int | None = None,"),
        read("src/itsdangerous/timed.py", "class TimestampSigner", "def get_timestamp", "if age > max_age:", "class TimedSerializer", "def loads_unsafe"),
        grep("'def loads' src", "src/itsdangerous/timed.py:185:    def loads(", "src/itsdangerous/serializer.py:328:    def loads("),
        bash("python -m pip install -e . 2>&1 && python -m pip install freezegun 2>&1 | tail -1 && python -m pytest -q tests 2>&1", "Successfully installed itsdangerous", "297 passed"),
        bash("git log -p -3 -- src/itsdangerous/signer.py", "commit 7f4dcf83a07bb3d53f4e0e65ef1b43327b4cca90", "access sha1 lazily", "+def _lazy_sha1(string: bytes = b\"\") -> t.Any:"),
        bash("sed -i 's/if age > max_age:/if age < max_age:/' src/itsdangerous/timed.py && git diff", "-            if age > max_age:", "+            if age < max_age:", say="Check that the tests catch a broken max_age."),
        bash("python -m pytest -q tests 2>&1", "5 failed, 292 passed", "FAILED tests/test_itsdangerous/test_timed.py::TestTimestampSigner::test_max_age", "FAILED tests/test_itsdangerous/test_url_safe.py::TestURLSafeTimedSerializer::test_max_age[zlib]", "itsdangerous.exc.SignatureExpired: Signature age 1 > 10 seconds", "tests/test_itsdangerous/test_timed.py:37"),
        grep("'SignatureExpired' src tests", "src/itsdangerous/exc.py:60:class SignatureExpired(BadTimeSignature):", "src/itsdangerous/timed.py:142:", "tests/test_itsdangerous/test_timed.py:40:"),
        read("tests/test_itsdangerous/test_timed.py", "class TestTimestampSigner", "def test_max_age", "def test_future_age", "class TestTimedSerializer"),
        bash("git blame -L 1,120 src/itsdangerous/timed.py", "69a3bca7 (David Lord 2024-04-13", "0635526a (David Lord 2018-10-06"),
        bash("git checkout src/itsdangerous/timed.py && python -m pytest -q tests 2>&1", "Updated 1 path from the index", "297 passed"),
        bash("git log --format='%h %an %ad %s' --date=short -- src/itsdangerous/serializer.py | head -60", "7edfa12 David Lord 2025-05-28 drop end of life python versions", "999ce7a Daverball 2024-04-14 Improve generic typing further"),
        bash("git show --stat HEAD~10", "commit 50e6b624d86b6770bbf433f2617ff17fd628a053", "set up pre-commit lite workflow"),
        read("CHANGES.rst", "Version 2.2.0", "Released 2024-04-16", "Drop support for Python 3.7", "Deprecate the ``__version__`` attribute", "Version 2.1.2"),
        grep("-i 'deprecat' src tests CHANGES.rst", "CHANGES.rst:7:-   Remove previously deprecated code.", "CHANGES.rst:19:"),
        bash("git shortlog -sn HEAD | head -20", "341\tDavid Lord", "91\tArmin Ronacher"),
        bash("python -c 'import itsdangerous; print(itsdangerous.__version__)' 2>&1", "AttributeError: module 'itsdangerous' has no attribute '__version__'"),
    )),
    Session("pip-requests-deps", "openai",
            "requests fails in our venv after some installs; sort out the dependencies.",
            "mkdir project", (
        bash("python3 -m venv env && env/bin/pip install requests==2.31.0 2>&1", "Successfully installed certifi-2026.10.18 charset-normalizer-3.5.2 idna-3.20 requests-2.31.0 urllib3-2.8.0", say="A fresh venv first."),
        bash("env/bin/pip list", "requests           2.31.0", "urllib3            2.8.0"),
        bash("env/bin/pip show -f requests", "Version: 2.31.0", "Requires: certifi, charset-normalizer, idna, urllib3", "requests/adapters.py"),
        bash("env/bin/python -c \"import requests; requests.get('http://127.0.0.1:9/health', timeout=2)\" 2>&1", "requests.exceptions.ConnectionError: HTTPConnectionPool(host='127.0.0.1', port=9)", "[Errno 111] Connection refused", "requests/adapters.py\", line 519, in send"),
        grep("'class ConnectionError|class ConnectTimeout' env/lib/python3.11/site-packages/requests", "requests/exceptions.py:49:class ConnectionError(RequestException):", "requests/exceptions.py:70:class ConnectTimeout"),
        read("env/lib/python3.11/site-packages/requests/adapters.py", "class HTTPAdapter", "def send(", "def build_response(self, req, resp):", "def cert_verify", "raise ConnectionError(e, request=request)"),
        bash("env/bin/pip install 'urllib3<2' 2>&1", "Successfully installed urllib3-1.26.20", "Successfully uninstalled urllib3-2.8.0"),
        bash("env/bin/pip check", "No broken requirements found."),
        bash("env/bin/pip install 'idna==2.0' 2>&1", "requests 2.31.0 requires idna<4,>=2.5, but you have idna 2.0 which is incompatible.", "Successfully installed idna-2.0"),
        bash("env/bin/pip check", "requests 2.31.0 has requirement idna<4,>=2.5, but you have idna 2.0."),
        bash("env/bin/python -c 'import requests' 2>&1"),
        bash("env/bin/pip install --dry-run --quiet --report - 'httpx==0.27.0' 2>&1", "\"name\": \"httpx\"", "\"version\": \"0.27.0\"", "\"name\": \"httpcore\"", "\"name\": \"anyio\"", "\"python_version\": \"3.11\""),
        bash("env/bin/pip inspect", "\"name\": \"requests\"", "\"version\": \"1.26.20\"", "\"version\": \"2.0\"", "\"pip_version\": \"23.2.1\""),
        bash("env/bin/pip install 'requests==99.0' 2>&1", "ERROR: No matching distribution found for requests==99.0", "2.32.3"),
        bash("env/bin/pip install -v 'six==1.16.0' 2>&1", "Successfully installed six-1.16.0"),
        grep("'def urlopen' env/lib/python3.11/site-packages/urllib3", "urllib3/connectionpool.py:535:    def urlopen(", "urllib3/poolmanager.py:353:"),
        bash("env/bin/pip install -U 'urllib3>=2' 'idna>=3' 2>&1", "Successfully installed idna-3.20 urllib3-2.8.0"),
        bash("env/bin/pip check && env/bin/pip freeze", "No broken requirements found.", "urllib3==2.8.0", "idna==3.20"),
        bash("env/bin/pip uninstall -y requests 2>&1 && env/bin/python -c 'import requests' 2>&1", "ModuleNotFoundError: No module named 'requests'"),
        bash("env/bin/pip install requests==2.32.3 2>&1", "Successfully installed requests-2.32.3"),
        bash("env/bin/pip show requests urllib3 idna certifi charset-normalizer", "Version: 2.32.3", "Required-by: requests"),
    )),
)

if __name__ == "__main__":
    base = Path(sys.argv[1] if len(sys.argv) > 1 else "/tmp/hh-replay")
    wanted = sys.argv[2:]
    for item in SESSIONS:
        if not wanted or item.name in wanted:
            build(item, base)
