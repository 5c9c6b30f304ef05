"""manual: a document laid out by indentation under capitalised section names — a man page,
`pydoc`'s help, `git help`, an `info`-style text — becomes the head, an outline of the omitted
part, then the tail (outline.py).

Such a document has no heading marks: its structure is its indentation. A section name sits at
the margin (`SHELL BUILTIN COMMANDS`, `FUNCTIONS`), a subsection a few columns in
(`   Parameter Expansion`), an entry one level deeper (`       trap [-lp] [[arg] sigspec ...]`,
`    class Task(Future)`, `    gather(*coros_or_futures, …)`), each with its body indented under
it. A heading is a line that opens a block (after a blank line, or after a line indented
otherwise, so never a paragraph's last line) and whose next line is indented deeper; its level
is the rank of its indentation. The outline is level-first — every section before any
subsection, every subsection before any entry — and within a level spread over the document;
then the prose lines that name an error, a breaking change, a deprecation or a security fix.
"""

from __future__ import annotations

from ..patterns import lazy
from ..plan import Lines, Plan
from ..tokens import Counter
from ..tools import Tool
from . import outline

READS_NUMBERED = True  # plans numbered lines (`cat -n`, a Read) itself

# A section name: capitals at the margin (`NAME`, `SEE ALSO`, `EXIT STATUS`, `CLASSES`).
_SECTION = lazy(r"[A-Z][A-Z0-9]*(?:[ _-][A-Z0-9]+)*$")
_MIN_SECTIONS = 3
_STRAY_LINES = 2  # at the margin besides the section names: a man page's header and footer
# Within a level, an entry over this many lines (a builtin, a class) before a short one (an
# option, a variable): half a level down.
_MAJOR_LINES = 12
_MINOR = 0.5
JUDGED_LINES = 2_000


def _depth(row: str) -> int:
    """Columns of indentation (-1 for a blank row); a tab counts as eight."""
    body = row.lstrip(" \t")
    if not body.strip():
        return -1
    return len(row[:len(row) - len(body)].expandtabs(8))


def headings(rows: list[str]) -> list[tuple[int, int]]:
    """(line, level) of every heading: a line that opens a block and has the next non-blank
    line indented deeper; level: the rank of its indentation among the headings'."""
    found: list[tuple[int, int]] = []
    depths = [_depth(row) for row in rows]
    previous = -1  # the depth of the line before (-1: blank)
    for index, depth in enumerate(depths):
        if depth < 0:
            previous = -1
            continue
        if previous != depth and _opens(depths, index, depth):
            found.append((index, depth))
        previous = depth
    ranks = {depth: rank for rank, depth in enumerate(sorted({d for _, d in found}))}
    return [(index, ranks[depth] + _MINOR * (_extent(depths, index, depth) < _MAJOR_LINES))
            for index, depth in found]


def _opens(depths: list[int], index: int, depth: int) -> bool:
    """The next non-blank line is indented deeper, or the next line is a second form at the
    same depth (`set [-abe…]` over `set [+abe…]`) with the body under both."""
    below = next((d for d in depths[index + 1:index + 3] if d >= 0), -1)
    return below > depth or (depths[index + 1:index + 2] == [depth]
                             and depths[index + 2:index + 3] > [depth])


def _extent(depths: list[int], index: int, depth: int) -> int:
    """How many lines the heading at `index` stands over (to the next line as shallow)."""
    end = index + 1
    while (end < len(depths) and (depths[end] < 0 or depths[end] > depth)
           and end - index < _MAJOR_LINES):
        end += 1
    return end - index


def looks_like(sample: list[str], tool: Tool) -> bool:
    """At least three capitalised section names at the margin, each over an indented body,
    and few other lines at the margin (a man page's header and footer, pydoc's `Help on …`):
    the body is indented under its sections."""
    rows = outline.bodies(sample[:JUDGED_LINES])
    sections = others = 0
    for index, row in enumerate(rows):
        if not row.strip() or row[:1] in " \t":
            continue
        if (_SECTION.match(row.rstrip()) and index + 1 < len(rows)
                and _depth(rows[index + 1]) > 0):
            sections += 1
        else:
            others += 1
    return sections >= _MIN_SECTIONS and others <= max(_STRAY_LINES, sections // 4)


def plan(text: str, lines: Lines, budget: int, counter: Counter, tool: Tool) -> Plan | None:
    rows = outline.bodies(list(lines))
    found = headings(rows)
    notable = outline.notable_rows(rows, range(len(rows)), {i for i, _ in found}, found)
    return outline.plan("other", "headings", text, lines, budget, counter, found,
                        deeper_after_a_miss=True, notable=notable, document=True)
