"""Vendored, built and generated files in a search (issue #22): their definition sites rank
after every site of the project's own files, and their folders roll up first — on a real
`rg -n 'func New'` over Go 1.19.8's standard library (tests/corpus/rg-n-go-stdlib-func-new),
which holds `vendor/golang.org/x/…` and `cmd/vendor/…` copies beside the library itself.
Last, parse()'s cheap first pattern reads a row as its full pattern does, and a flood's
definition is ranked without rank() as rank() would rank it (issue #24)."""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from conftest import GROWN_DIR, corpus_case
from headroom_cli.api import compress
from headroom_cli.planners.pathclass import machine_made
from headroom_cli.planners.search.signals import DEFINITION, parse
from headroom_cli.planners.search.sites import definition_sites, rank

META, TEXT = corpus_case(GROWN_DIR, "rg-n-go-stdlib-func-new")
ROWS = TEXT.splitlines()
_ROW = re.compile(r"^([^:]+):(\d+):(.*)$")


@pytest.mark.parametrize("path, made", [
    ("vendor/golang.org/x/text/transform/transform.go", True),
    ("cmd/vendor/golang.org/x/term/terminal.go", True),
    ("node_modules/@nodelib/fs.stat/out/index.js", True),
    ("C:\\repo\\node_modules\\qs\\lib\\parse.js", True),
    ("HEAD:vendor/golang.org/x/net/idna/idna10.0.0.go", True),
    ("build/lib/attr/_make.py", True),
    ("./dist/index.js", True),
    ("attrs.egg-info/SOURCES.txt", True),
    ("static/app.min.js", True),
    ("package-lock.json", True),
    ("proto/api_pb2.py", True),
    ("go/build/build.go", False),  # a package named build, not a build's output
    ("src/build/x.py", False),
    ("src/vendors.py", False),
    ("net/http/request.go", False),
    ("mygo.sum", False),
])
def test_a_path_is_machine_made_by_its_folders_and_name(path, made):
    assert machine_made(path) is made


def _sites(rows: list[str]) -> list[str]:
    files = list(parse(rows).files.values())
    return [files[position].path for position, _ in definition_sites(files, rows)]


def test_every_own_definition_site_ranks_before_any_vendored_one():
    paths = _sites(ROWS)
    made = [machine_made(path) for path in paths]
    assert any(made) and not all(made)
    assert made == sorted(made)  # False (own) first, then True


def test_the_library_s_constructors_come_before_vendored_ones(counter):
    """At 4000 tokens the library's own `errors.New` and `bufio.NewReader` are shown; before,
    vendored `func New(` lines of golang.org/x took their room."""
    out = compress(TEXT, tool=META["tool"], budget=4000, counter=counter).text
    assert counter.count(out) <= 4000
    assert "errors/errors.go:58:func New(text string) error {" in out
    assert "bufio/bufio.go:62:func NewReader(rd io.Reader) *Reader {" in out
    own = [line for line in out.splitlines() if _ROW.match(line)
           and not machine_made(line.split(":", 1)[0])]
    assert len(own) >= 10


def windows(row: str) -> str:
    path, line, text = _ROW.match(row).groups()
    return path.replace("/", "\\") + f":{line}:{text}"


def vimgrep(row: str) -> str:
    path, line, text = _ROW.match(row).groups()
    return f"{path}:{line}:{max(1, text.find('New') + 1)}:{text}"


windows_of_rows = st.integers(0, len(ROWS) - 1).flatmap(
    lambda start: st.integers(20, 400).map(lambda size: ROWS[start:start + size]))


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(windows_of_rows)
def test_twins_rank_vendored_sites_alike(rows):
    """A relative Windows-path or vimgrep twin of the search ranks its sites as the POSIX one,
    vendored folders told apart the same way."""
    posix = _sites(rows)
    assert [path.replace("\\", "/") for path in _sites([windows(row) for row in rows])] == posix
    assert _sites([vimgrep(row) for row in rows]) == posix


def test_a_flood_shows_public_packages_before_internal_ones(counter):
    """At 1000 tokens the flood of `func New…` leads with public packages (`errors.New`), not
    `internal/` ones nothing outside the library may import."""
    out = compress(TEXT, tool=META["tool"], budget=1000, counter=counter).text
    assert counter.count(out) <= 1000
    assert "errors/errors.go:58:func New(text string) error {" in out
    shown = [line.split(":", 1)[0] for line in out.splitlines() if _ROW.match(line)]
    assert shown and not any("/internal/" in f"/{path}" for path in shown)


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="ab: 1\\/C2-HE:AD\t.x9_", max_size=16))
def test_the_common_case_match_reads_a_row_as_the_full_pattern_does(row):
    """parse() tries _PLAIN_MATCH first (half the cost) and _MATCH when it fails: where the
    first one matches, the second reads the same path, line, column and end."""
    from headroom_cli.planners.search.signals import _MATCH, _PLAIN_MATCH

    plain = _PLAIN_MATCH.match(row)
    if plain is not None:
        full = _MATCH.match(row)
        assert full is not None
        assert (plain["path"], plain["line"], plain["col"], plain.end()) == (
            full["path"], full["line"], full["col"], full.end())


_DEFINES = re.compile(r"\s*+(?:" + DEFINITION.pattern + ")")  # as definition_sites tells one
_INDENTS = st.sampled_from(["", " ", "    ", "\t", "\x1c", "\u2003", "\u00a0 ", "\x0b"])
_HEADS = st.sampled_from(["def ", "class ", "export default function ", "pub(crate) fn ",
                          "const ", "let x = ", "self.x = ", "async def ", "type ", "x=", "y ==",
                          "return ", "defer "])


@settings(max_examples=500, deadline=None)
@given(_INDENTS, _HEADS, st.text(alphabet="ab_(): =\t1", max_size=12), st.booleans())
def test_a_flood_s_definition_ranks_by_its_indent_and_side_alone(indent, head, tail, side):
    """definition_sites ranks a flood's (no symbol) definition lines without asking rank():
    a line _DEFINES reads as a definition is one rank() ranks (0, nested, aside), nested
    when the line starts with whitespace (str.isspace, as rank()'s lstrip)."""
    body = indent + head + tail
    if _DEFINES.match(body, 0, 400) is None:
        return
    assert rank(body, frozenset(), side) == (0, int(body[:1].isspace()), int(side))
