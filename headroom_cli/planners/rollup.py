"""Rolling paths up under their folders until a map fits: shared by the search, diff and
listing planners, so no part of a tree silently vanishes when not every file can be named."""

from __future__ import annotations

import re
from typing import Callable

Label = Callable[[str, list[int]], str]  # (file path or "dir/" or "" for all, member indexes)


# Folder levels told apart; deeper parts stay one name. Every level's folder name is a new
# string, so unbounded depth would make a single pathological path quadratic.
_MAX_DEPTH = 32


def split(path: str) -> list[str]:
    return [part for part in re.split(r"[\\/]", path, maxsplit=_MAX_DEPTH) if part]


def roll_up(paths: list[str], label: Label, cost: Callable[[str], int],
            room: int, rest: Label | None = None) -> list[tuple[str, list[int]]]:
    """Entries (label, member indexes into paths) ordered as the paths are, whose labels cost
    at most `room` when possible. The deepest folders roll up first (the fullest first within
    a depth), so the top of the tree stays readable longest. With `rest` (the label of what
    remains of a folder, "dir/ (150 more files)"), budget left over names the first members
    of the biggest folders one by one."""
    groups: dict[str, list[int]] = {}
    for index, path in enumerate(paths):
        groups.setdefault(path, []).append(index)
    text = {key: label(key, members) for key, members in groups.items()}
    used = sum(cost(entry) for entry in text.values())
    while used > room:
        folders = _deepest_folders(groups)
        if not folders:
            break
        for folder, keys in folders:
            if folder in groups:  # a path spelled like the folder itself ("dir/") joins it
                keys = [*keys, folder]
            merged = sorted(i for key in keys for i in groups.pop(key))
            used -= sum(cost(text.pop(key)) for key in keys)
            groups[folder] = merged
            text[folder] = label(folder, merged)
            used += cost(text[folder])
            if used <= room:
                break
    entries = [(text[key], groups[key]) for key in groups]
    if rest is not None:
        entries = _spend_leftover(entries, groups, paths, label, rest, cost, room - used)
    return sorted(entries, key=lambda entry: entry[1][0])


def _spend_leftover(entries, groups, paths, label, rest, cost, leftover):
    """Name the first members of the biggest folders individually while the budget lasts."""
    folders = sorted((key for key in groups if len(groups[key]) > 1),
                     key=lambda key: (-len(groups[key]), groups[key][0]))
    result = [entry for entry in entries if len(entry[1]) == 1]
    for folder in folders:
        members = groups[folder]
        named, spent = [], 0
        current = cost(label(folder, members))
        while len(named) + 1 < len(members):
            candidate = members[len(named)]
            single = cost(label(paths[candidate], [candidate]))
            remainder = cost(rest(folder, members[len(named) + 1:]))
            step = spent + single + remainder - current
            if step > leftover:
                break
            named.append(candidate)
            spent += single
            current = remainder
        leftover -= spent + (current - cost(label(folder, members)) if named else 0)
        result += [(label(paths[i], [i]), [i]) for i in named]
        remaining = members[len(named):]
        result.append((rest(folder, remaining) if named else label(folder, members), remaining))
    return result


def _deepest_folders(groups: dict[str, list[int]]) -> list[tuple[str, list[str]]]:
    """The folders at the deepest level that hold two or more entries, fullest first, each with
    the entries it would absorb; the root ("") when no folder does."""
    under: dict[str, list[str]] = {}
    for key in groups:
        parts = split(key)
        root = "/" if key[:1] in "/\\" else ""  # an absolute path's folders stay absolute
        for level in range(1, len(parts)):  # the key's ancestors, never the key itself
            under.setdefault(root + "/".join(parts[:level]) + "/", []).append(key)
    full = {folder: keys for folder, keys in under.items() if len(keys) >= 2}
    if not full:
        return [("", list(groups))] if len(groups) >= 2 else []
    deepest = max(folder.count("/") for folder in full)
    level = [(folder, keys) for folder, keys in full.items() if folder.count("/") == deepest]
    return sorted(level, key=lambda item: (-len(item[1]), item[0]))
