"""The savings ledger: one local SQLite row per clip and per `show`, for `headroom stats`.

WAL mode and a busy timeout make it safe under many concurrent headroom processes. Recording
must never slow or break the main job: every failure is swallowed (the caller may warn).
Output that fits its budget takes the pass-through and is not recorded: it saved nothing, and
opening a database would cost every call the start-up time the pass-through exists to save.
"""

from __future__ import annotations

import os
import sqlite3
import time
from dataclasses import dataclass

_SCHEMA = """
CREATE TABLE IF NOT EXISTS runs (
    at REAL NOT NULL,              -- unix time
    event TEXT NOT NULL,           -- 'clip' or 'show'
    tool TEXT,
    kind TEXT,
    input_tokens INTEGER,
    output_tokens INTEGER,
    clipped INTEGER,
    store_id TEXT
)
"""


@dataclass(frozen=True)
class Run:
    event: str
    tool: str | None = None
    kind: str | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    clipped: bool = False
    store_id: str | None = None


def _connect(path: str) -> sqlite3.Connection:
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    db = sqlite3.connect(path, timeout=10.0, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: durable enough for statistics
    db.execute(_SCHEMA)
    return db


def record(path: str, run: Run, now: float | None = None) -> bool:
    """Append one row; False (never an exception) when the ledger cannot be written."""
    try:
        db = _connect(path)
        try:
            db.execute("INSERT INTO runs VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                       (time.time() if now is None else now, run.event, run.tool, run.kind,
                        run.input_tokens, run.output_tokens, int(run.clipped), run.store_id))
        finally:
            db.close()
        os.chmod(path, 0o600)
        return True
    except (sqlite3.Error, OSError):
        return False


def summary(path: str, period: str = "day") -> dict:
    """Totals, per tool, per kind and per period ('day' or 'week', local time)."""
    if not os.path.exists(path):
        return {"totals": _totals([]), "by_tool": {}, "by_kind": {}, "by_period": {}}
    db = _connect(path)
    try:
        rows = db.execute("SELECT at, event, tool, kind, input_tokens, output_tokens, clipped, "
                          "store_id FROM runs ORDER BY at").fetchall()
    finally:
        db.close()
    fmt = "%Y-%m-%d" if period == "day" else "%G-W%V"
    groups: dict[str, dict[str, list]] = {"by_tool": {}, "by_kind": {}, "by_period": {}}
    clipped_as: dict[str, tuple] = {}  # store id -> the tool and kind of the clip that stored it
    for row in rows:
        tool, kind = row[2], row[3]
        if row[1] == "clip" and row[7]:
            clipped_as[row[7]] = (tool, kind)
        elif row[1] == "show":
            # Booked to the clip it retrieves; unknown (ledger off then, or an old row): to
            # the totals and the period only, never to a tool or kind of its own.
            tool, kind = clipped_as.get(row[7], (None, None))
        if tool is not None or row[1] == "clip":
            groups["by_tool"].setdefault(tool or "generic", []).append(row)
        if kind is not None or row[1] == "clip":
            groups["by_kind"].setdefault(kind or "?", []).append(row)
        groups["by_period"].setdefault(time.strftime(fmt, time.localtime(row[0])), []).append(row)
    return {"totals": _totals(rows),
            **{name: {key: _totals(members) for key, members in sorted(group.items())}
               for name, group in groups.items()}}


def _totals(rows: list) -> dict:
    clips = [r for r in rows if r[1] == "clip"]
    tokens_in = sum(r[4] or 0 for r in clips)
    tokens_out = sum(r[5] or 0 for r in clips)
    return {
        "runs": len(clips),
        "clipped": sum(1 for r in clips if r[6]),
        "input_tokens": tokens_in,
        "output_tokens": tokens_out,
        "saved_tokens": tokens_in - tokens_out,
        "shows": sum(1 for r in rows if r[1] == "show"),
    }
