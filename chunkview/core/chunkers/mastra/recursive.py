"""recursive, markdown without headers, latex (spec/mastra.md §5.2 to §5.5)."""

from __future__ import annotations

from array import array
from functools import lru_cache
from itertools import accumulate, compress, repeat
from operator import add, lt, ne, not_, sub
from typing import Any

from chunkview.core.chunkers.mastra.explain import current as notes_now
from chunkview.core.chunkers.mastra.places import PlaceNotes
from chunkview.core.chunkers.mastra.places import current as places_now
from chunkview.core.chunkers.mastra.splitter import (
    PiecePlaces,
    Splitter,
    ends_of,
    int_bound,
    js_length,
    merge_splits,
    nodes,
    pack_range,
    split_on_separator,
    split_placed,
    splitter_from,
)
from chunkview.core.chunkers.mastra.validate import check_overlap
from chunkview.core.errors import ChunkerError
from chunkview.core.text.js import W_CHARS, to_units
from chunkview.core.text.jsregex import compile_js, escape, literal_of, screens
from chunkview.core.text.kept import also_forget

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
    text: str,
    separators: list[str],
    is_regex: bool,
    splitter: Splitter,
    places: PlaceNotes | None = None,
) -> list[str | None]:
    """Split on the first separator found, merge pieces under maxSize, recurse on the
    others with the separators after it; a piece with no separator left stays raw.
    With no separators at all JS's separator is undefined: every unit is a piece and the
    pieces are joined with "," (``Array.join(undefined)``). ``places``: notes where each
    chunk was cut from ``text``, when the split can tell (the measured split)."""
    bound = int_bound(splitter.max_size)
    if separators and bound is not None and splitter.length is len:
        if notes_now() is None:
            return _MeasuredSplit(separators, is_regex, splitter, bound, places).run(text)
        if places is not None:
            places.for_reasons = True
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


@lru_cache(maxsize=64)
def _literals(sources: tuple[str, ...]) -> tuple[str | None, ...]:
    """For each regex source, the units its every match is, if it is a plain string
    (every literal separator, and a regex one such as markdown's blank line); else None."""
    return tuple(literal_of(source) for source in sources)


class _Level:
    """One text split at one level of the recursion, before any size counts: the
    separator found (its index), where the separators after it start (``rest``), the
    glue of its chunks, the pieces, their lengths and ``ends`` (see ``ends_of``).
    ``below``: for a level that is kept, the kept levels of its large pieces by piece
    index; else None. ``at``: where its pieces lie in the whole text, once worked out
    (``_MeasuredSplit.piece_places``)."""

    __slots__ = ("at", "below", "ends", "found", "glue", "lengths", "pieces", "rest")

    def __init__(
        self,
        found: int,
        rest: int,
        glue: str,
        pieces: list[str],
        lengths: list[int],
    ) -> None:
        self.found, self.rest, self.glue = found, rest, glue
        self.pieces, self.lengths = pieces, lengths
        self.ends = ends_of(lengths, len(glue))
        self.below: dict[int, _Level] | None = None
        self.at: PiecePlaces | None = None


def piece_offsets(text: str, literal: str, keep: object) -> list[int]:
    """Where each piece ``split_on_separator`` cuts ``text`` into starts, for a separator
    that is the plain string ``literal`` (in the keepSeparator mode ``keep``). Every such
    piece is the text at its offset: a part between separators, or in a keep mode a
    part with the separator before it ("start") or after it ("end")."""
    if literal == "":  # every unit is a piece
        return list(range(len(text)))
    parts = list(map(len, text.split(literal)))
    step = len(literal)
    starts = part_starts(parts, step)
    if not keep:  # the parts that are not empty
        return list(compress(starts, parts))
    last = len(parts) - 1
    if keep == "end":  # each part but the last with the separator after it, then the last
        return starts[:last] + starts[last : last + 1 if parts[last] else last]
    if text == "":
        return []
    # "start" (or any other truthy mode): the first part, then each separator with the
    # part after it when that part is not empty
    after = [start - step for start in compress(starts[1 : last + 1], parts[1:])]
    return [0, *after] if parts[0] else after


def part_starts(part_lengths: list[int], step: int) -> list[int]:
    """Where each part of a ``str.split`` starts, from the parts' lengths and the
    separator's (``step``); one more: where a part after the last would."""
    return list(accumulate(map(add, part_lengths, repeat(step)), initial=0))


def piece_places(
    offsets: list[int], lengths: list[int], base: int, glue: str, glue_is_text: bool
) -> PiecePlaces:
    """The pieces of a level at ``offsets`` in its text, which starts at ``base`` in the
    whole: where each starts there, and its stretch (see ``PiecePlaces``). Two pieces
    are one glue apart when the text has nothing else between them: no empty piece was
    dropped there, and the glue is the separator itself (``glue_is_text``; else every
    piece is a stretch of its own). A piece at -1 is not the text anywhere (a regex's
    capture joined to a separator it does not touch): it stays at -1, a stretch alone."""
    if offsets and min(offsets) < 0:  # (rare: only a regex with groups, kept separators)
        starts = array("q", [at + base if at >= 0 else -1 for at in offsets])
        runs, run = array("q"), 0
        for k, at in enumerate(offsets):
            before = offsets[k - 1] if k else -1
            touching = at >= 0 and before >= 0 and at - before == lengths[k - 1] + len(glue)
            if k and not (glue_is_text and touching):
                run += 1
            runs.append(run)
        return PiecePlaces(starts, runs)
    starts = array("q", map(add, offsets, repeat(base)) if base else offsets)
    if not glue_is_text:
        return PiecePlaces(starts, array("q", range(len(offsets))))
    apart = map(sub, offsets[1:], offsets)  # from each piece to the next
    joined = map(add, lengths, repeat(len(glue)))  # a piece and a glue
    return PiecePlaces(starts, array("q", accumulate(map(ne, apart, joined), initial=0)))


#: a regex level of more pieces than this is not placed: its split is read again match by
#: match for the offsets (about 0.3 µs a match), where a plain string's split tells them
#: in C, so its chunks are searched for instead
_PLACED_MATCHES = 100_000

#: a text shorter than this is read again at each run (it takes microseconds)
_KEEP_FROM = 65536
#: the levels kept for one text hold at most about this many copies of it
_KEPT_COPIES = 4
#: what a kept piece costs beside its units (its object, and once placed its place and
#: stretch: two int64), counted in units
_PIECE_COST = 24


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


@also_forget
def _forget_levels() -> None:
    global _last_levels, _last_seen
    _last_levels = _last_seen = None


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

    With ``places``, each chunk's start in the text is noted as it is cut: the offset of
    its first piece in its level's text, plus where that text starts in the whole, plus
    what the trim took. A plain-string separator's ``str.split`` tells the offsets; a
    regex's split notes them as it cuts (``split_placed``).
    """

    def __init__(
        self,
        separators: list[str],
        is_regex: bool,
        splitter: Splitter,
        bound: int,
        places: PlaceNotes | None = None,
    ):
        self.separators = separators
        self.sources = _sources(tuple(separators), is_regex)
        self.screens = screens(self.sources)
        self.literals = _literals(self.sources)
        self.is_regex = is_regex
        self.splitter = splitter
        self.keep = splitter.keep_separator
        self.max_size = splitter.max_size
        self.bound = bound
        self.overlap = splitter.overlap
        self.strip = W_CHARS if splitter.strip_whitespace else None
        self.chunks: list[str | None] = []
        self.kept: _KeptLevels | None = None
        self.places = places

    def run(self, text: str) -> list[str | None]:
        kept = self.kept = _kept_levels(text, (tuple(self.separators), self.is_regex, self.keep))
        root = kept.root if kept is not None else None
        if root is None:
            root = self.read(text, 0, 0)
            if kept is not None and root is not None and kept.take(text, root):
                kept.root = root
        self.level(text, 0, root, 0)
        if self.places is not None:
            self.places.complete = True
        return self.chunks

    def read(self, text: str, first: int, base: int) -> _Level | None:
        """The level of ``text`` with ``separators[first:]``: the first separator found
        in it and the pieces it splits into; None when a piece is undefined. ``base``:
        where ``text`` starts in the whole (-1: not known), for placing its pieces."""
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
        glue = "" if self.keep else separators[found]
        literal = self.literals[found]
        if literal and not self.keep:  # the usual case: a str.split, which tells the offsets
            parts = text.split(literal)
            pieces = list(filter(None, parts))
            level = _Level(found, rest, glue, pieces, list(map(len, pieces)))
            if self.places is not None and base >= 0:  # (from this split, not another)
                lengths = list(map(len, parts))
                offsets = list(compress(part_starts(lengths, len(literal)), lengths))
                self.piece_places(text, level, base, offsets)
            return level
        split = split_on_separator(text, sources[found], self.keep)
        try:
            lengths = list(map(len, split))  # type: ignore[arg-type]
        except TypeError:  # an undefined piece
            return None
        return _Level(found, rest, glue, split, lengths)  # type: ignore[arg-type]

    def piece_places(
        self, text: str, level: _Level, base: int, offsets: list[int] | None = None
    ) -> PiecePlaces | None:
        """Where the pieces of ``level``, read from ``text`` (at ``base`` in the whole),
        lie in the whole text, from their ``offsets`` in ``text`` if known; None for a
        regex level of more than ``_PLACED_MATCHES`` pieces (its chunks are searched
        for). Worked out once for a kept level."""
        if level.at is None:
            literal = self.literals[level.found]
            if offsets is None and literal is not None:
                offsets = piece_offsets(text, literal, self.keep)
            elif offsets is None:
                if len(level.pieces) > _PLACED_MATCHES:
                    return None
                offsets = split_placed(text, self.sources[level.found], self.keep)[1]
            glue_is_text = bool(self.keep) or level.glue == literal
            level.at = piece_places(offsets, level.lengths, base, level.glue, glue_is_text)
        return level.at

    def level(self, text: str, first: int, level: _Level | None, base: int) -> None:
        """``recursive_split(text, separators[first:])``, its chunks appended, from its
        ``level`` (None: a piece is undefined, and the loop runs). ``base``: where
        ``text`` starts in the whole text (-1: not known)."""
        places = self.places
        if level is None:  # the loop, where the library's error comes
            chunks = _split_loop(text, self.separators[first:], self.is_regex, self.splitter)
            self.chunks.extend(chunks)
            if places is not None:
                places.unknown(len(chunks))
            return
        pieces, lengths, rest = level.pieces, level.lengths, level.rest
        at = self.piece_places(text, level, base) if places is not None and base >= 0 else None
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
                before = len(chunks)
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
                    at,
                    places,
                )
                if places is not None and at is None:
                    places.unknown(len(chunks) - before)
            if i == len(pieces):
                break
            inner_base = at.starts[i] if at is not None else -1
            if rest < len(self.separators):
                piece = pieces[i]
                inner = below.get(i) if below is not None else None
                if inner is None:
                    inner = self.read(piece, rest, inner_base)
                    kept = self.kept  # not None: a level has ``below`` only when kept
                    if below is not None and inner is not None and kept is not None:
                        if kept.take(piece, inner):
                            below[i] = inner
                self.level(piece, rest, inner, inner_base)
            else:
                chunks.append(pieces[i])
                if places is not None:  # a piece is the text at its place, if it has one
                    places.starts.append(inner_base)
                    places.verbatim.append(inner_base >= 0)
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
    chunks = recursive_split(units, separators, is_regex, splitter, places_now())
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
