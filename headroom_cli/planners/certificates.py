"""certificates: X.509 certificates printed as text (`openssl x509 -text`, `openssl pkcs7
-print_certs -text`, `openssl crl2pkcs7 … | openssl pkcs7 -print_certs -text` of a CA bundle,
`openssl s_client -showcerts` decoded) become the head, an outline of the omitted part's key
fields, then the tail (outline.py).

A certificate printed as text is mostly hex: its modulus, its signature, key identifiers. A
reader of a bundle or a chain asks which certificates it holds and when they expire: every
`Subject:` first, then every `Not After :`, then the issuers, then the rest that names a
certificate (`Not Before:`, the subject's alternative names); each level spread over the
output. The head and the tail are short (they are hex).
"""

from __future__ import annotations

from ..plan import Lines, Plan
from ..tokens import Counter
from ..tools import Tool
from . import outline

READS_NUMBERED = True  # plans numbered lines (`cat -n`, a Read) itself

# A certificate's fields by what a reader looks for first (the shallowest level first).
_FIELDS = (("Subject:", 0), ("Not After", 1), ("Issuer:", 2), ("Not Before", 3), ("DNS:", 3))
_HEAD_SHARE = 0.05
_OPENER = "Certificate:"


def looks_like(sample: list[str], tool: Tool) -> bool:
    """A certificate opens at the margin (`Certificate:`) and its subject is named under it."""
    rows = outline.bodies(sample)
    return (any(row.rstrip() == _OPENER for row in rows)
            and any(row.lstrip().startswith("Subject: ") for row in rows))


def fields(rows: list[str]) -> list[tuple[int, int]]:
    """(line, level) of every key field."""
    found = []
    for index, row in enumerate(rows):
        body = row.lstrip()
        level = next((lv for name, lv in _FIELDS if body.startswith(name)), None)
        if level is not None and row[:1] in " \t":
            found.append((index, level))
    return found


def plan(text: str, lines: Lines, budget: int, counter: Counter, tool: Tool) -> Plan | None:
    rows = outline.bodies(list(lines))
    return outline.plan("other", "certificate fields", text, lines, budget, counter,
                        fields(rows), head_share=_HEAD_SHARE, deeper_after_a_miss=True,
                        tail_share=_HEAD_SHARE)
