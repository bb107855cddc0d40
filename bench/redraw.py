"""The inspector's own cost on top of the chunker, in the real window offscreen.

For 100 KB, 1 MB and 10 MB documents built from the corpus (agentos SemanticChunker):

- change: targetSize changed -> the new layout painted, and the longest UI-thread stall
  meanwhile (the longest gap between ticks of a 5 ms timer); and where the time goes, hop
  by hop (``change_hop_*_ms``, medians: see HOPS). Peer: the same change made by
  calling the chunker directly in this process (``chunkview.run``, no window, no layout),
  in the same run. Goals: <= 50 ms at 100 KB; <= peer x 1.5 + 30 ms at 1 MB and 10 MB;
  stall < 50 ms at every size. Issue 34's goals: ``change_painted_ms_100kb`` <= 20 ms
  (aiming at 16.7), ``drag_last_change_painted_ms`` <= 33 ms at 100 KB and <= 50 ms at
  1 MB, every ``*stall*`` figure <= 50 ms. ``change_ui_cpu_ms``: the UI thread's CPU time
  from the change to its paint (median), which a loaded machine does not inflate.
- drag: targetSize dragged (a value every 60 ms): from the last value to its layout
  painted (the wait before a change is sent included), each change landing while work
  for the one before is still running; where that time goes (``drag_hop_*_ms``); and the
  longest stall.
- every ``*_longest_stall_ms`` has a ``*_longest_stall_cpu_ms`` beside it: the most CPU
  time the UI thread spent between two ticks of the timer, the app's own part of the
  stall (on a loaded machine the gap also holds the wait for a CPU).
- open: set_document -> the first screen of text shown, and the longest stall until the
  whole text is loaded and its layout painted. Goals (10 MB): first screen <= 300 ms,
  stall <= 100 ms.
- search: a query typed one key at a time -> the first hits listed and all hits listed
  after the last key, with the longest stall; then the Search tab's rows on view painted
  (search_rows_painted_ms). Goal (10 MB): all hits <= 300 ms.
- edits: keys typed into the editor 80 ms apart: the longest stall, and whether the
  colours stayed painted after every key. Goal: stall <= 50 ms, colours never blank.
- others (10 MB): the change figures of ChunkingEngine fixed and layout, Mastra's
  recursive strategy and smartchunk (``<name>_change_painted_ms`` beside
  ``<name>_chunker_alone_ms``, the same goal): their own placement and layouts.
- memory: the app process's resident memory with the 10 MB document open and laid out,
  as a multiple of the document's size (the growth from before opening it, and the whole
  process). Goal: at most 20x.

Run: python bench/redraw.py [--quick] [--json]   (--quick: 100 KB and 1 MB only)
"""

from __future__ import annotations

import gc
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's package
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from _common import corpus_text
from PySide6.QtCore import QCoreApplication, QSettings, QTimer
from PySide6.QtGui import QTextCursor
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

import chunkview
from chunkview.app.main_window import (
    MainWindow,
    collect_garbage_on_ui_thread,
    freeze_startup_objects,
)
from chunkview.core.model.document import Document

ENTRY = "agentos.SemanticChunker"


class StallMeter:
    """The longest gap between ticks of a 5 ms timer on the UI thread while it runs; and
    the most CPU time the UI thread spent between two ticks (``longest_cpu``): the part
    of a stall that is the app's own work, not its wait for a CPU on a loaded machine."""

    def __init__(self) -> None:
        self.ticks: list[float] = []
        self.cpu_times: list[float] = []
        self.timer = QTimer()
        self.timer.setInterval(5)
        self.timer.timeout.connect(self._mark)

    def _mark(self) -> None:
        self.ticks.append(time.perf_counter())
        self.cpu_times.append(time.thread_time())

    def __enter__(self) -> StallMeter:
        self.ticks.clear()
        self.cpu_times.clear()
        self._mark()
        self.timer.start()
        return self

    def __exit__(self, *_: object) -> None:
        self.timer.stop()
        self._mark()

    @property
    def longest(self) -> float:
        return max((b - a for a, b in zip(self.ticks, self.ticks[1:])), default=0.0)

    @property
    def longest_cpu(self) -> float:
        return max((b - a for a, b in zip(self.cpu_times, self.cpu_times[1:])), default=0.0)


def spin_until(done: Callable[[], bool], timeout: float = 300) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        if time.monotonic() > deadline:
            raise SystemExit("timed out waiting for the window")
        QCoreApplication.processEvents()
        time.sleep(0.0005)


def painted(window: MainWindow) -> bool:
    return (
        not window._debounce.isActive()
        and window.shown_generation == window.generation
        and not window.editor.loading
    )


def wait_painted(window: MainWindow) -> None:
    spin_until(lambda: painted(window))
    QCoreApplication.processEvents()  # the queued decoration pass


def wait_idle(window: MainWindow) -> None:
    """Token counts follow the paint: the next measurement starts with the worker idle."""
    spin_until(lambda: window.result is None or window.result.tokens is not None)


def spin_for(seconds: float) -> None:
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        QCoreApplication.processEvents()
        time.sleep(0.0005)


def resident_bytes() -> int:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    return 0


class SlotTimer:
    """Wall and CPU time of each call of a UI-thread callable (the result handler, the
    text read for a run): the UI's own cost, apart from waiting for the CPU or the
    worker's interpreter lock."""

    def __init__(self) -> None:
        self.wall: list[float] = []
        self.cpu: list[float] = []

    def wrap(self, function: Callable) -> Callable:
        def timed(*args: object) -> object:
            wall, cpu = time.perf_counter(), time.thread_time()
            try:
                return function(*args)
            finally:
                self.cpu.append(time.thread_time() - cpu)
                self.wall.append(time.perf_counter() - wall)

        return timed

    def take(self) -> tuple[float, float]:
        """The longest call, wall and CPU, in ms; then forget them."""
        figures = max(self.wall, default=0.0) * 1e3, max(self.cpu, default=0.0) * 1e3
        self.wall.clear()
        self.cpu.clear()
        return figures


ON_RESULT = SlotTimer()
READ_TEXT = SlotTimer()


def instrument(window: MainWindow) -> None:
    window.worker.finished.disconnect(window._on_finished)
    window.worker.finished.connect(ON_RESULT.wrap(window._on_finished))
    window.model.text_source = READ_TEXT.wrap(window.model.text_source)


def measure_open(window: MainWindow, text: str, meter: StallMeter) -> dict[str, float]:
    with meter:
        began = time.perf_counter()
        window.set_document(Document(text, None, "markdown"))
        QCoreApplication.processEvents()
        first_screen = time.perf_counter() - began
        wait_painted(window)
        loaded = time.perf_counter() - began
    return {
        "open_first_screen_ms": first_screen * 1e3,
        "open_loaded_ms": loaded * 1e3,
        "open_longest_stall_ms": meter.longest * 1e3,
        "open_longest_stall_cpu_ms": meter.longest_cpu * 1e3,
    }


#: the hops of a change, each from the stamp before it (ChunkResult.stamps): the UI hands
#: the request to the worker thread, the pipe to the chunking process, the chunker and the
#: spans placed, the layout (warnings, checks, stats), packing, the pipe back, unpacking,
#: the lookup tables, then the UI accepts and paints
HOPS = (
    ("to_worker", "sent"),
    ("to_process", "received"),
    ("chunk_and_place", "chunked"),
    ("layout", "laid_out"),
    ("pack", "packed"),
    ("pipe_back", "replied"),
    ("unpack", "unpacked"),
    ("prepare", "prepared"),
    ("accept_and_paint", "painted"),
)


def hop_times(stamps: dict[str, float], began: float, painted_at: float) -> dict[str, float]:
    marks = {**stamps, "painted": painted_at}
    out, previous = {}, began
    for name, mark in HOPS:
        if mark in marks:
            out[name] = marks[mark] - previous
            previous = marks[mark]
    return out


def measure_change(
    window: MainWindow,
    text: str,
    meter: StallMeter,
    entry: str = ENTRY,
    param: str = "targetSize",
    values: tuple[int, ...] = (700, 750, 800, 850, 900),
    options: dict | None = None,
) -> dict[str, float]:
    """``param`` set to each of ``values`` on ``entry`` (with ``options``), each change
    painted, beside the same runs of the chunker alone: the medians of each. Each painted
    change is followed by its run alone, so the two of a pair see the machine at about
    the same speed (it swings by half for fractions of a second here); five pairs, as in
    three one slow change (the first after an entry is chosen, say) could decide it."""
    times, stalls, stalls_cpu, ui_cpu, hops, direct = [], [], [], [], [], []
    for target in values:
        with meter:
            began, began_cpu = time.perf_counter(), time.thread_time()
            window.params.set_value(param, target)
            window._debounce.stop()  # measure the work, not the wait before sending it
            window.submit()
            wait_painted(window)
            painted_at = time.perf_counter()
            ui_cpu.append(time.thread_time() - began_cpu)
            times.append(painted_at - began)
        stalls.append(meter.longest)
        stalls_cpu.append(meter.longest_cpu)
        assert window.result is not None
        hops.append(hop_times(window.result.stamps, began, painted_at))
        wait_idle(window)
        began = time.perf_counter()
        chunkview.run(entry, text, {**(options or {}), param: target})
        direct.append(time.perf_counter() - began)
    change, alone = statistics.median(times), statistics.median(direct)
    on_result, on_result_cpu = ON_RESULT.take()
    return {
        "change_painted_ms": change * 1e3,
        "chunker_alone_ms": alone * 1e3,
        "change_over_chunker": change / alone,
        "change_longest_stall_ms": max(stalls) * 1e3,
        "change_longest_stall_cpu_ms": max(stalls_cpu) * 1e3,
        "change_ui_cpu_ms": statistics.median(ui_cpu) * 1e3,
        "change_goal_ms": 50.0 if len(text) < 500_000 else alone * 1.5e3 + 30,
        "result_handling_ms": on_result,
        "result_handling_cpu_ms": on_result_cpu,
        **{
            f"change_hop_{name}_ms": statistics.median(h.get(name, 0.0) for h in hops) * 1e3
            for name, _ in HOPS
        },
    }


#: other families at 10 MB: the entry, its options, the size option changed, its values
OTHERS = {
    "engine_fixed": ("agentos.ChunkingEngine", {"strategy": "fixed", "chunkOverlap": 0}),
    "engine_layout": ("agentos.ChunkingEngine", {"strategy": "layout", "chunkOverlap": 0}),
    "mastra_recursive": ("mastra.chunk", {"strategy": "recursive", "overlap": 100}),
    "smartchunk": ("smartchunk", {}),
}
OTHER_SIZES = {
    "agentos.ChunkingEngine": ("chunkSize", (500, 550, 600, 650, 700)),
    "mastra.chunk": ("maxSize", (900, 950, 1000, 1050, 1100)),
    "smartchunk": ("maxSize", (300, 350, 400, 450, 500)),
}


def measure_others(window: MainWindow, text: str, meter: StallMeter) -> dict[str, float]:
    """The change figures of other chunkers (their own placement, their own layouts)."""
    out: dict[str, float] = {}
    for name, (entry, options) in OTHERS.items():
        param, values = OTHER_SIZES[entry]
        window.select_entry(entry, {**options, param: values[-1] + 100})
        window.submit()
        wait_painted(window)
        wait_idle(window)
        row = measure_change(window, text, meter, entry, param, values, options)
        for key in ("change_painted_ms", "chunker_alone_ms", "change_goal_ms"):
            out[f"{name}_{key}"] = row[key]
        out[f"{name}_change_longest_stall_ms"] = row["change_longest_stall_ms"]
        out[f"{name}_change_longest_stall_cpu_ms"] = row["change_longest_stall_cpu_ms"]
    window.select_entry(ENTRY)
    window.submit()
    wait_painted(window)
    wait_idle(window)
    return out


def measure_drag(window: MainWindow, meter: StallMeter) -> dict[str, float]:
    """targetSize dragged: a new value every 60 ms, so each change lands while the last
    one's layout, details or token counts may still be being made and must be stopped;
    the time from the last value to its layout painted (the wait before it is sent
    included), where that time goes hop by hop (``drag_hop_*_ms``, as ``change_hop_*``:
    ``to_worker`` holds the wait and the stopping of the work before), and the longest
    stall meanwhile."""
    ends, stalls, stalls_cpu, hops = [], [], [], []
    for start in (600, 601, 602):
        with meter:
            for target in range(start, start + 700, 100):
                window.params.set_value("targetSize", target)
                spin_for(0.06)
            began = time.perf_counter()
            window.params.set_value("targetSize", start + 700)
            wait_painted(window)
            painted_at = time.perf_counter()
            ends.append(painted_at - began)
        assert window.result is not None
        hops.append(hop_times(window.result.stamps, began, painted_at))
        stalls.append(meter.longest)
        stalls_cpu.append(meter.longest_cpu)
        wait_idle(window)
    return {
        "drag_last_change_painted_ms": statistics.median(ends) * 1e3,
        "drag_longest_stall_ms": max(stalls) * 1e3,
        "drag_longest_stall_cpu_ms": max(stalls_cpu) * 1e3,
        **{
            f"drag_hop_{name}_ms": statistics.median(h.get(name, 0.0) for h in hops) * 1e3
            for name, _ in HOPS
        },
    }


def measure_search(window: MainWindow, meter: StallMeter) -> dict[str, float]:
    searcher, box = window.searcher, window.search_box
    box.clear()
    spin_until(lambda: not searcher.running)
    first = None
    with meter:
        for end in range(1, len("section") + 1):
            began = time.perf_counter()
            box.setText("section"[:end])
            if end < len("section"):
                spin_for(0.06)  # a typist's pace: the old search is dropped mid-way
        spin_until(lambda: searcher.hits or not searcher.running)
        first = time.perf_counter() - began
        spin_until(lambda: not searcher.running)
        done = time.perf_counter() - began
    hits = len(searcher.hits)
    # the Search tab shown: its rows on view laid out (snippets fitted, words marked)
    shown = window.tabs.currentIndex()
    window.tabs.setCurrentWidget(window.hits)
    began = time.perf_counter()
    window.hits.viewport().repaint()
    rows_painted = time.perf_counter() - began
    window.tabs.setCurrentIndex(shown)
    box.clear()
    spin_until(lambda: not searcher.running)
    return {
        "search_first_hits_ms": first * 1e3,
        "search_all_hits_ms": done * 1e3,
        "search_hits": hits,
        "search_rows_painted_ms": rows_painted * 1e3,
        "search_longest_stall_ms": meter.longest * 1e3,
        "search_longest_stall_cpu_ms": meter.longest_cpu * 1e3,
    }


def measure_edits(window: MainWindow, meter: StallMeter) -> dict[str, float]:
    editor = window.editor
    cursor = editor.cursorForPosition(editor.viewport().rect().center())
    editor.setTextCursor(cursor)
    editor.setFocus()
    blanked = 0
    keys = SlotTimer()
    press = keys.wrap(lambda key: (QTest.keyClicks(editor, key), editor._decorate()))
    ON_RESULT.take()
    READ_TEXT.take()
    with meter:
        for key in "edits ":
            press(key)
            QCoreApplication.processEvents()
            blanked += not editor.chunk_ranges()
            spin_for(0.08)
            blanked += not editor.chunk_ranges()
        wait_painted(window)
    stall, stall_cpu = meter.longest, meter.longest_cpu
    key_ms, key_cpu = keys.take()
    read_ms, read_cpu = READ_TEXT.take()
    on_result, _cpu = ON_RESULT.take()
    # undo the typing so the document is the one measured
    cursor = editor.textCursor()
    cursor.movePosition(QTextCursor.MoveOperation.Left, QTextCursor.MoveMode.KeepAnchor, 6)
    cursor.removeSelectedText()
    wait_painted(window)
    wait_idle(window)
    return {
        "edit_longest_stall_ms": stall * 1e3,
        "edit_longest_stall_cpu_ms": stall_cpu * 1e3,
        "edit_blank_paints": blanked,
        "edit_key_ms": key_ms,
        "edit_key_cpu_ms": key_cpu,
        "edit_read_text_ms": read_ms,
        "edit_read_text_cpu_ms": read_cpu,
        "edit_result_handling_ms": on_result,
    }


def main() -> None:
    app = QApplication.instance() or QApplication([])
    ini = Path(__file__).with_name(".bench.ini")
    collector = collect_garbage_on_ui_thread()  # noqa: F841 (as launch() runs the app)
    window = MainWindow(QSettings(str(ini), QSettings.Format.IniFormat))
    window.select_entry(ENTRY)
    window.resize(1300, 800)
    window.show()
    freeze_startup_objects()
    meter = StallMeter()
    instrument(window)
    sizes = [("100kb", 100_000), ("1mb", 1_000_000)]
    if "--quick" not in sys.argv:
        sizes.append(("10mb", 10_000_000))
    figures: dict[str, float] = {}
    for label, size in sizes:
        text = corpus_text(size)
        window.set_document(Document("", None, "markdown"))
        wait_painted(window)
        before = resident_bytes()
        row = measure_open(window, text, meter)
        wait_idle(window)
        ON_RESULT.take()
        if label == "10mb":  # before the direct runs below grow this process's heap
            gc.collect()
            after = resident_bytes()
            row["memory_growth_over_size"] = (after - before) / len(text.encode("utf-8"))
            row["memory_process_over_size"] = after / len(text.encode("utf-8"))
        row.update(measure_change(window, text, meter))
        row.update(measure_drag(window, meter))
        row.update(measure_search(window, meter))
        if label == "10mb":
            row.update(measure_others(window, text, meter))
        row.update(measure_edits(window, meter))
        for key, value in row.items():
            figures[f"{key}_{label}"] = round(value, 3)
        if "--json" not in sys.argv:
            print(f"{label}:")
            for key, value in row.items():
                print(f"  {key:<28} {value:10.1f}")
    window.worker.stop()
    ini.unlink(missing_ok=True)
    if "--json" in sys.argv:
        print(json.dumps(figures))
    app.quit()


if __name__ == "__main__":
    main()
