"""Compare: layout A (the shown one) against B (pinned, or a second configuration).

B's second configuration runs in its own worker, on the same text, whenever it, the text
or the document changes. The panel shows the summary and the legend, steps through the
differences, and can show B in a second editor beside A, scrolled with it.
"""

from __future__ import annotations

import bisect
from typing import Any

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtWidgets import (
    QButtonGroup,
    QCheckBox,
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QRadioButton,
    QScrollArea,
    QVBoxLayout,
    QWidget,
)

from chunkview.app.chunker_panel import escape
from chunkview.app.editor import ChunkEditor
from chunkview.app.markup import options_json
from chunkview.app.params import ParamsPanel
from chunkview.app.worker import ChunkWorker
from chunkview.core import registry
from chunkview.core.runtime.pipeline import ChunkResult
from chunkview.core.session import InspectorModel, ModelEvent
from chunkview.core.views.decorations import DIFF_STYLES


def legend_html(counts: dict[str, int] | None = None) -> str:
    """The four change kinds in their colours and line styles (with counts, if given)."""
    marks = {"solid": "┃", "dashed": "╏", "dotted": "┊"}
    return "&nbsp;&nbsp;".join(
        f'<span style="color:{colour}; font-weight:bold">{marks[style]}</span>&nbsp;{text}'
        + (f" <b>{counts[kind]}</b>" if counts is not None else "")
        for kind, (colour, style, text) in DIFF_STYLES.items()
    )


class ComparePanel(QWidget):
    #: a difference to show (code points)
    show_position = Signal(int)

    def __init__(self, model: InspectorModel) -> None:
        super().__init__()
        self.model = model
        self.worker: ChunkWorker | None = None  # B's own, made when first needed
        self.pinned_radio = QRadioButton("B = a pinned layout")
        self.config_radio = QRadioButton("B = another configuration:")
        self.source = QButtonGroup(self)
        self.source.addButton(self.pinned_radio)
        self.source.addButton(self.config_radio)
        self.pinned_radio.setChecked(True)
        self.pin_button = QPushButton("Pin the current layout as B")
        self.pin_button.clicked.connect(self._pin)
        self.entry_combo = QComboBox()
        for entry in registry.entries():
            self.entry_combo.addItem(entry.id, entry.id)
        self.params = ParamsPanel()
        self.params.changed.connect(self._b_options_changed)
        self.entry_combo.currentIndexChanged.connect(self._b_entry_picked)
        self.config_radio.toggled.connect(self._source_changed)
        config = QWidget()
        config_layout = QVBoxLayout(config)
        config_layout.setContentsMargins(18, 0, 0, 0)
        config_layout.addWidget(self.entry_combo)
        config_layout.addWidget(self.params)
        self.config_box = QScrollArea()
        self.config_box.setWidgetResizable(True)
        self.config_box.setWidget(config)
        self.config_box.setEnabled(False)
        self.summary = QLabel("Pin a layout, or choose another configuration, to compare.")
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.legend = QLabel(f"<small>{legend_html()}</small>")
        self.legend.setWordWrap(True)
        # short words: the pane is narrow beside an editor that keeps half the window
        self.previous_button = QPushButton("◀ Previous")
        self.next_button = QPushButton("Next ▶")
        self.previous_button.setToolTip("The previous difference (Shift+F8)")
        self.next_button.setToolTip("The next difference (F8)")
        self.previous_button.clicked.connect(lambda: self.step(forward=False))
        self.next_button.clicked.connect(lambda: self.step(forward=True))
        self.side_by_side = QCheckBox("Side by side: B in a second editor")
        self.side_by_side.toggled.connect(self._side_by_side)
        self.stop_button = QPushButton("Stop comparing")
        self.stop_button.clicked.connect(self._stop)
        #: "difference n of N": where the last step stands among the differences
        self.position_label = QLabel()
        self.position_label.setAlignment(Qt.AlignmentFlag.AlignCenter)
        steps = QHBoxLayout()
        steps.addWidget(self.previous_button)
        steps.addWidget(self.position_label, 1)
        steps.addWidget(self.next_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.pinned_radio)
        layout.addWidget(self.pin_button)
        layout.addWidget(self.config_radio)
        layout.addWidget(self.config_box, 1)
        layout.addWidget(self.summary)
        layout.addWidget(self.legend)
        layout.addLayout(steps)
        layout.addWidget(self.side_by_side)
        layout.addWidget(self.stop_button)
        # B's own editor, placed beside A's by whoever lays out the window
        self.b_editor = ChunkEditor()
        self.b_editor.setReadOnly(True)
        self.b_editor.hide()
        self.b_title = QLabel()
        self.b_title.hide()
        self._b_shown: ChunkResult | None = None
        self.a_editor: ChunkEditor | None = None  # the window's editor (``attach``)
        self._syncing = False
        model.subscribe(ModelEvent.PINNED, lambda _b: self._show())
        model.subscribe(ModelEvent.RESULT, self._a_changed)
        model.subscribe(ModelEvent.COMPARE_CONFIG, self._run_b)
        self._show()

    # ----- choosing B -----------------------------------------------------------------
    def _pin(self) -> None:
        self.pinned_radio.setChecked(True)
        self.model.pin(True)

    def _stop(self) -> None:
        """Stop comparing, every control back as it first was: B = a pinned layout, B's
        configuration back to the shown chunker's options, side by side off, no
        difference stepped to."""
        self.pinned_radio.setChecked(True)  # disables B's configuration, frees Pin
        self.side_by_side.setChecked(False)
        self.model.stop_comparing()
        self._reset_b_config()
        self._show()

    def _reset_b_config(self) -> None:
        """B's chunker and options as the shown chunker's, without running anything."""
        entry_id = self.model.entry_id
        if not entry_id:
            return
        self.entry_combo.blockSignals(True)
        self.entry_combo.setCurrentIndex(self.entry_combo.findData(entry_id))
        self.entry_combo.blockSignals(False)
        self.params.blockSignals(True)
        try:
            self.params.set_params(registry.get(entry_id).params, self.model.options)
        finally:
            self.params.blockSignals(False)

    def _source_changed(self, config: bool) -> None:
        self.config_box.setEnabled(config)
        self.pin_button.setEnabled(not config)
        if config:
            if self.entry_combo.currentData() != self.model.b_entry_id:
                self._b_entry_picked()
            else:
                self._b_options_changed(self.params.options())
        else:
            self.model.pin(False)

    def set_b(self, entry_id: str, options: dict[str, Any] | None = None) -> None:
        """Compare with ``entry_id`` and ``options`` (as a user would pick them)."""
        self.entry_combo.blockSignals(True)
        self.entry_combo.setCurrentIndex(self.entry_combo.findData(entry_id))
        self.entry_combo.blockSignals(False)
        self.config_radio.blockSignals(True)
        self.config_radio.setChecked(True)
        self.config_radio.blockSignals(False)
        self.config_box.setEnabled(True)
        self.pin_button.setEnabled(False)
        self.params.set_params(registry.get(entry_id).params, options)
        self._b_options_changed(self.params.options())

    def _b_entry_picked(self) -> None:
        entry_id = self.entry_combo.currentData()
        values = self.model.options_by_entry.get(entry_id)
        self.params.set_params(registry.get(entry_id).params, values)
        self._b_options_changed(self.params.options())

    def _b_options_changed(self, options: dict[str, Any]) -> None:
        if "__error__" in options or not self.config_radio.isChecked():
            return
        self.model.set_b_config(self.entry_combo.currentData(), options)

    def _run_b(self) -> None:
        request = self.model.request_b()
        if request is not None:
            self.summary.setText("<small>Chunking B…</small>")
            if self.worker is None:
                self.worker = ChunkWorker(self)
                self.worker.finished.connect(self._b_finished)
                self.worker.failed.connect(self._b_failed)
            self.worker.submit(request)

    def shutdown(self) -> None:
        """End B's worker thread (the window closing)."""
        if self.worker is not None:
            self.worker.stop()

    def _a_changed(self, result: ChunkResult) -> None:
        b = self.model.pinned
        if self.model.b_source == "config" and (
            b is None or b.layout.document.text != result.layout.document.text
        ):
            self._run_b()  # the text changed: B follows it
        self._show()

    def _b_finished(self, result: ChunkResult) -> None:
        self.model.accept_b(result)

    def _b_failed(
        self, generation: int, name: str, message: str, _position: Any, _traceback: Any = None
    ) -> None:
        if generation == self.model.b_generation:
            self.summary.setText(f"<b>B threw {escape(name)}</b>: {escape(message)}")

    # ----- what the comparison says ---------------------------------------------------
    def _show(self) -> None:
        comparison = self.model.comparison()
        active = comparison is not None and comparison.same_text
        for button in (self.previous_button, self.next_button):
            button.setEnabled(active and bool(comparison.diff.differences()))  # type: ignore[union-attr]
        self._show_current(None)  # a new comparison: no difference stepped to yet
        # nothing to stop while B is no layout and no configuration
        comparing = comparison is not None or self.config_radio.isChecked()
        self.stop_button.setEnabled(comparing or self.side_by_side.isChecked())
        if comparison is None:
            self.summary.setText("Pin a layout, or choose another configuration, to compare.")
            self.legend.setText(f"<small>{legend_html()}</small>")
        elif not comparison.same_text and self.model.b_source == "config":
            self.summary.setText("<small>Chunking B on the new text…</small>")  # it follows
        elif not comparison.same_text:
            self.summary.setText("The text changed since B was made; pin again to compare.")
        else:
            b, diff = comparison.pinned.request, comparison.diff
            self.summary.setText(
                f"<b>B</b>: {escape(b.entry_id)} <small>{escape(options_json(b.options))}</small>, "
                f"{len(comparison.pinned.layout.spans)} chunks; <b>A</b> (shown): "
                f"{len(comparison.current.layout.spans)} chunks.<br>"
                f"<b>From A to B: {diff.summary()}</b>"
            )
            self.legend.setText(f"<small>{legend_html(diff.counts)}</small>")
        self._show_b_editor()

    def step(self, forward: bool = True) -> int | None:
        """Show the next (previous) difference after (before) the editor's cursor."""
        editor = self.b_editor if self.b_editor.hasFocus() else self.a_editor
        point = editor.to_point(editor.textCursor().position()) if editor else 0
        found = self.model.step("difference", point, forward)
        if found is not None:
            # the inspector follows: A's chunk there, selected before the cursor moves
            self.model.select_chunk(self.model.chunk_at(found))
            self.show_position.emit(found)
        self._show_current(found)
        return found

    def _show_current(self, point: int | None) -> None:
        """Say which difference ``point`` is ("difference n of N") and highlight it in
        both editors (None: none stepped to; the count alone)."""
        places = self.model.targets("difference")
        if not places:
            self.position_label.setText("")
        elif point is None:
            count = len(places)
            self.position_label.setText(f"{count} difference{'s' if count != 1 else ''}")
        else:
            at = bisect.bisect_left(places, point)
            self.position_label.setText(f"difference {at + 1} of {len(places)}")
        for editor in (self.a_editor, self.b_editor):
            if editor is not None:
                editor.mark_difference(point)

    # ----- side by side ---------------------------------------------------------------
    def attach(self, a_editor: ChunkEditor) -> None:
        """Scroll B's editor with A's (the one the window shows)."""
        self.a_editor = a_editor
        a_editor.verticalScrollBar().valueChanged.connect(lambda _v: self._sync(a_editor))
        self.b_editor.verticalScrollBar().valueChanged.connect(lambda _v: self._sync_back())
        # B's editor is laid out only once shown (its column appears after the toggle):
        # it is scrolled to where A is then, and again when its width changes the wraps
        self.b_editor.installEventFilter(self)
        # a long text reaches B's editor in pieces: each piece lets it scroll further
        self.b_editor.verticalScrollBar().rangeChanged.connect(lambda *_: self._sync(a_editor))

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if (
            watched is self.b_editor
            and event.type() in (QEvent.Type.Show, QEvent.Type.Resize)
            and self.a_editor is not None
        ):
            self._sync(self.a_editor)
        return False

    def _side_by_side(self, on: bool) -> None:
        self.b_editor.setVisible(on)
        self.b_title.setVisible(on)
        self._show_b_editor()

    def _show_b_editor(self) -> None:
        comparison = self.model.comparison()
        if not self.side_by_side.isChecked() or comparison is None or not comparison.same_text:
            self._b_shown = None
            self.b_title.setText("")
            return
        b = comparison.pinned
        if b is not self._b_shown:
            self._b_shown = b
            self.b_editor.set_text(b.layout.document.text)
            self.b_editor.set_result(b)
        self.b_editor.set_comparison(comparison.diff)
        self.b_title.setText(f"<small><b>B</b>: {escape(b.request.entry_id)}</small>")
        if self.a_editor is not None:
            self._sync(self.a_editor)

    def _sync(self, source: ChunkEditor, target: ChunkEditor | None = None) -> None:
        """Scroll ``target`` (B's editor) to the line ``source`` shows at its top."""
        target = target or self.b_editor
        if self._syncing or not target.isVisible():
            return
        self._syncing = True
        try:
            point = source.visible_points()[0]
            block = target.document().findBlock(target.to_editor(point))
            target.verticalScrollBar().setValue(block.firstLineNumber())
        finally:
            self._syncing = False

    def _sync_back(self) -> None:
        if self.a_editor is not None and self.b_editor.isVisible():
            self._sync(self.b_editor, self.a_editor)
