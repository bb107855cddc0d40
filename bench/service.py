"""What the chunking process costs: the layout's crossing, a run's overhead, a restart.

Peer: the same request run in this process (Pipeline.run), measured in the same run. The
crossing compares pickling the layout as Span and Warning objects against PackedLayout's
arrays. Restart: a job killed by the watchdog, then the next job's whole round trip.
Run: python bench/service.py [--quick] [--json]
"""

from __future__ import annotations

import json
import pickle
import sys
import time

from _common import best_of, corpus_text

from chunkview.core.chunkers.entry import RunContext
from chunkview.core.errors import ChunkerError
from chunkview.core.model.document import Document
from chunkview.core.runtime import ChunkService, PackedLayout
from chunkview.core.runtime.pipeline import ChunkRequest, Pipeline


def main() -> None:
    size = 1_000_000 if "--quick" in sys.argv else 5_000_000
    document = Document(corpus_text(size), kind="markdown")
    options = {"targetSize": 300, "maxSize": 600, "minSize": 50, "overlap": 30}
    request = ChunkRequest(1, "agentos.SemanticChunker", document, options)
    local = Pipeline().run(request, RunContext())
    layout = local.layout

    objects = pickle.dumps((layout.spans, layout.warnings), protocol=5)
    packed_bytes = pickle.dumps(PackedLayout.pack(layout, document), protocol=5)
    objects_s = best_of(lambda: pickle.loads(pickle.dumps((layout.spans, layout.warnings), 5)))
    packed_s = best_of(
        lambda: list(
            pickle.loads(pickle.dumps(PackedLayout.pack(layout, document), 5))
            .unpack(document)
            .spans
        )
    )

    in_process = best_of(lambda: Pipeline().run(request, RunContext()))
    with ChunkService(timeout=600) as service:
        service.start()
        service.run(request)  # the document crosses once

        sizes = iter(range(301, 10**6))

        def option_change():  # a new targetSize each time: the chunks are computed again
            size = next(sizes)
            service.run(
                ChunkRequest(2, request.entry_id, document, {**options, "targetSize": size})
            )

        through = best_of(option_change)
        service.timeout = 0.3
        try:
            service.call(time.sleep, 5)
        except ChunkerError:
            pass
        service.timeout = 600
        began = time.perf_counter()
        service.run(ChunkRequest(3, request.entry_id, document, options))
        after_restart = time.perf_counter() - began

    result = {
        "document_mb": round(len(document.text.encode("utf-8")) / 1e6, 2),
        "chunks": len(layout.spans),
        "warnings": len(layout.warnings),
        "crossing_bytes": {"objects": len(objects), "packed": len(packed_bytes)},
        "crossing_seconds": {"objects": round(objects_s, 4), "packed": round(packed_s, 4)},
        "peer": "Pipeline.run in this process",
        "peer_seconds": round(in_process, 3),
        "option_change_seconds": round(through, 3),
        "option_change_ratio": round(through / in_process, 2),
        "run_after_a_kill_seconds": round(after_restart, 3),
    }
    if "--json" in sys.argv:
        print(json.dumps(result))
        return
    print(
        f"{result['document_mb']} MB, {len(layout.spans)} chunks, {len(layout.warnings)} warnings"
    )
    print(
        f"  crossing as objects {len(objects) / 1e6:6.2f} MB {objects_s * 1000:7.1f} ms;"
        f" packed {len(packed_bytes) / 1e6:6.2f} MB {packed_s * 1000:7.1f} ms"
        f" (with every span rebuilt)   ratio {objects_s / packed_s:5.2f}x"
    )
    print(
        f"  option change through the process {through:.3f} s; in this process (peer) "
        f"{in_process:.3f} s   ratio {through / in_process:5.2f}x"
    )
    print(
        f"  next run after the watchdog killed the process: {after_restart:.3f} s"
        " (a new process: the document crosses again, its caches are rebuilt)"
    )


if __name__ == "__main__":
    main()
