"""Where the UI thread's longest stalls come from, at 10 MB (bench/redraw.py measures them).

Runs redraw's drag, search and edit measurements on a 10 MB document in the real window
offscreen. Meanwhile a thread samples every thread's stack every 2 ms, and the UI
thread's timer ticks record its CPU time. For the longest gaps between ticks it prints:

- the UI thread's CPU time in the gap: near the gap's length, the UI thread itself was
  busy (the stacks sampled in the gap say where); far below it, the UI thread was waiting
  for the interpreter lock or the CPU;
- when the sampler itself was held off (it needs the lock too): every thread's stack
  when it got the lock back. The thread holding the lock was in one long C call (an
  unpickle, an encode), and its stack there names it.

This is how the stalls fixed in the issue-12 work were found: a superseded job's reply
unpickled by the worker thread holding the lock, the document pickled whole after an
edit, the editor's UTF-16 copy made at the first key.

Run: python bench/stall_sources.py [--json] [--gaps N]
"""

from __future__ import annotations

import json
import sys
import threading
import time
import traceback
from collections import Counter
from pathlib import Path

import redraw
from _common import corpus_text
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from chunkview.app.main_window import (
    MainWindow,
    collect_garbage_on_ui_thread,
    freeze_startup_objects,
)
from chunkview.core.model.document import Document

#: how often the sampler looks at the threads, and the jump that says it was held off
SAMPLE_EVERY = 0.002
HELD_OFF = 0.04


def _stack(frame, depth: int = 8) -> str:
    lines = traceback.extract_stack(frame)[-depth:]
    return " <- ".join(f"{Path(f.filename).name}:{f.lineno}:{f.name}" for f in reversed(lines))


class Sampler:
    """Every thread's stack every ``SAMPLE_EVERY`` seconds, on a thread of its own."""

    def __init__(self, ui_thread: int) -> None:
        self.ui_thread = ui_thread
        self.ui_samples: list[tuple[float, str]] = []
        #: (held off from, back at, {thread name: stack}) when a sample came late
        self.held_off: list[tuple[float, float, dict[str, str]]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        names = {t.ident: t.name for t in threading.enumerate()}
        last = time.perf_counter()
        me = threading.get_ident()
        while not self._stop.wait(SAMPLE_EVERY):
            now = time.perf_counter()
            frames = sys._current_frames()
            if self.ui_thread in frames:
                self.ui_samples.append((now, _stack(frames[self.ui_thread])))
            if now - last > HELD_OFF:
                names.update({t.ident: t.name for t in threading.enumerate()})
                stacks = {
                    "ui" if ident == self.ui_thread else names.get(ident, str(ident)): _stack(f)
                    for ident, f in frames.items()
                    if ident != me
                }
                self.held_off.append((last, now, stacks))
            last = now

    def __enter__(self) -> Sampler:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._stop.set()
        self._thread.join()


class CpuMeter(redraw.StallMeter):
    """redraw's stall meter, with the UI thread's CPU time at each tick."""

    def __init__(self) -> None:
        super().__init__()
        self.cpu: dict[float, float] = {}
        self.timer.timeout.disconnect()
        self.timer.timeout.connect(self._tick)
        self.report: list[dict] = []
        self.gaps_kept = 3
        self.sampler: Sampler | None = None
        self.what = ""

    def _tick(self) -> None:
        now = time.perf_counter()
        self.cpu[now] = time.thread_time()
        self.ticks.append(now)
        self.cpu_times.append(self.cpu[now])  # redraw's longest_cpu

    def __enter__(self) -> CpuMeter:
        super().__enter__()
        self.cpu[self.ticks[-1]] = time.thread_time()
        return self

    def __exit__(self, *args: object) -> None:
        super().__exit__(*args)
        self.cpu[self.ticks[-1]] = time.thread_time()
        if self.sampler is None:  # not a measurement looked into (the opening)
            return
        pairs = zip(self.ticks, self.ticks[1:])
        for began, ended in sorted(pairs, key=lambda p: p[0] - p[1])[: self.gaps_kept]:
            self.report.append(self._gap(began, ended))

    def _gap(self, began: float, ended: float) -> dict:
        sampler = self.sampler
        assert sampler is not None
        seen = Counter(s for t, s in sampler.ui_samples if began <= t <= ended)
        return {
            "measurement": self.what,
            "gap_ms": round((ended - began) * 1e3, 1),
            "ui_cpu_ms": round((self.cpu[ended] - self.cpu[began]) * 1e3, 1),
            "ui_stacks": [f"{n}x {stack}" for stack, n in seen.most_common(3)],
            "held_off": [
                {"ms": round((back - start) * 1e3, 1), "stacks": stacks}
                for start, back, stacks in sampler.held_off
                if began - 0.01 <= start <= ended
            ],
        }


def main() -> None:
    as_json = "--json" in sys.argv
    gaps = int(sys.argv[sys.argv.index("--gaps") + 1]) if "--gaps" in sys.argv else 3
    app = QApplication.instance() or QApplication([])
    ini = Path(__file__).with_name(".stall_sources.ini")
    collector = collect_garbage_on_ui_thread()  # noqa: F841 (as launch() runs the app)
    window = MainWindow(QSettings(str(ini), QSettings.Format.IniFormat))
    window.select_entry(redraw.ENTRY)
    window.resize(1300, 800)
    window.show()
    freeze_startup_objects()
    redraw.instrument(window)
    meter = CpuMeter()
    meter.gaps_kept = gaps
    window.set_document(Document("", None, "markdown"))
    redraw.wait_painted(window)
    redraw.measure_open(window, corpus_text(10_000_000), meter)
    redraw.wait_idle(window)
    with Sampler(threading.get_ident()) as sampler:
        meter.sampler = sampler
        for what, measure in (
            ("drag", redraw.measure_drag),
            ("search", redraw.measure_search),
            ("edits", redraw.measure_edits),
        ):
            meter.what = what
            measure(window, meter)
    window.worker.stop()
    ini.unlink(missing_ok=True)
    report = sorted(meter.report, key=lambda g: -g["gap_ms"])
    if as_json:
        print(json.dumps({"gaps": report}))
        return
    for gap in report[: 3 * gaps]:
        print(f"{gap['measurement']}: {gap['gap_ms']} ms, UI thread CPU {gap['ui_cpu_ms']} ms")
        for line in gap["ui_stacks"]:
            print(f"    UI  {line}")
        for held in gap["held_off"]:
            print(f"    sampler held off {held['ms']} ms; then:")
            for name, stack in held["stacks"].items():
                print(f"      {name}: {stack}")
    app.quit()


if __name__ == "__main__":
    main()
