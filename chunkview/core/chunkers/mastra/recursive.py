"""recursive, markdown without headers, latex (spec/mastra.md §5.2 to §5.5)."""

from __future__ import annotations

from functools import lru_cache
from itertools import compress, repeat
from operator import lt, not_
from typing import Any

from chunkview.core.chunkers.mastra.explain import current as notes_now
from chunkview.core.chunkers.mastra.jsregex import compile_js, escape, screens
from chunkview.core.chunkers.mastra.splitter import (
    Splitter,
    ends_of,
    int_bound,
    js_length,
    merge_splits,
    nodes,
    pack_range,
    split_on_separator,
    splitter_from,
)
from chunkview.core.chunkers.mastra.validate import check_overlap
from chunkview.core.errors import ChunkerError
from chunkview.core.text.js import W_CHARS, to_units

DEFAULT_SEPARATORS = ["\n\n", "\n", " ", ""]
MARKDOWN = ["\n#{1,6} ", "```\n", "\n\\*\\*\\*+\n", "\n---+\n", "\n___+\n", "\n\n", "\n", " ", ""]
LATEX = [
    "\\\\part\\*?\\{",
    "\\\\chapter\\*?\\{",
    "\\\\section\\*?\\{",
    "\\\\subsection\\*?\\{",
    "\\\\subsubsection\\*?\\{",
    "\\\\begin\\{.*?\\}",
    "\\\\end\\{.*?\\}",
    "\\\\[a-zA-Z]+\\{.*?\\}",
    "\n\n",
    "\n",
    " ",
    "",
]
CPP = [
    "\nclass ",
    "\nvoid ",
    "\nint ",
    "\nfloat ",
    "\ndouble ",
    "\nif ",
    "\nfor ",
    "\nwhile ",
    "\nswitch ",
    "\ncase ",
    "\n\n",
    "\n",
    " ",
    "",
]
TS = [
    "\nenum ",
    "\ninterface ",
    "\nnamespace ",
    "\ntype ",
    "\nclass ",
    "\nfunction ",
    "\nconst ",
    "\nlet ",
    "\nvar ",
    "\nif ",
    "\nfor ",
    "\nwhile ",
    "\nswitch ",
    "\ncase ",
    "\ndefault ",
    "\n\n",
    "\n",
    " ",
    "",
]
LANGUAGES = [
    "cpp",
    "go",
    "java",
    "kotlin",
    "js",
    "ts",
    "php",
    "proto",
    "python",
    "rst",
    "ruby",
    "rust",
    "scala",
    "swift",
    "markdown",
    "latex",
    "html",
    "sol",
    "csharp",
    "cobol",
    "c",
    "lua",
    "perl",
    "haskell",
    "elixir",
    "powershell",
]
SUPPORTED = {"markdown": MARKDOWN, "latex": LATEX, "cpp": CPP, "c": CPP, "ts": TS}


def language_separators(language: str) -> list[str]:
    """The separators of a supported ``language`` (regex mode), or the library's error."""
    if language not in SUPPORTED:
        raise ChunkerError(
            "Error",
            f"Language {language} is not supported! Please choose from {','.join(LANGUAGES)}",
        )
    return SUPPORTED[language]


def recursive_split(
    text: str, separators: list[str], is_regex: bool, splitter: Splitter
) -> list[str | None]:
    """Split on the first separator found, merge pieces under maxSize, recurse on the
    others with the separators after it; a piece with no separator left stays raw.
    With no separators at all JS's separator is undefined: every unit is a piece and the
    pieces are joined with "," (``Array.join(undefined)``)."""
    bound = int_bound(splitter.max_size)
    if separators and bound is not None and splitter.length is len and notes_now() is None:
        return _MeasuredSplit(separators, is_regex, splitter, bound).run(text)
    return _split_loop(text, separators, is_regex, splitter)


def _split_loop(
    text: str, separators: list[str], is_regex: bool, splitter: Splitter
) -> list[str | None]:
    """``recursive_split`` piece by piece, as the library loops (and notes reasons)."""
    separator: str | None = separators[-1] if separators else None
    remaining: list[str] = []
    for i, candidate in enumerate(separators):
        if candidate == "":
            separator = candidate
            break
        if compile_js(candidate if is_regex else escape(candidate)).search(text):
            separator, remaining = candidate, separators[i + 1 :]
            break
    pattern = separator if is_regex or separator is None else escape(separator)
    why = notes_now()  # the run's reasons (explain.py), or None
    if why is not None:
        why.split_at(separator)
    pieces = split_on_separator(text, pattern, splitter.keep_separator)
    joiner = "" if splitter.keep_separator else separator
    chunks: list[str | None] = []
    small: list[str | None] = []
    for piece in pieces:
        if js_length(splitter.length, piece) < splitter.max_size:
            small.append(piece)
            continue
        if small:
            chunks.extend(merge_splits(small, joiner, splitter))
            small = []
        if why is not None:
            why.too_large(js_length(splitter.length, piece), splitter.max_size, not remaining)
        if not remaining:
            chunks.append(piece)
            if why is not None:
                why.produced()
        elif piece is None:  # JS: undefined.split(...)
            raise ChunkerError("TypeError", "Cannot read properties of undefined (reading 'split')")
        else:
            chunks.extend(recursive_split(piece, remaining, is_regex, splitter))
        if why is not None:
            why.after_large()
    if small:
        chunks.extend(merge_splits(small, joiner, splitter))
    if why is not None:
        why.level_done()
    return chunks


@lru_cache(maxsize=64)
def _sources(separators: tuple[str, ...], is_regex: bool) -> tuple[str, ...]:
    """The regex sources of separators (a literal one escaped, as the library does)."""
    return separators if is_regex else tuple(escape(s) for s in separators)


class _Level:
    """One text split at one level of the recursion, before any size counts: where the
    separators after the one found start (``rest``), the glue of its chunks, the pieces,
    their lengths and ``ends`` (see ``ends_of``). ``below``: for a level that is kept,
    the kept levels of its large pieces by piece index; else None."""

    __slots__ = ("below", "ends", "glue", "lengths", "pieces", "rest")

    def __init__(self, rest: int, glue: str, pieces: list[str], lengths: list[int]) -> None:
        self.rest, self.glue = rest, glue
        self.pieces, self.lengths = pieces, lengths
        self.ends = ends_of(lengths, len(glue))
        self.below: dict[int, _Level] | None = None


#: a text shorter than this is read again at each run (it takes microseconds)
_KEEP_FROM = 65536
#: the levels kept for one text hold at most about this many copies of it
_KEPT_COPIES = 4
#: what a kept piece costs beside its units (its object), counted in units
_PIECE_COST = 16


class _KeptLevels:
    """The levels read from a long text, for its next runs: they depend on the text, the
    separators and keepSeparator only, and the app chunks one document again at every
    option change (reading the levels is two thirds of a run). Levels are kept, from
    the top down, while they fit in about ``_KEPT_COPIES`` copies of the text."""

    def __init__(self, text: str, key: tuple) -> None:
        self.text, self.key = text, key
        self.root: _Level | None = None
        self.room = _KEPT_COPIES * len(text)  # in units

    def take(self, text: str, level: _Level) -> bool:
        """Keep ``level``, read from ``text``, if it fits in the room left; True if kept."""
        cost = len(text) + _PIECE_COST * len(level.pieces)
        if cost > self.room:
            return False
        self.room -= cost
        level.below = {}
        return True


#: the levels kept for the last long text chunked twice
_last_levels: _KeptLevels | None = None
#: the last long text chunked (its id and length, not the text: it may go) and how: a
#: text is kept from its second run on (a text chunked once, as each edit makes one,
#: would only pay for keeping its levels)
_last_seen: tuple[int, int, tuple] | None = None


def _kept_levels(text: str, key: tuple) -> _KeptLevels | None:
    """The levels kept for ``text`` split as ``key`` says (separators, isSeparatorRegex,
    keepSeparator); new ones at its second run; None at its first run or for a short text."""
    global _last_levels, _last_seen
    if len(text) < _KEEP_FROM:
        return None
    last = _last_levels
    if last is not None and last.text is text and last.key == key:
        return last
    seen = (id(text), len(text), key)
    if seen == _last_seen:  # (a new text with an old one's id is only kept one run early)
        _last_levels = _KeptLevels(text, key)
        return _last_levels
    _last_seen = seen
    return None


class _MeasuredSplit:
    """``recursive_split`` when the length is ``len`` (UTF-16 units), maxSize has a whole
    bound and nobody asks for reasons: the pieces of a level are measured in one pass in
    C, those too large found in another, the runs between them packed by ``pack_range``;
    the settings are worked out once per run, not once per level, and the levels of a
    long text are kept for its next run (``_KeptLevels``). Same chunks, same order, same
    errors as the loop, which takes over for a level with an undefined piece.
    """

    def __init__(self, separators: list[str], is_regex: bool, splitter: Splitter, bound: int):
        self.separators = separators
        self.sources = _sources(tuple(separators), is_regex)
        self.screens = screens(self.sources)
        self.is_regex = is_regex
        self.splitter = splitter
        self.keep = splitter.keep_separator
        self.max_size = splitter.max_size
        self.bound = bound
        self.overlap = splitter.overlap
        self.strip = W_CHARS if splitter.strip_whitespace else None
        self.chunks: list[str | None] = []
        self.kept: _KeptLevels | None = None

    def run(self, text: str) -> list[str | None]:
        kept = self.kept = _kept_levels(text, (tuple(self.separators), self.is_regex, self.keep))
        root = kept.root if kept is not None else None
        if root is None:
            root = self.read(text, 0)
            if kept is not None and root is not None and kept.take(text, root):
                kept.root = root
        self.level(text, 0, root)
        return self.chunks

    def read(self, text: str, first: int) -> _Level | None:
        """The level of ``text`` with ``separators[first:]``: the first separator found
        in it and the pieces it splits into; None when a piece is undefined."""
        separators, sources, count = self.separators, self.sources, len(self.separators)
        found, rest = count - 1, count  # none found: the last separator, none remaining
        screened_to = first  # separators before this one passed a screen
        i = first
        while i < count:
            if separators[i] == "":
                found = i
                break
            if i >= screened_to:
                screen, screened_to = self.screens[i]
                if screen is not None and screen.search(text) is None:  # none of them here
                    for k in range(i, screened_to):
                        compile_js(sources[k])  # an invalid one throws, as in the loop
                    i = screened_to
                    continue
            if compile_js(sources[i]).search(text):
                found, rest = i, i + 1
                break
            i += 1
        split = split_on_separator(text, sources[found], self.keep)
        try:
            lengths = list(map(len, split))  # type: ignore[arg-type]
        except TypeError:  # an undefined piece
            return None
        glue = "" if self.keep else separators[found]
        return _Level(rest, glue, split, lengths)  # type: ignore[arg-type]

    def level(self, text: str, first: int, level: _Level | None) -> None:
        """``recursive_split(text, separators[first:])``, its chunks appended, from its
        ``level`` (None: a piece is undefined, and the loop runs)."""
        if level is None:  # the loop, where the library's error comes
            self.chunks.extend(
                _split_loop(text, self.separators[first:], self.is_regex, self.splitter)
            )
            return
        pieces, lengths, rest = level.pieces, level.lengths, level.rest
        max_size = self.max_size
        if not lengths or max(lengths) < max_size:
            large: list[int] = []
        else:  # the loop's test, length < maxSize, in C
            large = list(
                compress(range(len(pieces)), map(not_, map(lt, lengths, repeat(max_size))))
            )
        large.append(len(pieces))  # the end closes the last run
        glue = level.glue
        separator_len = len(glue)
        past, overlap, strip, chunks = (
            self.bound + separator_len,
            self.overlap,
            self.strip,
            self.chunks,
        )
        below = level.below
        begin = 0
        for i in large:
            if i > begin:
                pack_range(
                    pieces,
                    lengths,
                    level.ends,
                    begin,
                    i,
                    glue,
                    separator_len,
                    past,
                    overlap,
                    strip,
                    chunks,
                )
            if i == len(pieces):
                break
            if rest < len(self.separators):
                piece = pieces[i]
                inner = below.get(i) if below is not None else None
                if inner is None:
                    inner = self.read(piece, rest)
                    kept = self.kept  # not None: a level has ``below`` only when kept
                    if below is not None and inner is not None and kept is not None:
                        if kept.take(piece, inner):
                            below[i] = inner
                self.level(piece, rest, inner)
            else:
                chunks.append(pieces[i])
            begin = i + 1


def separator_chunks(
    units: str,
    options: dict[str, Any],
    metadata: dict[str, Any],
    separators: list[str],
    is_regex: bool,
) -> list[dict[str, Any]]:
    """The chunk nodes of a recursive split on ``separators`` (latex and markdown without
    headers are this with their own lists)."""
    splitter = splitter_from(options)
    check_overlap(splitter.max_size, splitter.overlap)
    chunks = recursive_split(units, separators, is_regex, splitter)
    return nodes(units, chunks, metadata, splitter)


def recursive_chunks(
    units: str, options: dict[str, Any], metadata: dict[str, Any]
) -> list[dict[str, Any]]:
    """The recursive strategy: a language's separators, or the given (or default) list."""
    language = options.get("language")
    if language:  # `options?.language`: "" is no language
        return separator_chunks(units, options, metadata, language_separators(language), True)
    separators = [to_units(s) for s in options.get("separators", DEFAULT_SEPARATORS)]
    is_regex = bool(options.get("isSeparatorRegex", False))
    return separator_chunks(units, options, metadata, separators, is_regex)


def latex_chunks(
    units: str, options: dict[str, Any], metadata: dict[str, Any]
) -> list[dict[str, Any]]:
    """The latex strategy: a recursive split on LaTeX's sectioning separators."""
    return separator_chunks(units, options, metadata, LATEX, True)
