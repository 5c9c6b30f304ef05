"""Terminal noise: ANSI escapes and carriage-return redraws, removed before planning.

Only output that is going to be clipped is cleaned; output that fits passes untouched. Cleaning
never adds or removes a newline, so line numbers still point into the original output.
"""

from __future__ import annotations

import re

# CSI (any parameters and intermediates, not only digits), OSC (ended by BEL or ST), the other
# string commands (DCS, SOS, PM, APC), and two-byte escapes. 8-bit C1 CSI too.
_ANSI = re.compile(
    r"""
    (?: \x1b\[ | \x9b ) [\x30-\x3f]* [\x20-\x2f]* [\x40-\x7e]    # CSI ... final byte
  | (?: \x1b\] | \x9d ) [^\x07\x1b\n]* (?: \x07 | \x1b\\ )?       # OSC ... BEL or ST
  | \x1b [PX^_] [^\x1b\n]* (?: \x1b\\ )?                          # DCS, SOS, PM, APC
  | \x1b [\x20-\x2f]* [\x30-\x7e]                                 # other escapes (ESC 7, ESC ( B)
    """,
    re.VERBOSE,
)
# A CR that is not part of a CRLF line ending: what came before it on the line was redrawn.
# Anchored at line starts so the scan stays linear.
_REDRAWN = re.compile(r"^[^\n]*\r(?=[^\r\n])", re.MULTILINE)


def strip_ansi(text: str) -> str:
    if "\x1b" not in text and "\x9b" not in text and "\x9d" not in text:
        return text
    return _ANSI.sub("", text)


def collapse_redraws(text: str) -> str:
    """Keep only the final state of lines redrawn with carriage returns (progress bars)."""
    if "\r" not in text:
        return text
    return _REDRAWN.sub("", text)


def clean(text: str) -> str:
    return collapse_redraws(strip_ansi(text))
