"""headroom inside Python agent harnesses built on an SDK: one module per SDK, each importing
its SDK only when used, so the command line never loads one (and never needs it installed).

    openai_agents.py    the OpenAI Agents SDK: a RunConfig call_model_input_filter
    claude_sdk.py       the Claude Agent SDK: hook matchers for ClaudeAgentOptions
"""

from __future__ import annotations

import importlib

DISTRIBUTION = "headroom-pipe"  # pyproject.toml's name; not on PyPI (README.md, "Install")


def require(module: str, extra: str, feature: str):
    """The SDK module `module`, or an ImportError whose one line names the install command
    of headroom's extra that provides it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise ImportError(f"{feature} needs {module.split('.')[0]} (headroom's {extra} extra): "
                          f"{install_command(extra)}") from None


def install_command(extra: str) -> str:
    """The command that adds `extra` to the environment this headroom runs in. headroom is
    installed from a checkout or a wheel, not by name, so pip is pointed where this one came
    from (the direct_url.json pip records, PEP 610), with the Python running it; when that is
    unknown, at a checkout."""
    import shlex
    import sys

    pip = f"{shlex.quote(sys.executable)} -m pip install"
    source = _installed_from()
    if source is None:
        return f"{pip} '.[{extra}]' in a checkout of headroom"
    path, editable = source
    return f"{pip} {'-e ' * editable}{shlex.quote(f'{path}[{extra}]')}"


def _installed_from() -> tuple[str, bool] | None:
    """(the checkout or wheel this headroom was installed from, installed editable), when it
    is a local path that still exists."""
    import json
    import os
    from importlib import metadata
    from urllib.parse import unquote, urlparse

    try:
        record = json.loads(metadata.distribution(DISTRIBUTION).read_text("direct_url.json")
                            or "{}")
    except (metadata.PackageNotFoundError, ValueError):
        return None
    url = urlparse(record.get("url", ""))
    path = unquote(url.path)
    if url.scheme != "file" or not os.path.exists(path):
        return None
    return path, bool(record.get("dir_info", {}).get("editable"))
