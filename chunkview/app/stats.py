"""Size statistics, and a histogram of chunk sizes (``histogram.py``, pyqtgraph) built
when the tab is first seen: pyqtgraph costs a third of a second of start-up."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from PySide6.QtCore import Qt
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from chunkview.core.model.kinds import UNIT_NAMES
from chunkview.core.text.tokenizer_files import is_tokenizer_file, tokenizer_label

if TYPE_CHECKING:
    from chunkview.app.histogram import Histogram

#: above this many chunks the bars are not split by kind (reading every kind costs)
KINDS_UP_TO = 20_000


class StatsPanel(QWidget):
    def __init__(self) -> None:
        super().__init__()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        self._column = layout
        self.summary = QLabel("–")
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.summary.setWordWrap(True)
        layout.addWidget(self.summary)
        self._histogram: Histogram | None = None
        self._data: tuple[Any, ...] | None = None  # for the histogram, until it is built
        self._summary = "–"

    @property
    def histogram(self) -> Histogram:
        """The histogram, built on first use (the tab seen, or asked for)."""
        return self._build_histogram() if self._histogram is None else self._histogram

    def _build_histogram(self) -> Histogram:
        from chunkview.app.histogram import Histogram

        self._histogram = Histogram()
        self._column.addWidget(self._histogram, 1)
        if self._data is not None:
            self._histogram.set_data(*self._data)
        self._histogram.show()  # at once when the tab is on view (and drawn): not queued
        return self._histogram

    def showEvent(self, event: QShowEvent) -> None:
        self.summary.setText(self._summary)
        if self._histogram is None:
            self._build_histogram()
        super().showEvent(event)

    def show_result(
        self,
        result,
        limits: dict[str, float],
        unit: str,
        tokens: list[int] | None = None,
        counted_by: str = "cl100k",
    ) -> None:
        """``tokens``: the chunks' token counts by ``counted_by`` (cl100k, or a user's
        tokenizer file): a row of the figures; and, for an entry sized in tokens counted
        by a tokenizer file, the histogram's sizes (the user's tokens are the ones that
        matter to them)."""
        layout = result.layout
        sizes = layout.sizes
        counter_name = tokenizer_label(counted_by)
        if unit == "tokens" and tokens and is_tokenizer_file(counted_by):
            sizes = [n for n, s in zip(tokens, layout.spans) if s.located != "missing"]
            unit = f"tokens ({counter_name})"
        rows = [
            ("chunks", f"{len(layout.spans)}"),
            ("chars", f"{layout.chars.minimum} / {layout.chars.median:g} / {layout.chars.maximum}"),
            (
                "UTF-8 bytes",
                f"{layout.bytes.minimum} / {layout.bytes.median:g} / {layout.bytes.maximum}",
            ),
        ]
        if tokens:
            ordered = sorted(tokens)
            median = (
                ordered[len(ordered) // 2]
                if len(ordered) % 2
                else (ordered[len(ordered) // 2 - 1] + ordered[len(ordered) // 2]) / 2
            )
            rows.append((f"{counter_name} tokens", f"{ordered[0]} / {median:g} / {ordered[-1]}"))
        overlap = layout.overlap_chars
        rows.append(("repeated by overlaps", f"{overlap} chars"))
        rows.append(("run time", f"{result.seconds * 1000:.0f} ms"))
        table = "".join(
            f"<tr><td>{k}</td><td align=right>&nbsp;&nbsp;{v}</td></tr>" for k, v in rows
        )
        self._summary = (
            f"<table>{table}</table><small>min / median / max; histogram in "
            f"{UNIT_NAMES.get(unit, unit)}</small>"
        )
        # set when seen: a new rich text on a hidden tab still makes every layout above
        # it measure the label again (a text layout per new result)
        if self.isVisible():
            self.summary.setText(self._summary)
        # the kinds are read when the histogram is drawn: on a hidden tab, never
        kinds = layout.located_kinds if len(layout.spans) <= KINDS_UP_TO else None
        self._data = (sizes, limits, unit, kinds)
        if self._histogram is not None:
            self._histogram.set_data(*self._data)
