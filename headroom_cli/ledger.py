"""The savings ledger: one local SQLite row per clip and per `show`, for `headroom stats`.

Two tables. `runs` (one row per clip, dedup and `show`) is as it always was, so a ledger an
older headroom wrote keeps working and an older headroom can still write to this one. `calls`
(added by a CREATE TABLE IF NOT EXISTS on first use: that is the whole migration) holds what
sessions and command families need: one row per call of a session, fitted or not, and one
per clip of a known command; a row of both is written in one transaction.

WAL mode makes it safe under many concurrent headroom processes. Recording must never slow or
break the main job, so a write waits at most BUSY_TIMEOUT for another process's lock; past it
the row goes to a queue file beside the ledger (one appended line, never waited on) and the
next write that gets the lock moves the queue into the ledger. `summary` counts queued rows
too. Every failure is reported as a value, never raised (the caller warns).
Output that fits its budget takes the pass-through and is not recorded: it saved nothing, and
opening a database would cost every call the start-up time the pass-through exists to save.
"""

from __future__ import annotations

import enum
import json
import os
import sqlite3
import time

from .values import value

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
_CALLS_SCHEMA = """
CREATE TABLE IF NOT EXISTS calls (
    at REAL NOT NULL,              -- unix time
    session TEXT,                  -- the session's key (NULL: none)
    call INTEGER,                  -- its number in the session, from 1 (NULL: no session)
    family TEXT,                   -- command family (family.py; NULL: no command known)
    command TEXT,                  -- hash of the command text and directory (re-runs)
    tool TEXT,
    kind TEXT,
    budget INTEGER,
    input_tokens INTEGER,
    output_tokens INTEGER,
    clipped INTEGER,               -- the output was cut
    identical INTEGER,             -- replaced by the one-line "identical" reply
    since INTEGER,                 -- opened with what changed since the previous run
    store_id TEXT,                 -- the stored copy its marker or reply names
    base_budget INTEGER,           -- the budget before the agent's context shrank it
    context_fill INTEGER           -- how full the agent's context was, % (NULL: unknown)
)
"""
# Columns `calls` gained after it was first written: a ledger without them gets them on first
# use (ALTER TABLE … ADD COLUMN; an older headroom still writes its rows, naming its columns).
_ADDED_CALL_COLUMNS = (("base_budget", "INTEGER"), ("context_fill", "INTEGER"))


@value
class Run:
    event: str
    tool: str | None = None
    kind: str | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    clipped: bool = False
    store_id: str | None = None


@value
class Call:
    """A call's row in `calls`: a session's call, or a clip of a known command."""
    session: str | None = None
    call: int | None = None
    family: str | None = None
    command: str | None = None
    tool: str | None = None
    kind: str | None = None
    budget: int | None = None
    input_tokens: int | None = None
    output_tokens: int | None = None
    clipped: bool = False
    identical: bool = False
    since: bool = False
    store_id: str | None = None
    base_budget: int | None = None  # `budget` before the agent's context shrank it (context.py)
    context_fill: int | None = None  # how full the agent's context was, in % (None: unknown)

    def values(self, at: float) -> tuple:
        return (at, self.session, self.call, self.family, self.command, self.tool, self.kind,
                self.budget, self.input_tokens, self.output_tokens, int(self.clipped),
                int(self.identical), int(self.since), self.store_id, self.base_budget,
                self.context_fill)


CALL_COLUMNS = ("at", "session", "call", "family", "command", "tool", "kind", "budget",
                "input_tokens", "output_tokens", "clipped", "identical", "since", "store_id",
                "base_budget", "context_fill")
# A call queued by a headroom from before the columns were added has only the first ones.
_OLD_CALL_LENGTH = len(CALL_COLUMNS) - len(_ADDED_CALL_COLUMNS)
# How long a write waits for another process's lock before the row is queued instead. Readers
# never block a write (WAL); a writer holds the lock for a few milliseconds, so only a process
# that keeps a transaction open (or a stuck one) makes a run wait this long.
BUSY_TIMEOUT = 0.2
# A ledger locked for good (a stuck process) must not grow its queue without limit.
QUEUE_LIMIT = 4 << 20
_INSERT = ("INSERT INTO runs (at, event, tool, kind, input_tokens, output_tokens, clipped, "
           "store_id) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")
_INSERT_CALL = (f"INSERT INTO calls ({', '.join(CALL_COLUMNS)}) "
                f"VALUES ({', '.join('?' * len(CALL_COLUMNS))})")


class Recorded(enum.Enum):
    RECORDED = "recorded"
    QUEUED = "queued"  # the ledger was busy: the row waits in the queue file (nothing lost)
    BUSY = "busy"  # the ledger was busy and its queue is full: the row is lost
    FAILED = "failed"  # the ledger (or its queue) cannot be written: the row is lost


def connect(path: str, timeout: float = 10.0) -> sqlite3.Connection:
    """The ledger at `path`, created (0700 folder) with its table if need be."""
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    db = sqlite3.connect(path, timeout=timeout, isolation_level=None)
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: durable enough for statistics
    db.execute(_SCHEMA)
    db.execute(_CALLS_SCHEMA)
    have = {row[1] for row in db.execute("PRAGMA table_info(calls)")}
    for name, kind in _ADDED_CALL_COLUMNS:
        if name not in have:
            try:
                db.execute(f"ALTER TABLE calls ADD COLUMN {name} {kind}")
            except sqlite3.OperationalError as err:
                if "duplicate column" not in str(err):  # another process added it just now
                    raise
    return db


def record(path: str, run: Run | None, now: float | None = None,
           call: Call | None = None) -> Recorded:
    """Append a row to `runs` and (when `call` is given) one to `calls`, in one transaction,
    waiting at most BUSY_TIMEOUT; never raises."""
    at = time.time() if now is None else now
    row = _Queued(None if run is None else (at, run.event, run.tool, run.kind,
                                            run.input_tokens, run.output_tokens,
                                            int(run.clipped), run.store_id),
                  None if call is None else call.values(at))
    try:
        db = connect(path, BUSY_TIMEOUT)
        try:
            db.execute("BEGIN IMMEDIATE")
            queued = _take_queue(path)
            try:
                rows = [row, *queued]
                db.executemany(_INSERT, [r.run for r in rows if r.run is not None])
                db.executemany(_INSERT_CALL, [r.call for r in rows if r.call is not None])
                db.execute("COMMIT")
            except BaseException:
                _append_queue(path, queued)  # back where they were, for the next writer
                raise
        finally:
            db.close()
        os.chmod(path, 0o600)
        return Recorded.RECORDED
    except sqlite3.OperationalError as err:
        if "locked" in str(err) or "busy" in str(err):
            try:
                queued = _append_queue(path, [row], QUEUE_LIMIT)
                return Recorded.QUEUED if queued else Recorded.BUSY
            except OSError:
                pass
        return Recorded.FAILED
    except (sqlite3.Error, OSError, ValueError):
        return Recorded.FAILED


def queue_path(path: str) -> str:
    return path + ".queue"


class _Queued(tuple):
    """A row waiting in the queue: its `runs` values and its `calls` values (either None).
    Queued as a JSON list of the 8 `runs` values when it has no call (as older headroom wrote
    and reads them), else as {"run": […], "call": […]}."""
    __slots__ = ()

    def __new__(cls, run: tuple | None, call: tuple | None):
        return super().__new__(cls, (run, call))

    run = property(lambda self: self[0])
    call = property(lambda self: self[1])

    def to_json(self) -> str:
        if self.call is None:
            return json.dumps(list(self.run))
        return json.dumps({"run": None if self.run is None else list(self.run),
                           "call": list(self.call)})


def _append_queue(path: str, rows: list, limit: int | None = None) -> bool:
    """Rows as JSON lines, in one append (atomic beside other appenders), mode 0600; False
    when the queue already holds `limit` bytes (QUEUE_LIMIT; None: no limit)."""
    if not rows:
        return True
    data = "".join(row.to_json() + "\n" for row in rows).encode()
    fd = os.open(queue_path(path), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        _locked(fd)
        if limit is not None and os.fstat(fd).st_size >= limit:
            return False
        os.write(fd, data)
        return True
    finally:
        os.close(fd)


def _take_queue(path: str) -> list:
    """The queued rows, removed from the queue (an empty list when there is none)."""
    try:
        fd = os.open(queue_path(path), os.O_RDWR)
    except FileNotFoundError:
        return []
    try:
        _locked(fd)  # held for a read and a truncate: microseconds
        rows = _parse_queue(_read_all(fd))
        os.ftruncate(fd, 0)
        return rows
    finally:
        os.close(fd)


def _locked(fd: int) -> None:
    import fcntl

    fcntl.flock(fd, fcntl.LOCK_EX)  # released when fd is closed


def _read_all(fd: int) -> bytes:
    parts = []
    while part := os.read(fd, 1 << 16):
        parts.append(part)
    return b"".join(parts)


def _parse_queue(data: bytes) -> list:
    rows = []
    for line in data.splitlines():
        try:
            row = json.loads(line)
        except ValueError:
            continue  # a line cut short by a crash: that row is lost, not the others
        if isinstance(row, list) and len(row) == 8:
            rows.append(_Queued(tuple(row), None))
        elif isinstance(row, dict) and isinstance(row.get("call"), list) and \
                len(row["call"]) in (_OLD_CALL_LENGTH, len(CALL_COLUMNS)) and (
                    row.get("run") is None or
                    isinstance(row["run"], list) and len(row["run"]) == 8):
            call = tuple(row["call"])
            rows.append(_Queued(None if row["run"] is None else tuple(row["run"]),
                                call + (None,) * (len(CALL_COLUMNS) - len(call))))
    return rows


def _queued(path: str) -> list:
    try:
        with open(queue_path(path), "rb") as stream:
            return _parse_queue(stream.read())
    except OSError:
        return []


def read_rows(path: str) -> tuple[list[tuple], list[tuple]]:
    """Every `runs` row and every `calls` row (queued ones included), each sorted by time."""
    queued = _queued(path)
    runs = [row.run for row in queued if row.run is not None]
    calls = [row.call for row in queued if row.call is not None]
    if os.path.exists(path):
        db = connect(path)
        try:
            runs += db.execute("SELECT at, event, tool, kind, input_tokens, output_tokens, "
                               "clipped, store_id FROM runs").fetchall()
            calls += db.execute(f"SELECT {', '.join(CALL_COLUMNS)} FROM calls").fetchall()
        finally:
            db.close()
    runs.sort(key=lambda row: row[0])
    calls.sort(key=lambda row: (row[0], row[2] or 0))
    return runs, calls


def summary(path: str, period: str = "day") -> dict:
    """Totals, per tool, per kind and per period ('day' or 'week', local time)."""
    rows = read_rows(path)[0]
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
