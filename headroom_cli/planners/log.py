"""log: keep every error with its trace, dedup every warning. (placeholder, being written)"""

from __future__ import annotations

from ..plan import Lines, Plan
from ..tokens import Counter
from ..tools import Tool


def looks_like(sample: list[str], tool: Tool) -> bool:
    return False


def plan(text: str, lines: Lines, budget: int, counter: Counter, tool: Tool) -> Plan | None:
    return None
