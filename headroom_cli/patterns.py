"""Regular expressions compiled on first use.

A clip imports every planner's module to sniff the shape, and compiling all their module-level
patterns cost ~80 ms of a 20 KB clip's ~210 ms (issue #24), most of them for lines that never
come. `lazy()` stands for a compiled pattern: the pattern compiles when a method or attribute is
first asked for, and its methods are then bound on the instance, so later calls cost what a
compiled pattern's do. `.pattern` is there without compiling (patterns are built from others').
"""

from __future__ import annotations

import re

_METHODS = ("match", "search", "finditer", "findall", "fullmatch", "sub", "subn", "split")


class LazyPattern:
    __slots__ = ("pattern", "_flags", "_compiled", *_METHODS)

    def __init__(self, pattern: str | bytes, flags: int = 0) -> None:
        self.pattern, self._flags, self._compiled = pattern, flags, None

    def compiled(self) -> re.Pattern:
        if self._compiled is None:
            self._compiled = compiled = re.compile(self.pattern, self._flags)
            for name in _METHODS:
                setattr(self, name, getattr(compiled, name))
        return self._compiled

    def __getattr__(self, name: str):  # only for what is not set yet: the first use
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self.compiled(), name)

    def __repr__(self) -> str:
        return f"lazy({self.pattern!r})"


def lazy(pattern: str | bytes, flags: int = 0) -> LazyPattern:
    return LazyPattern(pattern, flags)
