"""Audit a folder from the window: every file chunked with the current chunker and options
on the chunking processes' pool (``core/audit_run.py``, as ``chunkview audit`` does), a
row per file as it finishes, and the totals; a double-click opens a file in the inspector.

The files are listed and the pool is driven from a plain daemon thread, which only waits
on the pool's processes; each record reaches the UI thread through a queued signal.
"""

from __future__ import annotations

import os
import threading
from bisect import bisect_right
from collections.abc import Callable, Mapping
from itertools import islice
from typing import Any

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QPersistentModelIndex,
    Qt,
    Signal,
)
from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QTableView,
    QTabWidget,
    QVBoxLayout,
    QWidget,
)

from chunkview.app.background import BackgroundJob
from chunkview.app.corpus_eval_panel import CorpusEvalPanel
from chunkview.app.job_panel import lay_out_job_panel
from chunkview.app.markup import as_rich_text
from chunkview.core.batch.audit import STATUSES, Summary, iter_files
from chunkview.core.runtime import DEFAULT_TIMEOUT
from chunkview.core.session import InspectorModel

Index = QModelIndex | QPersistentModelIndex
_ROOT = QModelIndex()
#: the most files one audit lists (the CLI takes any number; a table of more says little)
MAX_FILES = 20_000


def _rank(value: Any, descending: bool) -> tuple[int, Any]:
    """A cell's place in a sorted column: blanks last either way; numbers negated for a
    descending order, text (one column holds one or the other) inverted by its code
    points."""
    if value is None or value == "":
        return (1, 0)
    if not descending:
        return (0, value)
    if isinstance(value, str):
        return (0, (*(-ord(c) for c in value), 1))
    return (0, -value)


def _warnings(record: Mapping[str, Any]) -> int | None:
    """All the file's warnings; blank where it was not chunked."""
    counts = record.get("warnings")
    return None if counts is None else sum(counts.values())


def _top_warnings(record: Mapping[str, Any]) -> str:
    if record.get("message"):
        return str(record["message"]).splitlines()[0][:200]
    counts = sorted((record.get("warnings") or {}).items(), key=lambda kv: (-kv[1], kv[0]))
    return ", ".join(f"{kind} {count}" for kind, count in counts[:3])


#: column title, what it shows of a record, tooltip
COLUMNS: tuple[tuple[str, Callable[[Mapping[str, Any]], Any], str], ...] = (
    ("file", lambda r: r.get("name", r["path"]), "The file, under the audited folder"),
    ("status", lambda r: r.get("status", ""), "ok, empty, error (unreadable or refused) or hang"),
    ("chars", lambda r: r.get("chars"), "Characters in the file's text"),
    ("chunks", lambda r: r.get("chunks"), "Chunks the setting gives"),
    ("min", lambda r: (r.get("size") or {}).get("min"), "Smallest chunk, in the size unit"),
    ("median", lambda r: (r.get("size") or {}).get("median"), "Median chunk size"),
    ("max", lambda r: (r.get("size") or {}).get("max"), "Largest chunk"),
    ("warnings", _warnings, "Warnings of every kind"),
    ("top warnings", _top_warnings, "The most frequent warning kinds, or what went wrong"),
)


class AuditModel(QAbstractTableModel):
    """The records of one audit, a row each, sortable by any column."""

    def __init__(self) -> None:
        super().__init__()
        self.records: list[dict[str, Any]] = []
        self._order: tuple[int, Qt.SortOrder] | None = None
        self._ranks: list[tuple[int, Any]] = []  # each record's place, while sorted

    def clear(self) -> None:
        self.beginResetModel()
        self.records, self._ranks, self._order = [], [], None
        self.endResetModel()

    def add(self, record: dict[str, Any]) -> None:
        """A record more: at the end, or in its place when the rows are sorted."""
        row = len(self.records)
        if self._order is not None:
            column, order = self._order
            rank = _rank(COLUMNS[column][1](record), order == Qt.SortOrder.DescendingOrder)
            row = bisect_right(self._ranks, rank)
            self._ranks.insert(row, rank)
        self.beginInsertRows(_ROOT, row, row)
        self.records.insert(row, record)
        self.endInsertRows()

    def rowCount(self, parent: Index = _ROOT) -> int:
        return 0 if parent.isValid() else len(self.records)

    def columnCount(self, parent: Index = _ROOT) -> int:
        return 0 if parent.isValid() else len(COLUMNS)

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid():
            return None
        record = self.records[index.row()]
        value = COLUMNS[index.column()][1](record)
        if role == Qt.ItemDataRole.DisplayRole:
            if isinstance(value, float):
                return f"{value:g}"
            return "" if value is None else str(value)
        if role == Qt.ItemDataRole.ToolTipRole and index.column() in (0, len(COLUMNS) - 1):
            return as_rich_text(record.get("message") or record["path"])  # shown as written
        if role == Qt.ItemDataRole.TextAlignmentRole and 1 < index.column() < len(COLUMNS) - 1:
            return int(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
        return None

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if orientation != Qt.Orientation.Horizontal:
            return None
        if role == Qt.ItemDataRole.DisplayRole:
            return COLUMNS[section][0]
        if role == Qt.ItemDataRole.ToolTipRole:
            return COLUMNS[section][2]
        return None

    def sort(self, column: int, order: Qt.SortOrder = Qt.SortOrder.AscendingOrder) -> None:
        if not 0 <= column < len(COLUMNS):  # the sort indicator cleared: rows as they came
            self._order, self._ranks = None, []
            return
        self.layoutAboutToBeChanged.emit()
        value, descending = COLUMNS[column][1], order == Qt.SortOrder.DescendingOrder
        kept = self.persistentIndexList()  # the selection and the current row
        kept_records = [self.records[index.row()] for index in kept]
        ranked = sorted(
            ((_rank(value(r), descending), n) for n, r in enumerate(self.records)),
            key=lambda pair: pair[0],
        )
        self.records = [self.records[n] for _rank_, n in ranked]
        self._ranks = [rank for rank, _n in ranked]
        self._order = (column, order)
        row_of = {id(record): row for row, record in enumerate(self.records)}
        self.changePersistentIndexList(
            kept,
            [
                self.index(row_of[id(record)], index.column())
                for record, index in zip(kept_records, kept, strict=True)
            ],
        )
        self.layoutChanged.emit()


class _AuditJob(BackgroundJob):
    """Runs one audit at a time and hands each record to the UI thread."""

    listed = Signal(int, int, bool)  # audit number, files to audit, more left out
    record = Signal(int, object)
    failed = Signal(int, str)  # the audit itself broke
    done = Signal(int)

    def start(self, number: int, folder: str, include: list[str], run: Mapping[str, Any]) -> None:
        self.launch(self._run, number, folder, include, dict(run))

    def _run(
        self,
        number: int,
        folder: str,
        include: list[str],
        run: dict[str, Any],
        cancel: threading.Event,
    ) -> None:
        from chunkview.core.batch.audit_run import audit_records
        from chunkview.core.runtime import ChunkPool

        pool = None
        try:
            files = list(
                islice(
                    # a FIFO, socket, device or bad link gets an error row, as on the CLI
                    iter_files([folder], include, stopped=cancel.is_set, special_files=True),
                    MAX_FILES + 1,
                )
            )
            more = len(files) > MAX_FILES
            del files[MAX_FILES:]
            self.deliver(self.listed, number, len(files), more)
            timeout, memory = run.pop("timeout"), run.pop("max_memory")
            pool = ChunkPool(run.pop("jobs"), timeout=timeout, max_memory=memory)
            if not self.hold_pool(pool, cancel):  # stopped before it began
                return
            records = audit_records(files, **run, pool=pool)
            try:
                for record in records:
                    if cancel.is_set():
                        break
                    self.deliver(self.record, number, {**record, "name": _name(record, folder)})
            finally:
                records.close()
        except Exception as error:  # a broken pool must not take the app down
            if not cancel.is_set():
                self.deliver(self.failed, number, f"{type(error).__name__}: {error}")
        finally:
            if pool is not None:
                self.release_pool(pool)
                pool.close()
            self.deliver(self.done, number)


def _name(record: Mapping[str, Any], folder: str) -> str:
    """The file's path under the audited folder, as text (a name that is not UTF-8 shows
    its odd bytes as U+FFFD)."""
    name = os.path.relpath(record["path"], folder)
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


class AuditPanel(QWidget):
    """Pick a folder, audit it with the inspector's setting, read the table."""

    started = Signal(str, str)  # the folder and the file globs of an audit begun

    def __init__(
        self,
        model: InspectorModel,
        open_file: Callable[[str], Any] | None = None,
        token_limit: Callable[[], int | None] = lambda: None,
    ) -> None:
        super().__init__()
        self.model = model
        self.open_file = open_file or (lambda _path: None)
        self.token_limit = token_limit
        #: seconds and bytes a file may take (None: the service's defaults): the window's
        #: budget for a chunking job (Edit > Preferences)
        self.time_budget: Callable[[], float | None] = lambda: None
        self.memory_budget: Callable[[], int | None] = lambda: None
        self.jobs = max(1, min(4, os.cpu_count() or 1))
        self.number = 0
        self.running = False
        self.summary = Summary()
        self.setting = ""  # the chunker and options of the audit running or shown
        self.folder_edit = QLineEdit()
        self.folder_edit.setPlaceholderText("a folder of documents")
        self.folder_edit.returnPressed.connect(self.start)
        choose = QPushButton("Choose…")
        choose.clicked.connect(self.choose_folder)
        self.include_edit = QLineEdit()
        self.include_edit.setPlaceholderText("*.md, *.txt (empty: every file)")
        self.include_edit.returnPressed.connect(self.start)
        self.run_button = QPushButton("Audit")
        self.run_button.setToolTip("Chunk every file with the chunker and options set now")
        self.run_button.clicked.connect(self.start)
        self.stop_button = QPushButton("Stop")
        self.stop_button.clicked.connect(self.stop)
        self.stop_button.setEnabled(False)
        self.save_button = QPushButton("Save…")
        self.save_button.setToolTip("Write the rows as JSON Lines or CSV, as chunkview audit does")
        self.save_button.clicked.connect(self.save_dialog)
        self.save_button.setEnabled(False)
        self.progress = QProgressBar()
        self.progress.setFormat("")  # no count before an audit has listed its files
        self.progress.setRange(0, 1)
        self.progress.setValue(0)
        self.message = QLabel("Choose a folder: every file in it is chunked with this setting.")
        self.message.setWordWrap(True)
        self.message.setTextFormat(Qt.TextFormat.PlainText)  # paths and errors, as written
        self.results = AuditModel()
        self.table = QTableView()
        self.table.setModel(self.results)
        self.table.setSortingEnabled(True)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.verticalHeader().hide()
        self.table.verticalHeader().setDefaultSectionSize(self.fontMetrics().height() + 6)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Interactive)
        header.resizeSection(0, 260)
        for column in range(1, len(COLUMNS) - 1):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.table.activated.connect(self._open_row)  # a double-click, or Enter
        where = QHBoxLayout()
        where.addWidget(QLabel("folder"))
        where.addWidget(self.folder_edit, 2)
        where.addWidget(choose)
        where.addWidget(QLabel("files"))
        where.addWidget(self.include_edit, 1)
        # the folder's documents evaluated with a questions file, in a tab beside the rows
        self.evaluation = CorpusEvalPanel(model, self.folder_edit.text)
        self.evaluation.time_budget = lambda: self.time_budget()
        self.evaluation.memory_budget = lambda: self.memory_budget()
        # each tab has its own buttons, progress bar and message (two of each in one view
        # read as one run's); the folder above is both tabs'
        files = QWidget()
        buttons = (self.run_button, self.stop_button)
        lay_out_job_panel(
            files, QHBoxLayout(), buttons, self.progress, self.message, self.table,
            (self.save_button,),
        )  # fmt: skip
        files_layout = files.layout()
        assert files_layout is not None
        files_layout.setContentsMargins(0, 4, 0, 0)
        self.tabs = QTabWidget()
        self.tabs.setDocumentMode(True)
        self.tabs.addTab(files, "Files")
        self.tabs.addTab(self.evaluation, "Evaluate with questions")
        self.evaluation.started.connect(lambda: self.tabs.setCurrentWidget(self.evaluation))
        layout = QVBoxLayout(self)
        layout.addLayout(where)
        layout.addWidget(self.tabs, 1)
        self._job = _AuditJob()
        self._job.listed.connect(self._listed)
        self._job.record.connect(self._add_record)
        self._job.failed.connect(self._failed)
        self._job.done.connect(self._finished)
        self.failure = ""  # what broke the audit shown, if anything did

    def choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, "Audit a folder", self.folder_edit.text())
        if folder:
            self.folder_edit.setText(folder)

    def start(self) -> bool:
        """Audit the folder with the inspector's chunker and options; False with a message
        when there is nothing to audit."""
        if self.running:  # Enter in a field while Audit is disabled
            return False
        folder = os.path.abspath(os.path.expanduser(self.folder_edit.text().strip()))
        if not self.folder_edit.text().strip() or not os.path.isdir(folder):
            typed = self.folder_edit.text().strip()
            self.message.setText(f"{typed!r} is not a folder." if typed else "Choose a folder.")
            return False
        if not self.model.entry_id:
            return False
        self.stop()
        self.number += 1
        include = [g.strip() for g in self.include_edit.text().split(",") if g.strip()]
        entry = self.model.entry
        run = {
            "entry_id": self.model.entry_id,
            "options": {k: v for k, v in self.model.options.items() if v is not None},
            "token_limit": self.token_limit(),
            "tokenizer": self.model.tokenizer if entry.uses_tokenizer else None,
            "jobs": self.jobs,
            "timeout": self.time_budget() or DEFAULT_TIMEOUT,
            "max_memory": self._memory_each(),
        }
        self.failure = ""
        self.results.clear()
        self.table.horizontalHeader().setSortIndicator(-1, Qt.SortOrder.AscendingOrder)
        self.summary = Summary()
        self.progress.setRange(0, 0)  # busy until the files are listed
        self.message.setText(f"Listing the files under {folder}…")
        self.running = True
        self.run_button.setEnabled(False)
        self.stop_button.setEnabled(True)
        self.save_button.setEnabled(False)
        self.setting = f"{entry.title or self.model.entry_id} {run['options']}"
        self._job.start(self.number, folder, include, run)
        self.started.emit(folder, self.include_edit.text().strip())
        return True

    def _memory_each(self) -> int | None:
        """The inspector's memory budget, shared by the audit's processes (None: the
        pool's default, which shares half the RAM the same way)."""
        budget = self.memory_budget()
        return None if budget is None else max(budget // self.jobs, 64 * 2**20)

    def stop(self) -> None:
        self._job.cancel.set()
        self._job.kill_pools()

    def _listed(self, number: int, files: int, more: bool) -> None:
        if number != self.number:
            return
        self.progress.setRange(0, max(files, 1))
        self.progress.setFormat("%v / %m files" if files else "no files")
        self.progress.setValue(0)
        capped = f" (the first {MAX_FILES}; more are left out)" if more else ""
        self.message.setText(f"Chunking {files} files{capped} with {self.setting}…")

    def _add_record(self, number: int, record: dict[str, Any]) -> None:
        if number != self.number:
            return
        self.results.add(record)
        self.summary.add(record)
        self.progress.setValue(len(self.results.records))

    def _failed(self, number: int, message: str) -> None:
        if number == self.number:
            self.failure = message

    def _finished(self, number: int) -> None:
        if number != self.number:
            return
        self.running = False
        self.run_button.setEnabled(True)
        self.stop_button.setEnabled(False)
        self.progress.setRange(0, max(self.progress.maximum(), 1))
        self.save_button.setEnabled(bool(self.results.records))
        self.message.setText(self.describe())

    def save_dialog(self) -> None:
        path, _filter = QFileDialog.getSaveFileName(
            self, "Save the audit", "audit.jsonl", "JSON Lines (*.jsonl);;CSV (*.csv)"
        )
        if path:
            self.save(path)

    def save(self, path: str) -> bool:
        """Write the rows to ``path`` as ``chunkview audit`` writes them: CSV for a .csv
        file, else JSON Lines with the summary last. False with a message on failure."""
        from chunkview.core.batch.audit_output import Output

        form = "csv" if path.lower().endswith(".csv") else "jsonl"
        try:
            # a file name that is not UTF-8 is written with its odd bytes escaped (\udce9)
            with open(path, "w", encoding="utf-8", errors="backslashreplace", newline="") as out:
                output = Output(form, out)
                for record in self.results.records:
                    output.record({k: v for k, v in record.items() if k != "name"})
                if form == "jsonl":
                    output.summary(self.summary)
        except (OSError, UnicodeError) as error:
            reason = error.strerror if isinstance(error, OSError) else None
            self.message.setText(f"Could not save {path}: {reason or error}")
            return False
        self.message.setText(f"Saved {len(self.results.records)} rows to {path}.")
        return True

    def describe(self) -> str:
        """The audit's totals in a line or two."""
        total = self.summary
        stopped = " Stopped before the end." if self._job.cancel.is_set() else ""
        if self.failure:
            stopped = f" The audit stopped: {self.failure.rstrip('.')}."
        if not total.files:
            return f"No files to audit.{stopped}"
        statuses = ", ".join(f"{total.statuses[s]} {s}" for s in STATUSES if total.statuses[s])
        files = f"{total.files} file{'s' * (total.files != 1)}"
        text = f"{files}: {statuses}; {total.chunks} chunk{'s' * (total.chunks != 1)}."
        if total.warnings:
            kinds = sorted(total.files_with.items(), key=lambda kv: (-kv[1], kv[0]))
            shown = [f"{kind} in {n} file{'s' * (n != 1)}" for kind, n in kinds[:5]]
            text += " Warnings: " + ", ".join(shown) + "."
        return text + stopped + " Double-click a file to open it."

    def _open_row(self, index: QModelIndex) -> None:
        record = self.results.records[index.row()]
        if os.path.isfile(record["path"]):
            self.open_file(record["path"])

    def shutdown(self) -> None:
        """Stop the audit and the evaluation (the window closing): their processes end at
        once."""
        self.stop()
        self.evaluation.shutdown()
