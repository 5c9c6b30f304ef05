"""The code planner: head, an outline of every top-level and class-level definition with its
line number, then the tail."""

import ast
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from headroom_cli.api import compress
from headroom_cli.plan import Lines
from headroom_cli.planners import code
from headroom_cli.sniff import sniff
from headroom_cli.tools import lookup
from headroom_cli.tokens import load_counter

ARGPARSE = (Path(__file__).parent / "cases" / "code-argparse-py" / "input").read_text()


def outline_lines(source: str) -> list[int]:
    """Line numbers of module-level definitions, the methods of module-level classes and the
    names the module sets (`__version__ = '1.1'`, `__all__`, `SUPPRESS = '==SUPPRESS=='`)."""
    tree = ast.parse(source)
    found = []
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            found.append(node.lineno)
        if isinstance(node, ast.Assign) and any(isinstance(target, ast.Name)
                                                for target in node.targets) or isinstance(
                node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            found.append(node.lineno)
        if isinstance(node, ast.ClassDef):
            found += [item.lineno for item in node.body
                      if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    return found


def numbered(source: str) -> str:
    return "".join(f"{n:>6}\t{line}\n" for n, line in enumerate(source.splitlines(), 1))


def omitted_range(result) -> range:
    (first, last), = result.omitted
    return range(first, last + 1)


@pytest.mark.parametrize("render", [lambda s: s, numbered], ids=["plain", "cat-n"])
def test_every_definition_in_the_cut_is_listed_with_its_line_number(render, counter):
    text = render(ARGPARSE)
    result = compress(text, tool="Read", budget=8000, counter=counter)
    assert result.kind == "code"
    source_lines = ARGPARSE.splitlines()
    cut = omitted_range(result)
    expected = [n for n in outline_lines(ARGPARSE) if n in cut]
    assert expected, "the test needs definitions inside the cut"
    for n in expected:
        assert f"{n:>6}\t{source_lines[n - 1]}\n" in result.text
    assert counter.count(result.text) <= 8000


def test_go_methods_are_definitions(counter):
    """A real Go file read through Read (pflag's flag.go): `func (f *FlagSet) Parse(…)` is a
    definition like `func Parse()`; at 2000 tokens every func in the cut is outlined."""
    text = (Path(__file__).parent / "corpus" / "read-pflag-flag-go" / "output.txt").read_text()
    result = compress(text, tool="Read", budget=2000, counter=counter)
    assert result.kind == "code"
    cut = omitted_range(result)
    funcs = [line for n, line in enumerate(text.splitlines(), 1)
             if n in cut and line.split("\t", 1)[1].startswith("func ")]
    methods = [line for line in funcs if line.split("\t", 1)[1].startswith("func (")]
    assert len(methods) > 30
    assert all(line in result.text.splitlines() for line in funcs)
    assert counter.count(result.text) <= 2000


def test_a_tight_budget_lists_what_fits_and_says_how_many(counter):
    result = compress(ARGPARSE, tool="Read", budget=1500, counter=counter)
    cut = omitted_range(result)
    total = len([n for n in outline_lines(ARGPARSE) if n in cut])
    listed = sum(1 for line in result.text.splitlines() if line[:6].strip().isdigit())
    assert 0 < listed < total
    assert f"{listed:,} of {total:,} definitions" in result.text
    assert counter.count(result.text) <= 1500


def test_the_names_a_module_sets_are_listed_after_every_function_and_class(counter):
    """`PIPE = -1`, `_USE_POSIX_SPAWN = _use_posix_spawn()`: what an agent reading a module
    looks up next as often as a function (a compiled pattern, a default, `__all__`; on real
    agent sessions, the names it quoted next). Listed once every definition fits. (A Read of
    CPython 3.11's subprocess.py, in the corpus.)"""
    text = (Path(__file__).parent / "corpus" / "d2-read-subprocess-py" / "output.txt").read_text()
    source = "\n".join(row.split("\t", 1)[1] if "\t" in row else row
                       for row in text.splitlines())
    constants = [node.lineno for node in ast.parse(source).body if isinstance(node, ast.Assign)
                 and all(isinstance(target, ast.Name) for target in node.targets)]
    for budget, listed in ((700, False), (2000, True)):
        result = compress(text, tool="Read", budget=budget, counter=counter)
        cut = omitted_range(result)
        shown = {int(line[:6]) for line in result.text.splitlines() if line[:6].strip().isdigit()}
        in_cut = [n for n in constants if n in cut]
        assert len(in_cut) >= 5 and all((n in shown) is listed for n in in_cut), budget


def test_classes_come_before_methods_when_not_all_fit(counter):
    result = compress(ARGPARSE, tool="Read", budget=1500, counter=counter)
    cut = omitted_range(result)
    classes = [n for n in (node.lineno for node in ast.parse(ARGPARSE).body
                           if isinstance(node, ast.ClassDef)) if n in cut]
    shown = {int(line[:6]) for line in result.text.splitlines() if line[:6].strip().isdigit()}
    assert set(classes) <= shown


def test_head_and_tail_stay_verbatim(counter):
    result = compress(ARGPARSE, tool="Read", budget=2000, counter=counter)
    first, last = result.omitted[0]
    source_lines = ARGPARSE.splitlines(keepends=True)
    assert result.text.startswith("".join(source_lines[:first - 1]))
    assert result.text.endswith("".join(source_lines[last:]))


PROSE = "\n".join(
    f"Paragraph {i}: the error handling section explains how the class of problems is solved, "
    f"and why the function of each part matters." for i in range(200))
APP_LOG = "\n".join(f"2024-05-01 12:00:{i % 60:02d},123 INFO [main] def handler(): request {i} served"
                    for i in range(200))


@pytest.mark.parametrize("text", [PROSE, APP_LOG], ids=["prose", "log"])
def test_prose_and_logs_are_never_code(text):
    assert not code.looks_like(text.splitlines(), lookup("Read"))


@settings(deadline=None, max_examples=25)
@given(start=st.integers(0, 3000), length=st.integers(200, 2500), budget=st.integers(300, 5000))
def test_any_slice_of_source_fits_the_budget(start, length, budget):
    counter = load_counter("cl100k_base")
    lines = ARGPARSE.splitlines(keepends=True)[start:start + length]
    text = "".join(lines)
    first = compress(text, tool="Read", budget=budget, counter=counter)
    assert counter.count(first.text) <= budget
    assert compress(text, tool="Read", budget=budget, counter=counter).text == first.text


REAL = Path(__file__).parent / "real"


def test_a_header_s_prototypes_are_its_definitions(counter):
    """`cat -n jpeglib.h` (real): its API is one-line prototypes whose return type a macro
    wraps (`EXTERN(void) jpeg_start_compress(j_compress_ptr cinfo, …);`); they are the
    definitions a reader pages in, and the outline lists them."""
    text = (REAL / "cat-n-jpeglib-h-libjpeg-turbo-2.1.5.txt").read_text()
    prototypes = [row for row in text.splitlines()
                  if row.split("\t", 1)[-1].startswith("EXTERN(") and row.endswith(");")]
    assert len(prototypes) > 20
    out = compress(text, tool="Read", budget=2000, counter=counter).text
    assert counter.count(out) <= 2000
    shown = [row for row in prototypes if row in out.splitlines()]
    assert len(shown) >= len(prototypes) // 2


def test_a_blame_is_the_source_it_annotates(counter):
    """`git blame Option.java` (real, commons-cli): each line carries its commit, author, date
    and line number before the source. That prefix is set aside like `cat -n`'s: the blame is
    Java, outlined by its methods, each kept line as blame printed it."""
    text = (REAL / "git-blame-commons-cli-option-java.txt").read_text()
    rows = text.splitlines()
    assert sniff(Lines(text), lookup("Bash")) == "code"
    methods = [row for row in rows if re.search(r"\d\)     public [\w<>\[\], ]+ \w+\(", row)]
    assert len(methods) > 20
    out = compress(text, tool="Bash", budget=1000, counter=counter).text
    assert counter.count(out) <= 1000
    assert sum(1 for row in methods if row in out.splitlines()) >= 8


def test_a_header_documented_in_block_comments_is_code(counter):
    """`cat -n zlib.h` (real): most lines are the block comments documenting each function,
    and its preprocessor lines are spaced after their `#` (`#  define deflateInit(strm, …)`),
    once read as Markdown headings. Comments are judged as neither code nor prose, a
    preprocessor line is no heading: the header is code, outlined by its prototypes, and
    nothing inside a comment is listed as a definition."""
    text = (Path(__file__).parent / "corpus" / "d2-read-zlib-h" / "output.txt").read_text()
    assert sniff(Lines(text), lookup("Read")) == "code"
    out = compress(text, tool="Read", budget=2000, counter=counter).text
    assert counter.count(out) <= 2000
    rows = text.splitlines()
    listed = [int(m[1]) for m in re.finditer(r"^ *(\d+)\t", out[out.index("[outline"):], re.M)]
    assert sum(1 for n in listed if "ZEXTERN" in rows[n - 1]) >= 20
    commented, inside = set(), False  # the lines after a comment's opening one, to its close
    for number, row in enumerate(rows, 1):
        body = row.split("\t", 1)[-1]
        if inside:
            commented.add(number)
        inside = (inside or "/*" in body) and "*/" not in body
    assert len(commented) > len(rows) // 2
    assert not commented & set(listed)
