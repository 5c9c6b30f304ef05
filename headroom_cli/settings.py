"""Every setting of a run, resolved once: flags > HEADROOM_* environment > the config file >
built-in defaults.

    settings = Settings.load(os.environ, budget=…)   # at the edge, once per run

The CLI resolves one Settings per run and hands it down; agent hooks resolve theirs the same
way. Nothing here exits, prints or caches: a broken config file raises SettingsError (the CLI
prints its one line and exits 1; a hook fails open), and a bad value of a store cap variable
becomes a warning the caller prints. Every default and every list of choices is defined once,
in defaults.py (which the pass-through reads before this module loads), and imported.
"""

from __future__ import annotations

import os
from typing import Mapping

from .defaults import DEFAULT_HOOK_BUDGET, FORMATS, config_path, xdg_dir
from .config import DEFAULTS, ENV, Config, ConfigError, parse, parse_days, parse_size
from .status import ExitStatus
from .tokens import DEFAULT_ENCODING, ENCODINGS
from .values import field, replace, value

DEFAULT_BUDGET = DEFAULTS["budget"]
DEFAULT_FORMAT = FORMATS[0]
OFF_WORDS = ("off", "0", "false", "no")

__all__ = ["DEFAULT_BUDGET", "DEFAULT_ENCODING", "DEFAULT_FORMAT", "DEFAULT_HOOK_BUDGET",
           "ENCODINGS", "FORMATS", "Digest", "Settings", "SettingsError", "config_path",
           "read_config"]


class SettingsError(Exception):
    """A setting that cannot be used: one line (naming the file and line for the config file).
    `status` is the exit status a command-line run ends with."""

    def __init__(self, message: str, status: int = ExitStatus.ERROR) -> None:
        super().__init__(message)
        self.status = status


@value
class Digest:
    """The summarizer asked for a digest of a large omission (digest.py)."""
    command: str | None
    url: str | None
    model: str | None
    timeout: float


@value
class Settings:
    budget: int = DEFAULT_BUDGET  # the run's budget when no per-tool budget applies
    budget_given: bool = False  # by a flag or HEADROOM_BUDGET: per-tool budgets then step aside
    encoding: str = DEFAULT_ENCODING
    format: str = DEFAULT_FORMAT
    store_dir: str | None = None  # None: the store is off
    max_bytes: int | None = None  # store caps; None: the store's own default
    max_age_days: float | None = None
    ledger: str | None = None  # the ledger's path; None: off
    digest: Digest | None = None
    cache_dir: str = ""  # headroom's own cache (the parsed tokenizer table)
    tiktoken_cache_dir: str | None = None  # tiktoken's (None: its default, tokens.py's rule)
    config: Config = field(default_factory=Config)  # the file as read, for `headroom config`
    warnings: tuple[str, ...] = ()  # bad values that were ignored: the caller says so once
    # With a session (session.py): outputs of at least this many tokens already delivered in
    # it become one line (None: never); a re-run's log opens with what changed (`since`).
    dedup_over: int | None = DEFAULTS["session.dedup_over"]
    since: bool = DEFAULTS["session.since"]
    # A hook's default budget follows the agent's context (context.py): the curve, and the
    # window over what the agent says (0: as it says). None: off ([context] follow = false).
    context_curve: tuple | None = DEFAULTS["context.curve"]
    context_window: int = DEFAULTS["context.window"]

    @classmethod
    def load(cls, environ: Mapping[str, str] | None = None, *, config: Config | None = None,
             budget: int | None = None, encoding: str | None = None, fmt: str | None = None,
             no_store: bool = False, no_digest: bool = False) -> "Settings":
        """Settings for one run. Flags are the keyword arguments (None: not given); `config`
        is the parsed config file (read from disk when not given). Raises SettingsError."""
        environ = os.environ if environ is None else environ
        config = read_config(environ) if config is None else config
        warnings: list[str] = []
        env_budget = environ.get(ENV["budget"], "").strip()
        if budget is None and env_budget:
            budget = _whole_number(env_budget, ENV["budget"])
        encoding = encoding or environ.get(ENV["encoding"], "").strip() or \
            config.values.get("encoding", DEFAULT_ENCODING)
        fmt = fmt or environ.get(ENV["format"], "").strip() or \
            config.values.get("format", DEFAULT_FORMAT)
        if encoding not in ENCODINGS:
            raise SettingsError(f"unknown encoding {encoding!r}: use one of "
                                f"{', '.join(ENCODINGS)}", ExitStatus.USAGE)
        if fmt not in FORMATS:
            raise SettingsError(f"unknown --format {fmt!r}: use one of {', '.join(FORMATS)}",
                                ExitStatus.USAGE)
        return cls(
            budget=config.values.get("budget", DEFAULT_BUDGET) if budget is None else budget,
            budget_given=budget is not None, encoding=encoding, format=fmt,
            store_dir=None if no_store else _store_dir(environ, config),
            max_bytes=_cap("max_bytes", parse_size, environ, config,
                           warnings),
            max_age_days=_cap("max_age_days", parse_days, environ,
                              config, warnings),
            ledger=_ledger_path(environ, config),
            digest=None if no_digest else _digest(environ, config, warnings),
            cache_dir=_cache_dir(environ),
            tiktoken_cache_dir=environ.get("TIKTOKEN_CACHE_DIR") or environ.get("DATA_GYM_CACHE_DIR"),
            config=config, warnings=tuple(warnings),
            dedup_over=_setting("session.dedup_over", config)
            if _setting("session.dedup", config) else None,
            since=_setting("session.since", config),
            context_curve=_setting("context.curve", config)
            if _setting("context.follow", config) else None,
            context_window=_setting("context.window", config))

    def budget_for(self, tool: str | None, family: str | None = None) -> int:
        """The budget for output of `tool` (from a command of `family`): a flag or
        HEADROOM_BUDGET, else the config file's [commands.FAMILY] budget, else its
        [tools.NAME] budget, else its budget, else the default."""
        if self.budget_given:
            return self.budget
        if family is not None and family in self.config.commands:
            return self.config.commands[family]
        if not self.config.tools:
            return self.budget
        from .tools import lookup

        return self.config.tools.get(lookup(tool).name, {}).get("budget", self.budget)

    def follow_context(self, base: int, tokens: int | None, window: int | None = None):
        """The budget `base` becomes with `tokens` in the agent's context of `window` tokens
        (the config file's window over it): a context.Followed, or None when the fill is
        unknown or following it is off."""
        if self.context_curve is None or tokens is None:
            return None
        from .context import follow

        return follow(base, tokens, self.context_window or window, self.context_curve)

    def tool(self, name: str | None):
        """The tool's row of the table (tools.Tool), with the config file's head/tail split."""
        from .tools import lookup

        row = lookup(name)
        split = {key: value for key, value in self.config.tools.get(row.name, {}).items()
                 if key.endswith("_share")}
        return replace(row, **split) if split else row

    def tokenizer_caches(self) -> tuple[str, str | None]:
        """headroom's cache folder and tiktoken's (None: tiktoken's own default, which
        tokens.py finds only when it needs it: o200k_base not installed)."""
        return self.cache_dir, self.tiktoken_cache_dir

    def retention(self):
        """The store's caps (store.Retention)."""
        from .store import Retention

        caps = {name: value for name, value in (("max_bytes", self.max_bytes),
                                                ("max_age_days", self.max_age_days))
                if value is not None}
        return Retention(**caps)


def _setting(key: str, config: Config):
    return config.values.get(key, DEFAULTS[key])


def read_config(environ: Mapping[str, str]) -> Config:
    """The config file, parsed (an empty Config when there is none); raises SettingsError."""
    path = config_path(environ)
    try:
        with open(path, encoding="utf-8") as stream:
            text = stream.read()
    except FileNotFoundError:
        return Config(path)
    except (OSError, UnicodeDecodeError) as err:
        raise SettingsError(f"cannot read {path}: {getattr(err, 'strerror', None) or err}")
    try:
        return parse(text, path)
    except ConfigError as err:
        raise SettingsError(str(err)) from None


def state_dir(environ: Mapping[str, str]) -> str:
    """$XDG_STATE_HOME/headroom (default ~/.local/state/headroom)."""
    return os.path.join(xdg_dir(environ, "XDG_STATE_HOME", os.path.join(".local", "state")),
                        "headroom")


def _whole_number(text: str, name: str) -> int:
    if not (text.isascii() and text.isdigit()):
        raise SettingsError(f"{name}={text!r} is not a whole number ≥ 0", ExitStatus.USAGE)
    return int(text)


def _store_dir(environ: Mapping[str, str], config: Config) -> str | None:
    """$HEADROOM_STORE, else the config file's store.path, else $XDG_STATE_HOME/headroom/store;
    None when either says `off`."""
    configured = environ.get(ENV["store.path"], "") or config.values.get("store.path", "")
    if configured.strip().lower() == "off":
        return None
    if configured:
        return os.path.expanduser(configured)
    return os.path.join(state_dir(environ), "store")


def _cap(name: str, parse_value, environ: Mapping[str, str], config: Config,
         warnings: list[str]):
    """A store cap from its environment variable (a bad value is warned about and ignored, so
    it never breaks a clip) or the config file (already checked by config.parse)."""
    variable = ENV[f"store.{name}"]
    value = environ.get(variable, "").strip()
    if value:
        try:
            return parse_value(value)
        except ValueError:
            warnings.append(f"ignoring {variable}={value!r}: not a "
                            f"{'size' if name == 'max_bytes' else 'number'}")
    return config.values.get(f"store.{name}")


def _ledger_path(environ: Mapping[str, str], config: Config) -> str | None:
    value = environ.get(ENV["ledger"], "").strip() or config.values.get("ledger", True)
    if str(value).strip().lower() in OFF_WORDS:
        return None
    return os.path.join(state_dir(environ), "ledger.sqlite3")


def _digest(environ: Mapping[str, str], config: Config, warnings: list[str]) -> Digest | None:
    """The summarizer from the environment (config.ENV) or the config file; None when neither a command
    nor a URL is set."""
    from .config import resolve

    values = {name: resolve(f"digest_{name}", config, environ)[0]
              for name in ("command", "url", "model", "timeout")}
    if not (values["command"] or values["url"]):
        return None
    timeout = values["timeout"]
    try:
        timeout = float(timeout)
        if not timeout > 0:
            raise ValueError
    except (TypeError, ValueError):
        warnings.append(f"ignoring digest timeout {timeout!r}: not a positive number")
        timeout = DEFAULTS["digest_timeout"]
    return Digest(values["command"] or None, values["url"] or None, values["model"] or None,
                  timeout)


def _cache_dir(environ: Mapping[str, str]) -> str:
    base = environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "headroom")


