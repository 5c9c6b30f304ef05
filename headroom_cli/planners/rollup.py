"""Rolling paths up under their folders until a map fits: shared by the search, diff and
listing planners, so no part of a tree silently vanishes when not every file can be named."""

from __future__ import annotations

import re
from typing import Callable

Label = Callable[[str, list[int]], str]  # (file path or "dir/" or "" for all, member indexes)


# Folder levels told apart; deeper parts stay one name. Every level's folder name is a new
# string, so unbounded depth would make a single pathological path quadratic.
_MAX_DEPTH = 32
_RECOUNT = 5000  # entries recounted exactly after an estimated roll-up, at most


def split(path: str) -> list[str]:
    parts = path.split("/", _MAX_DEPTH) if "\\" not in path else re.split(
        r"[\\/]", path, maxsplit=_MAX_DEPTH)
    return [part for part in parts if part]


def roll_up(paths: list[str], label: Label, cost: Callable[[str], int],
            room: int, rest: Label | None = None,
            weights: list[int] | None = None,
            exact: Callable[[str], int] | None = None) -> list[tuple[str, list[int]]]:
    """Entries (label, member indexes into paths) ordered as the paths are, whose labels cost
    at most `room` when possible. The deepest folders roll up first (the fullest first within
    a depth), so the top of the tree stays readable longest. With `weights` (a path's weight:
    its matches), the lightest folders roll up first instead — those whose paths weigh least
    on average, the bigger first among equals — so the heaviest stay open. With `rest` (the
    label of what remains of a folder, "dir/ (150 more files)"), budget left over names the
    first members (the heaviest, with weights) of the biggest folders one by one. `exact`:
    the true cost, when `cost` is an estimate (thousands of paths), for the entries that are
    left and the members then named."""
    groups: dict[str, list[int]] = {}
    for index, path in enumerate(paths):
        groups.setdefault(path, []).append(index)
    text = {key: label(key, members) for key, members in groups.items()}
    used = sum(cost(entry) for entry in text.values())
    if weights is not None and used > room:
        groups, text, used = _fold_by_weight(groups, text, used, weights, label, cost, room)
    if exact is not None and len(groups) <= _RECOUNT:  # what an estimate left unspent
        cost = exact
        used = sum(cost(entry) for entry in text.values())
    while used > room and weights is None:
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
        entries = _spend_leftover(entries, groups, paths, label, rest, cost, room - used,
                                  weights)
    return sorted(entries, key=lambda entry: entry[1][0])


def _fold_by_weight(groups, text, used, weights, label, cost, room):
    """Roll up the folders lightest first (average weight of their paths; among equals the
    one with more paths, then the deeper; the root last) until the labels fit: (groups, text, used) after
    it."""
    keys = list(groups)
    ancestors = _ancestors(keys)  # a key's folders, nearest first
    # Keys of one folder share its chain: their figures go up it once (a few hundred folders
    # for thousands of files).
    sharing: dict[int, tuple[list[str], list[str]]] = {}  # id of a chain: it, its keys
    for key in keys:
        chain = ancestors[key]
        sharing.setdefault(id(chain), (chain, []))[1].append(key)
    members: dict[str, list[int]] = {}
    depth: dict[str, int] = {}
    entries: dict[str, int] = {}  # entries under a folder, as they stand
    under: dict[str, int] = {}  # what those entries' labels cost
    parent = {}
    for chain, inside in sharing.values():
        found = [i for key in inside for i in groups[key]]
        price = sum(cost(text[key]) for key in inside)
        for level, folder in enumerate(chain):
            members.setdefault(folder, []).extend(found)
            depth[folder] = len(chain) - 1 - level
            entries[folder] = entries.get(folder, 0) + len(inside)
            under[folder] = under.get(folder, 0) + price
        for near, far in zip(chain, chain[1:]):
            parent[near] = far
    order = sorted(members, key=lambda folder: (
        folder == "",  # everything under one entry: the last resort
        sum(map(weights.__getitem__, members[folder])) / len(members[folder]),
        -len(members[folder]), -depth[folder], min(members[folder])))
    folded: set[str] = set()
    for folder in order:
        if used <= room:
            break
        if entries[folder] < 2:
            continue
        above, inside = parent.get(folder), False
        while above is not None:
            if above in folded:
                inside = True
                break
            above = parent.get(above)
        if inside:
            continue
        merged = sorted(members[folder])
        text[folder] = label(folder, merged)
        price = cost(text[folder])
        delta, gone = price - under[folder], entries[folder] - 1
        folded.add(folder)
        entries[folder], under[folder] = 1, price
        used += delta
        above = parent.get(folder)
        while above is not None:
            entries[above] -= gone
            under[above] += delta
            above = parent.get(above)
    tops = {}  # id of a chain: its outermost folder rolled up, if any
    for chain, _ in sharing.values():
        tops[id(chain)] = next((folder for folder in reversed(chain) if folder in folded), None)
    result: dict[str, list[int]] = {}
    for key in keys:
        home = tops[id(ancestors[key])]
        result.setdefault(key if home is None else home, []).extend(groups[key])
    return ({key: sorted(found) for key, found in result.items()},
            {key: text[key] for key in result}, used)


def _ancestors(keys: list[str]) -> dict[str, list[str]]:
    """Each key's folders, nearest first, then "" (everything). A key spelled as a folder
    ("dir/": files counted by folder) is in that folder. Keys of one folder (spelled the same
    up to their last "/") share one list, worked out once."""
    known: dict[str, list[str]] = {}
    out = {}
    for key in keys:
        if "\\" in key or key.count("/") >= _MAX_DEPTH:  # split() alone reads it right
            out[key] = _chain(key)
            continue
        home = key[:key.rfind("/") + 1]
        chain = known.get(home)
        if chain is None:
            chain = known[home] = _chain(home)
        out[key] = chain
    return out


def _chain(key: str) -> list[str]:
    parts = split(key)
    root = "/" if key[:1] in "/\\" else ""
    top = len(parts) if key[-1:] in ("/", "\\") else len(parts) - 1
    return [root + "/".join(parts[:level]) + "/" for level in range(top, 0, -1)] + [""]


def _spend_leftover(entries, groups, paths, label, rest, cost, leftover, weights=None):
    """Name the first members (with weights, the heaviest) of the biggest folders individually
    while the budget lasts."""
    def size(key):
        return sum(map(weights.__getitem__, groups[key])) if weights is not None \
            else len(groups[key])

    folders = sorted((key for key in groups if len(groups[key]) > 1),
                     key=lambda key: (-size(key), groups[key][0]))
    result = [entry for entry in entries if len(entry[1]) == 1]
    for folder in folders:
        members = groups[folder]
        if weights is not None:
            members = sorted(members, key=lambda i: (-weights[i], i))
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
