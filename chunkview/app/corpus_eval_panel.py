"""Evaluate the Audit dock's folder with a questions file, as ``chunkview eval FOLDER``
does: every document chunked and scored on the chunking processes' pool
(``core/batch/corpus_eval.py``), a progress bar per document, a stop that ends the
processes at once; then the corpus means of the setting on view, or of each value of a
swept option, as a table and as the Sweep dock's plots (recall · precision · IoU, and the
Ω pair, per value).

The run is driven from a plain daemon thread, which only waits on the pool's processes;
its progress and result reach the UI thread through queued signals.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QAbstractItemView,
    QComboBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSpinBox,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from chunkview.app.background import BackgroundJob
from chunkview.app.sweep_panel import CURVE_SYMBOLS
from chunkview.core.analysis.corpus import FIGURES, CorpusResult
from chunkview.core.analysis.eval import RETRIEVERS, Question, QuestionsError, load_questions
from chunkview.core.batch.corpus_eval import Setting, corpus_documents, corpus_eval, only_document
from chunkview.core.batch.sweep import numeric_params, parse_values
from chunkview.core.errors import Cancelled, DocumentError
from chunkview.core.runtime import DEFAULT_TIMEOUT, ChunkPool
from chunkview.core.session import InspectorModel, ModelEvent
from chunkview.core.views.corpus_report import (
    FIGURE_COLOURS,
    FIGURE_NAMES,
    build_report,
    figure_shown,
)
from chunkview.corpus_report import render_report, save_report

if TYPE_CHECKING:  # imported when the plots are built: a third of a second of start-up
    import pyqtgraph as pg

#: the columns of the means table
HEADERS = ("setting", *FIGURE_NAMES.values(), "whole", "chunks")
#: the plots, as the Sweep dock draws them: (title, figures)
PLOTS = (
    ("recall · precision · IoU (corpus mean)", ("recall", "precision", "iou")),
    ("precision Ω · IoU Ω (corpus mean)", ("precision_omega", "iou_omega")),
)
#: the Ω pair drawn as the top-k pair: the first solid, the second dashed, their symbols
STYLE_OF = {"precision_omega": "precision", "iou_omega": "iou"}
DASHED = {"iou", "iou_omega"}


@dataclass(frozen=True)
class EvalRequest:
    """One evaluation of the folder: what the background thread needs, nothing of Qt."""

    folder: str
    questions: list[Question]
    settings: list[Setting]
    #: the swept option's value of each setting (None: not a sweep)
    values: list[float | None]
    retriever: str | None
    top_k: int
    jobs: int
    timeout: float
    max_memory: int | None


@dataclass(frozen=True)
class EvalOutcome:
    """An evaluation run to its end: each setting's result, in the request's order."""

    request: EvalRequest
    results: list[CorpusResult]


class _CorpusEvalJob(BackgroundJob):
    """Runs one evaluation at a time; tells each document done and the result."""

    counted = Signal(int, int)  # run number, jobs in all (documents × settings)
    step = Signal(int)  # run number: one document of one setting done
    finished = Signal(int, object)  # run number, EvalOutcome
    failed = Signal(int, str)  # the run itself broke (or its questions did not fit)
    done = Signal(int)

    def start(self, number: int, request: EvalRequest) -> None:
        self.launch(self._run, number, request)

    def _run(self, number: int, request: EvalRequest, cancel: threading.Event) -> None:
        pool = None
        try:
            paths = [request.folder]
            count = sum(1 for _ in corpus_documents(paths))
            self.deliver(self.counted, number, count * len(request.settings))
            pool = ChunkPool(request.jobs, timeout=request.timeout, max_memory=request.max_memory)
            if not self.hold_pool(pool, cancel):  # stopped before it began
                return

            def progress() -> None:
                if cancel.is_set():
                    raise Cancelled("stopped")
                self.deliver(self.step, number)

            results = corpus_eval(
                corpus_documents(paths),
                request.questions,
                request.settings,
                pool,
                only=only_document(paths),
                retriever=request.retriever,
                top_k=request.top_k,
                progress=progress,
                keep_texts=True,  # the worst questions' texts, for a report
            )
            self.deliver(self.finished, number, EvalOutcome(request, results))
        except Cancelled:
            pass
        except QuestionsError as error:
            self.deliver(self.failed, number, str(error))
        except Exception as error:  # a broken pool must not take the app down
            if not cancel.is_set():
                self.deliver(self.failed, number, f"{type(error).__name__}: {error}")
        finally:
            if pool is not None:
                self.release_pool(pool)
                pool.close()
            self.deliver(self.done, number)


class CorpusEvalPanel(QWidget):
    """A questions file, the option to sweep (if any), Evaluate; the means and plots."""

    started = Signal()  # an evaluation begun

    def __init__(self, model: InspectorModel, folder: Callable[[], str]) -> None:
        super().__init__()
        self.model = model
        self.folder = folder
        self.time_budget: Callable[[], float | None] = lambda: None
        self.memory_budget: Callable[[], int | None] = lambda: None
        self.jobs = max(1, min(4, os.cpu_count() or 1))
        self.number = 0
        self.running = False
        self.outcome: EvalOutcome | None = None
        self.failure = ""
        #: the settings of the run going or shown (a sweep's values, else one)
        self.settings_run = 1
        self.questions_edit = QLineEdit()
        self.questions_edit.setPlaceholderText("questions (JSONL, each naming its document)")
        self.questions_edit.returnPressed.connect(self.start)
        choose = QPushButton("Questions…")
        choose.setToolTip(
            "A JSONL file of questions whose answers are ranges of the documents; each "
            "names its document by corpus_id, its path under the folder"
        )
        choose.clicked.connect(self.choose_questions)
        self.retriever_combo = QComboBox()
        for name in (*RETRIEVERS, "none"):
            self.retriever_combo.addItem(name)
        self.retriever_combo.setToolTip(
            "How the top k chunks of the corpus are taken; none: Ω only"
        )
        self.top_k = QSpinBox()
        self.top_k.setRange(1, 100)
        self.top_k.setValue(5)
        self.param_combo = QComboBox()
        self.param_combo.setToolTip("An option to step over the corpus (none: the setting on view)")
        self.values_edit = QLineEdit()
        self.values_edit.setPlaceholderText("start:stop:step or a,b,c")
        self.values_edit.returnPressed.connect(self.start)
        self.run_button = QPushButton("Evaluate")
        self.run_button.setToolTip("Chunk and score every document of the folder")
        self.run_button.clicked.connect(self.start)
        self.stop_button = QPushButton("Stop")
        self.stop_button.clicked.connect(self.stop)
        self.stop_button.setEnabled(False)
        self.report_button = QPushButton("Report…")
        self.report_button.setToolTip(
            "Save the evaluation as one self-contained HTML page, as chunkview eval --report"
        )
        self.report_button.clicked.connect(self.report_dialog)
        self.report_button.setEnabled(False)
        self.progress = QProgressBar()
        self.progress.setFormat("%v / %m documents")
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.message = QLabel("Choose a questions file to evaluate the folder's documents.")
        self.message.setWordWrap(True)
        self.message.setTextFormat(Qt.TextFormat.PlainText)
        self.table = QTableWidget(0, len(HEADERS))
        self.table.setHorizontalHeaderLabels(list(HEADERS))
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        self._plots_widget: pg.GraphicsLayoutWidget | None = None
        self.plots: dict[str, pg.PlotItem] = {}
        self.curves: dict[str, pg.PlotDataItem] = {}
        # the table beside the plots: the dock lies wide and low under the panels
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.table)
        self._lay_out(choose)
        self._job = _CorpusEvalJob()
        self._job.counted.connect(self._counted)
        self._job.step.connect(self._step)
        self._job.finished.connect(self._show)
        self._job.failed.connect(self._failed)
        self._job.done.connect(self._finished)
        model.subscribe(ModelEvent.ENTRY, lambda _entry: self._fill_params())
        self._fill_params()

    def _lay_out(self, choose: QPushButton) -> None:
        asked = QHBoxLayout()  # one line: the dock lies wide and low under the panels
        asked.addWidget(self.questions_edit, 3)
        asked.addWidget(choose)
        asked.addWidget(QLabel("retriever"))
        asked.addWidget(self.retriever_combo)
        asked.addWidget(QLabel("k"))
        asked.addWidget(self.top_k)
        asked.addWidget(QLabel("sweep"))
        asked.addWidget(self.param_combo, 1)
        asked.addWidget(QLabel("values"))
        asked.addWidget(self.values_edit, 1)
        row = QHBoxLayout()
        row.addWidget(self.run_button)
        row.addWidget(self.stop_button)
        row.addWidget(self.progress, 1)
        row.addWidget(self.report_button)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addLayout(asked)
        layout.addLayout(row)
        layout.addWidget(self.message)
        layout.addWidget(self.splitter, 1)

    def _fill_params(self) -> None:
        kept = self.param_combo.currentData()
        self.param_combo.clear()
        self.param_combo.addItem("none", None)
        if self.model.entry_id:
            for param in numeric_params(self.model.entry, self.model.options):
                self.param_combo.addItem(param.name, param.name)
        found = self.param_combo.findData(kept)
        self.param_combo.setCurrentIndex(max(found, 0))

    def choose_questions(self) -> None:
        path, _filter = QFileDialog.getOpenFileName(
            self, "Questions", self.questions_edit.text(), "JSON Lines (*.jsonl);;All files (*)"
        )
        if path:
            self.questions_edit.setText(path)

    # ----- running --------------------------------------------------------------------
    def request(self) -> EvalRequest:
        """What Evaluate would run now; QuestionsError or ValueError with a line to show."""
        typed = self.folder().strip()
        folder = os.path.abspath(os.path.expanduser(typed))
        if not typed or not os.path.isdir(folder):
            raise ValueError(f"{typed!r} is not a folder." if typed else "Choose a folder.")
        path = self.questions_edit.text().strip()
        if not path:
            raise ValueError("Choose a questions file.")
        questions = load_questions(os.path.expanduser(path))
        if not questions:
            raise ValueError(f"{path} holds no question.")
        entry_id = self.model.entry_id
        options = {k: v for k, v in self.model.options.items() if v is not None}
        param = self.param_combo.currentData()
        settings = [Setting(entry_id, options, entry_id)]
        values: list[float | None] = [None]
        if param:
            kind = next(p.kind for p in self.model.entry.params if p.name == param)
            points = parse_values(self.values_edit.text(), integer=kind == "int")
            settings = [Setting(entry_id, {**options, param: v}, f"{v:g}") for v in points]
            values = list(points)
        retriever = self.retriever_combo.currentText()
        budget = self.memory_budget()
        return EvalRequest(
            folder,
            questions,
            settings,
            values,
            None if retriever == "none" else retriever,
            self.top_k.value(),
            self.jobs,
            self.time_budget() or DEFAULT_TIMEOUT,
            None if budget is None else max(budget // self.jobs, 64 * 2**20),
        )

    def start(self) -> bool:
        """Evaluate the folder; False with a message when there is nothing to run."""
        if self.running or not self.model.entry_id:
            return False
        try:
            request = self.request()
        except (QuestionsError, ValueError) as error:
            self.message.setText(str(error))
            return False
        self.stop()
        self.number += 1
        self.running = True
        self.failure = ""
        self.outcome = None
        self.table.setRowCount(0)
        self.progress.setRange(0, 0)  # busy until the documents are counted
        # a sweep runs each document once a value: the bar counts those runs
        self.settings_run = len(request.settings)
        runs = "documents" if self.settings_run == 1 else "documents × values"
        self.progress.setFormat(f"%v / %m {runs}")
        self.message.setText(f"Listing the documents under {request.folder}…")
        self.run_button.setEnabled(False)
        self.stop_button.setEnabled(True)
        self.report_button.setEnabled(False)
        self._job.start(self.number, request)
        self.started.emit()
        return True

    def stop(self) -> None:
        self._job.cancel.set()
        self._job.kill_pools()

    def _counted(self, number: int, total: int) -> None:
        if number == self.number:
            self.progress.setRange(0, max(total, 1))
            self.progress.setValue(0)
            documents = total // max(self.settings_run, 1)
            at = f" at {self.settings_run} values" if self.settings_run > 1 else ""
            self.message.setText(f"Evaluating {documents} documents{at}…")

    def _step(self, number: int) -> None:
        if number == self.number:
            self.progress.setValue(self.progress.value() + 1)

    def _failed(self, number: int, message: str) -> None:
        if number == self.number:
            self.failure = message

    def _finished(self, number: int) -> None:
        if number != self.number:
            return
        self.running = False
        self.run_button.setEnabled(True)
        self.stop_button.setEnabled(False)
        self.report_button.setEnabled(self.outcome is not None)
        self.progress.setRange(0, max(self.progress.maximum(), 1))
        if self.failure:
            self.message.setText(f"The evaluation stopped: {self.failure}")
        elif self.outcome is None:
            self.message.setText("Stopped before the end.")

    # ----- the result -----------------------------------------------------------------
    def _show(self, number: int, outcome: EvalOutcome) -> None:
        if number != self.number:
            return
        self.outcome = outcome
        rows = [
            (setting.label, result)
            for setting, result in zip(outcome.request.settings, outcome.results, strict=True)
        ]
        self.table.setRowCount(len(rows))
        for row, (label, result) in enumerate(rows):
            means = result.means
            whole = means.get("whole")
            cells = [
                label,
                *(figure_shown(means[name]) for name in FIGURES),
                "-" if whole is None else f"{100 * whole:.0f}%",
                str(result.chunks),
            ]
            for column, text in enumerate(cells):
                item = QTableWidgetItem(text)
                if column:
                    item.setTextAlignment(
                        Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
                    )
                self.table.setItem(row, column, item)
        swept = outcome.request.values[0] is not None
        if swept:
            self._plot(outcome)
        if self._plots_widget is not None:
            self._plots_widget.setVisible(swept)
        first = outcome.results[0]
        failures = [line for result in outcome.results for line in result.failed]
        text = (
            f"{first.files} documents, {len(first.scored)} of {len(first.questions)} "
            f"questions scored, retriever {outcome.request.retriever or 'none'}"
            + (
                f", top {outcome.request.top_k} over the corpus"
                if outcome.request.retriever
                else ""
            )
            + "."
        )
        if failures:  # each line names its document, status and message
            over = f" over the {len(outcome.results)} settings" if len(outcome.results) > 1 else ""
            text += f" {len(failures)} documents failed{over}; the first: {failures[0]}"
        self.message.setText(text)

    def means_shown(self) -> list[dict[str, str]]:
        """The table's rows as shown, by header (what a reader compares with the CLI)."""
        rows = []
        for row in range(self.table.rowCount()):
            items = [self.table.item(row, column) for column in range(len(HEADERS))]
            rows.append({h: i.text() if i else "" for h, i in zip(HEADERS, items, strict=True)})
        return rows

    def _ensure_plots(self) -> None:
        if self._plots_widget is not None:
            return
        import pyqtgraph as pg

        pg.setConfigOptions(antialias=True)
        self._plots_widget = pg.GraphicsLayoutWidget()
        self._plots_widget.setBackground(self.palette().color(self.backgroundRole()))
        ink = self.palette().color(self.foregroundRole())
        for column, (title, figures) in enumerate(PLOTS):
            plot = self._plots_widget.addPlot(row=0, col=column)
            plot.showGrid(x=True, y=True, alpha=0.2)
            plot.setMouseEnabled(x=False, y=False)
            plot.hideButtons()
            plot.setMenuEnabled(False)
            plot.setYRange(0, 1.04, padding=0)
            names = " · ".join(
                f'<span style="color:{FIGURE_COLOURS[f]}">{FIGURE_NAMES[f]}</span>' for f in figures
            )
            plot.setTitle(
                f'<span style="color:{ink.name()}">{title}</span>&nbsp; {names}', size="8pt"
            )
            for side in ("left", "bottom"):
                plot.getAxis(side).setTextPen(ink)
                plot.getAxis(side).setPen(ink)
                plot.getAxis(side).enableAutoSIPrefix(False)
            for name in figures:
                style_of = STYLE_OF.get(name, name)
                style = Qt.PenStyle.DashLine if name in DASHED else Qt.PenStyle.SolidLine
                self.curves[name] = plot.plot(
                    [],
                    [],
                    pen=pg.mkPen(FIGURE_COLOURS[name], width=2, style=style),
                    symbol=CURVE_SYMBOLS.get(style_of, "o"),
                    symbolSize=7,
                    symbolBrush=FIGURE_COLOURS[name],
                    symbolPen=None,
                )
            self.plots[title] = plot
        self.splitter.addWidget(self._plots_widget)
        self._plots_widget.setMinimumHeight(140)
        # the table whole, the plots the rest
        header = self.table.horizontalHeader()
        wanted = header.length() + self.table.frameWidth() * 2 + 4
        self.splitter.setSizes([wanted, max(self.splitter.width() - wanted, 300)])

    def _plot(self, outcome: EvalOutcome) -> None:
        self._ensure_plots()
        param = self.param_combo.currentData() or ""
        points = sorted(
            zip(outcome.request.values, outcome.results, strict=True), key=lambda p: p[0] or 0
        )
        for name, curve in self.curves.items():
            shown = [(v, r.means[name]) for v, r in points if r.means.get(name) is not None]
            curve.setData([v for v, _ in shown], [m for _, m in shown])
        for plot in self.plots.values():
            plot.setLabel("bottom", param)

    def plotted(self, name: str) -> tuple[list[float], list[float]]:
        """A curve's points (x: the values, y: the corpus means)."""
        xs, ys = self.curves[name].getData()
        return (
            [] if xs is None else list(map(float, xs)),
            [] if ys is None else list(map(float, ys)),
        )

    def report_dialog(self) -> None:
        path, _filter = QFileDialog.getSaveFileName(
            self, "Save the evaluation's report", "evaluation.html", "HTML (*.html)"
        )
        if path:
            self.save_report(path)

    def save_report(self, path: str) -> bool:
        """Write the evaluation shown as ``chunkview eval --report`` writes it; False with a
        message when there is none or it cannot be written."""
        outcome = self.outcome
        if outcome is None:
            return False
        request = outcome.request
        param = self.param_combo.currentData() if request.values[0] is not None else None
        first = request.settings[0]
        shown = {
            "corpus": request.folder,
            "questions": self.questions_edit.text().strip(),
            "entry": first.entry_id,
            "options": {k: v for k, v in first.options.items() if k != param},
            "param": param,
            "values": ",".join(s.label for s in request.settings) if param else None,
            "retriever": request.retriever,
            "top_k": request.top_k if request.retriever else None,
        }
        labelled = [
            (s.label, v, r)
            for s, v, r in zip(request.settings, request.values, outcome.results, strict=True)
        ]
        try:
            save_report(render_report(build_report(shown, labelled)), path)
        except DocumentError as error:
            self.message.setText(str(error))
            return False
        self.message.setText(f"Saved the report to {path}.")
        return True

    def shutdown(self) -> None:
        self.stop()
