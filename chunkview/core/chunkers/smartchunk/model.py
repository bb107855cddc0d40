"""What the reference, the fast paths and the explain module share: the options as the
README defines them, and a chunk as the cascade cuts it.

smartchunk has no reference code to run; its rules are its README (cited by section:
"How does it work?", "What strategies are available?", "What options are available?",
"What does the returned data look like?"). Where the README leaves a choice open, the
choice is written down in ``reference``'s docstring.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from chunkview.core.errors import ChunkerError

#: README "What strategies are available?": the default hierarchy, in order
STRATEGIES = ("paragraph", "line", "sentence", "word", "grapheme")
#: README "What strategies are available?": word cuts overlap up to 20 %, graphemes 10 %
OVERLAP_SHARE = {"word": 0.2, "grapheme": 0.1}

#: a unit of one strategy, (start, end) in code points, its trailing separator included
Unit = tuple[int, int]
#: a piece as the cascade cuts it, (start, end, strategy); a Piece once it is a chunk
Cut = tuple[int, int, str]


class Piece(NamedTuple):
    """A chunk in code points, and the strategy that cut it (a tuple: built by the
    hundred thousand, ten times cheaper than a frozen dataclass)."""

    start: int  # code points
    end: int
    strategy: str


class Options(NamedTuple):
    """README "What options are available?", read and checked."""

    max_size: int  # bytes
    min_size: int  # bytes
    strategies: list[str]  # in order of preference, each once
    locale: str


def read_options(options: dict[str, Any] | None) -> Options:
    """The README's options with their defaults ("How does it work?": maxSize 200,
    minSize 20; "What options are available?": locale 'en', all five strategies).
    A locale given as a list is its first item (Intl.Segmenter's best fit)."""
    options = options or {}
    max_size = options.get("maxSize", 200)
    min_size = options.get("minSize", 20)
    strategies = options.get("strategies", list(STRATEGIES))
    locale = options.get("locale", "en")
    if isinstance(locale, list):
        locale = locale[0] if locale else "en"
    for name, value in (("maxSize", max_size), ("minSize", min_size)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise ChunkerError("TypeError", f"{name} must be an integer number of bytes")
    if max_size < 4:
        # "It's guaranteed that no returned chunks will be greater than this size"
        raise ChunkerError(
            "RangeError",
            f"maxSize {max_size} is below 4 bytes, the size of "
            "one UTF-8 character: no chunk could be guaranteed to fit",
        )
    if min_size < 0 or min_size > max_size:
        raise ChunkerError(
            "RangeError", f"minSize {min_size} must be between 0 and maxSize ({max_size})"
        )
    if not isinstance(strategies, list) or any(s not in STRATEGIES for s in strategies):
        raise ChunkerError("TypeError", f"strategies must be a list of {', '.join(STRATEGIES)}")
    return Options(max_size, min_size, list(dict.fromkeys(strategies)), str(locale))


def strategy_at(strategies: list[str], level: int) -> str:
    """The strategy of cascade level ``level``: graphemes once the strategies run out,
    so that a character is never cut."""
    return strategies[level] if level < len(strategies) else "grapheme"
