"""yaml: a YAML document (CI workflows, Kubernetes manifests, configs) becomes the head, every
top-level key of the omitted part and the keys one level under them, with their line numbers,
then the tail.

A document is YAML when it has at least two top-level keys and most of its lines are keys,
list items, comments, indented values or `---`.
"""

from __future__ import annotations


from ..patterns import lazy
from ..plan import Lines, Plan
from ..tokens import Counter
from ..tools import Tool
from . import outline

_KEY = lazy(r"""(?:[A-Za-z_$][\w.$/-]*|"[^"]+"|'[^']+')[ \t]*:(?:[ \t]|$)""")
_ITEM = lazy(r"-(?:[ \t]|$)")
_OTHER = lazy(r"(?:---|\.\.\.|#)")
_SHARE = 0.9
_MIN_KEYS = 2


def looks_like(sample: list[str], tool: Tool) -> bool:
    rows = [row for row in outline.bodies(sample) if row.strip()]
    if not rows:
        return False
    top = yaml_like = 0
    for row in rows:
        if row[0] in " \t":
            yaml_like += 1  # an indented value; its own form is not judged
        elif _KEY.match(row):
            top += 1
            yaml_like += 1
        elif _ITEM.match(row) or _OTHER.match(row):
            yaml_like += 1
    return top >= _MIN_KEYS and yaml_like >= _SHARE * len(rows) and not rows[0].startswith("{")


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
