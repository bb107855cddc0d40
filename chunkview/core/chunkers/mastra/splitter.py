"""The text-splitter machinery shared by character, recursive, markdown (no headers),
latex and sentence (spec/mastra.md §4). All strings are unit strings (UTF-16 units)."""

from __future__ import annotations

import copy
import math
from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import accumulate, repeat
from operator import add
from typing import Any, NamedTuple, NoReturn, cast

from chunkview.core.chunkers.mastra.explain import current as notes_now
from chunkview.core.chunkers.mastra.places import PlaceNotes
from chunkview.core.chunkers.mastra.token import cl100k_js_count
from chunkview.core.errors import ChunkerError
from chunkview.core.text.js import W_CHARS, from_units, known_whole, trim
from chunkview.core.text.jsregex import compile_js, js_split, js_split_at
from chunkview.core.text.tokens import wordpunct_count

Length = Callable[[str], float]


@dataclass(frozen=True)
class Splitter:
    """The base options after defaults: maxSize 4000, overlap 200, UTF-16 length."""

    max_size: float = 4000
    overlap: float = 200
    length: Length = len
    keep_separator: Any = False  # False | True | "start" | "end"
    add_start_index: bool = False
    strip_whitespace: bool = True


def js_length(length: Length, piece: str | None) -> float:
    """``lengthFunction(piece)``; a piece may be JS's undefined (None): a capture group
    of a separator regex that took no part in the match."""
    if piece is not None:
        return length(piece)
    if getattr(length, "js_undefined_length", None) is not None:
        return length.js_undefined_length  # type: ignore[attr-defined]
    undefined_length(length)


def undefined_length(length: Length) -> NoReturn:
    """JS: reading a property of undefined (``.length``, or what ``length`` reads) throws."""
    prop = getattr(length, "js_undefined_reads", "length")
    raise ChunkerError("TypeError", f"Cannot read properties of undefined (reading '{prop}')")


def _js_text(piece: str | None) -> str:
    return "undefined" if piece is None else piece  # JS: undefined + "" is "undefined"


def split_on_separator(text: str, pattern: str | None, keep: Any) -> list[str | None]:
    """§4.1: split ``text`` on the regex source ``pattern`` in a keepSeparator mode
    (None or "": every unit). Without keepSeparator a piece may be None (undefined)."""
    if not pattern:
        return list(text)
    if not keep:
        compiled = compile_js(pattern)
        if not compiled.groups:  # no piece is undefined: drop the empty ones in C
            return list(filter(None, js_split(compiled, text)))
        return [p for p in js_split(compiled, text) if p != ""]
    if text == "":
        return []
    return kept_separators(js_split(compile_js(f"({pattern})"), text), keep)[0]


def split_placed(text: str, pattern: str, keep: Any) -> tuple[list[str | None], list[int]]:
    """``split_on_separator(text, pattern, keep)`` for a non-empty regex source, and
    where each piece starts in ``text``: -1 for a piece that is not the text there (an
    undefined capture, or in a keep mode a part and a separator that do not touch)."""
    if not keep:
        parts, starts = js_split_at(compile_js(pattern), text)
        kept = [k for k, part in enumerate(parts) if part != ""]
        return [parts[k] for k in kept], [starts[k] for k in kept]
    if text == "":
        return [], []
    parts, starts = js_split_at(compile_js(f"({pattern})"), text)
    pieces, offsets = kept_separators(parts, keep, starts)
    return pieces, offsets  # type: ignore[return-value]


def kept_separators(
    splits: list[str | None], keep: Any, starts: list[int] | None = None
) -> tuple[list[str | None], list[int] | None]:
    """The pieces of a split on ``(pattern)`` (parts, each separator after the part before
    it) in the keep mode ``keep``: with "end" each part and the separator after it, the
    last part alone; with any other (True, "start") the first part alone, then each
    separator and the part after it, both not empty (a separator followed by nothing is
    dropped). Empty pieces are dropped. With ``starts`` (each split's start), where each
    piece starts too (see ``split_placed``); else None."""
    if keep == "end":
        pairs = [(i, i + 1) for i in range(0, len(splits) - 1, 2)]
        if len(splits) % 2 == 1:
            pairs.append((len(splits) - 1, -1))
    else:
        pairs = [(0, -1)]
        pairs += [(i, i + 1) for i in range(1, len(splits) - 1, 2) if splits[i] and splits[i + 1]]
    pieces = [_js_text(splits[i]) + (splits[j] or "") if j >= 0 else splits[i] for i, j in pairs]
    kept = [k for k, piece in enumerate(pieces) if piece != ""]
    if starts is None:
        return [pieces[k] for k in kept], None
    offsets = []
    for k in kept:
        i, j = pairs[k]
        first = splits[i]
        touching = j < 0 or not splits[j] or starts[j] == starts[i] + len(first or "")
        offsets.append(starts[i] if first is not None and touching else -1)
    return [pieces[k] for k in kept], offsets


def join_pieces(pieces: list[str | None], joiner: str | None, splitter: Splitter) -> str | None:
    """§4.3: the pieces joined, trimmed when stripWhitespace is on; None when empty.
    As in JS's ``join``, an undefined piece is empty and an undefined joiner is ","."""
    text = ("," if joiner is None else joiner).join("" if p is None else p for p in pieces)
    if splitter.strip_whitespace:
        text = trim(text)
    return text or None


def measured(length: Length, pieces: list[str | None]) -> list[int] | None:
    """Every piece's length in one pass in C when the length function is ``len`` and no
    piece is undefined; None otherwise (then the caller measures piece by piece, in the
    library's order, so an error comes where the library's comes)."""
    if length is not len:
        return None
    try:
        return list(map(len, pieces))  # type: ignore[arg-type]
    except TypeError:  # an undefined piece
        return None


def merge_splits(pieces: list[str | None], joiner: str | None, splitter: Splitter) -> list[str]:
    """§4.2: pack pieces up to maxSize; each new chunk starts with an overlap tail of whole
    pieces totalling at most ``overlap``."""
    why = notes_now()  # the run's reasons (explain.py), or None
    if why is None:
        known = measured(splitter.length, pieces)
        bound = int_bound(splitter.max_size)
        if known is not None and bound is not None:
            merged: list[str | None] = []
            joiner_len = len(joiner) if joiner else 0
            pack_range(
                cast(list[str], pieces),  # measured: none is undefined
                known,
                ends_of(known, joiner_len),
                0,
                len(pieces),
                "," if joiner is None else joiner,  # JS: join(undefined) joins with ","
                joiner_len,
                bound + joiner_len,
                splitter.overlap,
                W_CHARS if splitter.strip_whitespace else None,
                merged,
            )
            return cast(list[str], merged)
    length, max_size, overlap = splitter.length, splitter.max_size, splitter.overlap
    separator_len = length(joiner) if joiner else 0
    # each piece measured once; the chunk being packed is pieces[start:i] (the overlap
    # tail is always the last pieces of the previous chunk, so it stays a slice)
    lengths = [js_length(length, piece) for piece in pieces]
    chunks: list[str] = []
    start = 0
    total: float = 0
    for i, piece_len in enumerate(lengths):
        if i > start and total + piece_len + separator_len > max_size:
            joined = join_pieces(pieces[start:i], joiner, splitter)
            if joined is not None:
                chunks.append(joined)
                if why is not None:
                    why.produced()
            stopped_at = total
            if overlap > 0:
                start, total = overlap_tail(lengths, start, i, overlap, separator_len)
            else:
                start, total = i, 0
            if why is not None:
                why.merge_full(
                    stopped_at, piece_len, separator_len, max_size, i - start, total, overlap
                )
        total += piece_len + (separator_len if i > start else 0)
    if start < len(pieces):
        joined = join_pieces(pieces[start:], joiner, splitter)
        if joined is not None:
            chunks.append(joined)
            if why is not None:
                why.produced()
    return chunks


def overlap_tail(
    lengths: Sequence[float], start: int, cut: int, overlap: float, separator_len: float
) -> tuple[int, float]:
    """§4.2's overlap: the first piece of the tail of pieces[start:cut] that the next chunk
    repeats (whole pieces, walked back while they total at most ``overlap``), and the
    tail's length."""
    size: float = 0
    first = cut
    while first > start:
        earlier_len = lengths[first - 1]
        if size + earlier_len > overlap:
            break
        first -= 1
        size += earlier_len + (separator_len if cut - first >= 2 else 0)
    return first, size


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


def int_bound(value: Any) -> int | None:
    """An int ``k`` such that, for every int ``x``, ``x > value`` exactly when ``x > k``;
    None for a value that has none (NaN, an infinity, not a number)."""
    if isinstance(value, int):  # bool included, as JS coerces it
        return int(value)
    if isinstance(value, float) and math.isfinite(value):
        return math.floor(value)  # an int exceeds a fraction when it exceeds its floor
    return None


class PiecePlaces(NamedTuple):
    """Where each piece of a level starts in the whole text (``starts``, in UTF-16
    units), and which stretch of pieces it lies in (``runs``): pieces the text holds one
    glue apart, as a chunk joins them, share a stretch, so the chunk of pieces first to
    last is the text as it is when ``runs[first] == runs[last]``."""

    starts: array
    runs: array


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
    at: PiecePlaces | None = None,
    notes: PlaceNotes | None = None,
) -> None:
    """``merge_splits(pieces[first:last])`` for whole-number lengths of defined pieces,
    jumping from cut to cut, its chunks appended to ``chunks``. ``ends``: see ``ends_of``;
    ``past``: the whole bound of maxSize plus ``separator_len``; ``strip``: the units
    trimmed (None: no trimming). With ``at`` and ``notes``, each chunk's place is noted
    as it is cut: where its first piece starts, past what the trim took.

    The chunk pieces[start:i] plus piece i overflows when ``ends[i + 1] - ends[start] -
    separator > maxSize``; ``ends`` never decreases, so the next cut is a bisection and
    only the chunks, not the pieces, cost a step in Python. The overlap tail is walked as
    the loop walks it. Same cuts, same tails, same chunks as the loop.
    """
    noting = at is not None and notes is not None
    if noting:  # (bound once: this loop runs once per chunk)
        piece_at, run_of = at  # type: ignore[misc]
        note_start, note_verbatim = notes.starts.append, notes.verbatim.append  # type: ignore[union-attr]
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
                            notes.rewritten[len(chunks) - 1] = end  # type: ignore[union-attr]
        if closing:
            break
        check_from = cut + 1
        start = (
            tail_start(lengths, ends, start, cut, overlap, separator_len) if overlap > 0 else cut
        )


def start_indexes(source: str, chunks: Sequence[str | None], overlap: float) -> list[int]:
    """§4.4: ``source.indexOf(chunk, max(0, previous + previous length - overlap))``."""
    indexes: list[int] = []
    index, previous_len = 0, 0
    for chunk in chunks:
        if chunk is None:  # JS: undefined.length, after indexOf("undefined")
            undefined_length(len)
        start = min(int(max(0, index + previous_len - overlap)), len(source))
        index = source.find(chunk, start)
        indexes.append(index)
        previous_len = len(chunk)
    return indexes


# ----- the options every splitter strategy shares, and the chunk nodes it returns -----
def _utf8_length(units: str) -> int:
    return len(from_units(units).encode("utf-8", "surrogatepass"))


def _wordpunct_length(units: str) -> int:
    return wordpunct_count(from_units(units))


def _cl100k_length(units: str) -> int:
    """What the copied JS function gives: js-tiktoken's encode, which refuses every
    special token in the text ("The text contains a special token that is not allowed")."""
    return cl100k_js_count(from_units(units))


# what each JS function of entry.LENGTH_JS does with undefined (a capture group that took
# no part in a separator match): TextEncoder encodes it as ""; the others read .match
_utf8_length.js_undefined_length = 0  # type: ignore[attr-defined]
_wordpunct_length.js_undefined_reads = "match"  # type: ignore[attr-defined]
_cl100k_length.js_undefined_reads = "match"  # type: ignore[attr-defined]
LENGTH_FUNCTIONS: dict[str, Callable[[str], int]] = {
    "utf16": len,
    "utf8": _utf8_length,
    "wordpunct": _wordpunct_length,
    "cl100k": _cl100k_length,
}


def length_function(value: Any) -> Callable[[str], float]:
    """A lengthFunction option: ``{"$fn": name}`` (utf16, utf8, wordpunct, cl100k) or a
    Python callable taking the chunk text."""
    if value is None:
        return len
    if isinstance(value, dict):
        name = value.get("$fn")
        if name not in LENGTH_FUNCTIONS:
            raise ChunkerError(
                "Error", f"unknown lengthFunction {name!r}; one of {', '.join(LENGTH_FUNCTIONS)}"
            )
        return LENGTH_FUNCTIONS[name]
    return lambda units: value(from_units(units))


def splitter_from(options: dict[str, Any], overlap_default: float = 200) -> Splitter:
    """The text-splitter base from the general options (``size`` is ignored)."""
    max_size = options.get("maxSize")
    overlap = options.get("overlap")
    return Splitter(
        max_size=4000 if max_size is None else max_size,
        overlap=overlap_default if overlap is None else overlap,
        length=length_function(options.get("lengthFunction")),
        keep_separator=options.get("keepSeparator", False),
        add_start_index=bool(options.get("addStartIndex", False)),
        strip_whitespace=options.get("stripWhitespace", True) is not False,
    )


def nodes(
    source: str,
    chunks: Sequence[str | None],
    metadata: dict[str, Any],
    splitter: Splitter,
    overlap: float | None = None,
) -> list[dict[str, Any]]:
    """Chunk nodes with a copy of the document metadata (+ startIndex when asked)."""
    indexes = (
        start_indexes(source, chunks, splitter.overlap if overlap is None else overlap)
        if splitter.add_start_index
        else None
    )
    # plain values need no deep copy (a per-chunk deepcopy was a fifth of the time)
    flat = all(isinstance(v, (str, int, float, bool, type(None))) for v in metadata.values())
    if indexes is None and flat and None not in chunks:
        if not metadata and known_whole(source):  # its slices need no from_units
            return [{"text": chunk, "metadata": {}} for chunk in chunks]
        if not metadata:
            return [
                {"text": chunk if chunk.isascii() else from_units(chunk), "metadata": {}}  # type: ignore[union-attr, arg-type]
                for chunk in chunks
            ]
        return [{"text": from_units(chunk), "metadata": metadata.copy()} for chunk in chunks]  # type: ignore[arg-type]
    nodes = []
    for i, chunk in enumerate(chunks):
        meta = dict(metadata) if flat else copy.deepcopy(metadata)
        if indexes is not None:
            meta["startIndex"] = indexes[i]
        # None is JS's undefined; the library's Document makes it ""
        nodes.append({"text": "" if chunk is None else from_units(chunk), "metadata": meta})
    return nodes
