"""Which shape is this output? Conservative: a planner that misfires is worse than none.

Each planner module knows its own signs (`looks_like`); this module only decides the order in
which they are asked. A new shape is one new planner file plus its name in defaults.KINDS and
one line in _ASKED.

Precedence follows what a person would call the output: search results, a diff, JSON, a
symbol table or disassembly (`other`: nm's zero-padded addresses are no commit hashes), a
commit history and a delimited table are asked first (each only when the output as a whole is
that); then a failing test run or build is a log even when its tracebacks quote source code, so its
signals are asked before code is; then a configuration file (mostly comments, the rest
settings) and a document that opens like YAML (their structure outweighs the error words of
their prose); then code, then a Markdown document beyond doubt (headings of two
levels: a changelog quotes the errors it fixed), other logs, documents, drawn trees, listings,
and `other` for the rest.

Sniffing compiles only what it needs: a planner module (and its patterns) is imported when its
question is asked, and the shapes with a cheap telltale (a diff's `@@`, JSON's opening bracket,
a table's delimiter in its first row) are asked only when the sample shows it.

A consistent line-number prefix (`cat -n`, `nl`, an agent's Read; numbered.py) is set aside
before any shape is asked; the planners print the lines with their numbers.
"""

from __future__ import annotations

from importlib import import_module

from .defaults import KINDS
from .numbered import prefix_of, stripped, through
from .plan import Lines
from .tools import Tool

# The delimiters listing.py reads tables by, and how many lines JSON may have before its
# document (json_shape.STRAY_LINES; a test holds these to those).
_DELIMITERS = (",", "\t", ";", "|")
_JSON_OPENS_WITHIN = 8
_HEX = frozenset("0123456789abcdef")
_SYMBOLS_WITHIN = 4  # non-blank lines a symbol table or a disassembly shows itself in


def _any_hunk(sample: list[str]) -> bool:
    """A unified hunk's `@@`, a context hunk's stars or `diff -r`'s line (whose hunks may be
    in the normal format: `3c3`)."""
    return any(line.startswith(("@@", "***************", "diff -")) for line in sample)


def _opens_json(sample: list[str]) -> bool:
    filled = (line.lstrip() for line in sample if line.strip())
    return any(_may_open_json(line) for _, line in zip(range(_JSON_OPENS_WITHIN), filled))


def _may_open_json(line: str) -> bool:
    if line[:1] != "[":
        return line[:1] == "{"
    close = line.find("]")  # "[INFO] …", make's "[ 50%] Building …": a word after the bracket
    return close == -1 or not line[close + 1:].lstrip()[:1].isalpha()


def _opens_history(sample: list[str]) -> bool:
    """The first line is a commit: `commit <hash>`, or a hash after --graph's drawing."""
    first = next((line for line in sample if line.strip()), "")
    word = first.lstrip("*|\\/_. -").split(" ", 1)[0]
    return first.startswith("commit ") or (len(word) >= 7 and all(c in _HEX for c in word))


def _opens_a_path_list(sample: list[str]) -> bool:
    """The first line is `du`'s (a size, a tab), `ls -R`'s (a folder's header, `path:`) or may
    be a path's fields (a count, a digest, a mode)."""
    first = next((line for line in sample if line.strip()), "").rstrip("\r")
    return (first.lstrip(" \t")[:1] in _HEX or first[:1] == "-"
            or first.endswith(":") and " " not in first)


def _opens_a_symbol_table(sample: list[str]) -> bool:
    """One of the first lines is nm's (`<address or blanks> T name`), readelf's table header or
    objdump's `file format` line: string tests only (every output passes this gate)."""
    for line in [line for line in sample[:_SYMBOLS_WITHIN * 2] if line.strip()][:_SYMBOLS_WITHIN]:
        if line.startswith(("Symbol table '", "Disassembly of section ")) or "file format " in line:
            return True
        for width in (16, 8):
            address = line[:width]
            if (len(line) > width + 3 and line[width] == " " == line[width + 2]
                    and line[width + 1].isalpha()
                    and (address.isspace() or all(c in _HEX for c in address))):
                return True
    return False


def _mostly_comments(sample: list[str]) -> bool:
    """A third of the lines or more are `#` or `;` comments: a configuration file may be
    (config.looks_like's own first test, made here without importing it)."""
    filled = [line.lstrip() for line in sample if line.strip()]
    return 3 * sum(1 for line in filled if line[:1] in ("#", ";")) >= len(filled) > 0


def _names_an_api_version(sample: list[str]) -> bool:
    return any(line.startswith("apiVersion:") for line in sample)


def _names_a_definition(sample: list[str]) -> bool:
    """A line opens with `CREATE` near its start (past a Read's line number): a SQL script of
    definitions may be (sql.looks_like, asked before code: `CREATE FUNCTION f(x)` reads as a C
    function). A string test only."""
    return any("CREATE " in line[:24].upper() for line in sample)


def _opens_a_document(sample: list[str]) -> bool:
    """The first line is a top-level YAML key, `---` or a `# comment`: a document may follow,
    asked for before a shell output's error words make it a log (ansible-config's settings
    describe their `error:` choices)."""
    first = next((line for line in sample if line.strip()), "")
    return first.startswith(("---", "# ")) or first[:1].isalpha() and ":" in first


def _opens_no_document(sample: list[str]) -> bool:
    """The rest, asked for YAML where they were before (a list at the top level, a quoted key)."""
    return not _opens_a_document(sample)


def _titled_row(sample: list[str]) -> bool:
    first = next((line for line in sample if line.strip()), "").lstrip(" ")
    digits = len(first) - len(first.lstrip("0123456789"))
    if digits and first[digits:digits + 1] in ("\t", "→"):
        first = first[digits + 1:]  # numbered by `cat -n` or an agent's Read
    return (first[:1].isalpha() or first[:1] == '"') and any(d in first for d in _DELIMITERS)


# Each shape's planner module (planners/NAME), where it is not named as the shape.
_MODULES = {"json": "json_shape", "yaml": "yaml_doc", "toml": "toml_doc"}


# (shape, the planner's question, a cheap gate or None), asked in order; the first that
# recognises the output wins. `other` takes the rest.
_ASKED = (
    ("search", "looks_like", None),
    ("diff", "looks_like", _any_hunk),
    ("json", "looks_like", _opens_json),
    ("other", "looks_like_a_symbol_table", _opens_a_symbol_table),
    ("commits", "looks_like", _opens_history),
    ("tree", "looks_like_a_path_list", _opens_a_path_list),
    ("listing", "looks_like_a_delimited_table", _titled_row),
    ("yaml", "looks_like_a_manifest", _names_an_api_version),
    ("log", "looks_like_a_failed_run", None),
    ("other", "looks_like_a_config", _mostly_comments),
    ("yaml", "looks_like", _opens_a_document),
    ("other", "looks_like_a_sql_script", _names_a_definition),
    ("code", "looks_like", None),
    ("markdown", "looks_like_a_document", None),
    ("log", "looks_like", None),
    ("html", "looks_like", None),
    ("toml", "looks_like", None),
    ("yaml", "looks_like", _opens_no_document),
    ("markdown", "looks_like", None),
    ("tree", "looks_like", None),
    ("listing", "looks_like", None),
    ("other", "looks_like", None),
)
# Sniffing looks at a bounded sample: the head and the tail of the output.
_SAMPLE_LINES = 1500


def shape_module(kind: str):
    """The planner module of a shape, imported on first use."""
    return import_module(f"{__package__}.planners.{_MODULES.get(kind, kind)}")


class _Shapes(dict):
    """kind -> planner module, each imported when it is first looked up."""

    def __missing__(self, kind: str):
        if kind not in KINDS:
            raise KeyError(kind)
        module = self[kind] = shape_module(kind)
        return module

    def items(self):
        return [(kind, self[kind]) for kind in KINDS]


SHAPES = _Shapes()


def sample_of(lines: Lines) -> list[str]:
    """What sniffing looks at: the output's first and last _SAMPLE_LINES lines."""
    total = len(lines)
    picked = range(total) if total <= 2 * _SAMPLE_LINES else (
        [*range(_SAMPLE_LINES), *range(total - _SAMPLE_LINES, total)])
    return [lines.get(i) for i in picked]


def sniff(lines: Lines, tool: Tool) -> str:
    sample = sample_of(lines)
    prefix = prefix_of(sample)
    if prefix:  # `cat -n`, `nl`, a Read: the shape is that of the lines numbered
        sample = stripped(sample, prefix)
    for kind, question, gate in _ASKED:
        if (gate is None or gate(sample)) and getattr(SHAPES[kind], question)(sample, tool):
            return kind
    return "other"  # pragma: no cover (other.looks_like takes everything)


def scanner(sample: str, tool: Tool, kind: str, limit: int) -> tuple[str, object | None]:
    """The shape of an output too large to hold, judged on its first part, and the scanner
    that indexes the rest for its planner. A shape with no scanner (or one that does not take
    this output) is planned from its head and tail, as `other`."""
    if "\x00" in sample:  # binary, or NUL-separated fields, which no scanner reads
        return "other", None
    lines = Lines(_first_lines(sample, 2 * _SAMPLE_LINES))
    shape = sniff(lines, tool) if kind == "auto" else kind
    make = getattr(SHAPES[shape], "Scanner", None)
    accepts = getattr(make, "accepts", None)
    if make is None or accepts is not None and not accepts(
            [lines.get(i) for i in range(min(len(lines), _SAMPLE_LINES))]):
        return "other", None
    return shape, make(tool, limit)


def _first_lines(text: str, count: int) -> str:
    end = -1
    for _ in range(count):
        end = text.find("\n", end + 1)
        if end == -1:
            return text
    return text[:end + 1]


def planner(kind: str, lines: Lines | None = None):
    """A shape's plan function; for numbered `lines` (cat -n, a Read), one that plans them
    without their numbers (numbered.through) unless the shape's planner reads them itself."""
    module = SHAPES[kind]
    if lines is not None and not getattr(module, "READS_NUMBERED", False) and (
            prefix := prefix_of(sample_of(lines))):
        return through(module.plan, prefix)
    return module.plan
