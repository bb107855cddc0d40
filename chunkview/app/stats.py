"""Size statistics and a small histogram with targetSize / maxSize / minSize marked."""

from __future__ import annotations

from PySide6.QtCore import QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPalette, QPen
from PySide6.QtWidgets import QLabel, QSizePolicy, QVBoxLayout, QWidget

from chunkview.app import theme

BINS = 24
LIMIT_COLOURS = {"target": "#009E73", "max": "#D55E00", "min": "#0072B2"}


class Histogram(QWidget):
    def __init__(self) -> None:
        super().__init__()
        self.sizes: list[int] = []
        self.limits: dict[str, float] = {}
        self.unit = "chars"
        self.setMinimumHeight(110)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)

    def sizeHint(self) -> QSize:
        return QSize(260, 140)

    def set_data(self, sizes: list[int], limits: dict[str, float], unit: str) -> None:
        self.sizes, self.limits, self.unit = sizes, limits, unit
        self.update()

    def paintEvent(self, event) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        palette = self.palette()
        rect = QRectF(self.rect()).adjusted(8, 8, -8, -22)
        painter.fillRect(self.rect(), palette.color(QPalette.ColorRole.Base))
        text_colour = palette.color(QPalette.ColorRole.Text)
        if not self.sizes:
            painter.setPen(text_colour)
            painter.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, "no chunks")
            return
        top = max(max(self.sizes), *(v for v in self.limits.values() if v > 0), 1)
        counts = [0] * BINS
        for size in self.sizes:
            counts[min(int(size / top * BINS), BINS - 1)] += 1
        tallest = max(counts)
        width = rect.width() / BINS
        bar = QColor(theme.CHUNK_HUES[0])
        for i, count in enumerate(counts):
            height = rect.height() * count / tallest
            painter.fillRect(
                QRectF(rect.left() + i * width + 1, rect.bottom() - height, width - 2, height), bar
            )
        for role, value in sorted(self.limits.items()):
            if role not in LIMIT_COLOURS or value <= 0:
                continue
            x = rect.left() + rect.width() * min(value / top, 1)
            painter.setPen(QPen(QColor(LIMIT_COLOURS[role]), 2, Qt.PenStyle.DashLine))
            painter.drawLine(x, rect.top(), x, rect.bottom())
        painter.setPen(text_colour)
        painter.drawText(
            QRectF(rect.left(), rect.bottom() + 3, rect.width(), 16),
            Qt.AlignmentFlag.AlignLeft,
            "0",
        )
        painter.drawText(
            QRectF(rect.left(), rect.bottom() + 3, rect.width(), 16),
            Qt.AlignmentFlag.AlignRight,
            f"{top:g} {self.unit}",
        )
        legend = "   ".join(
            f"{'maxSize' if r == 'max' else 'minSize' if r == 'min' else 'target'}"
            for r in sorted(self.limits)
            if r in LIMIT_COLOURS
        )
        if legend:
            x = rect.left() + 40
            for role in sorted(self.limits):
                if role not in LIMIT_COLOURS:
                    continue
                painter.setPen(QColor(LIMIT_COLOURS[role]))
                label = {"max": "max", "min": "min", "target": "target"}[role]
                painter.drawText(
                    QRectF(x, rect.bottom() + 3, 80, 16), Qt.AlignmentFlag.AlignLeft, f"┆ {label}"
                )
                x += 62


class StatsPanel(QWidget):
    def __init__(self) -> None:
        super().__init__()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 6, 6, 6)
        self.summary = QLabel("–")
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.summary.setWordWrap(True)
        self.histogram = Histogram()
        layout.addWidget(self.summary)
        layout.addWidget(self.histogram, 1)

    def show_result(
        self, result, limits: dict[str, float], unit: str, tokens: list[int] | None = None
    ) -> None:
        layout = result.layout
        sizes = layout.sizes
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
            rows.append(("cl100k tokens", f"{ordered[0]} / {median:g} / {ordered[-1]}"))
        overlap = layout.overlap_chars
        rows.append(("repeated by overlaps", f"{overlap} chars"))
        rows.append(("run time", f"{result.seconds * 1000:.0f} ms"))
        table = "".join(
            f"<tr><td>{k}</td><td align=right>&nbsp;&nbsp;{v}</td></tr>" for k, v in rows
        )
        self.summary.setText(
            f"<table>{table}</table><small>min / median / max; histogram in {unit}</small>"
        )
        self.histogram.set_data(sizes, limits, unit)
