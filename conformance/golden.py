"""Shrunk mismatches written as golden cases (tests/golden/conformance.jsonl.gz), in the
format of each entry's own golden file (tests/golden/README.md)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
GOLDEN = ROOT / "tests" / "golden" / "conformance.jsonl.gz"


def record(case: dict, expected: Any, case_id: str) -> dict:
    """One golden line: the case with the JS outcome as its output."""
    entry = case["entry"]
    line: dict[str, Any] = {"id": case_id, "entry": entry}
    if entry.startswith("semantic-chunking."):
        line.update(
            input=case.get("input"),
            documents=case["documents"],
            options=case["options"],
            embedder="hash64",
            tokenizer="wordpunct",
            embed_path=case.get("embed_path", "embedCallback"),
            output=expected["output"],
            error=expected["error"],
            console=[],
        )
        return line
    if entry == "mastra.chunk":
        line["doc"] = case.get("doc", "text")
    line["input"] = case["input"]
    if "metadata" in case:
        line["metadata"] = case["metadata"]
    line["options"] = case["options"]
    if case.get("embedder"):
        line["embedder"] = case["embedder"]
    line["output"] = expected
    line["note"] = f"found by the conformance harness ({case.get('source', '')})"
    return line


def load(path: Path = GOLDEN) -> list[dict]:
    if not path.exists():
        return []
    with gzip.open(path, "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def _key(line: dict) -> str:
    fields = ("entry", "doc", "input", "documents", "metadata", "options", "embedder")
    return json.dumps([line.get(f) for f in fields], sort_keys=True)


def add(lines: list[dict], path: Path = GOLDEN) -> int:
    """Append the new lines (a case already there is skipped); the number added."""
    existing = load(path)
    seen = {_key(line) for line in existing}
    fresh = []
    for line in lines:
        if _key(line) not in seen:
            seen.add(_key(line))
            fresh.append(line)
    if fresh:
        # mtime 0: the same cases give the same bytes
        with open(path, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0) as gz:
            for line in existing + fresh:
                gz.write((json.dumps(line, ensure_ascii=True) + "\n").encode("utf-8"))
    return len(fresh)
