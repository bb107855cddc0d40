"""The cost of recording reasons: each entry's ``chunk`` on corpus text with
``RunContext.explain`` a list, against the same call without it in the same run (the peer).
Run: python bench/explain.py [--quick] [--json]
"""

from __future__ import annotations

import html
import json
import sys

from _common import best_of, corpus_text

from chunkview.core import registry
from chunkview.core.chunkers.entry import RunContext
from chunkview.core.model.document import Document

#: (entry, options, bytes of text): sizes keep each line to a few seconds
CASES = [
    ("smartchunk", {"maxSize": 1000, "minSize": 100}, 1_000_000),
    ("smartchunk", {"maxSize": 200, "minSize": 20}, 1_000_000),
    ("agentos.SemanticChunker", {}, 1_000_000),
    ("agentos.ChunkingEngine", {"strategy": "fixed", "chunkOverlap": 0}, 1_000_000),
    ("mastra.chunk", {"strategy": "recursive", "maxSize": 1000}, 300_000),
    ("mastra.chunk", {"strategy": "markdown", "maxSize": 1000}, 300_000),
    ("mastra.chunk", {"strategy": "character", "maxSize": 1000, "overlap": 100}, 300_000),
    ("mastra.chunk", {"strategy": "sentence", "maxSize": 1000}, 300_000),
    ("semantic-chunking.chunkit", {}, 100_000),
    ("semantic-chunking.cramit", {}, 300_000),
    ("mastra.chunk", {"strategy": "semantic-markdown", "joinThreshold": 300}, 300_000),
    ("mastra.chunk", {"strategy": "html", "headers": [["h1", "h1"], ["h2", "h2"]]}, 300_000),
    ("mastra.chunk", {"strategy": "json", "maxSize": 1000}, 300_000),
]


def as_html(markdown: str) -> str:
    """The corpus text as a page: its headings as <h1>/<h2>, its paragraphs as <p>."""
    out = ["<html><body>"]
    for block in markdown.split("\n\n"):
        block = block.strip()
        if block.startswith("#"):
            level = min(len(block) - len(block.lstrip("#")), 2)
            out.append(f"<h{level}>{html.escape(block.lstrip('#').strip())}</h{level}>")
        elif block:
            out.append(f"<p>{html.escape(block)}</p>")
    return "\n".join([*out, "</body></html>"])


def as_json(markdown: str) -> str:
    """The corpus text as nested JSON: sections with a title, paragraphs and counts."""
    sections, current = [], {"title": "", "paragraphs": [], "words": 0}
    for block in markdown.split("\n\n"):
        if block.lstrip().startswith("#"):
            sections.append(current)
            current = {"title": block.strip("# \n"), "paragraphs": [], "words": 0}
        elif block.strip():
            current["paragraphs"].append(block.strip())
            current["words"] += len(block.split())
    sections.append(current)
    return json.dumps({"name": "corpus", "sections": sections, "count": len(sections)})


def document_for(options: dict, size: int) -> Document:
    text = corpus_text(size)
    strategy = options.get("strategy")
    if strategy == "html":
        return Document(as_html(text), kind="html")
    if strategy == "json":
        return Document(as_json(text), kind="json")
    return Document(text, kind="markdown")


def measure(entry_id: str, options: dict, size: int, repeat: int) -> dict:
    entry = registry.get(entry_id)
    document = document_for(options, size)

    def run(explain: bool) -> int:
        ctx = RunContext(embedder="hash64", explain=[] if explain else None)
        return len(entry.chunk(document, dict(options), ctx).spans)

    chunks = run(True)
    plain = best_of(lambda: run(False), repeat)
    explained = best_of(lambda: run(True), repeat)
    return {
        "entry": entry_id,
        "options": options,
        "mb": round(len(document.text.encode("utf-8")) / 1e6, 3),
        "chunks": chunks,
        "seconds_without": round(plain, 4),
        "seconds_with": round(explained, 4),
        "ratio": round(explained / plain, 3),
    }


def main() -> None:
    quick = "--quick" in sys.argv
    rows = []
    for entry_id, options, size in CASES:
        row = measure(entry_id, options, size // 4 if quick else size, 1 if quick else 3)
        rows.append(row)
        if "--json" not in sys.argv:
            print(
                f"{entry_id:<26} {json.dumps(options):<40} {row['mb']:5.2f} MB "
                f"{row['chunks']:6} chunks   without reasons {row['seconds_without']:7.3f} s   "
                f"with {row['seconds_with']:7.3f} s   ratio {row['ratio']:5.2f}x"
            )
    if "--json" in sys.argv:
        print(
            json.dumps({"benchmark": "explain", "peer": "same call without reasons", "cases": rows})
        )


if __name__ == "__main__":
    main()
