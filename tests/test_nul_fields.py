"""Text whose NULs separate fields (`git grep -z`, `grep -Z`) is planned as the text it is, not
cut by bytes as binary data: its NULs are read as `:` for the shape and the plan, and printed
as they came. Binary data (a NUL among other bytes no text holds), UTF-16 and NUL-ended
records with no newline (`find -print0`) are still cut at their ends by bytes."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from conftest import GROWN_DIR, corpus_case
from headroom_cli.api import compress
from headroom_cli.clean import binary, fields

GIT_GREP_Z = "git-grep-z-todo-fixme-xxx-redis-7-4-1"  # `git grep -z -n -w -e TODO …`, redis


def test_git_grep_z_is_text_and_reads_as_grep_n():
    _, text = corpus_case(GROWN_DIR, GIT_GREP_Z)
    assert "\x00" in text and not binary(text)
    first = fields(text).splitlines()[0]
    assert re.match(r"deps/hiredis/async\.c:\d+:", first)
    assert len(fields(text)) == len(text) and fields(text).count("\n") == text.count("\n")


def test_an_executable_is_binary():
    data = Path(shutil.which("true")).read_bytes()
    assert binary(data.decode("utf-8", "surrogateescape"))


def test_find_print0_has_no_newline_and_is_cut_by_bytes(tmp_path):
    for name in ("a.py", "b.txt", "sub"):
        (tmp_path / name).mkdir() if name == "sub" else (tmp_path / name).write_text("x")
    out = subprocess.run(["find", ".", "-print0"], cwd=tmp_path, capture_output=True,
                         check=True).stdout.decode()
    assert out.count("\x00") == 4 and binary(out)


def test_utf16_text_is_binary():
    utf16 = "line one\nline two\n".encode("utf-16-le").decode("utf-8", "surrogateescape")
    assert binary(utf16)


@pytest.mark.parametrize("budget", [500, 1000])
def test_git_grep_z_is_planned_as_a_search_and_prints_its_lines_as_they_came(counter, budget):
    meta, text = corpus_case(GROWN_DIR, GIT_GREP_Z)
    result = compress(text, tool=meta["tool"], budget=budget, counter=counter)
    assert result.kind == "search"
    assert counter.count(result.text) <= budget
    assert "binary output" not in result.text
    rows = set(text.splitlines())
    kept = [line for line in result.text.splitlines() if "\x00" in line]
    assert len(kept) >= 5 and all(line in rows for line in kept)  # NULs and all, exactly
    # every file named with its count, in grep's own form
    assert re.search(r"^deps/jemalloc/bin/jeprof\.in \(\d+ matches", result.text, re.M)
    # Needles chosen before headroom ran on this output: at 1000 a plain cut by bytes kept one.
    if budget == 1000:
        found = [n["text"] for n in meta["needles"] if n["text"] in result.text]
        assert len(found) >= 3, found
