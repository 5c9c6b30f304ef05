"""psql's descriptions of relations (planners/psql.py) and reStructuredText kept as directives
(planners/rst.py) are outlined by what names their parts, on real outputs in tests/outputs:

- psql-d-plus-pg-catalog.txt, psql-d-plus-pgbench-tables.txt: see test_sniff_evidence.py;
- cat-n-alembic-1.13.3-changelog-rst.txt: `cat -n docs/build/changelog.rst` of the alembic
  1.13.3 sdist (PyPI).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from headroom_cli.api import compress
from headroom_cli.planners import psql, rst
from headroom_cli.tools import lookup

OUTPUTS = Path(__file__).parent / "outputs"


def _read(name: str) -> str:
    return (OUTPUTS / name).read_text()


def test_every_table_and_view_is_named_before_any_index_block(counter):
    text = _read("psql-d-plus-pg-catalog.txt")
    titles = [row.strip() for row in text.splitlines()
              if re.fullmatch(r"\s+(Table|View) \"pg_catalog\.\w+\"", row)]
    assert len(titles) > 100
    out = compress(text, tool="Bash", budget=2500, counter=counter).text
    assert counter.count(out) <= 2500
    assert all(title in out for title in titles)
    assert 'Index "pg_catalog.' not in out.split("[outline of the omitted lines", 1)[1]


def test_a_tables_indexes_and_references_follow_its_title(counter):
    text = _read("psql-d-plus-pgbench-tables.txt")
    assert psql.looks_like(text.splitlines(), lookup("Bash"))
    out = compress(text, tool="Bash", budget=400, counter=counter).text
    assert counter.count(out) <= 400
    for name in ("accounts", "branches", "history", "tellers"):
        assert f'Table "public.pgbench_{name}"' in out, name
    members = [row for row in text.splitlines() if row.startswith(('    "', '    TABLE "'))]
    assert sum(row in out for row in members) >= len(members) // 2


def test_a_changelog_of_directives_lists_every_release_first(counter):
    text = _read("cat-n-alembic-1.13.3-changelog-rst.txt")
    rows = text.splitlines()
    assert rst.looks_like(rows[:3000], lookup("Read"))
    versions = [row for row in rows if re.fullmatch(r"\s*\d+\t    :version: \S+", row)]
    assert len(versions) > 100
    small = compress(text, tool="Read", budget=1500, counter=counter).text
    assert sum(v in small for v in versions) >= 40  # spread: the first, the middle, the last…
    assert versions[len(versions) // 2] in small
    large = compress(text, tool="Read", budget=4000, counter=counter).text
    assert all(v in large for v in versions)
    # then the changes' summaries: the first line of a change's prose
    assert "        Render ``if_exists`` and ``if_not_exists`` parameters in" in large
