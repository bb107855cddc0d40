"""The text-splitter machinery shared by character, recursive, markdown (no headers),
latex and sentence (spec/mastra.md §3, §4): the base options, splitting with a separator
(§4.1), merging pieces up to maxSize with overlap (§4.2), joining (§4.3), startIndex
(§4.4) and the chunk nodes. All strings are unit strings (UTF-16 units)."""

from __future__ import annotations

import copy
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NoReturn

from chunkview.core.chunkers.mastra.token import cl100k_js_count
from chunkview.core.errors import ChunkerError
from chunkview.core.text.js import from_units, trim
from chunkview.core.text.jsregex import compile_js, js_split
from chunkview.core.text.tokens import wordpunct_count

if TYPE_CHECKING:
    from chunkview.core.chunkers.mastra.explain import MastraNotes

Length = Callable[[str], float]


@dataclass(frozen=True)
class Splitter:
    """The base options after defaults (§3): maxSize 4000, overlap 200, UTF-16 length."""

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
    return kept_separators(js_split(compile_js(f"({pattern})"), text), keep)


def kept_separators(splits: list[str | None], keep: Any) -> list[str | None]:
    """§4.1's pieces of a split on ``(P)`` (parts, each separator after the part before
    it) in the keep mode ``keep``: with "end" each part and the separator after it, the
    last part alone; with any other (True, "start") the first part alone, then each
    separator and the part after it, both not empty (a separator followed by nothing is
    dropped). Empty pieces are dropped."""
    pieces: list[str | None] = []
    if keep == "end":
        for i in range(0, len(splits) - 1, 2):
            pieces.append(_js_text(splits[i]) + (splits[i + 1] or ""))
        if len(splits) % 2 == 1:
            pieces.append(splits[-1])
    else:
        pieces.append(splits[0])
        for i in range(1, len(splits) - 1, 2):
            if splits[i] and splits[i + 1]:
                pieces.append(_js_text(splits[i]) + (splits[i + 1] or ""))
    return [piece for piece in pieces if piece != ""]


def join_pieces(pieces: list[str | None], joiner: str | None, splitter: Splitter) -> str | None:
    """§4.3: the pieces joined, trimmed when stripWhitespace is on; None when empty.
    As in JS's ``join``, an undefined piece is empty and an undefined joiner is ","."""
    text = ("," if joiner is None else joiner).join("" if p is None else p for p in pieces)
    if splitter.strip_whitespace:
        text = trim(text)
    return text or None


def merge_splits(
    pieces: list[str | None], joiner: str | None, splitter: Splitter, notes: MastraNotes
) -> list[str]:
    """§4.2: pack pieces up to maxSize; each new chunk starts with an overlap tail of whole
    pieces totalling at most ``overlap``. ``notes`` hears each chunk produced and where
    merging stopped."""
    length, max_size, overlap = splitter.length, splitter.max_size, splitter.overlap
    separator_len = length(joiner) if joiner else 0  # sepLen
    # each piece measured once; the chunk being packed (C) is pieces[start:i] (the
    # overlap tail is always the last pieces of the previous chunk, so it stays a slice)
    lengths = [js_length(length, piece) for piece in pieces]
    chunks: list[str] = []
    start = 0
    total: float = 0  # T
    for i, piece_len in enumerate(lengths):
        if i > start and total + piece_len + separator_len > max_size:  # step 1
            joined = join_pieces(pieces[start:i], joiner, splitter)
            if joined is not None:
                chunks.append(joined)
                notes.produced()
            stopped_at = total
            if overlap > 0:
                start, total = overlap_tail(lengths, start, i, overlap, separator_len)
            else:
                start, total = i, 0
            notes.merge_full(
                stopped_at, piece_len, separator_len, max_size, i - start, total, overlap
            )
        total += piece_len + (separator_len if i > start else 0)  # step 2
    if start < len(pieces):
        joined = join_pieces(pieces[start:], joiner, splitter)
        if joined is not None:
            chunks.append(joined)
            notes.produced()
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
    glue: Sequence[str] = (),
) -> list[dict[str, Any]]:
    """The chunk nodes (§1.2): each with a copy of the document's metadata, plus its
    startIndex when addStartIndex is on (§4.4, with the splitter's overlap unless
    ``overlap`` is given). None is JS's undefined; the library's Document makes it "".
    ``glue``: what the chunks may be joined with besides the text's own units (the
    separators); every chunk's surrogate pairs are joined here whatever it holds."""
    indexes = (
        start_indexes(source, chunks, splitter.overlap if overlap is None else overlap)
        if splitter.add_start_index
        else None
    )
    made = []
    for i, chunk in enumerate(chunks):
        meta = copy.deepcopy(metadata)
        if indexes is not None:
            meta["startIndex"] = indexes[i]
        made.append({"text": "" if chunk is None else from_units(chunk), "metadata": meta})
    return made
