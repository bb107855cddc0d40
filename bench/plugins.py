"""chunkview's overhead over a direct call of a Python library it runs as it is:
LangChain's RecursiveCharacterTextSplitter (chunk_size 1000, chunk_overlap 100) on 1 MB
and 10 MB of corpus markdown (`pip install 'chunkview[langchain]'`).

Measured in the same run, each the best of three:
- direct: ``RecursiveCharacterTextSplitter(...).split_text(text)``;
- run: the entry's ``run`` (the same call, its result read as JSON data);
- placing: the entry's ``spans`` on that result (each chunk located in the text);
- layout: ``Pipeline.run`` in this process (run, placing, overlaps and gaps), and with
  its details (the warnings, the structure checks, the size statistics: the same for
  every entry, ports included);
- through the process: an option change sent to a chunking process and the layout back
  (the hop, the packing both ways) with the details to follow, as the window asks for
  it (what it waits for before it draws); and with the details in the same reply.
Goal: through the process at most 1.5x the direct call plus 30 ms.
Run: python bench/plugins.py [--quick] [--json]
"""

from __future__ import annotations

import json
import sys
from itertools import count
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's package

from _common import best_of, corpus_text

from chunkview.core import registry
from chunkview.core.chunkers.entry import RunContext
from chunkview.core.model.document import Document
from chunkview.core.runtime import ChunkService
from chunkview.core.runtime.pipeline import ChunkRequest, Pipeline

ENTRY = "langchain.RecursiveCharacterTextSplitter"
OPTIONS = {"chunk_size": 1000, "chunk_overlap": 100}


def figures_at(size_mb: int, service: ChunkService) -> dict[str, float]:
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    text = corpus_text(size_mb * 1_000_000)
    document = Document(text, kind="markdown")
    entry = registry.get(ENTRY)
    splitter = RecursiveCharacterTextSplitter(**OPTIONS)
    direct = best_of(lambda: splitter.split_text(text))
    native = entry.run(document, OPTIONS, RunContext())
    assert native == splitter.split_text(text)
    run = best_of(lambda: entry.run(document, OPTIONS, RunContext()))
    placing = best_of(lambda: entry.spans(document, native, OPTIONS))
    request = ChunkRequest(1, ENTRY, document, OPTIONS)

    overlaps = count(101)
    layout = best_of(lambda: Pipeline(editor_offsets=False).run(request, RunContext(), False))
    with_details = best_of(lambda: Pipeline(editor_offsets=False).run(request, RunContext()))
    service.run(request)  # the document crosses once, as when a file is opened

    def option_change(details_later: bool) -> object:  # a new overlap: chunked again
        options = {**OPTIONS, "chunk_overlap": next(overlaps)}
        return service.run(ChunkRequest(2, ENTRY, document, options), details_later=details_later)

    through = best_of(lambda: option_change(True))
    through_with_details = best_of(lambda: option_change(False))
    goal = 1.5 * direct + 0.030
    return {
        "mb": round(len(text.encode("utf-8")) / 1e6, 2),
        "chunks": len(native),
        "direct_s": round(direct, 4),
        "run_s": round(run, 4),
        "placing_s": round(placing, 4),
        "layout_in_process_s": round(layout, 4),
        "layout_with_details_in_process_s": round(with_details, 4),
        "through_process_s": round(through, 4),
        "through_process_with_details_s": round(through_with_details, 4),
        "process_hop_and_packing_s": round(through - layout, 4),
        "overhead_over_direct": round(through / direct, 2),
        "goal_s": round(goal, 4),
        "within_goal": through <= goal,
    }


def main() -> None:
    try:
        import langchain_text_splitters  # noqa: F401
    except ImportError:
        raise SystemExit("pip install 'chunkview[langchain]' first") from None
    sizes = [1] if "--quick" in sys.argv else [1, 10]
    result: dict[str, dict[str, float]] = {}
    with ChunkService(timeout=600) as service:
        service.start()
        for size in sizes:
            result[f"langchain_recursive_{size}mb"] = figures_at(size, service)
    if "--json" in sys.argv:
        print(json.dumps(result))
        return
    for name, figures in result.items():
        print(
            f"{name}: {figures['chunks']} chunks; direct {figures['direct_s'] * 1000:.0f} ms, "
            f"run {figures['run_s'] * 1000:.0f} ms, placing {figures['placing_s'] * 1000:.0f} "
            f"ms, layout {figures['layout_in_process_s'] * 1000:.0f} ms, through the process "
            f"{figures['through_process_s'] * 1000:.0f} ms ({figures['overhead_over_direct']}x;"
            f" goal {figures['goal_s'] * 1000:.0f} ms: "
            f"{'met' if figures['within_goal'] else 'not met'}); with the details "
            f"{figures['layout_with_details_in_process_s'] * 1000:.0f} ms in this process, "
            f"{figures['through_process_with_details_s'] * 1000:.0f} ms through it"
        )


if __name__ == "__main__":
    main()
