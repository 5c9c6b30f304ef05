"""The path map (planners/pathmap.py): every list of paths too long to print becomes a map of
its tree, expanded level by level with exact counts, the files a reader looks for first named.

Real outputs from tests/real/ (see its README); every expected figure is counted here from the
input itself.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import Phase, given, settings, strategies as st

from headroom_cli.api import compress
from conftest import GROWN_DIR, corpus_case

REAL = Path(__file__).parent / "real"
LISTS = ["git-ls-files-django-5.1.4-django.txt", "rg-l-import-django-5.1.4.txt",
         "tree-fi-django-5.1.4-db.txt", "find-type-f-npm-jest-eslint-scoped.txt"]
FOLDER = re.compile(r"^(?P<folder>.+/) \((?P<files>[\d,]+) files?\)$")
OWN = re.compile(r"^(?P<folder>.+/) \((?P<files>[\d,]+) more files? directly in it\)$")
REST = re.compile(r"^(?P<folder>.+/) \((?P<files>[\d,]+) more files? in "
                  r"(?P<folders>[\d,]+) more folders?\)$")
CLOSING = re.compile(r"\[…headroom: (?P<omitted>[\d,]+) of (?P<total>[\d,]+) paths omitted")


def num(text: str) -> int:
    return int(text.replace(",", ""))


def files_of(rows: list[str]) -> list[str]:
    """The rows that are files: a row that is another row's folder is a directory."""
    prefixes = set()
    for row in rows:
        parts = row.split("/")
        prefixes.update("/".join(parts[:i]) for i in range(1, len(parts)))
    return [row for row in rows if row not in prefixes]


def read(name: str) -> tuple[str, list[str]]:
    text = (REAL / name).read_text()
    rows = [row for row in text.split("\n") if row and not re.match(r"\d+ director", row)]
    return text, rows


def check_map(out: str, rows: list[str]) -> None:
    files = files_of(rows)
    body = [line for line in out.split("\n") if line and not line.startswith("[…headroom")]
    printed = [line for line in body if line in set(rows)]
    for line in body:
        if line in set(rows):
            continue
        m = OWN.match(line) or REST.match(line) or FOLDER.match(line)
        # The map calls the top of a list of relative paths `./`.
        folder = "" if not m or m["folder"] == "./" and rows[0][:2] != "./" else m["folder"]
        if m := OWN.match(line):
            own = [f for f in files if f.startswith(folder) and "/" not in f[len(folder):]]
            assert num(m["files"]) == len([f for f in own if f not in printed]), line
        elif m := REST.match(line):
            assert num(m["files"]) <= sum(1 for f in files if f.startswith(folder)), line
        elif m := FOLDER.match(line):
            assert num(m["files"]) == sum(1 for f in files if f.startswith(folder)), line
        elif not re.match(r"\d+ director", line):
            raise AssertionError(f"neither a path nor a folder line: {line!r}")
    closing = CLOSING.search(out)
    assert closing, out[-300:]
    assert num(closing["total"]) == len(rows)
    assert num(closing["omitted"]) == len(rows) - len(printed)


@pytest.mark.parametrize("budget", [500, 1000, 2000])
@pytest.mark.parametrize("name", LISTS)
def test_a_real_path_list_is_a_map_with_exact_counts(name, budget, counter):
    text, rows = read(name)
    result = compress(text, tool="Bash", budget=budget, counter=counter)
    if counter.count(text) <= budget:
        assert result.text == text
        return
    assert result.kind == "search"
    assert counter.count(result.text) <= budget
    assert counter.count(result.text) >= 0.85 * budget
    check_map(result.text, rows)


def depth_folders(rows: list[str], root: str) -> dict[int, set[str]]:
    found: dict[int, set[str]] = {}
    for row in files_of(rows):
        parts = row[len(root):].split("/")[:-1]
        for level in range(1, len(parts) + 1):
            found.setdefault(level, set()).add(root + "/".join(parts[:level]) + "/")
    return found


@pytest.mark.parametrize("name", LISTS)
def test_every_folder_of_a_level_is_named_before_any_deeper_one(name, counter):
    """A folder shown at some depth means every folder of the levels above it is shown too,
    or counted by a `(N more files in K more folders)` line of its parent, or all its files
    named."""
    text, rows = read(name)
    out = compress(text, tool="Bash", budget=1000, counter=counter).text
    shown = {m["folder"] for line in out.split("\n") if (m := FOLDER.match(line))}
    rested = {m["folder"] for line in out.split("\n") if (m := REST.match(line))}
    root = min(shown | rested, key=len)
    root = root[:root.rstrip("/").rfind("/") + 1]
    levels = depth_folders(rows, root)
    deepest = max(level for level, folders in levels.items() if folders & shown)
    assert deepest >= 2
    printed = set(out.split("\n"))
    for level in range(1, deepest):
        for folder in levels[level]:
            parent = folder[:folder.rstrip("/").rfind("/") + 1]
            inside = [row for row in files_of(rows) if row.startswith(folder)]
            named = all(row in printed for row in inside)  # (a folder of one file, or a few)
            assert folder in shown or parent in rested or named, folder


def test_no_shared_leading_folder_is_a_group_of_its_own(counter):
    text, rows = read("find-type-f-npm-jest-eslint-scoped.txt")
    out = compress(text, tool="Bash", budget=1000, counter=counter).text
    assert not re.search(r"^\./(?:node_modules/)? \(", out, re.M)
    scopes = {row.split("/")[2] for row in rows}
    for scope in scopes:  # the first level below what every path shares, each with its count
        assert re.search(rf"^\./node_modules/{re.escape(scope)}/ \([\d,]+ files?\)$", out, re.M)


def test_the_files_a_reader_looks_for_first_are_named_whatever_their_depth(counter):
    text, rows = read("git-ls-files-django-5.1.4-django.txt")
    out = compress(text, tool="Bash", budget=1000, counter=counter).text.split("\n")
    assert rows[0] in out and rows[-1] in out  # the first and the last path
    for path in ("django/__init__.py", "django/__main__.py", "django/core/wsgi.py"):
        assert path in out, path
    text, rows = read("find-type-f-npm-jest-eslint-scoped.txt")
    out = compress(text, tool="Bash", budget=1000, counter=counter).text.split("\n")
    manifests = [row for row in rows if row.endswith("/package.json")]
    assert sum(1 for row in manifests if row in out) >= 5


def test_the_narrowing_hint_names_a_folder_with_its_count(counter):
    text, rows = read("rg-l-import-django-5.1.4.txt")
    out = compress(text, tool="Grep", budget=1000, counter=counter).text
    m = re.search(r"only (?P<where>\S+/) \((?P<files>[\d,]+) files", out)
    assert m and num(m["files"]) == sum(1 for row in rows if row.startswith(m["where"]))


NAMES = st.sampled_from(["src", "lib", "tests", "docs", "pkg", "a", "b", "core", "util"])
FILES = st.sampled_from(["index.js", "main.py", "README.md", "x.c", "mod.rs", "package.json",
                         "util.go", "test_a.py", "conf.yaml"])


@settings(max_examples=25, deadline=None, phases=[Phase.explicit, Phase.generate])
@given(entries=st.lists(st.tuples(st.lists(NAMES, max_size=5), FILES), min_size=30,
                        max_size=300),
       lead=st.sampled_from(["", "./", "/usr/share/"]),
       budget=st.integers(min_value=150, max_value=900))
def test_any_path_list_fits_counts_exactly_and_repeats_itself(entries, lead, budget, counter):
    rows = list(dict.fromkeys(lead + "/".join([*folders, name]) for folders, name in entries))
    text = "\n".join(rows) + "\n"
    first = compress(text, tool="Glob", budget=budget, counter=counter)
    assert counter.count(first.text) <= budget
    assert compress(text, tool="Glob", budget=budget, counter=counter).text == first.text
    if first.clipped and first.kind == "search" and CLOSING.search(first.text):
        check_map(first.text, rows)


DRAWN_COUNT = re.compile(r"^(?P<row>.*\S)  \((?P<files>[\d,]+) files?\)$")


def _drawn_files(rows: list[str]) -> dict[str, int]:
    """Each folder row of a `tree` drawing and the files under it, counted from the drawing:
    a row is a folder when the next row is drawn deeper."""
    depth = [row.find("── ") for row in rows]
    files = {}
    for at, row in enumerate(rows):
        if depth[at] < 0 or at + 1 >= len(rows) or depth[at + 1] <= depth[at]:
            continue
        end = next((i for i in range(at + 1, len(rows)) if depth[i] <= depth[at]), len(rows))
        files[row] = sum(1 for i in range(at + 1, end)
                         if depth[i] >= 0 and (i + 1 >= end or depth[i + 1] <= depth[i]))
    return files


@pytest.mark.parametrize("budget", [500, 1000, 4000])
def test_a_drawn_tree_of_a_folder_is_mapped_by_its_own_rows(budget, counter):
    """`tree DIR` (real; tree 2.1 draws its guides with no-break spaces): sniffed as a tree,
    mapped with its rows as drawn (greppable as `├── widgets.py`), every counted folder's row
    with its exact count, the top level whole, its closing `N directories, M files` kept."""
    text = (REAL / "tree-django-5.1.4-contrib-admin.txt").read_text()
    rows = text.rstrip("\n").split("\n")
    result = compress(text, tool="Bash", budget=budget, counter=counter)
    assert result.kind == "tree"
    assert counter.count(result.text) <= budget
    out = result.text.split("\n")
    assert rows[-1] in out
    under = _drawn_files(rows)
    admin = "django/contrib/admin/"
    counted = 0
    for line in out:
        if (m := DRAWN_COUNT.match(line)) and m["row"] in under:
            assert num(m["files"]) == under[m["row"]], line
            counted += 1
        elif not line.startswith((admin, "[…headroom")) and line:
            assert line in rows, line  # every other line is the drawing's own
    assert counted
    top = [row for row in rows if row.startswith(("├── ", "└── "))]
    shown = {DRAWN_COUNT.match(line)["row"] if DRAWN_COUNT.match(line) else line
             for line in out}
    folders = [row for row in top if row in under]
    assert all(row in shown for row in folders), "every top-level folder is drawn"
    assert "├── __init__.py" in out and "└── widgets.py" in out


@pytest.mark.parametrize("budget", [500, 1000, 4000])
@pytest.mark.parametrize("name", LISTS)
def test_a_count_line_counts_a_file_not_named(name, budget, counter):
    """A folder's count line stands for files the map does not name: a folder all of whose
    files are printed has none (its names say it all)."""
    text, rows = read(name)
    out = compress(text, tool="Bash", budget=budget, counter=counter).text
    printed = set(out.split("\n"))
    files = files_of(rows)
    for line in printed:
        if m := FOLDER.match(line):
            inside = [row for row in files if row.startswith(m["folder"])]
            assert any(row not in printed for row in inside), line


DU = ["du-ah-pip-23.2.1-site-packages.txt", "du-a-hypothesis-6.170.17-site-packages.txt"]
SIZED_FOLDER = re.compile(r"^(?P<size>[^\t]+)\t(?P<folder>.+/) \((?P<files>[\d,]+) files?\)$")


@pytest.mark.parametrize("budget", [500, 1000, 2000])
@pytest.mark.parametrize("name", DU)
def test_du_a_is_a_map_whose_folders_keep_their_sizes(name, budget, counter):
    """`du -a` / `du -ah` (real, GNU du 9.1 in this venv's site-packages): its rows shown whole
    (the size in front of the path), every folder line with du's own size for it and its exact
    file count, its last row (the total) kept, the closing count exact."""
    text = (REAL / name).read_text()
    rows = [row for row in text.split("\n") if row]
    size_of = {row.split("\t", 1)[1]: row.split("\t", 1)[0] for row in rows}
    files = files_of(list(size_of))
    result = compress(text, tool="Bash", budget=budget, counter=counter)
    assert result.kind == "tree"
    assert counter.count(result.text) <= budget
    out = result.text.split("\n")
    assert rows[-1] in out  # the total
    body = [line for line in out if line and not line.startswith("[…headroom")]
    printed = [line for line in body if line in set(rows)]
    folders = 0
    for line in body:
        if line in set(rows):
            continue
        if m := SIZED_FOLDER.match(line):
            folders += 1
            assert size_of[m["folder"].rstrip("/")] == m["size"], line
            assert num(m["files"]) == sum(1 for f in files if f.startswith(m["folder"])), line
        elif m := OWN.match(line):
            own = [f for f in files if f.startswith(m["folder"]) and "/" not in
                   f[len(m["folder"]):] and f"{size_of[f]}\t{f}" not in printed]
            assert num(m["files"]) == len(own), line
        else:
            assert (m := REST.match(line)), line
            assert num(m["files"]) <= sum(1 for f in files if f.startswith(m["folder"])), line
    assert folders
    closing = CLOSING.search(result.text)
    assert num(closing["total"]) == len(rows)
    assert num(closing["omitted"]) == len(rows) - len(printed)


@pytest.mark.parametrize("budget", [500, 2000])
def test_du_opens_the_biggest_folders_first(budget, counter):
    """Where a level does not fit whole, the folders it shows are the biggest by du's size:
    none left in a `(N more files in K more folders)` line is bigger than one shown beside it."""
    text = (REAL / "du-ah-pip-23.2.1-site-packages.txt").read_text()
    rows = [row for row in text.split("\n") if row]
    size_of = {row.split("\t", 1)[1] + "/": row.split("\t", 1)[0] for row in rows}
    out = compress(text, tool="Bash", budget=budget, counter=counter).text.split("\n")
    rests = [m["folder"] for line in out if (m := REST.match(line))]
    assert rests
    scale = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30}

    def size(folder: str) -> float:
        text = size_of[folder]
        return float(text.rstrip("KMG")) * scale[text[-1] if text[-1] in "KMG" else ""]

    for parent in rests:
        children = {f for f in size_of if f.startswith(parent) and f.count("/") ==
                    parent.count("/") + 1}
        shown = {m["folder"] for line in out if (m := SIZED_FOLDER.match(line))} & children
        assert shown
        assert min(map(size, shown)) >= max(map(size, children - shown))


@pytest.mark.parametrize("budget", [500, 1000, 2000])
def test_du_sorted_by_size_shows_its_largest_rows_first_as_listed(budget, counter):
    """`du --inodes -d 3 /usr/share | sort -rn` (real): the order is the reader's question.
    Its first rows, the largest, open the clip as listed (a map would scatter them by path),
    and the map of the others follows with exact counts."""
    _, text = corpus_case(GROWN_DIR, "du-inodes-d3-usr-share-sort-rn-debian12")
    rows = [row for row in text.split("\n") if row]
    sizes = [int(row.split("\t")[0]) for row in rows]
    assert sizes == sorted(sizes, reverse=True)
    result = compress(text, tool="Bash", budget=budget, counter=counter)
    assert counter.count(result.text) <= budget
    out = result.text.split("\n")
    lead = 0
    while out[lead] == rows[lead]:
        lead += 1
    assert lead >= budget // 100  # the largest rows (~10 tokens each), not one or two
    assert any(FOLDER.match(line.split("\t")[-1]) for line in out[lead:])
    closing = CLOSING.search(result.text)
    assert num(closing["total"]) == len(rows)


def test_ls_r_is_a_map_of_whole_paths_with_exact_counts(counter):
    """`ls -R` (real, in this venv's site-packages): its `folder:` headers and bare names become
    the map of whole paths, every folder with its exact count of the files under it."""
    text = (REAL / "ls-R-pip-23.2.1-site-packages.txt").read_text()
    paths, folder = [], ""
    for row in text.split("\n"):
        if row.endswith(":"):
            folder = row[:-1]
        elif row:
            paths.append(f"{folder}/{row}")
    headers = {row[:-1] for row in text.split("\n") if row.endswith(":")}
    files = [p for p in paths if p not in headers]
    result = compress(text, tool="Bash", budget=1000, counter=counter)
    assert result.kind == "tree"
    assert counter.count(result.text) <= 1000
    body = [line for line in result.text.split("\n") if line and not line.startswith("[…headroom")]
    named = [line for line in body if line in set(files)]
    assert len(named) > 20
    for line in body:
        if line in set(files):
            continue
        if m := OWN.match(line):
            own = [f for f in files if f.startswith(m["folder"]) and "/" not in
                   f[len(m["folder"]):] and f not in named]
            assert num(m["files"]) == len(own), line
        elif m := REST.match(line):
            assert num(m["files"]) <= sum(1 for f in files if f.startswith(m["folder"])), line
        else:
            assert (m := FOLDER.match(line)), line
            assert num(m["files"]) == sum(1 for f in files if f.startswith(m["folder"])), line
    closing = CLOSING.search(result.text)
    assert closing and num(closing["omitted"]) == num(closing["total"]) - len(named)


def test_a_yaml_document_of_blank_line_separated_keys_is_not_an_ls_r(counter):
    """`key:` lines after blank lines are `ls -R`'s headers only when their folders lie in one
    another and no line under them is indented."""
    text = "".join(f"key{k}:\n  a: 1\n  b: 2\n  c: 3\n\n" for k in range(8))
    assert compress(text, tool="Bash", budget=60, counter=counter).kind != "tree"


@pytest.mark.parametrize("budget", [300, 500, 1000])
def test_a_folder_s_entry_module_is_named_before_its_other_files(budget, counter):
    """`find` lists a folder's files in directory order (pygments' `__init__.py` fifth): a
    folder any of whose own files the map names names its entry module among them."""
    text = (REAL / "find-type-f-pygments-2.21.0.txt").read_text()
    rows = text.rstrip("\n").split("\n")
    assert rows.index("pygments/__init__.py") > 0  # not first in the list
    out = compress(text, tool="Bash", budget=budget, counter=counter).text.split("\n")
    entries = [row for row in rows if row.endswith("/__init__.py")]
    asked = 0
    for entry in entries:
        folder = entry[:-len("__init__.py")]
        own = [row for row in rows if row.startswith(folder) and "/" not in row[len(folder):]]
        if any(row in out for row in own if row != entry):
            assert entry in out, entry
            asked += 1
    assert asked >= 2


def _fielded(text: str) -> dict[str, str]:
    """A list of fields and paths: each row by the path at its end (after a tab, or after the
    spaces that end its fields)."""
    rows = {}
    for row in text.rstrip("\n").split("\n"):
        path = row.split("\t")[-1] if "\t" in row else row.split()[-1]
        rows[path.lstrip("*")] = row
    return rows


def check_fielded_map(out: str, rows: dict[str, str]) -> list[str]:
    """Every line of a fielded list's clip is one of its rows, whole, or a folder's line whose
    count is the list's own; the closing note counts every row. The rows shown, in order."""
    shown = []
    body = [line for line in out.split("\n") if line and not line.startswith("[…headroom")]
    for line in body:
        if line in rows.values():
            shown.append(line)
            continue
        m = OWN.match(line) or REST.match(line) or FOLDER.match(line)
        assert m, f"neither a row nor a folder line: {line!r}"
        folder = "" if m["folder"] == "./" else m["folder"]  # (the map's name for the top)
        under = [path for path in rows if path.startswith(folder)]
        if FOLDER.match(line):
            assert num(m["files"]) == len(under), line
        else:
            assert num(m["files"]) <= len(under), line
    closing = CLOSING.search(out)
    assert closing and num(closing["total"]) == len(rows)
    return shown


@pytest.mark.parametrize("budget", [600, 1000])
def test_rows_with_fields_before_their_path_are_a_map_of_their_paths(budget, counter):
    """`sha256sum` (real, 80 files of hypothesis): a checksum, then a path. The map is of the
    paths: no folder is named by a checksum (`9f86d0…  hypothesis/`), each row named is shown
    whole, and every folder's count is the list's own."""
    text = (REAL / "sha256sum-hypothesis-6.170.17-py.txt").read_text()
    rows = _fielded(text)
    result = compress(text, tool="Bash", budget=budget, counter=counter)
    assert result.kind == "tree"
    assert counter.count(result.text) <= budget
    shown = check_fielded_map(result.text, rows)
    assert len(shown) > 5
    assert any(FOLDER.match(line) for line in result.text.split("\n"))


@pytest.mark.parametrize("budget", [1000, 2000])
def test_a_git_ls_files_s_shows_its_rare_modes_first_then_the_map(budget, counter):
    """`git ls-files -s` of nlohmann/json (real, 1,090 rows `mode object stage<TAB>path`): the
    few rows of a rare mode (`100755`: the tools that build the single header, and a PNG with
    the executable bit) open the clip as listed; the map names the manifests at the top."""
    _, text = corpus_case(GROWN_DIR, "git-ls-files-s-nlohmann-json-v3.11.3")
    rows = _fielded(text)
    executables = [row for row in rows.values() if row.startswith("100755 ")]
    assert 0 < len(executables) <= 0.01 * len(rows)
    manifests = [rows[path] for path in ("CMakeLists.txt", "meson.build", "Package.swift")]
    result = compress(text, tool="Bash", budget=budget, counter=counter)
    assert counter.count(result.text) <= budget
    shown = check_fielded_map(result.text, rows)
    opening = [line for line in result.text.split("\n")[:len(executables)]
               if line in executables]
    assert opening == executables[:len(opening)]  # as listed, from the top of the clip
    assert len(opening) >= min(len(executables), budget // 200)
    assert sum(row in shown for row in manifests) >= (1 if budget < 2000 else len(manifests))


@pytest.mark.parametrize("budget", [500, 1000])
def test_a_git_ls_tree_shows_its_one_link_its_submodule_and_its_largest_blobs(budget, counter):
    """`git ls-tree -r -l` of jq (real): among 409 `100644 blob` rows, the one symbolic link
    (`120000`) and the one submodule (`160000 commit`, size `-`) are shown, and the two
    largest blobs (its sizes weigh the map's files)."""
    _, text = corpus_case(GROWN_DIR, "git-ls-tree-r-l-jq-master")
    rows = _fielded(text)
    single = [row for row in rows.values()
              if sum(other.split()[0] == row.split()[0] for other in rows.values()) == 1]
    assert len(single) == 2
    sized = [row for row in rows.values() if row.split("\t")[0].split()[3] != "-"]
    largest = sorted(sized, key=lambda row: -int(row.split("\t")[0].split()[3]))[:2]
    result = compress(text, tool="Bash", budget=budget, counter=counter)
    assert counter.count(result.text) <= budget
    shown = check_fielded_map(result.text, rows)
    assert all(row in shown for row in single + largest)


@pytest.mark.parametrize("budget", [300, 600])
def test_wc_l_names_its_longest_files_and_keeps_its_total_last(budget, counter):
    """`wc -l` of rich's modules (real): a count, then a path, and wc's own `total` row. The
    longest files are named first and the total row, what the reader ran it for, is last."""
    text = (REAL / "wc-l-rich-15.0.0-py.txt").read_text()
    rows = _fielded(text)
    total = rows.pop("total")
    longest = sorted(rows.values(), key=lambda row: -int(row.split()[0]))[:3]
    result = compress(text, tool="Bash", budget=budget, counter=counter)
    assert counter.count(result.text) <= budget
    body = [line for line in result.text.split("\n")
            if line and not line.startswith("[…headroom")]
    assert body[-1] == total
    rows["total"] = total
    shown = check_fielded_map(result.text, rows)
    assert all(row in shown for row in longest)


@pytest.mark.parametrize("budget", [200, 300])
def test_numstat_names_the_files_most_changed_first(budget, counter):
    """`git diff --numstat` (real, express 4.21.2 to 5.0.0): lines added, lines deleted, the
    path. The files with the most lines changed, added and deleted together, are named."""
    text = (REAL / "git-diff-numstat-express-4.21.2-v5.0.0.txt").read_text()
    rows = _fielded(text)

    def changed(row: str) -> int:
        added, deleted, _ = row.split("\t")
        return int(added) + int(deleted)

    most = sorted(rows.values(), key=lambda row: -changed(row))[:3]
    result = compress(text, tool="Bash", budget=budget, counter=counter)
    assert result.kind == "tree"
    assert counter.count(result.text) <= budget
    shown = check_fielded_map(result.text, rows)
    assert all(row in shown for row in most)


@settings(max_examples=60, deadline=None, phases=[Phase.generate])
@given(rows=st.lists(st.tuples(st.integers(1, 10**6),
                               st.from_regex(r"[a-z]{2,12}", fullmatch=True)),
                     min_size=20, max_size=80))
def test_counted_words_are_no_path_list(rows, counter):
    """`sort | uniq -c` of words: a count, then a word that is no path. No map of folders."""
    text = "".join(f"{count:7d} {word}\n" for count, word in rows)
    result = compress(text, tool="Bash", budget=100, counter=counter)
    assert result.kind != "tree"


def _vite_ls_files() -> str:
    from conftest import GROWN_DIR
    return (GROWN_DIR / "git-ls-files-vite-monorepo" / "output.txt").read_text()


@pytest.mark.parametrize("budget", [1000, 2000])
def test_git_s_quoted_paths_are_counted_in_their_folders(budget, counter):
    """`git ls-files` quotes a path with a space or a byte past ASCII; the list is still a
    list of paths, and a quoted path counts in its folder (no `"playground/` group)."""
    text = _vite_ls_files()
    rows = text.splitlines()
    quoted = [row for row in rows if row.startswith('"')]
    assert quoted  # the real output holds some
    result = compress(text, budget=budget, counter=counter)
    assert result.kind == "search" and CLOSING.search(result.text)
    assert not any(line.startswith('"') and FOLDER.match(line)
                   for line in result.text.split("\n"))
    m = re.search(r"^playground/ \(([\d,]+) files\)$", result.text, re.M)
    assert m and num(m[1]) == sum(1 for row in rows if row.strip('"').startswith("playground/"))


@pytest.mark.parametrize("budget", [500, 1000])
def test_the_biggest_folders_manifests_are_named_before_a_fixture_s(budget, counter):
    """Of the files a reader looks for, those of the folders holding the most files come
    first: the main package's manifest before the test fixtures' at the same depth."""
    text = _vite_ls_files()
    out = compress(text, budget=budget, counter=counter).text.split("\n")
    assert "packages/vite/package.json" in out
    fixtures = [row for row in text.splitlines()
                if row.startswith("playground/") and row.endswith("/package.json")]
    assert len(fixtures) > 50 and not set(fixtures) <= set(out)


@pytest.mark.parametrize("budget", [300, 500])
def test_a_list_that_ends_with_its_folder_keeps_that_row_last(budget, counter):
    """`find -depth` lists a folder after its contents: the list's last path is the folder
    itself, which no file line of the map stands for; it is kept, last."""
    text = (REAL / "find-depth-sphinx-8.1.3-locale.txt").read_text()
    last = text.splitlines()[-1]
    body = [line for line in compress(text, budget=budget, counter=counter).text.split("\n")
            if line and not line.startswith("[…headroom")]
    assert body[-1] == last and body.count(last) == 1


@pytest.mark.parametrize("budget", [500, 700])
def test_the_project_s_own_files_are_named_before_built_or_vendored_ones(budget, counter):
    """`ls -R pip`: while folders of pip's own still count files they do not name, no file
    of `__pycache__/` or `_vendor/` is named but the list's last path."""
    text = (REAL / "ls-R-pip-23.2.1-site-packages.txt").read_text()
    last = text.splitlines()[-1]  # (ls -R names it bare: the map names it in full)
    out = [line for line in compress(text, budget=budget, counter=counter).text.split("\n")
           if not line.endswith("/" + last)]
    own_counted = [line for line in out if (m := OWN.match(line) or REST.match(line)
                                            or FOLDER.match(line))
                   and not re.search(r"__pycache__|_vendor", m["folder"])]
    built_named = [line for line in out if re.search(r"__pycache__/.|_vendor/.", line)
                   and not line.endswith(")")]
    assert own_counted and not built_named


def _folder_sizes(rows: list[str]) -> dict[str, int]:
    """Every folder of a path list with the files under it, counted from the list."""
    sizes: dict[str, int] = {}
    for row in rows:
        parts = row.split("/")
        for depth in range(1, len(parts)):
            folder = "/".join(parts[:depth])
            sizes[folder] = sizes.get(folder, 0) + 1
    return sizes


@pytest.mark.parametrize("budget", [500, 1000])
def test_a_package_s_namesake_module_is_named_whatever_its_depth(budget, counter):
    """`find -type f` of the sympy sdist (1,982 files): the module named after the package
    that holds it (`sympy/solvers/solvers.py`, where solve() lives) is named even where its
    folder is only counted, those of the biggest packages first."""
    _, raw = corpus_case(GROWN_DIR, "find-type-f-sympy-1.13.3-sdist")
    rows = raw.splitlines()
    sizes = _folder_sizes(rows)
    namesakes = sorted((row for row in rows if len(row.split("/")) > 2
                        and row.split("/")[-1].partition(".")[0] == row.split("/")[-2]
                        and "/tests/" not in row), key=lambda row: -sizes[row.rsplit("/", 1)[0]])
    assert len(namesakes) > 10
    out = compress(raw, tool="Bash", budget=budget, counter=counter).text.split("\n")
    assert set(namesakes[:5]) <= set(out)
    assert "./sympy/solvers/solvers.py" in out


@pytest.mark.parametrize("budget", [500, 1000])
def test_a_vendored_package_s_manifest_is_named_but_not_its_modules(budget, counter):
    """`rg -l require` in a project with its node_modules: each package's package.json
    says what was vendored and at which version; named after the project's own files, while
    the vendored modules stay counted."""
    _, raw = corpus_case(GROWN_DIR, "rg-l-commander-require-with-node-modules")
    rows = raw.splitlines()
    manifests = [row for row in rows if re.fullmatch(r"node_modules/[^/]+/package\.json", row)]
    assert len(manifests) >= 5
    out = compress(raw, tool="Bash", budget=budget, counter=counter).text.split("\n")
    assert set(manifests) <= set(out)
    own = [row for row in rows if not row.startswith("node_modules/")]
    assert set(own) <= set(out)


@pytest.mark.parametrize("budget", [300, 500, 1000])
def test_a_find_that_says_permission_denied_is_still_mapped(budget, counter):
    """`find /etc -type f 2>&1` run as nobody (real): two of its 295 rows are find's own
    messages (`find: ‘/etc/ssl/private’: Permission denied`). The list is still mapped, folders
    with their counts, and find's messages are shown as a search's own."""
    text = (REAL / "find-type-f-etc-as-nobody-debian12.txt").read_text()
    rows = text.rstrip("\n").split("\n")
    messages = [row for row in rows if row.startswith("find: ")]
    assert len(messages) == 2
    result = compress(text, tool="Bash", budget=budget, counter=counter)
    out = result.text.split("\n")
    assert result.kind == "search"
    assert any(FOLDER.match(row) for row in out)
    assert all(message in out for message in messages)
    assert counter.count(result.text) <= budget


def test_a_path_whose_name_reads_as_fields_does_not_unmake_the_list(counter):
    """`find /usr/share/cmake-3.25/Help -type f` (real, 1,964 paths): `Visual Studio 7 .NET
    2003.rst` reads as words apart, not a path, but its folder is one the other paths name.
    One such row does not turn the list into head and tail: it is mapped."""
    text = (REAL / "find-type-f-cmake-3.25-help.txt").read_text()
    rows = text.rstrip("\n").split("\n")
    assert any(".NET 2003.rst" in row for row in rows)
    result = compress(text, tool="Bash", budget=500, counter=counter)
    assert result.kind == "search"
    folders = [FOLDER.match(row) for row in result.text.split("\n") if FOLDER.match(row)]
    assert len(folders) >= 5
    for match in folders:  # each count is the list's own
        assert num(match["files"]) == sum(row.startswith(match["folder"]) for row in rows)


def test_a_bigger_budget_names_every_path_a_smaller_one_named(counter):
    """`rg -l -t py '^\\s*(from|import) distutils\\b' */lib/python*/site-packages` over five
    pyenv interpreters (real, 562 paths): past the budget where a good share of the paths could
    be named, the map opened fewer folders than at a smaller budget, and its files named in
    turn came from a few big folders' queues: at 4000 tokens it lost libcst's `tool.py` and
    cffi's `_shimmed_dist_utils.py`, named at 2000. The levels' room never shrinks as the
    budget grows, and every path named at a budget is named at the next."""
    text = (REAL / "rg-l-distutils-imports-pyenv-site-packages.txt").read_text()
    rows = set(text.rstrip("\n").split("\n"))
    named_before: set[str] = set()
    for budget in (500, 1000, 2000, 3000, 4000, 6000):
        out = compress(text, tool="Bash", budget=budget, counter=counter).text
        named = {row for row in out.split("\n") if row in rows}
        assert named_before <= named, (budget, sorted(named_before - named)[:3])
        named_before = named


def test_rows_of_many_fields_and_no_path_are_refused_at_once(counter):
    """A row of 60 fields that ends in a tab, no path: each field reads as a digest or as a
    number, and a repeat that could give fields back would try every way of reading them (2⁶⁰)
    before refusing the row. It is refused at once (this test would not end otherwise)."""
    text = ("1234567 " * 60 + "\t\n") * 30
    result = compress(text, tool="Bash", budget=200, counter=counter)
    assert result.kind != "tree"
    assert counter.count(result.text) <= 200
