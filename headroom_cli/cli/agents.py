"""`headroom init AGENT` and `headroom hook AGENT`: the command-line edge of the agent
integrations (headroom_cli/agents/, whose agents/cli.py has the bodies)."""

from __future__ import annotations

from typing import List, Optional

import typer

from ..agents import AGENTS, HELP_ALIASES
from ..settings import DEFAULT_HOOK_BUDGET
from ..status import ExitStatus
from .base import app, exit_status_help
from .completion import complete_agent
from .options import HOOK_NAMES

# The agents `init` takes (the -history variants are `init AGENT --history`), from the registry.
INIT_NAMES = [name for name in AGENTS if not name.endswith("-history")]
# One line per agent: the names `init` takes for it (its alias as users also say it), and
# what it is.
AGENT_TABLE = "\n".join(
    f"  {', '.join([name, *([HELP_ALIASES[name]] if name in HELP_ALIASES else [])]):<26}"
    f"{AGENTS[name]}" for name in INIT_NAMES)


@app.command("init", short_help="Hook headroom into a coding agent.", help=f"""\
Hook headroom into a coding agent, so every shell command's output is clipped.

AGENT is one of these {len(INIT_NAMES)} agents (other spellings, such as factory-droid or
copilot-cli, are taken too):

\b
{AGENT_TABLE}

or mcp: run the stdio servers of an MCP client's configuration (--config FILE: Claude
Desktop, Cursor, VS Code, Claude Code's .mcp.json) through `headroom mcp`.
With --history (opt-in; pi and opencode) the agent also sends its history aged: old tool
results shrunk once, the last 3 verbatim (see `headroom history`). The agent's configuration is edited in place (a backup is kept as FILE.headroom-backup); running it
twice leaves one entry. Nothing is ever asked: it runs the same without a terminal.

\b
Examples:
  headroom init claude              ~/.claude/settings.json gets a PreToolUse hook
  headroom init gemini --dry-run    show the change, write nothing
  headroom init opencode --uninstall
  headroom init pi --history        pi sends its history aged
  headroom init mcp --config .mcp.json --server jira

{exit_status_help("hooked in, or already hooked in (or out, with --uninstall)",
                   "the agent's configuration cannot be read or written")}""")
def init_agent(
    agent: str = typer.Argument(..., metavar="AGENT", autocompletion=complete_agent,
                                help=f"{', '.join(INIT_NAMES)}, or mcp."),
    uninstall: bool = typer.Option(False, "--uninstall", help="Remove headroom's hook."),
    dry_run: bool = typer.Option(False, "--dry-run", help="Show what would change; write "
                                                          "nothing."),
    history: bool = typer.Option(False, "--history",
                                 help="pi, opencode: hook in age-aware history instead."),
    config_file: Optional[str] = typer.Option(None, "--config", metavar="FILE",
                                              help="Edit this file instead of the agent's "
                                                   "default (e.g. a project's settings); "
                                                   "mcp: the MCP client's configuration."),
    server: List[str] = typer.Option([], "--server", metavar="NAME",
                                     help="mcp: proxy only this server (repeatable; default: "
                                          "every stdio server)."),
) -> None:
    from ..agents.cli import init_command

    status = init_command(agent, uninstall, dry_run, config_file, history, tuple(server))
    if status:
        raise typer.Exit(status)


@app.command("hook", short_help="The entry point an agent's hook runs.", help="""\
The entry point an agent's hook runs: the agent's JSON on stdin, the reply on stdout.

Installed by `headroom init AGENT`. On any internal error the tool call or its output goes
through unchanged, and the exit status is 0. AGENT `filter` reads a command's raw output
instead (stdin, or --input FILE) and prints it clipped: the last step of a command that a hook
wrapped.

\b
Examples:
  echo '{"tool": "bash", "output": "…", "metadata": {"exit": 1}}' | headroom hook opencode
  make 2>&1 | headroom hook filter --exit-status 2 --max-bytes 10000

\b
Exit status:
  0    replied (or, on an internal error, left the call unchanged)
  2    usage error: bad option or argument (an unknown AGENT)
  N    filter --status-line: the wrapped command's own exit status
""")
def hook_agent(
    agent: str = typer.Argument(..., metavar="AGENT",
                                help=f"{', '.join(AGENTS)}, or filter."),
    budget: Optional[int] = typer.Option(
        None, *HOOK_NAMES["budget"], min=0, metavar="N", show_default=False,
        help=f"Token budget for a tool's output; 0 = no clipping. Default: "
             f"{DEFAULT_HOOK_BUDGET:,}, less as the agent's context fills ([context] in the "
             "config file); N: always N."),
    exit_status: Optional[int] = typer.Option(None, *HOOK_NAMES["exit_status"], metavar="N",
                                              help="filter: the command's exit status, for "
                                                   "the marker."),
    max_bytes: Optional[int] = typer.Option(None, *HOOK_NAMES["max_bytes"], min=1, metavar="N",
                                            help="filter: also keep the output under N bytes."),
    max_failure_bytes: Optional[int] = typer.Option(
        None, *HOOK_NAMES["max_failure_bytes"], min=1, metavar="N",
        help="filter: when the command failed, keep the output under N bytes."),
    tool: Optional[str] = typer.Option(None, *HOOK_NAMES["tool"], metavar="NAME",
                                       help="filter: the tool that produced the output "
                                            "(default Bash)."),
    input_file: Optional[str] = typer.Option(None, *HOOK_NAMES["input_file"], metavar="FILE",
                                             help="filter: read FILE (then remove it), not "
                                                  "stdin."),
    no_store: bool = typer.Option(False, *HOOK_NAMES["no_store"],
                                  help="Keep no copy of clipped output."),
    status_line: Optional[str] = typer.Option(
        None, *HOOK_NAMES["status_line"], metavar="TAG",
        help="filter: the input ends with a line 'TAG STATUS' (a piped wrapper's); exit "
             "with STATUS."),
    session: Optional[str] = typer.Option(None, *HOOK_NAMES["session"], metavar="KEY",
                                          help="filter: the agent's session (see the filter's "
                                               "--session)."),
    command: Optional[str] = typer.Option(None, *HOOK_NAMES["command"], metavar="TEXT",
                                          help="filter: the command that was run (a re-run "
                                               "of it opens with what changed)."),
    cwd: Optional[str] = typer.Option(None, *HOOK_NAMES["cwd"], metavar="DIR",
                                      help="filter: the directory it ran in."),
    context_tokens: Optional[int] = typer.Option(
        None, *HOOK_NAMES["context_tokens"], min=0, metavar="N",
        help="filter: tokens in the agent's context (the default budget follows how full it "
             "is)."),
    context_window: Optional[int] = typer.Option(
        None, *HOOK_NAMES["context_window"], min=1, metavar="N",
        help="filter: the agent's context window in tokens."),
) -> None:
    from ..agents.cli import hook_command

    status = hook_command(agent, budget, exit_status, max_bytes, tool, no_store,
                          max_failure_bytes, input_file, status_line, session, command, cwd,
                          context_tokens, context_window)
    if status:
        raise typer.Exit(status)


@app.command("mcp", short_help="Run an MCP server behind a proxy that clips large results.",
             help=f"""\
Run an MCP server (stdio) behind a proxy that clips the text of its large tool results.

Put `headroom mcp --` in front of the server's command in an MCP client's configuration (or
let `headroom init mcp --config FILE` do it). Every message passes through unchanged, in
order, except the text of a tools/call result over the budget: clipped like any tool output,
kept whole in the store, with a marker naming `headroom show ID`. Images, resources, errors,
notifications and the server's own requests (sampling, elicitation, roots) pass byte for byte.

\b
Examples:
  headroom mcp -- npx -y @modelcontextprotocol/server-filesystem ~/src
  headroom mcp --budget 4000 --skip-tool read_file -- uvx mcp-server-fetch

\b
Exit status:
  0    the server ended (N: the server's own exit status, when not 0)
  {ExitStatus.USAGE:<4} usage error: bad option or argument
  {ExitStatus.NOT_FOUND:<4} the server's command was not found
  {ExitStatus.CANNOT_EXECUTE:<4} the server's command cannot be run
""")
def mcp_proxy(
    server: List[str] = typer.Argument(..., metavar="SERVER_COMMAND [ARGS]...",
                                       help="The MCP server's command line, after `--`."),
    budget: int = typer.Option(DEFAULT_HOOK_BUDGET, "--budget", "-b", min=0, metavar="N",
                               help="Token budget for a tool result's text; 0 = no clipping."),
    skip_tool: List[str] = typer.Option([], "--skip-tool", metavar="NAME",
                                        help="Leave this tool's results whole (repeatable)."),
    no_store: bool = typer.Option(False, "--no-store", help="Keep no copy of clipped output."),
) -> None:
    from ..mcp_proxy import ProxyOptions, run_proxy

    status = run_proxy(list(server), ProxyOptions(budget=budget, skip_tools=frozenset(skip_tool),
                                                  store=not no_store))
    if status:
        raise typer.Exit(status)
