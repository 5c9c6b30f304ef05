"""One planner per shape: pure functions from text and a token budget to a Plan.

Each module has `looks_like(sample_lines, tool) -> bool`, asked by the sniffer in the order of
sniff.SHAPES, and `plan(text, lines, budget, counter, tool) -> Plan | None` (None: it cannot
beat the plain head/tail clip, which then runs).
"""
