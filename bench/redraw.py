"""Time from a parameter change to the painted layout, and the longest UI stall.

For 100 KB, 1 MB and 10 MB documents built from the corpus, in the real window offscreen:
change targetSize, wait until the new layout is painted, and record the longest gap
between ticks of a 5 ms timer on the UI thread while the worker runs.
Goals: <= 50 ms at 100 KB, <= 300 ms at 1 MB.
Peer: the same change made by calling the chunker directly in this process (no window,
no layout): the ratio shows what the inspector adds on top of the chunking itself.
Run: python bench/redraw.py [--quick]
"""

from __future__ import annotations

import os
import statistics
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from _common import corpus_text
from PySide6.QtCore import QCoreApplication, QSettings, QTimer
from PySide6.QtWidgets import QApplication

import chunkview
from chunkview.app.main_window import MainWindow
from chunkview.core.document import Document


def wait_painted(window: MainWindow, timeout: float = 300) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        QCoreApplication.processEvents()
        if not window._debounce.isActive() and window.shown_generation == window.generation:
            QCoreApplication.processEvents()  # the queued decoration pass
            return
        time.sleep(0.0005)
    raise SystemExit("timed out waiting for the layout")


def wait_idle(window: MainWindow, timeout: float = 300) -> None:
    deadline = time.monotonic() + timeout
    while (
        time.monotonic() < deadline and window.result is not None and window.result.tokens is None
    ):
        QCoreApplication.processEvents()
        time.sleep(0.001)


def main() -> None:
    app = QApplication.instance() or QApplication([])
    window = MainWindow(
        QSettings(os.path.join(os.path.dirname(__file__), ".bench.ini"), QSettings.Format.IniFormat)
    )
    window.select_entry("agentos.SemanticChunker")
    window.resize(1300, 800)
    window.show()
    sizes = [("100 KB", 100_000), ("1 MB", 1_000_000)]
    if "--quick" not in sys.argv:
        sizes.append(("10 MB", 10_000_000))
    print(
        f"{'document':<10} {'change→painted':>16} {'chunker alone':>14} {'ratio':>7} "
        f"{'longest UI stall':>17}"
    )
    for label, size in sizes:
        text = corpus_text(size)
        window.set_document(Document(text, None, "markdown"))
        wait_painted(window)
        wait_idle(window)
        times, stalls = [], []
        for target in (700, 800, 900):
            ticks: list[float] = []
            timer = QTimer()
            timer.setInterval(5)
            timer.timeout.connect(lambda t=ticks: t.append(time.perf_counter()))
            timer.start()
            began = time.perf_counter()
            window.params.set_value("targetSize", target)
            window._debounce.stop()  # measure the work, not the 30 ms debounce
            window.submit()
            wait_painted(window)
            times.append(time.perf_counter() - began)
            timer.stop()
            wait_idle(window)  # token counts follow the paint; the next change starts idle
            gaps = [b - a for a, b in zip(ticks, ticks[1:])]
            stalls.append(max(gaps, default=0.0))
        direct = []
        for target in (700, 800, 900):
            began = time.perf_counter()
            chunkview.run("agentos.SemanticChunker", text, {"targetSize": target})
            direct.append(time.perf_counter() - began)
        median, alone = statistics.median(times), statistics.median(direct)
        print(
            f"{label:<10} {median * 1000:13.0f} ms {alone * 1000:11.0f} ms "
            f"{median / alone:6.1f}x {max(stalls) * 1000:14.0f} ms"
        )
    window.worker.stop()
    os.remove(os.path.join(os.path.dirname(__file__), ".bench.ini")) if os.path.exists(
        os.path.join(os.path.dirname(__file__), ".bench.ini")
    ) else None
    app.quit()


if __name__ == "__main__":
    main()
