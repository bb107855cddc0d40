"""Cost of the views' own work on a 10 MB Markdown document built from the corpus: the
boundary comparison of two layouts (kept / moved / added / removed), the overview strip's
bins (900 pixel rows) and the decoration runs of one screen with the comparison drawn.

Peer: chunking the same document (agentos.SemanticChunker, targetSize 400) in this process,
measured in the same run; each step's time is printed as a share of it, so "cheap" means a
small fraction of one chunking run.
Run: python bench/views.py [--quick] [--json]
"""

from __future__ import annotations

import json
import sys
import time

from _common import best_of, corpus_text

from chunkview import api
from chunkview.core.analysis.compare import compare_layouts
from chunkview.core.model.document import Document
from chunkview.core.views.decorations import decorations
from chunkview.core.views.overview import overview_bins


def main() -> None:
    size = 1_000_000 if "--quick" in sys.argv else 10_000_000
    text = corpus_text(size)
    document = Document(text, kind="markdown")
    began = time.perf_counter()
    a = api.spans("agentos.SemanticChunker", document, {"targetSize": 400})
    chunking = time.perf_counter() - began  # peer: one chunking run
    b = api.spans("agentos.SemanticChunker", document, {"targetSize": 300})
    comparison = compare_layouts(a, b)
    middle = len(text) // 2
    marks = {
        "boundary": sorted({s.own_start for s in a.spans}),
        "warning": [w.start for w in a.warnings],
        **{k: [c.at for c in comparison.changes if c.kind == k] for k in comparison.counts},
    }
    seconds = {
        "compare two layouts": best_of(lambda: compare_layouts(a, b)),
        "overview bins (900 rows)": best_of(lambda: overview_bins(marks, len(text), 900)),
        "one screen of runs with the comparison": best_of(
            lambda: decorations(a, middle, middle + 4000, "chunk words", comparison)
        ),
    }
    mb = len(text.encode("utf-8")) / 1e6
    result = {
        "document_mb": round(mb, 2),
        "chunks_a": len(a.spans),
        "chunks_b": len(b.spans),
        "changes": comparison.counts,
        "peer": "agentos.SemanticChunker targetSize 400 (one chunking run)",
        "peer_seconds": round(chunking, 3),
        "seconds": {k: round(v, 4) for k, v in seconds.items()},
        "share_of_peer": {k: round(v / chunking, 4) for k, v in seconds.items()},
    }
    if "--json" in sys.argv:
        print(json.dumps(result))
        return
    print(f"{mb:.1f} MB, {len(a.spans)} / {len(b.spans)} chunks; {comparison.summary()}")
    print(f"peer: {result['peer']}: {chunking:.2f} s")
    for name, value in seconds.items():
        print(f"  {name:<42} {value * 1000:8.1f} ms   {value / chunking:6.1%} of the peer")


if __name__ == "__main__":
    main()
