"""Start-up loads no plotting library: the plots are built when first seen."""

import gc
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

WINDOW_THEN_STATS = """
import sys
from PySide6.QtCore import QCoreApplication, QSettings
from chunkview.app import theme
from chunkview.app.main_window import MainWindow, collect_garbage_on_ui_thread
app = theme.application()
collector = collect_garbage_on_ui_thread()
window = MainWindow(QSettings(sys.argv[1], QSettings.Format.IniFormat))
window.restore_session(None)
window.show()
QCoreApplication.processEvents()
print("at start", "pyqtgraph" in sys.modules)
window.tabs.setCurrentWidget(window.stats)
QCoreApplication.processEvents()
print("stats seen", "pyqtgraph" in sys.modules, window.stats._histogram is not None)
window.worker.stop()
"""


def test_the_window_opens_without_pyqtgraph_and_loads_it_for_the_stats_tab(tmp_path):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", WINDOW_THEN_STATS, str(tmp_path / "s.ini")],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    lines = done.stdout.splitlines()
    assert "at start False" in lines, done.stdout + done.stderr
    assert "stats seen True True" in lines, done.stdout + done.stderr


def test_the_ui_thread_collector_collects_each_generation_over_its_threshold(qtbot):
    from chunkview.app.collector import UiThreadCollector

    was_enabled = gc.isenabled()
    collector = UiThreadCollector(interval=60)  # collected by hand below
    try:
        assert not gc.isenabled() and collector.timer.isActive()
        gc.collect()
        for _ in range(collector.threshold[0] + 100):  # cycles: left to the collector
            loop: list = []
            loop.append(loop)
        assert gc.get_count()[0] > collector.threshold[0]
        collector.collect()
        assert gc.get_count()[0] < collector.threshold[0]
    finally:
        collector.timer.stop()
        if was_enabled:
            gc.enable()
