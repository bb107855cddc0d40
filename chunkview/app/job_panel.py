"""The layout of a panel that runs a background job (sweep, audit): what to run, the
buttons and progress, a line of message, the results."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)


def lay_out_job_panel(
    panel: QWidget,
    fields: QHBoxLayout,
    buttons: tuple[QPushButton, QPushButton],
    progress: QProgressBar,
    message: QLabel,
    results: QWidget,
    after: tuple[QWidget, ...] = (),
) -> None:
    """The layout of a panel that runs a job: what to run on top, then its run and stop
    buttons beside the progress bar (and ``after`` it), a line of message, and the
    results taking the rest."""
    row = QHBoxLayout()
    for button in buttons:
        row.addWidget(button)
    row.addWidget(progress, 1)
    for widget in after:
        row.addWidget(widget)
    layout = QVBoxLayout(panel)
    layout.addLayout(fields)
    layout.addLayout(row)
    layout.addWidget(message)
    layout.addWidget(results, 1)
