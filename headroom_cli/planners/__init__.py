"""One planner per shape: pure functions from text and a token budget to a Plan.

Each module has `looks_like(sample_lines, tool) -> bool`, asked by the sniffer in the order of
sniff._ASKED, and `plan(text, lines, budget, counter, tool) -> Plan | None` (None: it cannot
beat the plain head/tail clip, which then runs).
"""

from __future__ import annotations


def lazy_parts(package: str):
    """The module `__getattr__` of a planner package (search, log) that loads `plan` from its
    planning.py and `Scanner` from its scanner.py when first asked: the sniffer asks every
    shape whether it recognises the output, but only the chosen shape's plan (and patterns)
    is ever needed."""
    parts = {"plan": "planning", "Scanner": "scanner"}

    def __getattr__(name: str):
        if name not in parts:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        from importlib import import_module

        return getattr(import_module(f"{package}.{parts[name]}"), name)

    return __getattr__
