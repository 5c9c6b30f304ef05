"""The listing planner on real listings and tables: `ls -laR` of pip, `ls -l` of pygments'
lexers, `ps u`, `pip list`, a CSV built from `pip list --format json` and a TSV of every .py
file in site-packages.

Expected figures come from the inputs themselves, counted here the plain way (a section is
what lies between blank lines; a table row is a line after the header). Byte-for-byte outputs
are the golden cases (tests/cases/listing-*, run by test_golden.py).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from headroom_cli.api import compress
from headroom_cli.planners import listing
from headroom_cli.planners.costs import MAX_LINE_CHARS, line_limit
from headroom_cli.tools import lookup

CASES = Path(__file__).parent / "cases"
LS_LAR = (CASES / "listing-ls-laR-pip" / "input").read_text()
LS_L = (CASES / "listing-ls-l-lexers" / "input").read_text()
PS = (CASES / "listing-ps-u" / "input").read_text()
CSV = (CASES / "listing-csv-pip-list" / "input").read_text()
TSV = (CASES / "listing-tsv-py-files" / "input").read_text()
PIP_LIST = (CASES / "listing-pip-list" / "input").read_text()
ALL = [LS_LAR, LS_L, PS, CSV, TSV, PIP_LIST]
REAL = Path(__file__).parent / "real"
GAP = re.compile(r"^\[…headroom: lines ([\d,]+)–([\d,]+) of", re.M)


def sections_of(text: str) -> dict[str, list[str]]:
    """`ls -laR` blocks: directory -> its entries (no `total`, `.` or `..`)."""
    found = {}
    for block in text.strip("\n").split("\n\n"):
        header, *rest = block.split("\n")
        found[header[:-1]] = [row for row in rest if not row.startswith("total ")
                              and not row.endswith((" .", " .."))]
    return found


def number(text: str) -> int:
    return int(text.replace(",", ""))


def clip(text: str, budget: int, counter, tool: str = "Bash"):
    result = compress(text, tool=tool, budget=budget, counter=counter)
    assert counter.count(result.text) <= budget
    return result


def gap_of(result) -> range:
    first, last = GAP.search(result.text).groups()
    return range(number(first), number(last) + 1)


@pytest.mark.parametrize("text, budget", list(zip(ALL, [1000, 400, 400, 400, 400, 150])),
                         ids=["ls-laR", "ls-l", "ps", "csv", "tsv", "pip-list"])
def test_real_listings_are_sniffed_as_listings(text, budget, counter):
    assert listing.looks_like(text.splitlines(), lookup("Bash"))
    assert clip(text, budget, counter).kind == "listing"


def test_every_directory_is_accounted_for_with_its_entry_count(counter):
    sections = sections_of(LS_LAR)
    out = clip(LS_LAR, 1000, counter).text.splitlines()
    own = [m for m in (re.match(r"^(\S+):  \(([\d,]+) entr(?:y|ies)(?:, [^)]*)?\)$", line)
                       for line in out) if m]
    rolled = [m for m in (re.match(r"^(\S+):  \(([\d,]+) entr(?:y|ies); ([\d,]+) "
                                   r"director(?:y|ies) below it, ([\d,]+) entr", line)
                          for line in out) if m]
    assert own and rolled
    for m in own:
        assert number(m[2]) == len(sections[m[1]])
    alone = {m[1] for m in own}
    covered = len(own)
    for m in rolled:
        below = [d for d in sections if d.startswith(m[1] + "/") and d not in alone]
        assert number(m[2]) == len(sections[m[1]])
        assert number(m[3]) == len(below)
        assert number(m[4]) == sum(len(sections[d]) for d in below)
        covered += 1 + len(below)
    assert covered == len(sections), "every directory once: on its own or rolled up"


def test_shown_entries_match_their_headers_count_and_are_verbatim(counter):
    sections = sections_of(LS_LAR)
    result = clip(LS_LAR, 1000, counter)
    current, shown = None, {}
    for line in result.text.splitlines():
        header = re.match(r"^(\S+):  \((?!.*below it)", line)
        if header:
            current = header[1]
            shown[current] = []
        elif line.endswith(":  (") or "below it" in line:
            current = None
        elif current and not line.startswith("[…"):
            assert line in sections[current], "an entry printed under its own directory"
            shown[current].append(line)
    for directory, entries in shown.items():
        header = next(line for line in result.text.splitlines()
                      if line.startswith(directory + ":  ("))
        said = re.search(r", (?:first |last )?([\d,]+)(?: largest)? shown\)", header)
        assert len(entries) == (number(said[1]) if said else 0 if "none shown" in header
                                else len(sections[directory]))


def test_head_and_tail_of_a_recursive_listing_stay(counter):
    result = clip(LS_LAR, 1000, counter)
    rows = LS_LAR.rstrip("\n").split("\n")
    first_dir = rows[0][:-1]
    last_dir = list(sections_of(LS_LAR))[-1]
    out = result.text.splitlines()
    assert out[0].startswith(rows[0] + "  (")
    assert any(line.startswith(last_dir + ":  (") for line in out)
    assert rows[-1] in out
    assert "drwxr-xr-x  5 root root 4096 Nov 22 07:05 ." not in out
    assert first_dir in out[0]


def test_middle_directories_show_their_biggest_files_first(counter):
    sections = sections_of(LS_LAR)
    result = clip(LS_LAR, 4000, counter)
    for line in result.text.splitlines():
        m = re.match(r"^(\S+):  \([\d,]+ entries, ([\d,]+) largest shown\)$", line)
        if not m:
            continue
        files = [e for e in sections[m[1]] if not e.startswith("d")]
        biggest = sorted(files, key=lambda e: -int(e.split()[4]))[:number(m[2])]
        assert all(entry in result.text for entry in biggest)


@pytest.mark.parametrize("budget", [400, 1000, 2000])
def test_the_first_directory_shares_a_small_budget_with_the_others(counter, budget):
    """At a small budget the first directory's head no longer takes everything: the shallow
    directories shown show their largest files too, never more entries than the first one."""
    text = (Path(__file__).parent / "corpus" / "ls-laR-go-stdlib-net" / "output.txt").read_text()
    out = clip(text, budget, counter).text
    shown = [(m[1], sum(number(k) for k in re.findall(r"\d[\d,]*", m[2])))
             for m in re.finditer(r"^(\S+):  \([\d,]+ entr(?:y|ies), ((?:first |last )?[\d,]+"
                                  r"(?: and [\d,]+)?(?: largest)?) shown\)", out, re.M)]
    first = next(count for path, count in shown if path == "net")
    assert len(shown) > 1 and all(count <= first for _, count in shown)
    if budget >= 1000:  # net/http's largest file, a section in the middle
        assert "h2_bundle.go" in out


def test_the_first_directory_keeps_its_largest_file_beside_its_head(counter):
    """A root directory's head is alphabetical; its largest file (a lock file, a bundle) is
    kept beside it, and the header says which entries are shown."""
    text = (Path(__file__).parent / "corpus" / "ls-laR-flask-3.1.3-sdist" / "output.txt"
            ).read_text()
    root = sections_of(text)["flask-3.1.3"]
    largest = max((row for row in root if not row.startswith("d")),
                  key=lambda row: int(row.split()[4]))
    out = clip(text, 500, counter).text
    assert largest in out
    m = re.match(r"flask-3\.1\.3:  \(([\d,]+) entries, first ([\d,]+) and ([\d,]+) largest "
                 r"shown\)$", out.split("\n")[0])
    assert m and number(m[1]) == len(root)
    assert root[:number(m[2])] == [line for line in out.split("\n")[1:1 + number(m[2])]]


def test_a_long_listing_keeps_total_head_its_largest_rows_and_tail(counter):
    result = clip(LS_L, 500, counter)
    rows = LS_L.rstrip("\n").split("\n")
    out = result.text.splitlines()
    assert out[0] == rows[0] and rows[0].startswith("total ")
    shown = [line for line in out if not line.startswith(("[…", "(omitted rows"))]
    assert [rows.index(line) for line in shown] == sorted(rows.index(line) for line in shown)
    assert shown[:2] == rows[:2] and shown[-1] == rows[-1]
    largest = sorted(rows[1:], key=lambda row: -int(row.split()[4]))[:3]
    assert all(row in shown for row in largest)
    assert len(shown) < len(rows)


def test_du_keeps_its_heaviest_rows_between_head_and_tail(counter):
    """`du -ah` (real, Go's crypto tree, tab-separated): the one huge file and the heavy
    folders survive a quarter of the default budget wherever they sit. `du -a` is a list of
    paths, so it is a path map: a folder's line keeps du's size (`1.8M\tcrypto/tls/ (155
    files)`), and a folder holding one file is that file's line."""
    text = (Path(__file__).parent / "corpus" / "du-ah-go-stdlib-crypto" / "output.txt").read_text()
    rows = text.splitlines()
    result = clip(text, 1000, counter)
    assert result.kind == "tree"
    in_megabytes = [row for row in rows if row.split("\t")[0].endswith("M")]
    assert len(in_megabytes) >= 6
    shown = result.text.splitlines()
    assert all(any(line.startswith(row) for line in shown) for row in in_megabytes)


def test_a_csv_keeps_its_header_row_and_counts_what_it_leaves_out(counter):
    result = clip(CSV, 400, counter)
    rows = CSV.rstrip("\n").split("\n")
    cut = [line for first, last in result.omitted for line in range(first, last + 1)]
    assert result.text.startswith(rows[0] + "\n")
    assert f" of {len(rows):,} " in result.text
    shown = [line for line in result.text.splitlines() if not line.startswith("[…")]
    whole = [line for line in shown if line in rows]
    assert len(whole) + len(cut) == len(rows)
    assert len(shown) - len(whole) <= 1  # what is left of the budget may show part of a row


def test_omitted_rows_that_name_paths_are_counted_by_directory(counter):
    """The note counts every row the gaps leave out (the largest files between head and tail
    split the middle into several gaps), by the folder each names."""
    result = clip(TSV, 1500, counter)
    rows = TSV.rstrip("\n").split("\n")
    gaps = re.findall(r"^\[… lines? ([\d,]+)(?:–([\d,]+))? omitted", result.text, re.M)
    assert len(gaps) > 1
    cut = [row for first, last in gaps for row in rows[number(first) - 1:number(last or first)]]
    note = re.search(r"^\(omitted rows by directory: (.*)\)$", result.text, re.M)
    groups = re.findall(r"(\S+) ([\d,]+)", note[1])
    assert sum(number(n) for _, n in groups) == len(cut)
    for folder, n in groups:
        inside = [row for row in cut if row.split("\t")[0].startswith(folder)]
        assert len(inside) >= number(n)


@pytest.mark.parametrize("budget", [1500, 4700])
def test_overlong_rows_keep_their_start_and_say_how_much_is_cut(counter, budget):
    """`ps u`'s command lines run to 369 characters: cut at 300 at 1500 tokens, and shown
    whole at 4700, where a row is cut only past a fifth of the budget (costs.line_limit)."""
    limit = line_limit(budget)
    result = clip(PS, budget, counter)
    rows = PS.rstrip("\n").split("\n")
    long_rows = [row for row in rows if len(row) > 300]
    assert long_rows
    shown = [line for line in result.text.splitlines()
             if any(line.startswith(row[:300]) for row in long_rows)]
    assert shown
    for line in shown:  # cut by the planner, or shown whole with what the plan left over
        row = next(r for r in long_rows if line.startswith(r[:300]))
        assert line in (row[:limit] + f" …[+{len(row) - limit:,} chars]", row)
    assert any(line.endswith(" chars]") for line in shown) == (limit < max(map(len, rows)))


def test_pip_list_keeps_its_title_and_underline(counter):
    result = clip(PIP_LIST, 150, counter)
    rows = PIP_LIST.split("\n")
    assert result.text.startswith("\n".join(rows[:2]) + "\n")


def test_prose_code_logs_search_results_and_path_lists_are_not_listings(corpus_dir):
    for page in ("README.md", "docs/shapes.md", "docs/agents/claude.md"):  # prose, tables, code
        prose = (Path(__file__).parents[1] / page).read_text()
        assert not listing.looks_like(prose.splitlines(), lookup("Read")), page
    numbered = [f"{n:>6}\t{line}" for n, line in enumerate(
        Path(listing.__file__).read_text().splitlines(), 1)]
    assert not listing.looks_like(numbered, lookup("Read"))
    paths = [row.split("\t")[0] for row in TSV.splitlines()[1:]]
    assert not listing.looks_like(paths, lookup("Glob")), "path lists are the search planner's"
    for case in ("grep-rn-express-req", "make-lua-link-error", "read-lodash-js",
                 "pytest-click-verbose-all-green", "log-zookeeper-quorum"):
        text = (corpus_dir / case / "output.txt").read_text(errors="replace")
        assert not listing.looks_like(text.splitlines(), lookup("Bash")), case


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(which=st.sampled_from(range(len(ALL))), start=st.integers(0, 200),
       length=st.integers(10, 1700), budget=st.integers(100, 3000))
def test_any_slice_of_a_real_listing_fits_its_budget_and_clips_the_same_twice(
        counter, which, start, length, budget):
    rows = ALL[which].splitlines(keepends=True)
    text = "".join(rows[start:start + length])
    first = compress(text, tool="Bash", budget=budget, counter=counter)
    assert counter.count(first.text) <= budget
    assert compress(text, tool="Bash", budget=budget, counter=counter) == first


def test_a_table_of_measures_keeps_its_largest_rows(counter):
    """`python3 -X importtime -c "import asyncio, json, email.mime.multipart"` (CPython 3.11.7,
    its stderr; tests/outputs/python-x-importtime-asyncio-json-email-3.11.txt): a `|` table
    whose columns measure (microseconds) keeps the rows that cost most, whatever their place."""
    text = (Path(__file__).parent / "outputs"
            / "python-x-importtime-asyncio-json-email-3.11.txt").read_text()
    rows = text.splitlines()[1:]
    heaviest = sorted(rows, key=lambda row: -int(row.split("|")[1]))[:5]
    out = compress(text, tool="Bash", budget=600, counter=counter).text
    assert counter.count(out) <= 600 and len(out.splitlines()) < len(rows) // 2
    assert all(row in out.splitlines() for row in heaviest)


def test_a_table_of_no_paths_keeps_the_rows_that_differ(counter):
    """`sqlite3 -column` of this machine's 734 installed Debian packages (real, in the corpus):
    at 1000 tokens the rows kept between head and tail are the ones that differ — the one
    package whose priority no other has, and the largest packages by installed size — where
    head and tail alone keep the packages that sort first and last."""
    corpus = Path(__file__).parent / "corpus" / "sqlite3-column-dpkg-packages" / "output.txt"
    text = corpus.read_text()
    rows = text.splitlines()
    body = [row.split() for row in rows[2:]]
    priorities = [cells[-1] for cells in body]
    lonely = [row for row, cells in zip(rows[2:], body) if priorities.count(cells[-1]) == 1]
    largest = sorted(rows[2:], key=lambda row: -int(row.split()[3]))[:3]
    result = clip(text, 1000, counter)
    assert result.kind == "listing"
    assert counter.count(result.text) <= 1000
    shown = result.text.splitlines()
    assert rows[0] in shown and rows[1] in shown
    assert lonely and all(row in shown for row in lonely)
    assert all(row in shown for row in largest)


CORPUS = Path(__file__).parent / "corpus"


def corpus_output(case: str) -> str:
    return (CORPUS / case / "output.txt").read_text()


def test_a_process_table_keeps_the_one_row_in_a_state_no_other_is_in(counter):
    """`ps -eo pid,ppid,user,stat,pcpu,pmem,rss,etime,comm` of this machine under a pgbench
    load (real, in the corpus): the zombie (STAT `Z`, on one row of 105), the busiest process
    by %CPU and the largest by RSS stay at 1000 tokens, though all sit in the table's middle;
    no PID (the table's own order) is taken for a measure."""
    text = corpus_output("ps-eo-pgbench-load-zombie")
    rows = text.splitlines()
    body = [row.split() for row in rows[1:]]
    zombie = [row for row, cells in zip(rows[1:], body) if cells[3] == "Z"]
    busiest = max(rows[1:], key=lambda row: float(row.split()[4]))
    largest = max(rows[1:], key=lambda row: int(row.split()[6]))
    result = clip(text, 1000, counter)
    assert result.kind == "listing"
    shown = result.text.splitlines()
    assert rows[0] in shown
    assert len(zombie) == 1 and zombie[0] in shown
    assert busiest in shown and largest in shown
    assert len(shown) < len(rows) // 2


def test_a_process_state_that_is_trouble_comes_first_of_the_middle(counter):
    """ps's state codes Z (a zombie), D (waiting on I/O) and T (stopped) are what a reader of a
    process table looks for; the first row of each comes with the troubled rows, the others of
    a state later. Before, the zombie of `ps -eo …,lstart,…` (real, in the corpus) ranked after
    the rare nice and priority values and was lost at 500 and 1000; `ps -eLo` of a Java
    service with three zombies and a stopped `tar` keeps the `tar` and one zombie at 500."""
    text = corpus_output("t2-ps-stuck-flock")
    zombie = next(row for row in text.splitlines() if row.split()[4] == "Z")
    for budget in (500, 1000):
        assert zombie in clip(text, budget, counter).text.splitlines(), budget
    text = corpus_output("ps-threads-java")
    rows = text.splitlines()
    stopped = [row for row in rows if row.split()[3] == "T"]
    zombies = [row for row in rows if row.split()[3] == "Z"]
    shown = clip(text, 500, counter).text.splitlines()
    assert len(stopped) == 1 and stopped[0] in shown
    assert len(zombies) == 3 and zombies[0] in shown


def test_a_column_of_several_words_is_read_as_one_cell(counter):
    """`ps -o …,lstart,…` prints its STARTED column as five words (`Sat Nov 28 21:34:24 2026`)
    and pads its numbers with single spaces, and a 6-digit RSS touches its TT (`530488 ?`):
    the columns are placed by the title where the blanks alone do not place them. Read by its
    words, a row's last cell took the date's end and the command (`… timeout`), and the
    `timeout` command was offered as a row naming a warning."""
    text = corpus_output("t2-ps-stuck-flock")
    rows = text.splitlines()
    table = listing._table(rows)
    assert table is not None
    cells = table.cells_of(rows[1])
    assert len(cells) == len(rows[0].split()) and cells[12] == "Sat Nov 28 17:47:39 2026"
    assert cells[-1] == "process_api"
    heavy = next(row for row in rows if "530488 ?" in row)
    assert table.cells_of(heavy)[10:12] == ["530488", "?"]


def test_a_table_whose_rows_name_paths_keeps_its_rare_rows_and_largest_file(counter):
    """`lsof -n -P -c postgres` (real, in the corpus: 1,007 rows, most of them mapped
    libraries): the rows name paths, so the omitted ones are counted by folder, and the rows
    that differ stay too — the one IPv4 socket (the server's LISTEN), a Unix socket, and the
    largest file the backends hold open."""
    text = corpus_output("lsof-n-P-c-postgres-pgbench")
    rows = text.splitlines()
    by_type: dict[str, list[str]] = {}
    for row in rows[1:]:
        by_type.setdefault(row.split()[4], []).append(row)
    sizes = [int(row.split()[6]) for row in rows[1:]
             if len(row.split()) == 9 and row.split()[6].isdigit()]
    result = clip(text, 1000, counter)
    assert result.kind == "listing"
    shown = result.text.splitlines()
    assert rows[0] in shown
    assert by_type["IPv4"][0] in shown and any(row in shown for row in by_type["unix"])
    assert any(row in shown and f" {max(sizes)} " in row for row in rows[1:])
    assert re.search(r"^\(omitted rows by directory: ", result.text, re.M)


def test_every_row_whose_value_is_not_the_columns_usual_one_shows_when_room_allows(counter):
    """psql's aligned result of `select name, setting, unit, context, source, pending_restart
    from pg_settings` (real, in the corpus: 354 settings, 325 of source `default`): at 6000
    tokens (of some 7,000) every setting whose source is not the default — set in the
    configuration file, for the database, by the client, overridden — is shown, with the
    header and the row count psql closes with."""
    text = corpus_output("psql-pg-settings-sources")
    rows = text.splitlines()
    data = [row for row in rows[2:] if row.count("|") == 5]
    sources = [row.split("|")[4].strip() for row in data]
    usual = max(set(sources), key=sources.count)
    changed = [row for row, source in zip(data, sources) if source != usual]
    result = clip(text, 6000, counter)
    assert result.kind == "listing"
    shown = result.text.splitlines()
    assert rows[0] in shown and rows[1] in shown
    assert changed and all(row in shown for row in changed)
    assert next(row for row in reversed(rows) if row.strip()) in shown


@pytest.mark.parametrize("case, header_lines", [
    ("top-b-n1-pgbench-load-zombie", 7),  # top's summary, a blank line, the title
    ("dpkg-l-debian-bookworm-dev-image", 5),  # dpkg's legend, the title and its rule
    ("sqlite3-box-iso3166-subdivision-counts", 3),  # the box's top, the title, its rule
])
def test_a_table_under_its_own_preamble_or_in_a_box_is_a_listing_that_keeps_its_header(
        case, header_lines, counter):
    """A table's structure outweighs what stands above it: `top -b`'s summary lines, `dpkg
    -l`'s legend, `sqlite3 -box`'s rules (all real, in the corpus). Each is sniffed as a
    listing and keeps every header line (the start of it, for a box wider than a line is
    kept), and its last line, at 1000 tokens."""
    text = corpus_output(case)
    rows = text.splitlines()
    result = clip(text, 1000, counter)
    assert result.kind == "listing"
    shown = result.text.splitlines()
    assert all(any(line.startswith(row[:40]) for line in shown) for row in rows[:header_lines])
    last = next(row for row in reversed(rows) if row.strip())
    assert any(line.startswith(last[:40]) for line in shown)


def test_a_psql_table_keeps_the_rows_on_a_flags_rare_side(counter):
    """psql's pg_locks under a row-lock wait (real, in the corpus): the `(90 rows)` footer and
    the rule are the table's own lines, so it is read as a table; at 1000 tokens its title and
    some of the locks not granted (`granted` is `f` on 7 rows of 90) stay, beside the footer."""
    text = corpus_output("psql-pg-locks-row-lock-wait")
    rows = text.splitlines()
    waiting = [row for row in rows[2:-1] if "|" in row and row.split("|")[10].strip() == "f"]
    result = clip(text, 1000, counter)
    assert result.kind == "listing"
    shown = result.text.splitlines()
    assert rows[0] in shown and "(90 rows)" in shown
    assert 2 <= len(waiting) <= 9 and sum(row in shown for row in waiting) >= 2


def test_a_table_under_its_title_keeps_its_largest_rows(counter):
    """psql's `\\dt+` (real, in the corpus): a centred title above the column titles; sizes
    in `kB` and in `bytes` are one measure, and the largest table stays at 1000 tokens."""
    text = corpus_output("psql-dt-plus-pg-catalog-sizes")
    rows = text.splitlines()
    sized = [row for row in rows[3:] if row.count("|") == 7]
    largest = max(sized, key=lambda row: listing._number(row.split("|")[6]) or 0)
    result = clip(text, 1000, counter)
    assert result.kind == "listing"
    assert largest in result.text.splitlines() and rows[1] in result.text.splitlines()


def test_a_table_of_numbers_under_lower_case_titles_keeps_its_outliers(counter):
    """vmstat (real, in the corpus): column groups over lower-case titles over rows of numbers,
    some wider than their column. It is a table; the seconds with a blocked process (`b` is 1
    on 2 rows of 30) and the most blocks written stay at 1000 tokens."""
    text = corpus_output("vmstat-w-1-30-pgbench-load")
    rows = text.splitlines()
    samples = [row for row in rows if row.split()[0].isdigit()]
    blocked = [row for row in samples if row.split()[1] != "0"]
    most_written = max(samples, key=lambda row: int(row.split()[9]))
    result = clip(text, 1000, counter)
    assert result.kind == "listing"
    shown = result.text.splitlines()
    assert rows[1] in shown and len(blocked) == 2 and all(row in shown for row in blocked)
    assert most_written in shown


def test_a_long_listing_keeps_a_rare_permission(counter):
    """`ls -l /usr/bin` (real, in the corpus): a setuid or setgid program (`-rwsr-xr-x`,
    `-rwxr-sr-x`, on few rows of 1,062) stays at 1000 tokens beside the largest file."""
    text = corpus_output("ls-l-usr-bin-debian-bookworm")
    rows = text.splitlines()
    setuid = [row for row in rows if row[:1] == "-" and "s" in (row[3], row[6])]
    largest = max(rows[1:], key=lambda row: int(row.split()[4]) if row.split()[4].isdigit() else 0)
    shown = clip(text, 1000, counter).text.splitlines()
    assert 0 < len(setuid) < 20 and any(row in shown for row in setuid)
    assert largest in shown


def test_cells_are_read_by_position_with_spaces_and_empty_ones(counter):
    """`column -t` of /etc/passwd (real, in the corpus): a GECOS value holds spaces on some
    rows and is empty on others; each row is still read in the title's seven columns."""
    rows = corpus_output("column-t-passwd-debian-container").splitlines()
    table = listing._table(rows)
    titles = rows[0].split()
    for row in rows[1:]:
        cells = table.cells_of(row)
        fields = row.split(None, 3)
        assert len(cells) == len(titles) and cells[:3] == fields[:3]
        assert cells[-1] == row.split()[-1] and cells[-2] == row.split()[-2]
    assert any(" " in table.cells_of(row)[4] for row in rows[1:])
    assert any(table.cells_of(row)[4] == "" for row in rows[1:])


def test_a_long_listing_keeps_its_oldest_file_beside_its_largest(counter):
    """`find /usr/lib/python3/dist-packages -maxdepth 2 -ls` of this machine (real, in the
    corpus: 469 rows, dates of the last six months with a time, older ones with a year): at
    1000 tokens the oldest file (by its year, then month and day) and the largest stay, though
    both sit in the listing's middle."""
    text = corpus_output("find-ls-dist-packages-maxdepth2")
    rows = text.splitlines()
    months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    def date(row: str) -> tuple:
        month, day, when = row.split()[7:10]
        year = int(when) if ":" not in when else 10_000
        return (year, months.index(month), int(day))

    oldest = min(rows, key=date)  # the first of the oldest, as min() gives it
    largest = max(rows, key=lambda row: int(row.split()[6]))
    result = clip(text, 1000, counter)
    assert result.kind == "listing"
    shown = result.text.splitlines()
    assert oldest in shown and largest in shown
    assert rows.index(oldest) not in (0, len(rows) - 1)


def test_a_boxed_psql_result_keeps_every_row_of_a_rare_value(counter):
    """psql with `border 2` (a boxed table) of the `pg_*` functions of pg_proc (real, in the
    corpus: 405 rows, 402 in language `internal`): at 1000 tokens the three written in `sql`
    stay, with the title row and psql's row count."""
    text = corpus_output("psql-border2-pg-proc-pg-functions")
    rows = text.splitlines()
    sql = [row for row in rows if row.count("|") == 11 and row.split("|")[10].strip() == "sql"]
    result = clip(text, 1000, counter)
    assert result.kind == "listing"
    shown = result.text.splitlines()
    assert len(sql) == 3 and all(row in shown for row in sql)
    assert rows[1] in shown and "(405 rows)" in shown


@pytest.mark.parametrize("name", ["git-ls-tree-r-l-commons-cli.txt", "git-ls-tree-r-l-redis.txt"])
@pytest.mark.parametrize("budget", [500, 1000])
def test_a_row_holding_data_is_no_title_over_a_table(name, budget, counter):
    """`git ls-tree -r -l` (real: commons-cli, redis): each row is `mode type object
    size<TAB>path`, two fields a tab apart, so its first row once read as the title of a TSV
    and the clip kept head and tail. A row whose fields hold a number of three digits or an
    object id is data: the rows are templated (the top-level names that masking leaves whole,
    `BUGS`, `INSTALL`, are no templates of their own), and the largest blob and an executable
    are kept."""
    text = (REAL / name).read_text()
    rows = text.splitlines()
    assert not listing.looks_like_a_delimited_table(rows[:50], lookup("Bash"))
    executables = [row for row in rows if row.startswith("100755 ")]
    largest = max(rows, key=lambda row: int(row.split("\t")[0].split()[3]))
    assert executables and len(rows) > 100
    out = compress(text, tool="Bash", budget=budget, counter=counter).text.splitlines()
    assert counter.count("\n".join(out)) <= budget
    assert largest in out and any(row in out for row in executables)


def test_a_table_s_rows_that_differ_outrank_its_head_rows(counter):
    """psql's pg_locks during a row-lock wait (real): 90 locks, 8 of them not granted (`f` in
    the granted column) — the waiters a reader is looking for — among 82 granted. The rows that
    differ get three quarters of a table's rows room: at 1000 tokens every lock not granted is
    shown, where half the room showed the head's granted locks instead."""
    text = (CORPUS / "psql-pg-locks-row-lock-wait" / "output.txt").read_text()
    rows = text.splitlines()
    waiting = [row for row in rows[2:] if row.count("|") == 11
               and row.split("|")[10].strip() == "f"]
    assert len(waiting) == 8
    out = compress(text, tool="Bash", budget=1000, counter=counter).text
    assert counter.count(out) <= 1000
    assert all(row in out.splitlines() for row in waiting)


def test_a_symbolic_links_row_is_counted_under_the_links_own_folder(counter):
    """`fdfind -l` of a library folder (real, `ls -l` rows): its `libssl.so -> libssl.so.3`
    rows name the link, not its target (`libz.so -> /lib/x86_64-linux-gnu/libz.so.1.2.13`
    lies in another folder). Every omitted row is counted under the folder it is in."""
    text = (Path(__file__).parent / "corpus" / "fdfind-l-e-so-usr-lib-multiarch-debian12"
            / "output.txt").read_text()
    rows = text.rstrip("\n").split("\n")
    assert sum(" -> " in row for row in rows) > 50
    result = clip(text, 1000, counter)
    gaps = re.findall(r"^\[… lines? ([\d,]+)(?:–([\d,]+))? omitted", result.text, re.M)
    cut = [row for first, last in gaps for row in rows[number(first) - 1:number(last or first)]]
    note = re.search(r"^\(omitted rows by directory: (.*)\)$", result.text, re.M)
    groups = re.findall(r"(\S+) ([\d,]+)", note[1])
    assert sum(number(n) for _, n in groups) == len(cut)
    assert all(folder.startswith("/usr/lib/x86_64-linux-gnu/") for folder, _ in groups)


@pytest.mark.parametrize("budget", [1000, 2000])
def test_a_column_that_goes_below_zero_keeps_its_extremes_at_both_ends_first(counter, budget):
    """`column -s, -t` of the US employment series (real, in the corpus: 120 months by 24
    columns): its last column is the month's change, negative in a recession. Its lowest and
    its highest month (the worst loss and the largest gain) are what a reader scans it for;
    only largest values were kept, and those of the first columns first, so neither showed.
    A signed column's extremes come first, lowest and highest in turn: at 1000 tokens (eight
    of these wide rows) the worst month, at 2000 the best one too."""
    corpus = Path(__file__).parent / "corpus" / "column-employment" / "output.txt"
    rows = corpus.read_text().splitlines()
    change = {row: int(row.split()[-1]) for row in rows[1:]}
    assert min(change.values()) < 0 < max(change.values())
    worst = min(change, key=change.get)
    best = max(change, key=change.get)
    result = clip(corpus.read_text(), budget, counter)
    assert result.kind == "listing"
    starts = [line[:60] for line in result.text.splitlines()]  # a wide row is cut, not dropped
    assert worst[:60] in starts
    if budget >= 2000:
        assert best[:60] in starts


def test_a_wide_table_s_rows_are_cut_later_with_a_larger_budget(counter):
    """The employment series' rows run 437 characters, its change in the last column: cut at
    MAX_LINE_CHARS, the rows kept for that column lost it at every budget. A row is cut at
    MAX_LINE_CHARS or a fifth of the budget (costs.line_limit), whichever is more: at 4000
    tokens the worst and the best month are shown whole."""
    corpus = Path(__file__).parent / "corpus" / "column-employment" / "output.txt"
    rows = corpus.read_text().splitlines()
    change = {row: int(row.split()[-1]) for row in rows[1:]}
    assert min(len(row) for row in change) > MAX_LINE_CHARS
    result = clip(corpus.read_text(), 4000, counter)
    shown = result.text.splitlines()
    assert min(change, key=change.get) in shown and max(change, key=change.get) in shown
    assert rows[0] in shown  # the title names every column
