"""Outlines keep the prose a reader looks for beside the headings (issue #22, "What to build"
3): a changelog's breaking changes, deprecations and security fixes, listed in room of their
own before a long run of version headings takes it all — unless they are the document's topic.
On real documents of the corpus (Debian and npm packages' own files)."""

from __future__ import annotations

import re
from pathlib import Path

from headroom_cli.api import compress

CORPUS = Path(__file__).parent / "corpus"


def _text(case: str) -> str:
    return (CORPUS / case / "output.txt").read_text()


def test_a_changelog_lists_its_breaking_changes_beside_its_versions(counter):
    """node-gyp 12.4.0's CHANGELOG.md, read as a file: 67 `##` versions, four `### ⚠ BREAKING
    CHANGES` sections whose items never say "breaking" themselves. At 1000 tokens (room for a
    third of the versions) items of those sections are listed beside ten versions or more."""
    text = _text("cat-node-gyp-12.4-changelog-md")
    rows = text.splitlines()
    breaking = [at for at, row in enumerate(rows) if "BREAKING CHANGES" in row]
    items = {rows[at] for start in breaking
             for at in range(start + 1, next((i for i in range(start + 1, len(rows))
                                              if rows[i].startswith("#")), len(rows)))
             if rows[at].startswith("* ")}
    assert len(breaking) == 4 and len(items) >= 4
    out = compress(text, tool="Read", budget=1000, counter=counter).text
    assert counter.count(out) <= 1000
    listed = {re.sub(r"^ *\d+\t", "", line) for line in out.splitlines()}
    assert len(items & listed) >= 3
    assert sum(line.lstrip().split("\t")[-1].startswith("## ") for line in out.splitlines()) >= 10


def test_a_document_about_deprecations_keeps_its_headings_first(counter):
    """Node.js 20's deprecations.md (`cat -n`): one line in six names a deprecation — its topic,
    not news — so its `### DEPnnnn` headings fill the outline, not the prose about them."""
    text = _text("read-nodejs-20-deprecations-md")
    out = compress(text, tool="Read", budget=1000, counter=counter).text
    assert counter.count(out) <= 1000
    headings = [line for line in out.splitlines() if re.match(r" *\d+\t###? ", line)]
    prose = [line for line in out.splitlines() if re.match(r" *\d+\t[^#\s]", line)]
    assert len(headings) >= 25
    assert len(prose) <= 20  # the head's own lines
