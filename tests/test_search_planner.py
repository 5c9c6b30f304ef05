"""The search shape: sniffing grep/rg output, and the per-file match map it is clipped to.

Every expected figure here is counted from the test's own input, never copied from an output.
"""

from __future__ import annotations

import re

import pytest

from headroom_cli.api import compress

HEADER = re.compile(
    r"^(?P<path>.+) \((?P<total>[\d,]+) match(?:es)?(?:, showing (?P<shown>[\d,]+))?\)$")
ROLLED = re.compile(
    r"^(?P<key>.+?) \((?:(?P<files>[\d,]+) (?P<more>more )?files?, )?(?P<matches>[\d,]+) "
    r"match(?:es)?(?:, showing [\d,]+)?\)$")
CLOSING = re.compile(r"\[…headroom: (?P<omitted>[\d,]+) of (?P<total>[\d,]+) matched lines "
                     r"omitted \((?P<cut>[\d,]+) of (?P<files>[\d,]+) files cut short")


def num(text: str) -> int:
    return int(text.replace(",", ""))


def grep_n(files: dict[str, list[tuple[int, str]]]) -> str:
    """`grep -rn` / `rg -n` output: path:NN:text, file after file."""
    return "".join(f"{path}:{number}:{body}\n" for path, hits in files.items()
                   for number, body in hits)


def make_files(counts: dict[str, int], body=lambda path, j: f"    return lookup(key_{j}, "
               f"default=None)  # call site number {j}") -> dict[str, list[tuple[int, str]]]:
    return {path: [(10 * j + 3, body(path, j)) for j in range(count)]
            for path, count in counts.items()}


def kind_of(text: str, tool: str = "Grep", budget: int = 400, counter=None) -> str:
    result = compress(text, tool=tool, budget=budget, counter=counter)
    assert result.clipped, "test input must be bigger than the budget"
    return result.kind


def body_lines(output: str) -> list[str]:
    """Output lines before the closing marker."""
    lines = output.rstrip("\n").split("\n")
    return [line for line in lines if not line.startswith("[…headroom: ")]


# --------------------------------------------------------------------------- sniffing: positives

LONG = "the quick brown fox jumps over the lazy dog while parsing arguments"


def test_sniffs_path_line_matches(counter):
    files = make_files({f"src/module_{i}.py": 3 for i in range(8)})  # 24 matches
    assert kind_of(grep_n(files), counter=counter) == "search"


def test_sniffs_grep_context_output_with_separators(counter):
    rows = []
    for f in range(5):
        for m in range(6):  # 30 matches, each with a line of context either side
            n = 20 * m + 10
            rows += [f"lib/file_{f}.js-{n - 1}-  // {LONG}",
                     f"lib/file_{f}.js:{n}:  handler(req, res, next); // {LONG}",
                     f"lib/file_{f}.js-{n + 1}-  }}",
                     "--"]
    assert kind_of("\n".join(rows) + "\n", counter=counter) == "search"


def test_sniffs_vimgrep_output_with_columns(counter):
    rows = [f"pkg/sub_{f}/thing.go:{10 * m + 1}:{m + 5}:\tif err := run(ctx); err != nil {{ // {LONG}"
            for f in range(4) for m in range(6)]
    assert kind_of("\n".join(rows) + "\n", counter=counter) == "search"


def test_sniffs_rg_heading_groups(counter):
    parts = []
    for f in range(5):
        parts.append(f"tornado/test/file_{f}_test.py")
        parts += [f"{30 * m + 7}:    def test_case_{m}(self):  # {LONG}" for m in range(5)]
        parts.append("")
    assert kind_of("\n".join(parts) + "\n", counter=counter) == "search"


def test_sniffs_windows_paths_with_spaces(counter):
    rows = [f"C:\\dir with spaces\\sub\\f{f}.py:{m + 12}:    value = compute({m})  # {LONG}"
            for f in range(3) for m in range(10)]
    assert kind_of("\r\n".join(rows) + "\r\n", counter=counter) == "search"


def test_sniffs_rg_files_with_matches_list(counter):
    paths = [f"src/components/widget_{i}/index_{i}.tsx" for i in range(120)]
    assert kind_of("\n".join(paths) + "\n", tool="Glob", budget=200, counter=counter) == "search"


# --------------------------------------------------------------------------- sniffing: negatives


def test_fewer_than_twenty_matches_is_search_only_from_a_search_tool(counter):
    files = make_files({f"src/module_{i}.py": 1 for i in range(19)},
                       body=lambda p, j: f"    return lookup(key_{j}) # {LONG} {LONG} {LONG}")
    assert kind_of(grep_n(files), tool="Bash", budget=300, counter=counter) != "search"
    assert kind_of(grep_n(files), tool="Read", budget=300, counter=counter) != "search"
    assert kind_of(grep_n(files), tool="Grep", budget=300, counter=counter) == "search"
    three = make_files({f"src/module_{i}.py": 1 for i in range(3)},
                       body=lambda p, j: f"    return lookup(key_{j}) # {LONG} {LONG} {LONG}")
    assert kind_of(grep_n(three), tool="Grep", budget=100, counter=counter) == "search"


def test_timestamped_log_lines_are_not_search(counter):
    rows = [f"2024-01-01 12:34:{s % 60:02d} INFO worker-{s % 4} processed batch {s} ok {LONG}"
            for s in range(60)]
    assert kind_of("\n".join(rows) + "\n", counter=counter) != "search"


def test_iso_timestamps_are_not_search(counter):
    rows = [f"2024-01-01T12:34:{s % 60:02d}.123Z level=info msg=\"batch {s} done\" {LONG}"
            for s in range(60)]
    assert kind_of("\n".join(rows) + "\n", counter=counter) != "search"


def test_syslog_lines_are_not_search(counter):
    rows = [f"Nov 22 06:53:{s % 60:02d} host sshd[{1000 + s}]: Accepted publickey for user{s} "
            f"from 10.0.0.{s % 250} port {40000 + s} ssh2" for s in range(60)]
    assert kind_of("\n".join(rows) + "\n", tool="Bash", counter=counter) != "search"


def test_compiler_diagnostics_are_not_search(counter):
    rows = []
    for i in range(40):
        rows.append(f"src/x{i % 3}.c:{12 + i}:5: error: ‘value_{i}’ undeclared (first use in this "
                    "function)")
        rows.append(f"   {12 + i} |     value_{i} = compute();")
    assert kind_of("\n".join(rows) + "\n", tool="Bash", counter=counter) != "search"


def test_ruff_diagnostics_are_not_search(counter):
    rows = [f"pkg/mod_{i % 5}.py:{i + 1}:1: F401 [*] `os.path{i}` imported but unused"
            for i in range(60)]
    assert kind_of("\n".join(rows) + "\n", tool="Bash", counter=counter) != "search"


def test_prose_is_not_search(counter):
    sentence = ("Note: this paragraph explains, at some length, why the configuration "
                "matters: first, the parser reads it; second, the planner uses it. ")
    text = "\n".join(sentence * 3 for _ in range(40)) + "\n"
    assert kind_of(text, tool="Read", counter=counter) != "search"


# --------------------------------------------------------------------------- the match map

COUNTS = {f"pkg/sub_{i % 3}/file_{i}.py": (i * 7) % 23 + 1 for i in range(25)}


@pytest.fixture(scope="module", params=[700, 1500, 3000])
def listing(request, counter):
    files = make_files(COUNTS)
    result = compress(grep_n(files), tool="Grep", budget=request.param, counter=counter)
    assert result.kind == "search" and result.clipped
    return files, result.text


def shown_for(output: str, path: str) -> list[str]:
    return [line for line in body_lines(output) if line.startswith(path + ":")]


def headers_in(output: str) -> dict[str, re.Match]:
    return {m["path"]: m for line in body_lines(output) if (m := HEADER.match(line))}


def test_every_matching_file_is_named_with_its_exact_match_count(listing):
    files, output = listing
    headers = headers_in(output)
    for path, hits in files.items():
        shown = shown_for(output, path)
        if path in headers:
            assert num(headers[path]["total"]) == len(hits), path
        else:  # named by its own lines: then every one of them is there
            assert len(shown) == len(hits), path
    assert set(headers) <= set(files)


def test_files_cut_short_say_how_many_matches_are_shown(listing):
    files, output = listing
    headers = headers_in(output)
    assert any(len(shown_for(output, p)) < len(h) for p, h in files.items()), \
        "budget should cut some files short"
    for path, hits in files.items():
        shown = shown_for(output, path)
        if len(shown) < len(hits):
            assert path in headers, f"{path} lost matches without a count"
            assert num(headers[path]["shown"] or "0") == len(shown)


def test_shown_matches_are_input_lines_in_input_order(listing):
    files, output = listing
    for path, hits in files.items():
        expected = [f"{path}:{n}:{body}" for n, body in hits]
        shown = shown_for(output, path)
        assert shown == [line for line in expected if line in shown]


def test_closing_marker_counts_omitted_matched_lines(listing):
    files, output = listing
    total = sum(len(h) for h in files.values())
    shown = sum(len(shown_for(output, p)) for p in files)
    cut = sum(len(shown_for(output, p)) < len(h) for p, h in files.items())
    m = CLOSING.search(output)
    assert m, output[-400:]
    assert (num(m["omitted"]), num(m["total"])) == (total - shown, total)
    assert (num(m["cut"]), num(m["files"])) == (cut, len(files))


def test_files_appear_in_input_order(listing):
    files, output = listing
    order = []
    for line in body_lines(output):
        m = HEADER.match(line)
        path = m["path"] if m else next(p for p in files if line.startswith(p + ":"))
        if path not in order:
            order.append(path)
    assert order == [p for p in files if p in order]


@pytest.mark.parametrize("budget", [500, 900, 1500])
def test_definition_sites_are_shown_before_call_sites(counter, budget):
    files = {}
    for f in range(12):
        hits = [(j + 1, f"    print(handler(x, y), 'call site {j}')") for j in range(10)]
        hits += [(40, "def handler(x, y):"), (60, "class Handler:"),
                 (80, "function handlerJs(a) {"), (90, "handler_table = {}")]
        files[f"src/mod_{f}.py"] = hits
    output = compress(grep_n(files), tool="Grep", budget=budget, counter=counter).text
    definitions = ("def handler", "class Handler", "function handlerJs", "handler_table =")
    first = f"    print(handler(x, y), 'call site 0')"
    shown_somewhere = 0
    for n, path in enumerate(files):
        shown = [line.split(":", 2)[2] for line in shown_for(output, path)]
        if n == 0:  # the output's first match leads whatever it is
            assert shown[0] == first
            shown.remove(first)
        n_defs = sum(body.startswith(definitions) for body in shown)
        # A call site is shown only once every definition site of that file is.
        if any(not body.startswith(definitions) for body in shown):
            assert n_defs == len(definitions), (path, shown)
        else:
            assert n_defs == len(shown)
        shown_somewhere += len(shown)
    assert 0 < shown_somewhere < sum(len(h) for h in files.values())


def test_rg_heading_groups_keep_exact_counts(counter):
    counts = {f"tornado/test/case_{i}_test.py": (i * 5) % 17 + 1 for i in range(20)}
    parts = []
    for path, count in counts.items():
        parts.append(path)
        parts += [f"{10 * j + 1}:    def test_{j}(self):" for j in range(count)]
        parts.append("")
    result = compress("\n".join(parts) + "\n", tool="Grep", budget=500, counter=counter)
    assert result.kind == "search"
    groups: dict[str, list[str]] = {}
    announced: dict[str, re.Match] = {}
    current = None
    for line in body_lines(result.text):
        m = HEADER.match(line)
        if m or line in counts:
            current = m["path"] if m else line
            groups[current] = []
            if m:
                announced[current] = m
        elif re.match(r"^\d+:", line):
            groups[current].append(line)
    for path, count in counts.items():
        if path in announced:
            assert num(announced[path]["total"]) == count
            assert num(announced[path]["shown"] or "0") == len(groups[path])
        else:
            assert len(groups.get(path, [])) == count, path
    m = re.search(r"([\d,]+) of ([\d,]+) matched lines omitted", result.text)
    shown = sum(len(g) for g in groups.values())
    assert (num(m[1]), num(m[2])) == (sum(counts.values()) - shown, sum(counts.values()))


def test_context_lines_do_not_count_as_matches(counter):
    rows = []
    matches = {f"lib/file_{f}.js": 0 for f in range(6)}
    for path in matches:
        for m in range(8):
            n = 20 * m + 10
            rows += [f"{path}-{n - 1}-  // before {LONG}", f"{path}:{n}:  handler(req, res);",
                     f"{path}-{n + 1}-  // after {LONG}", "--"]
            matches[path] += 1
    output = compress("\n".join(rows) + "\n", tool="Grep", budget=400, counter=counter).text
    headers = headers_in(output)
    assert {p: num(m["total"]) for p, m in headers.items()} == matches
    total = sum(matches.values())
    assert re.search(rf"[\d,]+ of {total:,} matched lines omitted", output)


# --------------------------------------------------------------------------- roll-up


def check_rolled_up(output: str, files: dict[str, int]) -> list[re.Match]:
    """Every entry is a file or a folder with counts, or a match the ladder pinned (the
    output's first, a definition site or a document's use, under its file's `showing`
    header); the counts add up; every file is under exactly one entry."""
    body = body_lines(output)
    matched = set(grep_n(make_files(files)).splitlines())
    shown = [line for line in body if line in matched]
    entries = [ROLLED.match(line) for line in body if line not in shown]
    assert all(entries), [line for line in body if line not in shown and not ROLLED.match(line)]
    whole = [line for line in shown if all(e["key"] != line.split(":")[0] for e in entries)]
    total = sum(files.values())
    assert sum(num(e["matches"]) for e in entries) + len(whole) == total
    whole_files = {line.split(":")[0] for line in whole}
    assert sum(num(e["files"] or "1") for e in entries) + len(whole_files) == len(files)
    for path in files:
        owners = [e for e in entries if e["key"] == path or e["key"] == "./"
                  or (e["key"].endswith("/") and path.startswith(e["key"]))]
        assert owners or any(line.startswith(path + ":") for line in whole), \
            f"{path} silently vanished"
    m = re.search(r"([\d,]+) of ([\d,]+) matched lines omitted \(([\d,]+) files in ([\d,]+) "
                  r"groups", output)
    assert m, output[-300:]
    assert (num(m[1]), num(m[2]), num(m[3]), num(m[4])) == (
        total - len(shown), total, len(files), len(entries) + len(whole_files))
    return entries


def test_directories_roll_up_with_counts_when_one_line_per_file_does_not_fit(counter):
    counts = {f"src/pkg_{d}/sub_{s}/module_{f}.py": (d + s + f) % 4 + 1
              for d in range(6) for s in range(3) for f in range(5)}
    files = make_files(counts)
    result = compress(grep_n(files), tool="Grep", budget=250, counter=counter)
    assert result.kind == "search"
    entries = check_rolled_up(result.text, counts)
    assert any(e["files"] for e in entries), "expected at least one folder roll-up"
    assert counter.count(result.text) <= 250


def test_mixed_depth_roll_up_accounts_for_every_file(counter):
    counts = {"README.md": 2, "setup.py": 3}
    counts.update({f"tests/unit/test_{i}.py": i % 5 + 1 for i in range(40)})
    counts.update({f"lib/core/part_{i}.py": 2 for i in range(30)})
    counts.update({f"./docs/page_{i}.rst": 1 for i in range(10)})
    result = compress(grep_n(make_files(counts)), tool="Grep", budget=200, counter=counter)
    check_rolled_up(result.text, counts)


def test_file_list_is_mapped_with_file_counts(counter):
    """A file list too long to print: every folder below what all paths share, with its exact
    file count (tests/test_path_map.py holds the map to real lists)."""
    paths = [f"src/pkg_{d}/sub_{s}/mod_{f}.py" for d in range(10) for s in range(4)
             for f in range(10)]
    result = compress("\n".join(paths) + "\n", tool="Glob", budget=200, counter=counter)
    assert result.kind == "search"
    body = body_lines(result.text)
    for d in range(10):
        assert f"src/pkg_{d}/ (40 files)" in body
    verbatim = [entry for entry in body if entry in paths]
    assert f"{len(paths) - len(verbatim):,} of {len(paths):,} paths omitted" in result.text


def test_absolute_paths_roll_up_under_folders_that_are_their_prefixes(counter):
    counts = {f"/usr/src/pkg_{d}/module_{f}.py": 3 for d in range(30) for f in range(5)}
    result = compress(grep_n(make_files(counts)), tool="Grep", budget=200, counter=counter)
    check_rolled_up(result.text, counts)


def test_windows_paths_roll_up_with_counts(counter):
    counts = {f"C:\\proj dir\\pkg_{d}\\module_{f}.py": 3 for d in range(30) for f in range(5)}
    result = compress(grep_n(make_files(counts)), tool="Grep", budget=200, counter=counter)
    # Folder names may be written with either separator; compare with '/'.
    check_rolled_up(result.text.replace("\\", "/"),
                    {path.replace("\\", "/"): n for path, n in counts.items()})


def test_crlf_heading_output_has_no_carriage_return_inside_a_line(counter):
    parts = []
    for f in range(6):
        parts.append(f"tornado/test/file_{f}_test.py")
        parts += [f"{30 * m + 7}:    def test_case_{m}(self):  # {LONG}" for m in range(8)]
        parts.append("")
    result = compress("\r\n".join(parts) + "\r\n", tool="Grep", budget=300, counter=counter)
    assert result.kind == "search"
    assert re.search(r"^tornado/test/file_0_test\.py \(8 matches", result.text, re.M)
    assert "\r" not in result.text.replace("\r\n", "\n"), "a CR inside a line"


# --------------------------------------------------------------------------- long lines


def test_minified_match_line_is_cut_and_says_how_much(counter):
    files = make_files({f"dist/app_{f}.min.js": 8 for f in range(3)})
    huge = "function(){return window.__x=1};" * 700
    files["dist/app_0.min.js"][2] = (99, huge)
    result = compress(grep_n(files), tool="Grep", budget=2000, counter=counter)
    original = f"dist/app_0.min.js:99:{huge}"
    [line] = [line for line in result.text.split("\n") if line.startswith("dist/app_0.min.js:99:")]
    m = re.fullmatch(r"(?P<kept>.*) …\[\+(?P<cut>[\d,]+) chars\]", line)
    assert m, line[-80:]
    assert original.startswith(m["kept"])
    assert len(m["kept"]) + num(m["cut"]) == len(original)
    assert len(line) < len(original) // 10
    assert counter.count(result.text) <= 2000


# --------------------------------------------------------------------------- real search outputs

SEARCH_CASES = ["grep-rn-express-req", "rg-context-tornado-io-loop", "rg-flood-black-def",
                "rg-heading-tornado-def-test", "rg-vimgrep-spaced-underscore-isobject"]


def count_matches(text: str, files: list[str]) -> dict[str, int]:
    """Matched lines per file, counted with the corpus's list of files (so paths with spaces,
    colons or parentheses are unambiguous): `path:NN:` rows, or `NN:` rows under an rg heading
    (or under headroom's `path (N matches, showing k)` header). Context rows (`path-NN-`, `NN-`)
    are not matches."""
    by_length = sorted(files, key=len, reverse=True)
    counts = dict.fromkeys(files, 0)
    heading = None
    for row in text.split("\n"):
        header = HEADER.match(row)
        if row in counts or header and header["path"] in counts:
            heading = header["path"] if header else row
            continue
        owner = next((f for f in by_length if row.startswith(f + ":")
                      and re.match(r"\d+:", row[len(f) + 1:])), None)
        if owner:
            counts[owner] += 1
        elif heading and re.match(r"\d+:", row):
            counts[heading] += 1
        elif not row.strip():
            heading = None
    return counts


@pytest.mark.parametrize("budget", [1000, 4000])
@pytest.mark.parametrize("case", SEARCH_CASES)
def test_real_search_output_accounts_for_every_file_and_match(corpus_dir, counter, case,
                                                               budget):
    import json

    meta = json.loads((corpus_dir / case / "meta.json").read_text())
    text = (corpus_dir / case / "output.txt").read_bytes().decode("utf-8", "surrogateescape")
    counts = count_matches(text, meta["files"])
    assert all(counts.values()), "the counting helper missed a file"
    total = sum(counts.values())
    result = compress(text, tool=meta["tool"], budget=budget, counter=counter)
    assert result.kind == "search"
    assert counter.count(result.text) <= budget
    out = body_lines(result.text)
    headers = {m["path"]: m for line in out if (m := HEADER.match(line))}
    folders = [m for line in out if (m := ROLLED.match(line)) and m["files"]]
    shown_counts = count_matches("\n".join(out), meta["files"])
    shown_total = 0
    # Named on a line of its own: a header, a file's own entry, or its matches shown.
    named = {line.rsplit(" (", 1)[0] for line in out} | {p for p, k in shown_counts.items() if k}
    for path, count in counts.items():
        if path in headers:  # named with its exact count
            assert shown_counts[path] == num(headers[path]["shown"] or "0"), path
            assert num(headers[path]["total"]) == count, path
            shown_total += num(headers[path]["shown"] or "0")
        elif any(path.startswith(f["key"]) or f["key"] == "./" for f in folders) \
                and path not in named:
            continue  # rolled up: the folder's counts are checked below
        else:  # all of its matches shown
            shown = shown_counts[path]
            assert shown == count, f"{path}: {shown} of {count} shown without a count"
            shown_total += shown
    for folder in folders:
        # "dir/ (N more files, …)" counts what is under dir and not named on a line of its own
        members = [p for p in counts if (folder["key"] == "./" or p.startswith(folder["key"]))
                   and not (folder["more"] and p in named)]
        assert num(folder["files"]) == len(members), folder["key"]
        assert num(folder["matches"]) == sum(counts[p] for p in members), folder["key"]
    m = re.search(r"([\d,]+) of ([\d,]+) matched lines omitted", result.text)
    assert m and num(m[2]) == total
    assert num(m[1]) == total - shown_total  # a roll-up shows definition sites too


def test_git_grep_over_a_tree_names_files_by_tree_and_path():
    """`git grep -n PATTERN HEAD` (real, cJSON): every line starts `HEAD:path:line:`. It is a
    search, each file named as git names it (`git show HEAD:cJSON.c` prints it); a vimgrep
    column (`a.py:12:34:`) is never taken for a tree."""
    from pathlib import Path

    from headroom_cli.plan import Lines
    from headroom_cli.planners.search.signals import parse
    from headroom_cli.sniff import sniff
    from headroom_cli.tools import lookup

    text = (Path(__file__).parent / "corpus" / "git-grep-cjson-parse" / "output.txt").read_text()
    rows = text.splitlines()
    assert sniff(Lines(text), lookup("Bash")) == "search"
    files = parse(rows).files
    expected = {":".join(row.split(":", 2)[:2]) for row in rows}
    assert set(files) == expected and "HEAD:cJSON.c" in files
    assert set(parse(["src/a.py:12:34:x = 1", "src/a.py:13:2:y = 2"]).files) == {"src/a.py"}
    assert set(parse(["a.py:12:34:x = 1"]).files) == {"a.py"}


def test_a_rolled_up_file_list_counts_only_the_paths_it_does_not_print():
    """`rg -l` (real, commander.js with node_modules): the paths printed on their own lines
    are the input's lines, so the marker's omitted count is the rest, exactly."""
    from pathlib import Path

    from headroom_cli.tokens import load_counter

    text = (Path(__file__).parent / "corpus" / "rg-l-commander-require-with-node-modules"
            / "output.txt").read_text()
    paths = set(text.splitlines())
    result = compress(text, tool="Bash", budget=1000, counter=load_counter("cl100k_base"))
    printed = [line for line in result.text.splitlines() if line in paths]
    assert printed
    omitted, total = re.search(r"([\d,]+) of ([\d,]+) paths omitted", result.text).groups()
    assert int(total.replace(",", "")) == len(paths)
    assert int(omitted.replace(",", "")) == len(paths) - len(printed)
