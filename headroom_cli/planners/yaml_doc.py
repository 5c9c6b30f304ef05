"""yaml: a YAML document (CI workflows, Kubernetes manifests, configs) becomes the head, every
top-level key of the omitted part and the keys one level under them, with their line numbers,
then the tail.

A document is YAML when it has at least two top-level keys and most of its lines are keys,
list items, comments, indented values or `---`; and not when what reads as comments are
Markdown headings (`## 24.1.0` over `- Fix …` items: a changelog) or its lines hold ruled
tables (`----+----`: psql). A Kubernetes manifest (`apiVersion:` and `kind:` at the top
level) is YAML whatever its values hold (a ConfigMap of log files): asked before logs are.
"""

from __future__ import annotations


from ..patterns import lazy
from ..plan import Lines, Plan
from ..tokens import Counter
from ..tools import Tool
from ..values import value
from . import outline

READS_NUMBERED = True  # plans numbered lines (`cat -n`, a Read) itself

_KEY = lazy(r"""(?:[A-Za-z_$][\w.$/-]*|"[^"]+"|'[^']+')[ \t]*:(?:[ \t]|$)""")
_ITEM = lazy(r"-(?:[ \t]|$)")
_OTHER = lazy(r"(?:---|\.\.\.|#)")
_HEADING = lazy(r"#{2,6}[ \t]+\S")  # a YAML comment is `# …`; `## 1.2.0` is Markdown's
_RULED = lazy(r"[ \t]*-{3,}(?:\+-{3,})+[ \t]*$")  # psql's `------+-------`
_BLOCK = lazy(r"[|>][-+]?\d?[ \t]*(?:#.*)?$")  # `run: |`: the indented lines below are text
_MANIFEST = ("apiVersion:", "kind:")
_SHARE = 0.9
_MANIFEST_SHARE = 0.8  # a manifest's lines may sit among a tool's warnings
_MIN_KEYS = 2
_MIN_SIGNS = 2  # headings or ruled lines that say this is no YAML
# Of a document's top-level keys, at most this share may repeat one seen before (invalid YAML):
# more, and the output is stanzas of fields (`apt` history, `dpkg -s` of many packages).
_REPEATED_SHARE = 0.25


def looks_like(sample: list[str], tool: Tool) -> bool:
    rows = [row for row in outline.bodies(sample) if row.strip()]
    if not rows or rows[0].startswith("{"):
        return False
    tally = _tally(rows)
    if tally.ruled >= _MIN_SIGNS or tally.headings >= max(_MIN_SIGNS, tally.top):
        return False
    return (tally.top >= _MIN_KEYS and tally.repeated <= _REPEATED_SHARE * tally.top
            and tally.yaml_like >= _SHARE * len(rows))


def looks_like_a_manifest(sample: list[str], tool: Tool) -> bool:
    """A Kubernetes (or any `apiVersion:`/`kind:`) document: its top-level keys say so."""
    rows = [row for row in outline.bodies(sample) if row.strip()]
    if not all(any(row.startswith(key) for row in rows) for key in _MANIFEST):
        return False
    return _tally(rows).yaml_like >= _MANIFEST_SHARE * len(rows)


@value(frozen=False)
class _Tally:
    top: int = 0  # top-level keys
    repeated: int = 0  # top-level keys already seen in the same document
    yaml_like: int = 0  # rows that read as YAML
    headings: int = 0  # Markdown headings (`## 1.2.0`)
    ruled: int = 0  # ruled table lines (psql's `----+----`)


def _tally(rows: list[str]) -> _Tally:
    """Rows read as YAML: keys, list items, comments, `---` at any depth, whatever lies
    inside a block scalar (`run: |`) and the rows of a key's value wrapped under it (kubectl's
    long `description: '…`). An indented row that is none of these (HCL's
    `+ resource "x" {`, a wrapped paragraph) is not YAML."""
    tally, seen, block, wrapped = _Tally(), set(), None, None
    for row in rows:
        body = row.lstrip(" \t")
        indent = len(row) - len(body)
        if block is not None and indent > block or wrapped is not None and indent > wrapped:
            tally.yaml_like += 1  # a block scalar's text, or a long value wrapped
            continue
        block = wrapped = None
        if _RULED.match(row):
            tally.ruled += 1
        elif key := _KEY.match(body):
            tally.yaml_like += 1
            if not indent:
                tally.top += 1
                name = key[0].rstrip(" \t:")
                tally.repeated += name in seen
                seen.add(name)
            block = indent if _BLOCK.search(body) else None
            wrapped = indent if block is None and body[key.end():].strip() else None
        elif _ITEM.match(body):
            tally.yaml_like += 1
            block = indent if _BLOCK.search(body) else None
        elif _OTHER.match(body):
            tally.yaml_like += 1
            tally.headings += not indent and bool(_HEADING.match(body))
            seen = set() if body.startswith("---") else seen
        elif indent and body[:1] in "\"'[]{}":
            tally.yaml_like += 1  # a flow collection or a quoted scalar, wrapped
    return tally


def headings(rows: list[str]) -> list[tuple[int, int]]:
    """Top-level keys (level 1) and the keys at the first indentation under them (level 2)."""
    found, inner = [], None
    for index, row in enumerate(rows):
        stripped = row.lstrip(" ")
        if not stripped or stripped[0] == "#":
            continue
        indent = len(row) - len(stripped)
        if indent == 0:
            inner = None
            if _KEY.match(row):
                found.append((index, 1))
        elif _KEY.match(stripped):
            if inner is None:
                inner = indent
            if indent == inner:
                found.append((index, 2))
    return found


def plan(text: str, lines: Lines, budget: int, counter: Counter, tool: Tool) -> Plan | None:
    return outline.plan("yaml", "keys", text, lines, budget, counter,
                        headings(outline.bodies(list(lines))))
