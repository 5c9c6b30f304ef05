"""The store: complete copies of clipped outputs, so every marker's way back is exact.

Content-addressed: an output's id is a prefix of the sha256 of its bytes, so the same output
always gets the same id and the printed marker stays deterministic. One flat directory, one file
per output, named by its id. The caller says where the directory is; nothing leaves the machine.

Tool output can hold secrets: the directory is created 0700 and every file 0600.
Writes are atomic (a private temporary file renamed into place), so any number of concurrent
headroom processes can store, and a reader sees a whole file or none.

No output takes more than half the size cap, even while it is being written (`yes | headroom`):
past that, its copy keeps the head and the most recent tail (a rolling tail of segments) and
is marked partial (`ID.partial`, its layout), so the other half of the store survives it. The
id is still the hash of the whole output: the same input, the same id and the same marker.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import json
import os
import re
from collections import deque
from typing import BinaryIO, NamedTuple

from .privatefile import new_private_file

from .defaults import DEFAULTS, parse_size

ID_LENGTH = 12  # 48 bits: collisions need ~16 million stored outputs, far past any size cap
# The caps when none is configured (defaults.py's, in the units the store counts in).
DEFAULT_MAX_BYTES = parse_size(DEFAULTS["store.max_bytes"])
DEFAULT_MAX_AGE_DAYS = float(DEFAULTS["store.max_age_days"])
_ID = re.compile(rf"[0-9a-f]{{{ID_LENGTH}}}")
_TEMP_PREFIX, _TEMP_SUFFIX = ".incoming-", ".tmp"
DIGEST_SUFFIX = ".digest"  # ID.digest: model-written digests of the output's omitted parts
PARTIAL_SUFFIX = ".partial"  # ID.partial: the layout of a copy that kept only head and tail
_SEGMENTS = 16  # a partial copy's tail rolls in segments of 1/16 of its share
_COPY_PART = 1 << 20
# A temporary file this old belongs to a writer that died; younger ones may still be in use.
_STALE_TEMP_SECONDS = 3600.0
# Sessions' state (session.py) lives in this folder of the store and is pruned with it: a
# session idle past the age cap goes, and beyond MAX_SESSIONS the least recently used.
SESSIONS_DIR = "sessions"
MAX_SESSIONS = 256


class NotStored(LookupError):
    """No output with this id: never stored, or pruned since."""


class Damaged(ValueError):
    """The stored file does not hash to its id (cut short by a crash, or edited)."""


# NamedTuples rather than dataclasses: this module loads on every run, and they define faster.
class Retention(NamedTuple):
    max_bytes: int = DEFAULT_MAX_BYTES
    max_age_days: float = DEFAULT_MAX_AGE_DAYS

    @property
    def max_age_seconds(self) -> float:
        return self.max_age_days * 86400.0

    @property
    def entry_limit(self) -> int:
        """The most one output may take: half the cap, so it never empties the store."""
        return self.max_bytes // 2


class Entry(NamedTuple):
    id: str
    size: int
    mtime: float


class Pruned(NamedTuple):
    removed: tuple[Entry, ...]
    kept: tuple[Entry, ...]


class Lost(NamedTuple):
    """What a partial copy did not keep: 1-based inclusive bytes and lines of the output (the
    lines it touches, even in part), and the output's size."""

    first_byte: int
    last_byte: int
    first_line: int
    last_line: int
    total_bytes: int
    total_lines: int


class Layout(NamedTuple):
    """Where the output's bytes are in a stored copy: its head, then (partial copies only) its
    tail from byte `tail_from` of the output, joined in the file. Figures count the output."""

    total_bytes: int
    total_newlines: int
    ends_with_newline: bool
    head_bytes: int
    head_newlines: int
    tail_from: int  # 0-based byte of the output where the kept tail starts (= head_bytes: whole)
    newlines_before_tail: int
    tail_starts_line: bool  # the kept tail starts at the start of a line
    stored_sha256: str = ""  # of the stored bytes: a partial copy does not hash to its id

    @classmethod
    def of(cls, data: bytes, limit: int) -> "Layout":
        """What a copy capped at `limit` keeps of `data`: the same as a Spill of it keeps."""
        head, tail_from = _Capped.kept(len(data), limit)
        if tail_from == head:
            newlines = data.count(b"\n")
            return cls(len(data), newlines, data.endswith(b"\n"), len(data), newlines,
                       len(data), newlines, True)
        head_newlines = data.count(b"\n", 0, head)
        before_tail = head_newlines + data.count(b"\n", head, tail_from)
        stored = hashlib.sha256(data[:head])
        stored.update(data[tail_from:])
        return cls(len(data), before_tail + data.count(b"\n", tail_from),
                   data.endswith(b"\n"), head, head_newlines, tail_from, before_tail,
                   data[tail_from - 1:tail_from] == b"\n", stored.hexdigest())

    @property
    def partial(self) -> bool:
        return self.tail_from > self.head_bytes

    @property
    def stored_bytes(self) -> int:
        return self.head_bytes + self.total_bytes - self.tail_from

    @property
    def total_lines(self) -> int:
        return self.total_newlines + (0 if self.ends_with_newline or not self.total_bytes else 1)

    @property
    def lost(self) -> Lost | None:
        if not self.partial:
            return None
        first_line = self.head_newlines + 1
        last_line = self.newlines_before_tail + (0 if self.tail_starts_line else 1)
        return Lost(self.head_bytes + 1, self.tail_from, first_line, max(first_line, last_line),
                    self.total_bytes, self.total_lines)


def content_id(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:ID_LENGTH]


def is_id(text: str) -> bool:
    return _ID.fullmatch(text) is not None


def first_line(path: str, limit: int = 4096) -> bytes:
    """The first line of a stored copy, from its first `limit` bytes only (`store list`)."""
    with open(path, "rb") as file:
        start = file.read(limit)
    newline = start.find(b"\n")
    return start if newline == -1 else start[:newline + 1]


class Store:
    def __init__(self, root: str | os.PathLike) -> None:
        # A str, not a pathlib.Path: pathlib (with urllib.parse, ipaddress) costs every run
        # ~8 ms to import.
        self.root = os.fspath(root)

    def put(self, item_id: str, data: bytes, retention: Retention, now: float) -> Layout:
        """Keep `data` under `item_id` (all of it, or its head and tail when it is larger than
        `retention.entry_limit`: see Layout.of), then prune oldest-first to the caps.

        Raises OSError when the store cannot be written; pruning itself never raises.
        """
        self._ensure_root()
        layout = Layout.of(data, retention.entry_limit)
        if not layout.partial and self._refresh(self._path(item_id), len(data)):
            self.prune(retention, now, keep=item_id)
            return layout
        file, temporary = _temporary(self.root)
        try:
            with file:
                file.write(memoryview(data)[:layout.head_bytes])
                file.write(memoryview(data)[layout.tail_from:])
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise
        self.adopt(temporary, item_id, layout, retention, now)
        return layout

    def adopt(self, temporary: str, item_id: str, layout: Layout, retention: Retention,
              now: float) -> None:
        """Name a copy written to a private temporary file in the store (a Spill's): renamed
        into place with its layout, or dropped when the same copy is already there."""
        path, partial = self._path(item_id), self._path(item_id + PARTIAL_SUFFIX)
        if self._refresh(path, layout.stored_bytes) and os.path.exists(partial) == layout.partial:
            os.unlink(temporary)
        else:
            if layout.partial:
                self._write_atomically(partial, json.dumps(layout._asdict()).encode())
            else:
                with contextlib.suppress(FileNotFoundError):
                    os.unlink(partial)
            os.replace(temporary, path)
        self.prune(retention, now, keep=item_id)

    def spill(self, retention: Retention) -> "Spill":
        """A copy written as a stream arrives, capped at `retention.entry_limit` (raises
        OSError when the store cannot be written)."""
        self._ensure_root()
        return Spill(self, retention.entry_limit)

    def open(self, item_id: str) -> "Stored":
        """A stored copy, checked against its hash in one streamed pass (bounded memory), for
        reading. Raises NotStored, Damaged or OSError."""
        if not is_id(item_id):
            raise NotStored(item_id)
        try:
            file = open(self._path(item_id), "rb")
        except (FileNotFoundError, NotADirectoryError, IsADirectoryError) as err:
            raise NotStored(item_id) from err
        try:
            layout = self._checked_layout(item_id, file)
        except BaseException:
            file.close()
            raise
        return Stored(item_id, file, layout)

    def layout(self, item_id: str) -> Layout | None:
        """A partial copy's layout, from its `ID.partial` file (None: a whole copy, or none)."""
        try:
            with open(self._path(item_id + PARTIAL_SUFFIX), "rb") as file:
                return Layout(**json.loads(file.read(1 << 16)))
        except FileNotFoundError:
            return None
        except (OSError, ValueError, TypeError) as err:
            raise Damaged(item_id) from err

    def _checked_layout(self, item_id: str, file) -> Layout:
        partial = self.layout(item_id)
        digest, size, newlines, last = hashlib.sha256(), 0, 0, b""
        while part := file.read(_COPY_PART):
            digest.update(part)
            size += len(part)
            newlines += part.count(b"\n")
            last = part[-1:]
        file.seek(0)
        if partial is not None:
            if digest.hexdigest() != partial.stored_sha256 or size != partial.stored_bytes:
                raise Damaged(item_id)
            return partial
        if digest.hexdigest()[:ID_LENGTH] != item_id:
            raise Damaged(item_id)
        return Layout(size, newlines, last == b"\n", size, newlines, size, newlines, True)

    def get_digest(self, item_id: str, key: str = "") -> str | None:
        """The digest kept with a stored output for this `key` (what was omitted), or None.

        A digest is model-written, so not reproducible: keeping it is what lets the same input
        print the same marker again. Never raises.
        """
        try:
            with open(self._path(item_id + DIGEST_SUFFIX), encoding="utf-8") as file:
                found = json.load(file).get(key)
        except (OSError, ValueError, AttributeError):
            return None
        return found if isinstance(found, str) and found else None

    def put_digest(self, item_id: str, text: str, key: str = "") -> None:
        """Keep a digest beside the stored output `item_id` (file `ID.digest`, mode 0600).

        Raises OSError when it cannot be written; pruning the output removes it too.
        """
        if not is_id(item_id):
            raise NotStored(item_id)
        path = self._path(item_id + DIGEST_SUFFIX)
        try:
            with open(path, encoding="utf-8") as file:
                known = json.load(file)
            known = known if isinstance(known, dict) else {}
        except (OSError, ValueError):
            known = {}
        known[key] = text
        self._ensure_root()
        self._write_atomically(path, json.dumps(known, ensure_ascii=False).encode("utf-8"))

    def entries(self) -> list[Entry]:
        """Every stored output, oldest first."""
        found = []
        for item in self._scan():
            if is_id(item.name):
                with contextlib.suppress(OSError):  # pruned by another process meanwhile
                    stat = item.stat(follow_symlinks=False)
                    found.append(Entry(item.name, stat.st_size, stat.st_mtime))
        return sorted(found, key=lambda entry: (entry.mtime, entry.id))

    def prune(self, retention: Retention, now: float, keep: str | None = None) -> Pruned:
        """Remove what is older than the age cap, then the oldest until under the size cap.

        `keep` (the output just stored, which a marker is about to name) is never removed.
        """
        self._remove_stale_temporaries(now)
        removed, kept = [], []
        entries = self.entries()
        total = sum(entry.size for entry in entries)
        for entry in entries:
            too_old = now - entry.mtime > retention.max_age_seconds
            if entry.id != keep and (too_old or total > retention.max_bytes):
                self._remove(entry.id)
                removed.append(entry)
                total -= entry.size
            else:
                kept.append(entry)
        self._prune_sessions(retention, now)
        return Pruned(tuple(removed), tuple(kept))

    def has(self, item_id: str) -> bool:
        """Is an output stored under this id (not checked against its hash)?"""
        return is_id(item_id) and os.path.isfile(self._path(item_id))

    def _path(self, name: str) -> str:
        return os.path.join(self.root, name)

    def _prune_sessions(self, retention: Retention, now: float) -> None:
        """Session state files idle past the age cap, and past MAX_SESSIONS the least
        recently used (each with its lock file); dead writers' temporary files."""
        folder = self._path(SESSIONS_DIR)
        try:
            with os.scandir(folder) as items:
                found = list(items)
        except OSError:
            return
        states = []
        for item in found:
            with contextlib.suppress(OSError):
                age = now - item.stat(follow_symlinks=False).st_mtime
                if item.name.startswith(_TEMP_PREFIX) and age > _STALE_TEMP_SECONDS:
                    os.unlink(item.path)
                elif item.name.endswith(".json"):
                    states.append((age, item.name[:-len(".json")]))
        states.sort()
        for position, (age, name) in enumerate(states):
            if age > retention.max_age_seconds or position >= MAX_SESSIONS:
                for suffix in (".json", ".lock"):
                    with contextlib.suppress(OSError):
                        os.unlink(os.path.join(folder, name + suffix))

    def _ensure_root(self) -> None:
        if os.path.isdir(self.root):
            return
        try:
            os.makedirs(os.path.dirname(os.path.abspath(self.root)), exist_ok=True)
        except FileExistsError:  # a file where a directory should be: say so plainly
            raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR)) from None
        try:
            os.mkdir(self.root, 0o700)
        except FileExistsError:
            if not os.path.isdir(self.root):  # a file sits where the store should be
                raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR)) from None
            return  # another headroom process created it first
        # mkdir's mode passes through the umask; the store must be private whatever it is.
        os.chmod(self.root, 0o700)

    def _refresh(self, path: str, size: int) -> bool:
        """Same id, same size: the bytes are already here; only mark them recently used."""
        try:
            if os.stat(path).st_size != size:
                return False
            os.utime(path)
            return True
        except OSError:
            return False

    def _write_atomically(self, path: str, data: bytes) -> None:
        # Rename is atomic within a directory. No fsync: a copy cut short by a crash fails the
        # hash check on read instead of being served.
        file, temporary = _temporary(self.root)
        try:
            with file:
                file.write(data)
            os.replace(temporary, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise

    def _scan(self) -> list[os.DirEntry]:
        try:
            with os.scandir(self.root) as items:
                return list(items)
        except (FileNotFoundError, NotADirectoryError):
            return []

    def _remove(self, name: str) -> None:
        # Another process may have pruned it already, or the directory may be read-only.
        with contextlib.suppress(OSError):
            os.unlink(self._path(name))
        for suffix in (DIGEST_SUFFIX, PARTIAL_SUFFIX):
            with contextlib.suppress(OSError):
                os.unlink(self._path(name + suffix))

    def _remove_stale_temporaries(self, now: float) -> None:
        for item in self._scan():
            if item.name.startswith(_TEMP_PREFIX) and item.name.endswith(_TEMP_SUFFIX):
                with contextlib.suppress(OSError):
                    if now - item.stat(follow_symlinks=False).st_mtime > _STALE_TEMP_SECONDS:
                        self._remove(item.name)


class Stored(NamedTuple):
    """A stored copy open for reading: the file and where the output's bytes are in it."""

    id: str
    file: BinaryIO
    layout: Layout

    def __enter__(self) -> "Stored":
        return self

    def __exit__(self, *failure) -> None:
        self.file.close()


def _temporary(root: str) -> tuple[BinaryIO, str]:
    """A new file in root, readable by this user only; mkstemp when the name is taken."""
    try:
        fd, path = new_private_file(root, _TEMP_PREFIX, _TEMP_SUFFIX)
    except FileExistsError:
        import tempfile

        fd, path = tempfile.mkstemp(prefix=_TEMP_PREFIX, suffix=_TEMP_SUFFIX, dir=root)
    return os.fdopen(fd, "w+b"), path


class _Segment:
    """One part of a partial copy's rolling tail: a temporary file and what it holds."""

    def __init__(self, root: str, size: int) -> None:
        self.file, self.path = _temporary(root)
        self.room, self.newlines, self.last = size, 0, b""

    def write(self, data: memoryview, newlines: int, last: bytes) -> None:
        self.file.write(data)
        self.room -= len(data)
        self.newlines += newlines
        self.last = last

    def remove(self) -> None:
        with contextlib.suppress(OSError):
            self.file.close()
        with contextlib.suppress(OSError):
            os.unlink(self.path)


class _Capped:
    """Bytes in order → a file of at most `limit` bytes, whatever the input's length: all of
    them, or the first half of the limit (the head) and the most recent bytes (the tail).

    The tail rolls in segment files, the oldest removed as a new one starts; at the end they
    are appended to the head one by one, each removed once copied, so the disk never holds
    more than `limit` bytes of this output, even then.
    """

    def __init__(self, root: str, file: BinaryIO, path: str, limit: int) -> None:
        self.root, self.file, self.path = root, file, path
        self.head_room = limit // 2
        self.segment_size, self.max_segments = self._segments(limit)
        self.segments: deque[_Segment] = deque()
        # One hash of every byte (the output's id); the head's alone is a copy of it taken when
        # the head is full, which only a partial copy needs (its stored bytes' hash).
        self.hash = hashlib.sha256()
        self.head_hash = None if self.head_room else hashlib.sha256()
        self.head_bytes = self.head_newlines = self.total_bytes = self.total_newlines = 0
        self.dropped_bytes = self.dropped_newlines = 0
        self.dropped_last = self.last = b""

    @staticmethod
    def _segments(limit: int) -> tuple[int, int]:
        tail_room = limit - limit // 2
        size = max(1, tail_room // _SEGMENTS)
        # One segment's room is left free for the copy at the end.
        return size, max(1, tail_room // size - 1)

    @classmethod
    def kept(cls, size: int, limit: int) -> tuple[int, int]:
        """For an output of `size` bytes: the head kept, and where the kept tail starts (the
        same: all of it is kept). The tail is the last `count` segments written."""
        head = min(size, limit // 2)
        segment, count = cls._segments(limit)
        written = -(-(size - head) // segment)  # segments the tail filled, the last in part
        return head, head + max(0, written - count) * segment

    def write(self, data: bytes, newlines: int | None = None) -> None:
        """`newlines`: data's, when the caller counted them (counting costs what hashing does)."""
        view, size = memoryview(data), len(data)
        self.total_bytes += size
        self.last = data[-1:] or self.last
        start = min(size, self.head_room)
        if start:
            head_newlines = _newlines(data, 0, start, newlines)
            self.file.write(view[:start])
            self.hash.update(view[:start])
            self.head_bytes += start
            self.head_newlines += head_newlines
            self.total_newlines += head_newlines
            self.head_room -= start
            if not self.head_room:
                self.head_hash = self.hash.copy()
            if newlines is not None:
                newlines -= head_newlines
        if start < size:
            self.hash.update(view[start:])
        while start < size:
            segment = self.segments[-1] if self.segments and self.segments[-1].room else (
                self._next_segment())
            end = min(size, start + segment.room)
            part_newlines = _newlines(data, start, end, newlines)
            segment.write(view[start:end], part_newlines, data[end - 1:end])
            self.total_newlines += part_newlines
            if newlines is not None:
                newlines -= part_newlines
            start = end

    def _next_segment(self) -> _Segment:
        if len(self.segments) == self.max_segments:
            oldest = self.segments.popleft()
            oldest.remove()
            self.dropped_bytes += self.segment_size - oldest.room
            self.dropped_newlines += oldest.newlines
            self.dropped_last = oldest.last
        # The head is no longer written to: keep it from looking like a dead writer's to a
        # prune in another process (_STALE_TEMP_SECONDS).
        os.utime(self.path)
        self.segments.append(_Segment(self.root, self.segment_size))
        return self.segments[-1]

    def finish(self) -> Layout:
        """Append the tail to the head; the copy's layout (raises OSError)."""
        stored = self.head_hash
        while self.segments:
            segment = self.segments.popleft()
            segment.file.seek(0)
            while part := segment.file.read(_COPY_PART):
                self.file.write(part)
                stored.update(part)
            segment.remove()
        tail_from = self.head_bytes + self.dropped_bytes
        if tail_from == self.head_bytes:
            return Layout(self.total_bytes, self.total_newlines, self.last == b"\n",
                          self.total_bytes, self.total_newlines, self.total_bytes,
                          self.total_newlines, True)
        return Layout(self.total_bytes, self.total_newlines, self.last == b"\n",
                      self.head_bytes, self.head_newlines, tail_from,
                      self.head_newlines + self.dropped_newlines, self.dropped_last == b"\n",
                      stored.hexdigest())

    def discard(self) -> None:
        while self.segments:
            self.segments.popleft().remove()


def _newlines(data: bytes, start: int, end: int, rest: int | None) -> int:
    """The newlines in data[start:end]; `rest`: those in data[start:], when known."""
    return rest if rest is not None and end == len(data) else data.count(b"\n", start, end)


class Spill:
    """A streamed output's copy, written and hashed as it arrives, named by its id at the end.

    Nothing of a large output has to stay in memory for `headroom show` to print it. A thread
    hashes and writes (both release the GIL), so the copy costs the clip little time; its
    queue is short, so memory stays bounded when the disk is slower than the input. The copy
    keeps at most `limit` bytes (_Capped); the id hashes every byte of the output, so the same
    input gets the same id whatever was kept. A write that fails (a full disk) leaves the
    marker without its stored id, never the run: `error` says why.
    """

    _QUEUED = 8  # parts of ~1 MiB waiting at most

    def __init__(self, store: Store, limit: int) -> None:
        import queue
        import threading

        self.store = store
        self._file, self._path = _temporary(store.root)
        self._copy = _Capped(store.root, self._file, self._path, limit)
        self.error: OSError | None = None
        self.layout: Layout | None = None
        self._queue = queue.Queue(self._QUEUED)
        self._writer = threading.Thread(target=self._write_queued, daemon=True)
        self._writer.start()

    @property
    def failed(self) -> bool:
        return self.error is not None

    def write(self, data: bytes, newlines: int | None = None) -> None:
        """`newlines`: data's, when the caller counted them."""
        if not self.failed:
            self._queue.put((data, newlines))

    def _write_queued(self) -> None:
        while (queued := self._queue.get()) is not None:
            self._write(*queued)

    def _write(self, data: bytes, newlines: int | None = None) -> None:
        if self.failed:
            return
        try:
            self._copy.write(data, newlines)
        except Exception as err:  # noqa: BLE001 - the writer must never die with a full queue
            self.error = err if isinstance(err, OSError) else OSError(errno.EIO, str(err))

    def _stop_writer(self) -> None:
        if self._writer.is_alive():
            self._queue.put(None)
            self._writer.join()

    def _finish_writing(self) -> None:
        self._stop_writer()
        if self.layout is None and not self.failed:
            try:
                self.layout = self._copy.finish()
                self._file.flush()
            except OSError as err:
                self.error = err

    @property
    def id(self) -> str | None:
        """The output's id, once every byte is written (None when the copy failed)."""
        self._finish_writing()
        return None if self.failed else self._copy.hash.hexdigest()[:ID_LENGTH]

    @property
    def lost(self) -> Lost | None:
        """What the copy could not keep (None: it holds every byte)."""
        self._finish_writing()
        return self.layout.lost if self.layout is not None else None

    def commit(self, retention: Retention, now: float) -> str:
        """Name the copy by its id and prune; raises OSError when it cannot be kept."""
        item_id = self.id
        try:
            self._file.close()
        except OSError as err:
            self.error = err
        if self.failed or self.layout is None:
            raise self.error or OSError(errno.EIO, "the copy could not be written")
        self.store.adopt(self._path, item_id, self.layout, retention, now)
        return item_id

    def discard(self) -> None:
        self._stop_writer()
        self._copy.discard()
        with contextlib.suppress(OSError):
            self._file.close()
        with contextlib.suppress(OSError):
            os.unlink(self._path)
