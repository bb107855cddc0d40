import gc
import gzip
import json
import os
from pathlib import Path

import pytest

from chunkview.core import registry

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

GOLDEN = Path(__file__).parent / "golden"
ROOT = Path(__file__).parent.parent
CORPUS = Path(__file__).parent / "corpus"  # vendored from shared/corpus
SAMPLES = ROOT / "chunkview" / "resources" / "samples"


def golden_cases(name: str) -> list[dict]:
    """Every case of tests/golden/NAME.jsonl.gz, in file order."""
    with gzip.open(GOLDEN / f"{name}.jsonl.gz", "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def golden_params(name: str) -> list:
    return [pytest.param(case, id=case["id"]) for case in golden_cases(name)]


@pytest.fixture(autouse=True)
def _collect_window_garbage(request):
    """After a GUI test, free its closed windows' Python objects here, on the UI thread:
    a collection run later by another thread (the chunking process's starter) would
    disconnect their Qt signals from there, waiting for the interpreter lock while it
    holds Qt's lock, which the UI thread may be waiting for (a hang)."""
    yield
    if "qtbot" in request.fixturenames:
        gc.collect()


def settle(qtbot, win, timeout: int = 30000) -> None:
    """Wait until the newest request's result (or error) is what the window shows with
    its warnings (they follow the layout) on the whole text (a long one loads in pieces),
    and let the queued decoration pass run."""
    qtbot.waitUntil(
        lambda: (
            not win._debounce.isActive()
            and win.shown_generation == win.generation
            and not win.editor.loading
            and not win.model.details_pending
        ),
        timeout=timeout,
    )
    qtbot.wait(20)


@pytest.fixture
def window(qtbot, tmp_path):
    """The real window on a settings file of its own, SemanticChunker chosen."""
    from PySide6.QtCore import QSettings

    from chunkview.app.main_window import MainWindow

    settings = QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat)
    win = MainWindow(settings)
    qtbot.addWidget(win)
    win.select_entry("agentos.SemanticChunker")
    win.resize(1300, 800)
    win.show()
    yield win
    win.views.shutdown()
    win.worker.stop()


@pytest.fixture
def new_window(qtbot):
    """Windows of their own settings files, as a new launch makes them (a session or a
    setting reopened there); shut at the end."""
    from PySide6.QtCore import QSettings

    from chunkview.app.main_window import MainWindow

    made: list[MainWindow] = []

    def make(settings) -> MainWindow:
        win = MainWindow(QSettings(str(settings), QSettings.Format.IniFormat))
        qtbot.addWidget(win)
        win.resize(1300, 800)
        win.show()
        made.append(win)
        return win

    yield make
    for win in made:
        win.views.shutdown()
        win.worker.stop()


@pytest.fixture
def registry_as_before():
    """The chunker files' entries registered by a test are left out of the later tests'
    registry."""
    registry.entries()  # the built-in entries, loaded before the snapshot
    before = dict(registry._entries)
    yield
    registry._entries.clear()
    registry._entries.update(before)
