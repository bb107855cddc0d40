"""smartchunk: the five-level cascade, in UTF-8 bytes.

``smartchunk(text, {locale, maxSize, minSize, strategies})`` returns ``[{offset, length}]``
in bytes of the unmodified input (the library's ``input`` field, the text itself, is left
out of the JSON). There is no reference implementation to run, so this follows the
library's README; where it leaves a choice open, the choice is:

- **Whole units at the first level.** Each unit of the first strategy (by default a
  paragraph with its trailing blank lines) that fits in ``maxSize`` is a chunk of its own:
  the README's four short paragraphs give four chunks, not one packed chunk.
- **Packing below it.** A unit too large is split with the next strategy, and those
  pieces are packed back together, in order, up to ``maxSize``: a long paragraph becomes
  as few line-, sentence- or word-bounded chunks as fit.
- **Overlap** is added only between chunks packed from word pieces (up to 20 % of
  ``maxSize``) and from grapheme pieces (up to 10 %): whole trailing pieces of the previous
  chunk, as many as fit in that budget and in ``maxSize`` with the new chunk's first piece.
- **minSize**: a chunk under ``minSize`` is merged with the chunk after it while the union
  fits in ``maxSize``; a last chunk under it is merged into the one before when that fits.
- **Segmentation** is ICU's (``chunkview.core.text.segment``) for sentences, words and
  graphemes; paragraphs end after a run of two or more line breaks (blank lines may hold
  spaces or tabs); lines end after ``\\n``, ``\\r\\n`` or ``\\r``. Every boundary is a
  grapheme boundary, so a multi-byte character is never cut; if the strategies run out
  while a piece is still too large, grapheme boundaries are used.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left
from itertools import islice
from typing import Any, NamedTuple

import numpy as np

from chunkview.core.chunkers.entry import Chunking, Entry, Param, RunContext, js_literal
from chunkview.core.errors import ChunkerError
from chunkview.core.model.document import Document
from chunkview.core.model.explain import Reason, attach_by_point
from chunkview.core.model.span_table import SpanTable
from chunkview.core.text.kept import kept
from chunkview.core.text.segment import boundaries

STRATEGIES = ("paragraph", "line", "sentence", "word", "grapheme")
OVERLAP_SHARE = {"word": 0.2, "grapheme": 0.1}
_PARAGRAPH_END_RE = re.compile(r"(?:\r\n|\n|\r)(?:[ \t]*(?:\r\n|\n|\r))+")
_LINE_END_RE = re.compile(r"\r\n|\n|\r")
# the same two where the text has no CR: the same matches, found 4x faster (a literal
# first unit lets the regex engine skip to it)
_LF_PARAGRAPH_END_RE = re.compile(r"\n(?:[ \t]*\n)+")
_LF_LINE_END_RE = re.compile(r"\n")


#: a piece as the cascade cuts it, (start, end, strategy); a Piece once it is a chunk
Cut = tuple[int, int, str]


class Piece(NamedTuple):
    """A chunk in code points, and the strategy that cut it (a tuple: built by the
    hundred thousand, ten times cheaper than a frozen dataclass)."""

    start: int  # code points
    end: int
    strategy: str


class _Bytes:
    """UTF-8 byte offsets of code points, by a prefix sum: ``prefix`` (numpy, for reading
    many at once) and ``offsets``, a memory view of the same numbers for reading one at a
    time: indexing it gives a Python int at once, where a numpy element costs a scalar
    object and a conversion (that was most of the cascade's time).

    The offsets depend on the text alone: a long text's are kept for its next run
    (``bytes_of``), four bytes a code point (eight past 2 GB of UTF-8)."""

    def __init__(self, text: str) -> None:
        # every code point (a lone surrogate too) starts with one byte that is not a
        # continuation byte (10xxxxxx): their positions are the offsets, found a block
        # at a time so that no column of eight bytes a byte is made on the way
        data = np.frombuffer(text.encode("utf-8", "surrogatepass"), dtype=np.uint8)
        wide = len(data) >= 2**31 - 1  # a looked-up offset one past the end fits too
        self.prefix = np.empty(len(text) + 1, dtype=np.int64 if wide else np.int32)
        filled = 0
        for base in range(0, len(data), _BYTES_BLOCK):
            leads = np.flatnonzero((data[base : base + _BYTES_BLOCK] & 0xC0) != 0x80)
            self.prefix[filled : filled + len(leads)] = leads + base
            filled += len(leads)
        self.prefix[-1] = len(data)
        self.prefix.flags.writeable = False  # kept for the text's next run: read only
        self.offsets = self.prefix.data  # one at a time: a Python int, no numpy scalar

    def size(self, start: int, end: int) -> int:
        return self.offsets[end] - self.offsets[start]

    def offset(self, point: int) -> int:
        return self.offsets[point]

    def point(self, byte_offset: int) -> int:
        return bisect_left(self.offsets, byte_offset)


#: bytes of UTF-8 read at a time for the offsets
_BYTES_BLOCK = 1 << 20


def bytes_of(text: str) -> _Bytes:
    """The byte offsets of ``text``'s code points, kept for a long text's next run."""
    return kept("smartchunk.bytes", text, _Bytes)


def _units(
    text: str, start: int, end: int, strategy: str, locale: str, has_cr: bool = True
) -> list[tuple[int, int]]:
    """Contiguous units covering [start, end), each with its trailing separator
    (``has_cr`` False: the text holds no CR, line ends are LF alone)."""
    if strategy in ("paragraph", "line"):
        if strategy == "paragraph":
            pattern = _PARAGRAPH_END_RE if has_cr else _LF_PARAGRAPH_END_RE
        else:
            pattern = _LINE_END_RE if has_cr else _LF_LINE_END_RE
        ends = [match.end() for match in pattern.finditer(text, start, end)]
        if (ends[-1] if ends else start) < end:
            ends.append(end)
        return list(zip([start, *ends[:-1]], ends))
    return [(start + a, start + b) for a, b in boundaries(text[start:end], strategy, locale)]


class _Cascade:
    def __init__(
        self, text: str, max_size: int, strategies: list[str], locale: str, ctx: RunContext | None
    ) -> None:
        self.text, self.max_size, self.locale = text, max_size, locale
        self.strategies = strategies
        self.bytes = bytes_of(text)
        self.has_cr = "\r" in text
        self.ctx = ctx
        #: where the reasons go (``ctx.explain``), or None when nobody asked
        self.explain = ctx.explain if ctx is not None else None
        self.later: list[tuple[int, tuple[Any, ...]]] = []
        self.max_words = f"maxSize {max_size:,}"
        self.merge_notes: list[Reason] = []
        self.first_units: list[tuple[int, int]] = []

    def size(self, start: int, end: int) -> int:
        return self.bytes.size(start, end)

    def split(self, start: int, end: int, level: int) -> list[Cut]:
        """Pieces of [start, end): whole units at level 0, packed units below it."""
        if level < len(self.strategies):
            strategy = self.strategies[level]
        else:
            strategy = "grapheme"  # the strategies ran out: never cut inside a character
        if self.ctx is not None:
            self.ctx.check()
        units = _units(self.text, start, end, strategy, self.locale, self.has_cr)
        if strategy == "grapheme" and level >= len(self.strategies) - 1:
            units = [u for unit in units for u in self._code_points_if_huge(unit)]
        if level == 0 and self.explain is not None:
            self.first_units = units  # what the replay shows as first gathered
        pieces: list[Cut] = []
        run: list[tuple[int, int]] = []  # units packed into the chunk being built
        explain = self.explain
        after_large = False  # for the reasons: the unit before went down a level

        def flush() -> None:
            if run:
                pieces.append((run[0][0], run[-1][1], strategy))

        offsets, max_size = self.bytes.offsets, self.max_size
        for unit in units:
            if offsets[unit[1]] - offsets[unit[0]] > max_size:
                flush()
                run = []
                if unit[1] - unit[0] > 1 and (
                    level + 1 <= len(self.strategies) or strategy != "grapheme"
                ):
                    if explain is not None:
                        self._later(
                            unit[0], self._explain_descent, unit, strategy, level, unit[0] == start
                        )
                        after_large = True
                    pieces.extend(self.split(unit[0], unit[1], level + 1))
                else:
                    if explain is not None:
                        self._later(unit[0], self._explain_whole, unit, strategy)
                        after_large = True
                    pieces.append((unit[0], unit[1], strategy))
                continue
            if level == 0:
                if explain is not None:
                    self._later(unit[0], self._explain_unit, unit, strategy)
                pieces.append((unit[0], unit[1], strategy))
                continue
            if run and offsets[unit[1]] - offsets[run[0][0]] <= max_size:
                run.append(unit)
                continue
            previous = run
            flush()
            run = [*self._overlap(previous, unit, strategy), unit]
            if explain is not None:
                self._later(
                    unit[0],
                    self._explain_packing,
                    previous,
                    len(run) - 1,  # the units carried as overlap (``run`` grows on)
                    unit,
                    strategy,
                    after_large,
                )
                after_large = False
        flush()
        return pieces

    # ----- reasons (only called when ctx.explain is a list) ----------------------------
    # A cut is noted as a call to make later: most cuts are merged away by minSize, and
    # only those still boundaries at the end are worded (sizes, numbers), in ``explain_cuts``
    def _later(self, at: int, *call: Any) -> None:
        self.later.append((at, call))

    def explain_cuts(self, pieces: list[Piece]) -> None:
        """Word the noted cuts that are still boundaries of ``pieces``."""
        own_starts = {max(p.start, q.end) for q, p in zip(pieces, pieces[1:])}
        for at, (method, *args) in self.later:
            if at in own_starts:
                method(*args)
        self.later = []

    def _say(self, at: int, rule: str, text: str) -> None:
        self.explain.append(Reason(at, rule, text))  # type: ignore[union-attr]

    def _next_strategy(self, level: int) -> str:
        return self.strategies[level + 1] if level + 1 < len(self.strategies) else "grapheme"

    def _explain_unit(self, unit: tuple[int, int], strategy: str) -> None:
        if unit[0] > 0:
            self._say(
                unit[0],
                strategy,
                f"new {strategy}: at the first level every {strategy} that fits is a chunk "
                f"of its own ({_bytes(self.size(*unit))} ≤ {self.max_words})",
            )

    def _explain_descent(
        self, unit: tuple[int, int], strategy: str, level: int, first: bool
    ) -> None:
        lower = self._next_strategy(level)
        size = f"{_bytes(self.size(*unit))} > {self.max_words}"
        if level == 0:  # a first-level unit always starts a chunk, however large
            rule, text = strategy, f"new {strategy}, {size}: cut at {lower}s"
        elif first:  # the level above explained the boundary; say how it goes on
            rule, text = f"large-{strategy}", f"its first {strategy}, {size}: cut at {lower}s"
        else:
            rule = f"large-{strategy}"
            text = f"the next {strategy} is {size}: it is cut at {lower}s, not packed"
        if unit[0] > 0:
            self._say(unit[0], rule, text)

    def _explain_whole(self, unit: tuple[int, int], strategy: str) -> None:
        if unit[0] > 0:
            self._say(
                unit[0],
                "no-smaller-cut",
                f"one {strategy} of {_bytes(self.size(*unit))} > {self.max_words} "
                "with no smaller boundary inside: kept whole",
            )

    def _explain_packing(
        self,
        previous: list[tuple[int, int]],
        carried: int,
        unit: tuple[int, int],
        strategy: str,
        after_large: bool,
    ) -> None:
        at = unit[0]
        if previous:
            packed = self.size(previous[0][0], previous[-1][1])
            self._say(
                at,
                f"full-{strategy}",
                f"{strategy}s packed up to {_bytes(packed)}; the next {strategy} "
                f"({_bytes(self.size(*unit))}) would make "
                f"{self.size(previous[0][0], unit[1]):,} > {self.max_words}",
            )
        elif after_large and at > 0:
            self._say(
                at,
                f"after-large-{strategy}",
                f"the {strategy} before was over {self.max_words} and was cut "
                f"at a lower level; {strategy}s are packed again from here",
            )
        if carried:
            repeated = self.size(previous[-carried][0], unit[0])
            share = OVERLAP_SHARE[strategy]
            self._say(
                at,
                f"overlap-{strategy}",
                f"overlap: the last {carried} {strategy} segment"
                f"{'s' if carried > 1 else ''} of the chunk before are repeated "
                f"({_bytes(repeated)} ≤ {share:.0%} of maxSize = "
                f"{int(self.max_size * share):,})",
            )

    def _code_points_if_huge(self, unit: tuple[int, int]) -> list[tuple[int, int]]:
        # one grapheme over maxSize (a long run of combining marks): cut between code
        # points, still never inside a character
        if self.size(*unit) <= self.max_size:
            return [unit]
        return [(i, i + 1) for i in range(*unit)]

    def _overlap(
        self, previous: list[tuple[int, int]], unit: tuple[int, int], strategy: str
    ) -> list[tuple[int, int]]:
        share = OVERLAP_SHARE.get(strategy, 0)
        if not share or not previous:
            return []
        budget = int(self.max_size * share)
        carried: list[tuple[int, int]] = []
        for candidate in reversed(previous[1:]):  # never repeat a whole previous chunk
            start = candidate[0]
            if (
                self.size(start, previous[-1][1]) > budget
                or self.size(start, unit[1]) > self.max_size
            ):
                break
            carried.insert(0, candidate)
        # overlap is only meaningful when the carried units end where the new one starts
        return carried if carried and carried[-1][1] == unit[0] else []


def _bytes(size: int) -> str:
    return f"{size:,} byte{'' if size == 1 else 's'}"


def _merge_small_quietly(cuts: list[Cut], min_size: int, cascade: _Cascade) -> list[Piece]:
    """``_merge_small`` when nobody asks for reasons: the chunk being grown is three
    locals, and a Piece is built once per chunk, not once per cut and once per merge."""
    offsets, max_size = cascade.bytes.offsets, cascade.max_size
    merged: list[Piece] = []
    if not cuts:
        return merged
    start, end, strategy = cuts[0]
    for next_start, next_end, next_strategy in islice(cuts, 1, None):
        if (
            offsets[end] - offsets[start] < min_size
            and next_start <= end
            and offsets[next_end] - offsets[start] <= max_size
        ):
            end = next_end
            continue
        merged.append(Piece(start, end, strategy))
        start, end, strategy = next_start, next_end, next_strategy
    merged.append(Piece(start, end, strategy))
    if len(merged) >= 2:
        last, before = merged[-1], merged[-2]
        if (
            offsets[last.end] - offsets[last.start] < min_size
            and last.start <= before.end
            and offsets[last.end] - offsets[before.start] <= max_size
        ):
            merged[-2:] = [Piece(before.start, last.end, before.strategy)]
    return merged


def _merge_small(pieces: list[Piece], min_size: int, cascade: _Cascade) -> list[Piece]:
    merged: list[Piece] = []
    # merge notes follow the cuts' words (explain_cuts), so they wait in their own list
    explain = cascade.merge_notes if cascade.explain is not None else None
    notes: list[str] = []  # for the reasons: the merges inside merged[-1]
    offsets, max_size = cascade.bytes.offsets, cascade.max_size
    for piece in pieces:
        if merged:
            last = merged[-1]
            if (
                offsets[last.end] - offsets[last.start] < min_size
                and piece.start <= last.end
                and offsets[piece.end] - offsets[last.start] <= max_size
            ):
                if explain is not None:
                    notes.append(
                        f"merged: the chunk before was only "
                        f"{_bytes(cascade.size(last.start, last.end))} "
                        f"< minSize {min_size:,}, so it took in the next one (together "
                        f"{cascade.size(last.start, piece.end):,} ≤ maxSize "
                        f"{cascade.max_size:,})"
                    )
                merged[-1] = Piece(last.start, piece.end, last.strategy)
                continue
            if explain is not None and notes:
                explain.append(Reason(max(piece.start, last.end), "merged", "; ".join(notes)))
                notes = []
        merged.append(piece)
    if explain is not None and notes:  # the merges reach the end: say so at the start
        at = max(merged[-1].start, merged[-2].end) if len(merged) >= 2 else merged[-1].start
        explain.append(Reason(at, "merged", "; ".join(notes)))
    if len(merged) >= 2:
        last, before = merged[-1], merged[-2]
        if (
            cascade.size(last.start, last.end) < min_size
            and last.start <= before.end
            and cascade.size(before.start, last.end) <= cascade.max_size
        ):
            if explain is not None:
                at = max(before.start, merged[-3].end) if len(merged) >= 3 else before.start
                explain.append(
                    Reason(
                        at,
                        "merged",
                        f"merged: the last chunk, {_bytes(cascade.size(last.start, last.end))} "
                        f"< minSize {min_size:,}, joined this one (together "
                        f"{cascade.size(before.start, last.end):,} ≤ maxSize "
                        f"{cascade.max_size:,})",
                    )
                )
            merged[-2:] = [Piece(before.start, last.end, before.strategy)]
    return merged


def _options(options: dict[str, Any] | None) -> tuple[int, int, list[str], str]:
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
    return max_size, min_size, list(dict.fromkeys(strategies)), str(locale)


def smartchunk_pieces(
    text: str, options: dict[str, Any] | None = None, ctx: RunContext | None = None
) -> tuple[list[Piece], _Bytes]:
    """The chunks as code-point pieces with the strategy that made each, and the byte map."""
    max_size, min_size, strategies, locale = _options(options)
    cascade = _Cascade(text, max_size, strategies, locale, ctx)
    if not text:
        return [], cascade.bytes
    if cascade.explain is not None:
        cascade.explain.append(Reason(0, "start", "the start of the text"))
    cuts = cascade.split(0, len(text), 0)
    if cascade.explain is None:
        return _merge_small_quietly(cuts, min_size, cascade), cascade.bytes
    split = [Piece._make(cut) for cut in cuts]
    pieces = _merge_small(split, min_size, cascade)
    if cascade.explain is not None:
        cascade.explain_cuts(pieces)
        cascade.explain.extend(cascade.merge_notes)
        from chunkview.core.chunkers.smartchunk_stages import stage_reasons  # only when asked

        cascade.explain.extend(stage_reasons(cascade, split, pieces, min_size))
    return pieces, cascade.bytes


def smartchunk(text: str, options: dict[str, Any] | None = None) -> list[dict[str, int]]:
    """``smartchunk(text, options)`` without ``input``: ``[{offset, length}]`` in bytes."""
    return _native(*smartchunk_pieces(text, options))


def _native(pieces: list[Piece], byte_map: _Bytes) -> list[dict[str, int]]:
    """The library's result: each piece's byte offset and length."""
    return _native_of(_PieceColumns.of(pieces, byte_map))


def _native_of(columns: _PieceColumns) -> list[dict[str, int]]:
    """The library's result from the pieces' columns."""
    offsets, lengths = columns.byte_starts.tolist(), columns.byte_lengths.tolist()
    return [{"offset": offset, "length": length} for offset, length in zip(offsets, lengths)]


class _PieceColumns(NamedTuple):
    """The pieces as columns: where each starts and ends (code points), the strategy that
    cut it, and its UTF-8 byte offset and length, read from the pieces in one pass."""

    starts: np.ndarray
    ends: np.ndarray
    strategies: tuple[str, ...]
    byte_starts: np.ndarray
    byte_lengths: np.ndarray

    @classmethod
    def of(cls, pieces: list[Piece], byte_map: _Bytes) -> _PieceColumns:
        starts, ends, strategies = zip(*pieces) if pieces else ((), (), ())
        start_column = np.array(starts, dtype=np.int64)
        end_column = np.array(ends, dtype=np.int64)
        byte_starts = byte_map.prefix[start_column].astype(np.int64)
        return cls(
            start_column,
            end_column,
            strategies,
            byte_starts,
            byte_map.prefix[end_column].astype(np.int64) - byte_starts,
        )


class SmartchunkEntry(Entry):
    id = "smartchunk"
    library = "smartchunk"
    title = "smartchunk"
    summary = (
        "Paragraphs, then lines, sentences, words and graphemes for what is too long; "
        "sizes and offsets in UTF-8 bytes; overlap only for word and grapheme cuts."
    )
    size_unit = "bytes"
    boundary_kinds = STRATEGIES
    params = (
        Param(
            "maxSize",
            "int",
            200,
            "no chunk is larger than this many UTF-8 bytes",
            4,
            1_000_000,
            group="Sizes",
            role="max",
        ),
        Param(
            "minSize",
            "int",
            20,
            "chunks under this many bytes merge with the next one (only the last may stay smaller)",
            0,
            1_000_000,
            group="Sizes",
            role="min",
        ),
        Param(
            "locale",
            "str",
            "en",
            "BCP 47 language for sentence and word boundaries",
            group="Segmentation",
        ),
        Param(
            "strategies",
            "json",
            list(STRATEGIES),
            "strategies in order of preference "
            "(a JSON list of paragraph, line, sentence, word, grapheme)",
            group="Segmentation",
        ),
    )

    def run(self, document: Document, options: dict[str, Any], ctx: RunContext) -> Any:
        """The library's result alone (``chunk`` places the spans too)."""
        return _native(*smartchunk_pieces(document.text, options, ctx))

    def chunk(self, document: Document, options: dict[str, Any], ctx: RunContext) -> Chunking:
        """The native result and its spans, each kind the cascade level that cut it
        (the native result, offsets and lengths only, does not say)."""
        columns = _PieceColumns.of(*smartchunk_pieces(document.text, options, ctx))
        native = _native_of(columns)
        spans = _table(document, columns)
        if ctx.explain is not None:
            attach_by_point(spans, ctx.explain)  # sets each Span's reason (kept by the table)
        return Chunking(native, spans, document)

    def spans(
        self, document: Document, native: Any, options: dict[str, Any], places: Any = None
    ) -> SpanTable:
        """Spans of a native result alone: the level that cut each is not known here."""
        byte_map = bytes_of(document.text)
        offsets = np.array([chunk["offset"] for chunk in native], dtype=np.int64)
        lengths = np.array([chunk["length"] for chunk in native], dtype=np.int64)
        # each byte range's code points (bisect_left, all at once), looked up as numbers
        # of the offsets' own type (else numpy copies all the offsets to the other type)
        prefix = byte_map.prefix
        beyond = int(prefix[-1]) + 1
        starts = np.searchsorted(prefix, np.clip(offsets, -1, beyond).astype(prefix.dtype))
        ends = np.searchsorted(prefix, np.clip(offsets + lengths, -1, beyond).astype(prefix.dtype))
        columns = _PieceColumns(starts, ends, ("smartchunk",) * len(native), offsets, lengths)
        return _table(document, columns)

    def code(self, options: dict[str, Any]) -> str:
        return (
            "import { smartchunk } from 'smartchunk';\n\n"
            f"const chunks = smartchunk(text, {js_literal(options)});\n"
        )


def _table(document: Document, columns: _PieceColumns) -> SpanTable:
    """The chunks as code-point spans, in columns: every chunk is the text there
    (exact), its own part from the end of the one before."""
    starts, ends = columns.starts.astype(np.int64), columns.ends.astype(np.int64)
    previous_ends = np.concatenate((starts[:1], ends[:-1]))
    own_starts = np.minimum(np.maximum(starts, previous_ends), ends)
    kind_of = {kind: i for i, kind in enumerate(dict.fromkeys(columns.strategies))}
    return SpanTable(
        array("q", starts.tobytes()),
        array("q", ends.tobytes()),
        array("q", own_starts.tobytes()),
        tuple(kind_of),
        array("I", map(kind_of.__getitem__, columns.strategies)),
        array("B", bytes(len(starts))),  # all exact
        document.text,
        metadata_columns={
            "offset": array("q", columns.byte_starts.tobytes()),
            "length": array("q", columns.byte_lengths.tobytes()),
        },
    )
