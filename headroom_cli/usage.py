"""Per session and per command family: what clipping saved and what it cost, from the ledger's
rows (ledger.read_rows), for `headroom stats`. Pure.

For each group of calls (one session's, one family's):

    calls                    calls recorded (a session records every call; outside one, only
                             clips of a known command)
    clipped                  calls whose output was cut
    identical                calls answered with the one-line "identical" reply (dedups)
    since                    calls that opened with what changed since the previous run
    input_tokens, output_tokens, saved_tokens
                             tokens in, out, and saved once (in − out, summed)
    cumulative_saved_tokens  what those savings are worth over the session: every later turn
                             re-sends the history, so a token removed at call i of a session
                             whose last recorded call is T is paid for once per remaining turn,
                             T − i + 1 times (outside a session: once)
    retrievals               `headroom show` runs of an output these calls stored (each show is
                             booked to the latest call that stored that id before it)
    retrievals_per_clip      retrievals / clipped
    reruns                   calls of a command the same session ran within the previous
                             `window` calls (same text, same directory)

A family whose retrievals exceed `share` of its clips is named in `suggestions`, with the
config lines that give it twice its largest budget.
"""

from __future__ import annotations

from .family import toml_key
from .ledger import CALL_COLUMNS

_AT, _SESSION, _CALL, _FAMILY, _COMMAND = (CALL_COLUMNS.index(name) for name in
                                          ("at", "session", "call", "family", "command"))
_BUDGET, _IN, _OUT, _CLIPPED, _IDENTICAL, _SINCE, _STORE = (
    CALL_COLUMNS.index(name) for name in ("budget", "input_tokens", "output_tokens", "clipped",
                                          "identical", "since", "store_id"))
_BASE = CALL_COLUMNS.index("base_budget")  # a budget the agent's context shrank: the one before


def report(runs: list[tuple], calls: list[tuple], *, window: int, share: float,
           session: str | None = None) -> dict:
    """{by_session, by_family, suggestions} over every call, or over one session's calls
    ({session, totals, by_family, suggestions}) when `session` is given."""
    retrievals = _retrievals(runs, calls)
    reruns = _reruns(calls, window)
    turns = _turns(calls)
    if session is not None:
        indices = [i for i, row in enumerate(calls) if row[_SESSION] == session]
        figures = _figures(calls, indices, retrievals, reruns, turns)
        families = _by(calls, indices, _FAMILY, retrievals, reruns, turns)
        return {"session": session, "window": window, "totals": figures,
                "by_family": families, "suggestions": suggestions(families, share)}
    everything = range(len(calls))
    sessions = _by(calls, everything, _SESSION, retrievals, reruns, turns)
    for key, figures in sessions.items():
        figures["turns"] = turns.get(key, 0)
    families = _by(calls, everything, _FAMILY, retrievals, reruns, turns)
    return {"window": window, "by_session": sessions, "by_family": families,
            "suggestions": suggestions(families, share)}


def suggestions(families: dict, share: float) -> list[dict]:
    """Families whose clips are retrieved more often than `share` of the time."""
    found = []
    for family, figures in families.items():
        clips = figures["clipped"]
        if clips and figures["retrievals"] / clips > share:
            budget = figures.get("budget") or 0
            suggested = max(1000, -(-2 * budget // 1000) * 1000)
            found.append({"family": family, "clips": clips, "retrievals": figures["retrievals"],
                          "share": round(figures["retrievals"] / clips, 4), "budget": budget,
                          "suggested_budget": suggested,
                          "config": f"[commands.{toml_key(family)}]\nbudget = {suggested}"})
    return found


def _by(calls, indices, column: int, retrievals, reruns, turns) -> dict:
    """Figures per value of `column`: families by name, sessions by their last call's time
    (the most recent last)."""
    groups: dict[str, list[int]] = {}
    for index in indices:
        key = calls[index][column]
        if key is not None:
            groups.setdefault(key, []).append(index)
    order = sorted(groups.items(), key=(lambda item: (calls[item[1][-1]][_AT], item[0]))
                   if column == _SESSION else (lambda item: item[0]))
    result = {key: _figures(calls, members, retrievals, reruns, turns) for key, members in order}
    if column == _FAMILY:
        for key, members in groups.items():
            result[key]["budget"] = max((calls[i][_BASE] or calls[i][_BUDGET] or 0)
                                        for i in members)
    return result


def _figures(calls, indices, retrievals, reruns, turns) -> dict:
    rows = [calls[i] for i in indices]
    tokens_in = sum(row[_IN] or 0 for row in rows)
    tokens_out = sum(row[_OUT] or 0 for row in rows)
    clipped = sum(1 for row in rows if row[_CLIPPED])
    shown = sum(retrievals.get(i, 0) for i in indices)
    return {
        "calls": len(rows),
        "clipped": clipped,
        "identical": sum(1 for row in rows if row[_IDENTICAL]),
        "since": sum(1 for row in rows if row[_SINCE]),
        "input_tokens": tokens_in,
        "output_tokens": tokens_out,
        "saved_tokens": tokens_in - tokens_out,
        "cumulative_saved_tokens": sum(_cumulative(row, turns) for row in rows),
        "retrievals": shown,
        "retrievals_per_clip": round(shown / clipped, 4) if clipped else 0.0,
        "reruns": sum(1 for i in indices if i in reruns),
    }


def _cumulative(row, turns: dict) -> int:
    saved = (row[_IN] or 0) - (row[_OUT] or 0)
    if row[_SESSION] is None or row[_CALL] is None:
        return saved
    return saved * max(1, turns[row[_SESSION]] - row[_CALL] + 1)


def _turns(calls) -> dict[str, int]:
    """Each session's last recorded call number."""
    last: dict[str, int] = {}
    for row in calls:
        if row[_SESSION] is not None and row[_CALL] is not None:
            last[row[_SESSION]] = max(last.get(row[_SESSION], 0), row[_CALL])
    return last


def _retrievals(runs, calls) -> dict[int, int]:
    """Call index -> the shows booked to it: each show to the latest call (by time) that
    stored the id it prints before it ran. `runs` and `calls` are sorted by time."""
    stored: dict[str, int] = {}
    booked: dict[int, int] = {}
    position = 0
    for run in runs:
        at, event, store_id = run[0], run[1], run[7]
        while position < len(calls) and calls[position][_AT] <= at:
            if calls[position][_STORE]:
                stored[calls[position][_STORE]] = position
            position += 1
        if event == "show" and store_id in stored:
            booked[stored[store_id]] = booked.get(stored[store_id], 0) + 1
    return booked


def _reruns(calls, window: int) -> set[int]:
    """Calls of a command its session ran within the previous `window` calls."""
    found, last = set(), {}
    order = sorted((i for i, row in enumerate(calls)
                    if row[_SESSION] is not None and row[_CALL] is not None and row[_COMMAND]),
                   key=lambda i: (calls[i][_SESSION], calls[i][_CALL]))
    for index in order:
        row = calls[index]
        key = (row[_SESSION], row[_COMMAND])
        if key in last and row[_CALL] - last[key] <= window:
            found.add(index)
        last[key] = row[_CALL]
    return found
