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
from . import outline

READS_NUMBERED = True  # plans numbered lines (`cat -n`, a Read) itself

_KEY = lazy(r"""(?:[A-Za-z_$][\w.$/-]*|"[^"]+"|'[^']+')[ \t]*:(?:[ \t]|$)""")
_ITEM = lazy(r"-(?:[ \t]|$)")
_OTHER = lazy(r"(?:---|\.\.\.|#)")
_HEADING = lazy(r"#{2,6}[ \t]+\S")  # a YAML comment is `# …`; `## 1.2.0` is Markdown's
_RULED = lazy(r"[ \t]*-{3,}(?:\+-{3,})+[ \t]*$")  # psql's `------+-------`
_MANIFEST = ("apiVersion:", "kind:")
_SHARE = 0.9
_MANIFEST_SHARE = 0.8  # a manifest's lines may sit among a tool's warnings
_MIN_KEYS = 2
_MIN_SIGNS = 2  # headings or ruled lines that say this is no YAML


def looks_like(sample: list[str], tool: Tool) -> bool:
    rows = [row for row in outline.bodies(sample) if row.strip()]
    if not rows or rows[0].startswith("{"):
        return False
    top, yaml_like, headings, ruled = _tally(rows)
    if ruled >= _MIN_SIGNS or headings >= max(_MIN_SIGNS, top):
        return False
    return top >= _MIN_KEYS and yaml_like >= _SHARE * len(rows)


def looks_like_a_manifest(sample: list[str], tool: Tool) -> bool:
    """A Kubernetes (or any `apiVersion:`/`kind:`) document: its top-level keys say so."""
    rows = [row for row in outline.bodies(sample) if row.strip()]
    if not all(any(row.startswith(key) for row in rows) for key in _MANIFEST):
        return False
    _, yaml_like, _, _ = _tally(rows)
    return yaml_like >= _MANIFEST_SHARE * len(rows)


def _tally(rows: list[str]) -> tuple[int, int, int, int]:
    """Top-level keys, YAML-like rows, Markdown headings and ruled table lines."""
    top = yaml_like = headings = ruled = 0
    for row in rows:
        if _RULED.match(row):
            ruled += 1
        elif row[0] in " \t":
            yaml_like += 1  # an indented value; its own form is not judged
        elif _KEY.match(row):
            top += 1
            yaml_like += 1
        elif _ITEM.match(row) or _OTHER.match(row):
            yaml_like += 1
            headings += bool(_HEADING.match(row))
    return top, yaml_like, headings, ruled


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
