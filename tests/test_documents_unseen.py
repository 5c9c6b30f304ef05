"""Documents as a reader of them looks for things (issue #22, "What to build" 3 and 5), on real
documents of tests/corpus added for it: a Markdown document is taken for one even when its prose
names errors; a document's headings come level by level, a round at a time over its chapters;
a changelog's major releases and the releases holding urgent prose come before other releases;
a reference's definition-list terms are entries; a warning set apart is kept; prose beside the
outline is shown by its beginning."""

from __future__ import annotations

import re
from pathlib import Path

from headroom_cli import tools
from headroom_cli.api import compress
from headroom_cli.clean import clean
from headroom_cli.plan import Lines
from headroom_cli.sniff import sniff

CORPUS = Path(__file__).parent / "corpus"


def _text(case: str) -> str:
    return (CORPUS / case / "output.txt").read_text()


def _outline(out: str) -> list[str]:
    """The rows of the outline (after its header, up to the first row without a number)."""
    rows = []
    for row in out.split("[outline of the omitted lines:", 1)[1].splitlines()[1:]:
        if not re.match(r" *\d+\t", row):
            break
        rows.append(row)
    return rows


def test_a_document_whose_prose_names_errors_is_markdown_not_a_log():
    """A changelog quotes the errors it fixed (node-gyp's `Created Error: "pre" versions…`),
    a reference the error its setting raises (npm's config.md, numbered by cat -n), a what's-new
    page the exception an upgrade raises (pyparsing): headings of two levels say document. A
    TAP stream's `# Subtest:` lines are headings of one level: it stays a log."""
    bash = tools.lookup("Bash")
    for case in ("cat-node-gyp-12.4-changelog-md", "cat-n-npm-docs-config-md",
                 "cat-pyparsing-whats-new-3.0-rst", "cat-n-pyenv-changelog-md"):
        assert sniff(Lines(clean(_text(case))), bash) == "markdown", case
    assert sniff(Lines(clean(_text("node-test-tap-commander-literal-bug"))), bash) == "log"


def test_a_changelogs_major_releases_come_before_other_releases(counter):
    """requests' HISTORY.md (cat -n): 152 setext version headings, room at 1000 tokens for a
    fifth of them. The major releases (2.0.0, 1.0.0) and the one fixing CVE-2023-32681
    (2.31.0, under **Security**) are listed, with the newest and the oldest."""
    out = compress(_text("cat-n-requests-history-md"), tool="Bash", budget=1000,
                   counter=counter).text
    assert counter.count(out) <= 1000
    for version in ("2.32.3 (2024-05-29)", "2.31.0 (2023-05-22)", "2.0.0 (2013-09-24)",
                    "1.0.0 (2012-12-17)", "0.0.1 (2011-02-13)"):
        assert version in out, version


def test_a_small_sections_entries_are_not_crowded_out_by_a_large_ones(counter):
    """git-config(1): its ENVIRONMENT section has four entries, its Variables subsection 558
    at the same depth. At 2000 tokens the outline lists the first and the last of
    ENVIRONMENT's entries beside a sample of the variables."""
    text = _text("man-git-config-2.39")
    out = compress(text, tool="Bash", budget=2000, counter=counter).text
    assert counter.count(out) <= 2000
    rows = _outline(out)
    assert any(row.endswith("\t       GIT_CONFIG_GLOBAL, GIT_CONFIG_SYSTEM") for row in rows)
    assert any(row.endswith("\t       GIT_CONFIG") for row in rows)
    variables = [row for row in rows if re.search(r"\t       [a-z]+\.[\w.<>*-]+$", row)]
    assert len(variables) >= 20


def test_a_references_definition_terms_are_entries(counter):
    """cmake-presets(7), reStructuredText: its fields are definition-list terms (``name`` over
    its indented definition), not titles. At 2000 tokens the outline names them by the dozen:
    before, only its 11 section titles."""
    text = _text("cat-cmake-3.25-presets-7-rst")
    terms = {row for row in text.splitlines() if re.fullmatch(r"``\w+``", row)}
    assert len(terms) > 40  # distinct: each preset kind repeats `name`, `inherits`, …
    out = compress(text, tool="Bash", budget=2000, counter=counter).text
    assert counter.count(out) <= 2000
    listed = {row.split("\t", 1)[1] for row in _outline(out)}
    assert len(terms & listed) >= 20
    assert "``cacheVariables``" in compress(text, tool="Bash", budget=4000, counter=counter).text


def test_a_warning_set_apart_is_kept(counter):
    """cJSON's README (fetched by curl -v): its `**Important**:` paragraph on cJSON_Delete is
    a caveat a reader must not miss; at 1000 tokens it is listed beside the headings."""
    out = compress(_text("curl-v-localhost-cjson-readme"), tool="Bash", budget=1000,
                   counter=counter).text
    assert counter.count(out) <= 1000
    assert any("**Important**: If you have added an item to an array" in row
               for row in _outline(out))


def test_prose_beside_the_outline_is_shown_by_its_beginning(counter):
    """io.js's changelog, whose notable lines run to 600 characters: each listed beside the
    headings is shown by its beginning with the count of the rest, so at 4000 tokens the
    outline holds every heading and more than a dozen such lines, among them the CVE fix."""
    text = _text("cat-nodejs-changelog-iojs-md")
    out = compress(text, tool="Bash", budget=4000, counter=counter).text
    assert counter.count(out) <= 4000
    rows = _outline(out)
    headings = [row for row in rows if re.match(r" *\d+\t#+ ", row)]
    prose = [row for row in rows if row not in headings]
    shown, total = re.search(r"outline of the omitted lines: ([\d,]+) of ([\d,]+) headings",
                             out).groups()
    assert shown == total and int(total) == len(headings)
    assert len(prose) >= 12
    assert all(len(row) <= 200 for row in prose)
    assert any("…[+" in row for row in prose)
    assert any("fixes CVE-2015-1793" in row for row in prose)


def test_a_changelog_of_short_linked_releases_is_markdown():
    """google-auth's release-please changelog: a linked `## [2.24.0](…)` heading, a `###
    Features`, one or two items: nearly half its rows are headings, which alone would say
    comment lines, but its links say Markdown. A shell script's `# …` comments, many as they
    are, still do not."""
    bash = tools.lookup("Bash")
    assert sniff(Lines(clean(_text("cat-google-auth-2.24-changelog-md"))), bash) == "markdown"
    assert sniff(Lines(clean(_text("cat-bash52-upstream-patches"))), bash) != "markdown"


def test_a_changelogs_series_openers_come_before_its_patch_releases(counter):
    """man-db's NEWS.md: 60 setext release headings, room at 1000 tokens for half of them.
    The releases that open a series (2.10.0, 2.9.0: new features, changed requirements) are
    listed before patch releases of which some must go."""
    out = compress(_text("zcat-man-db-2.11-news-md"), tool="Bash", budget=1000,
                   counter=counter).text
    assert counter.count(out) <= 1000
    listed = "\n".join(_outline(out))
    for version in ("man-db 2.10.0 (4 February 2022)", "man-db 2.9.0 (23 October 2019)",
                    "man-db 2.8.0 (4 February 2018)", "man-db 2.7.0 (22 September 2014)"):
        assert version in listed, version
    assert "man-db 2.10.1 (10 February 2022)" not in listed  # a patch release gave way


def test_urgent_items_that_say_so_first_come_before_mentions(counter):
    """man-db's NEWS.md says "security" on 14 lines: five items labelled `* SECURITY:`, the
    others mention a product (`ESET File Security`) or a concern inside a sentence. The
    labelled items come first in the urgent room."""
    out = compress(_text("zcat-man-db-2.11-news-md"), tool="Bash", budget=1000,
                   counter=counter).text
    assert " * SECURITY: Eliminate dangerous setgid-root directories." in out
