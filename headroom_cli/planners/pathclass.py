"""What a path is to a reader, told from its spelling alone: made by a machine (vendored, built,
generated, locked) or by the project's own hands. Shared by the planners that rank files by
what a reader is after (search; diff.py's value_class takes LOCKS and keeps its own folders
and endings: `dist/` anywhere and `.svg` are a change's noise, not a search's)."""

from __future__ import annotations


# Lock files: a package manager writes them.
LOCKS = frozenset({"package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml",
                   "poetry.lock", "pipfile.lock", "uv.lock", "cargo.lock", "gemfile.lock",
                   "composer.lock", "go.sum", "flake.lock", "mix.lock", "pubspec.lock",
                   "packages.lock.json", "gradle.lockfile"})
# How generated files' names end: minified bundles, source maps, snapshots, protobuf and
# codegen output (and `.generated.` inside the name).
GENERATED_ENDINGS = (".lock", ".min.js", ".min.css", ".min.mjs", ".map", ".snap", "_pb2.py",
                     "_pb2.pyi", "_pb2_grpc.py", ".pb.go", ".g.dart", ".bundle.js")
# Folders that hold someone else's code, or a build's copy of the project's own, anywhere.
MACHINE_FOLDERS = frozenset({"vendor", "node_modules", "third_party", "__snapshots__",
                             "bower_components", "site-packages", "__pycache__", "_vendor"})
# Folders that are a build's output only at the top of a tree (`dist/`, `build/lib/`): deeper
# down they are as often a package's own (Go's `go/build/`).
TOP_MACHINE_FOLDERS = frozenset({"dist", "build", "target", "out", ".next"})


def machine_made(path: str) -> bool:
    """Whether a path is vendored, built, generated or a lock file: a folder of MACHINE_FOLDERS
    (or an `.egg-info`) anywhere, one of TOP_MACHINE_FOLDERS at the top, a lock file's name or
    a generated one's. String operations only: a search's thousands of paths are judged in C."""
    spelled = path.lower().replace("\\", "/")
    if ":" in spelled:  # a git tree (`HEAD:src/a.c`) or a drive: the path starts after it
        spelled = spelled[spelled.rfind(":") + 1:]
    parts = spelled.split("/")
    name = parts.pop()
    if name in LOCKS or name.endswith(GENERATED_ENDINGS) or ".generated." in name:
        return True
    if not MACHINE_FOLDERS.isdisjoint(parts) or ".egg-info/" in spelled:
        return True
    for folder in parts:  # the first folder that is not the root or `.`
        if folder not in ("", "."):
            return folder in TOP_MACHINE_FOLDERS
    return False
