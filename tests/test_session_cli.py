"""Sessions as they run: real headroom processes, a real pytest on a test file the test writes
and edits, 32 runs of one session at once, a state folder that cannot be written, and the
same history giving the same bytes."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

from conftest import HEADROOM_SCRIPT
from session_runs import PYTEST, SINCE_LINE, edit_tests, runner_env, write_tests

from headroom_cli.tokens import EstimateCounter

IDENTICAL = re.compile(r"\[headroom: identical to the output of call 2 of this session \(`[^`]+`\)"
                       r": nothing changed(?: but the run times)?\. The command exited with "
                       r"status 1\. To see it again: headroom show ([0-9a-f]{12})\]\n")


def headroom(*args, cwd=None, input_bytes=None, env=None):
    return subprocess.run([HEADROOM_SCRIPT, *args], cwd=cwd, input=input_bytes,
                          capture_output=True, env=env or runner_env(), timeout=300)


def test_fix_one_failure_add_one_then_run_again_unchanged(private_env, tmp_path):
    """The issue's three runs: the second opens with what changed, the third is one line whose
    `headroom show` prints the second run's output; every output within the budget."""
    project = tmp_path / "project"
    project.mkdir()
    write_tests(project)
    run = lambda: headroom("--session", "agent-1", "--", *PYTEST, cwd=project)  # noqa: E731
    first = run()
    assert first.returncode == 1 and first.stdout.startswith(b"=====")
    edit_tests(project)
    second = run()
    assert second.returncode == 1
    opening, rest = second.stdout.decode().split("\n", 1)
    assert opening == SINCE_LINE
    assert "FAILED test_x.py::test_fine" in rest and "test_sum_small PASSED" in rest
    third = run()
    assert third.returncode == 1
    found = IDENTICAL.fullmatch(third.stdout.decode())
    assert found, third.stdout
    shown = headroom("show", found.group(1))
    assert shown.returncode == 0 and shown.stdout == rest.encode()
    counter = EstimateCounter()  # private_env counts with the estimate
    assert all(counter.count(done.stdout.decode()) <= 4000 for done in (first, second, third))


def test_a_re_run_clipped_to_a_small_budget_keeps_its_new_failure_first(private_env, tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    write_tests(project)
    run = lambda: headroom("--session", "agent-2", "--budget", "300", "--", *PYTEST,  # noqa
                           cwd=project)
    run()
    edit_tests(project)
    second = run().stdout.decode()
    assert second.split("\n", 1)[0] == SINCE_LINE
    assert "assert 0 == 1" in second  # the new failure's own report, kept in 300 tokens
    assert EstimateCounter().count(second) <= 300


def test_without_a_session_the_output_is_as_it_always_was(private_env, tmp_path):
    project = tmp_path / "project"
    project.mkdir()
    write_tests(project)
    outputs = [headroom("--", *PYTEST, cwd=project).stdout for _ in range(2)]
    assert not any(out.startswith(b"[headroom") for out in outputs)
    assert not (tmp_path / "store" / "sessions").exists()


def test_32_concurrent_runs_of_one_session_lose_no_call_and_no_state(private_env, tmp_path):
    """16 outputs, each printed by two runs at once: every run is a call with its own number,
    every call has its ledger row, and the state stays whole."""
    from headroom_cli import session
    from headroom_cli.ledger import read_rows

    runs = [subprocess.Popen([HEADROOM_SCRIPT, "--session", "busy", "--", "seq", "1",
                              str(1200 + n % 16)], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE) for n in range(32)]
    outputs = [run.communicate(timeout=300) for run in runs]
    assert all(run.returncode == 0 for run in runs)
    assert all(err == b"" for _, err in outputs)
    identical = [out for out, _ in outputs if out.startswith(b"[headroom: identical")]
    whole = [out for out, _ in outputs if not out.startswith(b"[headroom")]
    assert len(identical) + len(whole) == 32 and len(identical) <= 16
    state = session.Sessions(str(tmp_path / "store")).read("busy")
    assert state.calls == 32 and len(state.commands) == 16 and len(state.outputs) == 16
    calls = [row for row in read_rows(str(tmp_path / "state" / "headroom" / "ledger.sqlite3"))[1]
             if row[1] == "busy"]
    assert sorted(row[2] for row in calls) == list(range(1, 33))
    assert sum(row[11] for row in calls) == len(identical)


def test_a_state_folder_that_cannot_be_written_costs_the_memory_and_one_line(private_env,
                                                                            tmp_path):
    args = ("--", "seq", "1", "3000")
    plain = headroom(*args)
    (tmp_path / "store").mkdir()
    (tmp_path / "store" / "sessions").write_text("not a folder")
    for _ in range(2):
        done = headroom("--session", "s", *args)
        assert done.returncode == 0 and done.stdout == plain.stdout
        lines = done.stderr.decode().splitlines()
        assert len(lines) == 1 and "running without session memory" in lines[0], lines


def test_the_same_history_gives_the_same_bytes(private_env, tmp_path):
    """Three real pytest outputs, replayed through `cat` in two fresh sessions."""
    project = tmp_path / "project"
    project.mkdir()
    write_tests(project)
    recorded = [subprocess.run(PYTEST, cwd=project, capture_output=True, env=runner_env(),
                               timeout=300).stdout]
    edit_tests(project)
    recorded += [subprocess.run(PYTEST, cwd=project, capture_output=True, env=runner_env(),
                                timeout=300).stdout for _ in range(2)]
    seen = []
    for home in ("a", "b"):
        env = {**runner_env(), "HEADROOM_STORE": str(tmp_path / home / "store"),
               "XDG_STATE_HOME": str(tmp_path / home / "state")}
        outputs = []
        for output in recorded:
            (project / "now.txt").write_bytes(output)
            outputs.append(headroom("--session", "replay", "--", "cat", "now.txt", cwd=project,
                                    env=env).stdout)
        seen.append(outputs)
    assert seen[0] == seen[1]
    assert seen[0][1].startswith(SINCE_LINE.encode()) and seen[0][2].startswith(
        b"[headroom: identical to the output of call 2 of this session (`cat now.txt`)")


def test_a_claude_code_session_re_runs_through_the_hook(private_env, tmp_path):
    """The PreToolUse decision passes the session, the directory and the command to the
    filter; the wrapped command, run three times by bash, says what changed, then that
    nothing did."""
    from headroom_cli.agents import HookOptions, run_hook

    project = tmp_path / "project"
    project.mkdir()
    write_tests(project)
    command = " ".join(PYTEST)
    event = {"session_id": "claude-session-1", "cwd": str(project),
             "permission_mode": "bypassPermissions", "hook_event_name": "PreToolUse",
             "tool_name": "Bash", "tool_input": {"command": command}}

    def run():
        answer = json.loads(run_hook("claude", json.dumps(event).encode(),
                                     HookOptions(headroom=[HEADROOM_SCRIPT])))
        wrapped = answer["hookSpecificOutput"]["updatedInput"]["command"]
        assert "--session claude-session-1" in wrapped
        return subprocess.run(["bash", "-c", wrapped], cwd=project, capture_output=True,
                              env=runner_env(), timeout=300)

    run()
    edit_tests(project)
    second = run()
    assert second.returncode == 1 and second.stdout.decode().split("\n", 1)[0] == SINCE_LINE
    third = run()
    assert third.returncode == 1 and IDENTICAL.fullmatch(
        third.stdout.decode().replace(f"{HEADROOM_SCRIPT} show", "headroom show"))


def test_a_session_s_store_folder_is_private(private_env, tmp_path):
    headroom("--session", "s", "--", "seq", "1", "3000")
    folder = Path(tmp_path / "store" / "sessions")
    assert oct(folder.stat().st_mode & 0o777) == "0o700"
    assert all(oct(p.stat().st_mode & 0o777) == "0o600" for p in folder.iterdir())


def test_headroom_session_names_the_session_for_pipes(private_env, tmp_path):
    env = {**runner_env(), "HEADROOM_SESSION": "ci-7"}
    data = b"".join(b"line %d of a long report\n" % i for i in range(400))
    first = headroom(input_bytes=data, env=env)
    second = headroom(input_bytes=data, env=env)
    assert first.stdout == data  # fits the budget: whole
    assert second.stdout.startswith(b"[headroom: identical to the output of call 1 of this "
                                    b"session: nothing changed. To see it again: headroom show ")


def test_stats_of_a_scripted_session_give_the_known_figures(private_env, tmp_path):
    """Call 1 is clipped and then retrieved; call 2 prints the same output (identical, a
    re-run); call 3 fits. Every figure follows from the printed outputs themselves."""
    counter = EstimateCounter()
    script = ("--session", "scripted", "--budget", "200", "--", "seq", "1", "3000")
    raw = subprocess.run(["seq", "1", "3000"], capture_output=True).stdout.decode()
    first = headroom(*script)
    hint = re.search(r"headroom show ([0-9a-f]{12})", first.stdout.decode())
    assert headroom("show", hint.group(1), "--lines", "1:5").stdout == b"1\n2\n3\n4\n5\n"
    second = headroom(*script)
    assert second.stdout.startswith(b"[headroom: identical to the output of call 1")
    third = headroom("--session", "scripted", "--", "echo", "done")
    assert third.stdout == b"done\n"
    saved = [counter.count(raw) - counter.count(out.stdout.decode()) for out in (first, second)]
    stats = json.loads(headroom("stats", "--session", "scripted", "--json").stdout)
    totals = stats["totals"]
    assert (totals["calls"], totals["clipped"], totals["identical"], totals["reruns"]) == \
        (3, 1, 1, 1)
    assert (totals["retrievals"], totals["retrievals_per_clip"]) == (1, 1.0)
    assert totals["saved_tokens"] == sum(saved)
    assert totals["cumulative_saved_tokens"] == saved[0] * 3 + saved[1] * 2  # turns left
    assert set(stats["by_family"]) == {"seq", "echo"}
    assert stats["suggestions"] == [{
        "family": "seq", "clips": 1, "retrievals": 1, "share": 1.0, "budget": 200,
        "suggested_budget": 1000, "config": "[commands.seq]\nbudget = 1000"}]
    everything = json.loads(headroom("stats", "--json").stdout)
    assert everything["by_session"]["scripted"]["turns"] == 3
    assert everything["totals"]["runs"] == 2 and everything["totals"]["shows"] == 1
    text = headroom("stats", "--session", "scripted").stdout.decode()
    assert "[commands.seq]" in text and "budget = 1000" in text


def test_a_family_budget_from_the_config_file_applies(private_env, tmp_path):
    config = tmp_path / "config" / "headroom"
    config.mkdir(parents=True)
    (config / "config.toml").write_text("[commands.seq]\nbudget = 1000\n")
    wide = headroom("--", "seq", "1", "5000").stdout.decode()
    counter = EstimateCounter()
    assert 500 < counter.count(wide) <= 1000
    narrow = headroom("--budget", "300", "--", "seq", "1", "5000").stdout.decode()
    assert counter.count(narrow) <= 300  # a flag beats the file


def test_with_both_features_off_the_session_keeps_no_state(private_env, tmp_path):
    config = tmp_path / "config" / "headroom"
    config.mkdir(parents=True)
    (config / "config.toml").write_text("[session]\ndedup = false\nsince = false\n")
    outputs = [headroom("--session", "s", "--", "seq", "1", "3000").stdout for _ in range(2)]
    assert outputs[0] == outputs[1] and not outputs[0].startswith(b"[headroom")
    assert not (tmp_path / "store" / "sessions").exists()
    stats = json.loads(headroom("stats", "--session", "s", "--json").stdout)
    assert stats["totals"]["calls"] == 2  # still in the ledger
