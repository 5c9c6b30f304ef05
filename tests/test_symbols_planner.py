"""Symbol tables and disassembly (planners/symbols.py): what a library defines before what it
imports, every function's label before any instruction, on real outputs in tests/outputs:

- objdump-d-libuuid1-2.38.1.txt: `objdump -d --no-show-raw-insn` (GNU binutils 2.40) of
  Debian bookworm's libuuid1 2.38.1-5+deb12u3 /usr/lib/x86_64-linux-gnu/libuuid.so.1;
- nm-D-libuuid1.txt: `nm -D` of the same library;
- readelf-ws-libffi8.txt: `readelf -Ws` of libffi8 3.4.4-1's libffi.so.8.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from headroom_cli.api import compress
from headroom_cli.plan import Lines
from headroom_cli.sniff import sniff
from headroom_cli.tools import lookup

OUTPUTS = Path(__file__).parent / "outputs"


def _read(name: str) -> str:
    return (OUTPUTS / name).read_text()


def _outlined(out: str, rows: list[str] = ()) -> str:
    """The outline: after its header, before the tail (the input's last lines, as they are)."""
    listed = out.split("[outline of the omitted lines", 1)[1].splitlines()
    tail = 0
    while (tail < len(listed) and rows
           and listed[len(listed) - 1 - tail] == rows[len(rows) - 1 - tail]):
        tail += 1
    return "\n".join(listed[:len(listed) - tail])


def test_a_disassembly_keeps_every_section_and_function_label(counter):
    text = _read("objdump-d-libuuid1-2.38.1.txt")
    assert sniff(Lines(text), lookup("Bash")) == "other"
    out = compress(text, tool="Bash", budget=1500, counter=counter).text
    assert counter.count(out) <= 1500
    rows = text.splitlines()
    for row in rows:
        if row.startswith("Disassembly of section ") or (
                re.fullmatch(r"[0-9a-f]{16} <[^>]+>:", row) and "@plt" not in row):
            assert row in out, row
    instructions = [row for row in _outlined(out).splitlines()
                    if re.match(r"\s*\d+\t\s+[0-9a-f]+:\t", row)]
    assert not instructions


@pytest.mark.parametrize("name, defined, imported", [
    ("nm-D-libuuid1.txt", r"[0-9a-f]{16} T ", r" {16} U "),
    ("readelf-ws-libffi8.txt", r"\s*\d+: .* FUNC +GLOBAL +DEFAULT +\d+ ", r"\s*\d+: .* UND "),
])
def test_a_symbol_table_lists_what_it_defines_before_what_it_imports(counter, name, defined,
                                                                     imported):
    """But for the import requiring the newest version of each library it names."""
    text = _read(name)
    assert sniff(Lines(text), lookup("Bash")) == "other"
    rows = text.splitlines()
    defines = [row for row in rows if re.match(defined, row)]
    imports = [row for row in rows if re.match(imported, row)]
    assert defines and imports
    newest = {}  # the import requiring the newest version of each library comes early
    for row in imports:
        if m := re.search(r"[@(]([A-Z][A-Z_]*?)_(\d+(?:\.\d+)*)\b", row):
            version = tuple(map(int, m[2].split(".")))
            if version > newest.get(m[1], ((),))[0]:
                newest[m[1]] = version, row
    imports = [row for row in imports if row not in {row for _, row in newest.values()}]
    for budget in (500, 650, 800):
        out = compress(text, tool="Bash", budget=budget, counter=counter).text
        assert counter.count(out) <= budget
        listed = _outlined(out, rows)
        assert sum(row in out for row in [*defines, *(row for _, row in newest.values())]) >= 5
        if any(row in listed for row in imports):  # what the defined left (a short import
            assert sum(row in out for row in defines) >= 0.8 * len(defines), budget  # fits)


@pytest.mark.parametrize("name", ["d2-objdump-sqlite-dynsyms", "readelf-ws-dynsym-libsqlite3"])
def test_the_import_requiring_the_newest_glibc_is_kept(name, counter):
    """`objdump -T` and `readelf -Ws --dyn-syms` of libsqlite3 (real): of the hundreds of
    imports, the one requiring the newest GLIBC version is what a "version `GLIBC_2.34' not
    found" on an older system is about; it comes with the headers, at 500 tokens too. objdump
    -T's rows are read as symbols: the functions it defines before what it imports."""
    text = (Path(__file__).parent / "corpus" / name / "output.txt").read_text()
    rows = text.splitlines()
    required = [(tuple(map(int, m[1].split("."))), row) for row in rows
                if "UND" in row and (m := re.search(r"GLIBC_(\d+(?:\.\d+)*)", row))]
    newest = max(version for version, _ in required)
    out = compress(text, tool="Bash", budget=500, counter=counter).text
    assert counter.count(out) <= 500
    assert any(row in out for version, row in required if version == newest)
    if name.startswith("d2-objdump"):
        listed = compress(text, tool="Bash", budget=2000, counter=counter).text.splitlines()
        shown = [line for line in listed if " .text\t" in line or "*UND*" in line]
        assert sum(1 for line in shown if "*UND*" not in line) > len(shown) // 2
