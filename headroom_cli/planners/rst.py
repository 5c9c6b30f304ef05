"""rst: a reStructuredText document (a Sphinx page, a changelog kept as `.. changelog::`
directives) becomes the head, an outline of the omitted part, then the tail (outline.py).

Its headings are titles adorned by a line of punctuation under them (and maybe over them), the
levels in the order their adornments first appear. Much of such a document is directives
(`.. changelog::` holding `.. change::` entries): a directive at the margin is named by its
first field (`:version: 2.0.36`), a nested one by the first line of its prose (the change's
summary: "Fixed regression …"), one level deeper for each level of nesting. A reference's
definition lists (a setting's ``name`` over its indented definition) are entries too, each
level of nesting one deeper. The prose lines
that name an error, a breaking change, a deprecation or a security fix follow when there is
room.
"""

from __future__ import annotations

from ..patterns import lazy
from ..plan import Lines, Plan
from ..tokens import Counter
from ..tools import Tool
from . import outline

READS_NUMBERED = True  # plans numbered lines (`cat -n`, a Read) itself

_DIRECTIVE = lazy(r"(?P<indent>[ ]*)\.\. [\w:-]+::")
_FIELD = lazy(r"[ ]*:[\w-]+:")
_ADORNMENT = lazy(r"([=\-~^\"'`#*+.:_])\1{2,}\s*$")
_MIN_DIRECTIVES = 3
# A list's item (its wrapped lines are indented under it too): a bullet, a number, a line block.
_ITEM = lazy(r"(?:[-*+•|]|\(?(?:\d+|[a-zA-Z#])[.)])(?:\s|$)")


def looks_like(sample: list[str], tool: Tool) -> bool:
    rows = outline.bodies(sample)
    return sum(1 for row in rows if _DIRECTIVE.match(row)) >= _MIN_DIRECTIVES


def entries(rows: list[str]) -> list[tuple[int, int]]:
    """(line, level) of every section title, then of every directive's name line."""
    styles: list[str] = []
    titles: list[tuple[int, str]] = []
    for index in range(1, len(rows)):
        row, title = rows[index], rows[index - 1]
        if (_ADORNMENT.match(row) and title.strip() and not _ADORNMENT.match(title)
                and len(row.rstrip()) >= len(title.rstrip())):
            over = index >= 2 and rows[index - 2].rstrip() == row.rstrip()
            style = ("over" if over else "") + row[0]
            if style not in styles:
                styles.append(style)
            titles.append((index - 1, style))
    found = [(index, styles.index(style)) for index, style in titles]
    directives = [(index, len(m["indent"])) for index, row in enumerate(rows)
                  if (m := _DIRECTIVE.match(row))]
    depths = sorted({indent for _, indent in directives})
    for index, indent in directives:
        depth = depths.index(indent)
        named = _name_line(rows, index, first_field=depth == 0)
        if named is not None:
            found.append((named, len(styles) + depth))
    named = {index for index, _ in found} | {index - 1 for index, _ in titles}
    terms = [(index, indent) for index, indent in _terms(rows) if index not in named]
    ranks = {indent: rank for rank, indent in enumerate(sorted({i for _, i in terms}))}
    found += [(index, len(styles) + ranks[indent]) for index, indent in terms]
    return sorted(found)


def _terms(rows: list[str]):
    """(line, indent) of every definition list's term (a setting, a field, a macro: ``name``
    over its definition, indented on the very next line), at the margin or nested."""
    for index in range(1, len(rows) - 1):
        row, below = rows[index], rows[index + 1]
        if (row.strip() and not rows[index - 1].strip() and below.strip()
                and not _DIRECTIVE.match(row) and not _FIELD.match(row)
                and not _ADORNMENT.match(row) and not _ADORNMENT.match(below)
                and not row.rstrip().endswith("::")):
            indent = len(row) - len(row.lstrip(" "))
            if len(below) - len(below.lstrip(" ")) > indent and not _ITEM.match(row, indent):
                yield index, indent


def _name_line(rows: list[str], index: int, first_field: bool) -> int | None:
    """A directive's first field (at the margin) or the first line of its prose (nested)."""
    indent = len(rows[index]) - len(rows[index].lstrip())
    for below in range(index + 1, min(index + 12, len(rows))):
        row = rows[below]
        if not row.strip():
            continue
        if len(row) - len(row.lstrip()) <= indent or _DIRECTIVE.match(row):
            return None  # the directive ended
        if _FIELD.match(row):
            if first_field:
                return below
            continue
        return below
    return None


def plan(text: str, lines: Lines, budget: int, counter: Counter, tool: Tool) -> Plan | None:
    rows = outline.bodies(list(lines))
    found = entries(rows)
    prose = (i for i, row in enumerate(rows) if not _FIELD.match(row))
    notable = outline.notable_rows(rows, prose, {i for i, _ in found}, found)
    return outline.plan("other", "titles and entries", text, lines, budget, counter, found,
                        deeper_after_a_miss=True, notable=notable, document=True)
