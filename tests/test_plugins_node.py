"""opencode's plugin files, run by node against the real headroom: the hook functions opencode
calls, with the arguments it passes (opencode 1.18.33), change what the model sees as they
should and leave everything else alone. (pi's extensions are TypeScript, loaded by pi itself:
the pi end-to-end tests run them.)"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

HEADROOM = [sys.executable, "-m", "headroom_cli"]
CASES = Path(__file__).parent / "cases"
LOG = (CASES / "make-lua-link-error" / "input").read_text()

# The marker names headroom the way the plugin runs it (its HEADROOM constant: the installed
# script's path, or `python -m headroom_cli`).
RUNS = re.compile(r"^const HEADROOM = (\[.*\]);$", re.M)

pytestmark = pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")

# Loads the plugin (an ES module), calls one hook as opencode does, prints what it mutated.
RUNNER = """
const [plugin, hook] = process.argv.slice(2);
const chunks = [];
for await (const chunk of process.stdin) chunks.push(chunk);
const { input, output } = JSON.parse(Buffer.concat(chunks).toString("utf8"));
const module = await import(plugin);
const hooks = await Object.values(module)[0]({});
await hooks[hook](input, output);
process.stdout.write(JSON.stringify(output));
"""


@pytest.fixture
def plugins(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setenv("HEADROOM_STORE", str(tmp_path / "store"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    for extra in ([], ["--history"]):
        subprocess.run([*HEADROOM, "init", "opencode", *extra], check=True, capture_output=True)
    folder = tmp_path / "config" / "opencode" / "plugins"
    for plugin in folder.glob("*.js"):  # ES modules: node wants .mjs outside a "type": "module"
        plugin.rename(plugin.with_suffix(".mjs"))
    (tmp_path / "runner.mjs").write_text(RUNNER)
    return tmp_path, folder


def hint(plugins, name: str) -> re.Pattern:
    """The marker's retrieval hint, naming headroom as the plugin `name` runs it."""
    argv = json.loads(RUNS.search((plugins[1] / f"{name}.mjs").read_text()).group(1))
    program = argv[0] if len(argv) == 1 else f"{argv[0]} -m headroom_cli"
    return re.compile(rf"To retrieve: {re.escape(program)} show [0-9a-f]{{12}}")


def call(plugins, name: str, hook: str, input_: dict, output: dict) -> dict:
    tmp_path, folder = plugins
    done = subprocess.run(["node", str(tmp_path / "runner.mjs"), str(folder / f"{name}.mjs"),
                           hook], input=json.dumps({"input": input_, "output": output}),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_the_clipping_plugin_clips_a_bash_output_and_keeps_its_exit_status(plugins):
    rows = "".join(f"row {n}\n" for n in range(1, 20001))
    out = call(plugins, "headroom", "tool.execute.after",
               {"tool": "bash", "sessionID": "s", "callID": "c", "args": {"command": "seq"}},
               {"title": "seq", "output": rows, "metadata": {"exit": 3}})
    text = out["output"]
    assert text.startswith("row 1\n") and "row 20000" in text and len(text) < len(rows) // 4
    assert hint(plugins, "headroom").search(text)
    assert "The command exited with status 3." in text
    assert out["metadata"] == {"exit": 3} and out["title"] == "seq"
    small = call(plugins, "headroom", "tool.execute.after", {"tool": "bash", "args": {}},
                 {"title": "t", "output": "ok\n", "metadata": {"exit": 0}})
    assert small["output"] == "ok\n"
    other = call(plugins, "headroom", "tool.execute.after", {"tool": "webfetch", "args": {}},
                 {"title": "t", "output": rows, "metadata": {}})
    assert other["output"] == rows  # not a tool it clips


def tool_part(number: int, output: str) -> dict:
    return {"id": f"prt_{number}", "type": "tool", "callID": f"call_{number}", "tool": "bash",
            "state": {"status": "completed", "input": {"command": "make"}, "output": output,
                      "title": "make", "metadata": {}, "time": {"start": 1, "end": 2}}}


def test_the_history_plugin_ages_old_tool_parts_in_place_and_keeps_the_last_three(plugins):
    user = {"info": {"id": "msg_u", "role": "user"}, "parts": [
        {"id": "prt_u", "type": "text", "text": "fix the build"}]}
    assistant = {"info": {"id": "msg_a", "role": "assistant"},
                 "parts": [tool_part(n, LOG) for n in range(1, 6)]}
    out = call(plugins, "headroom-history", "experimental.chat.messages.transform", {},
               {"messages": [user, assistant]})
    parts = out["messages"][1]["parts"]
    assert out["messages"][0] == user and out["messages"][1]["info"] == assistant["info"]
    for part in parts[2:]:  # the last three, verbatim
        assert part == tool_part(int(part["callID"][5:]), LOG)
    for part, original in zip(parts[:2], assistant["parts"][:2]):
        assert len(part["state"]["output"]) < len(LOG) // 2
        assert hint(plugins, "headroom-history").search(part["state"]["output"])
        assert {**part, "state": {**part["state"], "output": LOG}} == original
    assert parts[0]["state"]["output"] == parts[1]["state"]["output"]  # same result, same bytes


def test_a_file_read_again_unchanged_in_one_session_is_one_line(plugins):
    """opencode passes its session (input.sessionID): the second read of the same file, its
    output unchanged, is the one-line identical reply with the way back."""
    source = (CASES / "code-argparse-py" / "input").read_text()
    read = {"tool": "read", "sessionID": "ses_1", "callID": "c1",
            "args": {"filePath": "/project/argparse.py"}}
    first = call(plugins, "headroom", "tool.execute.after", read,
                 {"title": "argparse.py", "output": source, "metadata": {}})["output"]
    again = call(plugins, "headroom", "tool.execute.after", dict(read, callID="c2"),
                 {"title": "argparse.py", "output": source, "metadata": {}})["output"]
    assert first != again and not first.startswith("[headroom: identical")
    program = hint(plugins, "headroom").pattern.split("show")[0].removeprefix("To retrieve: ")
    assert re.fullmatch(r"\[headroom: identical to the output of call 1 of this session "
                        r"\(`read filePath=/project/argparse\.py`\): nothing changed\. To see it "
                        rf"again: {program}show [0-9a-f]{{12}}\]\n", again), again
    other = call(plugins, "headroom", "tool.execute.after", dict(read, sessionID="ses_2"),
                 {"title": "argparse.py", "output": source, "metadata": {}})["output"]
    assert other == first  # another session was never given it
