"""What a path is to a reader, told from its spelling alone: made by a machine (vendored, built,
generated, locked) or by the project's own hands. Shared by the planners that rank files by
what a reader is after (search; diff.py's value_class spells the same facts for changes)."""

from __future__ import annotations

from ..patterns import lazy

# Lock files: a package manager writes them.
LOCKS = frozenset({"package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml",
                   "poetry.lock", "pipfile.lock", "uv.lock", "cargo.lock", "gemfile.lock",
                   "composer.lock", "go.sum", "flake.lock", "mix.lock", "pubspec.lock",
                   "packages.lock.json", "gradle.lockfile"})
# Generated files, by name: minified bundles, source maps, snapshots, protobuf and codegen output.
GENERATED = lazy(r".*(?:\.lock|\.min\.(?:js|css|mjs)|\.map|\.snap|_pb2(?:_grpc)?\.pyi?|\.pb\.go"
                 r"|\.generated\.\w+|\.g\.dart|\.bundle\.js)$")
# Folders that hold someone else's code, or a build's copy of the project's own, anywhere.
MACHINE_FOLDERS = frozenset({"vendor", "node_modules", "third_party", "__snapshots__",
                             "bower_components", "site-packages", "__pycache__", "_vendor"})
# Folders that are a build's output only at the top of a tree (`dist/`, `build/lib/`): deeper
# down they are as often a package's own (Go's `go/build/`).
TOP_MACHINE_FOLDERS = frozenset({"dist", "build", "target", "out", ".next"})
# The leading parts that do not make a folder top-level: `./`, a drive, a git tree (`HEAD:`).
_LEAD = lazy(r"(?:[\w.^~@{}-]+:(?![\\/]))?(?:[A-Za-z]:)?[\\/]?(?:\.[\\/])*")
_PARTS = lazy(r"[\\/]+")


def machine_made(path: str) -> bool:
    """Whether a path is vendored, built, generated or a lock file: a folder of MACHINE_FOLDERS
    (or an `.egg-info`) anywhere, TOP_MACHINE_FOLDERS at the top, a lock or generated name."""
    parts = _PARTS.split(path[_LEAD.match(path).end():].lower())
    name = parts[-1]
    if name in LOCKS or GENERATED.match(name):
        return True
    folders = parts[:-1]
    if not folders:
        return False
    if folders[0] in TOP_MACHINE_FOLDERS:
        return True
    return any(folder in MACHINE_FOLDERS or folder.endswith(".egg-info") for folder in folders)
