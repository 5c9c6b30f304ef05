"""Claude Code, end to end: `headroom init claude`, then the real CLI (pinned in harness.py)
against a scripted model, inside `unshare -n`.

Without headroom, Claude Code shows the model a 2 KB preview of a successful output over
30,000 bytes and cuts a failing one to its first and last 5,000 characters; an MCP result
over its 25,000-token limit is saved to a file, and the model is told to read it in chunks.
With the hooks, the model gets headroom's clip — the end of the log, the exit status — and
the marker's `headroom show` runs unprompted.

The matrix runs in the permission modes users run: default with allow rules, acceptEdits and
bypassPermissions; a run in default mode with no rules but headroom's checks that Claude Code's
own read-only commands are clipped and nothing else is granted.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest

from harness import (e2e_home, headroom, run_agent, run_interactive,  # noqa: F401 - fixture
                     tool_results)
from matrix import (COMMANDS, COMPLEX_OUTPUT, FAILING, FIFTY_THOUSAND, FITS_OUTPUT,
                    check_failing, check_fifty_thousand, check_hint_followed)

import mcp_server
from fake_model import FLAGGED, FOLLOW_HINT, TOOL_CALL

pytestmark = pytest.mark.e2e

SUCCESS_CAP = 30_000  # over it, Claude Code keeps a 2 KB preview
FAILURE_CUT = 11_000  # over about it, Claude Code keeps the first and last 5,000 characters
MODES = {
    "default": ({"permissions": {"allow": ["Bash"]}}, ()),
    "acceptEdits": ({"permissions": {"allow": ["Bash"]}}, ("--permission-mode", "acceptEdits")),
    "bypassPermissions": ({}, ("--permission-mode", "bypassPermissions")),
}


def install(work: Path, env: dict, settings: dict) -> None:
    path = work / "home" / ".claude" / "settings.json"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(settings))
    done = headroom("init", "claude", env=env)
    assert done.returncode == 0, done.stderr


def write_mcp_config(work: Path) -> Path:
    """Claude Code's --mcp-config for mcp_server.py, run by this Python over stdio."""
    path = work / "mcp.json"
    path.write_text(json.dumps({"mcpServers": {"e2e": {
        "type": "stdio", "command": sys.executable,
        "args": [str(Path(__file__).with_name("mcp_server.py"))]}}}))
    return path


def without_exit_line(text: str, status: int) -> str:
    """Claude Code puts `Exit code N` first in a failing command's result."""
    assert text.startswith(f"Exit code {status}\n"), text[:300]
    return text[len(f"Exit code {status}\n"):]


@pytest.mark.parametrize("mode", MODES)
def test_claude_code_matrix(e2e_home, mode):
    work, env = e2e_home
    settings, args = MODES[mode]
    install(work, env, settings)
    run = run_agent("claude", COMMANDS, work, env, agent_args=args)
    big, hint, failing, fits, complex_ = run.tool_results

    assert big["is_error"] is False and "<persisted-output>" not in big["text"]
    assert len(big["text"].encode()) < SUCCESS_CAP
    check_fifty_thousand(big["text"])
    assert "requires approval" not in hint["text"]
    check_hint_followed(hint["text"], big["text"])

    assert failing["is_error"] is True
    assert len(failing["text"]) < FAILURE_CUT and "characters truncated" not in failing["text"]
    check_failing(without_exit_line(failing["text"], 3))

    assert fits["text"] == FITS_OUTPUT  # byte for byte: nothing added, nothing taken
    assert complex_["is_error"] is True
    assert without_exit_line(complex_["text"], 4) == COMPLEX_OUTPUT.rstrip("\n")


def test_default_mode_clips_claude_codes_own_read_only_commands_and_grants_nothing(e2e_home):
    """No allow rules but headroom's own: `seq | sed` and a search whose arguments say exit
    run unasked in Claude Code and are clipped; the marker's hint runs without a prompt; a
    command Claude Code asks about is left to it (refused, with nobody to ask); a deny rule
    given on the command line still refuses a wrapped command."""
    work, env = e2e_home
    install(work, env, {})
    (work / "proj").mkdir(parents=True, exist_ok=True)
    (work / "proj" / "notes.txt").write_text(
        "".join(f"line {n}: {'exit' if n % 2 else 'stay'} here\n" for n in range(1, 20001)))
    run = run_agent("claude", [FIFTY_THOUSAND, FOLLOW_HINT, "rg -n exit notes.txt",
                               "seq 1 30000 | grep -v exit", "touch made-by-the-agent",
                               "cat notes.txt"],
                    work, env, agent_args=("--disallowedTools", "Bash(cat:*)"))
    big, hint, search, grep, touch, cat = run.tool_results

    check_fifty_thousand(big["text"])
    assert "requires approval" not in hint["text"] and hint["is_error"] is False
    check_hint_followed(hint["text"], big["text"])
    for result in (search, grep):
        assert result["is_error"] is False and "headroom:" in result["text"]
        assert len(result["text"].encode()) < SUCCESS_CAP
    assert "19999:line 19999: exit here" in search["text"]  # the search's last match
    assert touch["is_error"] is True and not (work / "proj" / "made-by-the-agent").exists()
    assert "hook filter" not in touch["text"]
    assert cat["is_error"] is True and "denied" in cat["text"]


def absolute_path_commands(work: Path) -> list[str]:
    """Read-only commands naming the project by absolute path (as agents often write them),
    and one reading outside it through a link inside it."""
    project = work / "proj"
    project.mkdir(parents=True, exist_ok=True)
    (project / "notes.txt").write_text(
        "".join(f"line {n}: {'exit' if n % 2 else 'stay'} here\n" for n in range(1, 20001)))
    outside = work / "outside"
    outside.mkdir(exist_ok=True)
    (outside / "secret.txt").write_text("exit from outside\n" * 20000)
    (project / "elsewhere").symlink_to(outside)
    return [f"rg -n exit {project}/notes.txt", f"cd {project} && grep -n stay notes.txt",
            "rg -n exit elsewhere/secret.txt"]


@pytest.mark.parametrize("with_headroom", [False, True])
def test_absolute_paths_inside_the_project_are_judged_as_claude_code_judges_them(
        e2e_home, with_headroom):
    """Default mode, no allow rules. Claude Code runs a read-only command that names the
    project by absolute path, or `cd`s into it first, without asking, and asks about one that
    reaches outside through a link (refused here: nobody to ask). headroom wraps (clips)
    exactly the first two and grants nothing more."""
    work, env = e2e_home
    if with_headroom:
        install(work, env, {})
    absolute, cd_first, through_link = run_agent(
        "claude", absolute_path_commands(work), work, env).tool_results
    for result, first, last in ((absolute, 1, 19999), (cd_first, 2, 20000)):
        word = "exit" if first == 1 else "stay"
        assert result["is_error"] is False and f"{first}:line {first}: {word} here" in result["text"]
        if with_headroom:  # clipped: the last match kept, the marker
            assert f"{last}:line {last}: {word} here" in result["text"]
            assert "headroom:" in result["text"]
        else:  # Claude Code's own 2 KB preview of a large success
            assert "<persisted-output>" in result["text"]
    assert through_link["is_error"] is True and "exit from outside" not in through_link["text"]


def test_without_headroom_claude_code_cuts_the_end_of_a_failing_log(e2e_home):
    work, env = e2e_home
    settings = work / "home" / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"permissions": {"allow": ["Bash"]}}))
    run = run_agent("claude", [FAILING], work, env)
    text = run.tool_results[0]["text"]
    assert "characters truncated" in text and "headroom" not in text


# The model calls the large tool, follows the marker's hint for an item the skeleton left out,
# then calls the small tool.
MCP_CALLS = ["search_issues", f"{FOLLOW_HINT} --grep PROJ-250,", "small"]


def mcp_script(calls: list[str]) -> list[str]:
    """The scripted model's turns: a tool of mcp_server.py by name, or a script entry."""
    return [call if call.startswith("@") else f"{TOOL_CALL}mcp__e2e__{call} {{}}"
            for call in calls]


def run_mcp(e2e_home, calls: list[str], headroom_too: bool = True) -> list[dict]:
    """What the model got back for `calls`, with `headroom init claude` (or without headroom)
    and the MCP server allowed."""
    work, env = e2e_home
    settings = {"permissions": {"allow": ["mcp__e2e"]}}
    if headroom_too:
        install(work, env, settings)
    else:
        path = work / "home" / ".claude" / "settings.json"
        path.parent.mkdir(parents=True)
        path.write_text(json.dumps(settings))
    return run_agent("claude", mcp_script(calls), work, env,
                     agent_args=("--mcp-config", str(write_mcp_config(work)))).tool_results


def check_mcp_clip(results: list[dict]) -> tuple[str, dict]:
    """The large result reached the model as a skeleton with a hint that got the left-out
    item back; the small one whole. (The large result's text, the hint's result.)"""
    issues, hint, small = results
    text = issues["text"]
    assert "<persisted-output>" not in text and len(text.encode()) < SUCCESS_CAP
    assert "JSON skeleton" in text and re.search(r"headroom(?:_cli)? show [0-9a-f]{12}", text)
    assert '"key": "PROJ-250"' not in text  # left out of the skeleton …
    assert "PROJ-250" in hint["text"]  # … and got back
    assert small["text"] == '{"ok": true}'
    return text, hint


def test_an_mcp_tools_large_json_reaches_the_model_as_a_skeleton_with_a_working_hint(e2e_home):
    text, hint = check_mcp_clip(run_mcp(e2e_home, MCP_CALLS))
    assert '"key": "PROJ-1"' in text and '"id": 400' in text
    assert hint["is_error"] is False and "requires approval" not in hint["text"]


def test_a_server_that_init_mcp_put_behind_the_proxy_gets_its_large_result_clipped(e2e_home):
    """No Claude Code hook at all: `headroom init mcp` wrapped the server in `headroom mcp`,
    as for any MCP client; the proxy clips, the model follows the hint, the rest is whole."""
    work, env = e2e_home
    settings = work / "home" / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"permissions": {"allow": ["mcp__e2e", "Bash"]}}))
    mcp_config = write_mcp_config(work)
    done = headroom("init", "mcp", "--config", str(mcp_config), env=env)
    assert done.returncode == 0, done.stderr
    server = json.loads(mcp_config.read_text())["mcpServers"]["e2e"]
    assert server["args"][-3:-1] == ["--", sys.executable]  # wrapped
    run = run_agent("claude", mcp_script(MCP_CALLS), work, env,
                    agent_args=("--mcp-config", str(mcp_config)))
    check_mcp_clip(run.tool_results)


def test_a_server_from_npm_behind_init_mcp_is_the_same_server_to_claude_code(e2e_home):
    """@modelcontextprotocol/server-everything (npm, the version harness.py pins) in a
    Claude Code `.mcp.json` that `headroom init mcp` rewrote: Claude Code starts it through the
    proxy; a small result and an image reach the model as the server gave them (Claude Code
    saves the image and names its file), so do a tool's error and the result of a call that
    reports progress on the way, and a large echo comes back clipped with a hint that gets any
    row back."""
    from harness import EVERYTHING, npm_bin

    work, env = e2e_home
    settings = work / "home" / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"permissions": {"allow": ["mcp__everything", "Bash"]}}))
    mcp_config = work / ".mcp.json"
    mcp_config.write_text(json.dumps({"mcpServers": {"everything": {
        "command": str(npm_bin("mcp-everything", *EVERYTHING)), "args": ["stdio"]}}}, indent=2))
    done = headroom("init", "mcp", "--config", str(mcp_config), env=env)
    assert done.returncode == 0, done.stderr
    wrapped = json.loads(mcp_config.read_text())["mcpServers"]["everything"]
    assert "mcp" in wrapped["args"] and wrapped["args"][-1] == "stdio"  # headroom mcp … -- it
    rows = "".join(f"row {n}: src/module_{n}.py passed\n" for n in range(2500))  # ~80 KB
    calls = [f'{TOOL_CALL}mcp__everything__get-sum {{"a": 2, "b": 3}}',
             f"{TOOL_CALL}mcp__everything__get-tiny-image {{}}",
             f'{TOOL_CALL}mcp__everything__get-resource-reference {{"resourceId": 0}}',
             f'{TOOL_CALL}mcp__everything__trigger-long-running-operation '
             '{"duration": 0.2, "steps": 2}',
             f"{TOOL_CALL}mcp__everything__echo {json.dumps({'message': rows})}",
             FOLLOW_HINT + " --grep 'row 1500:'"]
    run = run_agent("claude", calls, work, env,
                    agent_args=("--mcp-config", str(mcp_config)))
    total, image, failed, slow, echo, hint = run.tool_results
    assert total["text"] == "The sum of 2 and 3 is 5." and total["is_error"] is False
    assert "[Image: source:" in image["text"] and image["text"].endswith("the MCP logo.")
    # the server's error (its tool threw), as the server worded it
    assert failed["is_error"] is True
    assert "Invalid resourceId: 0. Must be a finite positive integer." in failed["text"]
    assert slow["text"] == "Long running operation completed. Duration: 0.2 seconds, Steps: 2."
    assert echo["is_error"] is False and "headroom" in echo["text"]
    assert len(echo["text"]) < len(rows) and "row 1500:" not in echo["text"]
    assert "row 1500: src/module_1500.py passed" in hint["text"]


def test_a_servers_requests_and_errors_cross_init_mcps_proxy_both_ways(e2e_home):
    """mcp_sdk_server.py (the `mcp` SDK's FastMCP) behind the proxy `headroom init mcp` put in
    front of it. Its requests to Claude Code and Claude Code's answers cross the proxy: roots
    (Claude Code answers with the directory it runs in), elicitation (in -p mode it cancels),
    sampling (it has none: its JSON-RPC error goes back to the server, whose tool then fails
    with it); a tool's own error reaches the model as the server worded it; a small result
    whole. (Run directly, without the proxy, Claude Code 2.1.330 gets the same answers.)"""
    pytest.importorskip("mcp", reason="mcp_sdk_server.py needs the mcp extra")
    work, env = e2e_home
    settings = work / "home" / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"permissions": {"allow": ["mcp__conformance"]}}))
    mcp_config = work / ".mcp.json"
    mcp_config.write_text(json.dumps({"mcpServers": {"conformance": {
        "command": sys.executable,
        "args": [str(Path(__file__).with_name("mcp_sdk_server.py"))]}}}, indent=2))
    done = headroom("init", "mcp", "--config", str(mcp_config), env=env)
    assert done.returncode == 0, done.stderr
    wrapped = json.loads(mcp_config.read_text())["mcpServers"]["conformance"]["args"]
    assert wrapped[:3] == ["-m", "headroom_cli", "mcp"]
    calls = [f"{TOOL_CALL}mcp__conformance__{name} {{}}"
             for name in ("roots", "ask", "chatty", "fails", "small")]
    run = run_agent("claude", calls, work, env, agent_args=("--mcp-config", str(mcp_config)))
    roots, ask, chatty, failed, small = run.tool_results
    # FastMCP gives a tool's str as structured content too, which Claude Code shows
    assert roots == {"text": compact({"result": (work / "proj").as_uri()}), "is_error": False}
    assert ask == {"text": '{"result":"elicited: cancel"}', "is_error": False}
    assert chatty["is_error"] is True
    assert chatty["text"].startswith("Error executing tool chatty: Method not found")
    assert failed["is_error"] is True
    assert failed["text"].startswith("Error executing tool fails: the tracker is down")
    assert small == {"text": compact({"result": "ok: 3 issues, all closed \u2713"}),
                     "is_error": False}


def compact(value) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def test_mcp_results_past_claude_codes_own_limit_reach_the_model_clipped(e2e_home):
    """A 320 KB JSON export (400 issues, 10,006 lines) and a 2 MB log: Claude Code saves
    each to a file before the hook runs (over its 25,000-token MCP limit) and hands the hook
    its notice; the model gets headroom's clip of the saved file instead — every item
    counted, the last item, the log's errors and last line, a hint that works — and the
    file stays where Claude Code put it."""
    work, _ = e2e_home
    export, hint, log = run_mcp(e2e_home, ["dump_issues", f"{FOLLOW_HINT} --grep PROJ-250",
                                           "build_log"])
    saved = sorted((work / "home" / ".claude" / "projects").rglob("tool-results/mcp-e2e-*"))
    assert [path.read_text() for path in saved] == [mcp_server.build_log(),
                                                     mcp_server.export()]
    for result in (export, log):
        text = result["text"]
        assert result["is_error"] is False and len(text) < 30_000
        assert "exceeds maximum allowed tokens" not in text and "chunks" not in text
        assert text.startswith("[headroom: the whole result is in /")
        assert re.search(r"headroom(?:_cli)? show [0-9a-f]{12}", text)
    assert "all 400 items" in export["text"] and '"key": "PROJ-400"' in export["text"]
    assert '"key": "PROJ-250"' in hint["text"] and hint["is_error"] is False
    assert "INFO  build finished: 20000 steps, 2 errors" in log["text"]
    assert "ERROR cc: module_15001.c" in log["text"]


def test_without_headroom_mcp_results_past_the_limit_are_a_notice_to_read_in_chunks(e2e_home):
    for result in run_mcp(e2e_home, ["search_issues", "dump_issues", "build_log"], False):
        assert "exceeds maximum allowed tokens. Output has been saved to" in result["text"]
        assert "in sequential chunks until 100% of the content has been read" in result["text"]


# eval: a command the PreToolUse hook leaves as written (it may change the shell itself).
UNWRAPPED = f"eval \"{FIFTY_THOUSAND}\""
# A command Claude Code asks about in default mode, with 50,000 lines of output.
ASKED = "python3 -c \"[print('row', i) for i in range(50000)]\""


def test_a_large_output_the_wrapper_left_alone_is_clipped_after_the_fact(e2e_home):
    """Claude Code saves a Bash output over 30,000 characters whole and shows the model a
    2 KB preview; for a command headroom did not wrap, the PostToolUse hook answers with its
    clip of the saved file in Bash's shape: the end of the output and a hint that works."""
    work, env = e2e_home
    install(work, env, {})
    # A rule given only on the command line: invisible to the hook, so python3 runs unwrapped.
    run = run_agent("claude", [UNWRAPPED, FOLLOW_HINT, ASKED], work, env,
                    agent_args=("--allowedTools", "Bash"))
    big, hint, allowed = run.tool_results
    for result in (big, allowed):
        assert result["is_error"] is False and "<persisted-output>" not in result["text"]
        assert len(result["text"].encode()) < SUCCESS_CAP and "[…headroom:" in result["text"]
    check_fifty_thousand(big["text"])
    check_hint_followed(hint["text"], big["text"])
    assert allowed["text"].rstrip().endswith("row 49999")


def test_without_headroom_a_large_bash_output_is_a_2_kb_preview(e2e_home):
    work, env = e2e_home
    settings = work / "home" / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"permissions": {"allow": ["Bash"]}}))
    text = run_agent("claude", [UNWRAPPED], work, env).tool_results[0]["text"]
    assert "<persisted-output>" in text and "Preview (first 2KB)" in text
    assert "row 50000" not in text


AUTO = ("--permission-mode", "auto")
# A command Claude Code asks about, whose output Claude Code passes whole (under 30,000
# characters) but is over the budget (6,000 tokens).
MEDIUM = "python3 -c \"[print('row', i) for i in range(1, 2901)]\""
MEDIUM_CHARACTERS = sum(len(f"row {i}\n") for i in range(1, 2901))


def test_auto_mode_checks_every_command_as_written_and_clips_what_it_lets_through(e2e_home):
    """Auto mode, the scripted model answering its server-side check: a command it lets
    through runs as the model wrote it (headroom answers nothing before), and its output over
    the budget reaches the model clipped after the fact — saved whole by Claude Code (over
    30,000 characters) or passed whole — with a hint that works; a command it flags stays
    blocked."""
    work, env = e2e_home
    install(work, env, {})
    run = run_agent("claude", [FIFTY_THOUSAND, FOLLOW_HINT, MEDIUM,
                               f"{FLAGGED}touch made-by-the-agent"], work, env, agent_args=AUTO)
    big, hint, medium, flagged = run.tool_results
    assert big["is_error"] is False and "<persisted-output>" not in big["text"]
    assert len(big["text"].encode()) < SUCCESS_CAP
    check_fifty_thousand(big["text"])
    check_hint_followed(hint["text"], big["text"])
    # under Claude Code's 30,000 characters, over the budget: clipped to it all the same
    assert medium["is_error"] is False and "[…headroom:" in medium["text"]
    assert len(medium["text"]) < MEDIUM_CHARACTERS
    assert medium["text"].startswith("row 1\n") and medium["text"].rstrip().endswith("row 2900")
    assert flagged["is_error"] is True and "denied by the Claude Code auto mode classifier" \
        in flagged["text"] and not (work / "proj" / "made-by-the-agent").exists()
    transcript = "".join(path.read_text() for path in
                         (work / "home" / ".claude" / "projects").rglob("*.jsonl"))
    assert "hook filter" not in transcript  # nothing was rewritten: the check saw each as is


def test_auto_mode_refuses_a_command_a_hook_rewrote(e2e_home):
    """Why headroom does not wrap in auto mode: a PreToolUse rewrite with no decision voids
    the check's review, and Claude Code refuses the call and asks the model to send the
    rewritten command itself (which the check would then judge instead of the user's)."""
    work, env = e2e_home
    rewrite = ("import json, sys; e = json.load(sys.stdin); print(json.dumps({'hookSpecificOutput'"
               ": {'hookEventName': 'PreToolUse', 'updatedInput': dict(e['tool_input'], "
               "command=e['tool_input']['command'] + ' | cat')}}))")
    settings = work / "home" / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": f"{sys.executable} -c \"{rewrite}\""}]}]}}))
    [result] = run_agent("claude", ["seq 1 3"], work, env, agent_args=AUTO).tool_results
    assert result["is_error"] is True
    assert "a hook changed this call's input after auto mode reviewed it" in result["text"]


def test_an_asked_command_wrapped_would_hide_the_command_and_its_dont_ask_again(e2e_home):
    """Why headroom leaves the commands Claude Code asks about unwrapped (interactive, tmux):
    Claude Code shows them as `python3 -c …` with "Yes, and don't ask again for: python3 *",
    which stores a rule naming the user's command. Answered `ask` with headroom's wrapper as
    `updatedInput`, the prompt shows the whole wrapper — the user's command inside a braced
    group, headroom's temporary file, filter and flags around it — and offers only Yes and No:
    the output is clipped, but the same command asks again every time. Left unwrapped, the
    prompt is Claude Code's own and the approved output is clipped after the fact."""
    work, env = e2e_home
    settings = work / "home" / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command",
         "command": f"{sys.executable} {Path(__file__).with_name('ask_hook.py')}"}]}]}}))
    default = ("--permission-mode", "default")
    assert run_interactive([ASKED, ASKED], work, env, "1", default) == 2  # asked both times
    for number in (1, 2):
        screen = (work / f"prompt_{number}.txt").read_text()
        assert "__headroom_status=$?" in screen and "hook filter --budget" in screen
        assert f"{{ {ASKED}" in screen  # the user's command, inside the wrapper
        assert "1. Yes" in screen and "2. No" in screen and "ask again" not in screen
    first, again = tool_results(work)
    assert "[…headroom:" in first["text"] and first["text"].rstrip().endswith("row 49999")
    assert again["text"].startswith("[headroom: identical to the output of call 1")

    # As headroom is installed: the asked command is shown as written, with don't ask again;
    # approved, its output is clipped after the fact, and the rule it stores names it (then
    # headroom wraps it: the second run is the session's one-line identical reply).
    plain = work / "plain"
    plain_env = dict(env, HOME=str(plain / "home"))
    install(plain, plain_env, {})
    assert run_interactive([ASKED, ASKED], plain, plain_env, "2", default) == 1
    screen = (plain / "prompt_1.txt").read_text()
    assert f" {ASKED}\n" in screen and "Yes, and don’t ask again for: python3 *" in screen
    stored = json.loads((plain / "proj" / ".claude" / "settings.local.json").read_text())
    assert stored["permissions"]["allow"] == ["Bash(python3 *)"]
    first, again = tool_results(plain)
    assert "[…headroom:" in first["text"] and first["text"].rstrip().endswith("row 49999")
    assert again["text"].startswith("[headroom: identical to the output of call 1")


def test_a_large_read_keeps_its_first_lines_and_the_outline_reaches_the_model(e2e_home):
    work, env = e2e_home
    config = work / "home" / ".config" / "headroom" / "config.toml"
    config.parent.mkdir(parents=True)
    config.write_text("[hooks]\nread_over = 3000\n")
    install(work, env, {})
    source = Path(__file__).resolve().parents[2] / "headroom_cli" / "run.py"
    project = work / "proj"
    project.mkdir(parents=True, exist_ok=True)
    (project / "big.py").write_text(source.read_text())
    run = run_agent("claude", [f'{TOOL_CALL}Read {{"file_path": "{project / "big.py"}"}}'],
                    work, env)
    text = run.tool_results[0]["text"]
    lines = source.read_text().split("\n")
    numbered = text.split("\n")
    assert 0 < len(numbered) < len(lines)
    assert numbered == [f"{n}\t{line}" for n, line in enumerate(lines[:len(numbered)], 1)]
    transcript = "".join(path.read_text() for path in
                         (work / "home" / ".claude" / "projects").rglob("*.jsonl"))
    assert f"this Read returned only lines 1–{len(numbered)} of" in transcript


def test_a_session_re_run_and_a_followed_hint_show_in_the_stats(e2e_home):
    """Claude Code's session id reaches headroom: the model re-runs a failing test command
    after an edit (the re-run opens with what changed), follows a hint, runs a command again
    unchanged (one line), and `headroom stats --session` counts it all."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from session_runs import EDITS, SINCE_LINE, TESTS

    work, env = e2e_home
    install(work, env, {})
    project = work / "proj"
    project.mkdir(parents=True, exist_ok=True)
    (project / "test_x.py").write_text(TESTS)
    pytest_command = (f"PYTEST_DISABLE_PLUGIN_AUTOLOAD=1 {sys.executable} -m pytest "
                      "-p no:cacheprovider -vv test_x.py")
    edit = "sed -i " + " ".join(f"-e 's/{old}/{new}/'" for old, new in
                                ((o.replace("[", r"\[").replace("]", r"\]"), n)
                                 for o, n in EDITS)) + " test_x.py"
    run = run_agent("claude", [FIFTY_THOUSAND, FOLLOW_HINT, FIFTY_THOUSAND, pytest_command,
                               edit, pytest_command],
                    work, env, agent_args=("--permission-mode", "bypassPermissions"))
    big, hint, again, first, edited, second = run.tool_results
    assert edited["is_error"] is False, edited["text"]

    check_fifty_thousand(big["text"])
    check_hint_followed(hint["text"], big["text"])
    assert re.fullmatch(r"\[headroom: identical to the output of call 1 of this session "
                        r"\(`seq 1 50000 \| sed 's/\^/row /'`\): nothing changed\. The command "
                        r"exited with status 0\. To see it again: .+ show [0-9a-f]{12}\]\n?",
                        again["text"]), again["text"]
    assert "[headroom" not in first["text"]
    assert without_exit_line(second["text"], 1).split("\n", 1)[0] == \
        SINCE_LINE.replace("(call 1)", "(call 4)")

    stats = json.loads(headroom("stats", "--json", env=env).stdout)
    (session, figures), = stats["by_session"].items()
    assert figures["calls"] == 6 and figures["turns"] == 6
    # Clipped: the seq, and the show (the range its hint names is larger than the budget).
    assert (figures["clipped"], figures["identical"], figures["since"]) == (2, 1, 1)
    assert figures["retrievals"] == 1 and figures["retrievals_per_clip"] == 0.5
    assert figures["reruns"] == 2  # the seq again (call 3), the tests again (call 6)
    seq = stats["by_family"]["seq"]
    assert (seq["calls"], seq["clipped"], seq["identical"], seq["retrievals"]) == (2, 1, 1, 1)
    assert set(stats["by_family"]) == {"seq", "headroom show", "pytest", "sed"}
    assert figures["cumulative_saved_tokens"] > figures["saved_tokens"] > 0
    one = json.loads(headroom("stats", "--session", session, "--json", env=env).stdout)
    assert one["totals"] == {key: value for key, value in figures.items() if key != "turns"}
    assert one["by_family"]["seq"]["retrievals"] == 1 and one["suggestions"][0]["family"] == "seq"


def test_a_nearly_full_context_shrinks_the_budget_by_the_curve(e2e_home):
    """The scripted model's replies say 180,000 tokens of context, and Claude Code runs
    Claude Sonnet 4.5 (a 200,000-token window in its model table): 90 % full, so the hook's
    6,000 tokens become 2,000 (the whole budget to 50 %, a quarter at 95 %, linear between:
    1 - 0.75 * 0.4 / 0.45 = 1/3). The first command only lets Claude Code write a reply to
    its transcript before the second one's PreToolUse reads it."""
    import sqlite3

    from headroom_cli.tokens import load_counter

    work, env = e2e_home
    install(work, env, {})
    run = run_agent("claude", ["echo warm-up", FIFTY_THOUSAND], work, env,
                    agent_args=("--permission-mode", "bypassPermissions",
                                "--model", "claude-sonnet-4-5-20250929"),
                    context_tokens=180_000)
    text = run.tool_results[1]["text"]
    assert "Budget 2,000 of 6,000 tokens: the context is 90% full." in text
    # Claude Code appends a reminder of the tokens left for this model: not headroom's.
    ours = text[:text.index("row 50000\n") + len("row 50000\n")]
    check_fifty_thousand(ours)
    assert 1800 <= load_counter("cl100k_base").count(ours) <= 2000
    ledger = sqlite3.connect(work / "home" / ".local" / "state" / "headroom" / "ledger.sqlite3")
    assert (2000, 6000, 90) in ledger.execute(
        "SELECT budget, base_budget, context_fill FROM calls WHERE clipped").fetchall()


def test_audit_finds_a_session_and_every_subagent_it_started(e2e_home):
    """The model delegates to a subagent (the Agent tool), which — answered by the same script
    — delegates again, down to the depth Claude Code allows (2.1.330: 3, where the Agent tool
    is no longer offered and the call is an error); each then runs a 106 KB `seq` (a 2 KB
    preview) and a short printf. Claude Code writes every subagent's conversation, however
    deep, to <SESSION>/subagents/agent-ID.jsonl; `headroom audit` reports each as a session
    of its own with its own requests, outputs and the preview counted as the agent's cut.
    (tests/audit/claude-subagents/ holds the transcripts of this run.)"""
    work, env = e2e_home
    settings = work / "home" / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    settings.write_text(json.dumps({"permissions": {"allow": ["Bash", "Agent"]}}))
    delegate = {"description": "run the commands", "subagent_type": "general-purpose",
                "prompt": "HEADROOM-E2E run the scripted commands", "run_in_background": False}
    run = run_agent("claude", [f"{TOOL_CALL}Agent {json.dumps(delegate)}", "seq 1 20000",
                               "printf 'alpha\\nbeta\\n'"], work, env)
    handed_back, preview, small = run.tool_results
    assert "agentId: " in handed_back["text"] and "<persisted-output>" in preview["text"]
    assert small["text"] == "alpha\nbeta"
    done = headroom("audit", "--all", "--json", env=env)
    assert done.returncode == 0, done.stderr
    sessions = {each["session"]: each for each in json.loads(done.stdout)["sessions"]}
    (main,) = [name for name in sessions if "/" not in name]
    assert sorted(name.split("/agent-")[0] for name in sessions) == [main] * 4
    for session in sessions.values():
        figures = session["figures"]
        assert session["agent"] == "claude" and session["requests"] == 4
        assert (figures["outputs"], figures["agent_cut"], figures["clipped"]) == (3, 1, 0)
        assert set(session["by_tool"]) == {"Agent", "Bash"}
