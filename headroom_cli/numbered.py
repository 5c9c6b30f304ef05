"""Line numbers a tool printed before every line: `cat -n` and `nl` (`     12<TAB>text`), an
agent's Read (`     12→text`), `git blame` (`3a2b1c4d (Ann Lee 2024-08-08  12) text`). Set
aside before an output's shape is asked (sniff.py), so a numbered changelog is Markdown, a
numbered patch a diff and a blame the source it annotates; the planners print the lines as
they came, numbers included (planners/outline.py reads their bodies the same way).

Only a consistent prefix counts: nearly every line that is not blank carries one, and the
numbers rise. A number and a colon (`1314:code`, SWE-agent's file window) counts only where the
numbers run on one a line: `grep -n`'s sparse `12:text` is a search result, `12:30:01` a clock.
"""

from __future__ import annotations

import re

# At most 12 digits: a longer run is no line number (and int() refuses one past 4,300 digits).
# `git blame`'s prefix numbers its lines too: the commit, the file when it was another
# (`-C`, a rename), then author, date and line number in parentheses.
BLAME = r"\^?[0-9a-f]{7,40} (?:[^ (][^ ]* +)?\([^()\n]*? (\d{1,12}+)\) ?"
PREFIX = re.compile(r"[ \t]*+(\d{1,12}+)(?:\t|→)|" + BLAME)
COLON = re.compile(r"[ \t]*+(\d{1,12}+):")
_SHARE = 0.9


def prefix_of(rows: list[str]) -> re.Pattern | None:
    """The line-number prefix nearly every non-blank row starts with (PREFIX, its numbers
    rising; or COLON, its numbers running on one a row), or None."""
    filled = [row for row in rows if row.strip()]
    for pattern, step_ok in ((PREFIX, lambda a, b: a < b), (COLON, lambda a, b: b == a + 1)):
        found = _nearly_all(pattern, filled)
        if not found:
            continue
        numbers = [int(m[1] or m[2]) if m.re is PREFIX else int(m[1]) for m in found]
        if all(step_ok(a, b) for a, b in zip(numbers, numbers[1:])):
            return pattern
    return None


def _nearly_all(pattern: re.Pattern, rows: list[str]) -> list[re.Match]:
    """The matches of `pattern` at the start of the rows when nearly all of them have one;
    else none (given up as soon as too many do not: most outputs are not numbered)."""
    misses, most = 0, (1 - _SHARE) * len(rows)
    found = []
    for row in rows:
        if match := pattern.match(row):
            found.append(match)
        else:
            misses += 1
            if misses > most:
                return []
    return found


def numbered(rows: list[str]) -> bool:
    """Nearly every non-blank row starts with a line number (prefix_of)."""
    return prefix_of(rows) is not None


def stripped(rows: list[str], prefix: re.Pattern | None = None) -> list[str]:
    """The rows without their line numbers (a row without one stays as it is, but for the
    padding `nl` prints for a blank line: blank). `prefix`: the rows' own (prefix_of)."""
    prefix = prefix or prefix_of(rows) or PREFIX
    return [row[m.end():] if (m := prefix.match(row)) else row if row.strip() else ""
            for row in rows]


def through(planner, prefix: re.Pattern = PREFIX):
    """A planner of numbered text made from one of the same text without its numbers: it
    plans the bare lines, and what it keeps or omits is moved back onto the numbered ones
    (a line kept whole keeps its number). For planners that do not read numbers themselves
    (a module's READS_NUMBERED). `prefix`: the text's own (prefix_of)."""
    from .plan import Gap, Keep, Lines
    from .values import replace

    def plan(text: str, lines: Lines, budget: int, counter, tool, **options):
        starts = [lines.start(i) for i in range(len(lines))]
        prefixes = [len(m[0]) if (m := prefix.match(text, start)) else 0 for start in starts]
        bare = Lines("".join(text[start + cut:lines.end(i)]
                             for i, (start, cut) in enumerate(zip(starts, prefixes))))
        found = planner(bare.text, bare, budget, counter, tool, **options)
        if found is None:
            return None

        def moved(pos: int, is_end: bool) -> int:
            index = bare.line_of(pos - 1 if is_end and pos else pos)
            if pos >= len(bare.text):
                return len(text)
            if is_end and pos == bare.end(index):
                return lines.end(index)
            if not is_end and pos == bare.start(index):
                return lines.start(index)
            return lines.start(index) + prefixes[index] + pos - bare.start(index)

        items = tuple(replace(item, start=moved(item.start, False), end=moved(item.end, True))
                      if isinstance(item, (Keep, Gap)) else item for item in found.items)
        return replace(found, items=items)

    return plan
