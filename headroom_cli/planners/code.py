"""code: a source file becomes an outline — the head, every top-level and class-level definition
with its line number, then the tail — so an agent can page in exactly the function it needs.

Works on plain source and on numbered listings (`cat -n`, an agent's Read: `   12→code`).
Detected from content, never from the tool name alone.
"""

from __future__ import annotations

import re

from collections import Counter as Tally

from ..patterns import lazy
from . import outline
from ..plan import Lines, Plan
from ..tokens import Counter
from ..tools import Tool
from .costs import JUDGED_CHARS

READS_NUMBERED = True  # plans numbered lines (`cat -n`, a Read) itself

_DEFINITION = lazy(
    r"""(?x) \s*+
    (?:@?(?:export\s+)?(?:default\s+)?(?:pub(?:\([^)]*\))?\s+)?(?:unsafe\s+)?(?:async\s+)?
       (?:def|class|function\*?|func|fn|struct|enum|trait|impl|interface|module|mod|namespace
         |union|protocol|extension|object|macro_rules!)\s+[\w$<]
    | func\s+\([^)]*\)\s*\w                       # a Go method: func (r *T) Name(
    | (?:export\s+)?(?:const|let|var)\s+[\w$]+\s*=\s*(?:async\s*)?(?:function\b|\([^)]*\)\s*=>|[\w$]+\s*=>)
    | (?:export\s+)?type\s+\w+(?:<[^>]*>)?\s*=
    | type\s+\w+\s+(?:struct|interface)\b
    | (?:(?:public|private|protected|internal|static|final|abstract|override|synchronized
         |virtual|inline|extern|const|unsigned|signed)\s+)+[\w<>\[\],.?*&:\s]*?\w+\s*\([^;]*$
    | (?:function\s+)?[A-Za-z_][\w-]*\s*\(\)\s*\{?\s*$
    | [\w$.]+\s*=\s*function\b
    )
    """
)
# A C/C++ function definition starts in column 0: `static int main(int argc, char **argv) {`.
_C_FUNCTION = lazy(r"[A-Za-z_][\w:<>,*&]*(?:\s+[\w:<>,*&]+)*[\s*&]+~?[A-Za-z_][\w:]*"
                   r"\s*\([^;.]*\)\s*(?:const\s*)?\{?\s*$")
# A C/C++ prototype in column 0, a header's API: `int deflate(z_streamp strm, int flush);`,
# its return type wrapped in an export macro too (`CJSON_PUBLIC(cJSON *) cJSON_Parse(…);`).
_C_PROTOTYPE = lazy(r"(?:[A-Z_][A-Z0-9_]*\([^()]*\)\s*|[A-Za-z_][\w:<>,*&]*(?:\s+[\w:<>,*&]+)*"
                    r"[\s*&]+)~?[A-Za-z_]\w*\s*\([^;]*\)\s*(?:const\s*)?;\s*$")
# A line at the margin that sets the module's version (`#define CJSON_VERSION_MAJOR 1`,
# `__version__ = "2.3.1"`, `VERSION = (2, 3)`): listed with the containers.
VERSION_MACRO = r"#\s*define\s+\w*VERSION\w*\s+\S"  # a C macro naming a version (diff.py too)
_VERSION_SET = lazy(rf"(?:{VERSION_MACRO}|(?:__version__|VERSION|version)\s*[:=]\s*[\"'\d(\[])")
# A name the module sets at the margin (`identifier_re = re.compile(…)`, `__all__ = [...]`,
# `const DEFAULTS = {`, Go's `var ErrClosed = …`): listed after every function and class.
_CONSTANT = lazy(r"(?:(?:export\s+)?(?:const|let|var)\s+)?[A-Za-z_$][\w$]*\s*(?::\s*[^=\n]+)?"
                 r"=(?!=)\s*\S")
_CONSTANT_RANK = 3
_NOT_DEFINITION = lazy(r"\s*+(?:if|for|while|switch|catch|return|else|do|try|with|elif|"
                       r"sizeof|new|throw|case|await|yield)\b")
_CONTAINER = lazy(r"\s*+(?:export\s+)?(?:default\s+)?(?:pub(?:\([^)]*\))?\s+)?"
                  r"(?:abstract\s+|public\s+|final\s+)*(?:class|impl|trait|interface|"
                  r"module|namespace|struct|object)\b")
_CODE_LINE = lazy(
    r"""(?x)
      .*[{};]\s*$ | .*\)\s*:\s*$ | .*\b(?:else|try|finally)\s*:\s*$
    | \s*(?:import|from|\#include|\#define|package|use|return|const|let|var|if|for|while|else|elif
         |try|except|catch|finally|switch|case|break|continue|pass|yield|await|async|public
         |private|protected|static|def|class|function|func|fn|end)\b
    | \s*(?:\#|//|/\*|\*|--|@\w|["']{3}|raise\b|assert\b|del\b|self\b|lambda\b)
    | \s*[\w.\[\]'"]+\s*(?:[-+*/%|&^]|<<|>>|//)?=\s*\S   # an assignment
    | \s*[\w.]+\(.*\)\s*$                                # a call statement
    | .*[,(\[\\]\s*$                                     # a continued statement
    | \s*[})\]]++[,;)]*+\s*$
    """
)
_LOG_RECORD = lazy(r"\s*+(?:\[?\d{4}-\d\d-\d\d|\[?(?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE)\b)")
# A test runner's report quotes source in its tracebacks, but never holds its section rules.
_RUNNER_SECTION = lazy(r"=+ (?:FAILURES|ERRORS) =+$")
MIN_DEFINITIONS = 3
MIN_CODE_SHARE = 0.6
_HEAD_SHARE = 0.2  # a source file's head (imports, module docs) is worth more than a document's


def looks_like(sample: list[str], tool: Tool) -> bool:
    numbered = outline.numbered(sample)
    rows = [outline.body(row, numbered) for row in sample]
    non_empty = [row for row in rows if row.strip()]
    if len(non_empty) < 20 or any(_RUNNER_SECTION.match(row) for row in non_empty):
        return False
    if sum(1 for row in non_empty if row.startswith("```")) >= 2:
        return False  # a document that quotes code in fenced blocks (Markdown)
    # The cheapest test first: a log (the common large output) fails it, and is spared
    # compiling and matching the code patterns on every line.
    if sum(1 for row in non_empty if _LOG_RECORD.match(row)) >= 0.1 * len(non_empty):
        return False
    # Each distinct row is asked once (a flood of one compiler warning is one row), and the
    # definitions first: most outputs have too few, and are spared the per-row code test.
    definitions = sum(copies for row, copies in Tally(non_empty).items() if _is_definition(row))
    if definitions < MIN_DEFINITIONS:
        return False
    prose = _inside_docstrings(non_empty)  # a module's documentation is judged as neither
    code = sum(1 for i, row in enumerate(non_empty) if i not in prose and
               _CODE_LINE.match(row[:JUDGED_CHARS]))
    return code >= MIN_CODE_SHARE * (len(non_empty) - len(prose))


def _inside_docstrings(rows: list[str]) -> set[int]:
    """Indexes of the lines between a triple quote that opens a string and the one closing it,
    and of those inside a C block comment (zlib.h documents each function in one)."""
    inside, opened, commented = set(), False, False
    for index, row in enumerate(rows):
        quotes = row.count('"""') + row.count("'''")
        if opened and not quotes or commented and "*/" not in row:
            inside.add(index)
        if quotes % 2:
            opened = not opened
        if commented:
            commented = "*/" not in row
        elif "/*" in row:
            commented = "*/" not in row[row.rindex("/*"):]
    return inside


def _is_definition(body: str) -> bool:
    body = body[:JUDGED_CHARS]
    # The C patterns need a "(": on prose (most lines of most outputs) their nested repeats
    # would try every split of the words before failing, ~10 µs a line; and only a prototype
    # ends with `;`, so one of the two is tried.
    c_form = _C_PROTOTYPE if body.rstrip().endswith(";") else _C_FUNCTION
    return bool(_DEFINITION.match(body) or "(" in body and c_form.match(body)) \
        and not _NOT_DEFINITION.match(body)


def _indent(body: str) -> int:
    return len(body.expandtabs(4)) - len(body.expandtabs(4).lstrip())


def plan(text: str, lines: Lines, budget: int, counter: Counter, tool: Tool) -> Plan | None:
    """The head, an outline of the definitions in the omitted lines (containers, then public
    names, then private ones, each tier spread over the file), the tail: outline.py's plan."""
    rows = list(lines)
    is_numbered = outline.numbered(rows[:2000])
    bodies = [outline.body(row, is_numbered) for row in rows]
    prose = _inside_docstrings(bodies)
    found = _outline(bodies, prose)
    if not found:
        return None
    versions = [i for i, body in enumerate(bodies) if _VERSION_SET.match(body)]
    constants = [i for i, body in enumerate(bodies) if i not in prose and _CONSTANT.match(body)]
    ranked = sorted({**dict.fromkeys(constants, _CONSTANT_RANK),
                     **{i: _rank(bodies[i]) for i in found}, **dict.fromkeys(versions, 0)}.items())
    return outline.plan("code", "definitions", text, lines, budget, counter,
                        ranked, head_share=_HEAD_SHARE,
                        deeper_after_a_miss=True)


def _outline(bodies: list[str], prose: set[int]) -> list[int]:
    """Definitions at the top level, or one level inside a container; none inside a docstring
    or a block comment (`prose`: an example, or prose that reads like one: `function must be
    …(`)."""
    found = [i for i, body in enumerate(bodies) if i not in prose and _is_definition(body)]
    if not found:
        return []
    levels = sorted({_indent(bodies[i]) for i in found})
    top = levels[0]
    inner = next((level for level in levels if level > top), None)
    has_container = any(_CONTAINER.match(bodies[i]) for i in found if _indent(bodies[i]) == top)
    deepest = inner if inner is not None and (has_container or len(levels) > 1
                                              and _share(found, bodies, top) < 0.2) else top
    return [i for i in found if _indent(bodies[i]) <= deepest]


def _share(found: list[int], bodies: list[str], level: int) -> float:
    return sum(1 for i in found if _indent(bodies[i]) == level) / len(found)


def _rank(body: str) -> int:
    if _CONTAINER.match(body):
        return 0
    name = re.search(r"[\w$]+(?=\s*(?:\(|=|<|:|\{|$))", body.strip())
    return 2 if name and name.group().startswith("_") else 1
