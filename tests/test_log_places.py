"""What a log's error tiers used to leave out, on real outputs nobody tuned on (issue #22):

- a warning repeated in another file is another place to fix, not a repeat of the first
  (`make -k` of a half-renamed C function: each caller warns);
- an error's explanation after a blank line, announced by a line ending in a colon with the
  list under it indented (pip's "The conflict is caused by:");
- an error record's DETAIL, HINT and STATEMENT records, written by the same process at the
  same moment (a PostgreSQL server log), and the log's one-off records (a backend killed, the
  server resetting) among thousands of routine ones.

Every expected line is found in the input by what it says, never copied from the output.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import clip_log
from headroom_cli.api import compress


def test_a_warning_in_another_file_is_kept_beside_the_first(counter):
    """Both callers of the renamed function warn with the same message, in lapi.c and in
    lvm.c: the second is a place to fix, not a repeat of the first."""
    lines, kept = clip_log("make-k-lua-half-renamed-luaH-getn", 2000, counter)
    implicit = [line for line in lines if "warning: implicit declaration of function" in line]
    files = {line.split(":", 1)[0] for line in implicit}
    assert len(files) == 2
    for line in implicit:
        assert any(out.startswith(line) for out in kept), line


def test_the_list_an_error_announces_after_a_blank_line_is_kept(counter):
    """pip's ResolutionImpossible: "ERROR: Cannot install …", a blank line, "The conflict is
    caused by:" and the requirements under it, at a quarter of the default budget."""
    lines, kept = clip_log("pip-install-vvv-hatch-vcs-setuptools-scm-conflict", 1000, counter)
    header = lines.index("The conflict is caused by:")
    assert lines[header - 2].startswith("ERROR: Cannot install") and not lines[header - 1]
    listed = [line for line in lines[header + 1:header + 10] if line.startswith("    ")]
    assert len(listed) == 2
    for line in [lines[header], *listed]:
        assert line in kept, line


def test_an_error_records_details_from_its_process_are_kept(counter):
    """Each ERROR record of the server log with the records its process wrote at the same
    moment right after it (DETAIL, HINT, STATEMENT), at a quarter of the default budget."""
    lines, kept = clip_log("postgres-15-server-log-backend-killed-deadlock-recovery", 2000, counter)
    moment = re.compile(r".*?\[\d+\]")
    errors = [i for i, line in enumerate(lines) if " ERROR:  " in line]
    assert len(errors) == 3
    for index in errors:
        prefix = moment.match(lines[index]).group()
        details = [lines[index]]
        for line in lines[index + 1:]:
            if not line.startswith(prefix) or " ERROR:  " in line:
                break
            details.append(line)
        assert len(details) >= 2
        for line in details:
            assert line in kept, line


def test_the_one_off_records_of_a_server_log_are_kept(counter):
    """Among a thousand statement-duration and connection records, the postmaster's records
    of a backend killed by a signal and of the reset that followed, at the default budget."""
    lines, kept = clip_log("postgres-15-server-log-backend-killed-deadlock-recovery", 4000, counter)
    routine = sum(" duration: " in line or " connection " in line for line in lines)
    assert routine > len(lines) // 2
    crash = [line for line in lines if re.search(
        r"was terminated by signal|all server processes terminated|interrupted while in recovery",
        line)]
    assert len(crash) == 3
    for line in crash:
        assert line in kept, line


def test_a_process_killed_by_a_signal_comes_first_among_the_one_off_records(counter):
    """At half the default budget the one-off records do not all fit: the one that says a
    server process was killed by a signal (no error word in it) is kept before the others."""
    lines, kept = clip_log("postgres-15-server-log-backend-killed-deadlock-recovery", 2000, counter)
    killed = [line for line in lines if "was terminated by signal" in line]
    assert len(killed) == 1 and " ERROR" not in killed[0]
    assert killed[0] in kept


def test_a_go_project_s_internal_package_is_its_own_place_node_s_internals_are_not():
    """An error's place is looked for among the project's own lines: Go's `internal/`
    packages are a project's code (`go vet`'s form), while Node's own frames, `(node:…)` and
    before Node 16 `(internal/…)`, are the runtime's."""
    from headroom_cli.planners.log.planning import _is_project_place

    assert _is_project_place("internal/cmd/root.go:145:17: undefined: programRun")
    assert _is_project_place("/home/dev/crush/internal/lsp/client.go:72:2: declared and not used: c")
    assert not _is_project_place("    at emit (node:events:517:28)")
    assert not _is_project_place(
        "    at process._tickCallback (internal/process/next_tick.js:68:7)")


VALGRIND = (Path(__file__).resolve().parent / "real"
            / "valgrind-memcheck-redis-getdel-use-after-free.txt")


@pytest.mark.parametrize("budget", [500, 1000])
def test_memcheck_s_error_records_are_errors(budget, counter):
    """valgrind memcheck on redis-server with a use-after-free in GETDEL (real, 1,326 lines):
    its records say what went wrong without an error word (`Invalid read of size 1`). They
    are errors: the first is kept with its top frame, and its count goes into the marker."""
    text = VALGRIND.read_text()
    rows = text.splitlines()
    first = next(at for at, row in enumerate(rows) if row.endswith("Invalid read of size 1"))
    out = compress(text, tool="Bash", budget=budget, counter=counter).text
    assert counter.count(out) <= budget
    kept = out.splitlines()
    assert rows[first] in kept and rows[first + 1] in kept  # `at 0x1C34A1: stringObjectLen`


def test_a_memcheck_record_keeps_the_head_of_each_of_its_parts(counter):
    """A memcheck record is the read's frames, then `Address 0x… is 0 bytes inside a block of
    size 16 free'd` with the frames that freed it: 50 lines. Trimmed, it keeps beside its first
    line the head of its second part (a line less indented than the frame before it) and the
    frames that follow it: where the block was freed."""
    text = VALGRIND.read_text()
    rows = text.splitlines()
    address = rows.index("==20952==  Address 0x4f9f220 is 0 bytes inside a block of size 16 free'd")
    assert address < 40  # the first record's
    kept = compress(text, tool="Bash", budget=4000, counter=counter).text.splitlines()
    assert rows[address] in kept
    freed_by = "==20952==    by 0x1EF04F: getdelCommand (t_string.c:404)"
    assert rows[address + 7] == freed_by and freed_by in kept


def test_helgrind_s_race_records_are_errors(counter):
    """valgrind helgrind on redis-benchmark's two threads (real, 384 lines): its records say
    `Possible data race during read of size 4 at 0x14B5AC by thread #3`, no error word, and
    the log fell to the general rung, which kept one exemplar of the record form with its
    count and no write race. Read as errors, each kind's first instance (a read's, a write's)
    is kept with its frame, and so is the closing `ERROR SUMMARY`."""
    text = (Path(__file__).resolve().parent / "corpus"
            / "valgrind-helgrind-redis-benchmark-7.4.1-threads-hdr-histogram-races"
            / "output.txt").read_text()
    rows = text.splitlines()
    races = [at for at, row in enumerate(rows) if "Possible data race during" in row]
    assert len(races) == 10
    write = next(at for at in races if "during write" in rows[at])
    out = compress(text, tool="Bash", budget=1000, counter=counter).text
    assert counter.count(out) <= 1000
    kept = out.splitlines()
    assert rows[races[0]] in kept and rows[write] in kept
    assert any(row.endswith("ERROR SUMMARY: 31165 errors from 10 contexts (suppressed: 0 from 0)")
               for row in kept)


@pytest.mark.parametrize("case, record", [
    ("lintian-2.116-info-pedantic-prometheus-libperl-pandoc-amqp-tools",
     "W: prometheus: hardening-no-pie [usr/bin/prometheus]"),
    ("apt-get-install-s-debug-resolver-mta-conflict",
     "E: Unable to correct problems, you have held broken packages."),
])
def test_debian_tools_letter_levels_are_records(case, record, counter):
    """apt and lintian open a record with its level's letter (`E: …`, `W: …`) and often no
    error word: lintian's warning that a Go binary was built without PIE, apt's verdict on a
    resolver conflict. Read as a warning (counted with its repeats, `(×2)`) and an error,
    both are kept at 500 tokens."""
    text = (Path(__file__).resolve().parent / "corpus" / case / "output.txt").read_text()
    assert record in text.splitlines()
    out = compress(text, tool="Bash", budget=500, counter=counter).text
    assert counter.count(out) <= 500
    assert any(row == record or row.startswith(record + "  (×") for row in out.splitlines())


def test_records_above_error_come_before_the_errors(counter):
    """A PostgreSQL 15 server log (real, 340 lines: 9 ERROR records of 8 kinds, 2 FATAL). A
    FATAL record is a connection given up (`role "app" does not exist`), graver than a
    statement's ERROR: at 500 tokens both are kept, whatever the ERROR kinds' rarity."""
    text = (Path(__file__).resolve().parent / "real"
            / "postgres-15-server-log-shop-deadlock-fatal-logins.txt").read_text()
    fatal = [row for row in text.splitlines() if " FATAL: " in row]
    assert len(fatal) == 2
    out = compress(text, tool="Bash", budget=500, counter=counter).text
    assert counter.count(out) <= 500
    assert all(row in out.splitlines() for row in fatal)


@pytest.mark.parametrize("case", ["clang-tidy-14-redis-bugprone-cert",
                                  "cargo-clippy-restriction-semver"])
def test_a_source_line_a_caret_points_into_is_no_record(case):
    """A compiler or linter quotes the source line under its diagnostic and points into it
    with a caret line (clang-tidy's `    ^~~~~~`, rustc's under a gutter: `  |     ^^^^`).
    The quoted line is code: redis's `snprintf(buf, …, "Query buffer during protocol error:
    …")` and semver's `pub(crate) enum ErrorKind {` are no error records, however their words
    read, and take no room from the diagnostics. A caret line above another (shellcheck's
    findings, one under another) is no quote."""
    from headroom_cli.clean import clean
    from headroom_cli.plan import Lines
    from headroom_cli.planners.log.planning import signal_lines

    text = clean((Path(__file__).resolve().parent / "corpus" / case / "output.txt").read_text())
    rows = text.splitlines()
    caret = re.compile(r"\s*(?:\d+\s*)?(?:\|\s*)?[~^][~^ -]*(?:$|\S)")
    quoted = {i for i in range(len(rows) - 1)
              if "^" in rows[i + 1] and caret.match(rows[i + 1]) and not caret.match(rows[i])}
    assert any(re.search(r"(?i)error|fail", rows[i]) for i in quoted)  # words read as one
    errors, _ = signal_lines(text, Lines(text))
    assert [rows[i] for i in errors if i in quoted] == []


def test_each_warning_kind_shows_before_a_kinds_second_form(counter):
    """clang-tidy on redis (real, 1,318 lines): 149 warnings of 9 checks, 62 of them
    narrowing conversions in a dozen wordings. The rarest checks (one suspicious `sizeof`, one
    string compare without a result test) are what a reviewer looks for; each check shows once
    at 2000 tokens before any check's second wording."""
    text = (Path(__file__).resolve().parent / "corpus" / "clang-tidy-14-redis-bugprone-cert"
            / "output.txt").read_text()
    check = re.compile(r": warning: .*\[([a-z][\w.-]*)\]$")
    kinds = {m.group(1) for m in map(check.search, text.splitlines()) if m}
    assert len(kinds) >= 8
    out = compress(text, tool="Bash", budget=2000, counter=counter).text
    assert counter.count(out) <= 2000
    shown = {m.group(1) for m in map(check.search, (row.split("  (×")[0] for row in
                                                     out.splitlines())) if m}
    assert shown == kinds


def test_gdb_s_crash_on_a_core_file_is_an_error(counter):
    """gdb on a core file says how the program died in words that name no error (`Program
    terminated with signal SIGSEGV, Segmentation fault.`), as it does live (`Program received
    signal …`): an error, kept at 1000 tokens with the frame it stopped in below it, before
    the core file's section warnings."""
    from headroom_cli.clean import clean
    from headroom_cli.plan import Lines
    from headroom_cli.planners.log.planning import signal_lines

    text = clean((Path(__file__).resolve().parent / "corpus"
                  / "gdb-core-jobq-thread-apply-all-bt-full" / "output.txt").read_text())
    rows = text.splitlines()
    crash = next(i for i, row in enumerate(rows) if row.startswith("Program terminated with signal"))
    errors, _ = signal_lines(text, Lines(text))
    assert crash in errors
    frame = next(row for row in rows[crash:] if row.startswith("#0 "))
    out = compress(text, tool="Bash", budget=1000, counter=counter).text.splitlines()
    assert rows[crash] in out and frame in out


def test_an_apache_error_log_record_is_of_the_level_its_module_bracket_names():
    """Apache httpd 2.4's error log (real) writes each record's level after its module:
    `[proxy_http:error]`, `[cgid:error]`, `[mpm_event:notice]`. Its 207 error records (a proxy
    timeout, a refused backend, a CGI script that died) are errors; its notices (`caught
    SIGTERM, shutting down`) are not, whatever their words."""
    from headroom_cli.clean import clean
    from headroom_cli.plan import Lines
    from headroom_cli.planners.log.planning import signal_lines

    text = clean((Path(__file__).resolve().parent / "corpus"
                  / "apache-2.4.71-error-log-cgi-traceback-proxy-ah01102" / "output.txt"
                  ).read_text())
    rows = text.splitlines()
    level = re.compile(r"^\[[^\]]+\] \[\w*:(\w+)\]")
    levels = {i: m[1] for i, row in enumerate(rows) if (m := level.match(row))}
    assert sum(value == "error" for value in levels.values()) > 200
    errors, warnings = signal_lines(text, Lines(text))
    assert {i for i, value in levels.items() if value == "error"} <= set(errors)
    assert not {i for i, value in levels.items() if value == "notice"} & set(errors + warnings)
