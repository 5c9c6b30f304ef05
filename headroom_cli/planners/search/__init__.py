"""search: a map beats matches.

Every matching file stays named with its exact match count, then its first few matches (the
output's first match and definition sites first). The budget goes to fewer matches per file
before fewer files; when even one line per file does not fit, files roll up under their
directories with counts, so no part of the tree silently vanishes.

Understands `path:NN:text` (grep -n, rg -n), `path:NN:CC:text` (vimgrep), context lines
`path-NN-text` with `--` separators, `rg --heading` groups, Windows paths, plain file lists
(`rg -l`, Glob), and `git grep -z`'s NUL-separated fields (read as colons: clean.fields).

An output too large to hold is read once by a `Scanner` (the flat formats only): it counts every
file's matches exactly and keeps a few whole lines per file, and the planner then runs on those
lines with the scanner's counts. Past FILE_CAP files it keeps no more: later files are counted
by folder (matches and files, exactly), and the planner names those folders with their figures.

One job per file: signals.py (telling the shape), planning.py (the plan), scanner.py (the
streaming Scanner). Sniffing loads only the signals; the plan and the scanner load with the
shape when it is chosen.
"""

from __future__ import annotations

from .. import lazy_parts
from .signals import looks_like

__getattr__ = lazy_parts(__name__)

__all__ = ["Scanner", "looks_like", "plan"]
