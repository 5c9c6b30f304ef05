"""SQL definitions (planners/sql.py): a schema's dump or a script of definitions, read for its
tables, views, functions and types, then what constrains them. A pg_dump of the tuning corpus and
a real PostgreSQL script (tests/real, README there); what each test expects is counted from the
text itself."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import GROWN_DIR, corpus_case
from headroom_cli.api import compress
from headroom_cli.clean import clean
from headroom_cli.plan import Lines
from headroom_cli.planners import outline, sql
from headroom_cli.sniff import sniff
from headroom_cli.tools import lookup

REAL = Path(__file__).parent / "real"
LISTED = re.compile(r"^ *(\d+)\t(.*)$", re.MULTILINE)  # an outline's row: a line number, a tab


def _dump() -> str:
    return corpus_case(GROWN_DIR, "pg-dump-15-schema-only-django-shop")[1]


def _listed(out: str) -> list[str]:
    """The rows of the outline (a dump printed without line numbers lists them with theirs)."""
    return [row for _, row in LISTED.findall(out)]


def test_a_schema_dump_lists_every_table_before_its_ceremony(counter):
    """pg_dump --schema-only of a Django shop (1,119 lines, 18 tables): cut by template, its
    `ALTER TABLE … OWNER TO postgres;` and identity sequences filled 1,000 tokens and no
    `CREATE TABLE` line was shown. A reader of a schema asks which tables there are."""
    text = _dump()
    assert sniff(Lines(clean(text)), lookup("Bash")) == "other"
    out = compress(text, tool="Bash", budget=1000, counter=counter).text
    assert counter.count(out) <= 1000
    tables = re.findall(r"(?m)^CREATE TABLE .*$", text)
    assert len(tables) == 18
    assert all(table in out for table in tables)
    ceremony = re.compile(r"OWNER TO|ADD GENERATED|^SET |setval|SEQUENCE NAME|START WITH")
    assert not [row for row in _listed(out) if ceremony.search(row)]


def test_constraints_come_before_primary_keys_and_columns(counter):
    """Every table has a primary key on `id`: it says least. At 2,000 tokens every index and
    every check constraint of a table's body is listed, and fewer primary keys than other
    constraints."""
    text = _dump()
    out = compress(text, tool="Bash", budget=2000, counter=counter).text
    listed = _listed(out)
    indexes = re.findall(r"(?m)^CREATE (?:UNIQUE )?INDEX .*$", text)
    checks = re.findall(r"(?m)^ +CONSTRAINT \S+ CHECK .*$", text)
    assert len(indexes) == 30 and len(checks) == 3
    assert all(row in listed for row in indexes + checks)
    keys = [row for row in listed if "PRIMARY KEY" in row]
    others = [row for row in listed if "ADD CONSTRAINT" in row and "PRIMARY KEY" not in row]
    assert len(keys) < len(others)


def test_a_script_read_with_its_numbers_lists_its_definitions_not_function_bodies(counter):
    """PostgreSQL's citext extension script read whole (`cat -n`, 501 lines): `CREATE FUNCTION
    f(x)` read as a C function, it was outlined as code, whose patterns miss its casts,
    operators and aggregate. Every definition at the margin is listed with its own number;
    no line of a function's body (between `$$` quotes) is."""
    text = (REAL / "cat-n-citext-1.4-postgresql-15.txt").read_text(encoding="utf-8")
    assert sql.looks_like(text.splitlines(), lookup("Read"))
    out = compress(text, tool="Read", budget=2000, counter=counter).text
    assert counter.count(out) <= 2000
    numbered = dict(LISTED.findall(text))
    definitions = {number for number, row in numbered.items() if row.startswith("CREATE ")}
    assert len(definitions) == 75
    shown = {number for number, _ in LISTED.findall(out)}
    assert definitions <= shown
    for number, row in LISTED.findall(out):
        assert numbered[number] == row  # each row under its own number
    rows = outline.bodies(text.splitlines())
    bodies = {index for index, row in enumerate(rows)
              if index and rows[index - 1].rstrip().endswith("AS $$")}
    assert len(bodies) == 14
    assert not bodies & {index for index, _ in sql.entries(rows)}


def test_code_that_holds_sql_in_strings_is_no_sql_script():
    """headroom's own ledger creates its tables in a Python string: its lines at the margin are
    Python's."""
    source = Path(__file__).parents[1] / "headroom_cli" / "ledger.py"
    rows = source.read_text(encoding="utf-8").splitlines()
    assert not sql.looks_like(rows, lookup("Read"))
