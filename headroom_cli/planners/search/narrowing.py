"""Narrower searches that would fit: what a clipped search's closing marker suggests, with
figures computed from the output itself — how many matches and lines the narrowed search would
print, and about how many tokens — so the agent's next call is small. Deterministic: the
same output and budget give the same suggestion."""

from __future__ import annotations


from ...plan import Narrowing
from ...values import replace
from ..costs import LineCosts
from .signals import FileHits, folder_key

_SAMPLE = 200  # printed lines counted exactly to price a line
_EXACT_LIST = 2000  # files whose paths are counted one by one for the file list's cost


def narrowing(files: list[FileHits], costs: LineCosts, budget: int,
              file_list: bool) -> Narrowing | None:
    """The heaviest folder or file whose search would fit `budget` (its matches and their
    context lines, priced at the output's mean line), the file list (`-l`) when it would fit,
    and fewer context lines when the output has them (the widest that would fit, else none
    at all); None when there is nothing to suggest."""
    per_line = _per_line(files, costs, file_list)
    where = _where(files, per_line, budget, file_list)
    fields = {}
    if where is not None:
        key, matches, count, tokens = where
        fields.update(where=key, where_matches=0 if file_list else matches, where_files=count,
                      where_tokens=tokens)
    if not file_list:
        fewer = _fewer_context(files, per_line, budget)
        if fewer is not None:
            fields.update(context=fewer[0], context_lines=fewer[1], context_tokens=fewer[2])
        listed = _file_list(files, costs)
        count = sum(f.files for f in files)
        if count > 1 and listed <= budget:
            fields.update(list_files=count, list_tokens=listed)
    return Narrowing(**fields) if fields else None


def _per_line(files: list[FileHits], costs: LineCosts, file_list: bool) -> float:
    """What a printed line costs on average (a path, in a file list), on a sample."""
    sample: list[int] = []
    for hits in files:
        if file_list:
            sample += [hits.heading] if hits.heading is not None else []
        else:
            sample += hits.matches[:2] + hits.context[:1]
        if len(sample) >= _SAMPLE:
            break
    if not sample:
        return 1.0
    return sum(costs.line(i) for i in sample) / len(sample)


def _lines(hits: FileHits) -> int:
    """Lines a search of this file alone would print: its matches, their context lines (in
    the same proportion when only some of its matches are held), a heading."""
    if hits.folder or not hits.matches:
        return hits.count + (1 if hits.heading is not None else 0)
    context = len(hits.context) * hits.count / len(hits.matches)
    return round(hits.count + context) + (1 if hits.heading is not None else 0)


def _where(files: list[FileHits], per_line: float, budget: int,
           file_list: bool) -> tuple[str, int, int, int] | None:
    """(folder or file, matches, files, tokens) of the heaviest that would fit."""
    tally: dict[str, list[int]] = {}  # key: [matches, files, lines]
    # A folder's figures are its files' summed first, then added up its chain once (thousands
    # of files, a few hundred folders).
    in_folder: dict[str, list[int]] = {}
    for hits in files:
        weight = hits.files if file_list else hits.count
        lines = hits.files if file_list else _lines(hits)
        if hits.folder:
            folder = hits.path
        else:
            folder = folder_key(hits.path)
            entry = tally.setdefault(hits.path, [0, 0, 0])
            entry[0] += weight
            entry[1] += hits.files
            entry[2] += lines
        summed = in_folder.setdefault(folder, [0, 0, 0])
        summed[0] += weight
        summed[1] += hits.files
        summed[2] += lines
    for folder, (weight, count, lines) in in_folder.items():
        for key in _folders(folder):
            entry = tally.setdefault(key, [0, 0, 0])
            entry[0] += weight
            entry[1] += count
            entry[2] += lines
    whole = sum(f.files for f in files)
    best = None
    most = 0  # the best one's matches: one with fewer is not it
    for key, (matches, count, lines) in tally.items():
        if matches < most:
            continue
        tokens = round(lines * per_line)
        if tokens > budget or count == whole:
            continue  # too big, or everything (a folder all the files are in)
        rank = (-matches, tokens, key)
        if best is None or rank < best[0]:
            best = (rank, (key, matches, count, tokens))
            most = matches
    return best[1] if best else None


def _folders(folder: str) -> list[str]:
    """The folder and each folder above it, nearest first (none for the top)."""
    chain = []
    while folder not in ("./", "/", ""):
        chain.append(folder)
        folder = folder_key(folder.rstrip("/\\"))
    return chain


def _fewer_context(files: list[FileHits], per_line: float,
                   budget: int) -> tuple[int, int, int] | None:
    """(context width, lines, tokens) of the widest narrower context that would fit, else of
    no context at all."""
    distance: dict[int, int] = {}
    matches = 0
    for hits in files:
        matches += hits.count
        if not hits.context:
            continue
        near = set(hits.context)
        for index in hits.matches:
            for step in (-1, 1):
                row, d = index + step, 1
                while row in near:
                    if distance.get(row, d + 1) > d:
                        distance[row] = d
                    row, d = row + step, d + 1
    if not distance:
        return None
    widths = sorted(distance.values())
    for width in range(widths[-1] - 1, -1, -1):
        shown = sum(1 for d in widths if d <= width)
        tokens = round((matches + shown) * per_line)
        if tokens <= budget or width == 0:  # none fits: no context at all, with its figures
            return width, matches + shown, tokens
    return None


def _file_list(files: list[FileHits], costs: LineCosts) -> int:
    real = [f for f in files if not f.folder]
    counted = real[:_EXACT_LIST]
    tokens = sum(costs.note(f.path) for f in counted)
    rest = sum(f.files for f in files) - len(counted)
    if rest > 0 and counted:
        tokens += round(rest * tokens / len(counted))
    return tokens


def moot(narrower: Narrowing | None, every_file_named: bool,
         every_match_shown: bool) -> Narrowing | None:
    """The narrowing without what the plan already shows: the file list when every file is
    named with its count, fewer context lines when every match is shown."""
    if narrower is None:
        return None
    if every_file_named:
        narrower = replace(narrower, list_files=0, list_tokens=0)
    if every_match_shown:
        narrower = replace(narrower, context=-1, context_lines=0, context_tokens=0)
    if not (narrower.where or narrower.list_files or narrower.context >= 0):
        return None
    return narrower
