"""The rung for formats no planner knows (issue #22, class 8): lines grouped by template, one
exemplar per template with its count and line range, severe and rare templates first, first
and last lines kept — on real outputs of tools with no planner (golden cases other-*)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import GROWN_DIR, corpus_case

from headroom_cli.api import compress
from headroom_cli.plan import Gap, Keep, Lines
from headroom_cli.planners import templates
from headroom_cli.tools import lookup

CASES = Path(__file__).resolve().parent / "cases"
NOTE = re.compile(r"  \(×(?P<count>[\d,]+) lines of this form, "
                  r"(?P<first>[\d,]+)(?:–(?P<last>[\d,]+))?\)$")


def case(name: str) -> str:
    return (CASES / name / "input").read_text()


def num(text: str) -> int:
    return int(text.replace(",", ""))


def line_numbers(rows: list[str], needle: str) -> list[int]:
    return [at + 1 for at, row in enumerate(rows) if needle in row]


def test_a_server_log_keeps_its_rare_failures_with_exact_counts(counter):
    """`python3 -m http.server` serving pydantic's sdist to 324 requests, 3 of them for
    missing files: at 500 tokens, the 404 lines are kept, the first with the count and range of
    the input's own lines of its form; the head is the input's own lines."""
    text = case("other-http-server-log")
    rows = text.splitlines()
    result = compress(text, tool="Bash", budget=500, counter=counter)
    assert result.kind == "other"  # `[26/Nov/2026 16:37:29]` is no `path:37:` of a search
    out = result.text
    assert counter.count(out) <= 500
    assert rows[0] in out and rows[-1] in out
    failures = line_numbers(rows, "code 404, message File not found")
    assert len(failures) == 3
    kept = [line for line in out.splitlines() if "code 404" in line]
    assert kept and (m := NOTE.search(kept[0]))
    assert (num(m["count"]), num(m["first"]), num(m["last"])) == (3, failures[0], failures[-1])
    assert not any(NOTE.search(line) for line in out.splitlines()[:3])  # the head: verbatim


def test_every_note_names_its_own_line_and_counts_within_the_output(counter):
    """readelf -a /usr/bin/gzip at 1000 tokens: each exemplar is the first line of the range
    its note names; the first and last lines and the sections' headings stay."""
    text = case("other-readelf-a-gzip")
    rows = text.splitlines()
    out = compress(text, tool="Bash", budget=1000, counter=counter).text
    assert counter.count(out) <= 1000
    assert out.startswith(rows[0]) and rows[-1] in out
    for line in out.splitlines():
        if m := NOTE.search(line):
            first = num(m["first"])
            assert rows[first - 1] == line[:m.start()]
            assert 2 <= num(m["count"]) <= num(m["last"] or m["first"]) - first + 1
    for heading in ("Dynamic section at offset", "Symbol table '.dynsym'"):
        assert heading in out


def test_prose_is_outlined_level_by_level(counter):
    """pydoc3 json: nearly every line is of its own form, so grouping would say nothing; its
    blocks are outlined instead: at 1000 tokens every one of its 11 section headings (the
    lines at the margin after a blank line) is kept, each gap labelled with its exact count."""
    text = case("other-pydoc3-json-prose")
    rows = text.splitlines()
    headings = [row for row in rows if row[:1].isupper()]
    assert len(headings) == 11
    out = compress(text, tool="Bash", kind="other", budget=1000, counter=counter).text
    assert counter.count(out) <= 1000
    kept = [re.sub(r"^\s*\d+\t", "", line) for line in out.splitlines()]  # as it is, or outlined
    assert all(heading in kept for heading in headings)
    outlined = re.search(r"lines [\d,]+–[\d,]+ of ([\d,]+)", out)  # one range, outlined
    if outlined:
        assert num(outlined[1]) == len(rows)
    else:
        omitted = sum(num(m[1]) for m in re.finditer(r"omitted \(([\d,]+) lines?\)", out))
        shown = sum(1 for line in kept if not line.startswith("[…"))
        assert omitted + shown >= len(rows)


def test_prose_without_blocks_is_left_to_head_and_tail(counter):
    """pydoc3 json's description as one flat paragraph (its lines unindented, its blank lines
    gone): no templates and no blocks, so the rung declines."""
    rows = case("other-pydoc3-json-prose").splitlines()
    text = "\n".join(row.strip() for row in rows[14:112] if row.strip()) + "\n"
    assert templates.plan(text, Lines(text), 300, counter, lookup("Bash")) is None


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["INFO served /a/b.py in 12 ms", "INFO served /c.py in 3 ms",
                                 "WARN slow request id=0x1f3a", "ERROR disk full on /dev/sda1",
                                 "", "  at frame 7", "plain words here"]), min_size=8,
                max_size=300))
def test_the_plan_accounts_for_every_line_once(counter, rows):
    text = "\n".join(rows) + "\n"
    lines = Lines(text)
    plan = templates.plan(text, lines, 300, counter, lookup("Bash"))
    if plan is None:
        return
    covered = []
    for item in plan.items:
        if isinstance(item, Keep):
            covered.append(lines.line_of(item.start))
        else:
            assert isinstance(item, Gap)
            covered += range(item.first_line - 1, item.last_line)
    assert covered == list(range(len(lines)))
    kept = [lines.line_of(i.start) for i in plan.items if isinstance(i, Keep)]
    assert kept[0] == 0 and kept[-1] == len(lines) - 1
    assert plan.omitted_lines == len(lines) - len(kept)
    severe = [at for at, row in enumerate(rows) if row.startswith("ERROR")]
    if severe:
        assert severe[0] in kept  # the first of the severest template, whatever else fits


def test_an_aligned_table_keeps_a_row_of_every_rare_column_value(counter):
    """readelf -Ws of this machine's libz (Debian's zlib 1.2.13): 125 symbols, nearly all
    `FUNC GLOBAL DEFAULT`; its rows are keyed by their few-valued columns (Type, Bind, Vis),
    so at 600 tokens every combination of them the table holds is shown at least once, with
    the title and the header row."""
    text = case("other-readelf-ws-libz")
    rows = text.splitlines()
    kinds = {tuple(row.split()[3:6]) for row in rows[3:] if len(row.split()) >= 8}
    assert len(kinds) >= 4  # FUNC/OBJECT/NOTYPE, GLOBAL/WEAK/LOCAL
    # the rung itself: a symbol table is outlined before it (planners/symbols.py)
    plan = templates.plan(text, Lines(text), 600, counter, lookup("Bash"))
    out = [text[item.start:item.end].rstrip("\n") for item in plan.items if isinstance(item, Keep)]
    out = [line for part in out for line in part.split("\n")]
    shown = {tuple(line.split()[3:6]) for line in out if line.split()[:1] != ["[…"]
             and len(line.split()) >= 8}
    assert kinds <= shown
    assert rows[1] in out and rows[2] in out and rows[-1] in out


def test_a_disassembly_is_outlined_by_its_functions(counter):
    """objdump -d of this machine's libacl (Debian's acl 2.3.1) at 2000 tokens: a function's label opens each block (after
    a blank line); labels from the start, the middle and the end of .text are kept, where a
    head-and-tail clip keeps only the first and last few."""
    text = case("other-objdump-d-libacl")
    rows = text.splitlines()
    labels = [at for at, row in enumerate(rows) if row.endswith(">:") and row[:1] != " "]
    out = compress(text, tool="Bash", budget=2000, counter=counter).text
    assert counter.count(out) <= 2000
    kept = [at for at in labels if rows[at] in out]  # as it is, or in an outline
    thirds = {3 * at // len(rows) for at in kept}
    assert thirds == {0, 1, 2} and len(kept) >= 30


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(
    st.sampled_from(["ii  libc6:amd64      2.36-9   amd64   GNU C Library", "", "Title:",
                     "rc  old-pkg          1.0-1    all     removed, config kept",
                     " name | type | ok ", "----+----", "    detail under a head",
                     "0000000000003cd0 <crc32_z@@ZLIB_1.2.9>:", "\tcell\tcell\tcell"]),
    st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=40)),
    min_size=8, max_size=200), st.integers(min_value=60, max_value=800))
def test_the_rung_meets_its_budget_the_same_way_every_time(counter, rows, budget):
    """Tables, blocks and arbitrary text: the clip fits, is the same on a second run, and
    every line of the input is shown or counted in exactly one gap marker."""
    text = "\n".join(rows) + "\n"
    first = compress(text, tool="Bash", kind="other", budget=budget, counter=counter)
    assert counter.count(first.text) <= budget
    assert compress(text, tool="Bash", kind="other", budget=budget, counter=counter).text == first.text
    lines = Lines(text)
    plan = templates.plan(text, lines, budget, counter, lookup("Bash"))
    if plan is not None:
        counted = sum(i.last_line - i.first_line + 1 for i in plan.items if isinstance(i, Gap))
        kept = sum(1 for i in plan.items if isinstance(i, Keep))
        assert counted + kept == len(lines) and plan.omitted_lines == counted


def test_an_aligned_log_keeps_its_rare_message_apart_from_its_level(counter):
    """A fixed example of the class (not a tool's output): a log aligned in columns (time,
    level, worker, message) with a dozen common message forms and one rare one. Its level
    column alone must not name the template (every INFO line was one template and the rare
    message was lost); the message column's masked forms repeat, so they stay in the key."""
    forms = ["job {n} done in {n} ms", "cache hit for key{n}", "fetched {n} rows",
             "heartbeat {n}", "queue depth {n}", "flushed {n} bytes", "opened conn {n}",
             "closed conn {n}", "retried nothing on {n}", "gc pause {n} us", "lease {n} renewed",
             "batch {n} queued"]
    rows = [f"2026-11-27 07:{n // 60 % 60:02}:{n % 60:02}  INFO   worker-{n % 4}   "
            + forms[n % len(forms)].format(n=n) for n in range(600)]
    rows.insert(347, "2026-11-27 07:05:47  INFO   worker-2   disk quota almost reached on /srv")
    text = "\n".join(rows) + "\n"
    out = compress(text, tool="Bash", budget=500, counter=counter, kind="other").text
    assert counter.count(out) <= 500
    assert "disk quota almost reached" in out
    assert sum(line.startswith("2026-") for line in out.splitlines()) > len(forms)


def test_records_keep_the_line_that_names_each_one(counter):
    """`apt-cache show` of five packages (real, in the corpus): fifteen records apart by blank
    lines, each opening with `Package: …`. At 1000 tokens every record's first line is kept,
    where one exemplar per template kept one `Package:` line (their names are masked alike)."""
    corpus = Path(__file__).resolve().parent / "corpus" / "apt-cache-show-python-ssl-git-ssh"
    text = (corpus / "output.txt").read_text()
    rows = text.splitlines()
    firsts = [row for at, row in enumerate(rows) if row and (at == 0 or not rows[at - 1])]
    assert len(firsts) >= 10 and all(row.startswith("Package: ") for row in firsts)
    out = compress(text, tool="Bash", budget=1000, counter=counter).text
    assert counter.count(out) <= 1000
    kept = [line.split("  (×")[0] for line in out.splitlines()]
    assert all(row in kept for row in firsts)


CORPUS = Path(__file__).resolve().parent / "corpus"


def corpus_output(name: str) -> str:
    return (CORPUS / name / "output.txt").read_text()


def test_backtick_quoted_names_do_not_make_a_template_of_each_line(counter):
    """pydocstyle over httpx at 1000 tokens: `path:N in public class `Name`:` lines are one
    template (the name in backticks masked like a quoted string); its note counts them all."""
    text = corpus_output("pydocstyle-httpx-package")
    rows = text.splitlines()
    classes = line_numbers(rows, " in public class `")
    # (sniffed, it is a linter's log now: planners/diagnostics.py; the rung is asked for here)
    out = compress(text, tool="Bash", budget=1000, kind="other", counter=counter).text
    notes = [NOTE.search(row) for row in out.splitlines() if " in public class `" in row]
    counted = [(num(m["count"]), num(m["first"]), num(m["last"])) for m in notes if m]
    assert (len(classes), classes[0], classes[-1]) in counted


CORPUS = Path(__file__).resolve().parent / "corpus"


def test_a_dump_of_macros_keeps_the_lines_naming_its_versions(counter):
    """`cpp -dM` of gcc 12: 306 of its 383 `#define NAME VALUE` lines are one template, so no
    exemplar picks the version among them; at 1000 tokens the lines naming a version (a word
    holding `version`, a number after it) are kept, each its own line of the input."""
    text = corpus_output("cpp-dm-gcc-12-predefined-macros")
    rows = text.splitlines()
    out = compress(text, tool="Bash", budget=1000, counter=counter).text
    assert counter.count(out) <= 1000
    versions = [row for row in rows if "VERSION__" in row and any(c.isdigit() for c in row)]
    assert len(versions) >= 2
    assert sum(row in out.splitlines() for row in versions) >= 2


def test_conversion_names_no_version(counter):
    """`gcc -Q -O2 --help=optimizers`: `-fif-conversion` and `-ftree-switch-conversion` are
    options, and `-fversion-loops-for-strides  [disabled]` has no number after its word: no
    line of it names a version. `perl -V` names its compiler's (`gccversion='12.2.0'`)."""
    text = corpus_output("gcc-q-o2-help-optimizers-gcc-12")
    assert "-fif-conversion" in text and "-fversion-loops-for-strides" in text
    assert templates.version_lines(text, Lines(text), [], 50) == []
    text = corpus_output("perl-V-debian-5.36")
    lines = Lines(text)
    found = [lines.get(i) for i in templates.version_lines(text, lines, [], 50)]
    assert any("gccversion='12.2.0'" in line for line in found)


def test_annotated_source_keeps_its_version_line(counter):
    """`git blame cJSON.h`: every line of its own form (hash, author, date); whether read as
    lines of one form or as the C header it annotates (its prefix set aside), the line
    defining the version macro is kept at 4000."""
    text = corpus_output("git-blame-cjson-h")
    out = compress(text, tool="Bash", budget=4000, counter=counter).text
    assert counter.count(out) <= 4000
    [row] = [row for row in text.splitlines() if "#define CJSON_VERSION_MAJOR" in row]
    assert any(line.startswith(row) for line in out.splitlines())


def test_records_keep_their_versions(counter):
    """`apt-cache show` of four packages (14 records apart by blank lines, each opening with
    `Package:`): at 2000 tokens every record's first line and its `Version:` line are kept —
    what each record is and which version of it — before more of any record's fields."""
    text = corpus_output("apt-cache-show-python-ssl-git-ssh")
    rows = text.splitlines()
    out = compress(text, tool="Bash", budget=2000, counter=counter).text
    assert counter.count(out) <= 2000
    shown = out.splitlines()
    versions = []
    for at, row in enumerate(rows):
        if row.startswith("Package:") and (at == 0 or not rows[at - 1].strip()):
            end = next((k for k in range(at, len(rows)) if not rows[k].strip()), len(rows))
            versions += [next(k for k in range(at, end) if rows[k].startswith("Version:"))]
    assert len(versions) == 14
    assert all(any(line.startswith(rows[k]) for line in shown) for k in versions)


_VERSION_TEXT = st.lists(st.sampled_from(
    ["version", "Version", "VERSION", "release", "RELEASE", "conversion", "subversion", "VERſION",
     "rElEaSe", " ", "\n", "1", "2.0", ".", "-", "/", "$", "_", "a", "v", "x", "é", "İ", ":", "="]),
    max_size=40).map("".join)


@given(_VERSION_TEXT, st.integers(0, 60))
def test_version_lines_are_found_as_the_pattern_finds_them_everywhere(text, start):
    # Only the lines holding "version" or "release" are asked: the same matches, in order.
    start = min(start, len(text))
    expected = [(m.span(), m.group()) for m in templates._VERSIONED.finditer(text, start)]
    assert [(m.span(), m.group()) for m in templates.version_matches(text, start)] == expected



_SEVERE_TEXT = st.lists(st.sampled_from(
    ["error", "Errors", "FAILED", "failure", "panicked", "segmentation fault", "Segfault",
     "kernel.panic", "$error", "refused", "CRASHED", "abort", " ", "\n", ".", "x", "é", "ſ"]),
    max_size=30).map("".join)


@given(_SEVERE_TEXT, st.integers(0, 40))
def test_severe_words_are_found_as_the_pattern_finds_them_everywhere(text, start):
    start = min(start, len(text))
    expected = [(m.span(), m.group()) for m in templates._SEVERE.finditer(text, start)]
    found = templates.matches_holding(templates._SEVERE, templates._SEVERE_WORDS, text, start)
    assert [(m.span(), m.group()) for m in found] == expected


def test_a_long_list_keeps_every_row_of_its_rare_and_pending_forms(counter):
    """`apt list 'python3-*'` on this machine (real, in the corpus: 4,250 packages, 32
    installed, 2 upgradable): at 1000 tokens every `[upgradable from: …]` row and every
    package installed by hand (`[installed]`, not automatic) shows, not one exemplar each."""
    text = corpus_output("apt-list-python3-star-debian12")
    rows = text.splitlines()
    wanted = [row for row in rows if row.endswith("[installed]") or "[upgradable" in row]
    result = compress(text, tool="Bash", budget=1000, counter=counter)
    assert counter.count(result.text) <= 1000
    shown = {line.split("  (×")[0] for line in result.text.splitlines()}
    assert 5 <= len(wanted) < 20 and all(row in shown for row in wanted)


def test_a_long_list_shows_its_pending_rows_before_its_blocks_and_the_well_known_first(counter):
    """`apt list -a --installed` (real, tests/real): 706 packages, each a block of its own,
    106 with an update pending. The rows of the pending form come before more blocks' first
    lines, those of well-known packages first: at 2,000 tokens openssl's and libssl3's
    pending updates show, at 4,000 python3.11's and openssh-client's too; and pending packages
    are at least twice as large a share of those named as of the input's."""
    text = (Path(__file__).parent / "real" / "apt-list-a-installed-debian12.txt").read_text()
    pending = {row.split("/")[0] for row in text.splitlines() if "upgradable" in row}
    every = {row.split("/")[0] for row in text.splitlines() if "/" in row}
    for budget, names in ((2000, {"openssl", "libssl3"}),
                          (4000, {"openssl", "libssl3", "python3.11", "openssh-client"})):
        result = compress(text, tool="Bash", budget=budget, counter=counter)
        assert counter.count(result.text) <= budget
        rows = [line for line in result.text.splitlines() if line[:1].isalnum()]
        shown = {row.split("/")[0] for row in rows if "upgradable" in row}
        assert names <= shown, budget
        named = {row.split("/")[0] for row in rows}
        assert len(shown) / len(named) >= 2 * len(pending) / len(every), budget


def test_a_changelog_keeps_its_deprecations_with_its_outline(counter):
    """`zcat /usr/share/doc/adduser/changelog.gz` (real, adduser 3.134): prose, nearly every
    line of its own form. After its top-level headings (each release) and the lines naming an
    error, the lines naming a warning come before deeper headings: the release note that
    `--allow-badname and --force-badname are deprecated` is what a reader of it looks for."""
    text = (Path(__file__).resolve().parent / "real" / "zcat-adduser-3.134-changelog.txt").read_text()
    line = "--allow-badname and --force-badname are deprecated but still supported."
    assert text.count(line) == 1
    out = compress(text, tool="Bash", budget=1000, counter=counter).text
    assert counter.count(out) <= 1000
    assert line in out
    releases = [row for row in text.splitlines() if row.startswith("adduser (")]
    assert releases[0] in out and releases[-1] in out


@pytest.mark.parametrize("budget", [500, 1000, 2000])
def test_the_row_of_a_template_s_largest_value_is_kept(budget, counter):
    """`find . -printf '%M %u:%g %10s …'` in a PostgreSQL data folder (real, 1,313 rows of a
    few forms): the pgbench_accounts heap of 64 MB among hundreds of 8 kB pages is what a
    reader looks for. The row holding a template's largest value, when it stands apart from
    the others (over three times their median), comes after the exemplars."""
    meta, text = corpus_case(GROWN_DIR, "find-printf-pgdata")
    rows = text.splitlines()
    sizes = [int(row.split()[2]) for row in rows if row.startswith("-rw")]
    largest = max(sizes)
    assert largest > 3 * sorted(sizes)[len(sizes) // 2]
    heaviest = next(row for row in rows
                    if row.startswith("-rw") and int(row.split()[2]) == largest)
    out = compress(text, tool="Bash", budget=budget, counter=counter).text
    assert counter.count(out) <= budget
    assert heaviest in out.splitlines()


@pytest.mark.parametrize("budget", [500, 1000, 2000])
def test_an_indented_field_number_is_part_of_its_rows_template(budget, counter):
    """`redis-cli --no-raw SLOWLOG GET 128` (real): each entry's fields are numbered, `2)
    (integer) 1795954138` its time and `3) (integer) 22839` its duration. The field's number
    names which field a row is: with it masked, durations shared a template with timestamps
    and the slowest entry never stood apart. Its duration row and its command are kept."""
    meta, text = corpus_case(GROWN_DIR, "redis-cli-no-raw-slowlog-get-128-7.0-benchmark-bigkeys")
    rows = text.splitlines()
    durations = [(int(row.split()[-1]), at) for at, row in enumerate(rows)
                 if row.startswith("    3) (integer) ")]
    assert len(durations) > 50
    slowest, at = max(durations)
    out = compress(text, tool="Bash", budget=budget, counter=counter).text
    assert counter.count(out) <= budget
    kept = out.splitlines()
    assert rows[at] in kept and rows[at + 1] in kept  # `4) 1) "KEYS"`: what ran that long


@pytest.mark.parametrize("budget", [1000, 2000])
def test_the_one_row_that_differs_where_the_others_agree_is_kept(budget, counter):
    """`stat /usr/sbin/*` (real, 174 files of 8 lines each): every ` Birth:` line says
    1970-01-01 but one, the file installed today. At a place where a template's rows nearly
    all hold one word, the row holding a rare one is what a reader looks for."""
    meta, text = corpus_case(GROWN_DIR, "stat-usr-sbin")
    births = [row for row in text.splitlines() if row.startswith(" Birth: ")]
    odd = [row for row in births if not row.startswith(" Birth: 1970-01-01")]
    assert len(births) > 100 and len(odd) == 1
    out = compress(text, tool="Bash", budget=budget, counter=counter).text
    assert counter.count(out) <= budget
    assert odd[0] in out.splitlines()


def test_the_words_of_a_long_row_are_read_by_its_start():
    """The rare word at a place is looked for in a row's first characters only (what names its
    template): a word far along a long row is not read, so a template of long lines costs no
    more than its starts."""
    pad = "x" * 300
    rows = [f"queue 0 {pad} dropped 0" for _ in range(20)]
    near = rows[:10] + [rows[10].replace("queue 0", "queue 7")] + rows[11:]
    far = rows[:10] + [rows[10].replace("dropped 0", "dropped 7")] + rows[11:]
    for text, expected in (("\n".join(near) + "\n", [10]), ("\n".join(far) + "\n", [])):
        lines = Lines(text)
        keys = templates._keys(text, len(lines))
        found, _ = templates._templates(keys, len(lines))
        assert templates._odd_ones(lines, keys, found, len(lines)) == expected


@pytest.mark.parametrize("budget", [1000, 2000])
def test_blocks_of_one_line_are_rows_not_records(budget, counter):
    """`ss -tanoi` (real: 200 TIME-WAIT sockets, each followed by an info line of only a tab
    and spaces): those lines read as blank, so every socket looked like a record of its own
    and the clip spent itself on TIME-WAIT rows. A record has fields under its first line;
    the rows that differ (the sender with megabytes in its Send-Q, the clients stuck in
    SYN-SENT) are kept instead."""
    text = (Path(__file__).parent / "real" / "ss-tanoi-stuck-sockets.txt").read_text()
    rows = text.splitlines()
    time_wait = [row for row in rows if row.startswith("TIME-WAIT")]
    queued = [row for row in rows if row.startswith("ESTAB") and int(row.split()[2]) > 10**6]
    stuck = [row for row in rows if row.startswith("SYN-SENT")]
    assert len(time_wait) >= 100 and len(queued) == 1 and stuck
    out = compress(text, tool="Bash", budget=budget, counter=counter).text
    assert counter.count(out) <= budget
    kept = out.splitlines()  # an exemplar carries its template's note after it
    assert any(line.startswith(queued[0]) for line in kept)
    assert any(line.startswith(row) for row in stuck for line in kept)


def test_a_line_opening_with_a_verdict_is_as_severe_as_the_verdict(counter):
    """Redis's Tcl test suite prints `[ok]: SINTERCARD against non-set should throw error` for
    a test of an error that passed and `[err]: GETRANGE against string value in …` for one that
    failed (`err` is no error word). The error words of passed tests' names were kept at 1000
    tokens while the five failed tests went."""
    _, text = corpus_case(GROWN_DIR, "redis-runtest-7.4.1-getrange-off-by-one-five-failures")
    out = compress(text, tool="Bash", budget=1000, counter=counter).text
    assert counter.count(out) <= 1000
    for failed in ("GETRANGE against string value", "GETRANGE against integer-encoded value",
                   "GETRANGE fuzzing", "Coverage: SUBSTR",
                   "GETRANGE with huge ranges, Github issue #1844"):
        assert f"[err]: {failed} in tests/unit/type/string.tcl" in out
    passed_errors = [row for row in text.split("\n")
                     if "ok" in row[:16] and "should throw error" in row]
    assert len(passed_errors) > 5
    assert not any(row.replace("\x1b[0;32;49m", "").replace("\x1b[0m", "") in out
                   for row in passed_errors)


@pytest.mark.parametrize("row, level", [
    ("[ok]: INCR fails against a key holding a list (0 ms)", 0),
    ("[err]: GETRANGE fuzzing in tests/unit/type/string.tcl", 2),
    ("*** [err]: Coverage: SUBSTR in tests/unit/type/string.tcl", 2),
    ("ok 12 - rejects an invalid header with an error", 0),
    ("not ok 13 - parses the trailer", 2),
    ("PASSED tests/test_errors.py::test_error_is_raised", 0),
    ("FAILED tests/test_api.py::test_get - AssertionError", 2),
    ("error: could not compile `semver`", 2),
    ("okay, the error is in the header", 2),  # no verdict: the error word counts
    ("warning: unused variable `x`", 1),
])
def test_severity_reads_a_verdict_before_the_words(row, level):
    assert templates.severity(row) == level


@pytest.mark.parametrize("line, level", [
    ('127.0.0.1 - - [29/Nov/2026:08:12:23 +0000] "GET /v1/sync HTTP/1.1" 500 0 "-" "-"', 2),
    ('INFO:     127.0.0.1:51234 - "GET /orders/7 HTTP/1.1" 502 Bad Gateway', 2),
    ('127.0.0.1 "GET /static/x.conf HTTP/1.1" 404 153 rt=0.000', 1),
    ('127.0.0.1 - - [29/Nov/2026:08:12:11 +0000] "GET /health HTTP/1.1" 200 2 "-" "-"', 0),
    ('{"time":"2026-11-29T08:20:11","uri":"/api/report","status":504,"bytes":167}', 2),
    ('{"uri":"/api/products","status":200,"request_time":0.002}', 0),
])
def test_an_access_record_is_as_severe_as_its_status(line, level):
    """A server's access record names no error word: its HTTP status says how it went (a 5xx
    answer failed, a 4xx was refused)."""
    assert templates.severity(line) == level


def test_a_servers_failed_answers_are_kept_among_its_records(counter):
    """nginx's debug error log (real, 1,959 lines) holds its access records among thousands
    of debug lines, a 502 among 200s and 404s: masking takes the statuses' digits, so all were
    one template and the 502s no exemplar of their own. At 1000 tokens one is kept."""
    text = (Path(__file__).resolve().parent / "corpus"
            / "nginx-1.22-debug-error-log-upstream-refused-413-403" / "output.txt").read_text()
    failed = [row for row in text.splitlines() if re.search(r'HTTP/1\.1" 5\d\d ', row)]
    assert failed and len(failed) < 10
    out = compress(text, tool="Bash", budget=1000, counter=counter).text
    assert counter.count(out) <= 1000
    assert any(row.split("  (×")[0] in failed for row in out.splitlines())


_PROFILE_ROW = re.compile(r" *\d+(?:/\d+)? +\d+\.\d+ +\d+\.\d+ +(?P<cumtime>\d+\.\d+) ")


@pytest.mark.parametrize("budget", [1000, 2000])
def test_a_table_ranked_by_a_measure_opens_with_its_first_rows(budget, counter):
    """`python -m cProfile -s cumulative` (real, mistune rendering Node's fs.md): 569 rows
    ranked by cumulative time. Its first rows, as listed, are what the reader ran it for (the
    parser's block parse, half the run, is its ninth row); a dozen of them at least are shown,
    each in its place."""
    _, text = corpus_case(GROWN_DIR, "python-cprofile-cumulative-mistune-fs-md")
    rows = [row for row in text.split("\n") if _PROFILE_ROW.match(row)]
    times = [float(_PROFILE_ROW.match(row)["cumtime"]) for row in rows]
    assert times == sorted(times, reverse=True) and len(rows) > 500
    result = compress(text, tool="Bash", budget=budget, counter=counter)
    assert result.kind == "other" and counter.count(result.text) <= budget
    shown = result.text.split("\n")
    first = next(i for i, line in enumerate(shown) if line == rows[0])
    assert shown[first:first + 12] == rows[:12]


def test_a_rising_number_is_no_ranking(counter):
    """`readelf -V` (real): 255 rows of version indexes, mostly 3s that fall to 2 now and then,
    are no ranking: the room a ranking's first rows would take stays with the version needs
    (`Name: GLIBC_2.33`, the newest glibc it needs)."""
    _, text = corpus_case(GROWN_DIR, "readelf-V-libssl3-version-needs")
    result = compress(text, tool="Bash", budget=2000, counter=counter)
    assert "Name: GLIBC_2.33" in result.text


@pytest.mark.parametrize("budget", [500, 1000, 2000])
def test_a_benchmark_s_slowest_row_is_kept(budget, counter):
    """`go test -bench . -benchmem strings` (real): 200 benchmark rows, each a time per
    operation (`53904590 ns/op`). That is a duration like any other: the slowest row stands
    apart and is kept."""
    _, text = corpus_case(GROWN_DIR, "go-test-bench-benchmem-strings-stdlib")
    rows = [row for row in text.split("\n") if row.startswith("Benchmark") and " ns/op" in row]
    slowest = max(rows, key=lambda row: float(row.split(" ns/op")[0].split()[-1]))
    result = compress(text, tool="Bash", budget=budget, counter=counter)
    assert counter.count(result.text) <= budget
    assert slowest in result.text.split("\n")


@pytest.mark.parametrize("budget", [1000, 2000, 4000])
def test_a_traced_runs_one_slow_call_is_kept(budget, counter):
    """`strace -tt -T psql … -c 'select …'` (real): 1,041 calls, each with the seconds it took
    at its end (`<0.000083>`). The one call that took 104 ms (a `poll` of the server's socket,
    one of only six polls) stands apart from every other call, whatever its form; a binary
    read's escaped bytes (`\\270s`) are no duration."""
    _, text = corpus_case(GROWN_DIR, "strace-tt-t-psql-query-tcp-sslmode-prefer")
    timed = [(float(row[row.rindex("<") + 1:-1]), row) for row in text.split("\n")
             if row.endswith(">") and "<" in row]
    (took, slowest), (next_took, _) = sorted(timed, reverse=True)[:2]
    assert took > 10 * next_took  # it stands apart
    result = compress(text, tool="Bash", budget=budget, counter=counter)
    assert counter.count(result.text) <= budget
    assert slowest in result.text.split("\n")
