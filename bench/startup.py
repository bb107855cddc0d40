"""Start-up: from starting a Python process to the window on screen, and to the built-in
sample document's first layout painted, offscreen.

Peer: a bare PySide6 window (a QMainWindow holding a QPlainTextEdit with the same sample
text) started the same way in the same run: the floor any Qt program in Python pays. Each
side runs REPEAT fresh processes, the best counted; the ratio is chunkview's time over
the peer's. The import of each module chunkview loads before its window shows is printed
too (``-X importtime``, summed by package), to say where the rest goes.
Run: python bench/startup.py [--json]
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REPEAT = 5

#: chunkview's window as ``chunkview`` opens it (a settings file of its own: the sample)
APP = """
import sys, time
sys.path.insert(0, {root!r})
from PySide6.QtCore import QCoreApplication, QSettings
from chunkview.app import theme
from chunkview.app.main_window import MainWindow, collect_garbage_on_ui_thread
app = theme.application()
collector = collect_garbage_on_ui_thread()
window = MainWindow(QSettings({ini!r}, QSettings.Format.IniFormat))
window.restore_session(None)
window.show()
QCoreApplication.processEvents()
print("shown", flush=True)
limit = time.perf_counter() + 60
while not (window.shown_generation == window.generation and window.result is not None
           and not window.editor.loading):
    if time.perf_counter() > limit:
        sys.exit("no layout within 60 s")
    QCoreApplication.processEvents()
    time.sleep(0.001)
print("painted", flush=True)
window.worker.stop()
"""

#: the peer: a bare Qt window with the same text
PEER = """
from pathlib import Path
from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QApplication, QMainWindow, QPlainTextEdit
app = QApplication([])
window = QMainWindow()
editor = QPlainTextEdit()
editor.setPlainText(Path({sample!r}).read_text(encoding="utf-8"))
window.setCentralWidget(editor)
window.resize(1300, 800)
window.show()
QCoreApplication.processEvents()
print("shown", flush=True)
"""


def timed_marks(script: str, extra: list[str] | None = None) -> dict[str, float]:
    """Seconds from starting ``python -c script`` to each line it prints."""
    env = {**os.environ, "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen")}
    began = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, *(extra or []), "-c", script],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env=env,
    )
    assert process.stdout is not None
    marks = {}
    for line in process.stdout:
        marks[line.strip()] = time.perf_counter() - began
    process.wait()
    if "shown" not in marks or ("painted" not in marks and "painted" in script):
        raise SystemExit(f"the process ended before its marks (exit {process.returncode})")
    return marks


def import_time_by_package(script: str, count: int = 10) -> list[tuple[str, float]]:
    """Where the imports before the window go: each top-level package's own import time
    (``-X importtime`` self times summed by package), in ms, the costliest first."""
    env = {**os.environ, "QT_QPA_PLATFORM": os.environ.get("QT_QPA_PLATFORM", "offscreen")}
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-c", script],
        capture_output=True,
        text=True,
        env=env,
    )
    packages: dict[str, float] = {}
    for line in done.stderr.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[0].split(":")[-1].strip().isdigit():
            package = parts[2].strip().split(".")[0]
            own = int(parts[0].split(":")[-1]) / 1000
            packages[package] = packages.get(package, 0.0) + own
    return sorted(packages.items(), key=lambda row: -row[1])[:count]


def main() -> None:
    sample = ROOT / "chunkview" / "resources" / "samples" / "guide.md"
    with tempfile.TemporaryDirectory() as folder:
        ini = str(Path(folder) / "startup.ini")
        app = APP.format(root=str(ROOT), ini=ini)
        peer = PEER.format(sample=str(sample))
        runs, peers = [], []
        for _ in range(REPEAT):  # interleaved, so a busy moment hits both sides
            Path(ini).unlink(missing_ok=True)
            runs.append(timed_marks(app))
            peers.append(timed_marks(peer))
        imports = import_time_by_package(app.split("app = theme")[0])
    shown = min(r["shown"] for r in runs) * 1e3
    painted = min(r["painted"] for r in runs) * 1e3
    peer_shown = min(p["shown"] for p in peers) * 1e3
    figures = {
        "window_shown_ms": round(shown, 1),
        "first_layout_painted_ms": round(painted, 1),
        "peer": "bare PySide6 window with the same text",
        "peer_window_shown_ms": round(peer_shown, 1),
        "shown_over_peer": round(shown / peer_shown, 2),
        "painted_over_peer": round(painted / peer_shown, 2),
        "import_ms_by_package": {name: round(ms, 1) for name, ms in imports},
    }
    if "--json" in sys.argv:
        print(json.dumps(figures))
        return
    print(f"window shown          {shown:7.0f} ms   ({shown / peer_shown:.2f}x the peer)")
    print(f"first layout painted  {painted:7.0f} ms   ({painted / peer_shown:.2f}x the peer)")
    print(f"peer (bare Qt window) {peer_shown:7.0f} ms")
    print("imports before the window, by package (ms of their own):")
    for name, ms in imports:
        print(f"  {name:<40} {ms:7.1f}")


if __name__ == "__main__":
    main()
