"""The streaming Scanner: exact per-file match counts and the first and best matches of an
output too large to hold (see intake.py)."""

from __future__ import annotations

import re
from collections import Counter as Tally
from functools import partial
from itertools import compress, islice, repeat
from operator import itemgetter

from ...patterns import lazy
from ...tools import Tool
from ..costs import MAX_LINE_CHARS
from .planning import plan
from .signals import context_path, CONTEXT_SEP, folder_key, is_path, parse, RAISES, REVISION

SCAN_MATCHES = 8  # of each file: its first matches, and at most as many definition sites
SCAN_STRAYS = 50  # lines that are not matches (rg's own errors), the first ones
# Files known one by one (exact count, first matches): the first FILE_CAP, fewer once `limit`
# characters are picked and FILE_CAP * _NAMING_CHARS more have named files since. Past them a
# file keeps no line and no entry of its own: it is counted into its folder's figures, FOLDER_CAP
# folders at most; then into the nearest folder already counted above it, else its top-level
# folder (FOLDER_CAP more of those), else "./". Memory is bounded whatever the input.
FILE_CAP = 10_000
FOLDER_CAP = 2_000
_NAMING_CHARS = 512
_GIANT_LINE = 1 << 20  # longer lines arrive in parts (intake.py): never a match, never kept
_OPEN_HOLD = MAX_LINE_CHARS  # of a line a part leaves open, what is held until the next part

# Whole-text twins of _MATCH, DEFINITION and the stray test, for a part given a leading "\n":
# every line is "\n" + row, and nothing crosses a newline. `[^:\n]++(?<!\s)` is _MATCH's path:
# everything up to the first colon (after a tree and a drive), not ending in a space.
_PATH = rf"{REVISION}(?:[A-Za-z]:[\\/])?[^:\n]++(?<!\s)"
_NUMBERS = r":\d+:(?:\d+:)?+"  # line and column: the matched text follows
_SP = r"[^\S\n]"
_KEYWORDS = "def|class|function|func|fn|interface|struct|enum|trait|impl|module|macro|sub|type"
# DEFINITION, matching the same rows, reordered and made possessive for speed (the cheap
# assignment test first; the keyword forms only after a keyword), and kept on one line.
_KEYWORD_DEF = (
    rf"(?=(?:export|default|pub|async|static|{_KEYWORDS})\b)(?:export{_SP}+)?(?:default{_SP}+)?"
    rf"(?:pub(?:\([^)\n]*\))?{_SP}+)?(?:async{_SP}+)?(?:static{_SP}+)?(?:{_KEYWORDS}){_SP}+\S")
_DEF_LINE = (
    rf"[\w$.\[\]'\"]++{_SP}*+=(?!=)"
    rf"|(?:export{_SP}++)?(?:pub(?:\([^)\n]*\))?{_SP}++)?(?:const|let|var|static){_SP}++"
    rf"[\w$]++[^=\n]*+="
    rf"|{_KEYWORD_DEF}")
_TOP_DEF = rf"(?=[\w$.\[\]'\"])(?:{_DEF_LINE})"  # every definition starts so: a cheap test first
# _priority's first two ranks: a top-level definition (rank 0), and inside one NESTED_SITE's
# lines (rank 1: a method by its keyword, a line that raises), after their indent.
_NESTED = rf"(?:{_KEYWORD_DEF}|{RAISES})"
_SITE = rf"(?:{_TOP_DEF}|{_SP}++{_NESTED})"
_DEFS = lazy(rf"\n{_PATH}{_NUMBERS}({_SP}*+)(?:(?<=:){_TOP_DEF}|(?<!:){_NESTED})")  # 1: indent
_TOPS = lazy(rf"\n{_PATH}{_NUMBERS}{_TOP_DEF}")  # rank 0 only
# A part read a run at a time: a run is one file's consecutive match lines, and one match of
# _RUNS is a run and the other lines before it (or the lines after the last run).
_RUNS = lazy(
    rf"((?:\n(?!{_PATH}:\d+:)[^\n]*+)*+)"  # 1: lines that are not matches
    rf"(?:(\n({_PATH}):\d+:[^\n]*+(?:\n\3:\d+:[^\n]*+){{0,{SCAN_MATCHES - 1}}}+)"  # 2: first
    rf"((?:\n\3{_NUMBERS}(?!{_SITE})[^\n]*+)*+)"  # 4: then, no site of rank 0 or 1
    rf"((?:\n\3{_NUMBERS}(?!{_TOP_DEF})[^\n]*+)*+)"  # 5: then, no top-level definition
    rf"((?:\n\3:\d+:[^\n]*+)*+)"  # 6: the rest of the run
    rf"|\Z)")
# One file's match lines from a given one (read, not tested) to before the next definition it
# still wants (any; top-level), as one call: a backreference is far cheaper than _PATH a line.
_UNTIL_DEF = lazy(
    rf"\n({_PATH}):\d+:[^\n]*+(?:\n\1{_NUMBERS}(?!{_SITE})[^\n]*+)*+")
_UNTIL_TOP = lazy(rf"\n({_PATH}):\d+:[^\n]*+(?:\n\1{_NUMBERS}(?!{_TOP_DEF})[^\n]*+)*+")
_FIRST = [None] + [re.compile(rf"\n({_PATH}):\d+:[^\n]*+(?:\n\1:\d+:[^\n]*+){{0,{n - 1}}}+")
                   for n in range(1, SCAN_MATCHES + 1)]  # the first n lines of a run
# Sure to pass is_path (a slash, no space or colon, a letter in the name): no call needed.
_PLAIN_PATH = lazy(r"[\w.~+@-][\w.~+@/-]*/[\w.~+@-]*[A-Za-z][\w.~+@-]*")
_ROW = lazy(rf"\n({_PATH}):\d+:")
# Neither blank, `--`, match-shaped nor possibly a context line: a stray whatever comes later.
_STRAY = lazy(rf"\n(?!{_SP}*$)(?!--$)(?!{_PATH}:\d+:)(?![^\n]*?-\d+-)", re.M)
_CONTEXT_LIKE = lazy(rf"\n(?!{_PATH}:\d+:)([^\n]*?)-\d+-")  # group 1: the path, if known
# A part's lines, for _fold_part: a run of one file's plain match lines a match, with group 1
# its path, 2 that path's folder key (up to its last "/"), 3 the run's lines after its first
# (each with the "\n" before it; "" for a run of one line); any other line a match of its own,
# with every group "". The path is _PLAIN_PATH's (or that with a leading "/") in ASCII (a
# bitmap test a character): _scan takes it for a path too (_PLAIN_PATH, is_path), and _PATH
# reads it whole. A part holding any other line (a tree's, a drive's, a non-ASCII path, a
# context line) is read run by run (the same figures, more slowly). The leading "\n" lets the
# engine jump from line to line in C, a run's next lines cost a comparison with its path (a
# backreference), the folders are read one at a time, never backtracked into, and the run
# itself is not captured (a copy of the part).
_W = "[A-Za-z0-9_.~+@-]"
_FOLD_RUN = lazy(rf"\n(?:((/?{_W}++/(?:{_W}*+/)*+)[0-9_.~+@-]*+[A-Za-z]{_W}*+):\d++:[^\n]*+"
                 rf"((?:\n\1:\d++:[^\n]*+)*+)|[^\n]*+)")
_PATH_OF, _KEY, _REST = itemgetter(0), itemgetter(1), itemgetter(2)  # _FOLD_RUN's groups
_FAST_WAIT = 8


class _Kept:
    """What the scanner keeps of one file. Picks are [offset, line, text] (line filled in once
    its part is read); `first` holds blocks of the file's first lines, whole."""

    __slots__ = ("first", "have", "classified", "top", "nested", "n0", "n1", "first_nested")

    def __init__(self, first: list[list], have: int) -> None:
        self.first = first
        self.have = have  # match lines in `first`
        self.classified = 0  # blocks of `first` whose definition sites are counted below
        self.top: list[list] = []  # top-level definition sites after them (rank 0)
        self.nested: list[list] = []  # nested ones (rank 1), while fewer than K are known
        self.n0 = self.n1 = 0  # definition sites seen, by rank, as far as they still matter
        self.first_nested = 0  # of n1, those in `first`


class Scanner:
    """Streaming index of grep/rg `path:NN:text` output (vimgrep columns, context lines, `--`
    separators, Windows paths), for an output too large to hold.

    Fed the cleaned text in order, in parts, it counts every file's match lines exactly and
    keeps whole lines: each file's first SCAN_MATCHES matches, its best definition sites (as
    _priority ranks them: up to SCAN_MATCHES more) and the first SCAN_STRAYS stray lines.
    planner() plans the excerpt made of those lines with the exact counts.

    Memory is bounded whatever the input: past FILE_CAP files (fewer once `limit` characters
    are held) a file keeps no line and no entry; its matches and the file are counted into its
    folder's figures (see FILE_CAP, folders). Parts of such files' plain match lines only are
    counted in bulk (_fold_part), at C speed.

    A part is read a run (one file's consecutive matches) per regex match, so grep's and rg's
    grouped output costs a few microseconds a file and nothing a line; interleaved files cost
    that a run. `rg --heading` groups and file lists are not understood (see accepts): their
    lines are strays, or nothing.
    """

    def __init__(self, tool: Tool, limit: int) -> None:
        self.tool, self.limit = tool, limit  # limit: characters of picked lines held at most
        self._counts: dict[str, int] = {}  # match lines per file, in order of appearance
        self._files: dict[str, _Kept | list] = {}  # a list: that file's one pick
        self._held = 0
        self._strays: list[list] = []
        self._maybe: list[list] = []  # strays unless a file named in them matches later
        self._open: tuple[int, int, str, int] | None = None  # a line the last part left open
        self._done = False
        self._file_cap, self._folder_cap = FILE_CAP, FOLDER_CAP
        self._named_until = limit + FILE_CAP * _NAMING_CHARS  # held chars: files named past limit
        self._folders: dict[str, list[int]] = {}  # folder key: [matches, files], of files past cap
        self._last: tuple[str, list[int]] | None = None  # the last folded file, its folder's entry
        self._last_folder: tuple[str, list[int]] = ("", [0, 0])  # a folder key, its entry
        # Folded files' paths seen in the last part read, and the last one before it: their
        # context lines are not strays (a context line sits next to its file's matches, and a
        # file's lines are together: those after a part's start are the previous file's).
        self._recent: set[str] = set()
        self._fast_wait = 0  # parts to read run by run before _fold_part is tried again
        # The kept files' paths as a frozenset (tested against a part's thousands of paths at
        # twice the speed of the dict's keys), for as many as _counts holds: it only grows.
        self._kept: frozenset[str] = frozenset()

    @property
    def counts(self) -> dict[str, int]:
        """Every kept file's match lines in the whole output, in order of appearance (once the
        stream has ended: reading it ends the stream). Every file, up to FILE_CAP; the rest
        are counted in folders."""
        self._finish()
        return self._counts

    @property
    def folders(self) -> list[tuple[str, int, int]]:
        """(folder key, matches, files) of the files past the cap, counted by folder, in order
        of appearance (once the stream has ended). A key ends with "/"; "./" holds files with
        no folder (and, past every cap, the rest). Files are counted as runs of one path's
        lines (grep and rg print a file's lines together): an input that interleaves files
        could count a folded file more than once."""
        self._finish()
        return [(key, matches, files) for key, (matches, files) in self._folders.items()]

    @property
    def totals(self) -> tuple[int, int]:
        """Match lines and files in the whole output (files: see folders)."""
        folders = self.folders
        return (sum(self._counts.values()) + sum(m for _, m, _ in folders),
                len(self._counts) + sum(f for _, _, f in folders))

    @staticmethod
    def accepts(sample: list[str]) -> bool:
        """Flat `path:NN:` output only: not `rg --heading` groups, not a list of files."""
        parsed = parse(sample)
        return not parsed.file_list and all(f.heading is None for f in parsed.files.values())

    def feed(self, text: str, offset: int, line: int) -> int:
        """The next part: whole lines, except that a part may end inside a line (the last one
        or a giant one), which the next part, if any, continues. Returns the part's newlines:
        the scan counts its lines, so the intake need not count them again."""
        if self._done:
            raise ValueError("the scanner's stream has ended (picks, planner or counts read)")
        if not text:
            return 0
        start, first = 0, line
        if self._open is not None:  # a next part: the open line is a giant one
            nl = text.find("\n")
            if nl == -1:
                first_offset, first_line, head, _ = self._open
                self._open = (first_offset, first_line, head, _GIANT_LINE + 1)
                return 0
            self._open = None
            start, line = nl + 1, line + 1
        end = text.rfind("\n") + 1
        if end > start:
            p = text[start - 1:end] if start else "\n" + text[:end]
            line += self._scan(p, offset + start, line, len(p))
        if end < len(text):
            self._open = (offset + end, line, text[end:end + _OPEN_HOLD], len(text) - end)
        return line - first

    def picks(self) -> list[tuple[int, int, str]]:
        """The lines kept, as (offset, line, text with its newline), by offset. A pick may hold
        several consecutive lines."""
        self._finish()
        k = SCAN_MATCHES
        out: list[list] = []
        for kept in self._files.values():
            if type(kept) is list:  # a file whose first lines were all its matches
                out.append(kept)
                continue
            out += kept.first
            if kept.top or kept.nested:
                out += kept.top
                nested = k - min(k, kept.n0) - kept.first_nested  # wanted after the top ones
                if nested > 0:
                    out += kept.nested[:nested]
        out += self._strays
        out.sort(key=lambda pick: pick[0])
        return [(offset, line, text) for offset, line, text in out]

    def planner(self, tail_origin: int | None = None):
        """search.plan with the whole output's match counts, for the excerpt of the picks (its
        counts are the whole output's whatever the excerpt's tail holds: `tail_origin` unused)."""
        self._finish()
        return partial(plan, counts=dict(self._counts), folders=self.folders)

    # ---- reading

    def _finish(self) -> None:
        if self._done:
            return
        self._done = True
        if self._open is not None:  # the last line, with no newline
            offset, line, head, length = self._open
            self._open = None
            if length <= _OPEN_HOLD:
                self._scan("\n" + head + "\n", offset, line, len(head) + 1)
            elif length <= _GIANT_LINE:  # counted; not held, so not kept (the tail has it)
                m = _ROW.match("\n" + head)
                if m is not None and is_path(m[1]):
                    if m[1] in self._counts or not self._past_cap():
                        self._counts[m[1]] = self._counts.get(m[1], 0) + 1
                    else:
                        self._fold(m[1], 1)
        maybe = [pick for pick in self._maybe if not self._context(pick[2].rstrip("\n"))]
        self._strays = sorted(self._strays + maybe, key=lambda pick: pick[0])[:SCAN_STRAYS]
        self._maybe = []

    def _scan(self, p: str, base: int, line0: int, cut: int) -> int:
        """p: "\\n" + whole lines (the first at offset base, line line0), each ending in "\\n";
        p[:cut] is the real text (cut < len(p) when the last newline was added). Returns the
        number of lines."""
        past_cap = self._past_cap()
        if past_cap and cut == len(p):
            if self._fast_wait:
                self._fast_wait -= 1
            else:
                lines = self._fold_part(p)
                if lines is not None:
                    return lines
                self._fast_wait = _FAST_WAIT
        k = SCAN_MATCHES
        files, counts = self._files, self._counts
        file_cap, named_until = self._file_cap, self._named_until
        last_path, last_entry = self._last or ("", None)
        folded = [last_path]  # for self._recent
        folders = self._folders
        last_key, key_entry = self._last_folder
        fresh: list[list] = []  # the picks of this part, their line numbers still to come
        odd: list[tuple[int, int]] = []  # runs of match-shaped lines whose path is no path
        matched = 0
        gaps: list[str] = []  # the lines other than matches
        at = 0
        for gap, first, path, plain, nested, rest in _RUNS.findall(p, 0, len(p) - 1):
            if gap:
                gaps.append(gap)
                at += len(gap)
            if not path:
                break
            q = at
            block_end = q + len(first)
            at = block_end + len(plain) + len(nested) + len(rest)
            n = first.count("\n")
            if at != block_end:
                n += plain.count("\n") + nested.count("\n") + rest.count("\n")
            kept = files.get(path)
            if kept is None and (past_cap or len(counts) >= file_cap
                                 or self._held >= named_until):
                past_cap = True  # for good: neither count goes down
                if path == last_path:  # the folded file going on
                    last_entry[0] += n
                    matched += n
                    continue
                if not (_PLAIN_PATH.fullmatch(path) or is_path(path)):
                    odd.append((q, at))
                    continue
                matched += n
                folded.append(path)
                key = folder_key(path)
                if key != last_key:
                    key_entry = folders.get(key) or self._new_folder(key)
                    last_key = key
                key_entry[0] += n
                key_entry[1] += 1
                last_path, last_entry = path, key_entry
                continue
            if kept is None:  # a new file: keep its first lines
                if not (_PLAIN_PATH.fullmatch(path) or is_path(path)):
                    odd.append((q, at))
                    continue
                counts[path] = n
                matched += n
                full = self._held >= self.limit
                end = p.find("\n", q + 1) if full else block_end  # when full, one names it
                pick = [base + q, 0, p[q + 1:end + 1 if end < cut else cut]]
                fresh.append(pick)
                self._held += len(pick[2])
                if at == block_end and not full:
                    files[path] = pick  # all of its run: most files' matches end there
                    continue
                kept = files[path] = _Kept([pick], first.count("\n", 0, end - q))
                if full:
                    kept.have = kept.n0 = k
                else:
                    self._classify(kept)
                    if kept.n0 < k:
                        self._definitions(p, block_end + len(plain),
                                          block_end + len(plain) + len(nested), at, kept, base,
                                          cut, fresh)
                continue
            counts[path] += n
            matched += n
            if type(kept) is list:  # a file going on: now its first lines' ranks matter
                kept = files[path] = _Kept([kept], kept[2].count("\n"))
            elif kept.n0 >= k and kept.have >= k:
                continue  # nothing more wanted
            if self._held >= self.limit:
                kept.have = kept.n0 = k
                continue
            if kept.classified < len(kept.first):
                self._classify(kept)
            start = q
            if kept.have < k:
                start = _FIRST[k - kept.have].match(p, q).end()
                self._first(kept, p, q, start, base, cut, fresh)
            if kept.n0 < k and start < at:
                self._definitions(p, start, start, at, kept, base, cut, fresh)
        if last_entry is not None:
            self._last = (last_path, last_entry)
            self._last_folder = (last_key, key_entry)
        self._recent = set(folded) if last_path else set()
        if self._maybe and self._recent:  # context lines of a folded file met since
            self._maybe = [pick for pick in self._maybe
                           if not context_path(pick[2].rstrip("\n"), self._recent)]
        lines = matched
        if gaps or odd:
            lines = p.count("\n") - 1
            if len(self._strays) < SCAN_STRAYS and self._held < self.limit and (
                    odd or not self._all_known(gaps)):
                self._find_strays(p, base, cut, odd, fresh)
        fresh.sort(key=itemgetter(0))
        at, line = 0, line0
        for pick in fresh:
            q = pick[0] - base
            line += p.count("\n", at, q)
            at = q
            pick[1] = line
        return lines

    def _fold_part(self, p: str) -> int | None:
        """Past the cap, a part whose lines are all plain `dir/name:NN:` matches of files
        not kept (the bulk of a flood), counted into folders a run at a time (a run of one
        line costs no line of Python); None (nothing counted) for any other part, which _scan
        reads run by run. The same figures either way: runs of one path, their folders (_scan
        takes these paths too, and folder_key is their text up to the last "/")."""
        if "\\" in p:
            return None
        found = _FOLD_RUN.findall(p, 0, len(p) - 1)
        if not found:
            return None
        # Each field taken out in C (zip(*found) makes an iterator per run: ~1.5 times slower).
        keys = list(map(_KEY, found))
        if "" in keys:
            return None  # other lines among the runs: context, separators, strays, odd paths
        paths, rests = list(map(_PATH_OF, found)), list(map(_REST, found))
        # Each newline counted once, in C: the match lines after the first of each run that
        # has more (most runs have none: they cost no call).
        after = list(map(str.count, filter(None, rests), repeat("\n")))
        more: dict[str, int] = {}  # those, by folder
        for key, n in zip(compress(keys, rests), after):
            more[key] = more.get(key, 0) + n
        lines = len(keys) + sum(after)
        if len(self._kept) != len(self._counts):
            self._kept = frozenset(self._counts)
        if not self._kept.isdisjoint(paths):
            return None  # a kept file's lines: their picks are wanted
        folders, entries = self._folders, {}
        for key, files in Tally(keys).items():
            entry = entries[key] = folders.get(key) or self._new_folder(key)
            entry[0] += files + more.get(key, 0)
            entry[1] += files
        if self._last is not None and paths[0] == self._last[0]:
            entries[keys[0]][1] -= 1  # the last part's last file going on
        self._last = (paths[-1], entries[keys[-1]])
        self._last_folder = (keys[-1], entries[keys[-1]])
        if self._maybe:  # context lines of a folded file met since
            found = set(paths)
            self._maybe = [pick for pick in self._maybe
                           if not context_path(pick[2].rstrip("\n"), found)]
        self._recent = set()
        return lines

    def _past_cap(self) -> bool:
        """Whether a new file is folded into its folder's figures rather than kept."""
        return len(self._counts) >= self._file_cap or self._held >= self._named_until

    def _fold(self, path: str, n: int) -> None:
        """Count a file past the cap (n match lines) into its folder's entry (the last line,
        read at the end: the stream's other lines are counted in _scan)."""
        if self._last is not None and self._last[0] == path:
            self._last[1][0] += n
            return
        key = folder_key(path)
        entry = self._folders.get(key) or self._new_folder(key)
        entry[0] += n
        entry[1] += 1

    def _new_folder(self, key: str) -> list[int]:
        """The entry a folder not counted yet goes to: its own while FOLDER_CAP are not
        taken; then the nearest one above it, else its top-level folder's (FOLDER_CAP more
        of those), else "./"'s. `key` is spelled "a/b/" (rollup.py's folders), or "./"."""
        folders = self._folders
        if len(folders) < self._folder_cap:
            entry = folders[key] = [0, 0]
            return entry
        start = 1 if key[:1] == "/" else 0
        while key.startswith("./", start) and len(key) > start + 2:
            start += 2  # "./src/": src is the top level
        top = key.find("/", start) + 1
        end = len(key) - 1
        while end > top:  # from the parent folder up to below the top level
            end = key.rfind("/", 0, end)
            entry = folders.get(key[:end + 1])
            if entry is not None:
                return entry
        top_key = key[:top] or "./"
        entry = folders.get(top_key)
        if entry is None:
            if len(folders) >= 2 * self._folder_cap:
                top_key = "./"
                entry = folders.get(top_key)
            if entry is None:
                entry = folders[top_key] = [0, 0]
        return entry

    def _context(self, row: str) -> str | None:
        """The known file (kept, or folded lately) whose context line the row is, if any."""
        return context_path(row, self._counts) or context_path(row, self._recent)

    def _first(self, kept: _Kept, p: str, q: int, end: int, base: int, cut: int,
               fresh: list) -> None:
        """Keep the match lines p[q + 1:end + 1] among the file's first ones (a file whose
        first lines' ranks are counted)."""
        pick = [base + q, 0, p[q + 1:min(end + 1, cut)]]
        kept.first.append(pick)
        kept.classified += 1
        kept.have += p.count("\n", q, end)
        fresh.append(pick)
        self._held += len(pick[2])
        indents = _DEFS.findall(p, q, end)
        if indents:
            top = indents.count("")
            kept.n0 += top
            kept.n1 += len(indents) - top
            kept.first_nested += len(indents) - top

    @staticmethod
    def _classify(kept: _Kept) -> None:
        """Count the definition sites among the first lines kept (put off until the file's
        matches go on: most files' never do)."""
        for pick in kept.first[kept.classified:]:
            indents = _DEFS.findall("\n" + pick[2])
            top = indents.count("")
            kept.n0 += top
            kept.n1 += len(indents) - top
            kept.first_nested += len(indents) - top
        kept.classified = len(kept.first)

    def _definitions(self, p: str, start: int, top_start: int, stop: int, kept: _Kept,
                     base: int, cut: int, fresh: list) -> None:
        """Keep the definition sites the file still wants among its match lines p[start:stop]
        (a run; none top-level before top_start): any, until it knows SCAN_MATCHES; then
        top-level ones."""
        k = SCAN_MATCHES
        at = start
        while kept.n0 + kept.n1 < k and at < stop:
            d = _DEFS.match(p, at, stop)
            if d is None:
                at = _UNTIL_DEF.match(p, at, stop).end()  # to the next one
                continue
            self._keep_definition(p, at, not d[1], kept, base, cut, fresh)
            at = p.find("\n", at + 1)
        at = max(at, top_start)
        while kept.n0 < k and at < stop:
            if _TOPS.match(p, at, stop) is None:
                at = _UNTIL_TOP.match(p, at, stop).end()
                continue
            self._keep_definition(p, at, True, kept, base, cut, fresh)
            at = p.find("\n", at + 1)

    def _keep_definition(self, p: str, q: int, top: bool, kept: _Kept, base: int, cut: int,
                         fresh: list) -> None:
        if self._held >= self.limit:
            kept.n0 = SCAN_MATCHES  # memory is spent: no more for this file
            return
        eol = p.find("\n", q + 1)
        pick = [base + q, 0, p[q + 1:min(eol + 1, cut)]]
        if top:
            kept.n0 += 1
            kept.top.append(pick)
        else:
            kept.n1 += 1
            kept.nested.append(pick)
        fresh.append(pick)
        self._held += len(pick[2])

    def _all_known(self, gaps: list[str]) -> bool:
        """Whether the lines other than matches are all blank, separators or context lines
        of files with matches: then there is no stray among them (the common case, read in
        C; a False may be wrong, and costs the full search)."""
        other = "".join(gaps) + "\n"
        context = _CONTEXT_LIKE.findall(other)
        return (other.count("\n") - 1 == len(context) + other.count("\n\n")
                + other.count("\n--\n")) and all(
            path in self._counts or path in self._recent
            for path in dict.fromkeys(context))

    def _find_strays(self, p: str, base: int, cut: int, odd: list[tuple[int, int]],
                     fresh: list[list]) -> None:
        """Lines that are neither matches, context lines, separators nor blank, as parse()
        sees them; the first few that the scanner still wants."""
        want = SCAN_STRAYS - len(self._strays)
        found = [m.start() for m in islice(_STRAY.finditer(p, 0, len(p) - 1), want)]
        for prefix in dict.fromkeys(_CONTEXT_LIKE.findall(p)):
            if prefix in self._counts or prefix in self._recent:
                continue  # context lines of a file with matches
            needle, got = f"\n{prefix}-", 0
            at = p.find(needle)
            while at != -1 and got < want:
                m = _CONTEXT_LIKE.match(p, at)
                if m is not None and m[1] == prefix:
                    found.append(at)
                    got += 1
                at = p.find(needle, at + 1)
        for at, end in odd:
            for _ in range(want):
                if at >= end:
                    break
                found.append(at)
                at = p.find("\n", at + 1)
        for q in sorted(set(found)):
            eol = p.find("\n", q + 1)
            row = p[q + 1:eol]
            if self._context(row):
                continue
            if any(is_path(row[:m.start()]) for m in CONTEXT_SEP.finditer(row)):
                if len(self._maybe) >= SCAN_STRAYS:
                    continue
                sink = self._maybe  # a context line if that path matches in a later part
            else:
                sink = self._strays
            pick = [base + q, 0, p[q + 1:min(eol + 1, cut)]]
            sink.append(pick)
            fresh.append(pick)
            self._held += len(pick[2])
            if len(self._strays) >= SCAN_STRAYS or self._held >= self.limit:
                break
