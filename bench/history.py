"""Ageing on the replay corpus: a session's total input tokens and the needles old results keep.

For each session in tests/replay/ (real tool outputs; see bench/history_sessions.py), replays the
conversation turn by turn as a harness sends it and compares three views of the history:

    baseline   every tool result verbatim
    headroom   age_history(): the last 3 results verbatim, older ones planned at 300 tokens
    prefix500  the last 3 verbatim, older ones cut to their first 500 characters (the published
               age-aware truncation)

and, for every result that leaves the window and that either strategy shrinks, the share of its
needles (what a person debugging would look for, written with the session) that each view keeps.

    .venv/bin/python bench/history.py            # prints the table; exit 1 if a target is missed

Targets (issue #16): headroom cuts the total input tokens by at least 50% against baseline, and
keeps at least 2.5x the needles the 500-character prefix keeps.
"""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from headroom_cli.api import counter_for  # noqa: E402
from headroom_cli.history import (ToolResult, aged_message_indexes, replay,  # noqa: E402
                                  tool_results)

CORPUS = ROOT / "tests" / "replay"
KEEP_RECENT, BUDGET, PREFIX_CHARS = 3, 300, 500
TOKEN_CUT, NEEDLE_RATIO = 0.5, 2.5


def prefix500(result: ToolResult) -> str | None:
    return result.text[:PREFIX_CHARS] if len(result.text) > PREFIX_CHARS else None


@dataclass(frozen=True)
class Figures:
    name: str
    turns: int
    baseline: int
    headroom: int
    prefix: int
    recached: int  # tokens re-read past a changed position (headroom), over the session
    needles: int  # needles in the results shrunk by either strategy
    kept_headroom: int
    kept_prefix: int


def measure(path: Path, counter) -> Figures:
    session = json.loads(path.read_text("utf-8"))
    messages, needles = session["messages"], session["needles"]
    ours = replay(messages, keep_recent=KEEP_RECENT, budget=BUDGET, counter=counter)
    theirs = replay(messages, keep_recent=KEEP_RECENT, counter=counter, shrink=prefix500)
    before = tool_results(messages)
    after_ours = tool_results(ours.aged.messages)
    after_theirs = tool_results(theirs.aged.messages)
    old = aged_message_indexes(before, KEEP_RECENT)
    total = kept_ours = kept_theirs = 0
    for original, mine, other in zip(before, after_ours, after_theirs):
        shrunk = mine.text != original.text or other.text != original.text
        if original.message not in old or not shrunk:
            continue
        wanted = needles.get(original.call_id, [])
        total += len(wanted)
        kept_ours += sum(needle in mine.text for needle in wanted)
        kept_theirs += sum(needle in other.text for needle in wanted)
    return Figures(path.stem, len(ours.turns), ours.total("baseline_tokens"),
                   ours.total("aged_tokens"), theirs.total("aged_tokens"),
                   ours.total("recached_tokens"), total, kept_ours, kept_theirs)


def corpus() -> list[Path]:
    return sorted(CORPUS.glob("*.json"))


def main() -> int:
    counter = counter_for("cl100k_base")
    rows = [measure(path, counter) for path in corpus()]
    header = (f"{'session':<24} {'turns':>5} {'baseline':>10} {'headroom':>10} {'prefix500':>10}"
              f" {'needles':>8} {'headroom':>9} {'prefix500':>9}")
    print(header)
    for row in rows:
        print(f"{row.name:<24} {row.turns:>5} {row.baseline:>10,} {row.headroom:>10,} "
              f"{row.prefix:>10,} {row.needles:>8} {row.kept_headroom:>9} {row.kept_prefix:>9}")
    base = sum(r.baseline for r in rows)
    ours = sum(r.headroom for r in rows)
    theirs = sum(r.prefix for r in rows)
    needles = sum(r.needles for r in rows)
    kept_ours = sum(r.kept_headroom for r in rows)
    kept_theirs = sum(r.kept_prefix for r in rows)
    print(f"{'total':<24} {sum(r.turns for r in rows):>5} {base:>10,} {ours:>10,} {theirs:>10,} "
          f"{needles:>8} {kept_ours:>9} {kept_theirs:>9}")
    cut = 1 - ours / base
    ratio = kept_ours / max(1, kept_theirs)
    print(f"\ninput tokens over the sessions: headroom {cut:.0%} below baseline, prefix500 "
          f"{1 - theirs / base:.0%} below")
    print(f"needles of the shrunk results kept: headroom {kept_ours}/{needles} "
          f"({kept_ours / max(1, needles):.0%}), prefix500 {kept_theirs}/{needles} "
          f"({kept_theirs / max(1, needles):.0%}): {ratio:.1f}x")
    print(f"cache cost (headroom): {sum(r.recached for r in rows):,} tokens re-read after the "
          "first changed position, over all turns")
    ok = cut >= TOKEN_CUT and ratio >= NEEDLE_RATIO
    print(f"\ntargets: tokens -{TOKEN_CUT:.0%} {'PASS' if cut >= TOKEN_CUT else 'FAIL'}, "
          f"needles {NEEDLE_RATIO}x {'PASS' if ratio >= NEEDLE_RATIO else 'FAIL'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
