"""Quitting right after launch, while the chunking process is still starting: the exit is
clean and nothing is printed (the process used to fail to open the app's semaphores,
already unlinked, and print a FileNotFoundError traceback)."""

import os
import subprocess
import sys

import pytest
from conftest import ROOT

QUIT_SOON = """
import sys
from PySide6.QtCore import QSettings, QTimer
from PySide6.QtWidgets import QApplication
from chunkview.app.main_window import MainWindow

app = QApplication([])
window = MainWindow(QSettings(sys.argv[2], QSettings.Format.IniFormat))
window.show()
QTimer.singleShot(int(sys.argv[1]), window.close)
QTimer.singleShot(int(sys.argv[1]), app.quit)
sys.exit(app.exec())
"""


@pytest.mark.parametrize("after_ms", [0, 20, 50])
def test_quitting_at_once_prints_no_traceback(tmp_path, after_ms):
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", QUIT_SOON, str(after_ms), str(tmp_path / "s.ini")],
        capture_output=True,
        text=True,
        env=env,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    # Qt may note things about the platform (offscreen has no size hints); no Python error
    assert "Traceback" not in done.stderr and "Error" not in done.stderr, done.stderr


def test_garbage_is_collected_on_the_ui_thread_only(qtbot):
    """The app turns automatic collection off and collects from a UI-thread timer: a
    cycle made in another thread is freed on the UI thread, not in that thread."""
    import gc
    import threading
    import weakref

    from chunkview.app.main_window import collect_garbage_on_ui_thread

    freed_in: list[str] = []

    class Node:
        pass

    def make_cycles() -> None:
        for _ in range(5000):  # past the first generation's threshold: a collection is due
            node = Node()
            node.self = node
            weakref.finalize(node, lambda: freed_in.append(threading.current_thread().name))

    collector = collect_garbage_on_ui_thread()
    try:
        assert not gc.isenabled()
        maker = threading.Thread(target=make_cycles, name="maker")
        maker.start()
        maker.join()
        assert freed_in == []  # the allocating thread collected nothing
        qtbot.waitUntil(lambda: len(freed_in) == 5000, timeout=5000)
        assert set(freed_in) == {threading.main_thread().name}
    finally:
        collector.timer.stop()
        gc.enable()


def test_startup_objects_are_left_out_of_later_collections():
    """launch() freezes what lives at startup, so a full collection on the UI thread
    walks only what came after; what comes after is still collected."""
    import gc
    import weakref

    from chunkview.app.main_window import freeze_startup_objects

    class Node:
        pass

    try:
        freeze_startup_objects()
        frozen = gc.get_freeze_count()
        assert frozen > 1000
        node = Node()
        node.self = node  # a cycle: only the collector frees it
        freed = weakref.ref(node)
        del node
        gc.collect()
        assert freed() is None
        assert gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()
