"""The Eval tab: questions whose answers are ranges of the document, and how well the
shown chunks retrieve them (recall, precision, IoU at top-k, and the Ω pair)."""

from __future__ import annotations

import threading
from collections.abc import Callable

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QPushButton,
    QSpinBox,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from chunkview.core.analysis.eval import (
    RETRIEVERS,
    EvalReport,
    Question,
    QuestionsError,
    evaluate,
    load_questions,
    question_from_selection,
    questions_jsonl,
)
from chunkview.core.runtime.pipeline import ChunkResult
from chunkview.core.session import InspectorModel, ModelEvent

COLUMNS = ("Question", "Whole", "In chunks", "Recall", "Precision", "IoU", "Prec. Ω", "IoU Ω")


def _figure(value: float | None) -> str:
    return "–" if value is None else f"{value:.3f}"


def _means(report: EvalReport) -> str:
    m = report.means
    return (
        f"{report.chunks} chunks: recall {_figure(m['recall'])} · precision "
        f"{_figure(m['precision'])} · IoU {_figure(m['iou'])} · precision Ω "
        f"{_figure(m['precision_omega'])} · IoU Ω {_figure(m['iou_omega'])} · "
        f"{100 * (m['whole'] or 0):.0f}% of answers whole in one chunk"
    )


class EvalPanel(QWidget):
    #: a row asks to show a place in the document (code points)
    show_position = Signal(int)
    #: the questions were set, added to or removed from (question_memory.py keeps them)
    questions_changed = Signal()
    #: (generation, report, report B, problem) from the computing thread
    _computed = Signal(int, object, object, str)

    def __init__(self, model: InspectorModel) -> None:
        super().__init__()
        self.model = model
        self.questions: list[Question] = []
        self.report: EvalReport | None = None
        #: the same questions on layout B (pinned, or the second configuration's)
        self.report_b: EvalReport | None = None
        #: the selected text range (code points of the shown text): the window's editor's
        self.selection: Callable[[], tuple[int, int] | None] = self._editor_selection
        self._dirty = True
        self._generation = 0
        #: figures are being computed for the newest request
        self.computing = False

        self.question_box = QLineEdit()
        self.question_box.setPlaceholderText("Type a question, select its answer in the text…")
        self.question_box.returnPressed.connect(self.mark_answer)
        self.mark_button = QPushButton("Mark as answer")
        self.mark_button.setToolTip("The selected text answers the typed question")
        self.mark_button.clicked.connect(self.mark_answer)
        ask = QHBoxLayout()
        ask.addWidget(self.question_box, 1)
        ask.addWidget(self.mark_button)

        self.retriever_box = QComboBox()
        for name in RETRIEVERS:
            self.retriever_box.addItem(name, name)
        self.retriever_box.setToolTip("BM25 over the chunks, or an embedder (cosine)")
        self.retriever_box.currentIndexChanged.connect(self.refresh)
        self.top_k = QSpinBox()
        self.top_k.setRange(1, 100)
        self.top_k.setValue(5)
        self.top_k.setPrefix("top ")
        self.top_k.valueChanged.connect(self.refresh)
        load = QPushButton("Load…")
        load.setToolTip("Questions from a JSONL file (question, references)")
        load.clicked.connect(self._load_dialog)
        save = QPushButton("Save…")
        save.clicked.connect(self._save_dialog)
        self.remove_button = QPushButton("Remove")
        self.remove_button.clicked.connect(self.remove_selected)
        tools = QHBoxLayout()
        tools.addWidget(QLabel("Retriever"))
        tools.addWidget(self.retriever_box)
        tools.addWidget(self.top_k)
        tools.addStretch(1)
        for button in (load, save, self.remove_button):
            tools.addWidget(button)

        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.verticalHeader().hide()
        self.table.setSelectionBehavior(QTableWidget.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        for column in range(1, len(COLUMNS)):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.table.cellClicked.connect(lambda row, _column: self._go(row))
        self.means = QLabel("No questions yet: load a file or mark an answer.")
        self.means.setWordWrap(True)
        self.means.setTextFormat(Qt.TextFormat.PlainText)  # paths and errors, as written
        self.means.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)

        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)  # a dock under the panels: off its edges
        layout.addLayout(ask)
        layout.addLayout(tools)
        layout.addWidget(self.table, 1)
        layout.addWidget(self.means)
        self._computed.connect(self._arrived)
        model.subscribe(ModelEvent.RESULT, self._new_result)
        model.subscribe(ModelEvent.PINNED, self._new_result)

    # ----- questions ----------------------------------------------------------------
    def set_questions(self, questions: list[Question]) -> None:
        self.questions = list(questions)
        self.refresh()
        self.questions_changed.emit()

    def load_questions(self, path: str) -> bool:
        try:
            self.set_questions(load_questions(path))
        except QuestionsError as exc:
            self.means.setText(f"⚠ {exc}")
            return False
        return True

    def save_questions(self, path: str) -> bool:
        try:
            with open(path, "w", encoding="utf-8") as handle:
                handle.write(questions_jsonl(self.questions))
        except OSError as exc:  # a folder that is gone or not writable: say so, keep them
            self.means.setText(f"⚠ Cannot save the questions to {path}: {exc.strerror or exc}")
            return False
        return True

    def retrieval_setup(self) -> tuple[list[Question], str | None, int]:
        """The questions, retriever and top k chosen here (a sweep scores them too)."""
        return list(self.questions), self.retriever_box.currentData(), self.top_k.value()

    def mark_answer(self) -> None:
        """Add the typed question with the selected text as its answer."""
        result = self.model.result
        chosen = self.selection()
        text = result.layout.document.text if result is not None else ""
        start, end = chosen if chosen else (0, 0)
        try:
            question = question_from_selection(text, start, end, self.question_box.text())
        except QuestionsError as exc:
            self.means.setText(f"⚠ {exc}")
            return
        self.questions.append(question)
        self.question_box.clear()
        self.refresh()
        self.questions_changed.emit()

    def _editor_selection(self) -> tuple[int, int] | None:
        editor = getattr(self.window(), "editor", None)
        if editor is None or not editor.textCursor().hasSelection():
            return None
        cursor = editor.textCursor()
        return editor.to_point(cursor.selectionStart()), editor.to_point(cursor.selectionEnd())

    def remove_selected(self) -> None:
        rows = sorted({index.row() for index in self.table.selectedIndexes()}, reverse=True)
        for row in rows:
            if row < len(self.questions):
                del self.questions[row]
        self.refresh()
        if rows:
            self.questions_changed.emit()

    def _load_dialog(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, "Load questions", "", "JSONL (*.jsonl)")
        if path:
            self.load_questions(path)

    def _save_dialog(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, "Save questions", "", "JSONL (*.jsonl)")
        if path:
            self.save_questions(path)

    # ----- figures ------------------------------------------------------------------
    def _new_result(self, _result: ChunkResult) -> None:
        self._dirty = True
        if self.isVisible():
            self.refresh()

    def showEvent(self, event) -> None:  # figures only for a tab someone looks at
        super().showEvent(event)
        if self._dirty:
            self.refresh()

    def refresh(self) -> None:
        """Figures for the shown layout (and B): BM25 over tens of thousands of chunks takes
        seconds, so they are computed on a thread and the newest request wins."""
        result = self.model.result
        self._dirty = False
        self._generation += 1
        if result is None or not self.questions:
            self.report = self.report_b = None
            self.computing = False
            self._show()
            return
        pinned = self.model.pinned
        if pinned is not None and pinned.layout.document.text != result.layout.document.text:
            pinned = None  # the answers' places hold only on the same text
        job = (
            self._generation,
            result.layout,
            None if pinned is None else pinned.layout,
            list(self.questions),
            self.retriever_box.currentData(),
            self.top_k.value(),
        )
        self.computing = True
        self.means.setText("Computing…")
        threading.Thread(target=self._compute, args=job, daemon=True).start()

    def _compute(self, generation, layout, layout_b, questions, retriever, top_k) -> None:
        """On a thread: both reports, or the problem in words."""
        try:
            report = evaluate(layout, questions, retriever, top_k)
            report_b = None if layout_b is None else evaluate(layout_b, questions, retriever, top_k)
        except (QuestionsError, ValueError) as exc:
            self._computed.emit(generation, None, None, f"⚠ {exc}")
            return
        except Exception as exc:  # an embedder that is not installed, in its words
            self._computed.emit(generation, None, None, f"⚠ {getattr(exc, 'message', exc)}")
            return
        self._computed.emit(generation, report, report_b, "")

    def _arrived(self, generation: int, report, report_b, problem: str) -> None:
        if generation != self._generation:
            return  # a newer request is on its way
        self.report, self.report_b = report, report_b
        self.computing = False
        self._show(problem)

    def _show(self, problem: str = "") -> None:
        report = self.report
        self.table.setRowCount(len(self.questions))
        for row, question in enumerate(self.questions):
            figures = report.questions[row] if report is not None else None
            holding = sorted({c for r in figures.references for c in r.chunks}) if figures else []
            cells = [
                question.question,
                ("yes" if figures.whole else "no") if figures else "–",
                ", ".join(map(str, holding[:6])) + ("…" if len(holding) > 6 else ""),
                _figure(figures.recall if figures else None),
                _figure(figures.precision if figures else None),
                _figure(figures.iou if figures else None),
                _figure(figures.precision_omega if figures else None),
                _figure(figures.iou_omega if figures else None),
            ]
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if column:
                    item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                self.table.setItem(row, column, item)
        if problem:
            self.means.setText(problem)
        elif report is None:
            self.means.setText("No questions yet: load a file or mark an answer.")
        else:
            text = (
                f"Mean of {len(report.questions)} questions ({report.retriever}, top "
                f"{report.top_k}) over {_means(report)}"
            )
            if self.report_b is not None:
                text += f"\nLayout B over {_means(self.report_b)}"
            self.means.setText(text)

    def _go(self, row: int) -> None:
        if not 0 <= row < len(self.questions):
            return
        first = self.questions[row].references[0]
        report = self.report
        if report is not None and report.questions[row].references[0].chunks:
            self.model.select_chunk(report.questions[row].references[0].chunks[0])
        self.show_position.emit(first.start)
