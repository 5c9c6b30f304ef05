"""The commits planner on real histories of commander.js: `git log --oneline --graph --decorate`
and `git log --decorate` (the default format). Expected landmarks are found in the inputs by
their decorations here, never copied from the planner's output."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from headroom_cli.api import compress
from headroom_cli.plan import Lines
from headroom_cli.planners import commits
from headroom_cli.sniff import sniff
from headroom_cli.tools import lookup

CORPUS = Path(__file__).parent / "corpus"
GRAPH = (CORPUS / "git-log-graph-commander-300" / "output.txt").read_text()
FULL = (CORPUS / "git-log-decorate-commander-120" / "output.txt").read_text()


@pytest.mark.parametrize("text", [GRAPH, FULL], ids=["oneline-graph", "full"])
def test_histories_are_sniffed_as_commits(text):
    assert sniff(Lines(text), lookup("Bash")) == "commits"


@pytest.mark.parametrize("text, tagged", [
    (GRAPH, r"(?:[*|/\\ ]+)[0-9a-f]{8} \((?:[^)]*)tag: "),
    (FULL, r"commit [0-9a-f]{40} \((?:[^)]*)tag: "),
], ids=["oneline-graph", "full"])
def test_every_release_survives_a_quarter_of_the_budget(text, tagged, counter):
    releases = [row for row in text.splitlines() if re.match(tagged, row)]
    assert len(releases) >= 8
    result = compress(text, tool="Bash", budget=1000, counter=counter)
    assert result.kind == "commits" and counter.count(result.text) <= 1000
    shown = result.text.splitlines()
    for row in releases:
        number = text.splitlines().index(row) + 1
        assert row in shown or f"{number:>6}\t{row}" in shown, row


def test_tags_come_before_branches_and_merges():
    rows = GRAPH.splitlines()
    levels = dict(commits.landmarks(rows))
    assert levels[0] == 1  # HEAD, tag v15.0.0
    merges = [i for i, row in enumerate(rows) if " Merge " in row and "(" not in row.split(" Merge ")[0]]
    assert merges and all(levels[i] == 3 for i in merges)


@pytest.mark.parametrize("rows", [
    ["e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855  empty.txt"] * 20,
    ["src/app.py:12:def main():"] * 20,
    ["2026-11-25 12:00:01 INFO started"] * 20,
])
def test_what_is_no_history_has_no_landmarks_or_is_not_commits(rows):
    assert not commits.looks_like(rows, lookup("Bash")) or not commits.landmarks(rows)


STAT = (CORPUS / "git-log-stat-cjson-60" / "output.txt").read_text()
ONELINE_STAT = (CORPUS / "git-log-oneline-stat-vite-60" / "output.txt").read_text()


@pytest.mark.parametrize("text", [STAT, ONELINE_STAT], ids=["stat", "oneline-stat"])
def test_a_history_with_its_stats_is_commits(text):
    assert sniff(Lines(text), lookup("Bash")) == "commits"


@pytest.mark.parametrize("budget", [4000])
def test_every_commit_s_subject_before_its_changes(budget, counter):
    """`git log --oneline --stat` (60 commits, ~6,000 tokens): every commit's row is kept
    before any commit's changes, and the biggest commit's totals with them."""
    rows = ONELINE_STAT.splitlines()
    commit_rows = [row for row in rows if re.match(r"[0-9a-f]{10} ", row)]
    assert len(commit_rows) == 60
    result = compress(ONELINE_STAT, tool="Bash", budget=budget, counter=counter)
    assert result.kind == "commits" and counter.count(result.text) <= budget
    out = result.text
    assert all(row in out for row in commit_rows)
    if budget == 4000:
        totals = [row for row in rows if re.match(r" \d+ files? changed", row)]
        biggest = max(totals, key=lambda row: int(row.split()[0]))
        assert biggest in out


def test_a_full_history_s_subjects_are_landmarks_before_its_bare_commit_lines():
    """Each line is ranked by what it says: every commit's subject is a landmark, at the
    plain subjects' level or shallower; a `commit <hash>` line that names no refs says
    nothing a reader looks for and comes after every subject — but the hash of a release or
    of an urgent fix (what `git show` is given), which comes after every such subject and
    before the plain ones."""
    rows = STAT.splitlines()
    levels = dict(commits.landmarks(rows))
    subjects = [i + 1 for i, row in enumerate(rows) if re.match(r"commit [0-9a-f]{40}", row)]
    # the subject is the first indented message line after the header
    firsts = {}
    for start in subjects:
        firsts[start - 1] = next(i for i in range(start, len(rows)) if rows[i].startswith("    "))
    assert all(levels[i] <= 4 for i in firsts.values())
    plain = max(levels[j] for j in firsts.values())
    said = {i: levels[j] for i, j in firsts.items()
            if commits.URGENT.search(rows[j]) or re.match(r"    (?:Release \d|Revert )", rows[j])}
    bare = [i - 1 for i in subjects if not rows[i - 1].rstrip().endswith(")")]
    noted = [i for i in bare if i in said]
    assert noted and all(max(said.values()) < levels[i] < plain for i in noted)
    assert all(levels[i] > plain for i in bare if i not in noted)


NAME_STATUS = (CORPUS / "git-log-name-status-werkzeug-80" / "output.txt").read_text()


def test_releases_and_deprecations_named_by_their_subjects_survive_1000_tokens(counter):
    """werkzeug's untagged history (mostly merges, `--name-status`): the subjects that announce
    a release or a deprecation are listed, and of the bare `commit <hash>` lines only theirs."""
    rows = NAME_STATUS.splitlines()
    wanted = [i for i, row in enumerate(rows)
              if re.match(r"    (?:release version \d|deprecate )", row)]
    assert len(wanted) >= 6
    result = compress(NAME_STATUS, tool="Bash", budget=1000, counter=counter)
    assert result.kind == "commits" and counter.count(result.text) <= 1000
    for i in wanted:
        assert rows[i] in result.text, rows[i]
    bare = [int(m[1]) - 1 for m in re.finditer(r"^ *(\d+)\tcommit [0-9a-f]{40}$", result.text,
                                               re.M)]
    assert all(any(0 < i - start <= 8 for i in wanted) for start in bare)


def test_a_hex_dump_is_not_a_history():
    """`hexdump -C` rows open with a hex offset as `--oneline` rows open with a hash."""
    dump = (CORPUS / "hexdump-c-libz-1.2.13" / "output.txt").read_text(errors="replace")
    assert sniff(Lines(dump), lookup("Bash")) != "commits"


def test_rows_led_by_object_ids_without_subjects_are_no_history(counter):
    """`git verify-pack -v` prints `<id> blob 3270 1622 712` for each of 25,000 objects: rows
    opening with a hash as `--oneline` rows do, but their rest is a type and figures, no
    subject. Read as a history, every clip kept its first and last rows only; read as what
    it is, the largest objects and the closing chain-length histogram stay."""
    pack = (CORPUS / "git-verify-pack-v-commons-cli-mirror-pack-delta-chains" / "output.txt"
            ).read_text()
    assert not commits.looks_like(pack.splitlines()[:1500], lookup("Bash"))
    assert sniff(Lines(pack), lookup("Bash")) != "commits"
    out = compress(pack, tool="Bash", budget=1000, counter=counter).text
    assert counter.count(out) <= 1000
    assert "non delta: 12970 objects" in out
    largest = max(pack.splitlines()[:-50], key=lambda row: int(row.split()[2])
                  if len(row.split()) > 4 and row.split()[2].isdigit() else 0)
    assert largest in out


FULLER = (CORPUS / "t2-redis-log-fuller" / "output.txt").read_text()


@pytest.mark.parametrize("budget", [500, 1000])
def test_an_urgent_fix_is_listed_with_its_hash(budget, counter):
    """`git log --pretty=fuller -n 150` of redis (real): three subjects name a CVE. Each is
    listed, and so is its `commit <hash>` line — what a reader cherry-picks or shows next."""
    rows = FULLER.splitlines()
    fixes = [i for i, row in enumerate(rows) if row.startswith("    ") and "CVE-" in row]
    assert len(fixes) == 3
    out = compress(FULLER, tool="Bash", budget=budget, counter=counter).text
    assert counter.count(out) <= budget
    listed = {int(m[1]) - 1: m[2] for m in re.finditer(r"^ *(\d+)\t(.*)$", out, re.M)}
    for fix in fixes:
        header = max(i for i in range(fix) if rows[i].startswith("commit "))
        assert listed.get(fix) == rows[fix] and listed.get(header) == rows[header]


GRAPH_ALL = (CORPUS / "t2-cli-log-graph-all" / "output.txt").read_text()


def test_refs_after_other_fields_are_read_as_refs(counter):
    """`git log --graph --all --format='%h %ad %an%d %s'` of commons-cli (real): the refs
    come after the date and the author. A tagged row is a release wherever its refs stand:
    the newest release tags are listed at 1000 tokens."""
    rows = GRAPH_ALL.splitlines()
    tagged = [row for row in rows if "(tag: rel/" in row]
    assert len(tagged) >= 5
    out = compress(GRAPH_ALL, tool="Bash", budget=1000, counter=counter).text
    assert counter.count(out) <= 1000
    shown = [row for row in tagged if any(line.endswith("\t" + row) for line in out.splitlines())]
    assert tagged[0] in shown and len(shown) >= 3


def test_a_merged_release_tag_is_a_release():
    """`git log --merges --format='%h %ad %an %s'` of express (real): every row is a merge;
    those merging a release tag (`Merge tag '4.20.0' into 5.0`) are releases, ranked before
    the branch merges."""
    rows = (CORPUS / "t2-express-merges" / "output.txt").read_text().splitlines()
    levels = dict(commits.landmarks(rows))
    tags = [i for i, row in enumerate(rows) if re.search(r"Merge tag '\d+\.\d+", row)]
    branches = [i for i, row in enumerate(rows) if "Merge branch " in row]
    assert len(tags) > 10 and branches
    assert max(levels[i] for i in tags) < min(levels[i] for i in branches)


def test_a_fix_cherry_picked_to_each_branch_is_listed_once_before_any_twice(counter):
    """`git log --all --grep=CVE-…` of redis (real, tuning corpus): each security fix is a
    commit on every release branch, the same subject the same day by the same hand (`Prevent
    pattern matching abuse (CVE-2024-31228)` three times). The outline named two fixes twice
    and left `sdsResize`'s CVE-2023-41056 out; a subject said before waits behind every
    other of its level."""
    from conftest import GROWN_DIR, corpus_case

    _, text = corpus_case(GROWN_DIR, "git-log-grep-cve-redis-all-branches")
    rows = text.split("\n")
    said = [row.split(" ", 1)[1] for row in rows if row]
    assert len(set(said)) < len(said)  # the same subject on several branches
    out = compress(text, tool="Bash", budget=1000, counter=counter).text
    assert counter.count(out) <= 1000
    listed = [row.split("\t", 1)[1].split(" ", 1)[1] for row in out.split("\n")
              if re.match(r" *\d+\t[0-9a-f]{9} ", row)]
    assert listed and len(set(listed)) == len(listed)
