"""The one clipping step every agent integration shares: bytes in, bytes out, never an error.

An agent's hook must never lose or break a tool's output. So clip() keeps the output as it is
when it fits, clips it with compress() otherwise (keeping the full copy in the store, so the
marker's `headroom show ID` works), and on any internal error returns the input untouched.
"""

from __future__ import annotations

import sys

# Agent hooks clip to this many tokens unless told otherwise (`--budget`). Claude Code hands
# the model only a 2 KB preview of a successful output over 30,000 bytes, and cuts a failing
# one to its first and last 5,000 characters; 6,000 cl100k tokens of ordinary output is about
# 24,000 bytes, and `max_bytes` below guarantees the cap even for unusual text.
DEFAULT_HOOK_BUDGET = 6000


def clip(data: bytes, *, tool: str | None = "Bash", budget: int = DEFAULT_HOOK_BUDGET,
         exit_status: int | None = None, max_bytes: int | None = None,
         encoding: str = "cl100k_base", store: bool = True) -> bytes:
    """`data` clipped to `budget` tokens (and to `max_bytes` bytes when given); fails open."""
    try:
        return _clip(data, tool, budget, exit_status, max_bytes, encoding, store)
    except Exception as err:  # noqa: BLE001 - a hook must never lose the output
        note(f"could not clip ({type(err).__name__}: {err}); passing the output through")
        return data


def clip_text(text: str, **options) -> str:
    """clip() for text that may carry undecodable bytes as lone surrogates."""
    data = text.encode("utf-8", "surrogateescape")
    out = clip(data, **options)
    return text if out is data else out.decode("utf-8", "surrogateescape")


def _clip(data: bytes, tool, budget, exit_status, max_bytes, encoding, store) -> bytes:
    if budget <= 0 and not max_bytes:
        return data
    if (budget <= 0 or len(data) <= budget) and (not max_bytes or len(data) <= max_bytes):
        return data  # fits by size alone: no tokenizer needed (every token covers a byte)
    from ..cli.commands import _clip_and_store, _counter, _store

    counter = _counter(encoding)
    keep = _store() if store else None
    status = exit_status if exit_status else None
    # With no token budget, the byte cap still applies: start from a budget that is sure to
    # reach it (a token covers at least one byte), then shrink.
    budget = budget if budget > 0 else max_bytes
    for _ in range(8):
        options = dict(tool=tool, budget=budget, kind="auto", counter=counter,
                       exit_status=status)
        result = _clip_and_store(data, options, keep)
        if isinstance(result, tuple):  # (result, stored id)
            result = result[0]
        out = result.text.encode("utf-8", "surrogateescape") if result.clipped else data
        if not max_bytes or len(out) <= max_bytes:
            return out
        # Shrink in proportion, with a margin: tokens of this text run longer than usual.
        budget = max(1, min(budget - 1, int(budget * max_bytes / len(out) * 0.9)))
    return _cut_bytes(out, max_bytes)


def _cut_bytes(data: bytes, limit: int) -> bytes:
    """A last resort that is never reached in practice: the first `limit` bytes, whole chars."""
    cut = data[:limit]
    while cut and (cut[-1] & 0xC0) == 0x80:
        cut = cut[:-1]
    if cut and cut[-1] >= 0xC0:
        cut = cut[:-1]
    return cut


def note(message: str) -> None:
    """One line on stderr, if stderr is there at all (a hook's may be closed)."""
    try:
        print(f"headroom: {message}", file=sys.stderr)
    except (OSError, ValueError):
        pass
