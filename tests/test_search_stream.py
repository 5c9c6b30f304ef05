"""The search shape's streaming Scanner: an output too large to hold, read once in parts.

Whatever the parts, the scanner counts every file's matches as parse() does on the whole text,
keeps whole original lines at their real offsets (each file's first matches, its best definition
sites, the first stray lines), and the planner run on the excerpt of those lines names every file
with its whole-output count. Every expected figure is counted from the test's own input.
"""

from __future__ import annotations

import re
import tracemalloc
from contextlib import contextmanager
from unittest import mock

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from headroom_cli import intake as stage
from headroom_cli import tools
from headroom_cli.api import compress_streamed
from headroom_cli.fit import fit
from headroom_cli.plan import Lines
from headroom_cli.planners import search
from headroom_cli.planners.search import scanner as search_scanner
from headroom_cli.planners.search.planning import _priority
from headroom_cli.planners.search.scanner import SCAN_MATCHES, SCAN_STRAYS, Scanner
from headroom_cli.planners.search.signals import parse
from headroom_cli.sniff import scanner as start_scanner
from headroom_cli.render import Context

SETTINGS = settings(deadline=None, max_examples=60,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
GREP = tools.lookup("Grep")
LIMIT = 16_000_000

HEADER = re.compile(
    r"^(?P<path>.+) \((?P<total>[\d,]+) match(?:es)?(?:, showing (?P<shown>[\d,]+))?\)$")
ROLLED = re.compile(r"^(?P<key>.+?) \((?:(?P<files>[\d,]+) (?:more )?files?, )?"
                    r"(?P<matches>[\d,]+) match(?:es)?\)$")
CLOSING = re.compile(r"\[…headroom: (?P<omitted>[\d,]+) of (?P<total>[\d,]+) matched lines "
                     r"omitted \((?:(?P<cut>[\d,]+) of )?(?P<files>[\d,]+) files")


def num(text: str) -> int:
    return int(text.replace(",", ""))


# --------------------------------------------------------------------------- helpers


def rows_of(text: str) -> list[str]:
    """Lines as headroom numbers them (Lines): split on \\n; a final newline ends the last."""
    return list(Lines(text))


def line_starts(text: str) -> list[int]:
    return Lines(text).starts if text else []


def scan(text: str, cuts: list[int] = (), limit: int = LIMIT) -> Scanner:
    """Feed text in parts that end after the lines numbered in cuts."""
    scanner = Scanner(GREP, limit)
    starts = line_starts(text)
    bounds = sorted({starts[c] for c in cuts if 0 < c < len(starts)}) + [len(text)]
    at = 0
    for end in bounds:
        if end > at:
            # The scanner counts each part's newlines, and the intake takes its word for them.
            assert scanner.feed(text[at:end], at, text.count("\n", 0, at)) == (
                text.count("\n", at, end))
        at = end
    return scanner


def picked_lines(text: str, picks) -> dict[int, str]:
    """{line number: line} of the lines the picks hold, checking each pick on the way: whole
    original lines at their offsets and line numbers, in order, not overlapping."""
    out: dict[int, str] = {}
    end = 0
    for offset, line, chunk in picks:
        assert chunk and offset >= end, (offset, end)
        assert text[offset:offset + len(chunk)] == chunk
        assert offset == 0 or text[offset - 1] == "\n"
        assert chunk.endswith("\n") or offset + len(chunk) == len(text)
        assert line == text.count("\n", 0, offset)
        for i, row in enumerate(chunk.split("\n")[:len(chunk.splitlines())]):
            out[line + i] = row
        end = offset + len(chunk)
    return out


def counts_by_parse(text: str) -> dict[str, int]:
    return {path: len(hits.matches) for path, hits in parse(rows_of(text)).files.items()}


def excerpt_of(text: str, picks, head: int = 3, tail: int = 3) -> str:
    """What intake.py plans: the head's and the tail's lines, and the picks between."""
    starts = line_starts(text)
    spans = {(0, starts[head] if head < len(starts) else len(text))}
    if len(starts) > tail:
        spans.add((starts[-tail], len(text)))
    spans |= {(offset, offset + len(chunk)) for offset, _, chunk in picks}
    out, at = [], 0
    for start, end in sorted(spans):
        if end > at:
            out.append(text[max(start, at):end])
            at = end
    joined = "".join(out)
    return joined if joined.endswith("\n") or not joined else joined + "\n"


def plan_excerpt(scanner: Scanner, text: str, budget: int, counter):
    excerpt = excerpt_of(text, scanner.picks())
    plan, out = fit(excerpt, Lines(excerpt), scanner.planner(), budget, counter, Context(GREP))
    return plan, out


def check_map(out: str, counts: dict[str, int]) -> None:
    """Every file named with its exact count (or all its matches shown, in a listing), or
    counted under a folder; the closing figures are the whole output's."""
    total = sum(counts.values())
    body = [line for line in out.rstrip("\n").split("\n") if not line.startswith("[…headroom")]
    headers = {m["path"]: m for line in body if (m := HEADER.match(line))}
    rolled = [m for line in body if (m := ROLLED.match(line)) and m["files"]]
    closing = CLOSING.search(out)
    assert closing, out[-300:]
    assert num(closing["total"]) == total
    assert num(closing["files"]) == len(counts)
    if rolled:  # rolled up: every entry a file or a folder with counts that add up
        entries = [ROLLED.match(line) for line in body if ROLLED.match(line)]
        # Beside them, files named with their definition sites shown (a header, or all of
        # the file's matches).
        named = {path: num(m["total"]) for path, m in headers.items() if m["shown"]}
        for path in counts:
            shown = sum(1 for line in body if line.startswith(path + ":")
                        and re.match(r"\d+:", line[len(path) + 1:]))
            if shown and path not in named:
                assert shown == counts[path], path
                named[path] = shown
        assert sum(num(e["matches"]) for e in entries) + sum(named.values()) == total
        assert sum(num(e["files"] or "1") for e in entries) + len(named) == len(counts)
        return
    shown_total = 0
    for path, count in counts.items():
        shown = sum(1 for line in body if line.startswith(path + ":")
                    and re.match(r"\d+:", line[len(path) + 1:]))
        if path in headers:
            assert num(headers[path]["total"]) == count, path
            assert num(headers[path]["shown"] or "0") == shown, path
        else:
            assert shown == count, f"{path}: {shown} of {count} shown without a count"
        shown_total += shown
    assert num(closing["omitted"]) == total - shown_total


# --------------------------------------------------------------------------- generated floods

PATHS = ["src/a.py", "src/pkg/b.py", "lib/c-1-x.js", "C:\\dir with spaces\\d.py", "README.md",
         "tests/test_e.py", "docs/f g.md", "pkg/h.go"]
BODIES = ["    return lookup(key, default=None)", "def handler(x, y):", "    def method(self):",
          "class Handler:", "    value = compute(x)", "handler_table = {}", "  call(a, b) == c",
          "function handlerJs(a) {", "export const X = 1", 'pub const DEFAULT: &str = "sh";',
          "    let mut total: usize = 0;", "    raise KeyError(key)", "raise SystemExit(1)",
          "        throw new TypeError('x');", "  async def fetch(self):", ""]
STRAYS = ["rg: ./secret: Permission denied (os error 13)", "12:34:56 INFO started",
          "grep: warning: recursive search of stdin", "Binary file x.bin matches"]


@st.composite
def floods(draw, interleave: bool = True) -> str:
    """grep/rg output: files' matches (grouped as grep prints them, or interleaved), with
    vimgrep columns, context lines, separators, blank lines, CRLF and stray lines."""
    files = draw(st.lists(st.sampled_from(PATHS), min_size=1, max_size=6, unique=True))
    hits = [(path, draw(st.integers(1, 3 * SCAN_MATCHES))) for path in files]
    rows: list[str] = []
    for path, count in hits:
        for j in range(count):
            body = draw(st.sampled_from(BODIES))
            kind = draw(st.integers(0, 9))
            if kind == 0:
                rows.append(f"{path}-{10 * j + 2}-{body}")
            elif kind == 1:
                rows.append("--")
            elif kind == 2:
                rows.append(draw(st.sampled_from(STRAYS)))
            elif kind == 3:
                rows.append("")
            rows.append(f"{path}:{10 * j + 3}:{body}")
    if interleave and draw(st.booleans()):
        rows = draw(st.permutations(rows))
    eol = "\r\n" if draw(st.integers(0, 5)) == 0 else "\n"
    text = eol.join(rows) + (eol if draw(st.integers(0, 4)) else "")
    return text


def vimgrep(text: str) -> str:
    """The same flood with a column after every line number."""
    return re.sub(r"^([^\n:]*(?:[A-Za-z]:\\[^\n:]*)?):(\d+):", r"\1:\2:7:", text, flags=re.M)


cuts_strategy = st.lists(st.integers(0, 400), max_size=12)


@SETTINGS
@given(floods(), cuts_strategy)
def test_parts_do_not_change_counts_or_picks(text, cuts):
    whole = scan(text)
    parted = scan(text, cuts)
    assert list(parted.counts.items()) == list(whole.counts.items())
    assert picked_lines(text, parted.picks()) == picked_lines(text, whole.picks())


@SETTINGS
@given(floods(), cuts_strategy, st.booleans())
def test_counts_are_those_parse_finds_in_the_whole_text(text, cuts, columns):
    text = vimgrep(text) if columns else text
    scanner = scan(text, cuts)
    assert list(scanner.counts.items()) == list(counts_by_parse(text).items())


@SETTINGS
@given(floods(), cuts_strategy)
def test_picks_are_whole_lines_holding_each_files_best_matches_and_the_strays(text, cuts):
    rows = rows_of(text)
    kept = picked_lines(text, scan(text, cuts).picks())
    parsed = parse(rows)
    for hits in parsed.files.values():
        first = hits.matches[:SCAN_MATCHES]
        best = _priority(hits, rows)[:SCAN_MATCHES]  # what the planner shows first
        for index in {*first, *best}:
            assert kept.get(index) == rows[index], (hits.path, index)
    for index in parsed.strays[:SCAN_STRAYS]:
        assert kept.get(index) == rows[index], index


@SETTINGS
@given(floods(), cuts_strategy, st.sampled_from([300, 700, 2000]))
def test_planning_the_excerpt_names_every_file_with_its_whole_output_count(counter, text, cuts,
                                                                           budget):
    counts = counts_by_parse(text)
    scanner = scan(text, cuts)
    if not counts:
        return
    plan, out = plan_excerpt(scanner, text, budget, counter)
    assert counter.count(out) <= budget
    if plan.kind == "search":
        check_map(out, counts)


# --------------------------------------------------------------------------- examples


def grouped_flood(files: int, lines: int, body: str = "    value = compute_x(y)") -> str:
    return "".join(f"src/pkg{f % 7}/mod{f % 3}/file{f}.py:{10 * j + 3}:{body}\n"
                   for f in range(files) for j in range(lines))


def test_a_big_file_is_named_with_its_exact_count_and_kept_matches(counter):
    text = grouped_flood(3, 1234) + "src/last.py:1:    value = compute_x(y)\n"
    scanner = scan(text, list(range(0, 4000, 97)))
    assert scanner.counts == {"src/pkg0/mod0/file0.py": 1234, "src/pkg1/mod1/file1.py": 1234,
                              "src/pkg2/mod2/file2.py": 1234, "src/last.py": 1}
    _, out = plan_excerpt(scanner, text, 400, counter)
    assert re.search(r"^src/pkg1/mod1/file1\.py \(1,234 matches, showing \d+\)$", out, re.M)
    assert "of 3,703 matched lines omitted" in out
    check_map(out, scanner.counts)


def test_a_file_whose_kept_lines_all_show_still_says_it_has_more(counter):
    text = grouped_flood(2, 50)
    scanner = scan(text)
    _, out = plan_excerpt(scanner, text, 3000, counter)
    for path in scanner.counts:
        m = re.search(rf"^{re.escape(path)} \(50 matches, showing (\d+)\)$", out, re.M)
        assert m and int(m[1]) < 50, out
    check_map(out, scanner.counts)


def test_definition_sites_past_the_first_matches_are_kept():
    rows = [f"src/a.py:{j}:    print(handler(x), 'call site {j}')" for j in range(1, 40)]
    rows.insert(25, "src/a.py:500:def handler(x):")
    rows.insert(30, "src/a.py:600:    def method(self):")
    text = "\n".join(rows) + "\n"
    kept = set(picked_lines(text, scan(text).picks()).values())
    assert {"src/a.py:500:def handler(x):", "src/a.py:600:    def method(self):"} <= kept
    assert len(kept) == SCAN_MATCHES + 2


def test_context_lines_before_a_files_first_match_in_an_earlier_part_are_not_strays():
    text = ("src/a.py:1:x = 1\n--\nsrc/b.py-4-context before\nsrc/b.py-5-more\n"
            "src/b.py:6:y = 2\nrg: error\n")
    scanner = scan(text, [2, 3, 4])
    kept = set(picked_lines(text, scanner.picks()).values())
    assert "rg: error" in kept
    assert not any(line.startswith("src/b.py-") for line in kept)


def test_a_giant_line_is_neither_counted_nor_held(counter):
    giant = "src/b.py:2:" + "x" * 2_000_000
    scanner = Scanner(GREP, LIMIT)
    assert scanner.feed("src/a.py:1:x = 1\n", 0, 0) == 1  # the part's newlines
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        assert scanner.feed(giant[:1_048_576], 17, 1) == 0  # a part cut inside the line
        assert scanner.feed(giant[1_048_576:], 17 + 1_048_576, 1) == 0
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert held < 50_000
    assert scanner.feed("\nsrc/c.py:3:z = 3\n", 17 + len(giant), 1) == 2
    assert scanner.counts == {"src/a.py": 1, "src/c.py": 1}
    assert all(len(chunk) < 1000 for _, _, chunk in scanner.picks())


def test_a_giant_last_part_without_newline_is_not_held():
    scanner = Scanner(GREP, LIMIT)
    scanner.feed("src/a.py:1:x = 1\n", 0, 0)
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        scanner.feed("src/b.py:2:" + "y" * 2_000_000, 17, 1)
        held = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert held < 50_000
    assert scanner.counts == {"src/a.py": 1}
    assert [chunk for _, _, chunk in scanner.picks()] == ["src/a.py:1:x = 1\n"]


def test_a_last_line_without_newline_is_counted_and_kept():
    text = "src/a.py:1:x = 1\nsrc/b.py:2:y = 2"
    scanner = scan(text, [1])
    assert scanner.counts == {"src/a.py": 1, "src/b.py": 1}
    assert picked_lines(text, scanner.picks()) == {0: "src/a.py:1:x = 1", 1: "src/b.py:2:y = 2"}


def test_memory_is_spent_on_more_files_not_more_lines():
    text = grouped_flood(200, 30)
    scanner = scan(text, list(range(0, 6000, 500)), limit=5_000)
    picks = scanner.picks()
    kept = picked_lines(text, picks)
    assert scanner.counts == counts_by_parse(text)
    named = {row.split(":", 1)[0] for row in kept.values()}
    assert named == set(scanner.counts)  # every file keeps a line
    assert sum(len(chunk) for _, _, chunk in picks) < 5_000 + 200 * 60


def test_heading_groups_and_file_lists_are_not_taken_and_do_not_break_it(counter):
    heading = "src/a.py\n12:    def f():\n13:    x = 1\n\nsrc/b.py\n4:y = 2\n"
    listing = "".join(f"src/pkg/file_{i}.py\n" for i in range(100))
    for text in (heading, listing):
        assert not Scanner.accepts(rows_of(text))
        scanner = scan(text, [1, 3])
        picked_lines(text, scanner.picks())
        plan_excerpt(scanner, text, 300, counter)
    flat = grouped_flood(5, 10)
    assert Scanner.accepts(rows_of(flat))


def test_many_files_roll_up_with_whole_output_counts(counter):
    text = grouped_flood(400, 25)
    scanner = scan(text, list(range(0, 10_000, 333)))
    plan, out = plan_excerpt(scanner, text, 250, counter)
    assert plan.kind == "search" and counter.count(out) <= 250
    assert " files, " in out  # folders, with counts
    check_map(out, counts_by_parse(text))



# --------------------------------------------------------------------------- past the file cap


@contextmanager
def caps(files: int, folders: int):
    """Small caps, so that a test's flood passes them (read when a Scanner is made)."""
    with mock.patch.object(search_scanner, "FILE_CAP", files), \
            mock.patch.object(search_scanner, "FOLDER_CAP", folders):
        yield


TOPS = ["src", "lib", "tests", "docs", "vendor/third_party", "services"]


def tree_flood(files: int, context: bool = False, start: int = 0) -> str:
    """grep -rn over a tree: each file's 1-4 matches together (with -C context lines and `--`
    separators when context), files under six top-level folders and 6 * 13 * 5 folders."""
    bodies = ["    value = parse(raw)", "def parse(raw):", "  call(parse, x)", "class Parser:"]
    rows = []
    for f in range(start, start + files):
        path = f"{TOPS[f % 6]}/pkg{f % 13}/mod{f % 5}/file_{f}.py"
        for j in range(1 + f % 4):
            if context:
                rows.append(f"{path}-{10 * j + 2}-    context {j}")
            rows.append(f"{path}:{10 * j + 3}:{bodies[(f + j) % 4]}")
        if context:
            rows.append("--")
    return "\n".join(rows) + "\n"


def totals_of(text: str) -> tuple[int, int]:
    counts = counts_by_parse(text)
    return sum(counts.values()), len(counts)


def check_totals(out: str, matches: int, files: int) -> None:
    """The closing figures are the whole output's, and a rolled-up map's entries add up to
    them (a folder's files, or a file's matches)."""
    closing = CLOSING.search(out)
    assert closing, out[-300:]
    assert (num(closing["total"]), num(closing["files"])) == (matches, files)
    body = [line for line in out.rstrip("\n").split("\n") if not line.startswith("[…headroom")]
    entries = [ROLLED.match(line) for line in body]
    if all(entries) and "omitted (" in out and " groups named above" in out:
        assert sum(num(e["matches"]) for e in entries) == matches
        assert sum(num(e["files"] or "1") for e in entries) == files


def check_bounded(scanner: Scanner, files: int, folders: int) -> None:
    """What the scanner holds does not grow with the input: kept files, their picks, folders."""
    assert len(scanner.counts) <= files and len(scanner._files) <= files
    assert len(scanner._folders) <= 2 * folders + 1
    assert len(scanner.picks()) <= files * 2 * SCAN_MATCHES + SCAN_STRAYS


def test_past_the_cap_files_are_counted_by_folder_and_the_totals_stay_exact(counter):
    text = tree_flood(3000)
    matches, files = totals_of(text)
    with caps(40, 6):
        scanner = scan(text, list(range(0, 8000, 613)))
    assert scanner.totals == (matches, files)
    whole = counts_by_parse(text)
    assert scanner.counts == dict(list(whole.items())[:40])  # the first files, exactly
    assert sum(m for _, m, _ in scanner.folders) == matches - sum(scanner.counts.values())
    check_bounded(scanner, 40, 6)
    for budget in (300, 1000, 4000):
        _, out = plan_excerpt(scanner, text, budget, counter)
        assert counter.count(out) <= budget
        check_totals(out, matches, files)
        for top in TOPS:  # no part of the tree vanishes (its top-level folder named)
            assert re.search(rf"^{re.escape(top.split('/')[0])}/", out, re.M), (top, out)


def test_folders_past_their_cap_fold_into_the_nearest_one_counted_above_them():
    paths = ["a/x/1/f.py", "b/y/f.py", "a/x/2/f.py", "a/x/1/g.py", "c/d/e/f.py", "./d/f.py",
             "e/z/f.py", "b/y/q/f.py", "f.py"]
    text = "".join(f"{path}:{i + 1}:x = {i}\n" for i, path in enumerate(paths))
    with caps(1, 2):
        scanner = scan(text, [3, 5])
    # a/x/1/f.py is kept; then two folders of their own, then top-level ones (two more),
    # then "./"; a folder below a counted one joins it.
    assert scanner.counts == {"a/x/1/f.py": 1}
    assert scanner.folders == [("b/y/", 2, 2), ("a/x/2/", 1, 1), ("a/", 1, 1), ("c/", 1, 1),
                               ("./", 3, 3)]
    assert scanner.totals == (9, 9)


def test_runs_of_one_path_are_one_file_across_parts_and_context_lines():
    text = tree_flood(200, context=True)
    matches, files = totals_of(text)
    with caps(10, 4):
        for cuts in ([], list(range(1, 900, 7)), list(range(1, 900))):
            scanner = scan(text, cuts)
            assert scanner.totals == (matches, files)
            assert scanner._strays == []  # context lines of folded files are not strays
            kept = picked_lines(text, scanner.picks())
            assert not any(re.match(r"[^:]*-\d+-", row) for row in kept.values())


def test_an_interleaved_flood_counts_its_matches_exactly_and_a_folded_file_per_run():
    rows = [f"src/f{i % 30}.py:{i}:x = {i}" for i in range(300)]  # 30 files, 10 runs each
    text = "\n".join(rows) + "\n"
    with caps(10, 4):
        scanner = scan(text, [100, 200])
    assert scanner.totals == (300, 10 + 20 * 10)  # documented: a run of a folded file is one
    assert scanner.counts == {f"src/f{i}.py": 10 for i in range(10)}


@SETTINGS
@given(floods(interleave=False), cuts_strategy, st.sampled_from([(1, 1), (2, 1), (3, 2)]))
def test_past_the_cap_parts_change_nothing_and_grouped_totals_are_exact(text, cuts, cap):
    with caps(*cap):
        whole = scan(text)
        parted = scan(text, cuts)
    assert list(parted.counts.items()) == list(whole.counts.items())
    assert parted.folders == whole.folders
    assert picked_lines(text, parted.picks()) == picked_lines(text, whole.picks())
    assert parted.totals == totals_of(text)
    assert len(whole.counts) <= cap[0]


@SETTINGS
@given(floods(interleave=False), cuts_strategy, st.sampled_from([300, 2000]))
def test_planning_past_the_cap_keeps_the_budget_and_the_whole_outputs_totals(counter, text,
                                                                            cuts, budget):
    with caps(2, 1):
        scanner = scan(text, cuts)
    if not scanner.totals[0]:
        return
    plan, out = plan_excerpt(scanner, text, budget, counter)
    assert counter.count(out) <= budget
    if plan.kind == "search":
        check_totals(out, *totals_of(text))


def test_whole_parts_of_folded_files_are_counted_as_run_by_run(monkeypatch):
    # Parts of plain matches only are counted in bulk (_fold_part); parts with context lines,
    # a kept file's lines or odd paths are read run by run. The figures are the same.
    text = (tree_flood(400) + tree_flood(50, context=True, start=400) + tree_flood(300, start=450)
            + "src/pkg0/mod0/file_0.py:999:y = 1\n" + "C:\\win\\a.py:1:z\n" + tree_flood(200))
    cuts = list(range(0, 4000, 37))
    bulk = []
    real = Scanner._fold_part

    def counting(self, p):
        lines = real(self, p)
        bulk.append(lines is not None)
        return lines

    with caps(20, 8):
        monkeypatch.setattr(Scanner, "_fold_part", counting)
        fast = scan(text, cuts)
        fast_picks, fast_folders, fast_counts = fast.picks(), fast.folders, dict(fast.counts)
        monkeypatch.setattr(Scanner, "_fold_part", lambda self, p: None)
        slow = scan(text, cuts)
    assert any(bulk) and not all(bulk)
    assert fast_counts == slow.counts and fast_folders == slow.folders
    assert fast_picks == slow.picks()
    assert fast_counts["src/pkg0/mod0/file_0.py"] == 3  # a kept file's later lines, counted
    assert fast.totals == slow.totals


# Paths a bulk-counted part may or may not hold: plain ones, a leading "/", an empty folder
# name, "./", no letter (in the name; at all), non-ASCII, a space, no folder, a drive, a tree's.
ODD_PATHS = ["/abs/c.py", "a//d.py", "./e/f.py", "1/2", "lib/1.2", "lib/2/x3.py", "src/é/g.py",
             "docs/h i.md", "README.md", "C:\\w\\j.py", "HEAD:src/k.py", "~/x+y@z/l-m.ts"]
PLAIN_PATHS = [f"{top}/m{i % 3}/f_{i}.py" for i, top in enumerate(TOPS * 4)]


# Lines that are no match at all: blank, a separator.
BARE_LINES = ["", "--"]


@SETTINGS
@given(st.lists(st.tuples(st.sampled_from(PLAIN_PATHS + ODD_PATHS + BARE_LINES),
                          st.integers(1, 5)), min_size=1, max_size=60),
       st.lists(st.integers(1, 40), max_size=12), st.sampled_from([(1, 1), (2, 3), (3, 50)]))
def test_bulk_counting_gives_the_figures_of_reading_run_by_run(runs, cuts, cap):
    # Match lines (and a few bare lines), so every part is tried in bulk; any line it cannot
    # count sends its part to the run-by-run reading, which must give the same figures.
    text = "".join(f"{path}\n" if path in BARE_LINES else f"{path}:{10 * j + 1}:x = {j}\n"
                   for path, n in runs for j in range(n))
    with caps(*cap), mock.patch.object(search_scanner, "_FAST_WAIT", 0):
        bulk = scan(text, cuts)
        bulk_figures = (bulk.counts, bulk.folders, bulk.totals, bulk.picks())
        with mock.patch.object(Scanner, "_fold_part", lambda self, p: None):
            slow = scan(text, cuts)
    assert bulk_figures == (slow.counts, slow.folders, slow.totals, slow.picks())


def test_memory_does_not_grow_with_the_number_of_files():
    def held(files: int) -> tuple[int, Scanner]:
        text = "".join(f"top{f % 50}/d{f % 997}/sub{f % 7}/file_{f}.py:3:x = parse(y)\n"
                       for f in range(files))
        starts = line_starts(text)
        parts = [(text[a:b], a, i) for i, (a, b) in
                 enumerate(zip(starts[::5000], starts[5000::5000] + [len(text)]))]
        with caps(100, 20):
            scanner = Scanner(GREP, LIMIT)
            tracemalloc.start()
            try:
                before = tracemalloc.get_traced_memory()[0]
                for part, offset, i in parts:
                    scanner.feed(part, offset, i * 5000)
                scanner.picks()
                grown = tracemalloc.get_traced_memory()[0] - before
            finally:
                tracemalloc.stop()
        return grown, scanner

    small, _ = held(5_000)
    big, scanner = held(60_000)
    assert big < small + 100_000, (small, big)
    assert scanner.totals == (60_000, 60_000)
    check_bounded(scanner, 100, 20)


def test_a_streamed_flood_past_the_cap_fits_and_names_every_top_level_folder(counter):
    text = tree_flood(6000)
    data = text.encode()
    matches, files = totals_of(text)
    with caps(50, 10):
        intake = stage.Intake(keep=20_000, hold=100_000, start=lambda sample: start_scanner(
            sample, GREP, "search", 1_000_000))
        for at in range(0, len(data), 65_536):
            intake.feed(data[at:at + 65_536])
        taken = intake.finish()
    assert taken.kind == "search"
    check_bounded(intake.scanner, 50, 10)
    for budget in (400, 3000):
        out = compress_streamed(taken.excerpt, kind=taken.kind, planner=taken.planner,
                                tool="Grep", budget=budget, counter=counter).text
        assert counter.count(out) <= budget
        check_totals(out, matches, files)
        for top in TOPS:  # the top-level folder (vendor/ for vendor/third_party/)
            assert re.search(rf"^{re.escape(top.split('/')[0])}/", out, re.M), (top, out)


def test_a_big_budget_lists_the_kept_files_and_the_folders_past_the_cap(counter):
    text = tree_flood(60)
    matches, files = totals_of(text)
    with caps(6, 20):
        scanner = scan(text, [50, 100])
    _, out = plan_excerpt(scanner, text, 8000, counter)
    assert "cut short" in out  # a listing: kept files' matches shown
    for path, count in scanner.counts.items():
        shown = len(re.findall(rf"^{re.escape(path)}:\d+:", out, re.M))
        assert shown == count or f"{path} ({count:,} match" in out
    for key, n, f in scanner.folders:
        assert f"{key} ({f:,} more file{'' if f == 1 else 's'}, {n:,} match" in out
    closing = CLOSING.search(out)
    assert (num(closing["total"]), num(closing["files"])) == (matches, files)


def test_ten_thousand_kept_files_and_many_folders_plan_within_budget(counter):
    # (How fast is bench/'s to measure: no clock in the unit suite.)
    text = tree_flood(12_000)  # the real caps: 10,000 files kept, then folders
    matches, files = totals_of(text)
    scanner = scan(text, list(range(0, 30_000, 4000)))
    assert len(scanner.counts) == search_scanner.FILE_CAP and scanner.folders
    for budget in (500, 4000, 30_000):
        _, out = plan_excerpt(scanner, text, budget, counter)
        assert counter.count(out) <= budget
        check_totals(out, matches, files)
