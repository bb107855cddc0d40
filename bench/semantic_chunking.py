"""semantic-chunking chunkit (hash64 embedder, wordpunct tokens) on 100 KB and 1 MB of
corpus text: the first run (sentences split, every sentence embedded) and a re-run with a
new similarityThreshold (sentences and embeddings cached), beside cramit.
The node original cannot be installed here (its embedding-utils dependency is missing from
the registry), so the figures stand alone.
Run: python bench/semantic_chunking.py [--json]
"""

from __future__ import annotations

import json
import sys
import time

from _common import corpus_text

import chunkview
from chunkview import Document
from chunkview.core.text import embed


def main() -> None:
    rows = []
    for label, size in (("100 KB", 100_000), ("1 MB", 1_000_000)):
        text = corpus_text(size)
        mb = len(text.encode("utf-8")) / 1e6
        embed._cache.clear()
        document = Document(text)
        began = time.perf_counter()
        chunkview.run("semantic-chunking.chunkit", document, {}, embedder="hash64")
        first = time.perf_counter() - began
        began = time.perf_counter()
        chunkview.run(
            "semantic-chunking.chunkit", document, {"similarityThreshold": 0.6}, embedder="hash64"
        )
        again = time.perf_counter() - began
        began = time.perf_counter()
        chunkview.run("semantic-chunking.cramit", Document(text + " "), {})
        cram = time.perf_counter() - began
        rows.append(
            {
                "case": label,
                "chunkit_first_mb_per_s": round(mb / first, 2),
                "chunkit_threshold_change_mb_per_s": round(mb / again, 2),
                "cramit_mb_per_s": round(mb / cram, 2),
                "peer": None,  # the original cannot be installed from the registry
            }
        )
        if "--json" in sys.argv:
            continue
        print(
            f"{label:<7} chunkit first run {mb / first:6.2f} MB/s ({first:.2f} s)   "
            f"threshold change {mb / again:6.2f} MB/s ({again:.2f} s)   "
            f"cramit {mb / cram:6.2f} MB/s"
        )
    if "--json" in sys.argv:
        print(json.dumps({"rows": rows}))


if __name__ == "__main__":
    main()
