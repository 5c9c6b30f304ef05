"""sql: a script of SQL definitions (`pg_dump --schema-only`, `mysqldump --no-data`, sqlite3's
`.schema`, a migration, a Read of `schema.sql`) becomes the head, an outline of the omitted
statements, then the tail (outline.py).

A reader of a schema asks which tables, views, functions and types there are, then what
constrains them: an index, a check, a unique key, a foreign key (a primary key on `id` is on
every table and says least), then the columns. A dump's ceremony (`SET …`, `OWNER TO`,
`setval`, the identity sequence each table's `id` gets, the comment naming the next statement)
says nothing of the schema and is no entry. So the outline lists the definitions first, then
the constraints, then the primary keys, then the columns and other statements, each level
spread over the script. A function's body (between `$$` quotes) is code, not schema: its lines
are no entries.
"""

from __future__ import annotations

import re

from ..patterns import lazy
from ..plan import Lines, Plan
from ..tokens import Counter
from ..tools import Tool
from . import outline
from .costs import JUDGED_CHARS

READS_NUMBERED = True  # plans numbered lines (`cat -n`, a Read) itself

_DEFINITION = lazy(r"CREATE\s+(?:OR\s+REPLACE\s+)?(?:(?:GLOBAL|LOCAL|TEMP|TEMPORARY|UNLOGGED"
                   r"|MATERIALIZED|RECURSIVE|CONSTRAINT|EVENT|VIRTUAL)\s+)*(?:TABLE|VIEW"
                   r"|FUNCTION|PROCEDURE|TYPE|DOMAIN|TRIGGER|SCHEMA|EXTENSION|AGGREGATE|CAST"
                   r"|OPERATOR(?:\s+(?:CLASS|FAMILY))?|TEXT\s+SEARCH\s+\w+|COLLATION|POLICY"
                   r"|RULE)\b", re.I)
_TABLE = lazy(r"CREATE\s+(?:[A-Z]+\s+)*?TABLE\b", re.I)  # its body lists columns and constraints
_INDEX = lazy(r"CREATE\s+(?:UNIQUE\s+)?INDEX\b", re.I)
# A constraint: inside a table's body (`CONSTRAINT c CHECK (…)`, MySQL's `KEY k (…)`, a column
# that `REFERENCES` another table) or added after it (`ADD CONSTRAINT c FOREIGN KEY …`, on the
# line after pg_dump's `ALTER TABLE ONLY t`).
_CONSTRAINT = lazy(r"\s*(?:ALTER\s+TABLE\s+(?:ONLY\s+)?\S+\s+)?(?:ADD\s+)?(?:CONSTRAINT\b"
                   r"|(?:UNIQUE|FULLTEXT|SPATIAL)\s+(?:KEY|INDEX)\b|KEY\s|INDEX\s|CHECK\s*\("
                   r"|FOREIGN\s+KEY\b|UNIQUE\s*\(|EXCLUDE\b|PRIMARY\s+KEY\b)", re.I)
_PRIMARY = lazy(r"\bPRIMARY\s+KEY\b", re.I)
_REFERENCES = lazy(r"\bREFERENCES\b", re.I)
_STATEMENT = lazy(r"(?:CREATE|ALTER|DROP|INSERT|COMMENT\s+ON|GRANT|REVOKE|SET|SELECT|COPY|BEGIN"
                  r"|COMMIT|START\s+TRANSACTION|PRAGMA|LOCK\s+TABLES|UNLOCK\s+TABLES|USE"
                  r"|DELIMITER|UPDATE|DELETE|TRUNCATE|VACUUM|ANALYZE)\b", re.I)
# What a dump says about itself, not the schema: session settings, ownership, sequences' state,
# `/*!40101 SET … */;`, pg_dump's `\restrict`.
# A clause a statement goes on with at the margin (a function's `RETURNS`, `LANGUAGE`; a query's
# `FROM`, `UNION ALL`), or psql's own command (`\\echo`).
_CLAUSE = lazy(r"(?:RETURNS?|AS|LANGUAGE|IMMUTABLE|STABLE|VOLATILE|STRICT|PARALLEL|COST|SECURITY"
               r"|SET|FROM|WHERE|JOIN|LEFT|UNION|GROUP|ORDER|HAVING|WITH|VALUES|ON|AND|OR|END"
               r"|DECLARE|FOR|EXECUTE|IS|SELECT)\b|\\", re.I)
_CEREMONY = lazy(r"(?:SET\s|SELECT\s+pg_catalog\.|/\*!|\\|LOCK\s+TABLES|UNLOCK\s+TABLES"
                 r"|ALTER\s+\S+\s+\S+\s+OWNER\s+TO\b|ALTER\s+TABLE\s+\S+\s+ALTER\s+COLUMN\s+\S+"
                 r"\s+ADD\s+GENERATED\b|ALTER\s+SEQUENCE\s+\S+\s+OWNED\s+BY\b)", re.I)
_DOLLAR_QUOTE = lazy(r"\$[A-Za-z_]*\$")
_MIN_DEFINITIONS = 3
_SHARE = 0.6  # of the margin's non-comment lines, those that open or close a statement
_EDGE_SHARE = 0.05  # for the head and the tail: a dump's opening settings, its last keys
# Levels: definitions, constraints, primary keys, then the columns and other statements.
_DEFINED, _CONSTRAINED, _KEYED, _OTHER = range(4)


def looks_like(sample: list[str], tool: Tool) -> bool:
    """At least _MIN_DEFINITIONS definitions (`CREATE TABLE`, `CREATE INDEX`…) at the margin, and
    most lines there open, go on with or close a statement (a function's `RETURNS int`, a column
    list's `);`): code that builds SQL in strings has lines of its own language there."""
    margin = [row for row in outline.bodies(sample)
              if row[:1] not in " \t" and row.strip() and not row.startswith(("--", "/*"))]
    definitions = sum(1 for row in margin if _DEFINITION.match(row) or _INDEX.match(row))
    statements = sum(1 for row in margin
                     if _STATEMENT.match(row) or _CLAUSE.match(row) or row[:1] in ")$")
    return definitions >= _MIN_DEFINITIONS and statements >= _SHARE * len(margin)


def entries(rows: list[str]) -> list[tuple[int, int]]:
    """(line, level) of every statement and table member the outline may list."""
    found = []
    in_table = in_body = False
    for index, line in enumerate(rows):
        row = line[:JUDGED_CHARS]
        quotes = len(_DOLLAR_QUOTE.findall(row))
        if in_body:
            in_body = quotes % 2 == 0  # the body's closing quote ends it
            continue
        stripped = row.strip()
        if not stripped or stripped.startswith(("--", "/*", "#")) or _CEREMONY.match(row):
            continue
        if row[:1] not in " \t":
            in_table = False
        level = _level(row, in_table)
        if level is not None:
            found.append((index, level))
        if _TABLE.match(row):
            in_table = not stripped.endswith(";")
        in_body = quotes % 2 == 1
    return found


def _level(row: str, in_table: bool) -> int | None:
    if _DEFINITION.match(row):
        return _DEFINED
    if _INDEX.match(row) or _CONSTRAINT.match(row) or in_table and _REFERENCES.search(row):
        return _KEYED if _PRIMARY.search(row) else _CONSTRAINED
    if row[:1] in " \t":
        return _OTHER if in_table and row.strip()[:1] not in ")" else None
    return _OTHER if _STATEMENT.match(row) else None


def plan(text: str, lines: Lines, budget: int, counter: Counter, tool: Tool) -> Plan | None:
    rows = outline.bodies(list(lines))
    return outline.plan("other", "definitions, constraints and columns", text, lines, budget,
                        counter, entries(rows), head_share=_EDGE_SHARE,
                        tail_share=_EDGE_SHARE, deeper_after_a_miss=True)
