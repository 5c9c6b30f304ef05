"""A file read with its line numbers in the `N:` form is read as a file, from its head.

SWE-agent's `open`/`goto`/`scroll_down` print a window of a file as `1314:code`, between a
`[File: … (2689 lines total)]` header and `(1276 more lines below)`. A colon after a number is
also `grep -n`'s (sparse numbers: a search result) and a clock's (`12:30:01`): it counts as line
numbering only where the numbers run on, one a line (numbered.COLON).

Measured on real agent sessions (../shared/sessions, `../shared/eval/session_replay.py`, 400
steps, seeds 1 and 2): such windows fell to the templates rung, which cut the window into
scattered exemplars; the identifiers the agent used next were in the window's top. Read from
the head, as a Read is, the used-next recall at 500 tokens went 0.644 → 0.724 (seed 1) and
0.661 → 0.717 (seed 2); a plain 75 %/12.5 % head-and-tail cut scores 0.636 (seed 1).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from headroom_cli.api import compress
from headroom_cli.clean import clean
from headroom_cli.numbered import COLON, prefix_of, stripped
from headroom_cli.plan import Lines
from headroom_cli.sniff import sniff
from headroom_cli.tools import lookup

REAL = Path(__file__).parent / "real"
# A SWE-agent trajectory (public, multi-swe-bench/experiments at 89888f1; see
# ../shared/sessions/SOURCES.md), read where the checkout's neighbour holds it.
TRAJECTORY = (Path(__file__).resolve().parents[2] / "shared" / "sessions" / "raw"
              / "multi-swe-bench-sweagent-java" / "20240825_SWE-agent_gpt-4o-mini-2024-07-18"
              / "trajs" / "fasterxml__jackson-databind-4219.traj")


def _window(action: str) -> str:
    """What the model was shown after `action` (the next user message of the history)."""
    history = json.loads(TRAJECTORY.read_text(encoding="utf-8"))["history"]
    at = next(i for i, m in enumerate(history)
              if m["role"] == "assistant" and m.get("action", "").strip() == action)
    content = history[at + 1]["content"]
    return content if isinstance(content, str) else "".join(
        part.get("text", "") for part in content)


needs_trajectory = pytest.mark.skipif(not TRAJECTORY.is_file(),
                                      reason="../shared/sessions is not beside the checkout")


@needs_trajectory
def test_a_swe_agent_window_is_numbered_and_read_from_its_head(counter):
    window = _window("goto 1329")
    rows = window.splitlines()
    assert rows[0].startswith("[File: ") and prefix_of(rows) is COLON
    assert sniff(Lines(clean(window)), lookup("Bash")) == "other"
    body = [row for row in rows if re.match(r"\d+:", row)]
    out = compress(window, tool="Bash", budget=500, counter=counter).text
    shown = out.splitlines()
    # the head of the window, contiguous: 30 lines from the first, where the method the agent
    # went to (line 1329) starts; its next action edits it, naming what these lines hold
    assert all(row in shown for row in body[:30])
    for name in ("elemType", "getContentType", "contentDeser"):
        assert name in out
    assert "lines of this form" not in out  # not cut into templates
    assert counter.count(out) <= 500


def test_grep_n_is_no_numbered_listing():
    """`grep -n 'def ' argparse.py` (CPython 3.11.7): `118:    def __repr__(self):`, its
    numbers far apart. Every row has the colon form, but it numbers matches, not the file."""
    rows = (REAL / "grep-n-def-argparse-py-3.11.7.txt").read_text().splitlines()
    assert all(COLON.match(row) for row in rows)
    assert prefix_of(rows) is None
    assert stripped(rows[:3], COLON) == [row.split(":", 1)[1] for row in rows[:3]]
