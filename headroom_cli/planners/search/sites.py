"""Definition sites of the searched symbol: which matched lines define what the search looked
for, told from the output alone (the pattern is not known to a filter), and in what order they
are worth showing.

The symbol is what the matched lines share: the identifiers found in at least half of them
(`select` for `rg 'select\\('`, `req` for `grep 'req\\.'`), words that spell a definition or an
object (`def`, `class`, `self`) aside. A definition site is a matched line that DEFINITION reads
as a definition whose head — the part before its parameters, body or value — names the symbol:
`def select(`, `class BaseModel(`, `req.get =`, `impl FromStr for Version {`; not
`x = select(…)` nor `class Foo(BaseModel)`. A search whose lines share no such word (`rg 'def '`,
`rg 'func New'`: the pattern is the definition keyword) takes every definition as a site, and
then those the output's tests are named after (`def test_format_str…` → `def format_str(`),
the package's entry module (`__init__.py`, `index.js`, `lib.rs`, `main.go`, a file named after
its folder) and public names come first: that is the surface a reader is after.
"""

from __future__ import annotations

from typing import NamedTuple

from ...patterns import lazy
from ..pathclass import machine_made
from .signals import DEFINITION, FileHits

_IDENT = lazy(r"[A-Za-z_$][\w$]*")
# Words a definition, a declaration or a method body spells: never what was searched for.
_WORDS = frozenset(
    "def class function func fn interface struct enum trait impl module macro sub type export "
    "default pub async static const let var self this cls".split())
SYMBOL_SHARE = 0.5  # of the matched lines that hold a word, for the word to be the symbol
_MIN_SYMBOL = 3  # shorter shared words (`t`, `e`, `if`) say nothing about the search
_SAMPLE = 4000  # matched lines read for the symbol and for rare words, evenly spaced over a flood
_JUDGED = 400  # characters of a matched line read (a minified line is judged on its start)
# Where the head of a definition ends: its parameters (a word then `(`), body, value or type.
_HEAD_END = lazy(r"\w\(|[{=:;]")
# Folders and names that hold tests, documentation and examples: they quote and exercise
# definitions more than they make them (the names: `test_*`, `*_test.py`, `*.test.ts`, `*.spec.ts`).
_ASIDE_FOLDERS = frozenset({"test", "tests", "testing", "testdata", "__tests__", "spec", "specs",
                            "doc", "docs", "example", "examples", "fixture", "fixtures"})
_ASIDE_STEMS = ("_test", ".test", ".spec")
# A matched line's end, also inside rg --json's text (`…;\\n"}`).
_LINE_END = r"\s*(?:$|\\n\")"
# A statement alone on its line (`return`, `pass`, Ruby's `end`): no name an entry lists.
_STATEMENTS = frozenset("return pass break continue raise yield end fi done esac else begin".split())
_STATEMENT = "(?:" + "|".join(sorted(_STATEMENTS)) + ")"
# Where a package's entry module takes a public name from one of its own modules, or lists
# it among its exports (the `'BaseModel',` entries of its `__all__`; a name alone on its line,
# an entry of a list spread over lines: `export {` … `  AxiosError,`, `pub use x::{` …).
_REEXPORT = lazy(rf"from\s+\.[\w.]*\s+import\s|['\"][\w.]+['\"],?{_LINE_END}"
                 rf"|(?!{_STATEMENT}{_LINE_END})[\w$]+,?{_LINE_END}")
# An export wherever it is: the line says so itself (`__all__ = …`, `pub use`,
# `export … from`, `module.exports`, a module's `export default Name;`).
_EXPORT = lazy(r"__all__\s*[+:]?=|pub(?:\([^)]*\))?\s+use\s"
                     r"|export\s+(?:\*|\{[^}]*\}|type\s)[^;]*?\sfrom\s|export\s+\*\s+as\s"
                     r"|(?:module\.)?exports(?:\.[\w$]+)?\s*=(?!=)"
                     rf"|export\s+(?:default|=)\s+[\w$.]+\s*;?{_LINE_END}")
# A value stored under its own name (`self.environment = environment`, `this.req = req;`): a
# constructor's plumbing, which defines nothing a reader looks up.
_STORED = lazy(rf"(?:[\w$]+\.)+([\w$]+)\s*=\s*\1\s*[;,]?{_LINE_END}")
# A method declared by its name alone (JavaScript's and TypeScript's classes, Java, C#):
# `  parseOptions(args) {`, `  addCommand(cmd: Command, opts?: CommandOptions): this;`, the
# parameters then a body's brace, or a return type then a brace or a declaration's end (a
# call, `parseOptions(args);`, has no type), then the line's end.
_METHOD = lazy(r"(?:(?:public|private|protected|static|async|override|get|set|abstract)\s+)*"
               rf"([\w$]+)\s*\([^()]*\)\s*(?:\{{|:\s*[^=;{{}}()]+[{{;]){_LINE_END}")
_CONTROL = frozenset("if for while switch catch return function new typeof await with elif "
                     "else do super this foreach synchronized lock using when try elseif "
                     "unless until fixed sizeof match".split())
# A member declared after its modifiers (Java, C#, PHP, Kotlin, TypeScript): `public static
# void main(String[] args) {`, `protected $children = array();`, `private final Map<String,
# Object> children = new HashMap<>();`, `public List<Node> Children { get; set; }`, `override
# fun onCreate(`, `val children: List<Node> = …`, `const DEFAULT: &str = "sh";`. The name
# declared is the first word followed by its parameters, its value, its body, its type's colon
# (TypeScript, Kotlin, Rust) or the line's end (a Java or C# type comes before it).
_MODIFIERS = (r"(?:(?:public|private|protected|internal|static|final|abstract|readonly|override"
              r"|virtual|sealed|const|volatile|transient|synchronized|native|open|lateinit"
              r"|suspend|inline|extern|unsafe|partial|async|fun|val)\s+)+")
_MEMBER = lazy(rf"({_MODIFIERS})[^=;(){{}}]*?\$?([A-Za-z_]\w*)\s*(?:[(;={{]|:(?!:)|{_LINE_END})")
# A function defined at the margin after its return type (C and its kin, Lua's `local
# function`): `LUA_API void lua_pushinteger (lua_State *L, lua_Integer n) {`, `static int
# parse_args(int argc, char **argv)`, a header's `LUA_API int (lua_gettop) (lua_State *L);`. A
# few words of type, no value (`=`), then the name and its parameters; a line opening with a
# statement's word (`return f(x);`, `else g();`, `export default connect(…)`, SQL's `INSERT
# INTO t (a, b)`) is no definition.
_FUNCTION = lazy(r"(?:[A-Za-z_]\w*[ \t*&]+){1,4}\(?([A-Za-z_]\w*)\)?[ \t]*\(")
_NOT_A_TYPE = _CONTROL | _STATEMENTS | frozenset(
    "export default import from assert del print puts require case goto throw delete not and or "
    "in is echo insert select update call exec values where".split())
# A class that may derive from another (`class User(BaseModel):`, `class A extends B`,
# `struct A : B`): its own name ends the head, its bases follow.
_SUBCLASS = lazy(r"(?:export\s+)?(?:default\s+)?(?:abstract\s+)?(?:class|interface|struct)"
                       r"\s+[\w$.\[\]]+\s*(?:\(|\bextends\b|\bimplements\b|:)")
# Documents: they show the symbol used the way a reader would use it (in a docs folder, by
# their ending, a README).
_DOC_FOLDERS = frozenset({"doc", "docs"})
_DOC_ENDINGS = (".md", ".rst", ".txt", ".adoc", ".ipynb")
_DOC_NAMES = ("README", "PKG-INFO")
# Ranks after the definitions (0: naming the symbol exactly, 1: inside a longer word).
EXPORTED, DERIVED, USED_IN_DOCS = 2, 3, 4
# A line that defines by its keyword (its indent, then DEFINITION): in a flood (no symbol)
# no other line is a site (a method or member declared without a keyword, which rank() reads
# too, is not asked for there): lines and files without one are passed over before they are
# ranked (or their path classed).
_DEFINES = lazy(rf"\s*+(?:{DEFINITION.pattern})")
# A folder whose modules are the package's private ones (Go's `internal/`, Python's
# `_internal/`, `_impl/`): their definitions are no public name, as `def _helper` is none.
# A package's entry module: one of these stems, or a stem that repeats its folder's name.
_ENTRY_STEMS = frozenset({"__init__", "index", "main", "lib", "mod", "core", "app", "cli"})
_SEPARATOR = lazy(r"[/\\]")
_WORD = lazy(r"\w+")


class PathClass(NamedTuple):
    """What a path's spelling says of its definitions (see definition_sites): told with string
    operations on its folders and name, for thousands of paths."""

    aside: bool  # a test's, a document's or an example's
    entry: bool  # a package's entry module
    document: bool
    internal: bool  # in a package's private folder


def path_class(path: str) -> PathClass:
    parts = path.split("/") if "\\" not in path else _SEPARATOR.split(path)
    folders, name = parts[:-1], parts[-1]
    stem, dot, ending = name.rpartition(".")
    # `name.ext`, ext a word (most often letters and digits: no match needed)
    extended = bool(dot) and (ending.isalnum() or _WORD.fullmatch(ending) is not None)
    return PathClass(
        not _ASIDE_FOLDERS.isdisjoint(folders) or name.startswith("test_")
        or extended and stem.endswith(_ASIDE_STEMS),
        extended and (stem in _ENTRY_STEMS or bool(folders) and stem == folders[-1] != ""),
        not _DOC_FOLDERS.isdisjoint(folders) or path.endswith(_DOC_ENDINGS)
        or name.startswith(_DOC_NAMES),
        "internal" in folders or "/_" in "/" + "/".join(folders))  # a folder `_private/`


def symbols(texts: list[str]) -> frozenset[str]:
    """The identifiers (lower-cased) in at least SYMBOL_SHARE of the matched texts."""
    texts = _evenly(texts)
    tally = _tally(_words(text) for text in texts)
    least = SYMBOL_SHARE * len(texts)
    return frozenset(word for word, seen in tally.items() if seen >= least and _telling(word))


def _evenly(items: list) -> list:
    """At most _SAMPLE of the items, evenly spaced over them."""
    if len(items) <= _SAMPLE:
        return items
    step = len(items) / _SAMPLE
    return [items[int(k * step)] for k in range(_SAMPLE)]


def _words(text: str, start: int = 0) -> set[str]:
    """The identifiers (lower-cased) of a matched text's first _JUDGED characters from start."""
    return {w.lower() for w in _IDENT.findall(text, start, start + _JUDGED)}


def _tally(word_sets) -> dict[str, int]:
    """In how many of the sets each word is."""
    tally: dict[str, int] = {}
    for words in word_sets:
        for word in words:
            tally[word] = tally.get(word, 0) + 1
    return tally


def _telling(word: str) -> bool:
    """Long enough to say something, and no word a definition spells."""
    return len(word) >= _MIN_SYMBOL and word not in _WORDS


def rank(body: str, symbols: frozenset[str], aside: bool, entry_module: bool = False,
         document: bool = False) -> tuple[int, int, int] | None:
    """A matched text's rank as a definition site of the symbols (lower first): one naming a
    symbol exactly before one naming it inside a longer word, top-level before nested, outside
    tests and docs before inside; after both, where the symbol is exported (a package's
    re-export in its entry module: `from .templating import render_template`, `__all__`,
    `pub use`, `export … from`, `module.exports`), then a class derived from it
    (`class User(BaseModel):`), then a document's use of it; None when it is no site."""
    judged = body[:_JUDGED]
    stripped = judged.lstrip()
    nested = int(len(stripped) != len(judged))
    stripped = _declared(stripped, nested, document)
    if not DEFINITION.match(stripped) or _STORED.match(stripped):
        tier = _beyond_definition(stripped, symbols, entry_module, document)
        return None if tier is None else (tier, nested, int(aside))
    exact = 0
    if symbols:
        end = _SUBCLASS.match(stripped) or _HEAD_END.search(stripped)
        head = (stripped[:end.end()] if end else stripped).lower()
        words = set(_IDENT.findall(head))
        if words & symbols:
            exact = 0
        elif any(symbol in head for symbol in symbols):
            exact = 1
        else:
            tier = _beyond_definition(stripped, symbols, entry_module, document)
            return None if tier is None else (tier, nested, int(aside))
        if nested and exact == 0:
            # An assignment inside a body (`environment = enum.auto()`, `x["environment"] =
            # …`) names the symbol less than a top-level definition naming it in a longer word
            # (`def pass_environment(`): it ranks with those, after them.
            first = _IDENT.match(stripped)
            exact = int(first is None or first[0] not in _WORDS)
            if exact and aside:
                return None  # a test's fixture (`req.counter = 0` inside a test): no site
    return exact, nested, int(aside)


def _declared(stripped: str, nested: int, document: bool) -> str:
    """A line as DEFINITION reads it: a method declared without a keyword as one; outside
    documents (prose: `static analysis (…`), a member without its modifiers when what is left
    defines by its keyword (`public class Foo extends Bar {`: its class), else from the name it
    declares (`def main(String[] args) {`), and a function at the margin from its name."""
    if (method := _METHOD.match(stripped)) and method[1] not in _CONTROL:
        return "def " + stripped
    if document:
        return stripped
    if member := _MEMBER.match(stripped):
        rest = stripped[member.end(1):]
        if DEFINITION.match(rest) or _SUBCLASS.match(rest):
            return rest
        return "def " + stripped[member.start(2):]
    function = None if nested else _FUNCTION.match(stripped)
    if function is None or DEFINITION.match(stripped) or _SUBCLASS.match(stripped) \
            or _IDENT.match(stripped)[0].lower() in _NOT_A_TYPE:  # (`INSERT INTO t (`)
        return stripped
    return "def " + stripped[function.start(1):]


def _beyond_definition(stripped: str, symbols: frozenset[str], entry_module: bool,
                       document: bool) -> int | None:
    """The tier of a line that names the symbol without defining it, or None."""
    if not symbols or not symbols & {w.lower() for w in _IDENT.findall(stripped)}:
        return None
    if _EXPORT.match(stripped) or entry_module and _REEXPORT.match(stripped):
        return EXPORTED
    if _SUBCLASS.match(stripped):
        return DERIVED
    return USED_IN_DOCS if document else None


def entry(path: str) -> bool:
    """Whether a path is a package's entry module."""
    return path_class(path).entry


_NAMESAKE_LEAST = 3  # letters of a module's name for a definition named after it


def namesake_of(path: str) -> str:
    """The name (lower-cased) a module's own definitions end with, its public face: its file
    name's stem (`build` of `build.ts`, `loadEnv` of `env.ts`), an entry module's folder
    (`createServer` of `server/index.ts`); "" when too short to tell."""
    parts = path.replace("\\", "/").split("/")
    stem = parts[-1].partition(".")[0]
    if stem in _ENTRY_STEMS and len(parts) > 1:
        stem = parts[-2]
    stem = stem.lstrip("_").lower()
    return stem if len(stem) >= _NAMESAKE_LEAST else ""


def name(body: str) -> str:
    """A definition's name: its first word that is no keyword, past a Go method's receiver
    (`func (c *Context) JSON(` names JSON, not c)."""
    start = 0
    if (receiver := _RECEIVER.match(body)) is not None:
        start = receiver.end()
    for word in _IDENT.finditer(body, start, _JUDGED):  # most often the first or second word
        if word[0] not in _WORDS:
            return word[0]
    return ""


# A Go method's receiver, between `func` and the method's name.
_RECEIVER = lazy(r"\s*func\s*\([^()]*\)")


def private(body: str) -> bool:
    """Whether a definition's name is private by convention (`def _helper`)."""
    return name(body).startswith("_")


_TEST_NAME = lazy(r"(?:def|func|function|fn)\s+[Tt]est_?([A-Za-z]\w*)")
_PART = lazy(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")


def _tests_naming(texts: list[str]) -> dict[str, int]:
    """The names the tests name (`def test_format_str_basic`: format, format_str, str…),
    lower-cased, with and without separators, and how many tests name each: a definition its
    tests are named after is the package's API, the more tests the more so (`test_option_*`
    fourteen times, `test_pass_obj` once)."""
    found: dict[str, int] = {}
    if not any("test" in text or "Test" in text for text in texts):
        return found  # no test's name (most searches): not searched for text by text
    for text in texts:
        m = _TEST_NAME.search(text, 0, _JUDGED)
        if not m:
            continue
        parts = [p.lower() for p in _PART.findall(m.group(1))]
        names = set()
        for start in range(len(parts)):
            for end in range(start + 1, min(len(parts), start + 4) + 1):
                names.add("_".join(parts[start:end]))
                names.add("".join(parts[start:end]))
        for one in names:
            found[one] = found.get(one, 0) + 1
    return found


def aside(path: str) -> bool:
    """Whether a path is a test's, a document's or an example's."""
    return path_class(path).aside


def definition_sites(files: list[FileHits], rows: list[str]) -> list[tuple[int, int]]:
    """(file position in `files`, line index) of every definition site, best first: by rank,
    then round by round over the files (each file's best site, then each one's next), then in
    input order. Every site of the project's own files comes before any of a vendored,
    built or generated file's (pathclass.machine_made): those define someone else's code, or
    copy the project's."""
    texts = [rows[i][f.text_start[i]:] for f in files for i in f.matches]
    wanted = symbols(texts)
    tested = {} if wanted else _tests_naming(texts)
    defines = _DEFINES.match
    found = []
    for position, hits in enumerate(files):
        if hits.folder:
            continue
        lines = hits.matches
        if not wanted:  # a flood: only definitions are sites (most lines, most files: none)
            starts = hits.text_start
            lines = [i for i in lines if defines(rows[i], starts[i], starts[i] + _JUDGED)]
            if not lines:
                continue
        spelled = path_class(hits.path)
        side, front, document = spelled.aside, spelled.entry, spelled.document
        outer = int(not front)
        inner = spelled.internal
        machine = int(machine_made(hits.path))
        ranked = []
        if wanted:
            for i in lines:
                body = rows[i][hits.text_start[i]:]
                if (r := rank(body, wanted, side, front, document)) is not None:
                    ranked.append(((machine, *r), i))
        else:  # a flood: names the tests are named after, the module's namesake, the
            # entry module, public. Every line left is a definition (_DEFINES), which rank()
            # would rank (0, nested, aside) with no symbol: no need to ask it again.
            stem = namesake_of(hits.path)
            bare_stem = stem.replace("_", "")
            # Go tells a private name by its small first letter, as Python by its `_`.
            lower_private = hits.path.endswith(".go")
            called_at = [name(rows[i][starts[i]:]) for i in lines]
            for at, i in enumerate(lines):
                body = rows[i][starts[i]:]
                called = called_at[at]
                lowered = called.lower()
                depth = _depth(body)
                # Overloads (Python's @overload, TypeScript's signatures) come before the
                # definition with the body: a name defined again by the file's next site is
                # that one's stub.
                stub = at + 1 < len(lines) and called_at[at + 1] == called != ""
                hidden = int(inner or called.startswith("_") or stub
                             or lower_private and called[:1].islower())
                # The module's own name (`def build` in build.ts, `class Text` in text.py)
                # or a name its tests are named after: the name a reader comes for.
                named = int(not (lowered in tested or bare_stem != ""
                                 and lowered.replace("_", "") == bare_stem))
                ranked.append(((int(depth > 1), hidden, named, outer, depth,
                                0 if front else -tested.get(lowered, 0),
                                int(not stem or not lowered.endswith(stem))), i))
            ranked.sort()
            # One site a file before a second of any (round by round), the project's own
            # public top-level names first, the files that define the most (the central
            # modules of the flood) before the others in each round. An entry module's
            # public top-level names are the package's surface: all of them are in the first
            # round, entry modules in the output's order (their role, not their count, is
            # what makes them matter).
            found += [((machine, int(side), r[0], r[1],
                        0 if front and r[:2] == (0, 0) and r[4] == 0 else nth,
                        *r[2:], 0 if front else -hits.count), nth, position, i)
                      for nth, (r, i) in enumerate(ranked)]
            continue
        ranked.sort()
        found += [(r, nth, position, i) for nth, (r, i) in enumerate(ranked)]
    found.sort()
    return [(position, i) for _, _, position, i in found]


_METHOD_INDENT = 4  # columns (a tab counts as 4) of a class's method; deeper is nested further


def _depth(body: str) -> int:
    """0 for a top-level definition, 1 for a method (indented one level, or a Go method,
    declared with its receiver), 2 for one nested deeper (a decorator's inner function, a
    closure): the further in, the less it is a name a reader looks up."""
    if not body[:1].isspace():
        return int(_RECEIVER.match(body) is not None)  # a Go method is one level in
    indent = body[:len(body) - len(body.lstrip())].replace("\t", "    ")
    return 1 if len(indent) <= _METHOD_INDENT else 2


RARE_MOST = 1  # a word in at most this many matched lines sets its line apart


def distinctive_lines(files: list[FileHits], rows: list[str]) -> list[tuple[int, int]]:
    """(file position, line index) of matched lines holding a word no other matched line holds
    (`raise BrokenStdoutLoggingError()` among thirty-five `raise CommandError(`), after the
    definition sites: what sets one match apart when the search defines nothing. Never a
    test's, a document's or an example's (their fixtures' words are rare by nature); the
    project's own files before machine-made ones; one line a file round by round, then in
    input order. A flood is judged on an even sample of its lines (_SAMPLE)."""
    matched = _evenly([(position, i) for position, hits in enumerate(files) if not hits.folder
                       for i in hits.matches])
    words = [_words(rows[i], files[position].text_start[i]) for position, i in matched]
    seen = _tally(words)
    ranked = []
    nth: dict[int, int] = {}
    for (position, i), found in zip(matched, words):
        path = files[position].path
        if aside(path) or not any(seen[w] <= RARE_MOST and _telling(w) for w in found):
            continue
        nth[position] = nth.get(position, -1) + 1
        ranked.append((int(machine_made(path)), nth[position], position, i))
    ranked.sort()
    return [(position, i) for *_, position, i in ranked]
