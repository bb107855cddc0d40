"""An audit's records written as they come, as JSON lines, CSV or a table, and its
summary at the end: the CLI's `audit` and the app's audit dock write the same."""

from __future__ import annotations

import csv
import json
import sys
from typing import Any, TextIO

from chunkview.core.batch.audit import WARNING_KINDS, Summary
from chunkview.core.views.export import neutralized

FORMATS = ("jsonl", "csv", "table")


def _warnings_text(record: dict[str, Any]) -> str:
    found = record.get("warnings") or {}
    parts = []
    for kind in WARNING_KINDS:
        if found.get(kind):
            text = f"{kind} {found[kind]}"
            if kind == "mid-sentence":
                text += f" ({100 * record.get('mid_sentence_share', 0):.0f}%)"
            parts.append(text)
    return ", ".join(parts)


class Output:
    """Writes records as they come, in one of the formats, and the summary at the end.

    CSV keeps each cell exact by default, even a path or message from the disk that
    starts with ``=``, ``+``, ``-`` or ``@``, which a spreadsheet program may run as a
    formula; ``neutralize_formulas`` writes such a cell with a leading ``'`` instead
    (as the chunks' CSV export does)."""

    def __init__(self, form: str, out: TextIO, neutralize_formulas: bool = False) -> None:
        self.form = form
        self.out = out
        self._cell = neutralized if neutralize_formulas else str
        self._csv = None
        if form == "csv":
            self._csv = csv.writer(out, lineterminator="\n")
            self._csv.writerow(
                [
                    "path",
                    "status",
                    "chars",
                    "chunks",
                    "unit",
                    "size_min",
                    "size_median",
                    "size_max",
                    *WARNING_KINDS,
                    "mid_sentence_share",
                    "seconds",
                    "message",
                ]
            )
        elif form == "table":
            out.write(
                f"{'file':<48} {'status':<6} {'chunks':>6}  {'min/median/max':<20} warnings\n"
            )

    def record(self, record: dict[str, Any]) -> None:
        size = record.get("size") or {}
        if self.form == "jsonl":
            self.out.write(json.dumps(record, ensure_ascii=False) + "\n")
        elif self._csv is not None:
            warnings = record.get("warnings") or {}
            text = self._cell
            self._csv.writerow(
                [
                    text(record["path"]),
                    text(record["status"]),
                    record.get("chars", ""),
                    record.get("chunks", ""),
                    text(record.get("unit", "")),
                    size.get("min", ""),
                    size.get("median", ""),
                    size.get("max", ""),
                    *(warnings.get(kind, 0) for kind in WARNING_KINDS),
                    round(record.get("mid_sentence_share", 0.0), 4),
                    round(record.get("seconds", 0.0), 3),
                    text(record.get("message", "")),
                ]
            )
        else:
            path = record["path"]
            if len(path) > 48:
                path = "…" + path[-47:]
            if record["status"] in ("ok", "empty"):
                sizes = f"{size['min']:g}/{size['median']:g}/{size['max']:g} {record['unit']}"
                detail = _warnings_text(record)
            else:
                sizes, detail = "", record.get("message", "")
            chunks = record.get("chunks", "")
            self.out.write(f"{path:<48} {record['status']:<6} {chunks:>6}  {sizes:<20} {detail}\n")
        self.out.flush()

    def summary(self, summary: Summary) -> None:
        data = summary.to_json()
        if self.form == "jsonl":
            self.out.write(json.dumps({"summary": data}) + "\n")
            return
        statuses = ", ".join(f"{n} {s}" for s, n in data["statuses"].items() if n)
        kinds = ", ".join(
            f"{kind} {data['warnings'][kind]} in {data['files_with'][kind]} files"
            for kind in WARNING_KINDS
            if data["warnings"].get(kind)
        )
        lines = [
            f"{data['files']} files ({statuses}), {data['chunks']} chunks, "
            f"{data['chars']} characters, "
            + (
                f"chunk sizes {data['smallest_chunk']}..{data['largest_chunk']}"
                if data["chunks"]
                else "no chunks"
            ),
            f"warnings: {kinds or 'none'}",
        ]
        if summary.fail_on:
            failing = ", ".join(f"{k} in {n} files" for k, n in data["failing"].items())
            lines.append(f"fail on {', '.join(summary.fail_on)}: {failing or 'nothing found'}")
        # the CSV stays a table of files; its summary goes to stderr
        target = sys.stderr if self.form == "csv" else self.out
        target.write("\n".join(lines) + "\n")
