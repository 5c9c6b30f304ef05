"""Search definition sites declared after modifiers (issue #22, class 4): Java, C#, PHP, Kotlin
and TypeScript members (`protected $children = array();`, `public static void main(…) {`) are
definitions; a loop or a lock over a name (`foreach ($this->children as $child) {`,
`synchronized (lock) {`) is none. Real output: tests/real/ (see its README)."""

from __future__ import annotations

from pathlib import Path

import pytest

from headroom_cli.api import compress
from headroom_cli.planners.search.sites import DERIVED, rank

REAL = Path(__file__).parent / "real" / "rg-n-children-vfsstream-php.txt"


def _bodies() -> list[str]:
    return [line.split(":", 2)[2] for line in REAL.read_text().splitlines()]


def test_a_property_declared_after_its_visibility_is_a_definition_site():
    declared = [body for body in _bodies() if body.lstrip().startswith("protected $children")]
    assert len(declared) == 2
    for body in declared:
        assert rank(body, frozenset({"children"}), aside=False) is not None, body


def test_a_loop_over_the_name_is_no_definition_site():
    loops = [body for body in _bodies() if body.lstrip().startswith("foreach (")]
    assert len(loops) == 4
    for body in loops:
        assert rank(body, frozenset({"children"}), aside=False) is None, body


def test_a_parameter_is_not_the_member_a_constructor_declares():
    (body,) = [body for body in _bodies() if "__construct(" in body]
    assert rank(body, frozenset({"children"}), aside=False) is None
    assert rank(body, frozenset({"__construct"}), aside=False) is not None


@pytest.mark.parametrize("line,name", [
    # declarations as each language writes them (a Java entry point and serial id, a Kotlin
    # Android activity's override, a C# auto-property)
    ("    public static void main(String[] args) {", "main"),
    ("    private static final long serialVersionUID = 362498820763181265L;", "serialversionuid"),
    ("    override fun onCreate(savedInstanceState: Bundle?) {", "oncreate"),
    ("    public string Name { get; set; }", "name"),
    ("    private readonly cache: Map<string, Entry>;", "cache"),  # the type after a colon
    ('pub const DEFAULT_SHELL: &str = "sh";', "default_shell"),
])
def test_members_of_other_languages_are_definition_sites(line, name):
    assert rank(line, frozenset({name}), aside=False) is not None


@pytest.mark.parametrize("line,name", [
    ("        synchronized (lock) {", "lock"),
    ("        lock (balanceLock) {", "balancelock"),
    ("        when (state) {", "state"),
    ("        using (var reader = new StreamReader(path)) {", "reader"),
])
def test_a_block_over_a_name_is_no_definition_site(line, name):
    assert rank(line, frozenset({name}), aside=False) is None


@pytest.mark.parametrize("line,name", [
    ("    private readonly cache: Map<string, Entry>;", "map"),
    ('pub const DEFAULT_SHELL: &str = "sh";', "str"),
    ("    private final Map<String, Option> longOpts = new LinkedHashMap<>();", "map"),
])
def test_a_members_type_is_not_what_it_declares(line, name):
    assert rank(line, frozenset({name}), aside=False) is None


def test_the_clipped_search_shows_the_declarations_first(counter):
    """At a budget too small for every match, the two declarations of the property are among
    the lines kept, and no loop is kept as if it defined the name: a loop shown is shown in
    its turn, after every match above it in its file."""
    raw = REAL.read_text()
    out = compress(raw, tool="Grep", budget=500, counter=counter).text
    assert counter.count(out) <= 500
    assert "protected $children = array();" in out and "protected $children;" in out
    shown = set(out.splitlines())
    matches = raw.splitlines()
    for index, line in enumerate(matches):
        if "foreach (" in line and line in shown:
            path = line.split(":", 1)[0]
            above = [m for m in matches[:index] if m.startswith(path + ":")]
            assert set(above) <= shown, line


JAVA = Path(__file__).parent / "real" / "rg-n-hasArg-commons-cli-1.11.0-rc1.txt"


def test_a_java_method_declared_after_its_return_type_is_kept(counter):
    """`public boolean hasArg() {`, the accessor every caller of the 254 matches reads, is a
    definition (its return type before its name once hid it)."""
    out = compress(JAVA.read_text(), tool="Grep", budget=1000, counter=counter).text
    assert counter.count(out) <= 1000
    assert "Option.java:754:    public boolean hasArg() {" in out


LUA = Path(__file__).parent / "real" / "rg-n-lua_pushinteger-lua-53b41d0c.txt"


def test_a_c_function_defined_after_its_return_type_is_kept(counter):
    """`LUA_API void lua_pushinteger (lua_State *L, lua_Integer n) {` among 102 calls: the one
    definition, kept at a budget that shows a few lines of each file."""
    out = compress(LUA.read_text(), tool="Grep", budget=500, counter=counter).text
    assert counter.count(out) <= 500
    assert "lapi.c:530:LUA_API void lua_pushinteger (lua_State *L, lua_Integer n) {" in out


@pytest.mark.parametrize("line,name,site", [
    ("static int parse_args(int argc, char **argv)", "parse_args", True),
    ("local function helper(x)", "helper", True),  # Lua
    ("lua_pushinteger(L, n);", "lua_pushinteger", False),  # a call
    ("return luaL_error(L, msg);", "lual_error", False),
    ("export default connect(mapState)(Component)", "connect", False),
])
def test_a_function_at_the_margin_is_told_from_a_call(line, name, site):
    assert (rank(line, frozenset({name}), aside=False) is not None) == site


def test_a_class_after_its_modifiers_defines_itself_and_derives_from_its_base():
    line = "public class MissingArgumentException extends ParseException {"  # Commons CLI's
    assert rank(line, frozenset({"missingargumentexception"}), aside=False)[0] == 0
    assert rank(line, frozenset({"parseexception"}), aside=False)[0] == DERIVED
