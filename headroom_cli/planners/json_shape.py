"""json: a skeleton of the document, spent breadth-first.

The top of the document stays verbatim while it is cheap (that is where "name", "version",
"lockfileVersion" sit): its first HEAD_LINES lines, whole, up to HEAD_MAX_SHARE of the budget,
and never less than HEAD_SHARE. Then the budget goes level by level: every key of a shallow object, with
its value when it is a scalar (long strings cut, with their length); containers collapsed to one
line (`{ "version": "5.3.0", … 11 more keys }`) until there is room to open them; arrays and big
maps as their first and last entries, then as many more as fit, the rest counted on a marker line
naming its line range. Entries named by something already printed (a lockfile's direct
dependencies) come before the others of a big map.

Input laid out on lines is shown as its own lines, indentation and all, so every printed line can
be grepped for, and each marker names the lines it stands for. What does not start a line of its
own (minified input, `ip -j -p`'s `[ {`) is written as the input wrote it, re-indented: an entry
short enough whole (`{"name": "pip", "version": "23.2.1"}`), a longer one as its key and
preview; minified input opens with its own first characters, and its markers name a jq path. JSON Lines, and a stream of
pretty-printed values (`go list -json`), are records: the first and last records, then as many
as fit, and the keys every record has. Records carrying a log level are logs, and left to the
log planner.
"""

from __future__ import annotations

import heapq
import itertools
import json
import re
from json.decoder import scanstring

from ..patterns import lazy
from ..plan import Keep, Lines, Note, Plan
from ..render import counted, json_marker_reserve, json_summary
from ..tokens import Counter
from ..tools import Tool
from .costs import line_limit
from .templates import few_values, severity
from .wellknown import known_rows

_DECODER = json.JSONDecoder()
_WHITESPACE = lazy(r"[ \t\n\r]*")
_TOKEN = lazy(r"""[ \t\n\r]*(?:(?P<punct>[{}\[\]:,])"""
              r"""|(?P<string>"(?:[^"\\\x00-\x1f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*")"""
              r"""|(?P<scalar>-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?(?![\w.])"""
              r"""|(?:true|false|null)(?!\w)))""")
# What a sniff sample may end with when its head was cut inside a token.
_CUT_TOKEN = lazy(r'[ \t\n\r]*(?:"(?:[^"\\\n]|\\.)*\\?|-?[\d.eE+-]*'
                  r"|t(?:r(?:ue?)?)?|f(?:a(?:l(?:se?)?)?)?|n(?:u(?:ll?)?)?)")
_LOG_LEVEL_KEYS = {"level", "severity", "lvl", "loglevel", "log_level", "levelname", "log.level",
                   "@l", "@level"}
# Keys that name the object they sit in: its one-line preview shows them first.
_IDENTITY_KEYS = ("name", "id", "title", "key")
_VERSION_KEY = "version"  # shown beside an entry's name in its one-line preview
_KNOWN_ENTRIES = 12  # of a container, the entries of well-known names offered before the rest
_SNIFF_CHARS = 4096
# Lines before or after the document that are not JSON (`npm warn …` merged from stderr, a
# banner): at most this many on either side, kept as they are.
STRAY_LINES = 3
_SNIFF_RECORDS = 20
# Parsing takes ~0.2 s per MB: beyond this, the plain head/tail clip is the better deal.
MAX_INPUT_CHARS = 16_000_000

LINE_LIMIT = 200  # a longer printed line is cut inside, and says so
SHORTEST_CUT = 80  # of a long line cut shorter to fit what is left of the budget
STRING_PREVIEW = 100  # characters of a cut string that stay
PREVIEW_CHARS = 40  # of a scalar shown inside a collapsed container's line
PREVIEW_LINE = 120  # an entry written on one line in the input up to this long is shown whole
FACTORED_KEYS = 8  # keys named on a container's "every entry has keys" line
HEAD_SHARE = 0.15  # of the budget, for the verbatim top of the document, at least
HEAD_LINES = 20  # the verbatim top holds the input's first lines up to this many,
HEAD_MAX_SHARE = 0.3  # when they cost no more than this share of the budget
HEAD_ITEMS = 3  # items of a long array (LONG_ARRAY or more, not the document) in the verbatim top
LONG_ARRAY = 50
SAVED_SHARE = 0.02  # a minified top saving more than this share of the budget is spent again
MARKER_COST = 16  # one "… N of M keys not shown (lines A–B) …" line, estimated
_NAMED_SCAN_LIMIT = 200_000  # a map bigger than this is not searched for keys named at the top
# An array of objects is searched for its rare field values (_rare_entries) when it holds this
# many entries: a field of a few values (templates.few_values), a value on at most _RARE_ENTRIES.
_MIN_RECORDS, _RECORD_SCAN = 8, 50_000
_RARE_ENTRIES = 0.1


# --------------------------------------------------------------------------- sniffing


def looks_like(sample: list[str], tool: Tool) -> bool:
    """The sample opens with `{`/`[`, its head parses as JSON and its last line closes a value
    (a few stray lines before and after the document aside)."""
    body = _without_strays(sample)
    return body is not None and not _log_records(body)


def _without_strays(sample: list[str]) -> list[str] | None:
    """The sample's lines from the first that opens a JSON value whose head parses, to the last
    that closes one; None when either is more than STRAY_LINES lines in."""
    filled = [i for i, line in enumerate(sample) if line.strip()]
    for first in filled[:STRAY_LINES + 1]:
        if sample[first].lstrip()[:1] not in ("{", "["):
            continue
        head = _sample_head(sample[first:])
        if not _valid_json_prefix(head, cut=len(head) >= _SNIFF_CHARS):
            continue
        for last in reversed(filled[-STRAY_LINES - 1:]):
            if last >= first and sample[last].rstrip().endswith(("}", "]")):
                return sample[first:last + 1]
        return None
    return None


def _sample_head(sample: list[str]) -> str:
    parts, size = [], 0
    for line in sample:
        parts.append(line)
        size += len(line) + 1
        if size >= _SNIFF_CHARS:
            break
    return "\n".join(parts)[:_SNIFF_CHARS]


def _valid_json_prefix(head: str, cut: bool) -> bool:
    """Does `head` read as the start of one or more JSON values? (a token-level grammar check)"""
    stack: list[str] = []
    expect = "value"  # value, value_or_close, key, key_or_close, colon, next
    pos, tokens = 0, 0
    while pos < len(head):
        m = _TOKEN.match(head, pos)
        if not m:
            rest = head[pos:]
            if not rest.strip():
                break
            return cut and _CUT_TOKEN.fullmatch(rest) is not None and tokens >= 1
        pos, tokens = m.end(), tokens + 1
        expect = _advance(stack, expect, m)
        if expect == "error":
            return False
    return tokens >= 2


def _advance(stack: list[str], expect: str, m: re.Match) -> str:
    punct = m["punct"]
    if expect in ("value", "value_or_close"):
        if punct in ("{", "["):
            stack.append(punct)
            return "key_or_close" if punct == "{" else "value_or_close"
        if punct == "]" and expect == "value_or_close":
            stack.pop()
            return "next"
        return "error" if punct else "next"
    if expect in ("key", "key_or_close"):
        if m["string"]:
            return "colon"
        if punct == "}" and expect == "key_or_close":
            stack.pop()
            return "next"
        return "error"
    if expect == "colon":
        return "value" if punct == ":" else "error"
    # expect == "next": after a value
    if not stack:
        return _advance(stack, "value", m)  # another top-level value: JSON Lines
    if punct == ",":
        return "key" if stack[-1] == "{" else "value"
    if punct == {"{": "}", "[": "]"}[stack[-1]]:
        stack.pop()
        return "next"
    return "error"


def _log_records(sample: list[str]) -> bool:
    """JSON Lines whose records carry a log level are logs, not data."""
    records = list(itertools.islice((line for line in sample if line.strip()), _SNIFF_RECORDS))
    if len(records) < 2:
        return False
    for line in records:
        try:
            record = json.loads(line)
        except ValueError:
            return False  # not one value per line: a document
        if isinstance(record, dict) and any(k.lower() in _LOG_LEVEL_KEYS for k in record):
            return True
    return False


# --------------------------------------------------------------------------- parsing


class Node:
    """One value with its place in the text. An opened container knows where each of its entries
    sits (`slots`) but makes a Node only for the entries it considers printing."""

    __slots__ = ("kind", "key", "index", "depth", "parent", "row_start", "start", "end", "count",
                 "value", "preview", "scalar", "length", "rank", "rows", "expanded", "slots",
                 "values", "kids", "shown", "order", "pending")

    def __init__(self, value, key, index, depth, parent, row_start, start, end) -> None:
        self.key, self.index, self.depth, self.parent = key, index, depth, parent
        self.row_start, self.start, self.end = row_start, start, end
        self.rank, self.rows, self.expanded = 3, {}, False
        self.value, self.scalar, self.length, self.preview = None, None, 0, ""
        self.slots = None  # set by Document.open(), with the rest of an opened container's state
        if isinstance(value, dict):
            self.kind, self.count, self.value = "{", len(value), value
            self.preview = _object_preview(value)
        elif isinstance(value, list):
            self.kind, self.count, self.value = "[", len(value), value
            self.preview = _array_preview(value)
        else:
            self.kind, self.count = "scalar", 0
            self.length = len(value) if isinstance(value, str) else 0
            self.scalar = value[:STRING_PREVIEW + 1] if isinstance(value, str) else value

    @property
    def is_container(self) -> bool:
        return self.kind != "scalar"


def _object_preview(value: dict) -> str:
    """`{ "name": "x", "version": "1.2", … 3 more keys }`: the entry's name if it has one, else
    its first scalar; then its version, when it has one (which release a package, a module or
    a dependency is: what a reader of its entry looks up next)."""
    scalars = [(k, v) for k, v in itertools.islice(value.items(), 64)
               if not isinstance(v, (dict, list))]
    first = next((kv for kv in scalars if kv[0].lower() in _IDENTITY_KEYS), None) or next(
        iter(scalars), None)
    if not value:
        return "{}"
    if first is None:
        return f"{{ … {counted(len(value), 'key')} }}"
    shown = [first] + [kv for kv in scalars if kv[0].lower() == _VERSION_KEY and kv != first][:1]
    more = len(value) - len(shown)
    tail = f", … {counted(more, 'more key')} }}" if more else " }"
    return "{ " + ", ".join(f"{_dumps(key)}: {_short(inner)}" for key, inner in shown) + tail


def _array_preview(value: list) -> str:
    if not value:
        return "[]"
    first = value[0]
    shown = _short(first) if not isinstance(first, (dict, list)) else (
        "{…}" if isinstance(first, dict) else "[…]")
    more = len(value) - 1
    tail = f", … {counted(more, 'more item')} ]" if more else " ]"
    return f"[ {shown}{tail}"


def _dumps(value) -> str:
    return json.dumps(value, ensure_ascii=False)


def _short(value) -> str:
    text = _dumps(value)
    if len(text) <= PREVIEW_CHARS:
        return text
    return text[:PREVIEW_CHARS] + ('…"' if isinstance(value, str) else "…")


class Document:
    """The parsed text: the root, and whether its lines can be printed as they are."""

    def __init__(self, text: str, lines: Lines, root: Node, records: bool,
                 before: int = 0, after: int | None = None) -> None:
        self.text, self.lines, self.root, self.records = text, lines, root, records
        self.pretty = records or _pretty(self, root)
        # Stray lines around the document: text[:before] and text[after:], kept as they are.
        self.before, self.after = before, len(text) if after is None else after
        self.line_limit = LINE_LIMIT  # where a long line is cut (_parsed_for: by the budget)

    def open(self, node: Node) -> None:
        """Find where each entry of a container sits (once)."""
        if node.slots is None:
            values = list(node.value.values()) if node.kind == "{" else node.value
            _set_entries(node, _scan_slots(self.text, node), values)

    def child(self, node: Node, index: int) -> Node:
        kid = node.kids.get(index)
        if kid is None:
            row_start, start, end, key = node.slots[index]
            value = node.values[index] if node.values is not None else _scan_value(self.text, start)
            kid = node.kids[index] = Node(value, key, index, node.depth + 1, node, row_start,
                                          start, end)
        return kid


def parse(text: str, lines: Lines) -> Document | None:
    if len(text) > MAX_INPUT_CHARS:
        return None
    start = _WHITESPACE.match(text).end()
    if start < len(text) and text[start] in "{[":
        try:
            value, end = _DECODER.raw_decode(text, start)
        except ValueError:
            value = end = None
        if end is not None and _WHITESPACE.match(text, end).end() == len(text):
            return Document(text, lines, Node(value, None, 0, 0, None, start, start, end), False)
        records = _parse_records(text, lines)
        if records is not None:
            return records
    return _parse_between_strays(text, lines)


def _parse_between_strays(text: str, lines: Lines) -> Document | None:
    """One document with at most STRAY_LINES lines of something else before and after it."""
    filled = (number for number in range(min(len(lines), 4 * STRAY_LINES + 4))
              if lines.get(number).strip())
    for first in itertools.islice(filled, STRAY_LINES + 1):
        start = _WHITESPACE.match(text, lines.start(first)).end()
        if text[start] not in "{[":
            continue
        try:
            value, end = _DECODER.raw_decode(text, start)
        except ValueError:
            continue
        after = lines.line_of(end - 1) + 1
        strays = sum(1 for _ in itertools.islice(
            (n for n in range(after, len(lines)) if lines.get(n).strip()), STRAY_LINES + 1))
        if text[end:lines.start(after)].strip() or strays > STRAY_LINES:
            return None
        return Document(text, lines, Node(value, None, 0, 0, None, start, start, end), False,
                        before=lines.start(first), after=lines.start(after))
    return None


def _pretty(doc: Document, root: Node) -> bool:
    """Printed on lines of its own: the root spans lines. Each entry that starts a line is then
    shown as that line (`ip -j -p`'s `[ {` and `},{` lines too: what starts them is kept as it
    is, what does not is written as the input wrote it)."""
    return bool(root.count) and doc.lines.line_of(root.end - 1) != doc.lines.line_of(root.start)


def _parse_records(text: str, lines: Lines) -> Document | None:
    """JSON Lines, or a stream of pretty-printed values (`go list -json`, `jq` over an array):
    values one after another, each from the start of a line to the end of one, under a root
    that prints nothing itself."""
    slots, values = [], []
    number = 0
    while number < len(lines):
        first, last = lines.start(number), lines.end(number)
        start = _WHITESPACE.match(text, first, last).end()
        if start == last:
            number += 1
            continue
        try:
            value, end = _DECODER.raw_decode(text, start)
        except ValueError:
            return None
        number = lines.line_of(end - 1)
        if text[end:lines.end(number)].strip():
            return None
        slots.append((start, start, end, None))
        values.append(value)
        number += 1
    if len(values) < 2:
        return None
    root = Node(values, None, 0, 0, None, 0, 0, len(text))
    _set_entries(root, slots, values)
    return Document(text, lines, root, records=True)


def _set_entries(node: Node, slots: list, values: list) -> None:
    """An opened container's state: where its entries sit, which are shown, what comes next."""
    node.slots, node.count = slots, len(slots)
    # Duplicate keys collapse in a dict: then each entry's value is decoded on its own.
    node.values = values if len(values) == len(slots) else None
    node.kids, node.shown = {}, set()
    node.order = node.pending = None


def _scan_slots(text: str, node: Node) -> list[tuple[int, int, int, str | None]]:
    """(row start, value start, value end, key) of each entry of a container."""
    slots: list = []
    is_object = node.kind == "{"
    skip, scan = _WHITESPACE.match, _DECODER.scan_once
    pos = skip(text, node.start + 1).end()
    if text[pos] in "}]":
        return slots
    while True:
        row_start, key = pos, None
        if is_object:
            key, pos = scanstring(text, pos + 1)
            pos = skip(text, skip(text, pos).end() + 1).end()  # past the colon
        end = scan(text, pos)[1]
        slots.append((row_start, pos, end, key))
        pos = skip(text, end).end()
        if text[pos] != ",":
            return slots
        pos = skip(text, pos + 1).end()


def _scan_value(text: str, start: int):
    return _DECODER.scan_once(text, start)[0]


def _starts_line(text: str, lines: Lines, pos: int) -> bool:
    line_start = lines.start(lines.line_of(pos))
    return not text[line_start:pos].strip()


def _ends_line(text: str, lines: Lines, pos: int) -> bool:
    """Only an optional comma follows pos on its line."""
    rest = text[pos:lines.end(lines.line_of(pos))].strip()
    return rest in ("", ",")


# --------------------------------------------------------------------------- rows


def expandable(doc: Document, node: Node) -> bool:
    """A container can be opened: it has entries and, when pretty, spans lines of its own."""
    if not node.is_container or not node.count:
        return False
    if not doc.pretty:  # minified: an entry short enough is shown whole, as it is written
        return node.end - node.row_start > PREVIEW_LINE
    return doc.lines.line_of(node.end - 1) > doc.lines.line_of(node.start)


def _verbatim(doc: Document, row_start: int) -> bool:
    return doc.pretty and _starts_line(doc.text, doc.lines, row_start)


def _indent(doc: Document, row_start: int, depth: int) -> str:
    if _verbatim(doc, row_start):
        return doc.text[doc.lines.start(doc.lines.line_of(row_start)):row_start]
    return "  " * (depth - (1 if doc.records else 0))


def _key_part(node: Node) -> str:
    return f"{_dumps(node.key)}: " if node.key is not None else ""


def line_row(doc: Document, node: Node) -> Keep | Note:
    """An entry on one line: a container collapsed to its preview (an empty one written over
    lines, psql's `"Triggers": [` then `],`, by its opening line and its bracket), or a scalar."""
    lines = doc.lines
    if node.is_container and _verbatim(doc, node.row_start) and (
            expandable(doc, node) or lines.line_of(node.end - 1) > lines.line_of(node.start)):
        rest = node.preview[2:] if node.count else node.preview[1:]  # `[ ]` when empty
        return Keep(lines.start(lines.line_of(node.row_start)), _opened_end(doc, node),
                    suffix=" " + rest)
    return _leaf_row(doc, node)


def _opened_end(doc: Document, node: Node) -> int:
    """Where a container's opening line is cut: its end, or just past the bracket when entries
    follow on that line (`"addr_info": [ {`)."""
    if _ends_line(doc.text, doc.lines, node.start + 1):
        return doc.lines.end(doc.lines.line_of(node.start))
    return node.start + 1


def _leaf_row(doc: Document, node: Node) -> Keep | Note:
    """A scalar, or a container written on one line: its own line when it has one, cut if long."""
    text, lines = doc.text, doc.lines
    if _verbatim(doc, node.row_start) and _ends_line(text, lines, node.end) and (
            lines.line_of(node.end - 1) == lines.line_of(node.row_start)):
        line = lines.line_of(node.row_start)
        start, end = lines.start(line), lines.end(line)
        if len(text[start:end].rstrip("\n")) <= doc.line_limit:
            return Keep(start, end)
        if isinstance(node.scalar, str) and node.start - start < doc.line_limit - STRING_PREVIEW:
            return Keep(start, _safe_cut(text, node.start + 1 + STRING_PREVIEW),
                        suffix=f'…" ({node.length:,} chars)')
        return _cut_line(text, start, end, doc.line_limit)
    return Note(_indent(doc, node.row_start, node.depth) + _own_text(doc, node))


def _cut_line(text: str, start: int, end: int, chars: int) -> Keep:
    """The line text[start:end] cut after about `chars` characters, saying how many follow."""
    cut = _safe_cut(text, start + chars)
    return Keep(start, cut, suffix=f" …(+{len(text[cut:end].rstrip()):,} chars)")


def _own_text(doc: Document, node: Node) -> str:
    """An entry as the input wrote it (`"version":"1.0.27"`, `{"name": "pip", "version": "23.2.1"}`),
    so that what a reader greps for is found: a long string cut with its length, a container
    too long for one line as its key and preview."""
    text, row_start, start, end = doc.text, node.row_start, node.start, node.end
    own = text[row_start:end]
    if "\n" in own:  # an entry over lines that does not start one: written afresh
        return _key_part(node) + _value_text(node)
    if len(own) <= PREVIEW_LINE:
        return own
    if node.is_container:
        return text[row_start:start] + _own_preview(text, node)
    if isinstance(node.scalar, str) and node.length > STRING_PREVIEW:
        cut = _safe_cut(text, start + 1 + STRING_PREVIEW)
        return f'{text[row_start:cut]}…" ({node.length:,} chars)'
    return own


def _own_preview(text: str, node: Node) -> str:
    """A container's preview starting with its first entry as the input wrote it
    (`{"version":"1.0.0", … 3 more keys }`) when that entry is a short scalar; else its preview."""
    if not node.count:
        return node.preview
    first = next(iter(node.value.values())) if node.kind == "{" else node.value[0]
    if isinstance(first, (dict, list)):
        return node.preview
    pos = _WHITESPACE.match(text, node.start + 1).end()
    if node.kind == "{":
        pos = _WHITESPACE.match(text, scanstring(text, pos + 1)[1]).end() + 1
        pos = _WHITESPACE.match(text, pos).end()
    end = _DECODER.scan_once(text, pos)[1]
    if end - node.start > PREVIEW_CHARS + 30 or "\n" in text[node.start:end]:
        return node.preview
    noun = "more key" if node.kind == "{" else "more item"
    close = "}" if node.kind == "{" else "]"
    more = f", … {counted(node.count - 1, noun)} {close}" if node.count > 1 else f" {close}"
    return text[node.start:end] + more


def _safe_cut(text: str, pos: int) -> int:
    """Back off so a cut does not split a backslash escape."""
    escape = text.rfind("\\", pos - 6, pos)
    return escape if escape != -1 else pos


def _value_text(node: Node) -> str:
    if node.is_container:
        return node.preview
    value = node.scalar
    if isinstance(value, str) and node.length > STRING_PREVIEW:
        return f'{_dumps(value[:STRING_PREVIEW])[:-1]}…" ({node.length:,} chars)'
    return _dumps(value)


def open_row(doc: Document, node: Node) -> Keep | Note:
    if _verbatim(doc, node.row_start):
        return Keep(doc.lines.start(doc.lines.line_of(node.row_start)), _opened_end(doc, node))
    opening = doc.text[node.row_start:node.start + 1]
    if "\n" in opening:
        opening = _key_part(node) + node.kind
    return Note(_indent(doc, node.row_start, node.depth) + opening)


def close_row(doc: Document, node: Node) -> Keep | Note:
    text, lines = doc.text, doc.lines
    if doc.pretty and _starts_line(text, lines, node.end - 1):
        line = lines.line_of(node.end - 1)
        return Keep(lines.start(line), lines.end(line) if _ends_line(text, lines, node.end)
                    else node.end)
    return Note(_indent(doc, node.row_start, node.depth) + ("}" if node.kind == "{" else "]"))


def factored_row(doc: Document, node: Node) -> Note | None:
    """Keys every entry of a container has, said once instead of in every entry."""
    values = node.values
    if values is None or len(values) < 3 or not all(isinstance(v, dict) for v in values):
        return None
    common = list(values[0])
    for value in values[1:]:
        common = [key for key in common if key in value]
        if len(common) < 2:
            return None  # one shared key says little about a shape
    records = doc.records and node.parent is None
    noun = "records" if records else "values" if node.kind == "{" else "items"
    named = ", ".join(_dumps(key) for key in common[:FACTORED_KEYS])
    more = ", …" if len(common) > FACTORED_KEYS else ""
    indent = "" if records else _indent(doc, node.slots[0][0], node.depth + 1)
    return Note(f"{indent}(all {len(values):,} {noun} have keys {named}{more})")


def hidden_row(doc: Document, parent: Node, first: int, last: int) -> Note:
    """The marker for entries first..last of a container, left out."""
    records = doc.records and parent.parent is None
    noun = "record" if records else "key" if parent.kind == "{" else "item"
    count = f"{last - first + 1:,} of {counted(parent.count, noun)}"
    row_start, end = parent.slots[first][0], parent.slots[last][2]
    if len(doc.lines) > 1:
        first_line, last_line = doc.lines.line_of(row_start) + 1, doc.lines.line_of(end - 1) + 1
        where = (f" (line {first_line:,})" if first_line == last_line
                 else f" (lines {first_line:,}–{last_line:,})")
        what = f"{count} not shown{where}"
    else:
        path = _path(parent)
        what = f"{count} of {path} not shown" if len(path) <= 60 else f"{count} not shown"
    indent = "" if records else _indent(doc, row_start, parent.depth + 1)
    return Note(f"{indent}… {what} …")


_IDENTIFIER = lazy(r"[A-Za-z_][A-Za-z0-9_]*")


def _path(node: Node) -> str:
    """Where a container sits, in jq's syntax: .packages["node_modules/x"].dependencies"""
    parts = []
    while node.parent is not None:
        if node.key is None:
            parts.append(f"[{node.index}]")
        elif _IDENTIFIER.fullmatch(node.key):
            parts.append(f".{node.key}")
        else:
            parts.append(f"[{_dumps(node.key)}]")
        node = node.parent
    return "".join(reversed(parts)) or "."


# --------------------------------------------------------------------------- layout


class Layout:
    """Which entries are shown and which containers opened, bought row by row within budget."""

    def __init__(self, doc: Document, budget: int, counter: Counter) -> None:
        self.doc, self.counter, self.room = doc, counter, budget
        # A line of the verbatim top is shown whole up to about a quarter of the budget.
        self.whole_chars = max(LINE_LIMIT, budget)
        self.heap: list = []
        self.sequence = itertools.count()
        self.names: set[str] = set()

    def cost(self, row: Keep | Note | None) -> int:
        if row is None:
            return 0
        if isinstance(row, Note):
            return self.counter.count(row.text + "\n")
        return self.counter.count(self.doc.text[row.start:row.end].rstrip("\n") + row.suffix + "\n")

    def row(self, node: Node, name: str, make) -> Keep | Note | None:
        if name not in node.rows:
            node.rows[name] = make(self.doc, node)
        return node.rows[name]

    def line_row(self, node: Node) -> Keep | Note:
        return self.row(node, "line", line_row)

    def spend(self, cost: int, limit: int) -> bool:
        if cost > self.room - limit:
            return False
        self.room -= cost
        return True

    def show(self, parent: Node, index: int, limit: int = 0) -> Node | None:
        """Show a left-out entry of an opened container, on one line."""
        kid = self.doc.child(parent, index)
        shown = parent.shown
        left = index > 0 and index - 1 not in shown
        right = index + 1 < parent.count and index + 1 not in shown
        runs = 1 if left and right else -1 if not (left or right) else 0
        if not self.spend(self.cost(self.line_row(kid)) + runs * MARKER_COST, limit):
            shorter = self._shorter(kid.rows["line"], self.room - limit - runs * MARKER_COST)
            if shorter is None or not self.spend(self.cost(shorter) + runs * MARKER_COST, limit):
                return None
            kid.rows["line"] = shorter
        shown.add(index)
        return kid

    def _shorter(self, row: Keep | Note, room: int) -> Keep | None:
        """A long line already cut, cut shorter to cost at most `room` (a JSON Lines record's
        first keys say which request or event it is); None below SHORTEST_CUT characters."""
        if not isinstance(row, Keep) or room <= 0:
            return None
        lines = self.doc.lines
        line = lines.line_of(row.start)
        end = lines.end(line)
        if row.start != lines.start(line) or row.end >= end:
            return None
        chars, cost = row.end - row.start, self.cost(row)
        for _ in range(3):  # tokens per character vary along a line: estimate, count, again
            chars = min(chars - 1, chars * room // max(cost, 1))
            if chars < SHORTEST_CUT:
                return None
            shorter = _cut_line(self.doc.text, row.start, end, chars)
            cost = self.cost(shorter)
            if cost <= room:
                return shorter
        return None

    def expand(self, node: Node, limit: int = 0) -> bool:
        """Open a container: its opening and closing lines, the keys all its entries share, and
        its first and last entries (opened to show less than its one-line preview, it would
        lose)."""
        doc = self.doc
        doc.open(node)
        virtual = node.parent is None and doc.records  # JSON Lines: no brackets of its own
        rows = [self.row(node, "factored", factored_row)]
        if not virtual:
            rows += [self.row(node, "open", open_row), self.row(node, "close", close_row)]
        ends = _ends(doc, node)
        rows += [self.line_row(doc.child(node, index)) for index in ends]
        runs = len(_left_out(node.count, ends))
        on_its_line = node.parent is not None and node.index in node.parent.shown
        before = self.cost(node.rows["line"]) if on_its_line else 0
        if not self.spend(sum(self.cost(r) for r in rows) + runs * MARKER_COST - before, limit):
            return False
        node.expanded = True
        node.shown.update(ends)
        for index in ends:
            node.kids[index].rank = 0 if index == 0 else min(node.kids[index].rank, 1)
        return True

    # ------------------------------------------------------------------ the verbatim top

    def head(self, node: Node, limit: int) -> bool:
        """Show the document from the top, in order, until `limit` is left; False once full.
        A long array shows its first HEAD_ITEMS items, and the top goes on past it."""
        count = node.count
        if node.kind == "[" and node.parent is not None and count >= LONG_ARRAY:
            count = HEAD_ITEMS
        for index in range(count):
            if index not in node.shown:
                self._whole(self.doc.child(node, index))
            kid = node.kids[index] if index in node.shown else self.show(node, index, limit)
            if kid is None:
                return False
            if kid.key:
                self.names.add(kid.key)
            if kid.is_container and not expandable(self.doc, kid):
                self.names.update(itertools.islice(_keys_within(kid.value), 64))  # shown whole
            if expandable(self.doc, kid):
                if not kid.expanded and not self.expand(kid, limit):
                    return False
                if not self.head(kid, limit):
                    return False
        return True

    def _whole(self, node: Node) -> None:
        """A line of the top cut for its length is shown whole when it is not too long: the
        input's first lines are what a reader reads first."""
        if expandable(self.doc, node):
            return
        row = self.line_row(node)
        if isinstance(row, Keep) and row.suffix:
            lines = self.doc.lines
            line = lines.line_of(row.start)
            if row.start == lines.start(line) and lines.end(line) - row.start <= self.whole_chars:
                node.rows["line"] = Keep(row.start, lines.end(line))

    # ------------------------------------------------------------------ breadth-first

    def breadth_first(self) -> None:
        """Spend what is left level by level: at each depth, the first and last entries of every
        opened container, then the rest in turn; a container opens once its own level is done."""
        self._enqueue_tree(self.doc.root)
        while self.heap:
            *_, action, node = heapq.heappop(self.heap)
            if action == "child":
                self._show_next(node)
            elif not node.expanded and self.expand(node):
                for index in sorted(node.shown):
                    self._enqueue_expand(node.kids[index])
                self._enqueue_child(node)

    def edges(self, node: Node) -> None:
        """What breadth_first left, spent on the entries next to those shown, shallowest
        container first: each closes in on a run left out without a marker more (a list's next
        row after the rows shown, where the entries picked by name were scattered)."""
        for container in self._opened(node):
            for first, last in _left_out(container.count, sorted(container.shown)):
                for index in (first, last) if first < last else (first,):
                    if self.show(container, index) is None:
                        break

    def _opened(self, node: Node) -> list[Node]:
        """The opened containers under `node` (and it), shallowest first, in document order."""
        found, level = [], [node]
        while level:
            found += level
            level = [kid for parent in level for index, kid in sorted(parent.kids.items())
                     if kid.expanded and index in parent.shown]
        return found

    def _enqueue_tree(self, node: Node) -> None:
        self._enqueue_child(node)
        for index in sorted(node.shown):
            kid = node.kids[index]
            if kid.expanded:
                self._enqueue_tree(kid)
            else:
                self._enqueue_expand(kid)

    def _enqueue_expand(self, node: Node) -> None:
        # A container whose one-line preview shows all of it gains nothing from opening.
        if expandable(self.doc, node) and "…" in node.preview:
            self._push((node.depth + 1, node.rank, 0, node.row_start), "expand", node)

    def _enqueue_child(self, parent: Node) -> None:
        if parent.order is None:
            parent.order = self._order(parent)
        for index, rank in parent.order:
            if index in parent.shown:
                continue
            parent.pending = index, rank
            # The middle of an array is worth less than the next level down; a map's keys are
            # not. Entries shown so far break ties: sibling containers fill up in turn.
            tier = parent.depth + 1 + (rank == 3 and parent.kind == "[")
            self._push((tier, rank, len(parent.shown), parent.slots[index][0]), "child", parent)
            return

    def _show_next(self, parent: Node) -> None:
        index, rank = parent.pending
        kid = self.show(parent, index)
        if kid is None:
            # A container stops at its first entry from both ends that does not fit: runs stay
            # whole. An entry picked by name is scattered: the next may fit, and the ends'.
            if rank == 2:
                self._enqueue_child(parent)
            return
        kid.rank = rank
        self._enqueue_expand(kid)
        self._enqueue_child(parent)

    def _order(self, parent: Node):
        """(index, rank): first entry, last entry, entries named at the top, of well-known names
        and of rare field values, then the rest from both ends."""
        last = parent.count - 1
        yield 0, 0
        yield last, 1
        named = self._named(parent)
        taken = set(named)
        named += [index for index in self._known(parent) if index not in taken]
        for index in named:
            yield index, 2
        taken.update(named)
        # then the entries of rare field values, first of the middle (after the next level)
        rare = [index for index in _rare_entries(parent) if index not in taken]
        for index in rare:
            yield index, 3
        taken.update(rare)
        for index in _from_both_ends(1, last - 1):
            if index not in taken:
                yield index, 3

    def _named(self, parent: Node) -> list[int]:
        """Entries of a map whose key (or its last path parts) was printed at the top: a
        lockfile's `node_modules/express` for the manifest's `"express": "^5.0.0"`."""
        if not self.names or parent.kind != "{" or parent.count > _NAMED_SCAN_LIMIT:
            return []
        names = self.names
        found = []
        for index in range(1, parent.count - 1):
            key = parent.slots[index][3]
            slash = key.find("/")
            while key not in names and slash != -1:
                key = key[slash + 1:]
                slash = key.find("/")
            if key in names:
                found.append(index)
        return found

    def _known(self, parent: Node) -> list[int]:
        """Entries between the first and the last whose own name is a well-known one
        (wellknown.py): `{"name": "pip", …}` among a hundred packages of `pip list --format
        json`, `"node_modules/typescript"` in a lockfile's map. An entry's name is its key (its
        last path part), or its own name or id (_IDENTITY_KEYS: what its one-line preview
        shows first), or the string it is."""
        values = parent.values
        if parent.count <= 2 or parent.count > _NAMED_SCAN_LIMIT or values is None:
            return []
        rows = [_own_name(values[index]) if (key := parent.slots[index][3]) is None
                else key.rsplit("/", 1)[-1] for index in range(1, parent.count - 1)]
        return [index + 1 for index in known_rows(rows, _KNOWN_ENTRIES)]

    def _push(self, priority: tuple, action: str, node: Node) -> None:
        heapq.heappush(self.heap, (*priority, next(self.sequence), action, node))


def _rare_entries(parent: Node) -> list[int]:
    """Entries between the first and the last of an array of objects holding a rare value of
    a field whose values repeat (a finding's `"code": "UP042"` among 200 `E501`, a pod's
    `"phase": "Failed"`, a package `"requested": true`): the first entry of each such value,
    those whose `"key": value` reads as a failure first (templates.severity: a `"status": 500`
    among request times seen once), then as a warning, each rarest first, at most
    _KNOWN_ENTRIES of them. A field is one most entries have, of a few
    scalar values (at most templates.few_values of them); a value is rare on at most
    _RARE_ENTRIES of the entries and a quarter of its field's commonest value's."""
    values = parent.values
    if parent.kind != "[" or values is None or not _MIN_RECORDS <= parent.count <= _RECORD_SCAN:
        return []
    limit = few_values(parent.count)
    seen: dict[str, dict] = {}  # field -> value -> (entries holding it, the first's index)
    for index, entry in enumerate(values):
        if not isinstance(entry, dict):
            return []
        for key, inner in itertools.islice(entry.items(), 64):
            if isinstance(inner, (str, bool, int, float)) or inner is None:
                held = seen.setdefault(key, {})
                if len(held) <= limit:
                    count, first = held.get(inner, (0, index))
                    held[inner] = count + 1, first
    found = []
    for key, held in seen.items():
        total = sum(count for count, _ in held.values())
        if len(held) < 2 or len(held) > limit or total < 0.8 * parent.count:
            continue
        usual = max(count for count, _ in held.values())
        found += [(-severity(f"{json.dumps(key)}: {json.dumps(value)}"), count * len(held),
                   count, first) for value, (count, first) in held.items()
                  if count <= _RARE_ENTRIES * total and 4 * count <= usual]
    return list(dict.fromkeys(first for *_, first in sorted(found)
                              if 0 < first < parent.count - 1))[:_KNOWN_ENTRIES]


def _own_name(value) -> str:
    """An array entry's own name: the string it is, or its first identity key's string."""
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        return next((inner for key, inner in value.items()
                     if key.lower() in _IDENTITY_KEYS and isinstance(inner, str)), "")
    return ""


def _keys_within(value):
    """The keys of a container and of the containers in it, in order."""
    if isinstance(value, dict):
        for key, inner in value.items():
            yield key
            yield from _keys_within(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _keys_within(inner)


def _ends(doc: Document, node: Node) -> list[int]:
    """What an opened container shows at once: its first and last entries and, between them,
    the entry naming it (what its one-line preview showed first)."""
    indexes = {0, node.count - 1}
    if node.kind == "{":
        for index in range(min(node.count, 64)):
            key = node.slots[index][3]
            if key.lower() in _IDENTITY_KEYS and not doc.child(node, index).is_container:
                indexes.add(index)
                break
    return sorted(indexes)


def _left_out(total: int, shown: list[int]) -> list[tuple[int, int]]:
    """The stretches of entries left out between the sorted shown ones, (first, last) of each
    (from the shown ones: a list of millions is not walked)."""
    edges = [-1, *shown, total]
    return [(before + 1, after - 1) for before, after in itertools.pairwise(edges)
            if after - before > 1]


def _from_both_ends(first: int, last: int):
    """Indexes first..last, two from the front for every one from the back: the end of a list
    (the latest version, the last record) is often what was asked about."""
    front, back, step = first, last, 0
    while front <= back:
        if step % 3 == 2:
            yield back
            back -= 1
        else:
            yield front
            front += 1
        step += 1


# --------------------------------------------------------------------------- planning


def plan(text: str, lines: Lines, budget: int, counter: Counter, tool: Tool) -> Plan | None:
    try:
        doc = _parsed_for(text, lines, budget)
        items = _layout(doc, budget, counter) if doc and doc.root.count else None
    except RecursionError:
        return None  # nested deeper than the stack: the head/tail clip takes it
    if items is None:
        return None
    return Plan("json", tuple(items), len(lines), _omitted_lines(lines, items),
                summary=_summary(doc, lines, items))


def _parsed_for(text: str, lines: Lines, budget: int) -> Document | None:
    """The document, its long lines cut where this budget cuts them (costs.line_limit)."""
    doc = parse(text, lines)
    if doc is not None:
        doc.line_limit = line_limit(budget, LINE_LIMIT)
    return doc


def _layout(doc: Document, budget: int, counter: Counter) -> list | None:
    """The verbatim top first, then breadth-first; the items to print, in document order.
    Minified input's top, written as one line of its own, costs less than the rows it was
    bought as: what that saves is spent on a second layout."""
    marker = json_marker_reserve(counter, len(doc.lines), len(doc.text))
    found = _laid_out(doc, budget, counter, -marker)
    if found is None or found[1] <= budget * SAVED_SHARE:
        return None if found is None else found[0]
    again = _laid_out(_parsed_for(doc.text, doc.lines, budget), budget, counter,
                      found[1] - marker)
    return found[0] if again is None else again[0]


def _laid_out(doc: Document, budget: int, counter: Counter, extra: int):
    """The items and the tokens the minified top saved, laid out on `extra` more room (less
    when negative: the closing marker's reserve)."""
    strays = [Keep(start, end) for start, end in ((0, doc.before), (doc.after, len(doc.text)))
              if end > start]
    room = budget + extra - sum(counter.count(doc.text[k.start:k.end]) for k in strays)
    layout = Layout(doc, room, counter)
    root = doc.root
    if room <= 0 or not layout.expand(root):
        return None
    layout.head(root, max(0, layout.room - _head_tokens(doc, budget, counter)))
    layout.breadth_first()
    layout.edges(root)
    lead = strays[:1] if doc.before else []
    items: list = []
    _emit(layout, root, items)
    saved = 0
    if not doc.pretty:
        items, saved = _as_written_at_top(layout, items)
    return lead + items + strays[len(lead):], saved


_BETWEEN = lazy(r"[ \t\n\r,]*")


def _as_written_at_top(layout: Layout, items: list) -> tuple[list, int]:
    """Minified input: the rows at the top that follow one another in the input become one
    line of it, as it is (`{"packages":[{"name":"semver","version":"1.0.27",…`), so what is
    grepped for across entries is found; the keys-shared notes among them go first. Also the
    tokens this saves."""
    doc = layout.doc
    text, pos = doc.text, doc.root.start
    notes: list = []
    taken = 0
    for item in items:
        if not isinstance(item, Note):
            break
        row = item.text.lstrip()
        if row.startswith("(all "):
            notes.append(item)
            taken += 1
            continue
        at = _BETWEEN.match(text, pos).end() if taken else pos
        if not row or not text.startswith(row, at):
            break
        pos, taken = at + len(row), taken + 1
    if taken - len(notes) < 2:
        return items, 0
    top = Keep(doc.root.start, pos)
    saved = sum(layout.cost(item) for item in items[:taken] if item not in notes)
    return notes + [top] + items[taken:], max(0, saved - layout.cost(top))


def _head_tokens(doc: Document, budget: int, counter: Counter) -> int:
    """The verbatim top's share: HEAD_SHARE of the budget, or the input's first HEAD_LINES
    lines (with room for their markers) when they cost more, up to HEAD_MAX_SHARE."""
    lines, most = doc.lines, int(budget * HEAD_MAX_SHARE)
    last = min(len(lines), lines.line_of(doc.root.start) + HEAD_LINES) - 1
    # Counted on a bounded slice: a minified document is one line, megabytes long.
    top = doc.text[doc.before:min(lines.end(last), doc.before + 16 * most)]
    first_lines = counter.count(top) + 2 * MARKER_COST
    return min(most, max(int(budget * HEAD_SHARE), first_lines))


def _emit(layout: Layout, node: Node, items: list) -> None:
    doc = layout.doc
    if not node.expanded:
        items.append(layout.line_row(node))
        return
    virtual = node.parent is None and doc.records
    shown = sorted(node.shown)
    first = _line_with_bracket(doc, node, shown[0], True) if shown else None
    last = _line_with_bracket(doc, node, shown[-1], False) if shown else None
    if first is None:
        items.extend(row for row in (node.rows.get("open"), node.rows["factored"]) if row)
    else:  # `[{"sha":"029524dbf",…},`: the bracket and the first entry, one line as written
        items.extend(row for row in (first, node.rows["factored"]) if row is not None)
        shown = shown[1:]
    previous = -1 if first is None else 0
    for index in shown:
        if last is not None and index == node.count - 1:
            break
        _emit_hidden(layout, node, previous + 1, index - 1, items)
        _emit(layout, node.kids[index], items)
        previous = index
    _emit_hidden(layout, node, previous + 1, node.count - 1 - (last is not None), items)
    if last is not None:  # `{"sha":"4f8cdc2a1",…}]`
        items.append(last)
    elif not virtual:
        items.append(node.rows["close"])


def _line_with_bracket(doc: Document, node: Node, index: int, opening: bool) -> Keep | None:
    """The input line that holds a pretty container's bracket and its first (or last) entry and
    nothing else (`sqlite3 -json`'s and `mongoexport --jsonArray`'s `[{…},` and `{…}]`), kept as
    written so that it can be grepped for; None when the entry is not one such."""
    if not doc.pretty or node.kids.get(index) is None or node.kids[index].expanded:
        return None
    if opening and index != 0 or not opening and index != node.count - 1:
        return None
    text, lines, kid = doc.text, doc.lines, node.kids[index]
    line = lines.line_of(kid.row_start)
    start, end = lines.start(line), lines.end(line)
    if lines.line_of(kid.end - 1) != line:
        return None
    # (valid JSON: the one bracket before the first entry on its line is the node's own, and
    # so is the one after the last)
    if opening:
        if text[start:kid.row_start].strip() != node.kind or not _ends_line(text, lines, kid.end):
            return None
    elif text[start:kid.row_start].strip() or text[kid.end:end].strip() != (
            "}" if node.kind == "{" else "]"):
        return None
    if len(text[start:end].rstrip("\n")) <= doc.line_limit:
        return Keep(start, end)
    return _cut_line(text, start, end, doc.line_limit)


def _emit_hidden(layout: Layout, parent: Node, first: int, last: int, items: list) -> None:
    """The marker for entries left out; one entry that costs no more than its marker is shown."""
    if first > last:
        return
    marker = hidden_row(layout.doc, parent, first, last)
    if first == last:
        row = layout.line_row(layout.doc.child(parent, first))
        if layout.cost(row) <= layout.cost(marker):
            items.append(row)
            return
    items.append(marker)


def _omitted_lines(lines: Lines, items: list) -> int:
    kept: set[int] = set()
    for item in items:
        if isinstance(item, Keep):
            last = lines.line_of(max(item.start, item.end - 1))
            kept.update(range(lines.line_of(item.start), last + 1))
    return max(1, len(lines) - len(kept))


def _summary(doc: Document, lines: Lines, items: list) -> str:
    omitted = _omitted_lines(lines, items)
    if doc.records:
        form = "JSON Lines" if len(doc.root.slots) == len(lines) else "JSON stream"
    else:
        form = "document" if doc.pretty else "minified"
    return json_summary(form, omitted, len(lines), len(doc.text))
