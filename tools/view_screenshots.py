"""The README's screenshots (its first picture, compare, sweep, the chunk inspector,
presentation mode, a stale layout, the chunk lanes and a Hang), made by the app itself
offscreen:
python tools/view_screenshots.py [OUT_DIR] [NAME ...] (default docs/, every picture)."""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QCoreApplication, QSettings, Qt
from PySide6.QtWidgets import QApplication

from chunkview.app import theme
from chunkview.app.main_window import DEFAULT_SAMPLE, MainWindow

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus" / "acorn-readme.md"


def pump(seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        QCoreApplication.processEvents()
        time.sleep(0.01)


def wait(condition, timeout: float = 60) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end and not condition():
        pump(0.05)
    pump(0.4)


def window(settings_dir: str) -> MainWindow:
    settings = QSettings(os.path.join(settings_dir, "s.ini"), QSettings.Format.IniFormat)
    win = MainWindow(settings)
    win.resize(1500, 900)
    win.show()
    return win


def settled(win: MainWindow) -> bool:
    return not win._debounce.isActive() and win.shown_generation == win.generation


def compare(win: MainWindow) -> None:
    win.select_entry("agentos.SemanticChunker", {"targetSize": 300, "overlap": 40})
    win.open_path(DEFAULT_SAMPLE, sample=True)
    wait(lambda: settled(win))
    win.views.compare.set_b("mastra.chunk", {"strategy": "recursive", "maxSize": 300, "overlap": 0})
    wait(lambda: win.model.pinned is not None)
    win.tabs.setCurrentWidget(win.views.compare)
    win.views.compare.side_by_side.setChecked(True)
    pump(0.5)


#: questions on the acorn README for the sweep's retrieval plot: (question, answer text)
QUESTIONS = (
    ("Which ECMAScript version does acorn parse?", "**ecmaVersion**: Indicates the ECMAScript"),
    ("What does sourceType set?", "**sourceType**: Indicate the mode the code should be parsed"),
    ("How do I get line and column locations?", "**locations**: When `true`, each node has"),
    ("Can reserved words be used?", "**allowReserved**: If `false`, using a reserved word"),
    ("How are comments reported?", "**onComment**: If a function is passed for this option"),
)


def sweep(win: MainWindow) -> None:
    from chunkview.core.analysis.eval import Question, Reference

    win.select_entry("agentos.SemanticChunker", {"targetSize": 500, "maxSize": 1200})
    win.open_path(CORPUS)
    wait(lambda: settled(win))
    text = win.document.text
    win.views.eval_panel.set_questions(
        [Question(q, (Reference(a, text.index(a), text.index(a) + len(a)),)) for q, a in QUESTIONS]
    )
    panel = win.views.sweep
    win.views.show_panel(panel)
    panel.param_combo.setCurrentIndex(panel.param_combo.findData("targetSize"))
    panel.values_edit.setText("100:1500:50")
    panel.start()
    wait(lambda: not panel.running, timeout=300)


def inspector(win: MainWindow) -> None:
    win.select_entry("agentos.SemanticChunker", {"targetSize": 300, "overlap": 40})
    win.open_path(DEFAULT_SAMPLE, sample=True)
    wait(lambda: settled(win) and win.result.tokens is not None)
    normalized = [s.index for s in win.result.layout.spans if s.located == "normalized"]
    win.model.select_chunk(normalized[-1] if normalized else 1)
    win.views.right.setSizes([240, 660])
    pump(0.3)
    bar = win.views.inspector.verticalScrollBar()
    bar.setValue(bar.maximum())  # the diff against the source, at the end
    pump(0.3)


def presentation(win: MainWindow) -> None:
    """Presentation mode on the sample, as a teacher drags targetSize."""
    win.select_entry("agentos.SemanticChunker", {"targetSize": 300, "overlap": 40})
    win.open_path(DEFAULT_SAMPLE, sample=True)
    wait(lambda: settled(win))
    win.presentation.presentation.setChecked(True)
    pump(0.5)


def stale(win: MainWindow) -> None:
    """A Hang after a good run: the last good layout dimmed and labelled."""
    win.select_entry(
        "agentos.ChunkingEngine", {"strategy": "fixed", "chunkSize": 300, "chunkOverlap": 40}
    )
    win.open_path(DEFAULT_SAMPLE, sample=True)
    wait(lambda: settled(win))
    win.tabs.setCurrentWidget(win.stats)
    win.params.set_value("chunkSize", -5)
    wait(lambda: settled(win) and win.model.failure is not None)


#: the chunk selected in the lanes picture (the mouse on the next one)
SELECTED = 9


def lanes(win: MainWindow) -> None:
    """The chunk lanes under the editor: overlapping chunks in lanes of their own, one
    selected (outlined in the editor, overlap included) and the mouse on another."""
    win.select_entry("agentos.SemanticChunker", {"targetSize": 400, "overlap": 80})
    win.open_path(CORPUS)
    wait(lambda: settled(win))
    win.views.show_panel(win.views.lanes)
    win.resizeDocks([win.views.lanes_dock], [150], Qt.Orientation.Vertical)
    pump(0.3)
    win.model.select_chunk(SELECTED)
    win.editor.set_hovered(SELECTED + 1)
    win.views.lanes.canvas.hovered = SELECTED + 1
    pump(0.5)


def hang(win: MainWindow) -> None:
    """ChunkingEngine's defaults on the redis README: a Hang, and the option change that
    returns, found by trying values in the chunking processes."""
    win.select_entry(
        "agentos.ChunkingEngine", {"strategy": "fixed", "chunkSize": 512, "chunkOverlap": 32}
    )
    win.open_path(ROOT / "tests" / "corpus" / "redis-readme.md")
    wait(lambda: settled(win))
    win.params.set_value("chunkOverlap", 64)  # the default: it hangs on this text
    wait(lambda: settled(win) and win.model.failure is not None)
    wait(lambda: "Returns with" in win.error_label.text())


def screenshot(win: MainWindow) -> None:
    """The README's first picture: SemanticChunker on the acorn README with overlap, a
    search for what a user would ask, and a chunk selected in the table and inspector."""
    win.select_entry("agentos.SemanticChunker", {"targetSize": 400, "overlap": 60})
    win.open_path(CORPUS)
    wait(lambda: settled(win) and win.result.tokens is not None)
    win.search_box.setText("parse options ecmaVersion")
    wait(lambda: settled(win))
    win.model.select_chunk(9)
    pump(0.5)


SCENES = {
    "screenshot": screenshot,
    "compare": compare,
    "sweep": sweep,
    "inspector": inspector,
    "presentation": presentation,
    "stale": stale,
    "lanes": lanes,
    "hang": hang,
}


def main(out: str = str(ROOT / "docs"), *names: str) -> int:
    app = QApplication.instance() or QApplication(sys.argv[:1])
    theme.apply_theme(app, "light")
    with tempfile.TemporaryDirectory() as settings_dir:
        for name in names or SCENES:
            arrange = SCENES[name]
            win = window(settings_dir)
            arrange(win)
            path = os.path.join(out, f"{name}.png")
            win.grab().save(path)
            print(path)
            win.views.shutdown()
            win.worker.stop()
            win.deleteLater()
            pump(0.1)
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
