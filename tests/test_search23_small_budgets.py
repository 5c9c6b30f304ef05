"""Search outputs at small budgets (500-1000 tokens), on real outputs (tests/corpus and the
shared corpus): what a reader looks for first in a search is its definition sites, one line per
file before a second line of any, the module's own name first; a module's `export default X;`
and an entry module's export list are where the name is exported; an `rg --heading` file whose
every match is shown keeps its heading."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from headroom_cli.api import compress
from headroom_cli.planners.search.signals import parse
from headroom_cli.planners.search.sites import EXPORTED, definition_sites, entry, rank
from conftest import corpus_case

GROWN = Path(__file__).parent / "corpus"


def _sites(case: str) -> list[tuple[str, str]]:
    rows = (GROWN / case / "output.txt").read_text().splitlines()
    files = list(parse(rows).files.values())
    return [(files[position].path, rows[i]) for position, i in definition_sites(files, rows)]


def _clip(case: str, budget: int, counter, folder: Path = GROWN) -> str:
    meta, text = corpus_case(folder, case)
    out = compress(text, tool=meta["tool"], budget=budget, counter=counter).text
    assert counter.count(out) <= budget
    return out


@pytest.mark.parametrize("case", ["rg-n-vite-export-function", "rg-vimgrep-rich-class",
                                  "rg-n-moment-src-function-flood", "rg-n-axum-pub-fn",
                                  "rg-n-go-stdlib-func-new"])
def test_a_flood_gives_each_file_one_site_before_a_second_to_any(case):
    """`rg -n 'def '` and the like: the first sites name as many files as there are (an entry
    module's public names aside: they are the package's surface). Before, a module with many
    top-level definitions took the first sites, and central modules showed none."""
    sites = [(path, row) for path, row in _sites(case) if not entry(path)]
    first = sites[:20]
    assert len({path for path, _ in first}) == len(first)


def test_a_module_s_namesake_definition_is_its_first_site():
    """`class Progress` of rich/progress.py, `function build` of build.ts: the name the module
    is named after is what a reader looks up there, wherever it is in the file."""
    rich = [row for path, row in _sites("rg-vimgrep-rich-class") if path == "rich/progress.py"]
    assert rich[0] == "rich/progress.py:1061:1:class Progress(JupyterMixin):"
    vite = [row for path, row in _sites("rg-n-vite-export-function")
            if path == "packages/vite/src/node/build.ts"]
    assert vite[0] == "packages/vite/src/node/build.ts:572:export async function build("


def test_the_name_most_tests_are_named_after_comes_first_in_its_module():
    """click's tests are named `test_option_*` far more often than `test_pass_obj*`: among
    decorators.py's definitions, `option` is the first site, not the file's first def."""
    rows = [row for path, row in _sites("rg-n-click-def-flood")
            if path == "src/click/decorators.py"]
    assert rows[0] == "src/click/decorators.py:352:def option("


@pytest.mark.parametrize("case, budget, needles", [
    ("rg-vimgrep-rich-class", 1000, ["rich/progress.py:1061:1:class Progress(JupyterMixin):",
                                     "rich/text.py:118:1:class Text(JupyterMixin):"]),
    ("rg-n-vite-export-function", 1000,
     ["packages/vite/src/node/build.ts:572:export async function build(",
      "packages/vite/src/node/preview.ts:131:export async function preview("]),
    ("rg-n-moment-src-function-flood", 1000,
     ["src/lib/moment/format.js:70:export function format(inputString) {"]),
])
def test_the_central_definitions_of_a_flood_are_shown_at_1000_tokens(case, budget, needles,
                                                                       counter):
    out = _clip(case, budget, counter)
    for needle in needles:
        assert needle in out


@pytest.mark.parametrize("body", ["export default AxiosError;", "export default AxiosError",
                                  "export = AxiosError;"])
def test_a_module_s_default_export_of_the_name_is_an_export(body):
    assert rank(body, frozenset({"axioserror"}), False)[0] == EXPORTED


def test_a_bare_name_in_an_entry_module_s_list_is_a_re_export():
    """`index.js`'s `export {` … `  AxiosError,` and a lib.rs `pub use x::{` … list: in an entry
    module a name alone on its line is one of the package's exports; elsewhere it is not."""
    assert rank("  AxiosError,", frozenset({"axioserror"}), False, True)[0] == EXPORTED
    assert rank("  AxiosError,", frozenset({"axioserror"}), False, False) is None


@pytest.mark.parametrize("case, budget, needles", [
    ("grep-rn-include-axios-axioserror", 1000,
     ["lib/core/AxiosError.js:103:export default AxiosError;", "index.js:8:  AxiosError,"]),
    ("git-grep-n-ripgrep-searcherbuilder", 500,
     ["crates/searcher/src/lib.rs:90:        SearcherBuilder,"]),
])
def test_where_a_name_is_exported_is_shown_at_small_budgets(case, budget, needles, counter):
    out = _clip(case, budget, counter)
    for needle in needles:
        assert needle in out


@pytest.mark.parametrize("budget", [400, 500, 700, 1000])
def test_a_heading_file_with_every_match_shown_keeps_its_heading(budget, counter, corpus_dir):
    """`rg --heading` rolled up under folders: a file whose every match is pinned is printed
    with its heading (its lines are bare `NN:` rows: without it they name no file). Before,
    tornado/testing.py's five `def test_` lines led the output with no path above them."""
    out = _clip("rg-heading-tornado-def-test", budget, counter, corpus_dir)
    rows = out.split("\n")
    for at, row in enumerate(rows):
        if re.match(r"\d+[:-]", row):
            above = next(r for r in reversed(rows[:at]) if not re.match(r"\d+[:-]", r))
            assert not above.startswith("[") and above.strip(), (row, above)
    if budget == 500:
        assert rows[0] == "tornado/testing.py"


@pytest.mark.parametrize("body", ["        self.environment = environment",
                                  "        t.environment = environment",
                                  "  this.environment = environment;"])
def test_a_value_stored_under_its_own_name_is_no_definition_site(body):
    """`self.environment = environment` in a constructor stores a parameter: jinja's search
    for `environment` showed a dozen of them where `def pass_environment(` was wanted."""
    assert rank(body, frozenset({"environment"}), False) is None


def test_a_nested_assignment_ranks_after_a_top_level_definition_naming_the_symbol():
    """`environment = enum.auto()` inside a class, `namespace["environment"] = …` inside a
    function: less a definition site than `def pass_environment(` at the top of a module."""
    wanted = frozenset({"environment"})
    top = rank("def pass_environment(f: F) -> F:", wanted, False)
    for body in ["    environment = enum.auto()", '        namespace["environment"] = environment']:
        assert top < rank(body, wanted, False)
    # a keyword's definition inside a body keeps its rank
    assert rank("    def environment(self):", wanted, False) < top


@pytest.mark.parametrize("budget, needles", [
    (500, ["src/jinja2/utils.py:72:def pass_environment(f: F) -> F:"]),
    (1000, ["src/jinja2/utils.py:72:def pass_environment(f: F) -> F:",
            "src/jinja2/lexer.py:428:def get_lexer(environment: \"Environment\") -> \"Lexer\":",
            "src/jinja2/nodes.py:231:    def set_environment(self, environment: \"Environment\")"
            " -> \"Node\":"]),
])
def test_jinja_s_environment_definitions_are_shown(budget, needles, counter):
    out = _clip("grep-rn-jinja-environment", budget, counter)
    for needle in needles:
        assert needle in out
    assert "self.environment = environment" not in out


@pytest.mark.parametrize("body, symbol, expected", [
    ('  parseOptions(args) {\\n"},"line_number":1760', "parseoptions", 0),  # rg --json's text
    ("  parseOptions(args) {", "parseoptions", 0),
    ("  addCommand(cmd: Command, opts?: CommandOptions): this;", "command", 1),
    ("  public async fetchUser(id: string): Promise<User> {", "fetchuser", 0),
])
def test_a_method_declared_by_its_name_alone_is_a_definition(body, symbol, expected):
    """JavaScript's and TypeScript's class methods (and Java's, C#'s) have no keyword: their
    name, parameters, then a body or a declared return type."""
    assert rank(body, frozenset({symbol}), False)[0] == expected


@pytest.mark.parametrize("body", ["  parseOptions(argv);", "  if (parseOptions(x)) {",
                                  "  while (parseOptions(x)) {", "  return parseOptions(x);"])
def test_a_call_or_a_control_statement_is_no_method_declaration(body):
    assert rank(body, frozenset({"parseoptions"}), False) is None


@pytest.mark.parametrize("case, budget, needle", [
    ("rg-json-commander-parseoptions", 1000,
     '"lines":{"text":"  parseOptions(args) {\\n"},"line_number":1760'),
    ("rg-w-commander-typings-command", 1000,
     "typings/index.d.ts:463:  addCommand(cmd: Command, opts?: CommandOptions): this;"),
])
def test_a_keywordless_method_definition_is_shown_at_1000_tokens(case, budget, needle, counter):
    assert needle in _clip(case, budget, counter)


def test_an_assignment_inside_a_test_is_its_fixture_not_a_site():
    """`req.counter = 0` inside an express test sets up the test; in lib/ it may be a site."""
    wanted = frozenset({"req"})
    assert rank("      req.counter = 0", wanted, True) is None
    assert rank("      req.counter = 0", wanted, False) is not None
