"""Session memory: what one agent session has already been shown, so that a re-run says what
changed since the previous run of its command, and an output the agent already has is not
sent again.

A session is named by a key: the agent's own session id (the hooks pass it), `--session KEY`
or $HEADROOM_SESSION. Without one nothing here runs, and output is a pure function of input and
options. With one, each run is a call of the session (numbered 1, 2, …), and the session's
state remembers, within fixed bounds (MAX_COMMANDS, MAX_OUTPUTS, MAX_NAMES):

- the latest run of each command (its text and working directory, as a hash: family.py): its
  call, its label (the first line), and — when its output was a log — the failures it
  reported and its summary line (planners/log/failures.py);
- each output of at least `dedup_over` tokens it delivered: by the output's identity (its
  bytes; for a log, its bytes with the durations on its signal lines masked, since a test
  runner prints a new run time every run), the call and label that delivered it, and its id
  in the store, where it is kept so that `headroom show ID` prints it again.

Planning is pure: `observe` (what this output is), `decide` (this call against the state),
`since_line` and `identical_line` (what the agent is told). The state's I/O is `Sessions`: one
JSON file per session in the store's sessions/ folder (0700, files 0600), replaced atomically
under an exclusive lock on a sibling lock file, so concurrent runs of one session take turns
for their few milliseconds of bookkeeping and no update is lost. The store prunes the folder
with its age cap (store.py). State that cannot be read or written is never an error: `Sessions`
raises SessionError, and the run goes on as if it had no session, with one line on stderr.
"""

from __future__ import annotations

import hashlib
import json
import os
from typing import Callable

from .clean import binary
from .store import SESSIONS_DIR
from .values import field, value

VERSION = 1
MAX_COMMANDS = 256  # commands remembered per session (the least recent go first)
MAX_OUTPUTS = 512  # delivered outputs remembered per session
MAX_NAMES = 200  # failures remembered per command
MAX_KEY_CHARS = 200  # a session key longer than this is cut (its file is named by a hash)
LOCK_WAIT = 10.0  # seconds a run waits for its session's lock before going on without it: the
# lock is held for milliseconds, but 32 parallel calls on a loaded machine took over 3 s to pass it
_NAMES_SHOWN, _NAME_CHARS = 3, 60  # failures named in the since line


class SessionError(Exception):
    """The session's state cannot be read or written: one line, for the caller to say once."""


@value
class Record:
    """The latest run of one command in the session."""
    call: int
    label: str | None
    failures: tuple[str, ...] | None  # None: that output was not a log
    summary: str | None = None


@value
class Delivered:
    """An output the session was given whole or clipped (kept in the store as `store_id`)."""
    call: int
    label: str | None
    store_id: str


@value
class State:
    calls: int = 0
    commands: dict[str, Record] = field(default_factory=dict)
    outputs: dict[str, Delivered] = field(default_factory=dict)


@value
class Observed:
    """What a run's output is, as a session sees it (known before the state is read)."""
    content_id: str  # the store's id of the output
    command: str | None = None  # family.command_key (None: no command is known)
    label: str | None = None
    identity: str | None = None  # None: too small (or dedup off): never deduplicated
    reading: object | None = None  # failures.Reading of a log (None: not a log)


@value
class Decision:
    call: int
    previous: Record | None = None  # the previous run of this command, when both are logs
    identical: Delivered | None = None  # the earlier delivery of this very output


# --- planning (pure) ------------------------------------------------------------------------

def observe(data: bytes, text: str, *, tool, kind: str, command: str | None, cwd: str | None,
            dedup_over: int | None, since: bool, counter) -> Observed:
    """What this output is: its ids, its command, and its failures when it is a log.
    `text` is `data` decoded (surrogateescape)."""
    from . import family
    from .store import content_id

    content = content_id(data)
    large = dedup_over is not None and len(data) >= dedup_over and \
        counter.prefix_chars(text, max(0, dedup_over - 1)) < len(text)
    reading = None
    if (large or (since and command)) and not binary(text):
        reading = _log_reading(text, tool, kind)
    identity = None
    if large:
        identity = content if reading is None else "log-" + _masked_id(text, reading)
    key = family.command_key(command, cwd) if command else None
    return Observed(content, key, family.label_of(command), identity, reading)


def decide(state: State, seen: Observed, since: bool, has: Callable[[str], bool]
           ) -> tuple[State, Decision]:
    """This call against the session's state: its number, the previous run of its command
    (when `since` and both outputs are logs), and the earlier delivery of the same output
    (when it is still in the store: `has(id)`); and the state after it."""
    call = state.calls + 1
    earlier = state.outputs.get(seen.identity) if seen.identity else None
    identical = earlier if earlier is not None and has(earlier.store_id) else None
    failures = seen.reading.failures if seen.reading is not None else None
    previous = None
    if since and seen.command and failures is not None:
        record = state.commands.get(seen.command)
        previous = record if record is not None and record.failures is not None else None
    commands, outputs = dict(state.commands), dict(state.outputs)
    if seen.command:
        commands.pop(seen.command, None)  # re-inserted last: the most recent
        commands[seen.command] = Record(
            call, seen.label, None if failures is None else failures.names[:MAX_NAMES],
            None if failures is None else failures.summary)
    if seen.identity and identical is None:
        outputs.pop(seen.identity, None)
        outputs[seen.identity] = Delivered(call, seen.label, seen.content_id)
    return (State(call, _bounded(commands, MAX_COMMANDS), _bounded(outputs, MAX_OUTPUTS)),
            Decision(call, previous, identical))


def since_line(previous: Record, reading) -> str | None:
    """What changed since the previous run of the command (None: nothing failed either time
    and the summary is the same)."""
    from .planners.log.failures import Failures, compare

    changes = compare(Failures(previous.failures or (), previous.summary, False),
                      reading.failures)
    if changes.nothing_failed and changes.summary == changes.was:
        return None
    if changes.nothing_failed:
        body = "no failures then or now"
    else:
        body = (f"{changes.fixed_count:,} failure{'s' * (changes.fixed_count != 1)} fixed"
                f"{_names(changes.fixed)}, {changes.new_count:,} new{_names(changes.new)}, "
                f"{changes.unchanged:,} unchanged")
    if changes.summary == changes.was:
        body += f'; summary unchanged ("{changes.summary}")' if changes.summary else ""
    elif changes.summary and changes.was:
        body += f'; summary now "{changes.summary}", was "{changes.was}"'
    elif changes.summary:
        body += f'; summary now "{changes.summary}"'
    return f"[headroom: since the previous run of this command (call {previous.call}): {body}]"


def new_failures(previous: Record, reading) -> tuple[str, ...]:
    """The failures of this run that the previous one did not report (the clip keeps them
    first)."""
    from .planners.log.failures import Failures, compare

    return compare(Failures(previous.failures or (), previous.summary, False),
                   reading.failures).new


def identical_line(earlier: Delivered, exact: bool, exit_status: int | None,
                   program: str = "headroom") -> str:
    """The one line that replaces an output the session was already given."""
    label = f" (`{earlier.label}`)" if earlier.label else ""
    same = "nothing changed" if exact else "nothing changed but the run times"
    status = "" if exit_status is None else f" The command exited with status {exit_status}."
    return (f"[headroom: identical to the output of call {earlier.call} of this session{label}:"
            f" {same}.{status} To see it again: {program} show {earlier.store_id}]")


def _names(names: tuple[str, ...]) -> str:
    if not names:
        return ""
    shown = [name if len(name) <= _NAME_CHARS else name[:_NAME_CHARS - 1] + "…"
             for name in names[:_NAMES_SHOWN]]
    more = len(names) - len(shown)
    return f" ({', '.join(shown)}{f', +{more:,} more' if more > 0 else ''})"


def _bounded(items: dict, limit: int) -> dict:
    """The `limit` most recent items (insertion order is recency)."""
    if len(items) <= limit:
        return items
    return dict(list(items.items())[len(items) - limit:])


def _log_reading(text: str, tool, kind: str):
    """The failures.Reading of a log (None when the output is another shape)."""
    from .clean import clean
    from .plan import Lines
    from .sniff import sniff

    cleaned = clean(text)
    shape = kind if kind != "auto" else sniff(Lines(cleaned), tool)
    if shape != "log":
        return None
    from .planners.log.failures import read

    return read(cleaned)


def _masked_id(text: str, reading) -> str:
    """The id of a log with the durations on its signal lines masked."""
    from .planners.log.failures import DURATION

    lines = text.split("\n")
    for index in reading.signals:
        if index < len(lines):
            lines[index] = DURATION.sub("", lines[index])
    digest = hashlib.sha256("\n".join(lines).encode("utf-8", "surrogateescape"))
    return digest.hexdigest()[:16]


# --- the state on disk ----------------------------------------------------------------------

def file_name(key: str) -> str:
    """A session's file name: a hash of its key (any text may name a session)."""
    return hashlib.sha256(key.encode("utf-8", "surrogateescape")).hexdigest()[:32]


def normal_key(key: str | None) -> str | None:
    """A session key as given, stripped and bounded; None for none (or an empty one)."""
    if key is None:
        return None
    key = key.strip()
    return key[:MAX_KEY_CHARS] or None


class Sessions:
    """The sessions folder of a store: each session's state, read and replaced under a lock."""

    def __init__(self, store_root: str) -> None:
        self.root = os.path.join(store_root, SESSIONS_DIR)

    def update(self, key: str, change: Callable[[State], tuple[State, object]]):
        """change(state) under the session's lock; the new state is written before the lock is
        released. Returns what `change` returned besides the state, and a warning (None when
        the state was read fine). Raises SessionError when the state cannot be locked, read
        or written."""
        import fcntl

        name = file_name(key)
        try:
            self._ensure_root()
            fd = os.open(os.path.join(self.root, name + ".lock"), os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as err:
            raise SessionError(self._cannot(err)) from None
        try:
            self._lock(fd, fcntl)
            state, warning = self._read(name)
            new, answer = change(state)
            self._write(name, key, new)
            return answer, warning
        except OSError as err:
            raise SessionError(self._cannot(err)) from None
        finally:
            os.close(fd)  # releases the lock

    def read(self, key: str) -> State:
        """A session's state as it is (an empty one when it has none); raises SessionError."""
        try:
            return self._read(file_name(key))[0]
        except OSError as err:
            raise SessionError(self._cannot(err)) from None

    def _lock(self, fd: int, fcntl) -> None:
        import time

        deadline = time.monotonic() + LOCK_WAIT
        while True:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                return
            except BlockingIOError:
                if time.monotonic() >= deadline:
                    raise SessionError(f"the session state in {self.root} stayed locked by "
                                       f"another headroom for {LOCK_WAIT:g} s") from None
                time.sleep(0.005)

    def _read(self, name: str) -> tuple[State, str | None]:
        path = os.path.join(self.root, name + ".json")
        try:
            with open(path, "rb") as file:
                raw = file.read(8 << 20)
        except FileNotFoundError:
            return State(), None
        try:
            return from_json(json.loads(raw)), None
        except (ValueError, TypeError, KeyError, AttributeError):
            return State(), f"the session state {path} was damaged; it starts afresh"

    def _write(self, name: str, key: str, state: State) -> None:
        import tempfile

        data = json.dumps(to_json(state, key), ensure_ascii=False,
                          separators=(",", ":")).encode("utf-8", "surrogateescape")
        fd, temporary = tempfile.mkstemp(prefix=".incoming-", suffix=".tmp", dir=self.root)
        try:
            with os.fdopen(fd, "wb") as file:
                file.write(data)
            os.replace(temporary, os.path.join(self.root, name + ".json"))
        except BaseException:
            try:
                os.unlink(temporary)
            except OSError:
                pass
            raise

    def _ensure_root(self) -> None:
        if os.path.isdir(self.root):
            return
        os.makedirs(os.path.dirname(self.root), mode=0o700, exist_ok=True)
        try:
            os.mkdir(self.root, 0o700)
        except FileExistsError:
            if not os.path.isdir(self.root):
                raise
            return
        os.chmod(self.root, 0o700)  # whatever the umask

    def _cannot(self, err: OSError) -> str:
        return (f"cannot keep session state in {self.root} "
                f"({getattr(err, 'strerror', None) or err})")


def to_json(state: State, key: str) -> dict:
    return {"version": VERSION, "session": key, "calls": state.calls,
            "commands": {k: [r.call, r.label, None if r.failures is None else list(r.failures),
                             r.summary] for k, r in state.commands.items()},
            "outputs": {k: [d.call, d.label, d.store_id] for k, d in state.outputs.items()}}


def from_json(data: dict) -> State:
    if data.get("version") != VERSION:
        raise ValueError("unknown version")
    commands = {str(k): Record(int(call), _text(label),
                               None if names is None else tuple(str(n) for n in names),
                               _text(summary))
                for k, (call, label, names, summary) in data["commands"].items()}
    outputs = {str(k): Delivered(int(call), _text(label), str(store_id))
               for k, (call, label, store_id) in data["outputs"].items()}
    return State(int(data["calls"]), commands, outputs)


def _text(value) -> str | None:
    return None if value is None else str(value)


__all__ = ["Decision", "Delivered", "Observed", "Record", "SessionError", "Sessions", "State",
           "decide", "identical_line", "new_failures", "normal_key", "observe", "since_line"]
