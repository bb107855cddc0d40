"""The smartchunk entry: the library's call, its options and where its chunks lie."""

from __future__ import annotations

from typing import Any

from chunkview.core.chunkers.entry import Entry, Param, RunContext, js_literal
from chunkview.core.chunkers.smartchunk import reference
from chunkview.core.chunkers.smartchunk.byte_offsets import bytes_of
from chunkview.core.chunkers.smartchunk.columns import (
    PieceColumns,
    native_columns,
    native_of,
    table,
)
from chunkview.core.chunkers.smartchunk.fast import quiet_pieces
from chunkview.core.chunkers.smartchunk.model import STRATEGIES, read_options
from chunkview.core.model.document import Document
from chunkview.core.model.span_table import SpanTable


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
    reasons_at = "point"  # the reasons are said at code points of the text
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
        """The library's result; the run tells its observer where each chunk lies and
        the cascade level that cut it (the native result, offsets and lengths only, does
        not say), and, when asked, why (the reference tells; the fast path does not)."""
        text = document.text
        chosen = read_options(options)  # a bad option is refused before the text is read
        byte_map = bytes_of(text)
        if ctx.observer.wants_reasons:  # the reference tells why; the fast path cannot
            pieces, _ = reference.smartchunk_pieces(text, options, ctx, byte_map.offsets)
        else:
            pieces = quiet_pieces(text, chosen, byte_map.offsets, ctx.check)
        columns = PieceColumns.of(pieces, byte_map)
        ctx.observer.placed(columns)
        return native_of(columns)

    def spans(
        self, document: Document, native: Any, options: dict[str, Any], places: Any = None
    ) -> SpanTable:
        """The chunks as code-point spans: from the run's places when it told them, else
        from the native result alone (then the level that cut each is not known)."""
        if places is None:
            places = native_columns(native, bytes_of(document.text))
        return table(document.text, places)

    def code(self, options: dict[str, Any]) -> str:
        return (
            "import { smartchunk } from 'smartchunk';\n\n"
            f"const chunks = smartchunk(text, {js_literal(options)});\n"
        )
