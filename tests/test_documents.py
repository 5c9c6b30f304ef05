"""Documents (#14 item 3, other): Markdown, HTML, YAML and TOML get an outline of the omitted
part's headings with their line numbers, like code outlines."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from conftest import corpus_case
from headroom_cli.api import compress
from headroom_cli.plan import Lines
from headroom_cli.planners import markdown, outline, yaml_doc
from headroom_cli.sniff import sniff
from headroom_cli.tools import lookup

CORPUS = Path(__file__).parent / "corpus"


def _read(name: str) -> str:
    return (CORPUS / name / "output.txt").read_text()


def _outline_rows(text: str) -> list[str]:
    rows = text.splitlines()
    start = next(i for i, row in enumerate(rows) if row.startswith("[outline of the omitted"))
    return [row for row in rows[start + 1:] if re.match(r"\s*\d+\t", row)]


def test_every_outline_row_is_the_documents_own_line_with_its_number(counter):
    for name, kind in (("read-pyenv-readme-md", "markdown"),
                       ("read-rustc-book-warn-by-default-html", "html"),
                       ("read-pyenv-workflow-yaml", "yaml"), ("read-attrs-pyproject-toml", "toml")):
        text = _read(name)
        result = compress(text, tool="Read", budget=1200, counter=counter)
        assert result.kind == kind and counter.count(result.text) <= 1200
        source = text.splitlines()
        shown = _outline_rows(result.text)
        assert len(shown) >= 3, name
        for row in shown:  # a Read's rows carry their numbers: printed as they are (or cut)
            number = int(row.split("\t", 1)[0])
            assert source[number - 1].startswith(row.split(" …[+")[0]), (name, row)


def test_markdown_headings_inside_fenced_blocks_are_not_headings():
    rows = ["# Title", "", "Some prose.", "", "```sh", "# not a heading", "```", "", "## Usage",
            "", "Text", "", "Setext heading", "--------------", "", "- an item"]
    found, fences, marks = markdown.headings(rows)
    assert found == [(0, 1), (8, 2), (12, 2)] and fences == 2 and marks == 1


def test_yaml_outlines_top_level_keys_and_the_level_under_them():
    rows = ["name: ci", "on:", "  push:", "    branches: [main]", "jobs:", "  build:",
            "    runs-on: ubuntu", "    steps:", "      - run: make", "  test:", "    x: 1"]
    assert yaml_doc.headings(rows) == [(0, 1), (1, 1), (2, 2), (4, 1), (5, 2), (9, 2)]


def test_a_shallower_level_goes_first_when_not_all_headings_fit(counter):
    text = _read("read-pyenv-readme-md")
    result = compress(text, tool="Read", budget=500, counter=counter)
    shown = {int(row.split("\t", 1)[0]) for row in _outline_rows(result.text)}
    found, _, _ = markdown.headings(outline.bodies(text.splitlines()))
    inside = [(i + 1, level) for i, level in found if min(shown) <= i + 1 <= max(shown)]
    deepest = max(level for number, level in inside if number in shown)
    assert len(shown) < len(inside)
    assert all(number in shown for number, level in inside if level < deepest)


def test_source_with_comments_is_not_a_document():
    python = (Path(__file__).parent / "cases" / "code-argparse-py" / "input").read_text()
    assert sniff(Lines(python), lookup("Read")) == "code"
    commented = "\n".join(f"# step {i}\n\n## detail {i}\n- run {i}\nexport X{i}=1\n"
                          for i in range(40))
    assert sniff(Lines(commented), lookup("Bash")) != "code"


def test_numbered_rows_keep_their_numbers_and_plain_rows_get_them():
    rows = ["# A", "text"]
    assert outline.row_of(0, rows, False) == "     1\t# A"
    assert outline.row_of(0, ["    12\t# A"], True) == "    12\t# A"


@pytest.mark.parametrize("name", ["read-attrs-pyproject-toml", "npm-ls-all-commander-tree",
                                  "curl-v-localhost-cjson-readme", "read-boltons-iterutils-py",
                                  "git-log-decorate-commander-120"])
@pytest.mark.parametrize("budget", [500, 1000, 2000, 4000])
def test_an_outline_lists_only_lines_it_omits(counter, name, budget):
    """Every line the outline lists lies in the omitted range its marker names, and the
    header counts them: what the head or tail grew to show leaves the outline (it was printed
    twice: `305 [[tool.towncrier.type]]` listed, then the tail's own line 305)."""
    meta, text = corpus_case(CORPUS, name)
    out = compress(text, tool=meta["tool"], budget=budget, counter=counter).text
    rows = out.split("\n")
    header = next((i for i, row in enumerate(rows)
                   if row.startswith("[outline of the omitted lines:")), None)
    if header is None:
        return  # not outlined at this budget
    first, last = (int(x.replace(",", "")) for x in
                   re.search(r"lines ([\d,]+)–([\d,]+) of", out).groups())
    listed = []
    for row in rows[header + 1:]:
        m = re.match(r"\s*(\d+)\t", row)
        if not m or not first <= int(m[1]) <= last:
            break
        listed.append(int(m[1]))
    after = [int(m[1]) for row in rows[header + 1 + len(listed):]
             if (m := re.match(r"\s*(\d+)\t", row)) and first <= int(m[1]) <= last]
    assert not after, (after, listed)  # a listed line outside the omitted range ends the list
    count = re.match(r"\[outline of the omitted lines: ([\d,]+) of [\d,]+ \w+(?: and ([\d,]+) "
                     r"lines? naming)?", rows[header])
    assert sum(int(n.replace(",", "")) for n in count.groups() if n) == len(listed)


@pytest.mark.parametrize("budget", [1000, 2000])
def test_a_changelog_entry_repeated_under_two_releases_is_listed_once(counter, budget):
    """google-auth's changelog lists `* drop support for Python 2.7` under 2.0.0b1 and again
    under 2.0.0: listed twice, the second copy took the room of the next deprecation
    (`* Deprecate UserAccessTokenCredentials`)."""
    text = _read("cat-google-auth-2.24-changelog-md")
    out = compress(text, tool="Bash", budget=budget, counter=counter).text
    words = [row.split("\t", 1)[1] for row in _outline_rows(out)]
    assert len(words) == len(set(words))
    assert "drop support for Python 2.7" in out
    assert "* Deprecate UserAccessTokenCredentials" in out


def test_a_table_of_contents_is_no_part_of_a_documents_head(counter):
    """io.js's changelog opens with a table linking its releases (`<a href="#3.3.1">3.3.1</a>`,
    70 of them): the outline lists those releases' own headings, so the head stops where the
    table starts and neither it nor what the outline leaves grows into it; that room lists a
    deprecation the head's links had crowded out."""
    text = _read("cat-nodejs-changelog-iojs-md")
    rows = text.splitlines()
    out = compress(text, tool="Bash", budget=4000, counter=counter).text
    assert counter.count(out) <= 4000
    assert out.startswith("\n".join(rows[:12]) + "\n[…headroom: lines 13–")  # up to the links
    assert 'href="#' not in out
    assert "* **freelist**: Deprecate the undocumented `freelist` core module" in out
