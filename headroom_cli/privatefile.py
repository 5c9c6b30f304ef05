"""A new private file, as `tempfile.mkstemp` makes it, without importing tempfile (~10 ms of
imports: random, shutil) on paths that run for every clip or every agent command."""

from __future__ import annotations

import os


def new_private_file(folder: str, prefix: str, suffix: str) -> tuple[int, str]:
    """A new empty file in `folder`, readable by this user only, named prefix + random + suffix:
    its open descriptor and path. OSError as os.open raises it (FileExistsError: the name is
    taken); the caller falls back to mkstemp."""
    path = os.path.abspath(os.path.join(folder, f"{prefix}{os.urandom(6).hex()}{suffix}"))
    return os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600), path
