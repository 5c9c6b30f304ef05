"""markdown: a Markdown document (a README, docs read or fetched) becomes the head, every
heading of the omitted part with its line number, then the tail.

Headings are ATX (`## Usage`; not a C preprocessor line spaced after its `#`) and setext (a
line underlined with `===` or `---`), never inside a fenced code block. A document is Markdown
when it has at least three headings and something only Markdown has: headings of two levels,
fenced blocks, or lists and links.
"""

from __future__ import annotations

from ..patterns import lazy
from ..plan import Lines, Plan
from ..tokens import Counter
from ..tools import Tool
from . import outline

READS_NUMBERED = True  # plans numbered lines (`cat -n`, a Read) itself

# (not a C preprocessor line spaced after its `#`: zlib.h's `#  define deflateInit(strm, …)`)
_ATX = lazy(r"(#{1,6})[ \t]+(?!(?:define|include|if|ifdef|ifndef|else|elif|endif|undef|pragma"
            r"|error|warning|line)\b)\S")
_SETEXT = lazy(r"(=+|-+)[ \t]*$")
_FENCE = lazy(r"[ ]{0,3}(```|~~~)")
_LIST_OR_LINK = lazy(r"[ \t]*(?:[-*+][ \t]+\S|\d+[.)][ \t]+\S)|.*\]\([^)\s]+\)")
_MAX_HEADING_SHARE = 0.4
# Rows of comments (`# …`, a script or a config file) are not headings; headings this share of
# the rows are, when Markdown's links say it is Markdown (a changelog of short releases: a
# linked version heading, a `### Bug Fixes`, one item).
_LINKED_HEADING_SHARE = 0.6
_LINK = lazy(r"\[[^\]\n]+\]\([^)\s]+\)")
# A document beyond doubt: this many headings, of two levels at least (a changelog's versions
# and their sections, a reference's chapters and entries).
_DOCUMENT_HEADINGS = 2 * outline.MIN_HEADINGS


def headings(rows: list[str]) -> tuple[list[tuple[int, int]], int, int]:
    """(line, level) of every heading outside fenced blocks, the fence lines and the list or
    link lines."""
    found, fences, marks, fenced = [], 0, 0, False
    for index, row in enumerate(rows):
        if _FENCE.match(row):
            fences += 1
            fenced = not fenced
            continue
        if fenced:
            continue
        atx = _ATX.match(row)
        if atx:
            found.append((index, len(atx.group(1))))
        elif (index + 1 < len(rows) and _SETEXT.match(rows[index + 1]) and row.strip()
              and not row[:1].isspace() and not _LIST_OR_LINK.match(row)
              and not _SETEXT.match(row) and (index == 0 or not rows[index - 1].strip())):
            found.append((index, 1 if rows[index + 1].lstrip()[:1] == "=" else 2))
        elif _LIST_OR_LINK.match(row):
            marks += 1
    return found, fences, marks


def looks_like(sample: list[str], tool: Tool) -> bool:
    rows = outline.bodies(sample)
    found, fences, marks = headings(rows)
    non_empty = sum(1 for row in rows if row.strip())
    if len(found) < outline.MIN_HEADINGS or len(found) > _LINKED_HEADING_SHARE * non_empty:
        return False
    if len(found) > _MAX_HEADING_SHARE * non_empty and \
            sum(1 for row in rows if _LINK.search(row)) < outline.MIN_HEADINGS:
        return False
    levels = {level for _, level in found}
    return len(levels) >= 2 or fences >= 2 or marks >= 3


def looks_like_a_document(sample: list[str], tool: Tool) -> bool:
    """Markdown by its structure, asked before a shell output's error words make it a log: a
    changelog quotes the errors it fixed, a reference the errors its settings raise, but a
    log has no headings of two levels (a TAP stream's `# Subtest:` lines are one)."""
    # Each heading has a row of its own opening with "#", or an underline opening with "=" or
    # "-": a sample with fewer such rows (a log, every time this is asked of one) is not read.
    if sum(1 for row in sample if row.startswith(("#", "=", "-"))) < _DOCUMENT_HEADINGS and \
            not outline.numbered(sample[:outline.JUDGED_ROWS]):
        return False
    rows = outline.bodies(sample)
    found, _, _ = headings(rows)
    return (len(found) >= _DOCUMENT_HEADINGS and len({level for _, level in found}) >= 2
            and looks_like(sample, tool))


def _prose(rows: list[str]):
    """Indexes of the lines outside fenced and indented code blocks."""
    fenced = False
    for index, row in enumerate(rows):
        if _FENCE.match(row):
            fenced = not fenced
        elif not fenced and not row.startswith(("    ", "\t")):
            yield index


def plan(text: str, lines: Lines, budget: int, counter: Counter, tool: Tool) -> Plan | None:
    rows = outline.bodies(list(lines))
    found, _, _ = headings(rows)
    titles = {i for i, _ in found}
    return outline.plan("markdown", "headings", text, lines, budget, counter, found,
                        notable=outline.notable_rows(rows, _prose(rows), titles, found),
                        document=True)
