"""The man page (man/headroom.1), in roff, from the CLI's own tree (docs_tree.py) and the facts
this module adds (why, the marker, environment, files, examples); docs_gen.py writes it."""

from __future__ import annotations

import inspect
import re
import textwrap
from pathlib import Path

from .docs_tree import (PROG, REGENERATE, blocks, default_of, envvars, fixed_values, is_group,
                        range_of, titled, walk)

# The man page's date: the release date of each version (a date that changes on every run would
# make the checked-in page stale at once). Add the new version's line when bumping it.
RELEASE_DATES = {"0.1.0": "2026-11-22"}
MAN_PAGE = "man/headroom.1"


# --------------------------------------------------------------------------- roff

def roff_escape(text: str) -> str:
    """Plain text → roff: backslashes, option dashes, non-ASCII as \\[uXXXX], `code` bold."""
    text = text.replace("\\", "\\e")
    # A dash that starts a word is an option or a minus sign, never a hyphen.
    text = re.sub(r"(?<![\w.])-[\w-]*", lambda m: m.group().replace("-", "\\-"), text)
    text = re.sub(r"`([^`]+)`", r"\\fB\1\\fR", text)
    return "".join(char if ord(char) < 128 else f"\\[u{ord(char):04X}]" for char in text)


def roff_line(text: str) -> str:
    line = roff_escape(text)
    return "\\&" + line if line.startswith((".", "'")) else line


def roff_text(text: str) -> list[str]:
    """A paragraph, one sentence per line (roff fills them; a sentence end gets its space)."""
    sentences = re.split(r"(?<=[\w)\]'\"`][.!?])\s+(?=[A-Z`$(\[])", text.strip())
    return [roff_line(sentence) for sentence in sentences if sentence]


def roff_pre(text: str, indent: int = 4) -> list[str]:
    lines = [".RS %d" % indent, ".nf"]
    lines += [roff_line(line) if line.strip() else "" for line in text.split("\n")]
    # An empty line in no-fill mode is a blank line; roff wants it spelled as a request.
    lines = [line if line else ".sp" for line in lines]
    return lines + [".fi", ".RE"]


def roff_blocks(pieces: list[tuple[str, str]]) -> list[str]:
    lines = []
    for kind, text in pieces:
        lines.append(".PP")
        lines += roff_text(text) if kind == "text" else roff_pre(text)
    return lines


def roff_words(words: str) -> str:
    """A synopsis or option term: dashes-first words bold, the rest (metavars) italic."""
    out = []
    for word in words.split(" "):
        core = word.strip("[]{}.,|")
        if not core:
            out.append(roff_escape(word))
            continue
        start = word.index(core)
        style = "B" if core.startswith("-") else "I"
        out.append(roff_escape(word[:start]) + f"\\f{style}{roff_escape(core)}\\fR"
                   + roff_escape(word[start + len(core):]))
    return " ".join(out)


def option_entry(ctx, param) -> list[str]:
    record = param.get_help_record(ctx)
    if record is None:
        return []
    term = record[0]
    lines = [".TP", roff_words(term).replace(",\\fR", "\\fR,")]
    lines += roff_text(param.help or "") if getattr(param, "help", None) else []
    facts = []
    values = _values_fact(ctx, param)
    if values:
        facts.append(values)
    bounds = range_of(param)
    if bounds:
        facts.append(f"A number {bounds}.")
    default = default_of(param)
    if default is not None and default != "":
        facts.append(f"Default: `{default}`.")
    for envvar in envvars(param):
        facts.append(f"Environment: `{envvar}`.")
    if getattr(param, "required", False) and not param.param_type_name == "argument":
        facts.append("Required.")
    for fact in facts:
        lines.append(".br")
        lines += roff_text(fact)
    return lines


def argument_entry(ctx, param) -> list[str]:
    metavar = param.metavar or param.name.upper()
    lines = [".TP", f"\\fI{roff_escape(metavar)}\\fR"]
    lines += roff_text(getattr(param, "help", None) or "")
    values = _values_fact(ctx, param)
    if values:
        lines += [".br", *roff_text(values)]
    return lines


def _values_fact(ctx, param) -> str:
    values, exhaustive = fixed_values(ctx, param)
    if not values:
        return ""
    listed = ", ".join(f"`{value}`" for value in values)
    return f"One of: {listed}." if exhaustive else f"Known values (TAB completes them): {listed}."


def synopsis_forms(ctx) -> list[tuple[str, str]]:
    """(command path, what follows it): the root's own forms, or a leaf command's one."""
    command = ctx.command
    path = ctx.command_path
    forms = []
    params = [p for p in command.get_params(ctx) if p.param_type_name == "argument"]
    arguments = " ".join(p.metavar or p.name.upper() if p.required
                         else f"[{p.metavar or p.name.upper()}]" for p in params)
    if is_group(command):
        if ctx.parent is None:
            forms.append((path, "[OPTIONS]"))
            # The group's own metavar names what else may follow, e.g. `-- CMD [ARGS]...`.
            metavar = (command.subcommand_metavar or "").strip()
            if metavar.startswith("[") and metavar.endswith("]"):
                metavar = metavar[1:-1]
            for alternative in metavar.split(" | "):
                if alternative and not alternative.startswith("COMMAND"):
                    forms.append((path, f"[OPTIONS] {alternative}"))
    else:
        forms.append((path, "[OPTIONS]" + (f" {arguments}" if arguments else "")))
    return forms


def roff_synopsis(path: str, rest: str) -> str:
    return f"\\fB{roff_escape(path)}\\fR {roff_words(rest)}"


def _source_text() -> str:
    """All of headroom_cli's code but this file: what the environment section is checked
    against."""
    package = Path(__file__).resolve().parent
    return "\n".join(path.read_text(encoding="utf-8") for path in sorted(package.rglob("*.py"))
                     if path.name != "docs_gen.py")


def variables_in_code() -> set[str]:
    """Environment variables the code reads, or names as one of headroom's own (HEADROOM_*):
    each must be in the man page's ENVIRONMENT section."""
    source = _source_text()
    names = set(re.findall(r"(?<![A-Za-z0-9])(_?HEADROOM_[A-Z][A-Z0-9_]*)", source))
    names |= set(re.findall(r"(?:environ\.get|environ\[|getenv)\(?\s*[\"']([A-Z_][A-Z0-9_]*)",
                            source))
    return names


# --------------------------------------------------------------------------- the man page

WHY = (
    "Coding agents re-send their whole conversation on every turn. One 80,000-character grep "
    "or build log appended to that history is paid for again on every later turn, and "
    "rewriting history afterwards breaks the provider's prompt cache. The one safe moment to "
    "shrink a tool output is before it enters the history: that is where headroom sits, as a "
    "Unix filter. The same input and options always give byte-identical output (no clocks, "
    "random ids or temporary paths), so prompt caches keep hitting; output tokens never exceed "
    "the budget, the marker included; nothing is downloaded at run time.")

MARKER_TEXT = (
    "Whatever headroom drops is replaced by a marker that names what is missing in the model's "
    "currency, lines and tokens, and the concrete way back for the tool that produced the "
    "output. Line numbers are 1-based and inclusive, and count lines of the original output: "
    "cleaning (ANSI escapes, carriage-return redraws) never adds or removes a line. Token "
    "figures are prefixed `~`: exact for up to 200,000 dropped characters, extrapolated from a "
    "counted sample beyond that. When a wrapped command exited non-zero, the marker says so, "
    "so a failure is never hidden by a cut.")

MARKER_STORE = (
    "Clipped output is kept whole in the store (see FILES) under an id, the first 12 hex "
    "digits of the sha256 of the bytes, and the marker names it: `headroom show ID` with "
    "`--lines A:B`, `--grep PATTERN`, `--head N`, `--tail N` or `--bytes A:B` prints the part "
    "that was dropped, exactly as the command wrote it. Without the store (`--no-store`, "
    "`HEADROOM_STORE=off`) the marker says how to get the part again with the tool itself.")

ASCII_FALLBACK = {"\u2026": "...", "\u2013": "-", "\u2014": "--", "\u2212": "-", "\u00d7": "x",
                  "\u2192": "->", "\u00b7": "."}

# Variables that are not an option's envvar (those come from the options themselves).
ENVIRONMENT = (
    ("HEADROOM_STORE", "The store's directory (default `$XDG_STATE_HOME/headroom/store`); "
                       "`off` disables the store, as `--no-store` does."),
    ("HEADROOM_STORE_MAX_BYTES", "The store's size cap: bytes, or with a K, M or G suffix "
                                 "(binary units). Default: `{max_bytes}`."),
    ("HEADROOM_STORE_MAX_AGE_DAYS", "The store's age cap in days (fractions allowed). "
                                    "Default: `{max_age_days}`. A bad value in either cap is "
                                    "reported on stderr and the default used."),
    ("HEADROOM_CONFIG", "The config file (see FILES)."),
    ("HEADROOM_DIGEST_COMMAND", "A summarizer command (`llm -m gpt-4o-mini`): when a clip "
                                "omits 4,000 characters or more, it reads a prompt and up to "
                                "24,000 characters of the omitted part on stdin, and its reply "
                                "(at most 120 words) goes into the marker, labelled "
                                "model-written. Unset (the default): no digest. `--no-digest` "
                                "turns it off for one call."),
    ("HEADROOM_DIGEST_URL", "An OpenAI-compatible chat-completions URL to ask instead (a local "
                            "llama.cpp or vLLM server, say); the command wins when both are "
                            "set."),
    ("HEADROOM_DIGEST_MODEL", "The `model` the digest URL is asked for."),
    ("HEADROOM_DIGEST_TIMEOUT", "Seconds to wait for a digest (default `10`); past it, or on "
                                "any failure, the plain marker is printed."),
    ("HEADROOM_LEDGER", "`off` (or `0`, `false`, `no`) stops recording runs in the savings "
                        "ledger (see FILES), as the config file's `ledger = false` does. "
                        "Default: `on`."),
    ("HEADROOM_MCP_SKIP", "MCP servers (comma-separated names) whose tool outputs agent hooks "
                          "never clip; the config file's `[hooks] mcp_skip` list."),
    ("HEADROOM_READ_OVER", "Claude Code's Read: results over this many tokens keep their first "
                           "lines and get an outline of the rest (the config file's "
                           "`[hooks] read_over`; default `0`, never)."),
    ("XDG_CONFIG_HOME", "Where the config file is when `HEADROOM_CONFIG` is unset (default "
                        "`~/.config`)."),
    ("CLAUDE_CONFIG_DIR", "Claude Code's configuration directory: `headroom init claude` edits "
                          "its `settings.json` (default `~/.claude`)."),
    ("CLAUDE_PROJECT_DIR", "Set by Claude Code when it runs the hook: the project whose "
                           "`.claude` settings (permission rules) the hook honours."),
    ("CODEX_HOME", "Codex CLI's home: `headroom init codex` edits its `hooks.json` (default "
                   "`~/.codex`); `headroom audit` reads its `sessions`."),
    ("PI_CODING_AGENT_DIR", "pi's agent directory: `headroom init pi` writes "
                            "`extensions/headroom.ts` there (default `~/.pi/agent`)."),
    ("COPILOT_HOME", "GitHub Copilot CLI's home: `headroom init copilot` writes "
                     "`hooks/headroom.json` there (default `~/.copilot`)."),
    ("FACTORY_HOME_OVERRIDE", "Factory Droid's home directory (in place of HOME): `headroom "
                              "init droid` edits its `.factory/settings.json`."),
    ("PATH", "`headroom doctor` checks that the `headroom` first on it is this one, and "
             "looks for the agents' programs on it."),
    ("CRUSH_GLOBAL_CONFIG", "Crush's configuration directory: `headroom init crush` edits "
                            "its `crush.json` (default `~/.config/crush`)."),
    ("KILO_CONFIG_DIR", "Kilo CLI's configuration directory: `headroom init kilo` writes "
                        "`plugins/headroom.js` there (default `~/.config/kilo`)."),
    ("HERMES_HOME", "hermes-agent's home: `headroom init hermes` writes `plugins/headroom/` "
                    "there (default `~/.hermes`)."),
    ("QWEN_HOME", "Qwen Code's home: `headroom init qwen` edits its `settings.json` and "
                  "writes `headroom-shell-tool` beside it (default `~/.qwen`)."),
    ("XDG_STATE_HOME", "Where the store goes when `HEADROOM_STORE` is unset (default "
                       "`~/.local/state`)."),
    ("XDG_CACHE_HOME", "Where parsed tokenizer tables are cached (default `~/.cache`)."),
    ("XDG_DATA_HOME", "Where `headroom audit` finds opencode's and Kilo CLI's session "
                      "databases, `opencode/opencode.db` and `kilo/kilo.db` (default "
                      "`~/.local/share`)."),
    ("OPENCODE_DB", "opencode's session database, when not the default one (relative to "
                    "`$XDG_DATA_HOME/opencode`): `headroom audit` reads it."),
    ("KILO_DB", "Kilo CLI's session database, likewise (relative to `$XDG_DATA_HOME/kilo`)."),
    ("TMPDIR", "Where Claude Code's hook keeps a wrapped command's output until the filter "
               "reads and removes it (default `/tmp`)."),
    ("TIKTOKEN_CACHE_DIR", "tiktoken's cache, searched for the `o200k_base` data file "
                           "(never downloaded). `DATA_GYM_CACHE_DIR` is the older name."),
    ("DATA_GYM_CACHE_DIR", "Read when `TIKTOKEN_CACHE_DIR` is unset."),
    ("_HEADROOM_COMPLETE", "Set by the shell completion scripts: `source_bash`, `source_zsh` "
                           "or `source_fish` prints a script, `complete_SHELL` answers a TAB."),
)

# (path, meaning, a string the code must hold for the entry to be printed).
FILES = (
    ("$HEADROOM_STORE, else $XDG_STATE_HOME/headroom/store",
     "The store: one file per clipped output, named by its id, mode 0600 in a 0700 directory "
     "(tool output can hold secrets). Written atomically; pruned to the caps on every write. "
     "Nothing leaves the machine (unless a digest model you configure is remote). "
     "Default: `~/.local/state/headroom/store`.", "HEADROOM_STORE"),
    ("$HEADROOM_STORE/sessions",
     "Sessions' memory (`--session`, `HEADROOM_SESSION`, agent hooks): one JSON file per "
     "session (0600, in a 0700 folder), bounded, pruned with the store's age cap: each "
     "command's latest failures and the outputs already delivered.", "SESSIONS_DIR"),
    ("$XDG_STATE_HOME/headroom/ledger.sqlite3",
     "The savings ledger (SQLite): one row per clip and per `headroom show`, and one per "
     "call of a session, for `headroom stats`; outside a session, output that fitted its "
     "budget is not recorded. Default: "
     "`~/.local/state/headroom/ledger.sqlite3`.", "ledger.sqlite3"),
    ("$XDG_CACHE_HOME/headroom",
     "Parsed tokenizer tables, keyed by the data file's hash; safe to delete. Default: "
     "`~/.cache/headroom`.", "XDG_CACHE_HOME"),
)

EXAMPLES_EXTRA = (
    ("In CI: the build's own exit status, a log an agent (or a person) can read", (
        "headroom --budget 4000 -- make test",
        "npm test 2>&1 | headroom --tool Bash --budget 8000 > test-summary.txt",
    )),
    ("Agent setup by hand, for any agent: a line in its instructions (AGENTS.md, CLAUDE.md)", (
        "Run commands whose output may be long as `headroom -- CMD`, or pipe",
        "them through `headroom --tool Bash`; to see what a marker omitted, run",
        "the `headroom show` command it names.",
    )),
    ("Agent setup: one budget for every call in the agent's shell", (
        "export HEADROOM_BUDGET=2000",
    )),
)


CONFIG_PATH = "$HEADROOM_CONFIG, else $XDG_CONFIG_HOME/headroom/config.toml"


def _config_settings() -> dict:
    """Config file settings: dotted key → (environment variable, default), from config.py."""
    try:
        from .config import DEFAULTS, ENV
    except ImportError:  # no config file support
        return {}
    return {key: (ENV.get(key), _toml(value)) for key, value in DEFAULTS.items()}


def _toml(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "unset" if value is None else str(value)


def _config_example() -> str:
    """The example file config.py's docstring shows (its indented block with settings)."""
    from . import config

    lines = (config.__doc__ or "").split("\n")
    first = next((i for i, line in enumerate(lines) if re.match(r"    \w+\s*=", line)), None)
    if first is None:
        return ""
    block = []
    for line in lines[first:]:
        if line.strip() and not line.startswith("    "):
            break
        block.append(line)
    return textwrap.dedent("\n".join(block)).strip("\n")


def _format_caps() -> dict:
    from .store import DEFAULT_MAX_AGE_DAYS, DEFAULT_MAX_BYTES

    return {"max_bytes": _human_size(DEFAULT_MAX_BYTES),
            "max_age_days": f"{DEFAULT_MAX_AGE_DAYS:g}"}


def _human_size(size: int) -> str:
    for unit in ("", "K", "M", "G", "T"):
        if size < 1024 or size % 1024 or unit == "T":
            return f"{size}{unit}"
        size //= 1024
    return str(size)  # pragma: no cover


def _shapes() -> list[tuple[str, str]]:
    """Each shape with its planner's one-paragraph summary, in the order they are asked."""
    from .sniff import SHAPES

    shapes = []
    for name, module in SHAPES.items():
        summary = inspect.cleandoc(module.__doc__ or "").split("\n\n", 1)[0]
        summary = " ".join(summary.split())
        summary = re.sub(rf"^{re.escape(name)}\s*:\s*", "", summary)
        shapes.append((name, summary[:1].upper() + summary[1:]))
    return shapes


def _marker_examples() -> list[tuple[str, str]]:
    """Real markers from render.py, for a 5,002-line output with a hand-made plan (no planner
    involved, so only a change to the markers' wording changes the page)."""
    from .plan import Gap, Keep, Plan
    from .render import Context, render
    from .tokens import EstimateCounter
    from .tools import lookup

    text = "".join(f"output line {i}\n" for i in range(1, 5003))
    offsets = [0]
    for line in text.splitlines(keepends=True):
        offsets.append(offsets[-1] + len(line))

    def gap(first: int, last: int) -> Gap:
        return Gap(offsets[first - 1], offsets[last], first, last)

    def keep(first: int, last: int) -> Keep:
        return Keep(offsets[first - 1], offsets[last])

    one = Plan("other", (keep(1, 300), gap(301, 4870), keep(4871, 5002)), 5002, 4570)
    two = Plan("log", (keep(1, 119), gap(120, 480), keep(481, 481), gap(482, 5000),
                       keep(5001, 5002)), 5002, 4880)
    counter = EstimateCounter()
    examples = []
    for caption, plan, context in (
            ("One cut, stored, after a failed command:", one,
             Context(lookup("Bash"), store_id="3f2a9c1b7d4e", exit_status=1)),
            ("Without the store (`--no-store`), from a Read:", one, Context(lookup("Read"))),
            ("Several cuts: one inline marker per gap, then a closing marker:", two,
             Context(lookup("Bash"), store_id="3f2a9c1b7d4e"))):
        rendered = render(plan, text, counter, context)
        markers = [line for line in rendered.splitlines() if line.startswith("[\u2026")]
        examples.append((caption, "\n".join(markers)))
    return examples


def man_page() -> str:
    from . import __version__
    from .status import EXIT_STATUS_HELP

    date = RELEASE_DATES.get(__version__)
    if date is None:
        raise SystemExit(f"docs_gen: add the release date of version {__version__} to "
                         "RELEASE_DATES in headroom_cli/docs_gen.py")
    contexts = list(walk())
    root = contexts[0]
    root_blocks = blocks(root.command.help)
    summary = root_blocks[0][1].rstrip(".")
    out = [
        f'.\\" Generated by `{REGENERATE}` from the typer app in',
        '.\\" headroom_cli/cli/commands.py: edit that (or the generator), then regenerate.',
        f'.TH HEADROOM 1 {date} "headroom {__version__}" "User Commands"',
        ".nh",  # no hyphenation: option names and paths stay whole
        ".ad l",
        ".SH NAME",
        f"{PROG} \\- {roff_escape(summary[:1].lower() + summary[1:])}",
        ".SH SYNOPSIS",
    ]
    forms = [form for ctx in contexts
             if not is_group(ctx.command) or ctx.parent is None
             for form in synopsis_forms(ctx)]
    for index, form in enumerate(forms):
        if index:
            out.append(".br")
        out.append(roff_synopsis(*form))

    out.append(".SH DESCRIPTION")
    description = [block for block in root_blocks[1:]
                   if not titled(block, "examples", "example", "exit status")]
    out += roff_blocks(description)
    out += [".PP", *roff_text(WHY)]
    out += [".PP", *roff_text("The shapes, asked in this order (the first that recognises the "
                              "output plans the clip; `--kind` names one instead):")]
    for name, summary_ in _shapes():
        out += [".TP", f"\\fB{roff_escape(name)}\\fR", *roff_text(summary_)]

    out.append(".SH OPTIONS")
    out += _options(root)
    exit_blocks, examples = {}, []
    for ctx in contexts[1:]:
        form = " ".join(synopsis_forms(ctx)[0]) if not is_group(ctx.command) \
            else f"{ctx.command_path} COMMAND"
        out += [f'.SS "{roff_escape(form)}"']
        pieces = blocks(ctx.command.help)
        exits = next((block for block in pieces if titled(block, "exit status")), None)
        exit_blocks[ctx.command_path] = exits
        if exits is not None and exit_blocks.get(ctx.parent.command_path) == exits:
            pieces.remove(exits)  # the same as its group's, printed just above
        for block in [block for block in pieces if titled(block, "examples", "example")]:
            pieces.remove(block)  # gathered in EXAMPLES
            examples.append((ctx, block[1]))
        out += roff_blocks(pieces)
        out += _options(ctx, include_help=False)

    out.append(".SH THE MARKER")
    out += [".PP", *roff_text(MARKER_TEXT)]
    for caption, markers in _marker_examples():
        out += [".PP", *roff_text(caption), *roff_pre(markers, indent=2)]
    out += [".PP", *roff_text(MARKER_STORE)]

    out.append(".SH EXIT STATUS")
    for line in EXIT_STATUS_HELP.splitlines()[1:]:
        status, meaning = line.strip().split(None, 1)
        out += [".TP", f"\\fB{roff_escape(status)}\\fR", *roff_text(meaning)]

    out.append(".SH ENVIRONMENT")
    caps = _format_caps()
    settings = _config_settings()
    entries = {}  # variable -> meaning, first one wins
    for ctx in contexts:
        for param in ctx.command.get_params(ctx):
            for envvar in envvars(param):
                entries.setdefault(envvar, f"The value of `{max(param.opts, key=len)}` when the "
                                           "option is not given.")
    source = _source_text()
    for envvar, meaning in ENVIRONMENT:
        if re.search(rf"(?<![A-Za-z0-9_]){re.escape(envvar)}(?![A-Za-z0-9_])", source):
            entries.setdefault(envvar, meaning.format(**caps))  # only while the code names it
    for key, (envvar, default) in settings.items():
        if envvar:
            entries.setdefault(envvar, f"The `{key}` setting of the config file (default "
                                       f"`{default}`).")
    # headroom's own variables first, then the ones it shares with other programs.
    for envvar in sorted(entries, key=lambda name: not name.startswith("HEADROOM_")):
        out += [".TP", f"\\fB{roff_escape(envvar)}\\fR", *roff_text(entries[envvar])]
    if settings:
        out += [".PP", *roff_text("An option given on the command line wins over its variable, "
                                  "and a variable over the config file.")]

    out.append(".SH FILES")
    for path, meaning, needle in FILES:
        if needle in source:
            out += [".TP", f"\\fI{roff_escape(path)}\\fR", *roff_text(meaning)]
    if settings:
        out += [".TP", f"\\fI{roff_escape(CONFIG_PATH)}\\fR",
                *roff_text("The config file (TOML): " + ", ".join(
                    f"`{key}`" for key in settings) + ", `[tools.NAME]` tables with "
                    "per-tool settings, and `[commands.FAMILY]` tables with a command family's "
                    "budget (as `headroom stats` names the family). Default: `~/.config/headroom/config.toml`. A broken file "
                    "is reported with its file name and line, exit status 1.")]
        example = _config_example()
        if example:
            out += [".PP", *roff_text("A config file that sets everything:"),
                    *roff_pre(example, indent=2)]

    out.append(".SH EXAMPLES")
    for kind, text in root_blocks:
        if titled((kind, text), "examples", "example"):
            examples.insert(0, (root, text))
    for ctx, text in examples:
        caption = ("Pipe, wrap, and get back what a marker omitted" if ctx is root
                   else f"`{ctx.command_path}`: {ctx.command.get_short_help_str(200).rstrip('.')}")
        out += [".PP", *roff_text(caption + ":"),
                *roff_pre(textwrap.dedent(text.split("\n", 1)[1]).strip("\n"), indent=2)]
    for caption, lines in EXAMPLES_EXTRA:
        out += [".PP", *roff_text(caption + ":"), *roff_pre("\n".join(lines), indent=2)]

    out += [".SH SEE ALSO",
            ".BR grep (1),", ".BR rg (1),", ".BR sed (1),", ".BR head (1),", ".BR tail (1)",
            ".PP",
            *roff_text("`headroom --help`, and `--help` after any command. The docs/ folder of "
                       "the headroom-pipe package covers the shapes, the marker, the store and "
                       "the agents in depth.")]
    # Characters some devices lack (-Tascii has no ellipsis): a fallback keeps troff quiet.
    used = sorted({char for line in out for char in re.findall(r"\\\[u([0-9A-F]{4,})\]", line)})
    fallbacks = [f".if !c\\[u{code}] .char \\[u{code}] "
                 f"{ASCII_FALLBACK.get(chr(int(code, 16)), '?')}" for code in used]
    out[5:5] = fallbacks
    return "\n".join(out) + "\n"


def _options(ctx, include_help: bool = True) -> list[str]:
    lines = []
    help_names = set(ctx.help_option_names)
    arguments = [p for p in ctx.command.get_params(ctx) if p.param_type_name == "argument"]
    for param in arguments:
        lines += argument_entry(ctx, param)
    for param in ctx.command.get_params(ctx):
        if param.param_type_name == "argument" or getattr(param, "hidden", False):
            continue
        if not include_help and help_names & set(param.opts):
            continue
        lines += option_entry(ctx, param)
    return lines

