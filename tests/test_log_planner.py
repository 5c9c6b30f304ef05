"""The log planner: keep every error with its trace, dedup every warning, within the budget.

Inputs are small real-looking logs written here; expected numbers are counted from the inputs,
never copied from the planner's output. The corpus tests check the needles a person debugging
looks for at budget 4000.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import GROWN_DIR, corpus_case, corpus_cases
from headroom_cli.clean import clean
from headroom_cli.fit import fit
from headroom_cli.plan import Gap, Keep, Lines, Note
from headroom_cli.planners import log
from headroom_cli.planners.log import planning as log_planning
from headroom_cli.render import Context
from headroom_cli.tokens import load_counter
from headroom_cli.tools import lookup

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


@pytest.fixture(scope="module")
def cl100k():
    return load_counter("cl100k_base")


def clip(text: str, budget: int, counter, tool: str = "Bash") -> tuple[object, str]:
    """The log planner through the exact token check, as the CLI runs it."""
    lines = Lines(text)
    return fit(text, lines, log.plan, budget, counter, Context(lookup(tool)))


def sniff(text: str, tool: str) -> bool:
    return log.looks_like(text.splitlines(), lookup(tool))


def check_plan_shape(plan, text: str) -> None:
    """Keeps and gaps tile the text in order; the omitted count is the gaps' line count."""
    position, omitted = 0, 0
    for item in plan.items:
        if isinstance(item, Note):
            continue
        assert item.start == position
        position = item.end
        if isinstance(item, Gap):
            omitted += item.last_line - item.first_line + 1
    assert position == len(text)
    assert plan.omitted_lines == omitted


# ------------------------------------------------------------------------------ test runners

PYTEST_FAILURE = "\n".join([
    "============================= test session starts ==============================",
    "platform linux -- Python 3.11.7, pytest-8.0.0, pluggy-1.4.0",
    "rootdir: /home/dev/calc",
    "collected 412 items",
    "",
    *[f"tests/test_module_{i:02d}.py {'.' * 40}{' ' * 20}[{i * 2:3d}%]" for i in range(45)],
    "tests/test_calc.py ....F.......                                          [ 95%]",
    "",
    "=================================== FAILURES ===================================",
    "_________________________________ test_divide __________________________________",
    "",
    "    def test_divide():",
    "        calc = Calculator()",
    ">       assert calc.divide(6, 3) == 2",
    "E       assert 2.5 == 2",
    "E        +  where 2.5 = <bound method Calculator.divide>(6, 3)",
    "",
    "tests/test_calc.py:14: AssertionError",
    "=========================== short test summary info ============================",
    "FAILED tests/test_calc.py::test_divide - assert 2.5 == 2",
    "========================= 1 failed, 411 passed in 3.21s =========================",
]) + "\n"


def test_pytest_failure_keeps_the_failure_and_the_summaries(cl100k):
    plan, out = clip(PYTEST_FAILURE, 400, cl100k)
    assert plan.kind == "log" and plan.omitted_lines > 0
    for needle in ("E       assert 2.5 == 2", "tests/test_calc.py:14: AssertionError",
                   "FAILED tests/test_calc.py::test_divide - assert 2.5 == 2",
                   "1 failed, 411 passed in 3.21s", "collected 412 items",
                   ">       assert calc.divide(6, 3) == 2"):
        assert needle in out
    assert cl100k.count(out) <= 400
    check_plan_shape(plan, PYTEST_FAILURE)


def test_pytest_output_is_sniffed_as_log_for_shell_tools_only():
    assert sniff(PYTEST_FAILURE, "Bash")
    # A Read of the same text is not a log file: its lines are not log records.
    assert not sniff(PYTEST_FAILURE, "Read")


def test_all_green_pytest_run_still_plans_as_log(cl100k):
    lines = ["============================= test session starts ==============================",
             "collecting ... collected 1500 items", ""]
    lines += [f"tests/test_api.py::test_case_{i} PASSED{' ' * 30}[{i * 100 // 1500:3d}%]"
              for i in range(1500)]
    lines += ["", "============================= 1500 passed in 9.87s ============================="]
    text = "\n".join(lines) + "\n"
    assert sniff(text, "Bash")
    plan, out = clip(text, 600, cl100k)
    assert plan.kind == "log"
    assert "collecting ... collected 1500 items" in out
    assert "1500 passed in 9.87s" in out
    assert lines[-3] in out  # the last test line: the run completed
    assert "omitted errors" not in out  # nothing failed, nothing to count
    assert cl100k.count(out) <= 600


def test_unittest_failure_report_keeps_header_exception_and_innermost_frame(cl100k):
    verbose = [f"test_case_{i} (tests.test_more.Cases.test_case_{i}) ... ok" for i in range(600)]
    report = [
        "======================================================================",
        "ERROR: test_empty (tests.test_more.FirstTests.test_empty)",
        "----------------------------------------------------------------------",
        "Traceback (most recent call last):",
        '  File "/src/tests/test_more.py", line 132, in test_empty',
        "    mi.first([])",
        '  File "/src/more_itertools/more.py", line 272, in first',
        "    raise ValueError.with_message(",
        "AttributeError: type object 'ValueError' has no attribute 'with_message'",
        "",
        "----------------------------------------------------------------------",
        "Ran 601 tests in 2.512s",
        "",
        "FAILED (errors=1)",
    ]
    text = "\n".join(verbose + report) + "\n"
    plan, out = clip(text, 500, cl100k)
    for needle in ("ERROR: test_empty (tests.test_more.FirstTests.test_empty)",
                   "AttributeError: type object 'ValueError' has no attribute 'with_message'",
                   'File "/src/more_itertools/more.py", line 272, in first',
                   "Ran 601 tests in", "FAILED (errors=1)"):
        assert needle in out
    assert cl100k.count(out) <= 500


# ------------------------------------------------------------------------------ compilers

def rustc_log(unresolved: int) -> str:
    blocks = []
    for i in range(unresolved):
        blocks += [
            "error[E0432]: unresolved import `crate::sorting`",
            f"  --> src/sorting/sort_{i}.rs:{20 + i}:16",
            "   |",
            f"{20 + i} |     use crate::sorting::is_sorted;",
            "   |                ^^^^^^^ could not find `sorting` in the crate root",
            "",
        ]
        if i == unresolved // 2:
            blocks += [
                "error[E0308]: mismatched types",
                " --> src/sorting/bubble_sort.rs:6:22",
                "  |",
                "6 |     let mut n: i32 = arr.len();",
                "  |                ---   ^^^^^^^^^ expected `i32`, found `usize`",
                "",
            ]
    blocks += ["error: aborting due to 41 previous errors", "",
               "Some errors have detailed explanations: E0308, E0432.",
               "For more information about an error, try `rustc --explain E0308`."]
    return "\n".join(blocks) + "\n"


def test_rustc_keeps_the_rare_error_and_counts_the_flood_by_code(cl100k):
    text = rustc_log(40)
    plan, out = clip(text, 500, cl100k)
    assert "error[E0308]: mismatched types" in out
    assert " --> src/sorting/bubble_sort.rs:6:22" in out
    assert "For more information about an error, try `rustc --explain E0308`." in out
    unresolved_in = text.count("error[E0432]")
    unresolved_out = out.count("error[E0432]")
    assert 0 < unresolved_out < unresolved_in
    assert f"E0432 ×{unresolved_in - unresolved_out}" in out
    assert cl100k.count(out) <= 500
    check_plan_shape(plan, text)


GCC_LINK = "\n".join([
    *[f"gcc -Wall -O2 -Wextra -Wshadow -Wundef -std=gnu99 -DLUA_COMPAT_5_3 -c -o l{name}.o "
      f"l{name}.c -I/usr/include/lua -fPIC -fno-common -march=native" for name in
      ("api", "code", "ctype", "debug", "do", "dump", "func", "gc", "lex", "mem", "object",
       "opcodes", "parser", "state", "string", "table", "tm", "undump", "vm", "zio")],
    "lauxlib.c:988:16: warning: no previous prototype for 'luaL_getsubtab' [-Wmissing-prototypes]",
    "  988 | LUALIB_API int luaL_getsubtab (lua_State *L, int idx, const char *fname) {",
    "      |                ^~~~~~~~~~~~~~",
    "ar rc liblua.a lapi.o lcode.o lctype.o ldebug.o ldo.o ldump.o lfunc.o lgc.o llex.o",
    "gcc -o lua -Wl,-E lua.o liblua.a -lm -ldl",
    "/usr/bin/ld: lua.o: in function `msghandler':",
    "lua.c:(.text+0xc4): undefined reference to `luaL_traceback'",
    "/usr/bin/ld: liblua.a(linit.o): in function `luaL_openselectedlibs':",
    "linit.c:(.text+0x2a): undefined reference to `luaL_getsubtable'",
    "/usr/bin/ld: liblua.a(loadlib.o): in function `luaopen_package':",
    "loadlib.c:(.text+0xddd): undefined reference to `luaL_getsubtable'",
    "collect2: error: ld returned 1 exit status",
    "make: *** [makefile:125: lua] Error 1",
    "make: Target 'all' not remade because of errors.",
]) + "\n"


def test_gcc_link_failure_keeps_every_undefined_reference(cl100k):
    plan, out = clip(GCC_LINK, 600, cl100k)
    undefined = [line for line in GCC_LINK.splitlines() if "undefined reference" in line]
    assert len(undefined) == 3
    for line in undefined:
        assert line in out
    for needle in ("collect2: error: ld returned 1 exit status",
                   "make: *** [makefile:125: lua] Error 1",
                   "make: Target 'all' not remade because of errors.",
                   "warning: no previous prototype for 'luaL_getsubtab'",
                   "/usr/bin/ld: lua.o: in function `msghandler':"):  # leading context
        assert needle in out
    assert cl100k.count(out) <= 600


# ------------------------------------------------------------------------------ java

def java_trace(frames: int) -> str:
    lines = [f"[INFO] Compiling module {i} of 120" for i in range(120)]
    lines.append('Exception in thread "main" java.lang.IllegalStateException: Failed to start')
    lines += [f"\tat org.example.boot.Starter.step{i}(Starter.java:{100 + i})"
              for i in range(frames)]
    lines.append("Caused by: java.io.UncheckedIOException: Could not open config")
    lines += [f"\tat org.example.config.Loader.load{i}(Loader.java:{40 + i})" for i in range(30)]
    lines.append("\t... 12 more")
    lines.append("Caused by: java.net.ConnectException: Connection refused (Connection refused)")
    lines.append("\tat java.base/sun.nio.ch.Net.connect0(Native Method)")
    lines.append("\tat java.base/sun.nio.ch.Net.connect(Net.java:579)")
    lines.append("\t... 57 more")
    lines += [f"[INFO] Shutdown hook {i} finished" for i in range(80)]
    return "\n".join(lines) + "\n"


def test_java_caused_by_chain_keeps_the_root_cause_and_its_frame(cl100k):
    text = java_trace(500)
    plan, out = clip(text, 700, cl100k)
    for needle in ("java.lang.IllegalStateException: Failed to start",
                   "Caused by: java.io.UncheckedIOException: Could not open config",
                   "Caused by: java.net.ConnectException: Connection refused",
                   "at java.base/sun.nio.ch.Net.connect0(Native Method)"):
        assert needle in out
    # The 500-frame trace cannot fit: its start and end stay, its middle is a gap.
    assert "Starter.step0(" in out and "Starter.step499(" in out
    assert "Starter.step250(" not in out
    assert cl100k.count(out) <= 700
    check_plan_shape(plan, text)


# ------------------------------------------------------------------------------ lint floods

def lint_flood(per_rule: dict[str, int], rare_at: int) -> str:
    messages = {"S101": "Use of `assert` detected",
                "ANN001": "Missing type annotation for function argument `value`",
                "D103": "Missing docstring in public function"}
    lines, index = [], 0
    for rule, count in per_rule.items():
        for _ in range(count):
            lines.append(f"tests/test_mod{index % 40}.py:{index + 1}:{index % 9 + 1}: "
                         f"{rule} {messages[rule]}")
            index += 1
    lines.insert(rare_at, "src/pkg/utils.py:157:12: F821 Undefined name `sequence`")
    total = sum(per_rule.values()) + 1
    lines += [f"Found {total} errors.", "[*] 93 fixable with the `--fix` option."]
    return "\n".join(lines) + "\n"


def test_lint_flood_keeps_the_one_rare_error_and_counts_the_rest_by_rule(cl100k):
    text = lint_flood({"S101": 1203, "ANN001": 802, "D103": 300}, rare_at=1500)
    plan, out = clip(text, 500, cl100k)
    assert "src/pkg/utils.py:157:12: F821 Undefined name `sequence`" in out
    assert "Found 2306 errors." in out
    assert "[*] 93 fixable with the `--fix` option." in out
    for rule in ("S101", "ANN001", "D103"):
        diagnostic = re.compile(rf"^\S+\.py:\d+:\d+: {rule} ", re.MULTILINE)
        omitted = len(diagnostic.findall(text)) - len(diagnostic.findall(out))
        assert f"{rule} ×{omitted:,}" in out
    assert cl100k.count(out) <= 500


def test_ruff_full_format_rule_line_is_an_error_with_its_location(cl100k):
    frame = ["  |", "5 | def handler(value):", "  |     ^^^^^^^", ""]
    blocks = []
    for i in range(200):
        blocks += [f"D103 Missing docstring in public function", f"  --> src/mod{i}.py:5:5", *frame]
    blocks[900:900] = ["F821 Undefined name `sequence`", "   --> src/requests/utils.py:157:12",
                       *frame]
    text = "\n".join(blocks + ["Found 201 errors."]) + "\n"
    assert sniff(text, "Bash")
    plan, out = clip(text, 400, cl100k)
    assert "F821 Undefined name `sequence`\n   --> src/requests/utils.py:157:12" in out
    assert "Found 201 errors." in out


# ------------------------------------------------------------------------------ dedup

def test_repeated_warning_is_kept_once_with_its_exact_count(cl100k):
    lines = ["Building project..."]
    for i in range(500):
        lines.append(f"src/mod{i % 37}.c:{i + 10}:5: warning: unused variable 'tmp' "
                     "[-Wunused-variable]")
        lines.append(f"cc -c src/mod{i % 37}.c -o build/mod{i % 37}.o -O2 -Wall")
    lines.append("src/main.c:88:3: warning: implicit declaration of function 'frob' "
                 "[-Wimplicit-function-declaration]")
    lines.append("Build finished with warnings.")
    text = "\n".join(lines) + "\n"
    repeats = sum(1 for line in lines if "unused variable 'tmp'" in line)
    plan, out = clip(text, 500, cl100k)
    first = lines[1]
    assert f"{first}  (×{repeats})" in out
    assert "implicit declaration of function 'frob'" in out  # a different warning: its own line
    assert cl100k.count(out) <= 500


def test_identical_errors_keep_first_and_last_and_count_the_rest(cl100k):
    lines = []
    for i in range(200):
        lines.append(f"2015-07-29 19:{i // 60:02d}:{i % 60:02d},413 - INFO  [Worker:{i}] - "
                     f"heartbeat {i} ok")
        lines.append(f"2015-07-29 19:{i // 60:02d}:{i % 60:02d},500 - ERROR [Handler-{1000 + i}]"
                     " - Unexpected exception causing shutdown while sock still open")
    text = "\n".join(lines) + "\n"
    assert sniff(text, "Read")  # every line is a log record
    plan, out = clip(text, 500, cl100k, tool="Read")
    errors = [line for line in lines if " ERROR " in line]
    assert errors[0] in out and errors[-1] in out
    kept = sum(1 for line in errors if line in out)
    assert f"Unexpected exception causing shutdown while sock… ×{len(errors) - kept}" in out
    assert cl100k.count(out) <= 500


# ------------------------------------------------------------------------------ sniffing

def test_prose_that_mentions_errors_is_not_a_log_when_read():
    prose = "\n".join(
        [f"Section {i}. An error in the configuration can lead to surprising behaviour, and "
         "error handling deserves care.\nError: this prefix is printed when something fails."
         for i in range(100)]) + "\n"
    assert not sniff(prose, "Read")
    assert not sniff(prose, "WebFetch")


def test_a_log_file_is_sniffed_when_read():
    records = "\n".join(f"2024-03-0{i % 9 + 1}T10:00:{i % 60:02d}.123Z INFO  api: served /x "
                        f"in {i} ms" for i in range(50)) + "\n"
    assert sniff(records, "Read")
    json_lines = "\n".join('{"ts": %d, "level": "info", "msg": "tick"}' % i
                           for i in range(50)) + "\n"
    assert sniff(json_lines, "Read")


def test_source_code_read_through_the_shell_is_not_a_log():
    code = "\n".join(["def parse(value):", "    try:", "        return int(value)",
                      "    except ValueError:", "        logger.error('bad value %r', value)",
                      "        raise ValueError('not a number')"] * 30) + "\n"
    assert not sniff(code, "Bash")


# ------------------------------------------------------------------------------ edges

def test_crlf_log_keeps_its_error(cl100k):
    text = "\r\n".join([f"step {i} done" for i in range(300)] +
                       ["error: could not open 'config.yml'", "Build failed."]) + "\r\n"
    plan, out = clip(clean(text), 200, cl100k)
    assert "error: could not open 'config.yml'" in out
    assert cl100k.count(out) <= 200


def test_output_that_fits_is_kept_whole(cl100k):
    text = PYTEST_FAILURE
    plan = log.plan(text, Lines(text), 10_000, cl100k, lookup("Bash"))
    assert plan.omitted_lines == 0
    assert [item for item in plan.items if isinstance(item, Keep)] == [Keep(0, len(text))]


def test_too_few_lines_declines(cl100k):
    assert log.plan("error: x\n", Lines("error: x\n"), 500, cl100k, lookup("Bash")) is None


# ------------------------------------------------------------------------------ corpus

@pytest.mark.parametrize("case", corpus_cases("log"))
def test_corpus_needles_survive_at_4000(case, cl100k):
    meta = json.loads((CORPUS / case / "meta.json").read_text())
    raw = (CORPUS / case / "output.txt").read_bytes().decode("utf-8", "surrogateescape")
    text = clean(raw)
    assert sniff(text, meta["tool"])
    for budget in (4000, 1000):
        plan, out = clip(text, budget, cl100k, tool=meta["tool"])
        assert cl100k.count(out) <= budget
        if plan.omitted_lines:
            assert re.search(r"omitted", out)
        if budget == 4000:
            missing = [n["text"] for n in meta["needles"] if n["text"] not in out]
            assert not missing


# ------------------------------------------------------------------------------ rust panics

CARGO_TEST = (Path(__file__).parent / "corpus" / "cargo-test-no-fail-fast-semver-prerelease-order"
              / "output.txt")


def test_a_rust_panic_with_a_thread_id_is_an_error_and_keeps_its_message(cl100k):
    """Rust 1.9x prints `thread 'name' (id) panicked at file:line:col:` and the message on the
    next line: at a quarter of the default budget every failing test's panic in this real
    `cargo test` run is kept, each with its message."""
    text = clean(CARGO_TEST.read_text())
    lines = text.splitlines()
    panics = [i for i, line in enumerate(lines)
              if re.match(r"thread 'test_\w+' \(\d+\) panicked at ", line)]
    assert len(panics) == 6  # test_gt, then five in test_version_req
    plan, out = clip(text, 1000, cl100k)
    assert cl100k.count(out) <= 1000
    kept = out.splitlines()
    for i in panics:
        assert lines[i] in kept
        assert kept[kept.index(lines[i]) + 1] == lines[i + 1]


@pytest.mark.parametrize("line, progress", [
    ("[ 13%] Linking C executable cJSON_test", True),
    ("   Compiling semver v1.0.27 (/tmp/hc/src/semver)", True),
    ("Downloading cchardet-2.1.7.tar.gz (653 kB)", True),
    ("tests/test_make.py ..................................................... [ 29%]", True),
    ("test_parse (tests.test_x.T.test_parse) ... ok", True),
    ("=== RUN   TestEqual", True),
    ("tests/test_funcs.py ..........................................FFF.F..... [ 14%]", False),
    ("  Building wheel for cchardet (pyproject.toml): finished with status 'error'", True),
    ("Building wheel for cchardet: error: command 'gcc' failed", False),
    ("make[2]: *** [CMakeFiles/cjson_utils.dir/build.make:76] Error 1", False),
    ("warning: unused variable `x`", False),
])
def test_progress_lines_say_only_that_work_goes_on(line, progress):
    assert log.signals.is_progress(line) == progress


def test_the_head_passes_over_a_run_of_progress_lines(cl100k):
    """A cmake build's `[ 42%] Building …` lines are the ladder's last rung: at a tight budget
    the make error survives instead of them."""
    meta, text = corpus_case(GROWN_DIR, "make-k-cjson-utils-undeclared")
    _, out = clip(text, 500, cl100k)
    assert cl100k.count(out) <= 500
    assert "error: ‘length’ undeclared (first use in this function)" in out
    assert "make[2]: *** [CMakeFiles/cjson_utils.dir/build.make:76: " in out


@pytest.mark.parametrize("budget", [500, 1000, 2000])
def test_the_omitted_errors_note_keeps_to_its_share_of_a_small_budget(cl100k, budget):
    """The note names fewer kinds at a small budget (at least one), so the errors it would
    count are kept instead."""
    meta, text = corpus_case(GROWN_DIR, "mypy-strict-toolz-1316-errors")
    _, out = clip(text, budget, cl100k)
    note = next(line for line in out.split("\n") if line.startswith("[omitted errors by kind:"))
    assert cl100k.count(note) <= 0.06 * budget or ", " not in note.split(" (and ")[0]
    if budget == 500:  # 8 kinds are omitted: naming them all takes ~60 tokens
        assert re.search(r"\(and [\d,]+ more kinds\)\]$", note)


def test_a_frame_shown_already_is_not_shown_again_while_a_new_one_waits(cl100k):
    """valgrind prints each invalid read with its stack down to `main`: every record ends in
    the same frames (`by 0x17B3D5: main (server.c:7275)`). Kept near each record's error line,
    they were printed once a record while the frame that names the command at fault
    (`getdelCommand (t_string.c:405)`) and the leak summary went. A block's line that repeats
    one kept waits for the lines not shown yet."""
    meta, text = corpus_case(GROWN_DIR, "valgrind-redis-getdel-use-after-free")
    _, out = clip(text, 1000, cl100k)
    assert cl100k.count(out) <= 1000
    rows = out.split("\n")
    main_frame = "==20952==    by 0x17B3D5: main (server.c:7275)"
    assert text.count(main_frame + "\n") > 2 and rows.count(main_frame) <= 1
    assert "==20952==    by 0x1EF06A: getdelCommand (t_string.c:405)" in out


def test_a_flood_s_instances_wait_behind_the_closing_report(cl100k):
    """pgbench retries 843 serialization failures, one error kind, before its report
    (`number of failed transactions: 244 (40.667%)`, `tps = …`). The kind's first and last
    instances and its count say what the other 841 would; they were spent, a dozen of them,
    until the report had no room. A kind of _FLOOD instances or more waits behind the log's
    one-off lines."""
    meta, text = corpus_case(GROWN_DIR, "pgbench-15-repeatable-read-serialization-retries")
    error = "ERROR:  could not serialize access due to concurrent update"
    assert text.count(error) > 800
    _, out = clip(text, 1000, cl100k)
    assert cl100k.count(out) <= 1000
    for line in ("number of failed transactions: 244 (40.667%)",
                 "number of serialization failures: 244 (40.667%)",
                 "total number of retries: 613"):
        assert line in out
    assert out.count(error) <= 10


def test_a_trace_s_frames_nearest_the_error_come_before_its_outermost():
    """The ladder's rung after each error's first line: the frames nearest it (for a Python
    traceback, the lines just above the exception), then the trace's far end."""
    from headroom_cli.planners.log.planning import _by_distance, _line_reader, _scan
    text = (CORPUS / "tox-unittest-more-itertools-failures" / "output.txt").read_text()
    lines = Lines(text)
    scan = _scan(text, lines, _line_reader(lines))
    rows = text.split("\n")
    exception = rows.index("AttributeError: type object 'ValueError' has no attribute "
                           "'with_message'")
    header = max(i for i in range(exception) if rows[i].startswith("Traceback ("))
    order = _by_distance(scan, scan.block(exception), 3)
    assert order[0] == exception
    innermost = [exception - 1, exception - 2, exception - 3]
    assert order[1:4] == innermost, [rows[i] for i in order]
    assert order.index(header) > 3


@pytest.mark.parametrize("budget", [1000, 4000])
def test_a_log_with_no_signal_it_knows_keeps_its_rare_lines(cl100k, budget):
    """apt's terminal log: 3,086 lines of `Unpacking`/`Setting up`, no error word the planner
    knows (`unable to stat`, `denied execution`; `liberror-perl` is a package's name). Head
    and tail kept none of the lines an administrator looks for; the general rung's templates
    (one exemplar each, the rare first) keep them. The needles were chosen before headroom
    ran on it."""
    meta, text = corpus_case(GROWN_DIR, "apt-term-log-debian12-installs")
    _, out = clip(text, budget, cl100k)
    assert cl100k.count(out) <= budget
    kept = [n["text"] for n in meta["needles"] if n["text"] in out]
    assert len(kept) >= 4, kept
    assert out.startswith(text.split("\n", 2)[0]) and "Log ended: 2026-11-26" in out


@settings(deadline=None, max_examples=200)
@given(signatures=st.lists(st.sampled_from([b"x", b"y", b"z", b""]), max_size=30))
def test_members_are_each_signatures_warnings_in_text_order(signatures):
    indexes = sorted(range(0, 3 * len(signatures), 3))
    members = log_planning._members(indexes, signatures)
    for signature in set(signatures):
        assert members[signature] == [index for index, other in zip(indexes, signatures)
                                      if other == signature]
    assert set(members) == set(signatures)


def test_a_server_log_keeps_the_first_request_of_each_endpoint_that_stalled(cl100k):
    """Tornado's console (real): a handler blocked the event loop, and requests that take a
    millisecond took 2.5 s, one 5 s, among 21 tracebacks of bad ids. A duration that stands
    apart from its template's (over three times the median) is a log's notable line; of the
    slow rows of a template, the first says where the stall began."""
    meta, text = corpus_case(GROWN_DIR, "tornado-6.6-console-blocking-handler-asyncio-debug")
    request = re.compile(r"\] \d{3} [A-Z]+ (/api/[a-z]+)\S* \(127\.0\.0\.1\) ([\d.]+)ms$")
    first_slow: dict[str, str] = {}
    durations = []
    for line in text.splitlines():
        if found := request.search(line):
            durations.append(float(found[2]))
            if float(found[2]) >= 1000:
                first_slow.setdefault(found[1], line)
    assert len(first_slow) == 3 and sorted(durations)[len(durations) // 2] < 10
    _, out = clip(text, 4000, cl100k)
    assert cl100k.count(out) <= 4000
    for line in first_slow.values():
        assert line in out


@pytest.mark.parametrize("budget", [1000, 2000])
def test_json_log_records_are_of_a_kind_by_their_logger_and_message(cl100k, budget):
    """Caddy's JSON log (real): 640 error records, each carrying its request's port, URI and
    headers. Their kind is their logger and message (`http.log.error`, `no upstreams
    available`), not the record's start, so each kind's first record is shown (the rarest
    first) and the note counts the rest by message."""
    meta, text = corpus_case(GROWN_DIR, "caddy-2.6-json-logs-reverse-proxy-no-upstreams-503")
    kinds: dict[tuple[str, str], int] = {}
    for line in text.splitlines():
        record = json.loads(line)
        if record["level"] == "error":
            key = record.get("logger", ""), record["msg"]
            kinds[key] = kinds.get(key, 0) + 1
    assert len(kinds) == 4 and sum(kinds.values()) > 600
    _, out = clip(text, budget, cl100k)
    assert cl100k.count(out) <= budget
    rarest = sorted(kinds, key=kinds.get)[:3 if budget == 1000 else 4]
    for logger, message in rarest:
        assert f'"logger":"{logger}","msg":{json.dumps(message)}' in out, message
    note = re.search(r"\[omitted errors by kind: (.*)\]", out)
    assert note and note[1].startswith(
        f"{' '.join(max(kinds, key=kinds.get))} ×"), note


# Each access record answering 5xx, with its route (method and the path's first part) as group 1.
FAILED_ACCESS = [
    # aiohttp's console: an INFO record ending `"POST /api/shorten HTTP/1.1" 500`
    ("aiohttp-3.14-redis-down-connectionerror-500s",
     r' INFO .*"([A-Z]+ /[^/ ]*)[^"]* HTTP/1\.1" 5\d\d '),
    # HAProxy's HTTP log: the status after five timers, the request after it
    ("haproxy-2.6-httplog-stdout-server-down-504-sh",
     r' -?\d+/-?\d+/-?\d+/-?\d+/\+?\d+ 5\d\d .*"([A-Z]+ /[^/ ?]*)'),
]


@pytest.mark.parametrize("case,failed", FAILED_ACCESS)
def test_a_server_log_keeps_each_route_s_first_access_record_answering_5xx(cl100k, case, failed):
    """A server's console (real) beside its tracebacks and health checks: the client's view
    of each failure is an access record answering 5xx, at a level no error rule reads
    (aiohttp's INFO; HAProxy's status after its timers, `0/0/0/0/0 500 173 … "POST
    /api/orders HTTP/1.1"`). An access record's template keeps its status class, its method
    and its path's first part (`"GET /r`, `"POST /api`), and the first record of each
    template answering 5xx is a notable line: each route's first failure is shown."""
    meta, text = corpus_case(GROWN_DIR, case)
    first_failed: dict[str, str] = {}
    for line in text.splitlines():
        if found := re.search(failed, line):
            first_failed.setdefault(found[1], line)
    assert len(first_failed) == 2
    _, out = clip(text, 4000, cl100k)
    assert cl100k.count(out) <= 4000
    for line in first_failed.values():
        assert line in out


def test_a_trace_that_repeats_a_kept_one_line_for_line_is_counted_not_shown(cl100k):
    """valgrind on redis's GETDEL (real): eleven `Invalid read` reports, several the same
    trace as the first (numbers and addresses aside). A report past each kind's first and
    last whose trace repeats a kept one line for line says nothing new: it is counted in the
    note, and the room goes to what is not shown yet (the server's own `User requested
    shutdown...` line, interleaved with the reports)."""
    meta, text = corpus_case(GROWN_DIR, "valgrind-redis-getdel-use-after-free")
    reports = [line for line in text.splitlines() if "== Invalid read" in line]
    assert len(reports) == 11
    _, out = clip(text, 4000, cl100k)
    assert cl100k.count(out) <= 4000
    shown = [line for line in out.splitlines() if "== Invalid read" in line]
    assert len(shown) < len(reports)
    assert re.search(r"\[omitted errors by kind: .*Invalid read", out)
    assert next(line for line in text.splitlines() if "User requested shutdown" in line) in out


@pytest.mark.parametrize("budget", [1000, 2000])
def test_an_error_s_quoted_name_is_followed_back_to_what_befell_it(budget, counter):
    """`tsc --traceResolution` (real): 1,600 lines of module resolution, then `error TS2307:
    Cannot find module '@app/lib/money'`. The last line before the error that names
    `'@app/lib/money'` is the trace's verdict on it (`Module name '@app/lib/money' was not
    resolved.`): it is kept with the error."""
    _, text = corpus_case(GROWN_DIR, "tsc-traceresolution-paths-baseurl-mismatch")
    rows = text.split("\n")
    error = next(i for i, row in enumerate(rows)
                 if "error TS2307: Cannot find module '@app/lib/money'" in row)
    verdict = next(row for row in reversed(rows[:error]) if "'@app/lib/money'" in row)
    assert "was not resolved" in verdict
    _, out = clip(text, budget, counter)
    assert counter.count(out) <= budget
    shown = out.split("\n")
    assert rows[error] in shown and verdict in shown


def test_an_overall_verdict_is_a_summary(counter):
    """`systemd-analyze security` of four units (real): 330 `✗`/`✓` rows read as findings, and
    after each unit's table its verdict, `→ Overall exposure level for nginx.service: 9.6
    UNSAFE`. No trigger word named the verdicts: the findings filled 1,000 tokens and only the
    last verdict, in the tail, was shown. A line that opens with `Overall …:` is a summary."""
    _, text = corpus_case(GROWN_DIR,
                          "systemd-analyze-security-offline-nginx-redis-memcached-haproxy-252")
    verdicts = [row for row in text.split("\n") if row.startswith("→ Overall exposure level")]
    assert len(verdicts) == 4
    assert all(log.signals.classify_why(row, "")[0] == log.signals.SUMMARY for row in verdicts)
    _, out = clip(text, 1000, counter)
    assert counter.count(out) <= 1000
    shown = out.split("\n")
    assert verdicts[0] in shown and verdicts[-1] in shown
