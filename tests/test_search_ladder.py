"""The search ladder (issue #14, item 3): definition sites of the searched symbol first, then
every file with its count, then a roll-up that keeps the heaviest folders open — on real
outputs (tests/corpus and ../shared/corpus), never on corpus-specific rules."""

from __future__ import annotations

import re

import pytest

from conftest import GROWN_DIR, corpus_case
from headroom_cli.api import compress
from headroom_cli.planners.search.sites import (DERIVED, EXPORTED, USED_IN_DOCS, aside, entry,
                                               path_class, private, rank, symbols)


def test_the_symbol_is_what_most_matched_lines_share_minus_definition_words():
    lines = ["def select(self, *args):", "    return self.select(x)", "q = select(a, b)",
             "select(c)"]
    assert symbols(lines) == {"select"}  # not `self` (an object), not `def`, not `q`
    assert symbols(["def a(x):", "def b(y):", "    def c(self):"]) == frozenset()


@pytest.mark.parametrize("text, is_site", [
    ("def select(self, *args):", True),
    ("class BaseModel(Representation):", True),
    ("req.get =", True),  # a value on the next line
    ("export default function isObject(obj) {", True),
    ("impl FromStr for Version {", True),
    ("x = select(a, b)", False),  # a call assigned to another name
    ("class Child(BaseModel):", False),  # a subclass names it after its own name
    ("    return select(x)", False),
])
def test_a_definition_site_names_the_symbol_in_its_head(text, is_site):
    wanted = frozenset({"select", "basemodel", "req", "isobject", "version"})
    found = rank(text, wanted, False)
    assert (found is not None and found[0] < EXPORTED) == is_site


@pytest.mark.parametrize("text, entry_module, document, tier", [
    ("__all__ = 'BaseModel', 'create_model'", False, False, EXPORTED),
    ("    'BaseModel',", True, False, EXPORTED),  # an entry in the package's __all__
    ("pub use crate::model::BaseModel;", False, False, EXPORTED),
    ("export { BaseModel, Field } from './main'", False, False, EXPORTED),
    ("module.exports = { BaseModel, Field };", False, False, EXPORTED),
    ("class User(BaseModel):", False, False, DERIVED),
    ("export class User extends BaseModel {", False, True, DERIVED),
    ("from pydantic import BaseModel", False, True, USED_IN_DOCS),
    ("    'BaseModel',", False, False, None),  # a string in some list: no export
    ("from pydantic import BaseModel", False, False, None),  # an import in code: a use
    ("m = BaseModel()", False, False, None),
])
def test_exports_subclasses_and_documented_uses_rank_after_the_definitions(
        text, entry_module, document, tier):
    """Where a name is exported, derived from, and shown in use: sites a reader follows once
    the definition itself is shown, so they rank after every definition."""
    wanted = frozenset({"basemodel"})
    found = rank(text, wanted, False, entry_module, document)
    assert (found and found[0]) == tier
    if tier is not None:
        assert rank("class BaseModel(metaclass=ModelMetaclass):", wanted, True) < found


def test_a_package_s_re_export_is_a_site_after_the_definitions():
    """`from .templating import render_template as render_template` in flask's __init__.py is
    where the public name comes from; an import elsewhere, or from another package, is not."""
    wanted = frozenset({"render_template"})
    reexport = "from .templating import render_template as render_template"
    assert rank(reexport, wanted, False, entry_module=True) is not None
    assert rank(reexport, wanted, False) is None  # not in an entry module
    assert rank("from flask import render_template", wanted, False, entry_module=True) is None
    assert rank("export { isObject } from './isObject.js'", frozenset({"isobject"}), False,
                entry_module=True) is not None
    assert rank("def render_template(", wanted, False) < rank(reexport, wanted, False,
                                                              entry_module=True)


def test_a_statement_alone_on_its_line_is_no_entry_in_an_export_list():
    """A name alone on its line in an entry module is an entry of a list spread over lines
    (`  AxiosError,` under `export {`); a bare `return` or `pass` there is a statement."""
    assert rank("  AxiosError,", frozenset({"axioserror"}), False, entry_module=True) is not None
    for statement in ("        return", "    pass", "end"):
        word = frozenset({statement.strip()})
        assert rank(statement, word, False, entry_module=True) is None, statement


def test_exact_top_level_sites_outside_tests_rank_first():
    wanted = frozenset({"version"})
    order = sorted(["    pub struct VersionReq {", "pub struct VersionReq {", "pub struct Version {"],
                   key=lambda text: rank(text, wanted, False))
    assert order[0] == "pub struct Version {"
    assert rank("pub struct Version {", wanted, False) < rank("pub struct Version {", wanted, True)
    assert aside("tests/test_version.py") and aside("src/foo_test.go") and aside("docs/a.md")
    assert not aside("src/lib.rs") and not aside("contest/x.py")


@pytest.mark.parametrize("path, aside_, entry_, document, internal", [
    ("src/pkg/__init__.py", False, True, False, False),
    ("lib/semver/semver.js", False, True, False, False),  # a stem repeating its folder
    ("types/index.d.ts", False, False, False, False),  # `index.d` is no entry stem
    ("a//a.py", False, False, False, False),  # an empty folder name repeats nothing
    ("src\\tests\\util.py", True, False, False, False),  # Windows separators
    ("web/button.spec.ts", True, False, False, False),
    ("go/x_test.go", True, False, False, False),
    ("test_x/util.py", False, False, False, False),  # a folder, not a test module
    ("docs/guide.txt", True, False, True, False),
    ("README.rst", False, False, True, False),
    ("pkg/_impl/core.py", False, True, False, True),
    ("cmd/internal/main.go", False, True, False, True),
    ("pkg/internals/x.go", False, False, False, False),
])
def test_a_paths_class_is_told_by_its_folders_and_name(path, aside_, entry_, document, internal):
    assert tuple(path_class(path)) == (aside_, entry_, document, internal)


@pytest.mark.parametrize("folder, name, budget, needles", [
    ("shared", "grep-rn-express-req", 500, ["lib/request.js:63:req.get =",
                                            "lib/request.js:64:req.header = function header("]),
    ("shared", "rg-vimgrep-spaced-underscore-isobject", 1000,
     ["modules/isObject.js:2:25:export default function isObject(obj) {"]),
    ("grown", "rg-n-packaging-specifierset", 500, ["class SpecifierSet(BaseSpecifier):"]),
    ("grown", "rg-vimgrep-semver-version", 1000, ["src/lib.rs:158:12:pub struct Version {",
                                                  "src/lib.rs:371:6:impl Version {"]),
])
def test_definition_sites_survive_small_budgets(corpus_dir, counter, folder, name, budget,
                                                needles):
    meta, text = corpus_case(corpus_dir if folder == "shared" else GROWN_DIR, name)
    out = compress(text, tool=meta["tool"], budget=budget, counter=counter).text
    assert counter.count(out) <= budget
    for needle in needles:
        assert needle in out


def test_a_file_list_map_counts_the_big_folder_and_names_the_small_ones(counter):
    meta, text = corpus_case(GROWN_DIR, "rg-l-commander-require-with-node-modules")
    out = compress(text, tool=meta["tool"], budget=1000, counter=counter).text
    assert counter.count(out) >= 0.85 * 1000  # the estimate's leftover is spent
    modules = sum(1 for row in text.split("\n") if row.startswith("node_modules/"))
    assert re.search(rf"^node_modules/ \({modules:,} files\)$", out, re.M)
    for path in ("tests/imports.test.cjs", "examples/alias.cjs", "docs/deprecated.md"):
        assert re.search(rf"^{re.escape(path)}$", out, re.M), path


def test_context_lines_spend_what_the_matches_leave(counter):
    meta, text = corpus_case(GROWN_DIR, "rg-context-boltons-raise-valueerror")
    out = compress(text, tool=meta["tool"], budget=4000, counter=counter).text
    used = counter.count(out)
    assert 0.85 * 4000 <= used <= 4000
    context = [line for line in out.split("\n") if re.match(r"^[\w/.]+\.py-\d+-", line)]
    assert context
    rows = text.split("\n")
    for line in context:  # each beside a shown match or a shown context line of its file
        at = rows.index(line)
        near = {rows[at - 1], rows[at + 1]}
        assert near & set(out.split("\n")), line


SEARCHES = [("shared", "grep-rn-express-req"), ("shared", "rg-context-tornado-io-loop"),
            ("shared", "rg-vimgrep-spaced-underscore-isobject"), ("shared", "rg-flood-black-def"),
            ("shared", "rg-heading-tornado-def-test"), ("grown", "rg-n-go-stdlib-func-new"),
            ("grown", "rg-context-boltons-raise-valueerror"),
            ("grown", "rg-n-cpython-lib-error-classes")]


@pytest.mark.parametrize("folder, name", SEARCHES)
@pytest.mark.parametrize("budget", [500, 1000])
def test_the_output_s_first_match_leads_at_any_budget(corpus_dir, counter, folder, name, budget):
    """What a reader meets first stays, whatever the ladder picks after it (a minified line
    cut inside, with its character count)."""
    meta, text = corpus_case(corpus_dir if folder == "shared" else GROWN_DIR, name)
    first = next(line for line in text.split("\n")
                 if re.match(r"^(?:.+?:\d+:|\d+:)", line))  # rg's -C context lines use `-`
    out = compress(text, tool=meta["tool"], budget=budget, counter=counter).text
    assert first[:300] in out


def test_a_flood_of_definitions_leads_with_the_package_s_entry_module(corpus_dir, counter):
    """`rg -n 'def '` in a project: every line is a definition, so no symbol tells them apart;
    the entry module's public top-level definitions come first, tests and data files last."""
    meta, text = corpus_case(corpus_dir, "rg-flood-black-def")
    out = compress(text, tool=meta["tool"], budget=1000, counter=counter).text
    shown = [line for line in out.split("\n") if re.match(r"^[^ ]+\.py:\d+:", line)]
    entry_lines = [line for line in shown if line.startswith("src/black/__init__.py:")]
    per_file = {}
    for line in shown:
        per_file[line.split(":")[0]] = per_file.get(line.split(":")[0], 0) + 1
    assert len(entry_lines) >= 5 and len(entry_lines) == max(per_file.values())
    assert all(":def " in line and ":def _" not in line for line in entry_lines)
    assert not [line for line in shown if line.startswith("tests/")]


@pytest.mark.parametrize("path, is_entry", [
    ("src/black/__init__.py", True), ("index.js", True), ("src/lib.rs", True),
    ("cmd/tool/main.go", True), ("pkg/errors/errors.go", True), ("src/black/linegen.py", False),
    ("src/mainline.py", False),
])
def test_an_entry_module_is_a_package_s_front_door(path, is_entry):
    assert entry(path) == is_entry


def test_a_private_name_is_one_with_a_leading_underscore():
    assert private("def _format_str_once(") and private("    async def _run(self):")
    assert not private("def format_str(") and not private("class Mode:")


def test_a_flood_of_definitions_leads_with_what_its_tests_are_named_after(corpus_dir, counter):
    """`rg -n 'def '` over a project with its tests: a definition that tests are named after
    (`def test_format_str…` → `def format_str(`) is its API, so it comes first."""
    meta, text = corpus_case(corpus_dir, "rg-flood-black-def")
    tests = " ".join(re.findall(r"def test_(\w+)", text)).lower()
    out = compress(text, tool=meta["tool"], budget=500, counter=counter).text
    shown = [m[1] for m in re.finditer(r"^src/[\w/.]+:\d+:(?:async )?def (\w+)\(", out, re.M)]
    assert len(shown) >= 3
    assert all(name.lower() in tests for name in shown), shown


def _words(text: str) -> set[str]:
    return {w.lower() for w in re.findall(r"[A-Za-z_$][\w$]*", text)}


def test_distinctive_lines_hold_a_word_no_other_match_holds():
    """A search that defines nothing (`raise …Error(`): its lines that stand apart are those
    with a word of their own; every one the rung returns has one, and it never offers a test's
    line (a fixture's words are rare by nature)."""
    from headroom_cli.planners.search.signals import parse
    from headroom_cli.planners.search.sites import distinctive_lines

    _, text = corpus_case(GROWN_DIR, "rg-n-pip-raise-error-classes")
    rows = text.splitlines()
    files = list(parse(rows).files.values())
    found = distinctive_lines(files, rows)
    assert found
    bodies = {(p, i): rows[i][files[p].text_start[i]:] for p, hits in enumerate(files)
              for i in hits.matches}
    seen: dict[str, int] = {}
    for body in bodies.values():
        for word in _words(body[:400]):
            seen[word] = seen.get(word, 0) + 1
    for position, index in found:
        assert not aside(files[position].path)
        assert any(seen[w] == 1 for w in _words(bodies[position, index][:400]) if len(w) >= 3)
    texts = [bodies[site] for site in found]
    assert any("BrokenStdoutLoggingError" in t for t in texts)  # the one raise of its class
    assert not any(t.strip() == "raise InstallationError(" for t in texts)  # 59 of those


@pytest.mark.parametrize("name, budget, least", [("rg-n-pip-raise-error-classes", 2000, 3),
                                                 ("git-grep-pip-logger-warning-error", 1000, 2)])
def test_a_search_that_defines_nothing_shows_lines_that_stand_apart(counter, name, budget,
                                                                    least):
    """Before this rung, pip's 215 `raise …Error(` lines at 2000 tokens showed one of the rare
    error classes, and its `logger.error(` calls at 1000 none of the lines that say what they
    report. The needles were chosen before headroom ran on them. Where not every file can be
    named, these lines take at most SITE_FLOOR of the room: a map beats matches."""
    meta, text = corpus_case(GROWN_DIR, name)
    out = compress(text, tool=meta["tool"], budget=budget, counter=counter).text
    assert counter.count(out) <= budget
    found = [n["text"] for n in meta["needles"] if n["text"] in out]
    assert len(found) >= least, found
