"""An audit's records as JSON Lines in a folder, a file per block of records (``--out``):
for a corpus whose records outgrow one stream, the driver writes each record once and
keeps none."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, TextIO

from chunkview.core.batch.audit import Summary

#: records per file: 100,000 audit records are about 40 MB of JSON Lines
BLOCK = 100_000


class BlockWriter:
    """``part-00000.jsonl``, ``part-00001.jsonl``, ... of ``block`` records each, the same
    lines as ``--format jsonl``, and ``summary.json`` at the end."""

    def __init__(self, folder: str | Path, block: int = BLOCK) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        if any(self.folder.glob("part-*.jsonl")):
            raise ValueError(f"--out: {folder} already holds records (part-*.jsonl)")
        self.block = block
        self.written = 0
        self.blocks = 0
        self._file: TextIO | None = None

    def record(self, record: dict[str, Any]) -> None:
        if self._file is None or self.written % self.block == 0:
            self._close_block()
            name = self.folder / f"part-{self.blocks:05d}.jsonl"
            self._file = name.open("w", encoding="utf-8")
            self.blocks += 1
        self._file.write(json.dumps(record, ensure_ascii=False) + "\n")
        self.written += 1

    def _close_block(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def summary(self, summary: Summary) -> dict[str, Any]:
        """Close the last block, write summary.json and return what it holds."""
        self._close_block()
        data = {"summary": summary.to_json(), "blocks": self.blocks, "out": str(self.folder)}
        (self.folder / "summary.json").write_text(json.dumps(data) + "\n", encoding="utf-8")
        return data
