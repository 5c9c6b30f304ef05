"""Shell completion: the scripts in completions/ call back with $_HEADROOM_COMPLETE set.

Options whose type is a fixed set (an Enum, a click.Choice) complete their values on their own,
and so does any option whose metavar lists its values (`[day|week]`: metavar_values); the
callbacks here serve the rest that have known values. Each imports what it needs only when
asked, so none of this costs a normal run anything.
"""

from __future__ import annotations

from typing import List

from .options import SUBCOMMANDS


def complete_tool(incomplete: str) -> List[tuple]:
    from ..tools import known_names, lookup

    return [(name, "" if lookup(name).name == name else f"alias of {lookup(name).name}")
            for name in known_names()]


def complete_kind(incomplete: str) -> List[str]:
    from ..defaults import KINDS

    return ["auto", *KINDS]


def complete_format(incomplete: str) -> List[str]:
    from ..defaults import FORMATS

    return list(FORMATS)


def complete_agent(incomplete: str) -> List[tuple]:
    from ..agents import AGENTS

    # The history integrations are reached with `init AGENT --history`.
    return [item for item in AGENTS.items() if not item[0].endswith("-history")]


def complete_id(incomplete: str) -> List[tuple]:
    # Newest first; the help (size and time) shows in zsh and fish menus.
    import time

    import os

    from ..settings import Settings, SettingsError
    from ..store import Store

    try:
        store_dir = Settings.load(os.environ).store_dir
    except SettingsError:
        return []
    if store_dir is None:
        return []
    store = Store(store_dir)
    return [(entry.id, f"{entry.size:,} bytes, "
                       f"{time.strftime('%Y-%m-%d %H:%M', time.localtime(entry.mtime))}")
            for entry in reversed(store.entries())]


def metavar_values(param) -> List[str]:
    """The values a plain-string option's metavar spells out: `[text|markdown|json]`."""
    import re

    found = re.fullmatch(r"\[(\w[\w.-]*(?:\|\w[\w.-]*)+)\]", getattr(param, "metavar", None) or "")
    return found.group(1).split("|") if found else []


def complete_metavar_values(command) -> None:
    """Give every parameter with no completion of its own the values its metavar lists."""
    from typer._click.shell_completion import CompletionItem

    for param in command.params:
        values = metavar_values(param)
        if values and param._custom_shell_complete is None:
            param._custom_shell_complete = lambda ctx, param, incomplete, values=values: [
                CompletionItem(value) for value in values if value.startswith(incomplete)]
    for sub in getattr(command, "commands", {}).values():
        complete_metavar_values(sub)


def enable_completion() -> None:
    """Answer the $_HEADROOM_COMPLETE protocol (add_completion=False registers no shell).

    `_HEADROOM_COMPLETE=source_bash headroom` prints the bash script (also zsh, fish), as
    checked in under completions/; the scripts call `_HEADROOM_COMPLETE=complete_bash headroom`
    (with the words typed so far in the environment) on every TAB.
    """
    from typer._click.shell_completion import add_completion_class, get_completion_class
    from typer._completion_classes import completion_init

    completion_init()
    for shell in ("bash", "zsh", "fish"):
        base = get_completion_class(shell)

        def get_completions(self, args, incomplete, _base=base):
            # After `--` comes the wrapped command and its arguments: none of ours. Nothing
            # offered lets the shell complete file names instead.
            if "--" in args and not (args and args[0] in SUBCOMMANDS):
                return []
            complete_metavar_values(self.cli)
            return _base.get_completions(self, args, incomplete)

        body = {"get_completions": get_completions}
        if shell == "zsh":
            body["source_template"] = ZSH_SCRIPT
        add_completion_class(type(f"Headroom{base.__name__}", (base,), body), shell)


# typer's zsh script starts with a blank line (compinit then skips the file: `#compdef` must be
# its first line) and, autoloaded from $fpath, completes nothing on the first TAB (it only
# registers itself). This one is typer's completer that also works as an autoloaded function.
ZSH_SCRIPT = """\
#compdef %(prog_name)s

%(complete_func)s() {
  eval $(env _TYPER_COMPLETE_ARGS="${words[1,$CURRENT]}" %(autocomplete_var)s=complete_zsh %(prog_name)s)
}

if [[ $zsh_eval_context[-1] == loadautofunc || $funcstack[1] == _%(prog_name)s ]]; then
  # autoloaded from $fpath (share/zsh/site-functions/_%(prog_name)s): complete, every time
  %(complete_func)s "$@"
else
  # sourced: eval "$(%(autocomplete_var)s=source_zsh %(prog_name)s)"
  compdef %(complete_func)s %(prog_name)s
fi
"""

