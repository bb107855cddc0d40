"""The interactive page (``chunkview page``): its size and how fast its slider redraws, in
a real browser (headless Chromium, Debian's, driven by Playwright).

For a 100 KB document built from the corpus and 20 values of Mastra's recursive maxSize:

- size: the page's bytes (the document once, every value's layout, the script and the
  style). Goal: < 2 MB.
- redraw: the slider moved (each value to the next, across the range and back, three
  times): ``redraw_*_ms`` is the redraw itself, from the move to the chunks laid out
  (``performance.now()`` around the redraw and a forced layout); ``frame_*_ms`` goes on to
  the next frame's ``requestAnimationFrame`` callback, ``painted_*_ms`` to a task after
  that frame (its paint is in), and ``drawn_*_ms`` to the whole value drawn (the blocks off
  screen are drawn in idle time after the frame; the next move waits for it, and for a
  frame after it, so that each move starts from a settled page). Medians and 95th
  percentiles. Goal: painted p95 < 50 ms.
- build: the seconds ``chunkview page`` takes to chunk the 20 values and write the page.

Run: python bench/page.py [--json]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's package

from _common import corpus_text

from chunkview.core.batch.page_values import PagePlan
from chunkview.core.batch.sweep import parse_values
from chunkview.core.model.document import Document
from chunkview.export_page import make_page
from tests.browser import chromium, missing_browser

SIZE = 100_000
VALUES = "300:2200:100"  # 20 values
GOAL_BYTES = 2 * 2**20
GOAL_MS = 50.0

#: one slider move timed in the page: the redraw to layout, then on to the next frame
MOVE_JS = """async (i) => {
  const t0 = performance.now();
  window.chunkview.show(i);
  document.getElementById('doc').getBoundingClientRect();
  document.body.offsetHeight;
  const laid = performance.now();
  const frame = await new Promise((done) => requestAnimationFrame(() => done(performance.now())));
  await new Promise((done) => setTimeout(done, 0));
  const painted = performance.now();
  await window.chunkview.drawn();
  const drawn = performance.now();
  // the next move starts from a settled page: the blocks drawn in idle time laid out
  await new Promise((done) => requestAnimationFrame(() => setTimeout(done, 0)));
  return [laid - t0, frame - t0, painted - t0, drawn - t0];
}"""


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * len(ordered)) - 1))]


def measure() -> dict[str, float]:
    text = corpus_text(SIZE)
    document = Document(text, path="corpus-100k.md", kind="markdown")
    values = parse_values(VALUES, integer=True)
    began = time.perf_counter()
    plan = PagePlan("mastra.chunk", document, {"strategy": "recursive"}, "maxSize", values)
    page, run = make_page(plan)
    build = time.perf_counter() - began
    chunks = [len(v.starts) for v in run.values if hasattr(v, "starts")]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "page.html"
        path.write_text(page, encoding="utf-8")
        with chromium() as browser:
            tab = browser.new_page(viewport={"width": 1280, "height": 800})
            began = time.perf_counter()
            tab.goto(path.as_uri())
            tab.wait_for_function("window.chunkview !== undefined")
            opened = time.perf_counter() - began
            order = list(range(1, len(values))) + list(range(len(values) - 2, -1, -1))
            redraw, frame, painted, drawn = [], [], [], []
            for _ in range(3):
                for index in order:
                    times = tab.evaluate(MOVE_JS, index)
                    redraw.append(times[0])
                    frame.append(times[1])
                    painted.append(times[2])
                    drawn.append(times[3])
    return {
        "document_bytes": len(text.encode("utf-8")),
        "values": len(values),
        "chunks_min": min(chunks),
        "chunks_max": max(chunks),
        "page_bytes": len(page.encode("utf-8")),
        "page_goal_bytes": GOAL_BYTES,
        "build_s": round(build, 2),
        "open_ms": round(opened * 1000, 1),
        "moves": len(redraw),
        "redraw_median_ms": round(statistics.median(redraw), 1),
        "redraw_p95_ms": round(percentile(redraw, 0.95), 1),
        "frame_median_ms": round(statistics.median(frame), 1),
        "frame_p95_ms": round(percentile(frame, 0.95), 1),
        "painted_median_ms": round(statistics.median(painted), 1),
        "painted_p95_ms": round(percentile(painted, 0.95), 1),
        "drawn_median_ms": round(statistics.median(drawn), 1),
        "drawn_p95_ms": round(percentile(drawn, 0.95), 1),
        "goal_ms": GOAL_MS,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    reason = missing_browser()
    if reason is not None:
        print(f"bench/page.py: {reason}", file=sys.stderr)
        return 1
    figures = measure()
    if args.json:
        print(json.dumps(figures))
        return 0
    size_ok = figures["page_bytes"] < GOAL_BYTES
    speed_ok = figures["painted_p95_ms"] < GOAL_MS
    print(
        f"page for {figures['document_bytes'] / 1000:.0f} KB, {figures['values']} values "
        f"({figures['chunks_min']}-{figures['chunks_max']} chunks each): "
        f"{figures['page_bytes'] / 2**20:.2f} MB "
        f"(goal < 2 MB: {'met' if size_ok else 'MISSED'}), built in {figures['build_s']} s"
    )
    print(
        f"slider redraw over {figures['moves']} moves: to layout median "
        f"{figures['redraw_median_ms']} ms, p95 {figures['redraw_p95_ms']} ms; to the next "
        f"frame median {figures['frame_median_ms']} ms, p95 {figures['frame_p95_ms']} ms; "
        f"painted median {figures['painted_median_ms']} ms, p95 {figures['painted_p95_ms']} ms "
        f"(goal < {GOAL_MS:.0f} ms: {'met' if speed_ok else 'MISSED'}); the whole value drawn "
        f"median {figures['drawn_median_ms']} ms, p95 {figures['drawn_p95_ms']} ms"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
