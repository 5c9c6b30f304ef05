"""opencode's and Kilo CLI's sessions, for `headroom audit`: where they are and what they hold.

Checked against opencode 1.18.33 and its fork Kilo CLI 7.7.7 (their binaries, and the e2e runs'
databases). Both keep every session in one SQLite database (WAL): opencode in
$XDG_DATA_HOME/opencode/opencode.db (default ~/.local/share; opencode-CHANNEL.db for a
channel build; $OPENCODE_DB names another, relative to that folder), Kilo in
.../kilo/kilo.db ($KILO_DB). The tables audit reads:

  session(id, directory, parent_id, time_updated, …)     directory: where it ran
  message(id, session_id, time_created, data)            data: {"role": "user" | "assistant", …}
  part(id, message_id, session_id, data)                 data: {"type": "tool", "tool",
        "callID", "state": {"status": "completed", "input": {"command"}, "output",
        "time": {"compacted"?}}} (and "text", "step-start", … parts)

opencode sends a session to the model as its messages in (time_created, id) order, each one's
parts in id order; each assistant message is one model request (one step of its loop), whose
tool parts hold the outputs read after it. A subagent (the task tool) is a session of its own,
its parent_id naming its parent's.

opencode's own cut, as the model sees it: bash keeps the last lines of a long output under
"...output truncated...\\n\\nFull output saved to: FILE"; other tools keep a head or tail around
"...N lines truncated..." (or bytes) with "The tool call succeeded but the output was
truncated"; read pages a file ("(Output capped at 50 KB. Showing lines A-B. Use offset=…",
"(Showing lines A-B of N. Use offset=…"). Its prune: once a session's older outputs pass 40,000
tokens (its estimate), it marks them `state.time.compacted` (a time in ms) and sends
"[Old tool result content cleared]" in their place from then on: such an output was re-sent
only by the requests made before that time.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from functools import partial
from pathlib import Path

from ..transcript import REQUEST, Event, Output, Skipped, Transcript

# agent: (its data folder under $XDG_DATA_HOME, its database's name, the variable naming another)
AGENTS = {"opencode": ("opencode", "opencode", "OPENCODE_DB"), "kilo": ("kilo", "kilo", "KILO_DB")}
AGENT = "opencode"
SHELL_TOOL = "bash"
_CUT = re.compile(r"^\.\.\.(?:output|\d+ (?:lines|bytes)) truncated\.\.\.$"
                  r"|^\.\.\. output truncated; full content saved to "
                  r"|^\(Output capped at .*\. Use offset=\d+ to continue\.\)$"
                  r"|^\(Showing lines \d+-\d+ of \d+\. Use offset=\d+ to continue\.\)$", re.M)


def databases(environ, agent: str = AGENT) -> list[Path]:
    """The agent's session databases: the one its variable names, else every channel's."""
    folder, name, variable = AGENTS[agent]
    base = environ.get("XDG_DATA_HOME") or os.path.join(Path.home(), ".local", "share")
    data = Path(base) / folder
    named = environ.get(variable)
    if named and named != ":memory:":
        return [data / named]  # an absolute path stays itself
    return sorted(data.glob(f"{name}*.db"))


def find(environ, project: str | None, agent: str = AGENT) -> Iterator[Transcript]:
    """Every session of `project` (None: of every directory), database by database."""
    for database in databases(environ, agent):
        if not database.is_file():
            continue
        where = " WHERE directory = ?" if project else ""
        with _reading(database) as connection:
            rows = connection.execute("SELECT id, directory, time_updated FROM session" +
                                      where + " ORDER BY id", (project,) if project else ()
                                      ).fetchall()
        for session, directory, updated in rows:
            yield Transcript(agent, session, str(database), directory,
                             (updated or 0) / 1000, events, partial(records, session))


def find_kilo(environ, project: str | None) -> Iterator[Transcript]:
    return find(environ, project, "kilo")


def records(session: str, database: str, skipped: Skipped) -> Iterator[dict]:
    """A session's records, in the order opencode sends them: first {"requests": [the time of
    each model request]}, then each message {"message": data} followed by its parts
    {"part": data}. Rows that are not a JSON object are skipped (and counted)."""
    with _reading(Path(database)) as connection:
        messages = [(message_id, created, _object(data, skipped))
                    for message_id, created, data in connection.execute(
                        "SELECT id, time_created, data FROM message WHERE session_id = ? "
                        "ORDER BY time_created, id", (session,))]
        yield {"requests": [created for _, created, data in messages
                            if data.get("role") == "assistant"]}
        for message_id, created, data in messages:
            yield {"message": {**data, "id": message_id, "time_created": created}}
            for (part,) in connection.execute("SELECT data FROM part WHERE message_id = ? "
                                              "ORDER BY id", (message_id,)):
                yield {"part": _object(part, skipped)}


def events(items: Iterable[dict]) -> Iterator[Event]:
    """The tool outputs and model requests of a session's records, in order."""
    request_times: list[int] = []
    made = 0  # the requests made so far
    for item in items:
        if "requests" in item:
            request_times = [time for time in item["requests"] if isinstance(time, int)]
        elif item.get("message", {}).get("role") == "assistant":
            made += 1
            yield REQUEST
        elif isinstance(item.get("part"), dict) and item["part"].get("type") == "tool":
            output = _output(item["part"], request_times[made:])
            if output is not None:
                yield output


def _output(part: dict, later: list[int]) -> Output | None:
    """A tool part as the model was sent it (None: no output yet). `later`: the times of the
    requests made after the one that called it."""
    state = part.get("state")
    if not isinstance(state, dict):
        return None
    if state.get("status") == "completed":
        text = state.get("output")
    elif state.get("status") == "error":
        text = state.get("error")
    else:
        return None
    text = text if isinstance(text, str) else ""
    tool = str(part.get("tool") or "")
    command = _field(state, "input", "command") if tool == SHELL_TOOL else None
    compacted = _field(state, "time", "compacted")
    resends = None
    if isinstance(compacted, (int, float)):  # sent by the requests made before it was pruned
        resends = max(sum(1 for time in later if time < compacted) - 1, 0)
    return Output(tool, command if isinstance(command, str) else None, text,
                  bool(_CUT.search(text)), resends)


def _field(state: dict, key: str, name: str):
    inner = state.get(key)
    return inner.get(name) if isinstance(inner, dict) else None


@contextmanager
def _reading(database: Path):
    """The database opened read-only; one that cannot be read is an OSError naming it (the
    command's one-line error)."""
    import sqlite3  # only audit and doctor read sessions: not on the filter's path

    try:
        connection = sqlite3.connect(f"{database.resolve().as_uri()}?mode=ro", uri=True)
        try:
            yield connection
        finally:
            connection.close()
    except sqlite3.Error as err:
        raise OSError(0, str(err), str(database)) from err


def _object(data, skipped: Skipped) -> dict:
    try:
        value = json.loads(data)
    except (TypeError, ValueError):
        value = None
    if isinstance(value, dict):
        return value
    skipped.lines += 1
    return {}
