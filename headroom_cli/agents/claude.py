"""Claude Code: a PreToolUse hook on Bash that wraps the command so its output is clipped
(and a PostToolUse hook on MCP tools, on Bash outputs the wrapper did not reach and, opt-in,
on Read: claude_post).

Why before, not after (observed with @anthropic-ai/claude-code 2.1.330): a PostToolUse hook's
`updatedToolOutput` is applied only when the command exited 0, and the hook gets a copy already
cut to 30,000 characters; a failing command's output is cut by Claude Code itself to its first
and last 5,000 characters, so the end of a long failing log never reaches the model. A
PreToolUse hook that returns `updatedInput` with the command wrapped (shell.wrap: the command
runs unchanged in Claude Code's own shell, `cd` and exit status included) works for success
and failure alike, under the caps below. Claude Code applies `updatedInput` only together
with a permissionDecision, and "allow" skips its permission prompt — so the hook rewrites only
commands Claude Code would have run without asking anyway (permissions.claude_would_run), and
leaves every other command untouched.

Input (stdin):  {"hook_event_name": "PreToolUse", "tool_name": "Bash", "permission_mode": …,
                 "tool_input": {"command": …, "description": …, "timeout": …, …}, "cwd": …}
Reply (stdout): {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                 "permissionDecision": "allow", "updatedInput": {…every original key…,
                 "command": WRAPPED}}}    — or nothing at all: run the command as written.
"""

from __future__ import annotations

import json
import os
import shlex

from ..patterns import lazy
from . import HookOptions, claude_post, permissions, shell
from .clip import headroom_argv, hook_program

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing (~5 ms)
if TYPE_CHECKING:  # pathlib costs ~3 ms on the decision Claude Code waits on; init imports it
    from pathlib import Path

    from . import config  # (imported by install alone, at run time)

NAME = "claude"
EVENT = "PreToolUse"
MATCHER = "Bash"
# Measured with 2.1.330: a successful output over 30,000 bytes is saved to a file and the model
# sees a 2 KB preview; a failing output over about 11,000 characters (11,000 passed whole,
# 12,000 did not) is cut to its first and last 5,000. Clipped output stays under these caps,
# with room for Claude Code's own "Exit code N" line.
MAX_BYTES = 28_000
MAX_FAILURE_BYTES = 10_000

# The allow rules init adds so the marker's own retrieval command runs without a prompt
# (`headroom show` only reads the store); ours are recognised by this shape on uninstall.
_SHOW_RULE = lazy(r"^Bash\((?:.*[/ ])?(?:headroom|headroom_cli)'? show:\*\)$")

NOTES = """\
Claude Code now runs every Bash command it would run without asking you through headroom: the
command itself runs unchanged (same shell, same directory, same exit status); only its output
is clipped to the budget, with a marker saying how to get the rest (`headroom show ID`, which
runs without a prompt: init allowed it). MCP tools' large outputs are clipped the same way,
those past Claude Code's own MCP limit too. Commands that Claude Code would ask about, all
commands in auto mode (its check sees each as written), and those that write to a file or run
in the background are left exactly as written; a successful output of the first two over the
budget is clipped after the fact. Start a new Claude Code session to load the hooks."""


def default_path() -> Path:
    from pathlib import Path

    base = os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(os.path.expanduser("~"), ".claude")
    return Path(base) / "settings.json"


def shell_path(path: Path, environ) -> str:
    """The PATH Claude Code gives its Bash tool: settings.json's `env.PATH` when it sets one
    (Claude Code applies its `env` to every session), else the PATH it was started with."""
    try:
        settings = json.loads(path.read_bytes())
        configured = settings["env"]["PATH"]
    except (OSError, ValueError, KeyError, TypeError):
        configured = None
    return configured if isinstance(configured, str) else environ.get("PATH", os.defpath)


def install(path: Path, headroom: list[str], uninstall: bool = False) -> list[config.Change]:
    """A PreToolUse hook on Bash, a PostToolUse hook on MCP tools and Bash (and on Read when
    `[hooks] read_over` is set), and allow rules for `headroom show`."""
    from . import config  # only init edits files: the hook, run before every command, does not

    hook = [config.command_hook(NAME, headroom)]
    post = {"matcher": claude_post.matcher(), "hooks": hook}
    rules = show_rules(headroom)

    def ours(entry: dict) -> bool:
        return config.is_hook_command(entry.get("command"), NAME)

    def also(data: bytes | None, install: bool) -> bytes | None:
        data = config.edit_hooks(path, data, claude_post.EVENT, post if install else None,
                                 ours, False)
        return _edit_allow_rules(data, rules if install else [])

    return config.install_hook(path, NAME, EVENT, {"matcher": MATCHER, "hooks": hook},
                               uninstall, also=also)


def show_rules(headroom: list[str]) -> list[str]:
    """`Bash(headroom show:*)`, and the same for the way the hook runs headroom (the marker's
    hint names headroom that way when it is not on the agent's PATH)."""
    named = " ".join(shlex.quote(part) for part in headroom)
    return list(dict.fromkeys(["Bash(headroom show:*)", f"Bash({named} show:*)"]))


def _edit_allow_rules(data: bytes | None, rules: list[str]) -> bytes | None:
    """`data` with our rules in permissions.allow (after any others), or none of ours; as a
    text edit, so every other byte stays."""
    from . import jsonedit  # only init edits files

    if data is None:
        return None
    text = data.decode("utf-8-sig")
    bom = data[:len(data) - len(text.encode("utf-8"))]
    where = ("permissions", "allow")
    root = jsonedit.parse(text)
    holder, found = jsonedit.find(root, where[:1]), jsonedit.find(root, where)
    if (holder is not None and holder.kind != "object") or (found and found.kind != "array"):
        return data  # not Claude Code's shape: no rule (the hints then ask before they run)
    existing = json.loads(text[found.start:found.end]) if found else []
    if existing == existing[:len(existing) - len(rules)] + rules and rules:
        return data  # already there, last: as installed
    removed = False
    for index in reversed(range(len(existing))):
        if isinstance(existing[index], str) and (existing[index] in rules
                                                 or _SHOW_RULE.match(existing[index])):
            text = jsonedit.remove_element(text, where, index)
            removed = True
    for rule in rules:
        text = jsonedit.append(text, where, rule)
    if removed and not rules and not jsonedit.find(jsonedit.parse(text), where).items:
        text = jsonedit.remove_member(text, ("permissions",), "allow")
        if not jsonedit.find(jsonedit.parse(text), ("permissions",)).items:
            text = jsonedit.remove_member(text, (), "permissions")
    return bom + text.encode("utf-8")


def handle(payload: bytes, options: HookOptions) -> bytes:
    event = shell.load_event(payload)
    if event is not None and event.get("hook_event_name") == claude_post.EVENT:
        answer = claude_post.reply(event, options, claude_post.settings_from_config())
        return b"" if answer is None else json.dumps(answer).encode()

    def reply(event: dict, command: str) -> dict:
        return {"hookSpecificOutput": {
            "hookEventName": EVENT,
            "permissionDecision": "allow",
            "permissionDecisionReason": "headroom: output clipped to the token budget",
            "updatedInput": dict(event["tool_input"], command=command)}}

    return shell.rewrite_reply(payload, lambda event: rewrite(event, options), reply, b"")

def rewrite(event: object, options: HookOptions) -> str | None:
    """The wrapped command, or None to leave the call exactly as it is."""
    command = shell.command_to_wrap(event, EVENT, MATCHER, "run_in_background")
    if command is None or not permissions.claude_would_run(command, event):
        return None
    return shell.wrap_checked(command, filter_argv(options, event, command))


def filter_argv(options: HookOptions, event: dict | None = None, command: str = "") -> list[str]:
    """The filter runs as this hook was started (the command init wrote), so the marker's hint
    names headroom exactly as init's allow rules do (show_rules) — not as a PATH lookup in the
    agent's environment would find it."""
    program = hook_program()
    headroom = shlex.split(program) if program != "headroom" else \
        (options.headroom or headroom_argv())
    return shell.filter_argv(headroom, options.budget, options.store, "--max-bytes",
                             str(MAX_BYTES), "--max-failure-bytes", str(MAX_FAILURE_BYTES),
                             *shell.session_argv(event or {}, command),
                             *context_argv(event or {}, options))


def context_argv(event: dict, options: HookOptions) -> list[str]:
    """`--context-tokens N [--context-window W]` from the session's transcript, read now (the
    filter stays a function of its input and options): the default budget then follows how
    full the context is. Nothing when the budget was given (`hook claude --budget N`: it
    stays N) or the transcript says nothing. The filter is given the budget as `--budget`
    either way, so only these options tell it that budget is a default."""
    if options.budget_given:
        return []
    from ..context import claude_fill

    found = claude_fill(event)
    if found is None:
        return []
    tokens, window = found
    return ["--context-tokens", str(tokens), *(["--context-window", str(window)] if window
                                                else [])]
