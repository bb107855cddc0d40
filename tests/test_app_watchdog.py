"""The window against a chunker that never returns: real window, worker, process, watchdog."""

import os
import subprocess
import sys
import textwrap
import time

import pytest
from conftest import ROOT, settle
from PySide6.QtCore import QSettings

from chunkview.app.main_window import MainWindow
from chunkview.core.model.document import Document
from chunkview.core.runtime import _rss

BUDGET_S = 2.0
MB = 2**20


@pytest.fixture
def window(qtbot, tmp_path):
    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    settings.setValue("chunking/timeout", BUDGET_S)
    settings.setValue("chunking/maxMemory", "1G")
    win = MainWindow(settings)
    qtbot.addWidget(win)
    win.resize(1200, 800)
    win.show()
    yield win
    win.worker.stop()


def test_drag_chunk_size_to_one_and_back(qtbot, window, tmp_path):
    text = "\n\n".join(
        f"Paragraph {i}. The quick brown fox jumps over the lazy dog, again and again."
        for i in range(300)
    )
    window.select_entry("agentos.ChunkingEngine", {"strategy": "fixed"})
    window.set_document(Document(text, None, "markdown"))
    settle(qtbot, window)
    assert window.result is not None and not window.error_label.isVisible()
    good_starts = [s.start for s in window.result.layout.spans]
    good = window.result
    assert window.worker.service.max_memory == 2**30

    # a drag: every step a change, the last one below chunkOverlap 64
    for size in (400, 256, 128, 64, 32, 8, 1):
        window.params.set_value("chunkSize", size)
        qtbot.wait(15)
    asked = time.monotonic()
    qtbot.waitUntil(lambda: window.error_label.isVisible(), timeout=int(BUDGET_S * 1000) + 5000)
    latency = time.monotonic() - asked
    message = window.error_label.text()
    assert latency < BUDGET_S + 3
    assert "Chunking stopped" in message or "never return" in message, message
    if "Chunking stopped" in message:  # the watchdog's words: what, which options, how long
        assert "stopped after" in message or "stopped at" in message
        assert "chunkSize 1" in message and "chunkOverlap" in message
    kept = window.result  # the last good layout stays (the drag's last that finished)
    assert kept is not None and kept.request.options.get("chunkSize", 512) != 1
    assert len(kept.layout.spans) >= len(good.layout.spans)
    print(f"message after {latency:.2f} s: {message}")
    assert window.editor.toPlainText() == text  # and the user's text

    # memory stayed bounded: the app's own process grew little, the child is under budget
    assert _rss(os.getpid()) < 2**30
    pid = window.worker.service.pid
    if pid is not None:
        assert _rss(pid) < window.worker.service.max_memory

    # back to 512: taken at once, the 512 layout shown, the message gone
    back = time.monotonic()
    window.params.set_value("chunkSize", 512)
    settle(qtbot, window)
    assert time.monotonic() - back < BUDGET_S
    assert window.result.request.options.get("chunkSize", 512) == 512
    assert [s.start for s in window.result.layout.spans] == good_starts
    assert not window.error_label.isVisible()

    # quit while a hopeless job runs: quick, and the thread is over
    window.params.set_value("chunkSize", 1)
    qtbot.wait(300)
    began = time.monotonic()
    window.worker.stop()
    assert time.monotonic() - began < 0.5
    assert not window.worker._thread.isRunning()


QUIT_SCRIPT = textwrap.dedent(
    """
    import os, sys, time
    os.environ["QT_QPA_PLATFORM"] = "offscreen"
    from PySide6.QtCore import QSettings, QTimer
    from PySide6.QtWidgets import QApplication
    from chunkview.app.main_window import MainWindow
    from chunkview.core.model.document import Document

    def main():
        app = QApplication(sys.argv[:1])
        settings = QSettings(sys.argv[1], QSettings.Format.IniFormat)
        window = MainWindow(settings)
        window.set_document(Document("Some text.", None, "markdown"))
        window.show()
        stamps = {}

        def quit_now():
            stamps["quit"] = time.monotonic()
            window.close()
            app.quit()

        def when_busy():  # quit once the worker waits on a job that will not end
            if window.worker.service.busy:
                QTimer.singleShot(200, quit_now)
            else:
                QTimer.singleShot(20, when_busy)

        window.worker.call_in_process(time.sleep, 60)
        QTimer.singleShot(20, when_busy)
        status = app.exec()
        print(f"QUIT {time.monotonic() - stamps['quit']:.3f}", flush=True)
        return status

    if __name__ == "__main__":
        sys.exit(main())
    """
)


def test_quitting_while_a_job_hangs_is_quick_and_clean(tmp_path):
    script = tmp_path / "quit_app.py"
    script.write_text(QUIT_SCRIPT, encoding="utf-8")
    settings = tmp_path / "settings.ini"
    settings.write_text("[chunking]\ntimeout=60\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run(
        [sys.executable, str(script), str(settings)],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Destroyed while thread" not in done.stderr
    quit_line = [line for line in done.stdout.splitlines() if line.startswith("QUIT")]
    assert quit_line and float(quit_line[0].split()[1]) < 0.5, done.stdout


def test_a_run_past_the_budget_is_stopped_in_words(qtbot, window):
    window.select_entry("agentos.SemanticChunker")
    window.set_document(Document("Some text.\n\nMore text.\n", None, "markdown"))
    settle(qtbot, window)
    good = window.result
    window.worker.set_budgets(timeout=0.1)  # 4.7 MB take the chunking process 0.3 s
    big = "\n\n".join(
        f"## Part {i}\n\nWords in a sentence here, and more words. Another one follows."
        for i in range(60_000)
    )
    window.set_document(Document(big, None, "markdown"))
    qtbot.waitUntil(lambda: window.error_label.isVisible(), timeout=15000)
    message = window.error_label.text()
    assert "Chunking stopped" in message and "within the 0.1 s budget" in message, message
    assert "agentos.SemanticChunker with targetSize 1000" in message
    # the last good layout was of another text: the new one is shown with no chunks
    assert "No chunks" in message and window.result.layout.spans == []
    assert window.result.layout.document.text == big
    window.worker.set_budgets(timeout=60)
    window.set_document(Document("Back to\n\nsmall.\n", None, "markdown"))
    settle(qtbot, window)
    assert not window.error_label.isVisible() and window.result is not good
