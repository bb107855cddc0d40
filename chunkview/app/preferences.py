"""Edit › Preferences: the chunking watchdog's budgets, time and memory per job.

They are kept in QSettings under ``chunking/timeout`` (seconds) and ``chunking/maxMemory``
(``1536M``), the keys ``worker.chunking_budgets`` reads at launch; OK hands them to the
worker, so the next job runs under them at once. A budget left at its default is not
stored, so the default keeps following the machine (half its RAM).
"""

from __future__ import annotations

import math

from PySide6.QtCore import QSettings, Qt, Signal
from PySide6.QtWidgets import (
    QDialog,
    QDialogButtonBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QVBoxLayout,
    QWidget,
)

from chunkview.app.worker import ChunkWorker, chunking_budgets
from chunkview.core.runtime import (
    DEFAULT_TIMEOUT,
    TIMEOUT_RANGE,
    BudgetError,
    check_max_memory,
    check_timeout,
    default_max_memory,
    machine_memory,
    max_memory_range,
)

GB = 2**30


def memory_range_gb() -> tuple[float, float]:
    """The core's memory budget range (64 MB .. the RAM) in hundredths of a GB, as the
    spin box shows it: rounded inwards, so every value it takes is in range."""
    low, high = max_memory_range()
    return math.ceil(low / GB * 100) / 100, math.floor(high / GB * 100) / 100


def _budget_row(spin: QDoubleSpinBox, default: str) -> QWidget:
    row = QWidget()
    line = QHBoxLayout(row)
    line.setContentsMargins(0, 0, 0, 0)
    line.addWidget(spin)
    hint = QLabel(f"default {default}")
    hint.setEnabled(False)  # drawn as a hint
    line.addWidget(hint, 1)
    return row


class PreferencesDialog(QDialog):
    #: the budgets were changed and handed to the worker: (seconds, bytes)
    applied = Signal(float, object)

    def __init__(self, parent: QWidget | None, settings: QSettings, worker: ChunkWorker):
        super().__init__(parent)
        self.setWindowTitle("Preferences")
        self.settings = settings
        self.worker = worker

        # the spin boxes refuse input outside the core's ranges (limits.py); OK checks
        # again through the same functions as every other way a budget arrives
        self.timeout = QDoubleSpinBox()
        self.timeout.setRange(*TIMEOUT_RANGE)
        self.timeout.setDecimals(1)
        self.timeout.setSingleStep(1.0)
        self.timeout.setSuffix(" s")
        self.timeout.setToolTip(
            "A chunking job still running after this long is stopped, with a message; "
            "the chunks of the last good run stay shown"
        )
        self.memory = QDoubleSpinBox()
        total_gb = machine_memory() / GB
        self.memory.setRange(*memory_range_gb())
        self.memory.setDecimals(2)
        self.memory.setSingleStep(0.25)
        self.memory.setSuffix(" GB")
        self.memory.setToolTip(
            f"A chunking process past this much memory is stopped (this machine has "
            f"{total_gb:.1f} GB)"
        )
        form = QFormLayout()
        form.addRow("Time per chunking job", _budget_row(self.timeout, f"{DEFAULT_TIMEOUT:g} s"))
        form.addRow(
            "Memory per chunking job",
            _budget_row(self.memory, f"{default_max_memory() / GB:.2f} GB (half the RAM)"),
        )
        note = QLabel(
            "Each change of text or option is chunked in a separate process; the watchdog "
            "stops a job past either budget. Applied to the next job."
        )
        note.setWordWrap(True)
        buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok
            | QDialogButtonBox.StandardButton.Cancel
            | QDialogButtonBox.StandardButton.RestoreDefaults
        )
        self.reset_button = buttons.button(QDialogButtonBox.StandardButton.RestoreDefaults)
        self.reset_button.setText("Reset")
        self.reset_button.setToolTip("Both budgets back to their defaults")
        self.reset_button.clicked.connect(self.reset)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.buttons = buttons
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(note)
        #: why OK was refused (a budget out of range), when it was
        self.refusal = QLabel()
        self.refusal.setTextFormat(Qt.TextFormat.PlainText)
        self.refusal.setWordWrap(True)
        self.refusal.hide()
        layout.addWidget(self.refusal)
        layout.addWidget(buttons)
        self.load()

    def load(self) -> None:
        """Show the budgets in force (the settings', else the defaults)."""
        budgets = chunking_budgets(self.settings)
        self.timeout.setValue(budgets["timeout"] or DEFAULT_TIMEOUT)
        self.memory.setValue((budgets["max_memory"] or default_max_memory()) / GB)

    def reset(self) -> None:
        self.timeout.setValue(DEFAULT_TIMEOUT)
        self.memory.setValue(default_max_memory() / GB)

    def budgets(self) -> tuple[float, int]:
        """(seconds, bytes) as the spin boxes show them."""
        return self.timeout.value(), int(self.memory.value() * GB)

    def accept(self) -> None:
        """Store the budgets (a default one is forgotten) and give them to the worker;
        a budget out of range is refused, with the reason, and the dialog stays."""
        try:
            seconds, memory = (
                check_timeout(self.timeout.value()),
                check_max_memory(int(self.memory.value() * GB)),
            )
        except BudgetError as error:
            self.refusal.setText(f"Not applied: {error}")
            self.refusal.show()
            return
        if abs(seconds - DEFAULT_TIMEOUT) < 0.05:
            self.settings.remove("chunking/timeout")
        else:
            self.settings.setValue("chunking/timeout", seconds)
        # compared as shown: the spin box holds hundredths of a GB
        if round(memory / GB, 2) == round(default_max_memory() / GB, 2):
            self.settings.remove("chunking/maxMemory")
            memory = default_max_memory()
        else:
            self.settings.setValue("chunking/maxMemory", f"{memory // 2**20}M")
        self.settings.sync()
        self.worker.set_budgets(timeout=seconds, max_memory=memory)
        self.applied.emit(seconds, memory)
        super().accept()
