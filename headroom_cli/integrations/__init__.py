"""headroom inside Python agent harnesses built on an SDK: one module per SDK, each importing
its SDK only when used, so the command line never loads one (and never needs it installed).

    openai_agents.py    the OpenAI Agents SDK: a RunConfig call_model_input_filter
    claude_sdk.py       the Claude Agent SDK: hook matchers for ClaudeAgentOptions
"""

from __future__ import annotations

import importlib

INSTALL = "pip install 'headroom-pipe[{extra}]'"


def require(module: str, extra: str, feature: str):
    """The SDK module `module`, or an ImportError whose one line names the install command
    of headroom's extra that provides it."""
    try:
        return importlib.import_module(module)
    except ImportError:
        raise ImportError(f"{feature} needs {module.split('.')[0]} (headroom's {extra} extra): "
                          f"{INSTALL.format(extra=extra)}") from None
