"""The "last good" label names the layout on view, even one that came in while the
settings moved on (stale.py)."""

from __future__ import annotations

from PySide6.QtWidgets import QWidget

from chunkview.app.stale import ENTRY_SWITCH_GRACE_MS, StaleBar, StaleLayouts
from chunkview.core.chunkers.entry import RunContext
from chunkview.core.model.document import Document
from chunkview.core.runtime.pipeline import Pipeline
from chunkview.core.session import InspectorModel

TEXT = "A parser reads the text. Plugins add to it, one by one. " * 40


def test_a_layout_of_older_settings_that_comes_in_is_the_one_the_label_names(qtbot):
    model = InspectorModel()
    queued = []
    model.runner = queued.append  # runs answered in the order the test says
    pipeline = Pipeline()

    def answer(request):
        model.accept(pipeline.run(request, RunContext()))

    covered = QWidget()
    qtbot.addWidget(covered)
    bar = StaleBar()
    qtbot.addWidget(bar)
    stale = StaleLayouts(model, [covered], [bar])
    model.set_document(Document(TEXT, None, "text"))
    model.select_entry("agentos.ChunkingEngine", {"strategy": "fixed", "chunkSize": 300})
    model.submit()
    answer(queued.pop())
    assert not stale.stale

    # another chunker, slow to answer: the layout on view is labelled as the last good
    model.select_entry("agentos.SemanticChunker", {"maxSize": 200})
    model.submit()
    qtbot.wait(ENTRY_SWITCH_GRACE_MS + 150)
    assert stale.label.startswith("last good: agentos.ChunkingEngine "), stale.label
    # its options change while it runs; its first run answers, its second is still due
    model.set_options({**model.options, "maxSize": 120})
    model.submit()
    first = queued.pop(0)
    answer(first)
    assert model.result is not None and model.result.request.entry_id == "agentos.SemanticChunker"
    # the view shows SemanticChunker's layout of the options before: so says the label
    assert stale.stale and stale.label.startswith("last good: agentos.SemanticChunker ")
    assert '"maxSize": 200' in stale.label and bar.label == stale.label
    answer(queued.pop(0))  # the current settings' run: nothing stale any more
    assert not stale.stale and bar.isHidden()


def test_the_bars_take_the_theme_switched_to_while_they_show(qtbot, window):
    """The bars' colours came from the palette in a style sheet, which Qt reads when it
    is set: switched to dark while shown, a bar stayed light (the session's note bar too,
    whose close button then stood out)."""
    from PySide6.QtGui import QPalette

    from chunkview.app import theme

    window.set_theme("light")
    stale_bars = (window.views.editor_stale_bar, window.views.results_stale_bar)
    for stale_bar in stale_bars:
        stale_bar.show_stale("last good: agentos.SemanticChunker {}", "whole")
    window.sessions.bar.say("A note on opening a session.", about=window.document.path or "")
    bars = (*stale_bars, window.sessions.bar)
    qtbot.waitUntil(lambda: all(bar.isVisible() and bar.width() > 100 for bar in bars))
    try:
        for mode in ("dark", "light"):
            window.set_theme(mode)
            qtbot.wait(20)
            for bar in bars:
                seen = bar.grab().toImage().pixelColor(bar.width() // 2, 2)
                wanted = window.palette().color(QPalette.ColorRole.AlternateBase)
                assert theme.is_dark(window.palette()) == (mode == "dark")
                assert seen.lightness() // 8 == wanted.lightness() // 8, (mode, seen.name())
    finally:
        window.set_theme("system")
