"""The path map: one plan for every list of paths (`find`, `fd`, `git ls-files`, `rg --files`,
`rg -l`, `tree -fi`, Glob; a drawn `tree` of a folder; `du -a`, `ls -R`), whichever shape's planner
reads it.

A list too long to print becomes a map of its tree, expanded top-down: every folder of a level
is named with its exact file count before any folder of a deeper level, the biggest folders
opened first when a level does not fit whole. A leading folder every path shares (`./`,
`/usr/include/`) is never a group of its own: the map starts below it. Before the levels, the
files a reader looks for first are named whatever their depth (manifests, READMEs, entry
modules, config roots, a package's namesake module; the biggest folders' first; a vendored
package's manifest after the project's own), with the first and the last path of the list.
What the levels leave names the files of the opened folders, a few from every folder in turn,
shallow folders first. Lines read in tree order: a folder's line, its files, its folders.
A drawn tree (`tree`) keeps its own rows (greppable as drawn): a folder's row carries its count,
and a file named deep comes after the rows of the folders that lead to it.
"""

from __future__ import annotations

from functools import partial

from ..plan import Keep, Lines, Note
from ..render import counted, path_map_folder, path_map_rest
from .costs import MAX_LINE_CHARS, LineCosts, cut_note
from .pathclass import machine_made
from .rollup import split
from .search.signals import listed_path
from .search.sites import path_class
from ..values import field, value

PIN_SHARE = 0.25  # of the room, for the files named whatever their depth
ROOT_SHARE = 0.3  # of the room, for the files directly in the top folder (all or none)
_HEAVIEST = 10  # of a count list (`rg -c`), the heaviest files named before the levels
_MAX_MISSES = 32  # files in a row that do not fit before naming stops
_SPENT_ENOUGH = 0.97  # of the room: a map that spends this much is not planned again
# Of what the pinned files leave, for opening folders level by level: when a good share of the
# files could be named in the room (NAMEABLE), naming them tells more than counting them.
LEVEL_SHARE = 0.3
LEVEL_SHARE_WHEN_NAMEABLE = 0.1
NAMEABLE = 0.25
_SAMPLE = 200  # paths whose cost estimates a path's
_CHEAPEST_LINE = 2  # tokens: a path's line costs at least its name and its newline

# What a reader of a tree looks for first, whatever its depth: the build's manifest, the
# README, the entry module, the configuration at the root of a tool (by file name).
_MANIFESTS = frozenset({
    "package.json", "pyproject.toml", "setup.py", "setup.cfg", "Cargo.toml", "go.mod",
    "pom.xml", "build.gradle", "build.gradle.kts", "settings.gradle", "Makefile",
    "CMakeLists.txt", "meson.build", "Gemfile", "composer.json", "requirements.txt",
    "Pipfile", "mix.exs", "Package.swift", "BUILD", "BUILD.bazel", "WORKSPACE", "deno.json",
    "pubspec.yaml", "project.clj", "build.sbt", "configure.ac", "Dockerfile"})
_ENTRIES = frozenset({
    "__main__.py", "main.py", "cli.py", "app.py", "manage.py", "wsgi.py", "index.js",
    "index.ts", "index.mjs", "index.cjs", "main.js", "main.ts", "cli.js", "main.go",
    "main.rs", "lib.rs", "main.c", "main.cpp", "Main.java", "Program.cs"})
_CONFIGS = frozenset({
    "tsconfig.json", "tox.ini", "pytest.ini", "conftest.py", ".eslintrc", ".eslintrc.js",
    ".eslintrc.json", "eslint.config.js", "eslint.config.mjs", "vite.config.ts",
    "vite.config.js", "webpack.config.js", "jest.config.js", "babel.config.js",
    ".babelrc", "docker-compose.yml", "compose.yaml", ".pre-commit-config.yaml",
    "Cargo.lock", "go.sum", "MANIFEST.in", ".gitignore", ".editorconfig", "noxfile.py"})


def rank(name: str) -> int | None:
    """How soon a file of this name is named: manifests, READMEs, entry modules, configs;
    None for any other file."""
    if name in _MANIFESTS or name.endswith((".gemspec", ".csproj", ".sln", ".cabal")):
        return 0
    if name.lower().startswith("readme"):
        return 1
    if name in _ENTRIES:
        return 2
    return 3 if name in _CONFIGS else None


_NAMESAKE_RANK = 4  # after every rank() names


def _namesake(path: str) -> bool:
    """A module named after the folder that holds it (`solvers/solvers.py`), outside tests,
    docs and examples: the package's main module."""
    folder, _, name = path.replace("\\", "/").rpartition("/")
    stem = name.partition(".")[0]
    return (bool(stem) and (folder == stem or folder.endswith("/" + stem))
            and not path_class(path).aside)


@value(frozen=False)
class _Folder:
    label: str  # as printed: the paths' own spelling of it, ending in "/"
    depth: int
    files: list[int] = field(default_factory=list)  # positions in the path list, direct
    folders: dict[str, "_Folder"] = field(default_factory=dict)
    total: int = 0
    opened: bool = False
    hidden: list[str] = field(default_factory=list)  # an open folder's folders not shown
    spent: int = 0  # what opening it in part cost (given back when it opens further)
    unnamed: int = 0  # its own files not named yet

    def below(self):
        yield self
        for child in self.folders.values():
            yield from child.below()


@value
class PathMap:
    items: tuple  # Keep and Note items, in tree order
    named: int  # paths printed as the input's own lines
    files: int  # paths that are files (a directory's own line, `tree -fi`'s, is not)
    groups: int  # folder lines that count files not named


def _tree(paths: list[str]) -> _Folder:
    """The folder tree under the deepest folder every path shares."""
    parts = [split(path) for path in paths]
    common = parts[0][:-1]
    for each in parts[1:]:
        keep = 0
        while keep < len(common) and keep < len(each) - 1 and each[keep] == common[keep]:
            keep += 1
        common = common[:keep]
    lead = "/" if paths[0][:1] in "/\\" else ""
    root = _Folder(lead + "".join(part + "/" for part in common), 0)
    names = {}
    for position, each in enumerate(parts):
        folder = root
        for name in each[len(common):-1]:
            child = folder.folders.get(name)
            if child is None:
                child = folder.folders[name] = _Folder(folder.label + name + "/",
                                                       folder.depth + 1)
            folder = child
        folder.files.append(position)
        names[position] = each[-1] if each else ""
    for folder in root.below():
        # A directory's own line (`tree -fi`, `du -a`): its folder's line stands for it.
        folder.files = [p for p in folder.files if names[p] not in folder.folders]
        folder.unnamed = len(folder.files)
    _count(root)
    return root


def _level_room(job: "_Spend", room: int, left: int, count: int) -> int:
    """What opening folders level by level may spend of `left` (what pinning left of `room`):
    LEVEL_SHARE of it; once a good share of the files could be named in the room (NAMEABLE),
    naming them tells more than counting them: LEVEL_SHARE_WHEN_NAMEABLE, but never less than
    the levels had at the budget where naming took over. (A bigger budget never opens fewer
    folders: with fewer open, the files named in turn come from a few big folders' queues.)"""
    step = max(1, count // _SAMPLE)
    sample = range(0, count, step)
    nameable = NAMEABLE * sum(job._line(p) for p in sample) / len(sample) * count
    if room < nameable:
        return int(left * LEVEL_SHARE)
    return int(max(left * LEVEL_SHARE_WHEN_NAMEABLE, LEVEL_SHARE * nameable * left / room))


def _counts_own(folder: _Folder, left: int) -> bool:
    """Whether an open folder needs a line for its `left` own files not named (the root has
    no line of its own to count them)."""
    return left > 0 and (left < folder.total or not folder.depth)


def _count(folder: _Folder) -> int:
    folder.total = len(folder.files) + sum(_count(child) for child in folder.folders.values())
    return folder.total


@value
class Sized:
    """A list that sizes its paths (`du -a`): the size of each folder that has a row of its
    own, by its label (`crypto/tls/`): (the size as the row spells it, in bytes). Folders open
    biggest first."""
    folders: dict[str, tuple[str, int]]


def plan_paths(rows: list[str], lines: Lines, indexes: list[int], room: int,
               costs: LineCosts, drawn: list[str] | None = None,
               weights: list[int] | None = None, sized: Sized | None = None,
               folder_rows: dict[str, int] | None = None,
               paths: list[str] | None = None, shown: set[int] = frozenset()) -> PathMap:
    """The map of the paths on rows `indexes` (in the list's order) in about `room` tokens.
    `drawn`: the paths of the rows (`ls -R`'s names), which the map names in full;
    `folder_rows`: with `drawn`, a drawn tree (`tree`): the row of each folder, by its label;
    its rows are shown as drawn (`├── pyproject.toml`), a folder's with its count after it;
    `weights`: each path's count (`rg -c`) or size (`du`): the heaviest are named first;
    `sized`: the folder sizes of a `du` listing; `paths`: the path of each row where the row
    holds more than its path (fields in front: `du`'s size, `wc -l`'s count, `sha256sum`'s
    digest, `git ls-tree`'s mode and object), which is shown whole; `shown`: the positions
    of rows shown before the map (a sorted list's largest): named, counted in their folders,
    not printed again."""
    if paths is None:
        paths = drawn if drawn is not None else [listed_path(rows[i]) for i in indexes]
    job = partial(_Spend, rows, indexes, costs, paths=paths, drawn=drawn, weights=weights,
                  sized=sized, folder_rows=folder_rows, shown=shown)
    found = _plan_once(job, lines, room, costs, paths)
    # The plan spends estimates (a folder whose files all end up named loses its line): what
    # the map left of its room is spent once more, planned afresh with that room added.
    # When that overshoots, with half of it added, then a quarter.
    spent = _spent(found, lines, costs)
    if spent < room * _SPENT_ENOUGH:
        for part in (1, 2, 4):
            again = _plan_once(job, lines, room + (room - spent) // part, costs, paths)
            if again.named >= found.named and _spent(again, lines, costs) <= room:
                found = again
                break
    return found


def _spent(found: PathMap, lines: Lines, costs: LineCosts) -> int:
    return sum(costs.note(item.text) if isinstance(item, Note) else
               costs.line(lines.line_of(item.start)) for item in found.items)


def _plan_once(make_job, lines: Lines, room: int, costs: LineCosts,
               paths: list[str]) -> PathMap:
    root = _tree(paths)
    owner = {}  # position -> its folder
    for folder in root.below():
        for position in folder.files:
            owner[position] = folder
    job = make_job(owner, len(root.label))
    used = job.open_levels(root, room, deepest=0)
    used += job.pin(paths, int(room * PIN_SHARE))
    used += job.name_root(root, int(room * ROOT_SHARE))
    used += job.open_levels(root, _level_room(job, room, room - used, len(paths)))
    used += job.name_files(root, room - used)
    used += job.open_levels(root, room - used)  # what naming files left opens more
    used += job.name_files(root, room - used)
    used += job.complete(root, room - used)
    job.name_files(root, room - used)  # what the completed folders' lines gave back
    return job.render(root, lines)


class _Spend:
    def __init__(self, rows, indexes, costs, owner, top, paths, drawn, weights, sized,
                 folder_rows, shown) -> None:
        self.rows, self.indexes, self.costs, self.owner = rows, indexes, costs, owner
        self.paths, self.shown = paths, shown
        self.top = top  # the length of the folder every path shares (`./node_modules/`)
        self.entries: dict[int, bool] = {}  # position -> whether it is an entry module
        self.drawn, self.weights, self.sized = drawn, weights, sized
        # a count list (`rg -c`, `grep -c`): weighed by matches, not sizes
        self.counts_matches = weights is not None and sized is None
        self.folder_rows = folder_rows
        self.named: set[int] = set()
        for position in shown:
            if position in owner:  # (a directory's own row has no folder of its own)
                self._name(position)
        self.sampled: list[int] = []  # files named in turn from the folders (name_files)

    def _heaviest_first(self, positions: list[int]) -> list[int]:
        if self.weights is None:
            return positions
        return sorted(positions, key=lambda p: (-self.weights[p], p))

    def _in_turn(self, folder: _Folder, positions: list[int]) -> list[int]:
        """A folder's files in the order they are named: its own entry modules first (the search
        planner's own test, sites.path_class: `__init__.py`, `index.js`, `lib.rs`, a module
        named after its folder: `solvers/solvers.py`), never a vendored or built one; then in
        the list's order. A list that weighs its paths (`du`'s sizes, `rg -c`'s counts) names
        the heaviest first: its weights say what matters; a count list's files that did not
        match (`grep -c`'s `path:0`) are only counted."""
        if self.weights is not None:
            return self._heaviest_first([p for p in positions if not self._unmatched(p)])
        return sorted(positions, key=lambda p: self.owner[p] is not folder or not self._entry(p))

    def _unmatched(self, position: int) -> bool:
        """A row of a count list that counts nothing (`path:0`)."""
        return self.counts_matches and not self.weights[position]

    def _entry(self, position: int) -> bool:
        """Told below the folder every path shares: in a list of `node_modules/` the
        packages are what was listed, not someone else's code. (Told once a path: the
        folders' queues are sorted again each time files are named.)"""
        known = self.entries.get(position)
        if known is None:
            path = self.paths[position][self.top:]
            known = self.entries[position] = path_class(path).entry and not machine_made(path)
        return known

    # ---- costs

    def _line(self, position: int) -> int:
        if self.drawn is not None and self.folder_rows is None:
            return self.costs.note(self.drawn[position])
        return self.costs.line(self.indexes[position])

    def _label(self, folder: _Folder, more: int | None = None) -> int:
        if more is None and folder.total == 1:  # its only file is named instead
            return self._line(next(p for f in folder.below() for p in f.files))
        item = self._folder_item(folder, folder.total if more is None else more,
                                 more is not None)
        return (self.costs.line(self.folder_rows[folder.label], item.suffix)
                if isinstance(item, Keep) else self.costs.note(item.text))

    def _folder_item(self, folder: _Folder, files: int, own: bool = False,
                     lines: Lines | None = None) -> Note | Keep:
        """A folder's line: in a drawn tree its own row (`├── src`), its count after it."""
        row = None if own or self.folder_rows is None else self.folder_rows.get(folder.label)
        if row is None:
            return Note(self._folder_line(folder, files, own))
        suffix = f"  ({counted(files, 'file')})"
        if lines is None:
            return Keep(row, -1, suffix)  # (only its cost is asked: _count_lines)
        return Keep(lines.start(row), lines.end(row), suffix)

    def _folder_line(self, folder: _Folder, files: int, own: bool = False) -> str:
        """A folder's line; in a sized list, its size in front as the list spells it."""
        line = path_map_folder(folder.label, files, own)
        size = self.sized.folders.get(folder.label) if self.sized and not own else None
        return f"{size[0]}\t{line}" if size else line

    def _biggest_first(self, folder: _Folder) -> tuple:
        """The order folders open in: the most files first, or in a sized list the biggest."""
        if self.sized is not None:
            return (-self.sized.folders.get(folder.label, ("", 0))[1], folder.label)
        return (-folder.total, folder.label)

    def _unnamed(self, folder: _Folder) -> int:
        return folder.unnamed

    def _name(self, position: int) -> None:
        self.named.add(position)
        self.owner[position].unnamed -= 1

    def _unname(self, position: int) -> None:
        self.named.discard(position)
        self.owner[position].unnamed += 1

    def _more(self, folder: _Folder, left: int | None = None) -> int:
        """The line counting an open folder's own files not named, `left` of them: none when
        all are named, or when the folder's own line counts them (they are all it holds)."""
        left = self._unnamed(folder) if left is None else left
        return self._label(folder, left) if _counts_own(folder, left) else 0

    def opening(self, folder: _Folder) -> int:
        """What opening a folder adds: its folders' lines and the count of its own files."""
        return sum(self._label(child) for child in folder.folders.values()) + self._more(folder)

    # ---- spending

    def pin(self, paths: list[str], room: int) -> int:
        """A list's heaviest (a count list's, a size list's), the first and last paths, then
        the files a reader looks for first (rank()'s, then a package's namesake module), those
        of the folders
        that hold the most files first (the root's, then the biggest package's:
        `packages/vite/package.json` before a test fixture's `playground/css/package.json`;
        a folder holds more than any folder inside it, so along a branch the shallowest
        comes first); of a vendored or built package only its manifest, after the project's
        own (`pip/_vendor/rich/__main__.py` is never pinned), while they fit in room."""
        order = ([] if self.weights is None else
                 self._heaviest_first(list(self.owner))[:_HEAVIEST])
        order += [p for p in (0, len(paths) - 1) if p in self.owner]  # not a directory
        keyed = []
        for position, path in enumerate(paths):
            name = path.rstrip("/\\")
            name = name[max(name.rfind("/"), name.rfind("\\")) + 1:]
            below = path[self.top:]  # (below the folder every path shares)
            found = rank(name)
            if found is None and _namesake(below):
                found = _NAMESAKE_RANK
            if found is not None and position in self.owner:
                folder = self.owner[position]
                # A test fixture's or an example's manifest after the project's own; a
                # vendored or built package's manifest after those (it says what was
                # vendored), never its modules.
                made = machine_made(below)
                if not made or found == 0:
                    keyed.append((made, self._aside(folder), -folder.total, folder.depth,
                                  found, position))
        order += [key[-1] for key in sorted(keyed)]
        used = 0
        for position in dict.fromkeys(order):
            if position in self.named:  # (shown above the map)
                continue
            cost = self._name_cost(position)
            if used + cost <= room:
                used += cost
                self._name(position)
        return used

    def name_root(self, root: _Folder, room: int) -> int:
        """The files directly in the folder every path shares, all of them when they fit in
        room (none otherwise): a tree's top holds its manifests, configs and the modules a
        reader opens first (`typing.py` in a standard library, `pnpm-workspace.yaml` beside
        `package.json`; `six.py` in `du -a dist-packages`). Not in a count list (`rg -c`):
        its counts say what matters."""
        if self.counts_matches:
            return 0
        rest = [p for p in root.files if p not in self.named
                and not machine_made(self.paths[p][self.top:])]
        if not rest or not root.folders:
            return 0
        cost = sum(self._line(p) for p in rest)
        if cost > room:
            return 0
        for position in rest:
            self._name(position)
        return cost

    def _name_cost(self, position: int) -> int:
        """Naming a file: its line, less the count line it leaves when it is the last one of
        an open folder's own files."""
        folder = self.owner[position]
        cost = self._line(position)
        if folder.opened:
            left = self._unnamed(folder)
            cost += self._more(folder, left - 1) - self._more(folder, left)
        return cost

    def open_levels(self, root: _Folder, room: int, deepest: int = -1) -> int:
        """Open folders a level at a time while room lasts; when a level does not fit whole,
        the biggest of it that fit open (the first that does not, with its biggest folders and
        a count of the rest) and no deeper level does."""
        partial = [f for f in root.below() if f.hidden]
        refund = sum(f.spent for f in partial)
        for folder in partial:  # opened in part: asked again first, with the room now left
            folder.opened, folder.hidden, folder.spent = False, [], 0
        room += refund
        used = 0
        frontier = [child for f in root.below() if f.opened for child in f.folders.values()
                    if not child.opened and child.label not in f.hidden]
        if not root.opened:
            frontier = [root]
        top = min((f.depth for f in frontier), default=0)
        level = [f for f in frontier if f.depth == top]
        while level:
            level.sort(key=self._biggest_first)
            deeper, unopened = [], []
            for folder in level:
                cost = self.opening(folder)
                if used + cost > room:
                    unopened.append(folder)
                    continue
                folder.opened = True
                used += cost
                deeper += folder.folders.values()
            if unopened:  # the biggest that did not fit: its biggest folders, if any fit
                used += self._open_part(unopened[0], room - used)
            level = deeper if not unopened and deepest < 0 else []
        return used - refund

    def _open_part(self, folder: _Folder, room: int) -> int:
        children = sorted(folder.folders.values(), key=self._biggest_first)
        used = self._more(folder)
        shown = 0
        for child in children:
            rest = children[shown + 1:]
            cost = self._label(child) + (self._rest(folder, rest) if rest else 0)
            if used + cost > room:
                break
            used += self._label(child)
            shown += 1
        if not shown and folder.depth:
            return 0  # the root opens even so: its line counts what it holds
        folder.opened = True
        folder.hidden = sorted(child.label for child in children[shown:])
        folder.spent = used + (self._rest(folder, children[shown:]) if folder.hidden else 0)
        return folder.spent

    def _rest(self, folder: _Folder, children: list[_Folder]) -> int:
        return self.costs.note(path_map_rest(folder.label, sum(c.total for c in children),
                                             len(children)))

    def name_files(self, root: _Folder, room: int) -> int:
        """A file from every open folder in turn (shallow folders first), then from under
        every closed folder shown, while room lasts; the project's own folders first."""
        open_folders = sorted((f for f in root.below() if f.opened),
                              key=lambda f: (f.depth, f.label))
        queues = [self._in_turn(f, [p for p in f.files if p not in self.named])
                  for f in open_folders]
        # Then the files under each closed folder that has a line, named beneath it.
        closed = sorted((child for f in open_folders for child in f.folders.values()
                         if not child.opened and child.label not in f.hidden),
                        key=lambda f: (f.depth, f.label))
        # The project's own folders' files before those of its tests, docs, examples and
        # vendored or built folders (`tests/`, `doc/`, `__pycache__/`): counted, named last;
        # unless the list weighs its paths (`du`: what is big is what is looked for).
        aside = {id(f): self.weights is None and self._aside(f) for f in root.below()}
        own = [q for f, q in zip(open_folders, queues) if not aside[id(f)]]
        last = [q for f, q in zip(open_folders, queues) if aside[id(f)]]
        for folder in closed:
            below = [p for sub in folder.below() for p in sub.files if p not in self.named]
            own.append(self._in_turn(folder, [p for p in below if not aside[id(self.owner[p])]]))
            last.append(self._in_turn(folder, [p for p in below if aside[id(self.owner[p])]]))
        used = misses = 0
        for part in (own, last):
            spent, misses = self._in_turns(part, room - used, misses)
            used += spent
        return used

    def _aside(self, folder: _Folder) -> bool:
        """A folder of tests, docs or examples, or one a machine made, below the folder
        every path shares."""
        path = folder.label[self.top:] + "_"
        return path_class(path).aside or machine_made(path)

    def _in_turns(self, queues: list[list[int]], room: int, misses: int) -> tuple[int, int]:
        """A file from each queue in turn while room lasts: what it cost, and the files
        missed so far (naming stops past _MAX_MISSES)."""
        used = turn = 0
        while misses <= _MAX_MISSES and any(turn < len(queue) for queue in queues):
            for queue in queues:
                if turn < len(queue):
                    cost = self._name_cost(queue[turn])
                    if used + cost > room:
                        misses += 1
                        if misses > _MAX_MISSES:
                            break
                        continue  # a shorter path may fit
                    used += cost
                    self._name(queue[turn])
                    self.sampled.append(queue[turn])
            turn += 1
        return used, misses

    def complete(self, root: _Folder, room: int) -> int:
        """Name the rest of a folder when that costs no more than the count lines it spares,
        the room left and the last files sampled from folders whose count line stays (taken
        back only for as many names or more): a count never costs more than the names it
        stands for. Smallest rests first; only folders with a line of their own are asked."""
        candidates: list[tuple[int, str, _Folder]] = []

        def walk(folder: _Folder, shown: bool) -> tuple[int, int]:
            rest, folders = folder.unnamed, 1
            for child in folder.folders.values():
                below, count = walk(child, shown and folder.opened
                                    and child.label not in folder.hidden)
                rest, folders = rest + below, folders + count
            if shown and folder.depth and rest and folder.total > 1 and (
                    rest <= folders + room // _CHEAPEST_LINE):
                candidates.append((rest, folder.label, folder))
            return rest, folders

        walk(root, True)
        used = 0
        for _, _, folder in sorted(candidates, key=lambda c: c[:2]):
            rest = [p for f in folder.below() for p in f.files if p not in self.named]
            if not rest or any(map(self._unmatched, rest)):
                continue  # (a `path:0` row is only counted)
            inside = set(map(id, folder.below()))
            cost = sum(self._line(p) for p in rest) - self._count_lines(folder)
            taken = []
            aside = self.weights is None and self._aside(folder)
            kept = []  # the project's own files: a folder of tests never takes their names
            while used + cost > room and len(taken) < len(rest) and self.sampled:
                donor = self.sampled.pop()
                if aside and not self._aside(self.owner[donor]):
                    kept.append(donor)
                    continue
                if id(self.owner[donor]) in inside or not self._counted(self.owner[donor]):
                    continue  # (dropped from the samples: it keeps its name)
                taken.append(donor)
                cost -= self._line(donor)
            self.sampled += reversed(kept)
            if used + cost > room:
                self.sampled += reversed(taken)
                continue
            used += cost
            for position in taken:
                self._unname(position)
            for position in rest:
                self._name(position)
        return used

    def _counted(self, folder: _Folder) -> bool:
        """Whether a file of this folder, taken back, joins a count line that stays."""
        if folder.opened:
            return folder.unnamed > 0
        return any(f.unnamed for f in folder.below())

    def _count_lines(self, folder: _Folder) -> int:
        """What the count lines of a folder's part of the map cost."""
        counts: list = []
        self._emit(folder, None, counts)
        return sum(self.costs.line(item.start, item.suffix) if isinstance(item, Keep)
                   else self.costs.note(item.text) for item in counts if item is not None)

    # ---- the items

    def render(self, root: _Folder, lines: Lines) -> PathMap:
        items: list = []
        groups = self._emit(root, lines, items)
        return PathMap(tuple(items), len(self.named), root.total, groups)

    def _emit(self, folder: _Folder, lines: Lines | None, items: list) -> int:
        """Items of a folder: its line (not the root's), its files named, the count of the
        others, then its folders; how many count lines it wrote. A closed folder's line is
        followed by the files named inside it, at any depth. lines None: the count lines
        only. A folder all of whose files are named has no line, its names say it all (in a
        drawn tree, its row without a count)."""
        if not folder.opened or folder.total == 1:
            if folder.total == 1 and lines is None:
                return 0  # its line is its file's, named when the map is drawn
            if folder.total == 1:  # a folder of one file: the file's line says more
                for p in [p for f in folder.below() for p in f.files if p not in self.named]:
                    self._name(p)
            named = self._sorted(p for f in folder.below() for p in f.files if p in self.named)
            counts = len(named) < folder.total
            items.extend(self._head(folder, counts, lines))
            items.extend(self._keep_under(folder, named, lines))
            return int(counts)
        groups = 0
        items.extend(self._head(folder, folder.depth and folder.total > 1
                                and any(f.unnamed for f in folder.below()), lines))
        items.extend(self._keep(p, lines)
                     for p in self._sorted(p for p in folder.files if p in self.named))
        left = self._unnamed(folder)
        if _counts_own(folder, left):
            items.append(Note(self._folder_line(folder, left, True)))
            groups += 1
        hidden = [folder.folders[name] for name in sorted(folder.folders)
                  if folder.folders[name].label in set(folder.hidden)]
        for name in sorted(folder.folders):
            if folder.folders[name] not in hidden:
                groups += self._emit(folder.folders[name], lines, items)
        if hidden:
            items.append(Note(path_map_rest(folder.label, sum(f.total for f in hidden),
                                            len(hidden))))
            for child in hidden:  # the files named inside them
                items.extend(self._keep_under(folder, self._sorted(
                    p for f in child.below() for p in f.files if p in self.named), lines))
            groups += 1
        return groups

    def _sorted(self, positions) -> list[int]:
        positions = [p for p in positions if p not in self.shown]  # (printed above the map)
        if self.folder_rows is not None:  # a drawn tree: in its own order
            return sorted(positions, key=lambda p: self.indexes[p])
        return sorted(positions, key=lambda p: self.paths[p])  # (a row may open with fields)

    def _head(self, folder: _Folder, counts: bool, lines: Lines | None) -> list:
        """A folder's line with its count; without a count only a drawn tree's row, which
        its files' rows need above them."""
        if counts:
            return [self._folder_item(folder, folder.total, lines=lines)]
        row = None if self.folder_rows is None else self.folder_rows.get(folder.label)
        return [] if row is None or lines is None else [Keep(lines.start(row), lines.end(row))]

    def _keep_under(self, folder: _Folder, named: list[int], lines: Lines | None) -> list:
        """The items of files named under a folder whose folders between are not shown: in a
        drawn tree, each file's row after the rows of the folders that lead to it (once)."""
        if self.folder_rows is None or lines is None:
            return [self._keep(p, lines) for p in named]
        items, drawn = [], set()
        for position in named:
            label = folder.label
            for name in self.owner[position].label[len(folder.label):].split("/")[:-1]:
                label += name + "/"
                row = self.folder_rows.get(label)
                if row is not None and row not in drawn:
                    drawn.add(row)
                    items.append(Keep(lines.start(row), lines.end(row)))
            items.append(self._keep(position, lines))
        return items

    def _keep(self, position: int, lines: Lines | None) -> Keep | Note | None:
        if lines is None:  # (counting the count lines only)
            return None
        if self.drawn is not None and self.folder_rows is None:
            return Note(self.drawn[position])
        index = self.indexes[position]
        row = self.rows[index]
        start = lines.start(index)
        if len(row) <= MAX_LINE_CHARS:
            return Keep(start, lines.end(index))
        return Keep(start, start + MAX_LINE_CHARS, suffix=cut_note(row))
