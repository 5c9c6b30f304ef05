"""Definition floods (`rg -n 'def '`, `rg -n 'func '`): which definitions a file's sites put
first, on real outputs of the corpus (tests/corpus)."""

from pathlib import Path

from headroom_cli.planners.search.signals import parse
from headroom_cli.planners.search.sites import definition_sites, name

CORPUS = Path(__file__).parent / "corpus"


def _sites(case: str) -> list[str]:
    rows = (CORPUS / case / "output.txt").read_text().splitlines()
    files = list(parse(rows).files.values())
    return [rows[i] for _, i in definition_sites(files, rows)]


def _order(sites: list[str], prefix: str) -> list[str]:
    return [row for row in sites if row.startswith(prefix)]


def test_a_go_method_is_named_after_its_receiver():
    rows = (CORPUS / "rg-n-gin-func-flood" / "output.txt").read_text().splitlines()
    line = next(row for row in rows if row.startswith("context.go:1255:"))
    assert name(line.split(":", 2)[2]) == "JSON"


def test_go_package_functions_before_methods_and_private_names():
    gin = _order(_sites("rg-n-gin-func-flood"), "gin.go:")
    first = gin[:2]
    assert {row.split(":")[1] for row in first} == {"202", "236"}  # New, Default
    constructors = max(gin.index(row) for row in first)
    # every method (declared with a receiver) and every unexported function comes after
    for row in gin[constructors + 1:]:
        body = row.split(":", 2)[2]
        assert body.startswith("func (") or name(body)[:1].islower(), row


def test_an_overload_stub_comes_after_the_definition_with_the_body():
    core = _order(_sites("rg-n-click-def-flood"), "src/click/core.py:")
    mains = [int(row.split(":")[1]) for row in core if row.split(":", 2)[2].strip()
             .startswith("def main(")]
    assert mains[0] == max(mains)  # the last of `main`'s overloads is the implementation


def test_a_nested_closure_comes_after_the_methods_of_its_file():
    core = _order(_sites("rg-n-click-def-flood"), "src/click/core.py:")
    methods = [at for at, row in enumerate(core)
               if row.split(":", 2)[2].startswith("    def ")]
    closures = [at for at, row in enumerate(core)
                if row.split(":", 2)[2].startswith("        def ")]
    assert methods and closures and max(methods) < min(closures)
