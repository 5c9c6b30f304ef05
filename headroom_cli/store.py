"""The store: complete copies of clipped outputs, so every marker's way back is exact.

Content-addressed: an output's id is a prefix of the sha256 of its bytes, so the same output
always gets the same id and the printed marker stays deterministic. One flat directory, one file
per output, named by its id. The caller says where the directory is; nothing leaves the machine.

Tool output can hold secrets: the directory is created 0700 and every file 0600.
Writes are atomic (a private temporary file renamed into place), so any number of concurrent
headroom processes can store, and a reader sees a whole file or none.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import re
from pathlib import Path
from typing import NamedTuple

ID_LENGTH = 12  # 48 bits: collisions need ~16 million stored outputs, far past any size cap
DEFAULT_MAX_BYTES = 1 << 30
DEFAULT_MAX_AGE_DAYS = 14.0
_ID = re.compile(rf"[0-9a-f]{{{ID_LENGTH}}}")
_TEMP_PREFIX, _TEMP_SUFFIX = ".incoming-", ".tmp"
DIGEST_SUFFIX = ".digest"  # ID.digest: model-written digests of the output's omitted parts
# A temporary file this old belongs to a writer that died; younger ones may still be in use.
_STALE_TEMP_SECONDS = 3600.0


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


class Entry(NamedTuple):
    id: str
    size: int
    mtime: float


class Pruned(NamedTuple):
    removed: tuple[Entry, ...]
    kept: tuple[Entry, ...]


def content_id(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:ID_LENGTH]


def is_id(text: str) -> bool:
    return _ID.fullmatch(text) is not None


class Store:
    def __init__(self, root: Path | str) -> None:
        self.root = Path(root)

    def put(self, item_id: str, data: bytes, retention: Retention, now: float) -> None:
        """Keep `data` under `item_id`, then prune oldest-first to the retention caps.

        Raises OSError when the store cannot be written; pruning itself never raises.
        """
        self._ensure_root()
        path = self.root / item_id
        if not self._refresh(path, len(data)):
            self._write_atomically(path, data)
        self.prune(retention, now, keep=item_id)

    def adopt(self, temporary: str, item_id: str, retention: Retention, now: float) -> None:
        """put() for bytes already written to a private temporary file in the store (a
        Spill's): renamed into place, or dropped when the same output is already there."""
        if self._refresh(self.root / item_id, os.path.getsize(temporary)):
            os.unlink(temporary)
        else:
            os.replace(temporary, self.root / item_id)
        self.prune(retention, now, keep=item_id)

    def spill(self) -> "Spill":
        """A copy written as a stream arrives (raises OSError when the store cannot be
        written)."""
        self._ensure_root()
        return Spill(self)

    def get(self, item_id: str) -> bytes:
        if not is_id(item_id):
            raise NotStored(item_id)
        try:
            data = (self.root / item_id).read_bytes()
        except (FileNotFoundError, NotADirectoryError) as err:
            raise NotStored(item_id) from err
        if content_id(data) != item_id:
            raise Damaged(item_id)
        return data

    def get_digest(self, item_id: str, key: str = "") -> str | None:
        """The digest kept with a stored output for this `key` (what was omitted), or None.

        A digest is model-written, so not reproducible: keeping it is what lets the same input
        print the same marker again. Never raises.
        """
        import json

        try:
            with open(self.root / (item_id + DIGEST_SUFFIX), encoding="utf-8") as file:
                found = json.load(file).get(key)
        except (OSError, ValueError, AttributeError):
            return None
        return found if isinstance(found, str) and found else None

    def put_digest(self, item_id: str, text: str, key: str = "") -> None:
        """Keep a digest beside the stored output `item_id` (file `ID.digest`, mode 0600).

        Raises OSError when it cannot be written; pruning the output removes it too.
        """
        import json

        if not is_id(item_id):
            raise NotStored(item_id)
        path = self.root / (item_id + DIGEST_SUFFIX)
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
        return Pruned(tuple(removed), tuple(kept))

    def _ensure_root(self) -> None:
        if self.root.is_dir():
            return
        try:
            self.root.parent.mkdir(parents=True, exist_ok=True)
        except FileExistsError:  # a file where a directory should be: say so plainly
            raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR)) from None
        try:
            self.root.mkdir(mode=0o700)
        except FileExistsError:
            if not self.root.is_dir():  # a file sits where the store should be
                raise NotADirectoryError(errno.ENOTDIR, os.strerror(errno.ENOTDIR)) from None
            return  # another headroom process created it first
        # mkdir's mode passes through the umask; the store must be private whatever it is.
        os.chmod(self.root, 0o700)

    def _refresh(self, path: Path, size: int) -> bool:
        """Same id, same size: the bytes are already here; only mark them recently used."""
        try:
            if path.stat().st_size != size:
                return False
            os.utime(path)
            return True
        except OSError:
            return False

    def _write_atomically(self, path: Path, data: bytes) -> None:
        # mkstemp creates the file 0600; rename is atomic within a directory. No fsync: a copy
        # cut short by a crash fails the hash check on read instead of being served.
        import tempfile  # ~10 ms of imports (random): paid only when something is stored

        fd, temporary = tempfile.mkstemp(prefix=_TEMP_PREFIX, suffix=_TEMP_SUFFIX, dir=self.root)
        try:
            with os.fdopen(fd, "wb") as file:
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
            os.unlink(self.root / name)
        with contextlib.suppress(OSError):
            os.unlink(self.root / (name + DIGEST_SUFFIX))

    def _remove_stale_temporaries(self, now: float) -> None:
        for item in self._scan():
            if item.name.startswith(_TEMP_PREFIX) and item.name.endswith(_TEMP_SUFFIX):
                with contextlib.suppress(OSError):
                    if now - item.stat(follow_symlinks=False).st_mtime > _STALE_TEMP_SECONDS:
                        self._remove(item.name)


class Spill:
    """A streamed output's copy, written and hashed as it arrives, named by its id at the end.

    Nothing of a large output has to stay in memory for `headroom show` to print it whole. A
    thread hashes and writes (both release the GIL), so the copy costs the clip little time;
    its queue is short, so memory stays bounded when the disk is slower than the input. A write
    that fails (a full disk) leaves the marker without its stored id, never the run.
    """

    _QUEUED = 8  # parts of ~1 MiB waiting at most

    def __init__(self, store: Store) -> None:
        import queue
        import tempfile
        import threading

        self.store = store
        self._hash = hashlib.sha256()
        fd, self._path = tempfile.mkstemp(prefix=_TEMP_PREFIX, suffix=_TEMP_SUFFIX,
                                          dir=store.root)
        self._file = os.fdopen(fd, "wb")
        self.failed = False
        self._queue = queue.Queue(self._QUEUED)
        self._writer = threading.Thread(target=self._write_queued, daemon=True)
        self._writer.start()

    def write(self, data: bytes) -> None:
        if not self.failed:
            self._queue.put(data)

    def _write_queued(self) -> None:
        while (data := self._queue.get()) is not None:
            if self.failed:
                continue
            try:
                self._file.write(data)
                self._hash.update(data)
            except OSError:
                self.failed = True

    def _finish_writing(self) -> None:
        if self._writer.is_alive():
            self._queue.put(None)
            self._writer.join()

    @property
    def id(self) -> str | None:
        self._finish_writing()
        return None if self.failed else self._hash.hexdigest()[:ID_LENGTH]

    def commit(self, retention: Retention, now: float) -> str:
        """Name the copy by its id and prune; raises OSError when it cannot be kept."""
        item_id = self.id
        try:
            self._file.close()
        except OSError:
            self.failed = True
        if item_id is None or self.failed:
            raise OSError(errno.EIO, "the copy could not be written")
        self.store.adopt(self._path, item_id, retention, now)
        return item_id

    def discard(self) -> None:
        self._finish_writing()
        with contextlib.suppress(OSError):
            self._file.close()
        with contextlib.suppress(OSError):
            os.unlink(self._path)
