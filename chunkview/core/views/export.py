"""The chunks of a layout as JSON, JSON Lines or CSV (for the window's Export and the CLI).

Each chunk is one record: index, kind, start, end, own_start (code-point offsets into the
document), located, chars, utf8_bytes, text and metadata. Pure Python, no Qt.
"""

from __future__ import annotations

import csv
import io
import json
from typing import Any

from chunkview.core.model.spans import Layout, Span

FORMATS = ("json", "jsonl", "csv")
CSV_COLUMNS = (
    "index",
    "kind",
    "start",
    "end",
    "own_start",
    "located",
    "chars",
    "utf8_bytes",
    "text",
    "metadata",
)


def chunk_record(span: Span) -> dict[str, Any]:
    """One chunk as plain data (the text as the library returned it)."""
    return {
        "index": span.index,
        "kind": span.kind,
        "start": span.start,
        "end": span.end,
        "own_start": span.own_start,
        "located": span.located,
        "chars": len(span.text),
        "utf8_bytes": len(span.text.encode("utf-8", "surrogatepass")),
        "text": span.text,
        "metadata": span.metadata,
    }


def _escape_surrogates(text: str) -> str:
    return "".join(f"\\u{ord(c):04x}" if 0xD800 <= ord(c) <= 0xDFFF else c for c in text)


#: what a spreadsheet program reads as the start of a formula in a cell
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def neutralized(cell: str) -> str:
    """``cell`` as a spreadsheet shows it as text, never runs it: a leading ``'`` before
    a cell that starts like a formula (OWASP's advice for CSV injection)."""
    return "'" + cell if cell.startswith(_FORMULA_STARTS) else cell


def export_chunks(
    layout: Layout,
    fmt: str,
    entry_id: str = "",
    options: Any = None,
    neutralize_formulas: bool = False,
) -> str:
    """The chunks of ``layout`` in format ``fmt`` (json | jsonl | csv). JSON holds the
    document, the entry and its options beside the chunks; JSON Lines and CSV hold one
    chunk per line or row.

    CSV keeps each chunk's text exact by default, even one that starts with ``=``, ``+``,
    ``-`` or ``@``, which a spreadsheet program may run as a formula when the file is
    opened there; ``neutralize_formulas`` writes such a cell with a leading ``'``
    instead (the data then differs from the chunk by that one character)."""
    records = [chunk_record(span) for span in layout.spans]
    if fmt == "json":
        document = layout.document
        return (
            _escape_surrogates(
                json.dumps(
                    {
                        "document": {"path": document.path, "kind": document.kind},
                        "entry": entry_id,
                        "options": options or {},
                        "chunks": records,
                    },
                    ensure_ascii=False,
                    indent=2,
                )
            )
            + "\n"
        )
    if fmt == "jsonl":
        return "".join(
            _escape_surrogates(json.dumps(record, ensure_ascii=False)) + "\n" for record in records
        )
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.DictWriter(out, CSV_COLUMNS, lineterminator="\r\n")
        writer.writeheader()
        cell = neutralized if neutralize_formulas else str
        for record in records:
            writer.writerow(
                {
                    **record,
                    "kind": cell(record["kind"]),
                    "text": cell(_escape_surrogates(record["text"])),
                    "metadata": _escape_surrogates(
                        json.dumps(record["metadata"], ensure_ascii=False)
                    ),
                }
            )
        return out.getvalue()
    raise ValueError(f"unknown export format {fmt!r}; one of {', '.join(FORMATS)}")
