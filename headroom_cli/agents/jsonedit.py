"""Editing a JSON (or JSONC) settings file as text: only the bytes of what changes are touched.

An agent's settings file is the user's: its indentation, key order, blank lines and (in Gemini
CLI's JSONC) comments must survive `headroom init`. So edits are splices into the text:
parse() finds where every value starts and ends; append() adds an element to an array (making
the objects and the array on the way when missing) and remove_element()/remove_member() take
one out again. An insertion follows the layout around it (the container's indentation, or
one line when the container is on one line), and removing it again gives back the original
bytes: append then remove is the identity.

Paths are tuples of object keys (str) and array indexes (int).
"""

from __future__ import annotations

import json
import re

from ..patterns import lazy
from ..values import value

Path = tuple  # of str (an object's key) and int (an array's index)

_SPACE = lazy(r"(?:\s+|//[^\n]*|/\*.*?\*/)*", re.S)
_SCALAR = lazy(r"-?[0-9][0-9eE.+-]*|-?[0-9]|true|false|null")
_STRING = lazy(r'"(?:[^"\\\x00-\x1f]|\\.)*"', re.S)
MAX_DEPTH = 200


@value
class Node:
    start: int  # the value's first character
    end: int  # just after its last
    kind: str  # "object", "array" or "scalar"
    keys: tuple[str, ...] = ()  # an object's keys, in order
    items: tuple["Node", ...] = ()  # an object's values or an array's elements
    key_starts: tuple[int, ...] = ()  # where each of an object's keys starts


def parse(text: str) -> Node:
    """The top-level value's layout; ValueError when `text` is not JSON (comments allowed)."""
    node, index = _value(text, _skip(text, 0), 0)
    if _skip(text, index) != len(text):
        raise ValueError(f"unexpected text at offset {index}")
    return node


def _skip(text: str, index: int) -> int:
    return _SPACE.match(text, index).end()


def _value(text: str, index: int, depth: int) -> tuple[Node, int]:
    if depth > MAX_DEPTH:
        raise ValueError("nested too deeply")
    char = text[index:index + 1]
    if char == "{":
        return _container(text, index, depth, "object", "}")
    if char == "[":
        return _container(text, index, depth, "array", "]")
    found = (_STRING if char == '"' else _SCALAR).match(text, index)
    if not found:
        raise ValueError(f"unexpected text at offset {index}")
    return Node(index, found.end(), "scalar"), found.end()


def _container(text: str, start: int, depth: int, kind: str, close: str) -> tuple[Node, int]:
    keys, items, key_starts = [], [], []
    index = _skip(text, start + 1)
    if text[index:index + 1] == close:
        return Node(start, index + 1, kind), index + 1
    while True:
        if kind == "object":
            found = _STRING.match(text, index)
            if not found:
                raise ValueError(f"expected a key at offset {index}")
            key_starts.append(index)
            keys.append(json.loads(found.group()))
            index = _skip(text, found.end())
            if text[index:index + 1] != ":":
                raise ValueError(f"expected ':' at offset {index}")
            index = _skip(text, index + 1)
        item, index = _value(text, index, depth + 1)
        items.append(item)
        index = _skip(text, index)
        char = text[index:index + 1]
        if char == close:
            return Node(start, index + 1, kind, tuple(keys), tuple(items),
                        tuple(key_starts)), index + 1
        if char != ",":
            raise ValueError(f"expected ',' or '{close}' at offset {index}")
        index = _skip(text, index + 1)


def find(root: Node, path: Path) -> Node | None:
    node = root
    for step in path:
        if isinstance(step, str):
            if node.kind != "object" or step not in node.keys:
                return None
            node = node.items[node.keys.index(step)]
        else:
            if node.kind != "array" or not 0 <= step < len(node.items):
                return None
            node = node.items[step]
    return node


# --- inserting ------------------------------------------------------------------------------

def append(text: str, path: Path, value: object) -> str:
    """`text` with `value` appended to the array at `path` (object keys only), making the
    missing objects and the array on the way. ValueError when something on the way is not
    an object, or the end is not an array."""
    root = parse(text)
    node, depth = root, 0
    for depth, key in enumerate(path):
        if node.kind != "object":
            raise ValueError(f"{'.'.join(path[:depth]) or 'the file'} is not a JSON object")
        if key not in node.keys:
            rest: object = [value]
            for outer in reversed(path[depth + 1:]):
                rest = {outer: rest}
            return _insert(text, root, node, json.dumps(key), rest)
        node = node.items[node.keys.index(key)]
    if node.kind != "array":
        raise ValueError(f"{'.'.join(path)} is not a JSON array")
    return _insert(text, root, node, None, value)


def set_value(text: str, path: Path, value: object) -> str:
    """`text` with the value at `path` replaced by `value` (laid out on one line when the old
    one was, else indented like it), or added as the last member of the object holding it.
    ValueError when that object is missing or not an object."""
    root = parse(text)
    node = find(root, path)
    if node is None:
        parent = find(root, path[:-1])
        if parent is None or parent.kind != "object" or not isinstance(path[-1], str):
            raise ValueError(f"{'.'.join(map(str, path[:-1])) or 'the file'} is not an object")
        return _insert(text, root, parent, json.dumps(path[-1]), value)
    if "\n" not in text[node.start:node.end]:
        rendered = json.dumps(value, ensure_ascii=False)
    else:
        newline = "\r\n" if "\r\n" in text else "\n"
        rendered = _render(None, value, _line_indent(text, node.start), indent_unit(text, root),
                           newline)
    return text[:node.start] + rendered + text[node.end:]


def _insert(text: str, root: Node, container: Node, key: str | None, value: object) -> str:
    unit = indent_unit(text, root)
    newline = "\r\n" if "\r\n" in text else "\n"
    if container.items and "\n" not in text[container.start:container.end]:
        rendered = json.dumps(value, ensure_ascii=False)
        entry = f"{key}: {rendered}" if key else rendered
        at = container.items[-1].end
        return f"{text[:at]}, {entry}{text[at:]}"
    if container.items:
        last = container.items[-1]
        first_start = container.key_starts[-1] if key else last.start
        indent = _line_indent(text, first_start)
        entry = _render(key, value, indent, unit, newline)
        comma_at, at = last.end, _end_of_line(text, last.end)
        return f"{text[:comma_at]},{text[comma_at:at]}{newline}{indent}{entry}{text[at:]}"
    outer = _line_indent(text, container.start)
    if "\n" not in text[root.start:root.end] and root.items:
        entry = _render(key, value, "", None, newline)
        return f"{text[:container.start + 1]}{entry}{text[container.end - 1:]}"
    entry = _render(key, value, outer + unit, unit, newline)
    inside = text[container.start + 1:container.end - 1].strip(" \t\r\n")
    return (f"{text[:container.start + 1]}{newline}{outer + unit}{entry}{newline}{outer}"
            f"{inside}{text[container.end - 1:]}")


def _render(key: str | None, value: object, indent: str, unit: str | None,
            newline: str) -> str:
    rendered = json.dumps(value, ensure_ascii=False, indent=unit)
    if unit is not None:
        rendered = rendered.replace("\n", newline + indent)
    return f"{key}: {rendered}" if key else rendered


def indent_unit(text: str, root: Node) -> str:
    """One level of the file's indentation: its first member's, else two spaces."""
    if root.items:
        first = root.key_starts[0] if root.kind == "object" else root.items[0].start
        line = _line_indent(text, first)
        outer = _line_indent(text, root.start)
        if line.startswith(outer) and len(line) > len(outer) and _starts_line(text, first):
            return line[len(outer):]
    return "  "


def _line_indent(text: str, index: int) -> str:
    start = text.rfind("\n", 0, index) + 1
    return re.match(r"[ \t]*", text[start:index]).group()


def _starts_line(text: str, index: int) -> bool:
    start = text.rfind("\n", 0, index) + 1
    return not text[start:index].strip(" \t")


def _end_of_line(text: str, index: int) -> int:
    """Where a new line may go after the value ending at `index`: after the comments that
    close its line (so they stay with it), else right after it."""
    found = re.compile(r"[ \t]*(?:(?://[^\n]*)|/\*[^\n]*?\*/[ \t]*)*(?=\r?\n)").match(text, index)
    return found.end() if found else index


# --- removing -------------------------------------------------------------------------------

def remove_element(text: str, path: Path, index: int) -> str:
    """`text` without the element `index` of the array at `path` (and its comma)."""
    root = parse(text)
    container = find(root, path)
    return _remove(text, container, index, with_key=False)


def remove_member(text: str, path: Path, key: str) -> str:
    """`text` without the member `key` of the object at `path` (and its comma)."""
    root = parse(text)
    container = find(root, path)
    return _remove(text, container, container.keys.index(key), with_key=True)


def _remove(text: str, container: Node, index: int, with_key: bool) -> str:
    items = container.items
    starts = container.key_starts if with_key else tuple(item.start for item in items)
    start, end = starts[index], items[index].end
    if index > 0:
        # From the comma after the previous value, and from the end of its line (keeping the
        # comments there) to the end of the removed one: what _insert added, exactly.
        comma = _skip(text, items[index - 1].end)
        line_start = text.rfind("\n", comma, start)
        if line_start > comma and text[line_start - 1] == "\r":
            line_start -= 1
        cut_from = line_start if line_start > comma else comma + 1
        return text[:comma] + text[comma + 1:cut_from] + text[end:]
    if len(items) > 1:
        return text[:start] + text[starts[1]:]
    return text[:container.start + 1] + text[container.end - 1:]
