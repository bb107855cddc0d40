"""Cost of the structure checks on a 10 MB Markdown document built from the corpus.

Peer: chunking the same document (mastra.chunk, recursive, maxSize 1000) in this process,
measured in the same run; each check's time is printed as a share of it. The Markdown parse
is shared by the checks and cached per text, so it is timed once on its own (the app
skips it above markdown.MAX_PARSED_CHARS; here it runs at every size).
Run: python bench/checks.py [--quick] [--json]
"""

from __future__ import annotations

import json
import sys
import time

from _common import corpus_text

from chunkview import api
from chunkview.core.checks import CHECKS, CheckInput, CheckSettings, markdown
from chunkview.core.checks.markdown import structure
from chunkview.core.model.document import Document


def main() -> None:
    size = 1_000_000 if "--quick" in sys.argv else 10_000_000
    text = corpus_text(size)
    document = Document(text, kind="markdown")
    options = {"strategy": "recursive", "maxSize": 1000, "overlap": 100}
    began = time.perf_counter()
    api.run("mastra.chunk", document, options)
    chunking = time.perf_counter() - began  # peer: the chunking alone
    layout = api.spans("mastra.chunk", document, options)
    structure.cache_clear()
    markdown.MAX_PARSED_CHARS = len(text)  # time the parse the app skips at this size
    began = time.perf_counter()
    parsed = structure(text)
    parse = time.perf_counter() - began
    settings = CheckSettings(overlap=100, overlap_unit="units", token_limit=256)
    given = CheckInput(document, layout.spans, settings)
    seconds = {"markdown parse (shared, cached)": parse}
    counts = {}
    for kind, check in CHECKS:
        began = time.perf_counter()
        counts[kind] = len(check(given))
        seconds[kind] = time.perf_counter() - began
    mb = len(text.encode("utf-8")) / 1e6
    result = {
        "document_mb": round(mb, 2),
        "chunks": len(layout.spans),
        "headings": len(parsed.headings),
        "tables": len(parsed.tables),
        "fences": len(parsed.fences),
        "peer": "mastra.chunk recursive maxSize 1000 (the chunking alone)",
        "peer_seconds": round(chunking, 3),
        "seconds": {k: round(v, 3) for k, v in seconds.items()},
        "share_of_peer": {k: round(v / chunking, 3) for k, v in seconds.items()},
        "warnings": counts,
    }
    if "--json" in sys.argv:
        print(json.dumps(result))
        return
    print(f"{mb:.1f} MB, {len(layout.spans)} chunks; peer {result['peer']}: {chunking:.2f} s")
    for name, value in seconds.items():
        print(f"  {name:<34} {value:7.3f} s   {value / chunking:6.1%} of the peer")


if __name__ == "__main__":
    main()
