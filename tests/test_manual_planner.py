"""Documents laid out by indentation under capitalised sections (a man page, pydoc's help) get a
level-first outline (planners/manual.py), on real outputs kept whole in tests/outputs:

- man-git-config-2.39.txt: `MANWIDTH=100 man -P cat git-config`, Debian bookworm's git-man
  1:2.39.5-0+deb12u3.
- pydoc-json-3.11.txt: `python3 -m pydoc json`, CPython 3.11.7's standard library.
"""

from __future__ import annotations

import re
from pathlib import Path

from headroom_cli.api import compress
from headroom_cli.plan import Lines
from headroom_cli.planners import manual
from headroom_cli.sniff import sniff
from headroom_cli.tools import lookup

OUTPUTS = Path(__file__).parent / "outputs"
CORPUS = Path(__file__).parent / "corpus"


def _read(name: str) -> str:
    return (OUTPUTS / name).read_text()


def _margin_sections(text: str) -> list[str]:
    """The section names as a reader finds them: capitals alone on a line at the margin."""
    return [row for row in text.splitlines() if re.fullmatch(r"[A-Z][A-Z ]+", row)]


def test_a_man_page_keeps_every_section_and_its_subsections_before_entries(counter):
    text = _read("man-git-config-2.39.txt")
    result = compress(text, tool="Bash", budget=1000, counter=counter)
    assert counter.count(result.text) <= 1000
    assert sniff(Lines(text), lookup("Bash")) == "other"
    for section in _margin_sections(text):
        assert re.search(rf"^(\s*\d+\t)?{section}$", result.text, re.M), section
    for subsection in ("   Conditional includes", "   Variables", "   Protected configuration"):
        assert subsection in result.text


def test_pydoc_keeps_its_classes_and_functions_by_signature(counter):
    text = _read("pydoc-json-3.11.txt")
    result = compress(text, tool="Bash", budget=1000, counter=counter)
    assert counter.count(result.text) <= 1000
    for entry in ("    class JSONDecodeError(builtins.ValueError)",
                  "    class JSONDecoder(builtins.object)",
                  "    class JSONEncoder(builtins.object)",
                  "FUNCTIONS", "    dump(obj, fp, *,", "    dumps(obj, *,", "    load(fp, *,",
                  "    loads(s, *,"):
        assert entry in result.text, entry


def test_a_two_form_synopsis_opens_its_entry():
    """bash(1)'s `set [-abe…]` over `set [+abe…]`: the entry is the first form."""
    rows = (CORPUS / "man-bash-5.2-reference" / "output.txt").read_text().splitlines()
    first = rows.index("       set [-abefhkmnptuvxBCEHPT] [-o option-name] [--] [-] [arg ...]")
    found = dict(manual.headings(rows))
    assert first in found and first + 1 not in found
    assert found[first] > found[rows.index("SHELL BUILTIN COMMANDS")]


def test_outputs_with_lines_at_the_margin_are_no_manual():
    """A psql description and `strings` of a binary have capitalised lines over indented ones,
    but most of their lines sit at the margin: not a manual."""
    for name in ("psql-d-plus-pg-catalog.txt",):
        assert not manual.looks_like(_read(name).splitlines()[:2000], lookup("Bash"))
    strings = (CORPUS / "strings-n8-psql-15-binary" / "output.txt").read_text()
    assert not manual.looks_like(strings.splitlines()[:2000], lookup("Bash"))
    assert manual.looks_like(_read("man-git-config-2.39.txt").splitlines(), lookup("Bash"))
    assert manual.looks_like(_read("pydoc-json-3.11.txt").splitlines(), lookup("Bash"))
