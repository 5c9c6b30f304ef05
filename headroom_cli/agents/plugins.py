"""What the plugin-file integrations share (opencode's and pi's, clipping and history): the file
change, the JavaScript that asks headroom, and reading the whole output an agent saved.

pi and opencode load a plugin file of ours; the file is a thin shim that hands a JSON payload
to `headroom hook NAME` and takes back its JSON reply (null on any error: the agent's own
text then goes to the model).
"""

from __future__ import annotations

from pathlib import Path

from . import config

# The plugin's one call to headroom, the same in every plugin file. Plain JavaScript, which
# pi's TypeScript loader takes as it is. `signal` (pi) stops headroom when the agent aborts.
ASK_HEADROOM = """\
function askHeadroom(hook, payload, signal) {
  return new Promise((resolve) => {
    let child;
    try {
      child = spawn(HEADROOM[0], [...HEADROOM.slice(1), "hook", hook], {
        stdio: ["pipe", "pipe", "ignore"],
        signal,
      });
    } catch {
      resolve(null);
      return;
    }
    const chunks = [];
    child.on("error", () => resolve(null));
    child.stdout.on("data", (chunk) => chunks.push(chunk));
    child.on("close", () => {
      try {
        resolve(JSON.parse(Buffer.concat(chunks).toString("utf8") || "null"));
      } catch {
        resolve(null);
      }
    });
    child.stdin.on("error", () => {});
    child.stdin.end(JSON.stringify(payload));
  });
}"""


def plugin_change(path: Path, source: bytes, signature: str, uninstall: bool) -> config.Change:
    """Write (or remove) a plugin file of ours; never touch a file someone else wrote there."""
    before = config.read_bytes(path)
    if before is not None and signature.encode() not in before:
        raise config.ConfigError(f"{path} exists and was not written by headroom; left "
                                 "untouched (move it away, or pass --config to choose "
                                 "another file)")
    return config.Change(path, before, None if uninstall else source, headroom_only=True)


def displayable(text: str) -> str:
    """Undecodable bytes (carried as lone surrogates) as U+FFFD, as the agent itself shows
    them: a JSON reply must hold valid Unicode."""
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def read_full_output(path: object) -> str | None:
    """The whole output an agent saved to a file (it shows the model only part), or None."""
    if not isinstance(path, str) or not path:
        return None
    try:
        with open(path, "rb") as stream:
            return stream.read().decode("utf-8", "surrogateescape")
    except OSError:
        return None
