"""headroom: clip a tool's output to a token budget before it enters an agent's context."""

__version__ = "0.1.0"


def __getattr__(name):
    # `from headroom_cli import compress` without paying for the pipeline at CLI start-up.
    if name in ("compress", "Result"):
        from . import api

        return getattr(api, name)
    if name in ("age_history", "AgedHistory"):
        from . import history

        return getattr(history, name)
    raise AttributeError(name)


__all__ = ["compress", "Result", "age_history", "AgedHistory", "__version__"]
