"""`headroom hook claude` against the PreToolUse payloads Claude Code sends (the shape documented
in its hooks reference and recorded from @anthropic-ai/claude-code 2.1.330), and the permission
rule: a command is rewritten only when Claude Code would run it without asking anyway."""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from headroom_cli.agents import HookOptions, claude, claude_post, config, permissions, run_hook

HEADROOM = [sys.executable, "-m", "headroom_cli"]


@pytest.fixture(autouse=True)
def private(tmp_path, monkeypatch):
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.delenv("CLAUDE_PROJECT_DIR", raising=False)
    monkeypatch.setenv("HEADROOM_STORE", str(tmp_path / "store"))
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)
    return home


def payload(command="npm test", mode="bypassPermissions", cwd="/tmp/project", **tool_input):
    return {"session_id": "abc123", "transcript_path": "/tmp/t.jsonl", "cwd": cwd,
            "permission_mode": mode, "hook_event_name": "PreToolUse", "tool_name": "Bash",
            "tool_input": {"command": command, "description": "Run the tests", **tool_input},
            "tool_use_id": "toolu_01"}


def reply(event, budget=6000) -> dict | None:
    raw = run_hook("claude", json.dumps(event).encode(),
                   HookOptions(budget=budget, headroom=HEADROOM))
    return json.loads(raw) if raw else None


def test_a_command_is_wrapped_with_every_original_key_kept():
    out = reply(payload("npm test", timeout=120000))["hookSpecificOutput"]
    assert out["hookEventName"] == "PreToolUse" and out["permissionDecision"] == "allow"
    updated = out["updatedInput"]
    assert set(updated) == {"command", "description", "timeout"}
    assert updated["description"] == "Run the tests" and updated["timeout"] == 120000
    assert "{ npm test\n}" in updated["command"]
    assert "--max-bytes 28000 --max-failure-bytes 10000" in updated["command"]


def test_the_wrapped_command_clips_a_huge_failing_log_under_claude_codes_cap(tmp_path):
    command = ('for i in $(seq 1 20000); do echo "test_$i ... ok"; done; '
               'echo "FAILED tests/test_x.py::test_end - AssertionError"; exit_code=1; false')
    wrapped = reply(payload(command))["hookSpecificOutput"]["updatedInput"]["command"]
    done = subprocess.run(["bash", "-c", wrapped], capture_output=True, timeout=120)
    assert done.returncode == 1
    # A failing output over about 11,000 characters is cut by Claude Code to its first and last
    # 5,000; ours stays whole under that.
    assert len(done.stdout) <= claude.MAX_FAILURE_BYTES
    text = done.stdout.decode()
    assert "The command exited with status 1." in text
    assert text.rstrip().endswith("FAILED tests/test_x.py::test_end - AssertionError")


def test_a_successful_output_stays_under_the_30000_byte_cap():
    wrapped = reply(payload("seq 1 100000", budget=100_000))[
        "hookSpecificOutput"]["updatedInput"]["command"]
    done = subprocess.run(["bash", "-c", wrapped], capture_output=True, timeout=120)
    assert done.returncode == 0 and len(done.stdout) <= claude.MAX_BYTES


@pytest.mark.parametrize("event", [
    payload(run_in_background=True),
    payload("git diff > fix.patch"),
    payload("make; exec bash"),
    payload("echo 'unterminated"),
    dict(payload(), tool_name="Read"),
    dict(payload(), hook_event_name="PostToolUse"),
    dict(payload(), tool_input={"description": "no command"}),
    dict(payload(), tool_input="npm test"),
    payload(mode="plan"),
])
def test_calls_left_exactly_as_they_are(event):
    assert reply(event) is None


# --- permissions: never grant what Claude Code would have asked about ----------------------

def test_default_mode_wraps_read_only_commands_and_leaves_the_rest(tmp_path):
    cwd = str(tmp_path)
    assert reply(payload("grep -rn TODO src | head -100", mode="default", cwd=cwd))
    assert reply(payload("git log --oneline", mode="default", cwd=cwd))
    for command in ("npm test", "touch x", "rm -rf build", "cat /etc/shadow", "cat ../x",
                    "find . -delete", "echo $(id)", "git push", "sort -o out in"):
        assert reply(payload(command, mode="default", cwd=cwd)) is None, command


def test_allow_rules_in_settings_extend_what_is_wrapped(private, tmp_path):
    (private / ".claude" / "settings.json").write_text(json.dumps(
        {"permissions": {"allow": ["Bash(npm test:*)", "Bash(make)"]}}))
    cwd = str(tmp_path)
    assert reply(payload("npm test -- --watch=false", mode="default", cwd=cwd))
    assert reply(payload("make", mode="default", cwd=cwd))
    assert reply(payload("make install", mode="default", cwd=cwd)) is None
    assert reply(payload("npm test && npm publish", mode="default", cwd=cwd)) is None


def test_project_local_rules_count_too(tmp_path, monkeypatch):
    project = tmp_path / "project"
    (project / ".claude").mkdir(parents=True)
    (project / ".claude" / "settings.local.json").write_text(json.dumps(
        {"permissions": {"allow": ["Bash"]}}))
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(project))
    assert reply(payload("npm test", mode="default", cwd=str(project)))


@pytest.mark.parametrize("rule", ["Bash(npm:*)", "Bash", "Bash(headroom:*)", "Bash(exit:*)"])
def test_a_deny_or_ask_rule_that_may_concern_the_command_leaves_it_alone(private, rule):
    for kind in ("deny", "ask"):
        (private / ".claude" / "settings.json").write_text(json.dumps(
            {"permissions": {kind: [rule]}}))
        assert reply(payload("npm test")) is None


def test_an_unrelated_deny_rule_does_not_stop_wrapping(private):
    (private / ".claude" / "settings.json").write_text(json.dumps(
        {"permissions": {"deny": ["Bash(rm:*)", "Read(.env)"]}}))
    assert reply(payload("npm test"))


def test_dont_ask_mode_wraps_only_what_rules_allow(tmp_path):
    assert reply(payload("ls", mode="dontAsk", cwd=str(tmp_path))) is None


def test_auto_mode_is_never_answered_before_the_command_runs(private, tmp_path):
    """Not even for a read-only command or one an allow rule covers: "allow" would skip auto
    mode's check, and a rewrite voids it (tests/e2e: Claude Code then refuses the call)."""
    (private / ".claude" / "settings.json").write_text('{"permissions": {"allow": ["Bash"]}}')
    for command in ("ls", "seq 1 50000 | sed 's/^/row /'", "npm test"):
        assert reply(payload(command, mode="auto", cwd=str(tmp_path))) is None
        assert reply(payload(command, mode="default", cwd=str(tmp_path)))  # the rule's


def test_permission_helpers():
    assert [c.words for c in permissions.split("a && b || c; d | e\ng")] == \
        [(w,) for w in "abcdeg"]
    assert [c.text for c in permissions.split("echo 'a && b'")] == ["echo 'a && b'"]
    for command in ("x $(y)", "a & b", "(cd x; ls)", "cat <<EOF\nx\nEOF", "for f in *; do ls; done"):
        assert permissions.split(command) is None, command


# Claude Code 2.1.330's own answers, read from its allowlist (claude_readonly's docstring);
# the e2e tests check the first group against the real CLI.
RUNS_UNASKED = [
    "seq 1 50000 | sed 's/^/row /'", "rg -n exit src/", "seq 1 9 | grep -v exit",
    "grep -rn 'a|b' src", "sed -n '1,20p' f.txt", "git log --oneline -5", "git diff --stat",
    "git show HEAD:x.py", "ls -la", "find . -name '*.py'", "head -50 f", "wc -l f 2>&1",
    "sort -rn f | uniq -c", "cat a b | tr a-z A-Z", "echo hello", "cd sub", "pwd",
    "grep -A3 foo f", "tree -L 2", "file x", "git status --short",
]
ASKS = [
    "sed -i 's/a/b/' f", "sed 's/a/b/w out' f", "sed -e 's/a/b/' f", "sed -n '/x/p' f",
    "rg --pre evil x", "grep -rn foo /etc", "cat ../x", "find . -delete", "find . -exec rm {} +",
    "sort -o out in", "git push", "git -C x log", "git log --format=%H", "cd sub && git log",
    "make test", "echo $(id)", "cat $HOME/x", "X=1 ls", "ls > out", "tail -f log",
    "grep -rnA3 foo .", "git diff --ext-diff", "npm test",
]


@pytest.mark.parametrize("command", RUNS_UNASKED)
def test_commands_claude_code_runs_unasked_are_wrapped(command, tmp_path):
    assert reply(payload(command, mode="default", cwd=str(tmp_path))), command


@pytest.mark.parametrize("command", ASKS)
def test_commands_claude_code_asks_about_are_left_alone(command, tmp_path):
    assert reply(payload(command, mode="default", cwd=str(tmp_path))) is None, command


def test_git_in_a_bare_looking_directory_is_left_alone(tmp_path):
    (tmp_path / "HEAD").write_text("ref: refs/heads/main\n")
    (tmp_path / "objects").mkdir()
    (tmp_path / "refs").mkdir()
    assert reply(payload("git log", mode="default", cwd=str(tmp_path))) is None
    assert reply(payload("ls", mode="default", cwd=str(tmp_path)))


def test_a_path_inside_the_working_directories_is_judged_where_it_really_lies(private, tmp_path):
    """As Claude Code 2.1.330: an absolute path inside the session's folder or a listed
    additional directory runs unasked; one that leaves them, by spelling or through a link,
    is asked about (and so left alone)."""
    project, other, outside = tmp_path / "proj", tmp_path / "other", tmp_path / "outside"
    for folder in (project / "src", other, outside):
        folder.mkdir(parents=True)
    (project / "link").symlink_to(outside)
    (project / "inner").symlink_to(project / "src")

    def wrapped(command):
        return reply(payload(command, mode="default", cwd=str(project))) is not None

    for command in (f"cat {project}/src/a.py", f"ls -R {project}", f"cd {project} && rg -n x src",
                    f"grep -rn x {project}/src", "cat inner/a.py"):
        assert wrapped(command), command
    for command in (f"cat {other}/a", f"ls {tmp_path}", f"cat {project}x/a", "cat link/a",
                    f"cat {project}/link/a", f"cat {project}/src/../../outside/a", "ls ~/x"):
        assert not wrapped(command), command
    (private / ".claude" / "settings.json").write_text(json.dumps(
        {"permissions": {"additionalDirectories": [str(other), "relative/dir"]}}))
    assert wrapped(f"cat {other}/a") and not wrapped("cat relative/dir/a/../../../x")


@pytest.mark.parametrize("command", ["make test; exit 3", 'git commit -m "exit"',
                                     "rg -n exec src/ | head", "cd sub && make || exit 2"])
def test_bypass_mode_wraps_commands_that_say_exit(command):
    assert reply(payload(command))  # payload()'s mode is bypassPermissions


# --- malformed, huge and non-UTF-8 payloads: fail open, exit 0 ------------------------------

def hook_process(data: bytes):
    return subprocess.run([*HEADROOM, "hook", "claude"], input=data, capture_output=True,
                          timeout=120, env=dict(os.environ))


@pytest.mark.parametrize("data", [b"", b"{not json", b"\xff\xfe\x00garbage", b"[1, 2]",
                                  b'"a string"', b"null"])
def test_malformed_payloads_leave_the_call_alone_and_exit_0(data):
    done = hook_process(data)
    assert done.returncode == 0 and done.stdout == b""


def test_a_payload_with_invalid_utf8_is_left_alone():
    data = json.dumps(payload("echo ok")).encode()[:-3] + b"\xff\"}}"
    done = hook_process(data)
    assert done.returncode == 0 and done.stdout == b""


def test_a_huge_command_is_handled():
    command = "echo " + "x" * 200_000
    done = hook_process(json.dumps(payload(command)).encode())
    assert done.returncode == 0
    out = json.loads(done.stdout)["hookSpecificOutput"]["updatedInput"]["command"]
    assert command in out


def test_an_internal_error_fails_open(monkeypatch):
    def boom(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(claude, "rewrite", boom)
    assert run_hook("claude", json.dumps(payload()).encode(), HookOptions()) == b""


def test_the_hook_budget_default_is_the_documented_one():
    import typer

    from headroom_cli.agents.clip import DEFAULT_HOOK_BUDGET
    from headroom_cli.cli import app

    hook = typer.main.get_command(app).commands["hook"]
    budget = next(param for param in hook.params if param.name == "budget")
    # Not given (None) is the default budget, which follows the agent's context; the help
    # names it.
    assert budget.default is None and f"{DEFAULT_HOOK_BUDGET:,}" in budget.help
    # 6,000 tokens of ordinary output is about 24,000 bytes: under Claude Code's 30,000-byte
    # cap even before the filter's own byte cap.
    assert DEFAULT_HOOK_BUDGET * 4 < 30_000


# --- PostToolUse: MCP tools and Read (events recorded from 2.1.330, see claude_post) ---------

EVENTS = json.loads((Path(__file__).parent / "agents" / "claude_post_events.json").read_text())
sys.path.insert(0, str(Path(__file__).parent / "e2e"))
import mcp_server  # noqa: E402 - the e2e tests' MCP server: its real output


def mcp_event(tool="search_issues", blocks=None) -> dict:
    event = json.loads(json.dumps(EVENTS["mcp"]))
    event["tool_name"] = f"mcp__e2e__{tool}"
    event["tool_response"] = blocks if blocks is not None else \
        [{"type": "text", "text": mcp_server.tool_text(tool)}]
    return event


def test_a_large_mcp_json_output_becomes_a_skeleton_with_a_working_hint():
    out = reply(mcp_event())["hookSpecificOutput"]
    assert out["hookEventName"] == "PostToolUse" and set(out) == {"hookEventName",
                                                                   "updatedMCPToolOutput"}
    [block] = out["updatedMCPToolOutput"]
    text = block["text"]
    assert block["type"] == "text" and len(text.encode()) <= 28_000
    assert '"total"' in text and "400" in text and "PROJ-1" in text  # a skeleton of the page
    item_id = re.search(r"headroom show ([0-9a-f]{12})", text).group(1)
    shown = subprocess.run([*HEADROOM, "show", item_id], capture_output=True, timeout=120)
    assert shown.stdout.decode() == mcp_server.tool_text("search_issues")


@pytest.mark.parametrize("event", [
    mcp_event("small"),
    mcp_event(blocks=[{"type": "image", "data": "AAAA", "mimeType": "image/png"}]),
    mcp_event(blocks="a plain string"),
    dict(EVENTS["read"]),  # Read is left alone unless [hooks] read_over is set
    dict(mcp_event(), tool_name=7),
])
def test_post_tool_use_events_left_alone(event):
    assert reply(event) is None


def saved_event(tmp_path, text: str, name: str = "mcp-e2e-build_log-1-x.txt") -> dict:
    """The recorded event of a result Claude Code 2.1.330 saved past its MCP limit, moved
    under tmp_path, with `text` in the saved file."""
    event = json.loads(json.dumps(EVENTS["mcp_saved"]).replace("/tmp/hc/exp/work",
                                                                str(tmp_path)))
    recorded = re.search(r"saved to (.+?)\.\nFormat", event["tool_response"]).group(1)
    path = Path(recorded).with_name(name)
    event["tool_response"] = event["tool_response"].replace(recorded, str(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return event


def saved_reply_text(event) -> str:
    from headroom_cli.tokens import load_counter

    out = reply(event)["hookSpecificOutput"]
    assert set(out) == {"hookEventName", "updatedMCPToolOutput"}
    [block] = out["updatedMCPToolOutput"]
    assert block["type"] == "text" and len(block["text"]) < 30_000
    assert load_counter("cl100k_base").count(block["text"]) <= 6000  # the budget, line and all
    assert "sequential chunks" not in block["text"] and "You MUST" not in block["text"]
    return block["text"]


def shown(text: str) -> str:
    item_id = re.search(r"headroom(?:_cli)? show ([0-9a-f]{12})", text).group(1)
    return subprocess.run([*HEADROOM, "show", item_id], capture_output=True,
                          timeout=120).stdout.decode()


def test_a_log_saved_past_the_mcp_limit_reaches_the_model_clipped(tmp_path):
    log = mcp_server.build_log()
    event = saved_event(tmp_path, log)
    path = re.search(r"saved to (.+?)\.\nFormat", event["tool_response"]).group(1)
    text = saved_reply_text(event)
    assert text.startswith(f"[headroom: the whole result is in {path};")
    assert "INFO  build finished: 20000 steps, 2 errors\n" in text  # its last line
    assert "ERROR cc: module_7777.c" in text and "ERROR cc: module_15001.c" in text
    assert shown(text) == log and Path(path).read_text() == log  # stored; the file stays


def test_json_saved_past_the_mcp_limit_becomes_a_skeleton_with_every_item_counted(tmp_path):
    export = mcp_server.export()
    event = saved_event(tmp_path, export, "mcp-e2e-dump_issues-1-x.txt")
    text = saved_reply_text(event)
    assert "all 400 items" in text and '"key": "PROJ-400"' in text and "JSON skeleton" in text
    assert shown(text) == export


def test_a_saved_file_larger_than_the_intake_holds_streams(tmp_path, monkeypatch):
    from headroom_cli import intake

    monkeypatch.setattr(intake, "HOLD", 64 << 10)  # the build log is 2 MB: streamed
    log = mcp_server.build_log()
    text = saved_reply_text(saved_event(tmp_path, log))
    assert "build finished: 20000 steps, 2 errors" in text
    assert shown(text) == log


@pytest.mark.parametrize("where", ["elsewhere/x.txt", "tool-results/../../x.txt"])
def test_a_notice_naming_a_file_outside_the_sessions_tool_results_is_left_alone(tmp_path,
                                                                                 where):
    event = saved_event(tmp_path, mcp_server.build_log())
    folder = Path(event["transcript_path"]).with_suffix("")
    outside = folder / where
    outside.parent.mkdir(parents=True, exist_ok=True)
    outside.write_text(mcp_server.build_log())
    recorded = re.search(r"saved to (.+?)\.\nFormat", event["tool_response"]).group(1)
    event["tool_response"] = event["tool_response"].replace(recorded, str(outside))
    assert reply(event) is None
    del event["transcript_path"]
    assert reply(event) is None


def bash_event(tmp_path, output: str, saved: bool = True) -> dict:
    """The recorded PostToolUse of a Bash command whose output Claude Code 2.1.330 saved whole
    (`seq 1 300000`: stdout its first 30,000 characters, persistedOutputPath the whole), moved
    under tmp_path with `output` in the saved file."""
    event = json.loads(json.dumps(EVENTS["bash_persisted"]).replace("/tmp/hc/exp/work",
                                                                     str(tmp_path)))
    response = event["tool_response"]
    response["stdout"] = output[:30_000]
    path = Path(response["persistedOutputPath"])
    if saved:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(output)
        response["persistedOutputSize"] = len(output.encode())
    else:
        del response["persistedOutputPath"], response["persistedOutputSize"]
    return event


def test_a_bash_output_claude_code_saved_whole_reaches_the_model_clipped_in_bashs_shape(
        tmp_path):
    output = "".join(f"{n}\n" for n in range(1, 300_001))
    event = bash_event(tmp_path, output)
    out = reply(event)["hookSpecificOutput"]
    assert set(out) == {"hookEventName", "updatedToolOutput"}
    updated = out["updatedToolOutput"]
    # Bash's own shape, without the saved path (Claude Code would show its 2 KB preview again)
    assert set(updated) == {"stdout", "stderr", "interrupted", "isImage", "noOutputExpected"}
    text = updated["stdout"]
    assert len(text.encode()) <= 28_000 and text.startswith("1\n2\n")
    assert "\n300000\n" in text  # the end, which Claude Code's preview and its copy both lack
    assert shown(text) == output
    assert Path(event["tool_response"]["persistedOutputPath"]).read_text() == output


def test_a_bash_output_claude_code_kept_whole_or_a_missing_file_is_left_alone(tmp_path):
    assert reply(bash_event(tmp_path, "short\n", saved=False)) is None
    event = bash_event(tmp_path, "x\n" * 20_000)
    Path(event["tool_response"]["persistedOutputPath"]).unlink()
    assert reply(event) is None
    event = bash_event(tmp_path, "x\n" * 20_000)
    event["tool_response"]["persistedOutputPath"] = str(tmp_path / "elsewhere.txt")
    (tmp_path / "elsewhere.txt").write_text("x\n" * 20_000)
    assert reply(event) is None


def test_a_bash_output_under_claude_codes_cap_is_clipped_to_the_budget_after_the_fact(
        tmp_path):
    """Under 30,000 characters Claude Code hands the hook the whole output: an unwrapped
    command's output over the budget is clipped as the wrapper would have (auto mode, an
    asked command), in Bash's shape."""
    output = "".join(f"row {n}: src/module_{n}.py passed\n" for n in range(800))
    assert len(output) < 30_000
    event = bash_event(tmp_path, output, saved=False)
    updated = reply(event)["hookSpecificOutput"]["updatedToolOutput"]
    assert set(updated) == set(event["tool_response"])  # Bash's own shape, every key kept
    text = updated["stdout"]
    assert "[…headroom:" in text and text.rstrip().endswith("row 799: src/module_799.py passed")
    assert len(text) < len(output) and shown(text) == output
    again = reply(event)["hookSpecificOutput"]["updatedToolOutput"]["stdout"]
    assert again.startswith("[headroom: identical to the output of call 1")  # the session's
    assert reply(dict(event, session_id="another"), budget=20_000) is None  # fits: left whole


def test_a_wrapped_commands_output_is_not_clipped_again(tmp_path):
    output = "".join(f"row {n}: src/module_{n}.py passed\n" for n in range(800))
    event = bash_event(tmp_path, output, saved=False)
    wrapped = reply(payload("cat rows.txt"))["hookSpecificOutput"]["updatedInput"]["command"]
    event["tool_input"]["command"] = wrapped  # the event carries the command as it ran
    assert reply(event) is None


def test_an_mcp_server_the_config_skips_is_left_alone(monkeypatch):
    monkeypatch.setenv("HEADROOM_MCP_SKIP", "jira, e2e")
    assert reply(mcp_event()) is None
    monkeypatch.setenv("HEADROOM_MCP_SKIP", "jira")
    assert reply(mcp_event())


def test_a_broken_config_gives_the_default_settings(tmp_path, monkeypatch):
    (tmp_path / "config.toml").write_text("[hooks]\nmcp_skip = 3\n")
    monkeypatch.setenv("HEADROOM_CONFIG", str(tmp_path / "config.toml"))
    assert claude_post.settings_from_config() == claude_post.PostSettings()
    (tmp_path / "config.toml").write_text('[hooks]\nmcp_skip = ["jira"]\nread_over = 900\n')
    assert claude_post.settings_from_config() == claude_post.PostSettings(frozenset({"jira"}), 900)


def test_a_large_read_keeps_its_first_lines_true_and_outlines_the_rest(monkeypatch):
    monkeypatch.setenv("HEADROOM_READ_OVER", "2000")
    source = (Path(claude.__file__).parent.parent / "run.py").read_text()
    event = json.loads(json.dumps(EVENTS["read"]))
    lines = source.split("\n")
    event["tool_response"]["file"].update(content=source, numLines=len(lines),
                                          totalLines=len(lines))
    out = reply(event)["hookSpecificOutput"]
    file = out["updatedToolOutput"]["file"]
    assert out["updatedToolOutput"]["type"] == "text"
    kept = file["content"].split("\n")
    assert 0 < len(kept) < len(lines) and kept == lines[:len(kept)]
    assert file["numLines"] == len(kept) and file["startLine"] == 1
    note = out["additionalContext"]
    assert f"lines 1–{len(kept)}" in note and "offset/limit" in note
    assert "def _clip_and_store" in note  # the outline names a definition from the rest


# --- init: the hooks and the allow rule for `headroom show` ---------------------------------

def test_init_adds_the_mcp_hook_and_the_show_rules_and_uninstall_takes_them_out(tmp_path):
    path = tmp_path / "settings.json"
    original = b'{\n  "permissions": {"allow": ["Bash(npm test:*)"]}\n}\n'
    path.write_bytes(original)
    argv = ["/opt/hr/bin/headroom"]
    config.apply(claude.install(path, argv), dry_run=False, out=io.StringIO())
    settings = json.loads(path.read_text())
    assert settings["permissions"]["allow"] == [
        "Bash(npm test:*)", "Bash(headroom show:*)", "Bash(/opt/hr/bin/headroom show:*)"]
    [post] = settings["hooks"]["PostToolUse"]
    assert post["matcher"] == "mcp__.*|Bash"
    assert post["hooks"][0]["command"] == "/opt/hr/bin/headroom hook claude"
    assert claude.install(path, argv)[0].changed is False  # twice: the same file
    (tmp_path / "settings.json.headroom-backup").unlink()  # not restorable: entries removed
    config.apply(claude.install(path, argv, uninstall=True), dry_run=False, out=io.StringIO())
    assert path.read_bytes() == original


def test_init_hooks_read_when_the_config_asks_for_it(tmp_path, monkeypatch):
    monkeypatch.setenv("HEADROOM_READ_OVER", "8000")
    changes = claude.install(tmp_path / "settings.json", ["headroom"])
    settings = json.loads(changes[0].after)
    assert settings["hooks"]["PostToolUse"][0]["matcher"] == "mcp__.*|Bash|Read"


def test_the_filter_names_headroom_as_the_hook_was_started_so_the_allow_rule_matches(
        monkeypatch):
    monkeypatch.setattr(sys, "argv", ["/opt/hr/bin/headroom", "hook", "claude"])
    command = reply(payload("npm test"))["hookSpecificOutput"]["updatedInput"]["command"]
    assert "/opt/hr/bin/headroom hook filter" in command
    assert "Bash(/opt/hr/bin/headroom show:*)" in claude.show_rules(["/opt/hr/bin/headroom"])
