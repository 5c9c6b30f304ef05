"""The Read outline stays opt-in (docs/agents/claude.md, "Read"): by default a Read reaches the
model exactly as Claude Code gives it, and `read_over = N` outlines a longer one."""

from __future__ import annotations

import re
from pathlib import Path

from headroom_cli.agents import HookOptions
from headroom_cli.agents import claude_post

CORPUS = Path(__file__).parent / "corpus"


def _read_event(case: str) -> tuple[dict, list[str]]:
    """A Read of a real file (a corpus case's `cat -n` output, its numbers taken off)."""
    rows = (CORPUS / case / "output.txt").read_text().rstrip("\n").split("\n")
    lines = [re.sub(r"^ *\d+\t", "", row, count=1) for row in rows]
    content = "\n".join(lines)
    return ({"tool_name": "Read", "tool_response": {"type": "text", "file": {
        "filePath": f"/src/{case}", "content": content, "startLine": 1,
        "numLines": len(lines), "totalLines": len(lines)}}}, lines)


def test_by_default_a_long_read_is_left_whole_and_read_is_not_hooked(tmp_path, monkeypatch):
    monkeypatch.setenv("HEADROOM_CONFIG", str(tmp_path / "absent.toml"))
    monkeypatch.delenv("HEADROOM_READ_OVER", raising=False)
    settings = claude_post.settings_from_config()
    assert settings.read_over == 0
    assert claude_post.matcher() == "mcp__.*|Bash"
    event, _ = _read_event("read-glob-readme-md")
    assert claude_post.reply(event, HookOptions(store=False), settings) is None


def test_read_over_keeps_the_first_lines_true_and_outlines_the_rest(counter):
    event, lines = _read_event("read-glob-readme-md")
    answer = claude_post.reply(event, HookOptions(store=False),
                               claude_post.PostSettings(read_over=4000))
    out = answer["hookSpecificOutput"]
    kept = out["updatedToolOutput"]["file"]["content"].split("\n")
    assert 0 < len(kept) < len(lines) and kept == lines[:len(kept)]
    note = out["additionalContext"]
    assert f"lines 1–{len(kept)} of /src/read-glob-readme-md" in note and "offset/limit" in note
    headings = [i for i, line in enumerate(lines) if line.startswith("## ")]
    listed = [i for i in headings if i >= len(kept) and f"{i + 1:>6}\t{lines[i]}" in note]
    assert listed  # the outline lists headings of the lines left out, with their numbers
    assert counter.count("\n".join(kept) + note) < counter.count("\n".join(lines)) / 2
