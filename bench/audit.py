"""``chunkview audit`` over many small files: throughput and the auditing process's memory.

Writes 10,000 small documents cut from the corpus (1,000 with --quick) into a temporary
folder, audits them on two chunking processes, and reads this process's resident set at
each tenth of the way: flat memory means the figure at the end is about the one after the
first tenth. Peer: the same files chunked one after another in this process (api.spans on
the first 500), measured in the same run, as files per second.
Run: python bench/audit.py [--quick] [--json]
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from pathlib import Path

from _common import corpus_text

from chunkview import api
from chunkview.core.batch.audit import Summary, iter_files
from chunkview.core.batch.audit_run import audit_records
from chunkview.core.io.read import load_document

ENTRY = "mastra.chunk"
OPTIONS = {"strategy": "recursive", "maxSize": 400, "overlap": 40}


def rss_mb() -> float:
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def main() -> None:
    count = 1_000 if "--quick" in sys.argv else 10_000
    text = corpus_text(2_000_000)
    with tempfile.TemporaryDirectory(prefix="chunkview-audit-") as folder:
        for i in range(count):
            start = (i * 7919) % (len(text) - 4000)
            sub = Path(folder, f"d{i // 1000:02d}")
            sub.mkdir(exist_ok=True)
            (sub / f"doc{i:05d}.md").write_text(text[start : start + 1000 + i % 3000])
        paths = list(iter_files([folder]))[:500]
        began = time.perf_counter()
        for path in paths:
            api.spans(ENTRY, load_document(path), OPTIONS)
        peer_rate = len(paths) / (time.perf_counter() - began)

        summary = Summary()
        marks = []
        began = time.perf_counter()
        for record in audit_records(iter_files([folder]), ENTRY, OPTIONS, jobs=2):
            summary.add(record)
            if summary.files % (count // 10) == 0:
                marks.append(round(rss_mb(), 1))
        seconds = time.perf_counter() - began
    rate = count / seconds
    result = {
        "files": count,
        "seconds": round(seconds, 2),
        "files_per_second": round(rate, 1),
        "peer": "api.spans in this process, one file after another (first 500 files)",
        "peer_files_per_second": round(peer_rate, 1),
        "ratio": round(rate / peer_rate, 2),
        "rss_mb_each_tenth": marks,
        "rss_growth_mb_after_first_tenth": round(marks[-1] - marks[0], 1),
        "statuses": summary.statuses,
        "chunks": summary.chunks,
    }
    if "--json" in sys.argv:
        print(json.dumps(result))
        return
    print(
        f"{count} files in {seconds:.1f} s: {rate:.0f} files/s on 2 processes; peer "
        f"{result['peer']}: {peer_rate:.0f} files/s; ratio {rate / peer_rate:.2f}x"
    )
    print(f"auditing process's memory at each tenth (MB): {marks}")


if __name__ == "__main__":
    main()
