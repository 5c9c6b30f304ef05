"""One planner per shape: pure functions from text and a token budget to a Plan.

Each module has `looks_like(sample_lines, tool) -> bool` (used by the sniffer) and
`plan(text, lines, budget, counter, tool) -> Plan | None` (None: it cannot beat the plain clip).
"""

from . import log, other, search

PLANNERS = {"search": search.plan, "log": log.plan, "other": other.plan}
