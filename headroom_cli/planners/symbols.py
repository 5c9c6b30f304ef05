"""symbols: a binary's symbol tables and disassembly (`nm`, `nm -D`, `readelf -s`/`-Ws`,
`objdump -d`) become the head, an outline of the omitted part, then the tail (outline.py).

A reader of a symbol table asks what the library defines and which versions it provides; what
it imports from others comes last. So, level by level, each spread over the output:
- nm: version nodes (`A GLIBCXX_3.4.30`) and weak references (`w __cxa_finalize`) first, then
  the functions defined (`T`), then defined data and weak definitions, then local symbols, and
  the undefined (`U`) last;
- readelf: the tables' headers and version nodes (`ABS`), then the global functions defined,
  the global objects, the weak definitions, the rest, and the undefined (`UND`) last;
- objdump -d: every section's `Disassembly of section …:` line, then every function's label
  (`000000000000c1e0 <inflate@@Base>:`), then the PLT stubs' labels; instructions are left out;
- objdump -T: the functions defined, the objects, the weak definitions, the imports (`*UND*`)
  last;
and in all of them the import requiring the newest version of each library (`(GLIBC_2.28)
fcntl64`) with the headers.
"""

from __future__ import annotations

from ..patterns import lazy
from ..plan import Lines, Plan
from ..tokens import Counter
from ..tools import Tool
from . import outline

READS_NUMBERED = True  # plans numbered lines (`cat -n`, a Read) itself

_NM = lazy(r"(?:[0-9a-f]{8}|[0-9a-f]{16}| {8}| {16}) (?P<type>[A-Za-z?-]) \S")
_READELF = lazy(r"\s*\d+: [0-9a-f]{8,16}\s+\S+ (?P<type>[A-Z_]+)\s+(?P<bind>[A-Z_]+)\s+\S+\s+"
                r"(?P<ndx>\S+)(?: |$)")
# objdump -T's dynamic symbols: address, seven flag columns (`g    DF`), section (`*UND*` for
# an import), size, version (`Base`, `(GLIBC_2.34)`), name.
_OBJDUMP_T = lazy(r"[0-9a-f]{8,16} (?P<flags>.{7}) (?P<section>\S+)\t[0-9a-f]{8,16} +"
                  r"(?:\(?[\w.@-]+\)? +)?(?P<name>\S.*)$")
# A symbol version a library requires of another (`fcntl64@GLIBC_2.28`, `(GLIBCXX_3.4.30)`).
_REQUIRED = lazy(r"[@(](?P<family>[A-Z][A-Z_]*?)_(?P<version>\d+(?:\.\d+)*)\b")
_LABEL = lazy(r"[0-9a-f]{8,16} <(?P<name>[^>]+)>:$")
_SECTION = ("Disassembly of section ", "Symbol table '")
# nm's symbol types by what a reader looks for first (version nodes and weak references, then
# functions defined, data, weak definitions, locals), the undefined last.
_NM_ORDER = {kind: level for level, kinds in enumerate(("Aw", "T", "DBRG", "WVuiv", "tdbrgs"))
             for kind in kinds}
_NM_LAST = 5
_NAME_CHARS = 48  # names longer than this are ranked as this long
_SHARE = 0.6  # of the sample's non-blank lines, in one of these forms


def _form(row: str) -> str | None:
    if _NM.match(row):
        return "nm"
    if _READELF.match(row):
        return "readelf"
    if _OBJDUMP_T.match(row):
        return "objdump"
    return None


def _symbols(rows: list[str]) -> bool:
    filled = [row for row in rows if row.strip()]
    return bool(filled) and sum(1 for row in filled if _form(row)) >= _SHARE * len(filled)


def _bodies(rows: list[str]) -> tuple[list[str], bool]:
    """The rows without line numbers (`cat -n`, a Read), but for readelf's own `N:` column,
    and whether they had line numbers."""
    if _symbols(rows[:outline.JUDGED_ROWS]):
        return rows, False
    return outline.bodies(rows), outline.numbered(rows[:outline.JUDGED_ROWS])


def looks_like(sample: list[str], tool: Tool) -> bool:
    """Most lines are nm's or readelf's symbols, or an objdump disassembly (its labels)."""
    rows, _ = _bodies(sample)
    if _symbols(rows):
        return True
    return (any(row.startswith(_SECTION[0]) for row in rows)
            and sum(1 for row in rows if _LABEL.match(row)) >= 3)


def _entry(row: str) -> tuple[int, str] | None:
    """A row's level and its name (demangled, it may hold spaces; "" for a header), or None."""
    if row.startswith(_SECTION):
        return 0, ""
    nm = _NM.match(row)
    if nm:
        level = _NM_ORDER.get(nm["type"], _NM_LAST - 1) if nm["type"] != "U" else _NM_LAST
        return level, row[nm.end() - 1:].rstrip(">:")
    elf = _READELF.match(row)
    if elf:
        if elf["ndx"] in ("UND", "ABS"):  # imported; a version node (nm's `A`)
            level = _NM_LAST if elf["ndx"] == "UND" else 0
        elif elf["bind"] == "GLOBAL":
            level = 1 if elf["type"] == "FUNC" else 2
        else:
            level = 3 if elf["bind"] == "WEAK" else 4
        return level, row[elf.end():].rstrip(">:")
    dynamic = _OBJDUMP_T.match(row)
    if dynamic:
        if dynamic["section"] == "*UND*":
            level = _NM_LAST
        elif "w" in dynamic["flags"]:
            level = 3
        else:
            level = 1 if "F" in dynamic["flags"] else 2
        return level, dynamic["name"]
    label = _LABEL.match(row)
    if label:
        return 2 if "@plt" in label["name"] else 1, row[label.start("name"):].rstrip(">:")
    return None


def entries(rows: list[str]) -> list[tuple[int, float]]:
    """(line, level): within a level of symbols, the shorter names first (a library's core
    calls, `SSL_write`, before its variants, `SSL_CTX_set_client_cert_engine`). The import
    requiring the newest version of each library it names (`fcntl64@GLIBC_2.28`: what a
    "version `GLIBC_2.28' not found" on an older system is about) comes with the headers."""
    found = []
    newest: dict[str, tuple[tuple[int, ...], int]] = {}  # family -> (version, its first row)
    for index, row in enumerate(rows):
        entry = _entry(row)
        if entry is not None:
            level, name = entry
            length = min(len(name.split("@", 1)[0]), _NAME_CHARS)
            found.append((index, level + length / (_NAME_CHARS + 1)))
            if level == _NM_LAST and (required := _REQUIRED.search(row)):
                version = tuple(int(part) for part in required["version"].split("."))
                if version > newest.get(required["family"], ((), 0))[0]:
                    newest[required["family"]] = version, index
    firsts = {index for _, index in newest.values()}
    return [(index, 0.5 if index in firsts else level) for index, level in found]


def plan(text: str, lines: Lines, budget: int, counter: Counter, tool: Tool) -> Plan | None:
    rows, is_numbered = _bodies(list(lines))
    return outline.plan("other", "symbols and labels", text, lines, budget, counter,
                        entries(rows), deeper_after_a_miss=True, is_numbered=is_numbered)
