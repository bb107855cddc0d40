"""Fast path: the recursive split measured (spec/mastra.md §5.2, §4.2), for a run whose
length function is the UTF-16 length, whose maxSize has a whole bound and that nobody
asks reasons of.

It replaces ``reference.recursive.split_text`` (and within it ``merge_splits`` and
``overlap_tail`` of reference/splitter.py). It is equal because it takes the same steps
on the same numbers, only in bulk:

- a level's separator is the one ``choose_separator`` finds (screens skip, in one scan,
  separators none of which is in the text, compiling each as the loop would);
- its pieces are ``split_on_separator``'s (a plain string's ``str.split`` with the empty
  parts dropped, when nothing is kept), measured with ``len`` in one pass: the loop's
  ``lengthFunction`` is ``len`` here;
- the pieces of length >= maxSize are the loop's large pieces, found in one pass; each
  run of small pieces between them is merged by ``pack_range``, which finds each cut by
  bisection on the running sums: for whole lengths ``T + len(d) + sepLen > maxSize``
  holds exactly when the sum passes ``int_bound(maxSize)``, and the sums never decrease;
- the overlap tail is ``tail_start``'s bisection, equal to the walk (see its docstring);
- a level with an undefined piece (a regex's group that took no part) is left to
  ``split_text``, where the library's error comes.

A long text's levels are kept for its next run (``chunkview.core.text.kept``): they
depend on the text, the separators and keepSeparator only. Each chunk's place is noted
as it is cut (placing.py), for an observer that wants places.
tests/test_mastra_fast_paths.py checks ``split`` against ``split_text`` on generated
texts and options.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from functools import lru_cache
from itertools import accumulate, compress, repeat
from operator import add, lt, not_
from typing import TYPE_CHECKING, Any

from chunkview.core.chunkers.mastra.places import PlaceNotes
from chunkview.core.chunkers.mastra.placing import (
    PiecePlaces,
    part_starts,
    piece_offsets,
    piece_places,
    split_placed,
)
from chunkview.core.chunkers.mastra.reference.recursive import split_text
from chunkview.core.chunkers.mastra.reference.splitter import Splitter, split_on_separator
from chunkview.core.text.js import W_CHARS
from chunkview.core.text.jsregex import compile_js, escape, literal_of, screens
from chunkview.core.text.kept import LONG_TEXT, kept

if TYPE_CHECKING:
    from chunkview.core.chunkers.mastra.explain import MastraNotes


def split(
    text: str, separators: list[str], is_regex: bool, splitter: Splitter, notes: MastraNotes
) -> list[str | None]:
    """``split_text(text, separators, is_regex, splitter, notes)``, measured where it
    applies. A run asked for reasons takes the loop, which tells them; it tells the
    observer it noted no places only for the reasons (the entry runs it again for them)."""
    bound = int_bound(splitter.max_size)
    if not separators or bound is None or splitter.length is not len:
        return split_text(text, separators, is_regex, splitter, notes)
    if notes.telling:
        notes.observer.placed(PlaceNotes(for_reasons=True))
        return split_text(text, separators, is_regex, splitter, notes)
    return _MeasuredSplit(separators, is_regex, splitter, bound, notes).run(text)


def int_bound(value: Any) -> int | None:
    """An int ``k`` such that, for every int ``x``, ``x > value`` exactly when ``x > k``;
    None for a value that has none (NaN, an infinity, not a number)."""
    if isinstance(value, bool):  # JS coerces it
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, float) and math.isfinite(value):
        return math.floor(value)  # an int exceeds a fraction when it exceeds its floor
    return None


def tail_start(
    lengths: list[int], ends: list[int], start: int, cut: int, overlap: float, separator_len: int
) -> int:
    """``overlap_tail(...)[0]`` for whole lengths, by bisection on ``ends`` (see
    ``ends_of``). The walk takes piece cut - 1 when its length is at most ``overlap``;
    with m >= 1 pieces taken it takes piece f, the one before them, when ``ends[cut] -
    ends[f] - 2 * separator_len <= overlap``, a test that only gets harder as f falls."""
    if cut <= start or not lengths[cut - 1] <= overlap:
        return cut
    return bisect_left(ends, ends[cut] - overlap - 2 * separator_len, start, cut - 1)


def ends_of(lengths: list[int], separator_len: int) -> list[int]:
    """``ends[k]``: the sum of ``length + separator`` over the first k pieces (in C)."""
    steps = map(add, lengths, repeat(separator_len)) if separator_len else lengths
    return list(accumulate(steps, initial=0))


def pack_range(
    pieces: list[str],
    lengths: list[int],
    ends: list[int],
    first: int,
    last: int,
    glue: str,
    separator_len: int,
    past: int,
    overlap: float,
    strip: str | None,
    chunks: list[str | None],
    at: PiecePlaces | None,
    notes: PlaceNotes,
) -> None:
    """``merge_splits(pieces[first:last])`` for whole-number lengths of defined pieces,
    jumping from cut to cut, its chunks appended to ``chunks``. ``ends``: see ``ends_of``;
    ``past``: the whole bound of maxSize plus ``separator_len``; ``strip``: the units
    trimmed (None: no trimming). With ``at`` (the pieces' places), each chunk's place is
    noted in ``notes`` as it is cut: where its first piece starts, past what the trim
    took; without, nothing is noted.

    The chunk pieces[start:i] plus piece i overflows when ``ends[i + 1] - ends[start] -
    separator > maxSize``; ``ends`` never decreases, so the next cut is a bisection and
    only the chunks, not the pieces, cost a step in Python. The overlap tail is walked as
    the loop walks it. Same cuts, same tails, same chunks as the loop.
    """
    noting = at is not None
    if at is not None:  # (bound once: this loop runs once per chunk)
        piece_at, run_of = at
        notes.pad(len(chunks))  # the chunks before these, placed or not
        note_start, note_verbatim = notes.starts.append, notes.verbatim.append
    start = first
    check_from = first + 1  # the first piece whose addition is checked (never the first)
    while start < last:
        cut = bisect_right(ends, ends[start] + past, check_from + 1, last + 1) - 1
        closing = cut >= last  # the rest is the last chunk
        if closing:
            cut = last
        joined = glue.join(pieces[start:cut])
        text = joined.strip(strip) if strip is not None else joined
        if text:
            chunks.append(text)
            if noting and piece_at[start] < 0:  # a piece that is not the text: not known
                note_start(-1)
                note_verbatim(False)
            elif noting:
                lead = 0  # what the trim took from the start: mostly nothing, seen at once
                if strip is not None and pieces[start][:1] in strip:
                    lead = len(joined) - len(joined.lstrip(strip))
                note_start(piece_at[start] + lead)
                verbatim = run_of[start] == run_of[cut - 1]
                note_verbatim(verbatim)
                if not verbatim and piece_at[cut - 1] >= 0:  # (rare) where it ends, when
                    # its ends are in its first and last pieces, or are the glue after a
                    # first piece trimmed away (before a last one), which stands for the
                    # separator there
                    trail = len(joined) - len(joined.rstrip(strip)) if strip is not None else 0
                    first_len, last_len = len(pieces[start]), len(pieces[cut - 1])
                    if (lead < first_len or (glue and lead == first_len)) and (
                        trail < last_len or (glue and trail == last_len)
                    ):
                        end = piece_at[cut - 1] + last_len - trail
                        if end > piece_at[start] + lead:
                            notes.rewritten[len(chunks) - 1] = end
        if closing:
            break
        check_from = cut + 1
        start = (
            tail_start(lengths, ends, start, cut, overlap, separator_len) if overlap > 0 else cut
        )


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


#: a regex level of more pieces than this is not placed: its split is read again match by
#: match for the offsets (about 0.3 µs a match), where a plain string's split tells them
#: in C, so its chunks are searched for instead
_PLACED_MATCHES = 100_000

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


class _Sightings:
    """How a long text was last split (its key) and the levels kept for it, kept with the
    text (``chunkview.core.text.kept``): a text is kept from its second run with one key
    on (a text chunked once, as each edit makes one, would only pay for keeping its
    levels)."""

    def __init__(self) -> None:
        self.key: tuple | None = None
        self.levels: _KeptLevels | None = None


def _sightings(text: str) -> _Sightings:
    return _Sightings()


def _kept_levels(text: str, key: tuple) -> _KeptLevels | None:
    """The levels kept for ``text`` split as ``key`` says (separators, isSeparatorRegex,
    keepSeparator); new ones at its second run; None at its first run or for a short text."""
    if len(text) < LONG_TEXT:
        return None
    seen = kept("mastra.split-levels", text, _sightings)
    if seen.levels is not None and seen.levels.key == key:
        return seen.levels
    if seen.key == key:
        seen.levels = _KeptLevels(text, key)
        return seen.levels
    seen.key = key
    return None


def levels_kept_for(text: str) -> _KeptLevels | None:
    """The levels kept for ``text`` now (for the tests), or None."""
    if len(text) < LONG_TEXT:
        return None
    return kept("mastra.split-levels", text, _sightings).levels


class _MeasuredSplit:
    """``split_text`` measured (see the module's docstring): the settings worked out once
    per run, not once per level, and the levels of a long text kept for its next run
    (``_KeptLevels``).

    For an observer that wants places, each chunk's start in the text is noted as it is
    cut: the offset of its first piece in its level's text, plus where that text starts
    in the whole, plus what the trim took. A plain-string separator's ``str.split``
    tells the offsets; a regex's split is read again for them (``split_placed``). A run
    that places nothing starts from an unknown place (-1), and so works out none.
    """

    def __init__(
        self,
        separators: list[str],
        is_regex: bool,
        splitter: Splitter,
        bound: int,
        notes: MastraNotes,
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
        self.notes = notes
        self.places = PlaceNotes()
        #: where the text starts in the whole: 0, or -1 when nobody wants the places
        self.base = 0 if notes.observer.wants_places else -1

    def run(self, text: str) -> list[str | None]:
        kept = self.kept = _kept_levels(text, (tuple(self.separators), self.is_regex, self.keep))
        root = kept.root if kept is not None else None
        if root is None:
            root = self.read(text, 0, self.base)
            if kept is not None and root is not None and kept.take(text, root):
                kept.root = root
        self.level(text, 0, root, self.base)
        self.places.pad(len(self.chunks))  # the chunks not noted: not known
        self.notes.observer.placed(self.places)
        return self.chunks

    def read(self, text: str, first: int, base: int) -> _Level | None:
        """The level of ``text`` with ``separators[first:]``: the first separator found
        in it and the pieces it splits into; None when a piece is undefined. ``base``:
        where ``text`` starts in the whole (-1: not known), for placing its pieces."""
        found, rest = self.choose(text, first)
        glue = "" if self.keep else self.separators[found]
        literal = self.literals[found]
        if literal and not self.keep:  # the usual case: a str.split, which tells the offsets
            parts = text.split(literal)
            pieces = list(filter(None, parts))
            level = _Level(found, rest, glue, pieces, list(map(len, pieces)))
            if base >= 0:  # placed from this split, not another
                lengths = list(map(len, parts))
                offsets = list(compress(part_starts(lengths, len(literal)), lengths))
                self.piece_places(text, level, base, offsets)
            return level
        split = split_on_separator(text, self.sources[found], self.keep)
        try:
            lengths = list(map(len, split))  # type: ignore[arg-type]
        except TypeError:  # an undefined piece
            return None
        return _Level(found, rest, glue, split, lengths)  # type: ignore[arg-type]

    def choose(self, text: str, first: int) -> tuple[int, int]:
        """``choose_separator`` for ``separators[first:]``: the index of the separator
        found, and of the first after it (none found: the last, and none after it)."""
        separators, sources, count = self.separators, self.sources, len(self.separators)
        screened_to = first  # separators before this one passed a screen
        i = first
        while i < count:
            if separators[i] == "":
                return i, count
            if i >= screened_to:
                screen, screened_to = self.screens[i]
                if screen is not None and screen.search(text) is None:  # none of them here
                    for k in range(i, screened_to):
                        compile_js(sources[k])  # an invalid one throws, as in the loop
                    i = screened_to
                    continue
            if compile_js(sources[i]).search(text):
                return i, i + 1
            i += 1
        return count - 1, count

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
        """``split_text(text, separators[first:])``, its chunks appended, from its
        ``level`` (None: a piece is undefined, and the loop runs). ``base``: where
        ``text`` starts in the whole text (-1: not known)."""
        places = self.places
        if level is None:  # the loop, where the library's error comes
            chunks = split_text(
                text, self.separators[first:], self.is_regex, self.splitter, self.notes
            )
            self.chunks.extend(chunks)
            return
        pieces, lengths, rest = level.pieces, level.lengths, level.rest
        at = self.piece_places(text, level, base) if base >= 0 else None
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
        begin = 0
        for i in large:
            if i > begin:  # the run of small pieces before it, merged (``merge_splits``)
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
            if i == len(pieces):
                break
            inner_base = at.starts[i] if at is not None else -1
            if rest < len(self.separators):  # a large piece: split with the ones after
                self.below(level, i, inner_base)
            else:  # none left: a chunk as it is, the text at its place if it has one
                places.pad(len(chunks))
                chunks.append(pieces[i])
                places.starts.append(inner_base)
                places.verbatim.append(inner_base >= 0)
            begin = i + 1

    def below(self, level: _Level, i: int, base: int) -> None:
        """Piece ``i`` of ``level``, too large, split with the separators after the one
        found (its level kept below ``level``'s when that one is kept)."""
        piece = level.pieces[i]
        kept_below = level.below
        inner = kept_below.get(i) if kept_below is not None else None
        if inner is None:
            inner = self.read(piece, level.rest, base)
            kept = self.kept  # not None: a level has ``below`` only when kept
            if kept_below is not None and inner is not None and kept is not None:
                if kept.take(piece, inner):
                    kept_below[i] = inner
        self.level(piece, level.rest, inner, base)
