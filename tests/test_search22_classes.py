"""Issue #22, search and path lists: classes of output the tuning corpus showed losing files or
needles (tests/corpus, real runs). Every expected path or line is read from the input here.

- a path map names every file directly in the top folder when they fit (its manifests,
  configs and top modules: `pnpm-workspace.yaml` beside `package.json`);
- a count list (`grep -c`) names the files that matched before any `path:0` row;
- a flood of definitions shows a module's namesake (`build()` of `build.ts`) among its sites.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from headroom_cli.api import compress
from headroom_cli.planners.search.signals import DEFINITION

CORPUS = Path(__file__).parent / "corpus"


def case(name: str) -> tuple[str, dict]:
    folder = CORPUS / name
    return ((folder / "output.txt").read_text(encoding="utf-8"),
            json.loads((folder / "meta.json").read_text(encoding="utf-8")))


@pytest.mark.parametrize("name, budget", [("git-ls-files-vite-monorepo", 1000),
                                          ("git-ls-files-axios-checkout", 1000),
                                          ("rg-files-cpython-3.11-lib", 4000)])
def test_the_top_folders_files_are_all_named_when_they_fit(name, budget, counter):
    text, meta = case(name)
    rows = text.splitlines()
    top = [row for row in rows if "/" not in row]
    assert 0 < counter.count("\n".join(top)) <= 0.3 * budget * 0.9  # they fit in the share
    out = compress(text, tool=meta["tool"], budget=budget, counter=counter).text
    kept = set(out.splitlines())
    assert [row for row in top if row not in kept] == []


def test_a_count_lists_files_that_matched_come_before_its_path_0_rows(counter):
    text, meta = case("grep-rc-hypothesis-raise-counts")
    rows = text.splitlines()
    matched = [row for row in rows if not row.endswith(":0")]
    unmatched = [row for row in rows if row.endswith(":0")]
    assert unmatched and counter.count("\n".join(matched)) < 1000 * 0.8
    out = compress(text, tool=meta["tool"], budget=1000, counter=counter).text
    kept = set(out.splitlines())
    assert [row for row in matched if row not in kept] == []
    assert [row for row in unmatched if row in kept] == []


def test_a_flood_shows_a_modules_namesake_definition(counter):
    text, meta = case("rg-n-vite-export-function")
    rows = text.splitlines()
    # The definitions named after their module (`export async function build(` in build.ts).
    namesakes = []
    for row in rows:
        found = re.match(r"(.*/(\w+)\.ts):\d+:export (?:async )?function (\w+)\(", row)
        if found and found[3].lower() == found[2].lower() and "__tests__" not in found[1]:
            namesakes.append(row)
    assert len(namesakes) >= 3
    out = compress(text, tool=meta["tool"], budget=4000, counter=counter).text
    shown = [row for row in namesakes if row in out.splitlines()]
    assert len(shown) >= len(namesakes) // 2, (len(shown), len(namesakes))


@pytest.mark.parametrize("row", ['pub const DEFAULT_SHELL: &str = "sh";',
                                 "export const routes: Route[] = [",
                                 "static mut COUNTER: u32 = 0;", "pub(crate) static NAME: &str = x;",
                                 "let mut total: usize = 0;", "var timeout time.Duration = 5"])
def test_a_definition_with_a_type_or_a_visibility_is_one(row):
    """A constant, static or variable defined with `pub`/`export` before it or a type between
    its name and its `=` (Rust, TypeScript, Go) is a definition site (the streaming scanner's
    twin is held to it by tests/test_search_stream.py's drawn rows)."""
    assert DEFINITION.match(row)


def test_a_searched_constant_is_kept_among_its_files_sites(counter):
    """hyperfine's `grep -rn -i shell`: options.rs has 45 matches, its tests among them; the
    default shell's constant is kept at 1000 tokens beside the enum and its impls."""
    text, meta = case("grep-rn-i-hyperfine-1.20-shell")
    const = next(row for row in text.splitlines() if "pub const DEFAULT_SHELL" in row)
    out = compress(text, tool=meta["tool"], budget=1000, counter=counter).text
    assert const in out.splitlines()


@pytest.mark.parametrize("name, budget, first", [
    # searching an exception's name: where it is raised
    ("rg-django-improperlyconfigured", 2000, re.compile(r"\s*(?:raise|throw)\b")),
    # searching a word the code passes around: the methods that take it
    ("grep-rn-jinja-environment", 4000, re.compile(r"\s+(?:async\s+)?def\s")),
])
def test_a_files_telling_lines_come_before_its_other_uses(name, budget, first, counter):
    """In each file shown short, after its top-level definitions, the first of its lines that
    raise (`raise ImproperlyConfigured(` before the file's import of it) or, searching a word
    code passes around, of its methods (`    def bind(self, environment: Environment)`)
    is shown before its other uses."""
    text, meta = case(name)
    by_file: dict[str, list[tuple[str, bool]]] = {}
    rows = text.splitlines()
    for row in rows[1:]:  # the output's first line is shown first, whatever it is
        path, number, body = row.split(":", 2)
        top_definition = not body[:1].isspace() and DEFINITION.match(body)
        if not top_definition:  # definitions are shown before anything else
            by_file.setdefault(path, []).append((row, bool(first.match(body))))
    out = compress(text, tool=meta["tool"], budget=budget, counter=counter).text
    kept = set(out.splitlines())
    checked = 0
    for path, lines in by_file.items():
        shown = [row for row, _ in lines if row in kept]
        telling = [row for row, told in lines if told]
        if shown and telling and len(shown) < len(lines):
            checked += 1
            assert telling[0] in kept, path
    assert checked >= 3
