"""The diff planner on real diffs: `git show`, `git diff` (renames, mode changes, binary files,
new and deleted files), `diff -u` and `diff -ru` of stdlib versions, a 77-file refactor, and
`git diff 8.2.0 8.2.1` of pallets/click (git 2.39: 43 files, CI config and docs first, source
in the middle, uv.lock last).

Expected figures come from the inputs themselves, counted here the plain way: a file starts at
its `diff` (or `--- `/`+++ ` pair, or `Only in`) line, a hunk at its `@@` line, and a body line
counts by its first character. Byte-for-byte outputs are the golden cases
(tests/cases/diff-*, run by test_golden.py).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import GROWN_DIR
from headroom_cli.api import compress
from headroom_cli.planners import diff
from headroom_cli.tools import lookup

CASES = Path(__file__).parent / "cases"
SHOW = (CASES / "diff-git-show-requests" / "input").read_text()
GIT_DIFF = (CASES / "diff-git-diff-requests" / "input").read_text()
MANY = (CASES / "diff-git-many-files-rich" / "input").read_text()
UNIFIED = (CASES / "diff-u-shutil" / "input").read_text()
RECURSIVE = (CASES / "diff-ru-json" / "input").read_text()
RELEASE = (CASES / "diff-git-release-click-4000" / "input").read_text()
ALL = [SHOW, GIT_DIFF, MANY, UNIFIED, RECURSIVE]
MINUS = "\u2212"


def files_of(text: str) -> list[dict]:
    """Per file: its first line, path, hunks, +/- counts: one pass over the lines."""
    files: list[dict] = []
    rows = text.splitlines()
    for index, row in enumerate(rows):
        starts = row.startswith(("diff ", "Only in ")) or (
            row.startswith("--- ") and index + 1 < len(rows) and rows[index + 1].startswith("+++ ")
            and not (files and files[-1]["first"].startswith("diff ") and not files[-1]["hunks"]))
        if starts:
            files.append({"first": row, "hunks": 0, "added": 0, "removed": 0})
        elif row.startswith("@@"):
            files[-1]["hunks"] += 1
        elif files and files[-1]["hunks"] and row[:1] in "+-":
            files[-1]["added" if row[0] == "+" else "removed"] += 1
    return files


def counts(added: int, removed: int) -> str:
    return f"+{added:,} {MINUS}{removed:,}"


def clip(text: str, budget: int, counter, tool: str = "Bash"):
    result = compress(text, tool=tool, budget=budget, counter=counter)
    assert counter.count(result.text) <= budget
    return result


_FILE_NOTE = re.compile(r"\S+ \((?:[^()]|\([^()]*\))*\)")


def verbatim_lines(output: str) -> list[str]:
    """Output lines that claim to be input lines: no markers, no per-file summaries, the
    counts after a file's first line stripped."""
    out = []
    for line in output.splitlines():
        if line.startswith("[…") or _FILE_NOTE.fullmatch(line) and not line.startswith(
                ("diff ", "--- ", "+++ ", "+", "-", " ", "@@", "\\")):
            continue  # a file named by the planner: `path (+N −M, K hunks)`
        if line.startswith(("diff ", "--- ", "+++ ")):
            line = re.sub(r"  \((?:[^()]|\([^()]*\))*\)$", "", line)
        out.append(line)
    return out


def kept_rows(output: str, text: str) -> list[int]:
    """Input line indexes of the output's verbatim lines, matched in order; fails when a line
    is not in the input at or after the previous one."""
    rows = text.splitlines()
    found, cursor = [], 0
    for line in verbatim_lines(output):
        while cursor < len(rows) and rows[cursor] != line:
            cursor += 1
        assert cursor < len(rows), f"not in the input, in order: {line!r}"
        found.append(cursor)
        cursor += 1
    return found


def hunk_bodies(text: str) -> list[tuple[int, int]]:
    """(first, end) line indexes of every hunk body: the lines after `@@` that start with a
    space, +, - or backslash."""
    rows = text.splitlines()
    bodies = []
    for index, row in enumerate(rows):
        if row.startswith("@@"):
            end = index + 1
            while end < len(rows) and rows[end][:1] in (" ", "+", "-", "\\") and not (
                    rows[end].startswith(("--- ", "+++ ")) and end + 1 < len(rows)
                    and rows[end + 1].startswith(("+++ ", "@@"))):
                end += 1
            bodies.append((index + 1, end))
    return bodies


@pytest.mark.parametrize("text", ALL, ids=["show", "diff", "many", "diff-u", "diff-ru"])
def test_real_diffs_are_sniffed_as_diffs(text, counter):
    assert diff.looks_like(text.splitlines(), lookup("Bash"))
    assert clip(text, 1000, counter).kind == "diff"


def details(f: dict, text: str) -> str:
    """What the map says after a file's first line, counted here from the input."""
    return f"{counts(f['added'], f['removed'])}, {f['hunks']:,} hunk" + "s" * (f["hunks"] != 1)


def test_every_file_is_named_by_its_own_first_line_with_its_counts(counter):
    for text, budget in ((SHOW, 1000), (GIT_DIFF, 1000), (RELEASE, 4000)):
        out = clip(text, budget, counter).text.splitlines()
        for f in files_of(text):
            if f["hunks"]:
                assert any(line.startswith(f"{f['first']}  ({details(f, text)}") for line in out)


def test_a_shown_file_shows_every_hunk_header_and_commit_headers_stay(counter):
    result = clip(SHOW, 1000, counter)
    rows = SHOW.splitlines()
    kept = set(kept_rows(result.text, SHOW))
    starts = [i for i, row in enumerate(rows) if row.startswith("diff ")] + [len(rows)]
    shown = 0
    signature = re.compile(r"[+-]\s*(?:async\s+)?(?:def|class)\b|[+-].*__version__\s*=")
    for start, end in zip(starts, starts[1:]):
        headers = [i for i in range(start, end) if rows[i].startswith("@@")]
        # a file shows every hunk header or none, but for the hunks whose changed signature
        # (or version) is shown when not all of its headers fit: those come with their own
        heads = [i for i in headers if i in kept]
        if heads and len(heads) < len(headers):
            for i in heads:
                body = range(i + 1, next((h for h in headers if h > i), end))
                assert any(j in kept and signature.match(rows[j]) for j in body)
        shown += all(i in kept for i in headers)
    assert shown
    # git show's commit header: everything before the first file, verbatim.
    header = SHOW.split("\ndiff --git", 1)[0]
    assert result.text.startswith(header + "\n")


def test_source_hunks_come_before_ci_config_docs_and_lock_files(counter):
    """A release's diff (CI workflows and docs first in input order, uv.lock last): every
    source hunk is shown before any CI, docs or lock file body is."""
    rows = RELEASE.splitlines()
    for budget in (1000, 4000):
        kept = set(kept_rows(clip(RELEASE, budget, counter).text, RELEASE))
        files = [(i, row.split(" b/", 1)[1]) for i, row in enumerate(rows)
                 if row.startswith("diff --git ")] + [(len(rows), "")]
        hunks = {path: [i for i in range(start, end) if rows[i].startswith("@@")]
                 for (start, path), (end, _) in zip(files, files[1:])}
        source = [i for path, at in hunks.items() if path.startswith("src/") for i in at]
        low = [i for path, at in hunks.items()
               if path.startswith((".github/", "docs/", "uv.lock")) for i in at]
        assert source
        if budget == 4000:
            assert all(i in kept and i + 1 in kept for i in source)
        if any(i + 1 in kept for i in low):
            assert all(i in kept for i in source)
        assert not any(i + 1 in kept for i in low) or budget == 4000


def test_what_is_kept_is_verbatim_and_in_input_order(counter):
    for text, budget in ((SHOW, 1000), (GIT_DIFF, 2000), (UNIFIED, 1000)):
        assert kept_rows(clip(text, budget, counter).text, text)


def test_each_omitted_body_is_a_gap_with_its_line_counts(counter):
    result = clip(GIT_DIFF, 1500, counter)
    rows = GIT_DIFF.splitlines()
    gaps = re.findall(rf"\[… lines ([\d,]+)–([\d,]+) omitted \([\d,]+ lines; \+([\d,]+) {MINUS}"
                      rf"([\d,]+)\) …\]", result.text)
    assert gaps
    for first, last, added, removed in gaps:
        body = rows[int(first.replace(",", "")) - 1:int(last.replace(",", ""))]
        assert int(added) == sum(1 for row in body if row.startswith("+"))
        assert int(removed) == sum(1 for row in body if row.startswith("-"))
        assert all(row[:1] in " +-\\" for row in body), "a gap lies inside one hunk body"


def test_a_map_over_its_share_names_the_files_it_shows_and_counts_the_rest_by_folder(counter):
    """At 1000 tokens click's release (43 files) has no room for every file's own first line
    and its hunks: the files whose hunks are shown are named by their own first lines, the
    others are counted in their folders' lines, and every hunk header shown is under a file
    named."""
    result = clip(RELEASE, 1000, counter)
    out = result.text.splitlines()
    rows = RELEASE.splitlines()
    kept = set(kept_rows(result.text, RELEASE))
    starts = [i for i, row in enumerate(rows) if row.startswith("diff --git ")] + [len(rows)]
    shown = [(s, e) for s, e in zip(starts, starts[1:])
             if any(rows[i].startswith("@@") and i in kept for i in range(s, e))]
    assert shown
    assert all(s in kept for s, _ in shown), "a file whose hunks are shown is named"
    assert len([i for i in starts[:-1] if i in kept]) < len(starts) - 1
    assert any(re.match(r"\S+/ \([\d,]+ files?, \+", line) for line in out), "a folder's line"


def test_when_headers_do_not_fit_every_file_is_still_counted(counter):
    result = clip(MANY, 1000, counter)
    files = files_of(MANY)
    # A file by its own first line (`diff --git a/x b/x  (counts)`), a folder by its path.
    listed = re.findall(rf"^(?:diff --git a/\S+ b/)?(\S+) +\((?:([\d,]+) (?:more )?files?, )?"
                        rf"\+([\d,]+) {MINUS}([\d,]+), ([\d,]+) hunks?\)$", result.text, re.M)
    assert listed
    number = lambda s: int(s.replace(",", ""))  # noqa: E731
    assert sum(number(n) if n else 1 for _, n, *_ in listed) == len(files)
    assert sum(number(a) for *_, a, _, _ in listed) == sum(f["added"] for f in files)
    assert sum(number(r) for *_, r, _ in listed) == sum(f["removed"] for f in files)
    assert sum(number(h) for *_, h in listed) == sum(f["hunks"] for f in files)
    for path, n, added, removed, hunks in listed:
        if not n:  # a single file: its own counts
            f = next(f for f in files if f["first"].endswith(f" b/{path}"))
            assert (f["added"], f["removed"], f["hunks"]) == (number(added), number(removed),
                                                              number(hunks))


def test_the_tools_own_lines_fill_what_the_file_lines_leave(counter):
    """black --check --diff at 500 tokens: one line per file leaves room, and the tool's own
    "would reformat" lines (past the context share) fill it rather than being dropped."""
    text = (Path(__file__).parent / "corpus" / "black-check-diff-humanize-l60"
            / "output.txt").read_text()
    result = clip(text, 500, counter)
    verdicts = [row for row in text.splitlines() if row.startswith("would reformat ")]
    assert len(verdicts) == 7
    assert all(row in result.text.splitlines() for row in verdicts)
    assert 0.9 * 500 <= counter.count(result.text) <= 500


def test_diff_r_only_in_lines_and_every_file_are_accounted_for(counter):
    result = clip(RECURSIVE, 800, counter)
    only = [row for row in RECURSIVE.splitlines() if row.startswith("Only in ")]
    files = files_of(RECURSIVE)
    assert only and len(files) > len(only)
    counted = 0
    for line in result.text.splitlines():
        if line.startswith("[…") or not line.endswith(")"):
            continue
        if group := re.match(r"\S+ \(([\d,]+) (?:more )?files?", line):
            counted += int(group[1].replace(",", ""))
        elif re.match(r"(?:diff -\S+ \S+ \S+|Only in .+?: .+?|\S+) +\(", line):
            counted += 1  # a file by its own first line
    assert counted == len(files)


def test_a_file_only_in_one_tree_says_which(counter):
    """`diff -ru` of Python 3.8's and 3.12's json package: each `Only in DIR: NAME` file listed
    says the tree DIR is in, told by where the compared paths part ways."""
    result = clip(RECURSIVE, 800, counter)
    only = re.findall(r"^Only in (.+?): (.+)$", RECURSIVE, re.M)
    side = {f"{folder}/{name}": "new" if "/3.12.1/" in folder else "old" for folder, name in only}
    assert set(side.values()) == {"old", "new"}
    listed = re.findall(r"^Only in (.+?): (.+?)  \(only in the (old|new) tree\)$", result.text,
                        re.M)
    assert listed
    assert all(side[f"{folder}/{name}"] == tree for folder, name, tree in listed)


def test_a_log_that_quotes_a_diff_is_not_a_diff(corpus_dir):
    log = (corpus_dir / "pip-install-v-build-failure-cchardet" / "output.txt").read_text()
    rows = log.splitlines()
    quoted = rows[:40] + GIT_DIFF.splitlines()[:60] + rows[40:]
    assert not diff.looks_like(quoted, lookup("Bash"))


def test_prose_logs_and_search_results_are_not_diffs(corpus_dir):
    for page in ("README.md", "docs/shapes.md", "docs/agents/claude.md"):  # prose, tables, code
        prose = (Path(__file__).parents[1] / page).read_text()
        assert not diff.looks_like(prose.splitlines(), lookup("Read")), page
    for case in ("grep-rn-express-req", "make-lua-link-error", "tox-unittest-more-itertools-failures"):
        text = (corpus_dir / case / "output.txt").read_text(errors="replace")
        assert not diff.looks_like(text.splitlines(), lookup("Bash")), case


def test_a_hunk_body_is_bounded_by_its_line_counts():
    # A removed line reading `-- x` shows as `--- x`: it stays body, not a new file header.
    rows = ["--- a/x.sql", "+++ b/x.sql", "@@ -1,2 +1,1 @@", "--- comment", " select 1;",
            "--- a/y.sql", "+++ b/y.sql", "@@ -1 +1 @@", "-a", "+b"]
    parsed = diff.parse(rows)
    assert [f.path for f in parsed.files] == ["x.sql", "y.sql"]
    assert [(f.added, f.removed) for f in parsed.files] == [(0, 1), (1, 1)]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(which=st.sampled_from(range(len(ALL))), start=st.integers(0, 300),
       length=st.integers(20, 1400), budget=st.integers(120, 3000))
def test_any_slice_of_a_real_diff_fits_its_budget_and_clips_the_same_twice(
        counter, which, start, length, budget):
    rows = ALL[which].splitlines(keepends=True)
    text = "".join(rows[start:start + length])
    first = compress(text, tool="Bash", budget=budget, counter=counter)
    assert counter.count(first.text) <= budget
    assert compress(text, tool="Bash", budget=budget, counter=counter) == first


HISTORY = (Path(__file__).parent / "corpus" / "git-log-p-markupsafe-2.1.5-3.0.0"
           / "output.txt").read_text()


@pytest.mark.parametrize("budget", [1000, 2000, 4000])
def test_a_history_with_patches_keeps_its_subjects_before_its_other_lines(budget, counter):
    """`git log -p` (real, 230 commits) over budget: the first commit's line and the commits'
    subjects (each message's first line) come before their Author/Date lines, in order — the
    subjects people wrote before those of bots (`Author: …[bot]`) and merges (`Merge: a b`)."""
    rows = HISTORY.splitlines()
    commits = [i for i, row in enumerate(rows) if row.startswith("commit ")]
    firsts = [next(j for j in range(i + 1, i + 8) if rows[j].startswith("    "))
              for i in commits]
    subjects = [rows[j] for j in firsts]
    routine = {rows[j] for i, j in zip(commits, firsts)
               if any(row.startswith("Merge: ") or row.startswith("Author: ") and "[bot]" in row
                      for row in rows[i + 1:j])}
    people = [subject for subject in dict.fromkeys(subjects) if subject not in routine]
    out = clip(HISTORY, budget, counter).text
    assert counter.count(out) <= budget
    assert rows[commits[0]] in out.splitlines()
    shown = [line for line in out.splitlines() if line in set(subjects)]
    # People's subjects: a prefix of the history's; a bot's or a merge's only after all of them.
    by_people = [line for line in shown if line in set(people)]
    assert by_people and set(people[:len(set(by_people))]) == set(by_people)
    if set(shown) & routine - set(people):
        assert set(people) <= set(shown)
    # More subjects than Author lines.
    assert len(shown) > sum(line.startswith("Author: ") for line in out.splitlines())
    assert len(shown) >= len(commits) * budget // 16_000


RELEASE_RU = (Path(__file__).parent / "corpus" / "diff-ru-click-8.1.7-8.1.8"
              / "output.txt").read_text()


@pytest.mark.parametrize("budget", [2000, 4000])
def test_the_smallest_source_change_is_shown_before_docs_and_requirements(budget, counter):
    """`diff -ru` of two click releases (real): its docs, requirements and CI come first in
    input order; the source file with the smallest change (the version bump) shows every line
    of it, though the docs' bodies do not all fit."""
    rows = RELEASE_RU.splitlines()
    source = [f for f in files_of(RELEASE_RU) if "/src/" in f["first"] and f["hunks"]]
    smallest = min(source, key=lambda f: (f["added"] + f["removed"], rows.index(f["first"])))
    start = rows.index(smallest["first"])
    end = next(i for i in range(start + 1, len(rows)) if rows[i].startswith(("diff ", "Only in")))
    changed = [row for row in rows[start:end] if row[:1] in "+-" and row[:3] not in ("+++", "---")]
    out = clip(RELEASE_RU, budget, counter).text
    assert counter.count(out) <= budget
    assert changed and all(row in out.splitlines() for row in changed)
    docs = [row.split()[-1] for row in rows if row.startswith("diff -ru click-8.1.7/docs/")]
    assert docs and all(named_or_counted(path, out) for path in docs)


def named_or_counted(path: str, out: str) -> bool:
    """A file is named (its path ends a `diff` line) or counted in a line of a folder above it
    (`dir/ (N files, …)`)."""
    lines = out.splitlines()
    folders = [path[:i + 1] for i, c in enumerate(path) if c == "/"]
    return any(line.startswith("diff ") and (f" {path}  (" in line or f" b/{path}  (" in line)
               for line in lines) or any(
        line.startswith(f"{folder} (") for folder in folders for line in lines)


def test_a_file_only_in_one_tree_keeps_its_own_line_with_its_tree(counter):
    """`diff -ru` of click 8.1.7 and 8.1.8 (real, tests/corpus) and of packaging 24.0 and 24.2
    (PyPI; GNU diffutils 3.8; tests/outputs): too many files for every file's own first line,
    but the files without hunks are named first (their names are all they say):
    a file only in one tree keeps the line the tool printed (`Only in click-8.1.8:
    pyproject.toml`: greppable) and the tree it is in after it, or is counted in its folder's
    line."""
    for text, budget in (((GROWN_DIR / "diff-ru-click-8.1.7-8.1.8" / "output.txt").read_text(),
                          2000),
                         ((Path(__file__).parent / "outputs" / "diff-ru-packaging-24.0-24.2.txt")
                          .read_text(), 1000)):
        out = clip(text, budget, counter).text
        only = re.findall(r"^Only in (.+?): (.+)$", text, re.M)
        assert len(only) >= 3
        named = [(folder, name) for folder, name in only if re.search(
            rf"^Only in {re.escape(folder)}: {re.escape(name)}  \(only in the (?:old|new) tree\)$",
            out, re.M)]
        assert named
        assert all((folder, name) in named or named_or_counted(f"{folder}/{name}", out)
                   for folder, name in only)


def test_a_historys_subjects_by_people_come_before_bots_merges_and_repeats(counter):
    """`git log -p 2.1.5..3.0.0` of markupsafe (real, tests/corpus): of its 105 commits,
    dependabot's and pre-commit-ci's (`Author: …[bot]`), the merges (`Merge: a b`) and the
    squashed requests that repeat a subject (`X (#464)` after `X`) say least. At 1000 tokens the
    subjects a person wrote fit before them: the rewrite of the speedups and the deprecation."""
    text = (GROWN_DIR / "git-log-p-markupsafe-2.1.5-3.0.0" / "output.txt").read_text()
    out = clip(text, 1000, counter).text
    rows = out.splitlines()
    assert "    simplify speedups implementation" in rows
    assert "    deprecate __version__ attribute" in rows
    assert "    drop support for python 3.8" in rows
    bot = [row for row in rows if row.startswith("    Bump the ")]
    assert len(bot) < 3


def corpus_output(name: str) -> str:
    return (GROWN_DIR / name / "output.txt").read_text()


def test_a_word_diff_is_a_diff_whose_hunks_run_to_the_next_hunk(counter):
    """`git diff --word-diff v13.8.1 v13.9.0` of rich (real, tests/corpus): its hunks carry
    `[-old-]{+new+}` inside lines and no +/- column, so their line counts run out nowhere. Each
    hunk runs to the next hunk or file: no line is left over as the output's own, it is sniffed
    as a diff, and the release notes' new heading is kept at 1000 tokens."""
    text = corpus_output("git-diff-word-diff-rich-13.8.1-13.9.0")
    rows = text.splitlines()
    parsed = diff.parse(rows)
    assert parsed.strays == 0
    assert len(parsed.files) == sum(row.startswith("diff --git ") for row in rows)
    assert sum(len(f.hunks) for f in parsed.files) == sum(row.startswith("@@") for row in rows)
    result = clip(text, 1000, counter)
    assert result.kind == "diff"
    assert "{+## [13.9.0] - 2024-10-01+}" in result.text.splitlines()


def test_patch_mails_keep_their_subjects_before_their_other_lines(counter):
    """`git format-patch --stdout 8.1.7..8.1.8` of click (62 mails, real): a mail's message runs
    to its `---` line, and its `Subject:` is its commit's subject: at 1000 tokens more subjects
    are kept than `From <hash>` lines (a fixed date after a hash says less)."""
    text = corpus_output("git-format-patch-click-8.1.7-8.1.8")
    rows = text.splitlines()
    parsed = diff.parse(rows)
    assert len(parsed.commits) == sum(row.startswith("Subject: [PATCH") for row in rows) == 62
    out = clip(text, 1000, counter).text.splitlines()
    subjects = [row for row in out if row.startswith("Subject: [PATCH")]
    hashes = [row for row in out if re.match(r"From [0-9a-f]{40} ", row)]
    assert len(subjects) >= 20 > len(hashes)


def test_a_release_too_big_for_its_map_shows_its_version_bump_and_counts_every_file(counter):
    """`git diff 23.3.2 24.0` of pip (118 files, real): every file's own first line would take a
    4000-token budget whole. The names take half; the version bump is shown, and each file is
    named by its own first line or counted in its folder's line."""
    text = corpus_output("git-diff-pip-23.3.2-24.0")
    out = clip(text, 4000, counter).text
    assert '+__version__ = "24.0"' in out.splitlines()
    paths = [row.split(" b/", 1)[1] for row in text.splitlines() if row.startswith("diff --git ")]
    assert len(paths) == 118
    assert all(named_or_counted(path, out) for path in paths)
    counted = sum(int(n.replace(",", "")) for n in re.findall(
        r"^\S+/ \(([\d,]+) (?:more )?files?,", out, re.M))
    named = sum(1 for line in out.splitlines() if line.startswith("diff --git ")
                and re.search(r"  \((?:[^()]|\([^()]*\))*\)$", line))
    assert named + counted == len(paths)


def test_release_notes_come_before_source_and_sdist_metadata_after_it(counter):
    """`diff -Naur pluggy-1.5.0 pluggy-1.6.0` (sdists from PyPI, real): at 2000 tokens the new
    release's notes head the hunks shown, before any source; the PKG-INFO and egg-info that
    setuptools wrote rank with generated files, after the source."""
    text = corpus_output("diff-Naur-pluggy-1.5.0-1.6.0")
    out = clip(text, 2000, counter).text
    assert "+pluggy 1.6.0 (2025-05-15)" in out.splitlines()
    assert diff.value_class("pluggy-1.6.0/CHANGELOG.rst") == diff.NOTES
    assert diff.value_class("pluggy-1.6.0/PKG-INFO") == diff.LOCKED
    assert diff.value_class("pluggy-1.6.0/src/pluggy.egg-info/SOURCES.txt") == diff.LOCKED
    assert diff.value_class("pluggy-1.6.0/src/pluggy/_callers.py") == diff.SOURCE
    assert "+Metadata-Version: 2.4" not in out.splitlines()


def plain_counts(rows: list[str], added: tuple[str, ...], removed: tuple[str, ...]) -> tuple:
    """Files (`diff ` and `Only in ` lines), and body lines by their first characters."""
    return (sum(row.startswith(("diff ", "Only in ")) for row in rows),
            sum(row.startswith(added) for row in rows),
            sum(row.startswith(removed) for row in rows))


@pytest.mark.parametrize("name, added, removed", [
    # diff's normal format: `3c3`, `< old`, `---`, `> new`
    ("diff-r-normal-pluggy-1.5.0-1.6.0", (">",), ("<",)),
    # its context format: `*** 3,8 ****` (`- `, `! ` old), `--- 3,9 ----` (`+ `, `! ` new)
    ("diff-rc-six-1.16.0-1.17.0", ("+ ",), ("- ",)),
])
def test_normal_and_context_hunks_are_parsed_and_sniffed_as_a_diff(name, added, removed, counter):
    """`diff -r` and `diff -rc` of two sdists (real, tests/corpus): every file found, every
    changed line counted on its side, no line left over, and the output sniffed as a diff."""
    text = corpus_output(name)
    rows = text.splitlines()
    parsed = diff.parse(rows)
    files, plus, minus = plain_counts(rows, added, removed)
    if added == ("+ ",):  # a `! ` line is a change on the side it is printed on
        old = new = False
        for row in rows:
            if row.startswith("*** ") and row.endswith(" ****"):
                old, new = True, False
            elif row.startswith("--- ") and row.endswith(" ----"):
                old, new = False, True
            elif row.startswith("! "):
                minus, plus = minus + old, plus + new
    assert parsed.strays == 0
    assert len(parsed.files) == files
    assert (sum(f.added for f in parsed.files), sum(f.removed for f in parsed.files)) == (
        plus, minus)
    assert clip(text, 2000, counter).kind == "diff"


def test_a_recursive_normal_diff_shows_its_release_notes_and_names_its_source(counter):
    """`diff -r pluggy-1.5.0 pluggy-1.6.0` (real): at 2000 tokens the release's heading is
    shown and the hook-calling core is named by its own `diff -r` line; the file only in the
    old tree is named with its `Only in` line."""
    out = clip(corpus_output("diff-r-normal-pluggy-1.5.0-1.6.0"), 2000, counter).text
    rows = [row.split("  (")[0] for row in out.splitlines()]
    assert "> pluggy 1.6.0 (2025-05-15)" in rows
    assert "Only in pluggy-1.5.0: setup.py" in rows
    assert ("diff -r pluggy-1.5.0/src/pluggy/_callers.py pluggy-1.6.0/src/pluggy/_callers.py"
            in rows)


def test_a_stat_before_the_patch_gives_way_to_hunks_but_keeps_its_summary(counter):
    """`git diff --stat -p 25.3.0 25.4.0` of attrs (48 files, real): each `--stat` line says
    what the map says (a file and its counts), so at 1000 tokens none is kept while hunks go
    unshown; the stat's summary line is, and the release notes' heading and its breaking
    change are shown."""
    text = corpus_output("git-diff-stat-p-attrs-25.3-25.4")
    out = clip(text, 1000, counter).text.splitlines()
    assert " 48 files changed, 4014 insertions(+), 490 deletions(-)" in out
    assert "+## [25.4.0](https://github.com/python-attrs/attrs/tree/25.4.0) - 2025-10-06" in out
    assert "+- Class-level `kw_only=True` behavior is now consistent with `dataclasses`." in out
    assert "the hunks of" in out[-1]
    assert not [row for row in out if re.match(r" \S.* \| +\d+ [+-]+$", row)]


def test_the_file_that_sets_the_version_leads_its_class(counter):
    """`git diff --no-index --stat -p urllib3-2.2.3 urllib3-2.3.0` (real): among the source
    files, the one whose hunk sets `__version__` is spent first, so at 1000 tokens the bump is
    shown after the release notes, before smaller source changes."""
    out = clip(corpus_output("git-diff-no-index-urllib3-2.2.3-2.3.0"), 1000, counter).text
    rows = out.splitlines()
    assert "+__version__ = version = '2.3.0'" in rows
    assert "+2.3.0 (2024-12-22)" in rows


def _corpus_text(case: str) -> str:
    return (GROWN_DIR / case / "output.txt").read_text()


@pytest.mark.parametrize("case", ["diff-ru-click-8.1.7-8.1.8",
                                  "git-diff-hyperfine-v1.18.0-v1.19.0"])
@pytest.mark.parametrize("budget", [1000])
def test_folder_counts_stop_below_the_folder_every_file_shares(case, budget, counter):
    """Issue #22's class 1 in a diff: the files the map cannot name are counted by the folders
    below the one they all share (`src/`, `docs/`, `tests/`), never as that one folder
    (`click-8.1.8/ (44 files, …)`) or `./`."""
    text = _corpus_text(case)
    out = clip(text, budget, counter).text.splitlines()
    paths = [row.split(" b/", 1)[1] if row.startswith("diff --git") else row.split()[-1]
             for row in text.splitlines() if row.startswith(("diff --git", "diff -r"))]
    roots = {path.split("/")[0] for path in paths if "/" in path}
    shared = {root for root in roots if all(p.startswith(root + "/") for p in paths)}
    folder_lines = [row for row in out if re.match(r"\S+/ \([\d,]+ files?", row)]
    assert folder_lines
    assert not [row for row in folder_lines
                if row.startswith("./ ") or row.split("/ (")[0] in shared]


@pytest.mark.parametrize("case", ["git-diff-cobra-v1.8.1-v1.9.0",
                                  "diff-ru-platformdirs-4.2.2-4.3.6"])
def test_at_1000_tokens_a_release_shows_its_version_and_changed_signatures(case, counter):
    """Weakness 3 of the brief: at a small budget a reviewer reads the changed API first. A
    release's diff whose source cannot be shown whole keeps the line that sets its version
    (in a manifest or the source) and changed signature lines of its source files."""
    text = _corpus_text(case)
    out = clip(text, 1000, counter).text
    rows = text.splitlines()
    version = [row for row in rows if re.match(r"\+\s*(?:__version__|version)\s*=\s*\S*\d\.\d", row)]
    signatures = [row for row in rows
                  if re.match(r"[+-]\s*(?:pub\s+)?(?:def|fn|func|class|enum|type)\s", row)]
    if version:
        assert any(row in out.splitlines() for row in version)
    assert len({row for row in signatures if row in out.splitlines()}) >= 2
