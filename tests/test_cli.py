"""The command line in stdin mode: options, environment, bytes in and bytes out, exit statuses.

In-process through the console script's entry point headroom_cli.cli.main(argv) (or, with
via="app", the typer app alone) via the `run_cli` fixture; then real pipes through the installed
`headroom` command, and the markers' retrieval hints run by a real shell.
"""

from __future__ import annotations

import math
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import isolated_env, line_count
from headroom_cli import __version__

MARKER = "[…headroom: ".encode()


def numbered(n: int, width: int = 6) -> bytes:
    return b"".join(b"line %0*d of some ordinary program output\n" % (width, i)
                    for i in range(1, n + 1))


BIG = numbered(3000)  # far over any budget used here


def num(text: str | bytes) -> int:
    if isinstance(text, bytes):
        text = text.decode()
    return int(text.replace(",", ""))


def tokens(counter, data: bytes) -> int:
    return counter.count(data.decode("utf-8", "surrogateescape"))


NO_STORE = {"HEADROOM_STORE": "off"}  # without a stored copy, the marker says how to re-run

# --------------------------------------------------------------------------- passthrough


@pytest.mark.parametrize("data", [
    b"hello\n",
    b"no trailing newline",
    b"crlf line\r\nanother\r\n",
    b"invalid utf-8: \xff\xfe\xc3\x28 kept\n",
    b"\x1b[1;31mred\x1b[0m and a redraw 10%\r100%\n",
    b"\x00\x01 binary but small \x00",
    "unicode: ünïcödé – 日本語 🙂\n".encode(),
], ids=["plain", "no-newline", "crlf", "invalid-utf8", "ansi-and-cr", "nul", "unicode"])
@pytest.mark.parametrize("via", ["main", "app"])
def test_output_that_fits_passes_through_byte_for_byte(run_cli, data, via):
    run = run_cli([], data, via=via)
    assert run.exit_code == 0
    assert run.stdout == data
    assert run.stderr == ""


@pytest.mark.parametrize("via", ["main", "app"])
def test_empty_input_gives_empty_output_and_exit_zero(run_cli, via):
    run = run_cli([], b"", via=via)
    assert (run.exit_code, run.stdout) == (0, b"")


@pytest.mark.parametrize("via", ["main", "app"])
@pytest.mark.parametrize("args, env", [(["--budget", "0"], {}), (["-b", "0"], {}),
                                       (["--budget=0"], {}), ([], {"HEADROOM_BUDGET": "0"})])
def test_budget_zero_disables_clipping(run_cli, args, env, via):
    run = run_cli(args, BIG, env=env, via=via)
    assert run.exit_code == 0
    assert run.stdout == BIG


def test_big_input_is_clipped_to_the_default_budget(run_cli, counter):
    data = numbered(10_000)
    run = run_cli([], data)
    assert run.exit_code == 0
    assert MARKER in run.stdout
    assert tokens(counter, run.stdout) <= 4000


# --------------------------------------------------------------------------- options and env


def test_bad_option_exits_2_with_usage_on_stderr(run_cli):
    run = run_cli(["--no-such-option"], b"x\n")
    assert run.exit_code == 2
    assert "Usage" in run.stderr and "--no-such-option" in run.stderr
    assert run.stdout == b""


@pytest.mark.parametrize("via", ["main", "app"])
@pytest.mark.parametrize("args", [["--budget", "-5"], ["--budget", "lots"], ["--budget", "1.5"],
                                  ["--kind", "poem"], ["--encoding", "utf-9"]])
def test_bad_option_values_exit_2_naming_the_value(run_cli, args, via):
    run = run_cli(args, b"x\n", via=via)
    assert run.exit_code == 2
    assert args[1] in run.stderr
    assert run.stdout == b""


@pytest.mark.parametrize("args, env", [(["--budget", "²"], {}), ([], {"HEADROOM_BUDGET": "¹"})],
                         ids=["option", "env"])
def test_non_ascii_digit_budget_is_a_usage_error(run_cli, args, env):
    run = run_cli(args, b"x\n", env=env)
    assert run.exit_code == 2


def test_budget_from_environment(run_cli, counter):
    run = run_cli([], BIG, env={"HEADROOM_BUDGET": "200"})
    assert run.exit_code == 0
    assert MARKER in run.stdout
    assert tokens(counter, run.stdout) <= 200


def test_budget_option_beats_environment(run_cli, counter):
    run = run_cli(["--budget", "150"], BIG, env={"HEADROOM_BUDGET": "3000"})
    assert tokens(counter, run.stdout) <= 150
    run = run_cli(["--budget", "0"], BIG, env={"HEADROOM_BUDGET": "100"})
    assert run.stdout == BIG


def test_tool_and_encoding_from_environment(run_cli):
    run = run_cli(["--budget", "300"], BIG, env={**NO_STORE, "HEADROOM_TOOL": "Read",
                                                 "HEADROOM_ENCODING": "estimate"})
    text = run.stdout.decode()
    assert "of this Read output" in text and "Read with offset=" in text
    assert math.ceil(len(text) / 4) <= 300


@pytest.mark.parametrize("alias, name", [("rg", "Grep"), ("BASH", "Bash"), ("read_file", "Read")])
def test_tool_aliases_are_case_insensitive(run_cli, alias, name):
    run = run_cli(["--tool", alias, "--budget", "300"], BIG)
    assert f"of this {name} output".encode() in run.stdout


def test_unknown_tool_is_treated_as_generic(run_cli):
    run = run_cli(["--tool", "my-harness-tool", "--budget", "300"], BIG)
    assert run.exit_code == 0
    assert b"of this output" in run.stdout


def grep_output(files: int = 10, per_file: int = 30) -> bytes:
    return b"".join(b"src/module_%d.py:%d:    value = parse(raw_%d)  # a comment\n" % (f, 5 * m + 1, m)
                    for f in range(files) for m in range(per_file))


def test_search_input_gets_a_match_map_by_default(run_cli):
    run = run_cli(["--tool", "Grep", "--budget", "500"], grep_output())
    assert re.search(rb"^src/module_0\.py \(30 matches", run.stdout, re.M)


def test_kind_other_overrides_the_sniffer_on_search_input(run_cli, counter):
    data = grep_output()
    run = run_cli(["--tool", "Grep", "--budget", "500", "--kind", "other"], data)
    assert run.exit_code == 0
    assert not re.search(rb"\(\d+ match", run.stdout)  # no per-file map
    m = re.search(r"lines ([\d,]+)–([\d,]+) of ([\d,]+) ", run.stdout.decode())
    assert m, run.stdout[-300:]
    first, last, total = (num(g) for g in m.groups())
    assert total == data.count(b"\n")
    rows = data.split(b"\n")
    assert run.stdout.startswith(b"\n".join(rows[:first - 1]) + b"\n")
    assert run.stdout.endswith(b"\n".join(rows[last:]))
    assert tokens(counter, run.stdout) <= 500


def test_encoding_estimate_counts_characters_over_four(run_cli):
    run = run_cli(["--encoding", "estimate", "--budget", "300"], BIG)
    assert run.exit_code == 0 and run.stderr == ""
    assert MARKER in run.stdout
    assert math.ceil(len(run.stdout.decode()) / 4) <= 300


def test_unavailable_encoding_warns_once_and_falls_back_to_estimate(run_cli, tmp_path):
    empty_cache = tmp_path / "tiktoken-cache"
    empty_cache.mkdir()
    run = run_cli(["--encoding", "o200k_base", "--budget", "300"], BIG,
                  env={"TIKTOKEN_CACHE_DIR": str(empty_cache), "DATA_GYM_CACHE_DIR": None})
    assert run.exit_code == 0
    warning = run.stderr.splitlines()
    assert len(warning) == 1, run.stderr
    assert "o200k_base" in warning[0] and "estimate" in warning[0]
    assert MARKER in run.stdout
    assert math.ceil(len(run.stdout.decode()) / 4) <= 300


def test_unavailable_encoding_is_not_loaded_when_input_fits(run_cli, tmp_path):
    run = run_cli(["--encoding", "o200k_base"], b"small\n",
                  env={"TIKTOKEN_CACHE_DIR": str(tmp_path)})
    assert (run.exit_code, run.stdout, run.stderr) == (0, b"small\n", "")


def test_version(run_cli):
    run = run_cli(["--version"])
    assert run.exit_code == 0
    assert __version__ in run.stdout.decode()


def test_help_lists_exit_statuses_and_an_example(run_cli):
    run = run_cli(["--help"])
    assert run.exit_code == 0
    text = run.stdout.decode()
    assert "Exit status" in text
    for status in ("0", "1", "2", "141"):
        assert re.search(rf"^\s+{status}\s", text, re.M), status
    assert re.search(r"^\s+\S.*\|\s*headroom\b.*--budget", text, re.M), "no pipe example"
    for option in ("--budget", "--tool", "--kind", "--encoding", "--version"):
        assert option in text


# --------------------------------------------------------------------------- the marker contract


def omitted_span(output: bytes) -> tuple[int, int, int]:
    m = re.search(r"lines ([\d,]+)–([\d,]+) of ([\d,]+) ", output.decode("utf-8", "replace"))
    assert m, output[-300:]
    return tuple(num(g) for g in m.groups())


@pytest.mark.parametrize("tool", ["Bash", "Read", None])
def test_marker_names_the_exact_omitted_lines_and_a_working_way_back(run_cli, tool):
    args = ["--budget", "400"] + (["--tool", tool] if tool else [])
    run = run_cli(args, BIG, env=NO_STORE)
    first, last, total = omitted_span(run.stdout)
    assert total == line_count(BIG.decode())
    rows = BIG.split(b"\n")
    head, omitted, tail = rows[:first - 1], rows[first - 1:last], rows[last:]
    assert run.stdout.startswith(b"\n".join(head) + b"\n")
    assert run.stdout.endswith(b"\n".join(tail))
    assert len(head) + len(omitted) + len(tail) - 1 == total  # the final "" after the last \n
    text = run.stdout.decode()
    if tool == "Read":
        assert f"Read with offset={first} limit={last - first + 1}" in text
    else:
        assert f"sed -n '{first},{last}p'" in text


# --------------------------------------------------------------------------- awkward bytes


def test_binary_input_that_does_not_fit_is_clipped_by_bytes_and_says_binary(run_cli, counter):
    data = b"\x00\x01ELF\x02\xff\x80" * 6000
    run = run_cli(["--budget", "300"], data, env=NO_STORE)
    assert run.exit_code == 0
    assert b"binary" in run.stdout
    assert len(run.stdout) < len(data)
    assert tokens(counter, run.stdout) <= 300
    m = re.search(r"bytes ([\d,]+)–([\d,]+) of ([\d,]+) ", run.stdout.decode("utf-8", "replace"))
    assert m
    first, last, size = (num(g) for g in m.groups())
    assert size == len(data)
    # `tail -c +first | head -c (last-first+1)` is what was dropped; the rest is printed as is.
    assert run.stdout.startswith(data[:first - 1])
    assert run.stdout.endswith(data[last:])
    assert f"tail -c +{first} | head -c {last - first + 1}" in run.stdout.decode("utf-8", "replace")


def test_invalid_utf8_in_kept_lines_comes_out_exactly(run_cli):
    first_line = b"header \xff\xfe with \xc3\x28 invalid bytes\n"
    last_line = b"footer \xed\xa0\x80 \xf8 end\n"
    data = first_line + BIG + last_line
    run = run_cli(["--budget", "400"], data)
    assert run.exit_code == 0
    assert MARKER in run.stdout
    assert run.stdout.startswith(first_line)
    assert run.stdout.endswith(last_line)


def test_ansi_colour_is_stripped_from_clipped_output(run_cli):
    data = b"".join(b"\x1b[1;31mERROR\x1b[0m step %d \x1b]8;;http://x/%d\x07link\x1b]8;;\x07\n"
                    % (i, i) for i in range(3000))
    run = run_cli(["--budget", "300"], data)
    assert MARKER in run.stdout
    assert b"\x1b" not in run.stdout
    assert run.stdout.startswith(b"ERROR step 0 link\nERROR step 1 link\n")


def test_ansi_colour_in_output_that_fits_is_untouched(run_cli):
    data = b"\x1b[1;31mERROR\x1b[0m one\n\x1b[32mok\x1b[0m\n"
    assert run_cli(["--budget", "300"], data).stdout == data


def test_carriage_return_progress_redraws_collapse_when_clipped(run_cli):
    progress = b"".join(b"downloading %3d%%\r" % p for p in range(0, 100, 5)) + b"done 100%\n"
    data = progress + BIG
    run = run_cli(["--budget", "300"], data)
    assert run.stdout.startswith(b"done 100%\nline 000001 ")
    assert b"\r" not in run.stdout
    assert omitted_span(run.stdout)[2] == data.count(b"\n")  # still one line


# --------------------------------------------------------------------------- a real pipe


def installed_headroom() -> str:
    beside = Path(sys.executable).with_name("headroom")
    found = str(beside) if beside.exists() else shutil.which("headroom")
    if not found:
        pytest.skip("the headroom console script is not installed")
    return found


def subprocess_env(tmp_path) -> dict:
    env = {**os.environ, **isolated_env(str(tmp_path))}
    return {k: v for k, v in env.items() if v is not None}


@pytest.fixture(scope="module")
def seq_file(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("seq") / "seq.txt"
    path.write_bytes(b"".join(b"%d\n" % i for i in range(1, 1_000_001)))  # like `seq 1000000`
    return path


def test_installed_command_in_a_normal_pipe_exits_zero(tmp_path, seq_file, counter):
    with seq_file.open("rb") as stdin:
        proc = subprocess.run([installed_headroom(), "--budget", "500"], stdin=stdin,
                              capture_output=True, env=subprocess_env(tmp_path), timeout=60)
    assert proc.returncode == 0
    assert proc.stderr == b""
    assert proc.stdout.startswith(b"1\n2\n3\n")
    assert proc.stdout.endswith(b"999999\n1000000\n")
    assert b"of 1,000,000 " in proc.stdout
    assert tokens(counter, proc.stdout) <= 500


def test_installed_command_exits_141_quietly_when_the_reader_closes_the_pipe(tmp_path, seq_file):
    head = shutil.which("head")
    if not head:
        pytest.skip("no head(1)")
    # --budget 0: all ~7 MB are written, far more than a pipe buffer holds, so `head -1` closes
    # the pipe while headroom is still writing.
    with seq_file.open("rb") as stdin:
        producer = subprocess.Popen([installed_headroom(), "--budget", "0"], stdin=stdin,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    env=subprocess_env(tmp_path))
        reader = subprocess.Popen([head, "-1"], stdin=producer.stdout, stdout=subprocess.PIPE)
        producer.stdout.close()  # only `head` holds the read end now
        first, _ = reader.communicate(timeout=60)
        stderr = producer.stderr.read()
        producer.stderr.close()
        status = producer.wait(timeout=60)
    assert first == b"1\n"
    assert b"Traceback" not in stderr and b"BrokenPipe" not in stderr, stderr
    assert stderr == b""
    assert status == 141  # 128 + SIGPIPE, as `cat` would report it


# --------------------------------------------------------------------------- hints that work

HINT = re.compile(r"To retrieve: re-run piped through (?P<cmd>.+?)(?: \(or [^)]*\))?\]$", re.M)


def run_hint(output: bytes, data: bytes) -> tuple[bytes, bytes]:
    """Run the marker's `re-run piped through CMD` on the original bytes with a real shell;
    return (what CMD prints, what the clip left out)."""
    for tool in ("bash", "sed", "cut", "head", "tail"):
        if not shutil.which(tool):
            pytest.skip(f"no {tool}")
    text = output.decode("utf-8", "surrogateescape")
    m = HINT.search(text)
    assert m, text[-300:]
    head, _, rest = output.partition(MARKER)
    if not data.startswith(head):
        head = head[:-1]  # the line break the marker needed when the cut fell inside a line
    tail = rest.partition(b"]\n")[2]
    assert data.startswith(head) and data.endswith(tail)
    missing = data[len(head):len(data) - len(tail)]
    got = subprocess.run(["bash", "-c", m["cmd"]], input=data, capture_output=True,
                         env={**os.environ, "LC_ALL": "C.UTF-8"}, timeout=30).stdout
    return got, missing


def test_sed_hint_prints_exactly_the_omitted_lines(run_cli):
    run = run_cli(["--budget", "400"], BIG, env=NO_STORE)
    got, missing = run_hint(run.stdout, BIG)
    assert got == missing and missing.count(b"\n") > 100


def test_byte_hint_prints_exactly_the_omitted_binary_bytes(run_cli):
    data = b"\x00\x01ELF\x02\xff\x80 \xc3\xa9" * 6000
    run = run_cli(["--budget", "300"], data, env=NO_STORE)
    got, missing = run_hint(run.stdout, data)
    assert got == missing and len(missing) > len(data) // 2


def test_cut_hint_prints_exactly_the_omitted_part_of_an_ascii_giant_line(run_cli):
    data = b"var x = '" + b"ascii text " * 3000 + b"';\n"
    run = run_cli(["--budget", "300"], data, env=NO_STORE)
    got, missing = run_hint(run.stdout, data)
    assert got.rstrip(b"\n") == missing and len(missing) > len(data) // 2


def test_cut_hint_prints_exactly_the_omitted_part_of_a_non_ascii_giant_line(run_cli):
    data = "var x = '".encode() + "é".encode() * 3000 + b"ascii text " * 2000 + b"';\n"
    run = run_cli(["--budget", "300"], data, env=NO_STORE)
    assert b"cut -b" in run.stdout
    got, missing = run_hint(run.stdout, data)
    assert got.rstrip(b"\n") == missing
