"""The lanes view: each chunk a bar on the document's axis, overlapping chunks in lanes of
their own (core/views/lanes.py), coloured by kind or by the rule of their reason.

Drawn by pixel, as the overview strip is: each lane's bars are found per pixel column by
binary search and written into a QImage, so 100,000 chunks cost the width of the view.
The wheel zooms around the mouse, a drag (or a sideways swipe) pans, a double click fits
the whole document. From the keyboard: Left and Right select the previous and next chunk,
+ and - zoom around the middle, Home and End go to the document's ends, F fits it.
Linked to the editor both ways: a click on a bar selects its chunk (the editor scrolls to
it), hovering a bar outlines its chunk in the editor; the stretch the editor shows is
shaded, the editor's cursor marked, the selected chunk outlined, and the view pans to
follow the editor.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from PySide6.QtCore import QPointF, QRect, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import (
    QColor,
    QImage,
    QKeyEvent,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
    QPolygonF,
    QWheelEvent,
)
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QToolButton,
    QToolTip,
    QVBoxLayout,
    QWidget,
)

from chunkview.app import outline, theme
from chunkview.app.editor import ChunkEditor
from chunkview.app.markup import escape
from chunkview.core.model.spans import Layout
from chunkview.core.runtime.pipeline import ChunkResult
from chunkview.core.session import InspectorModel, ModelEvent
from chunkview.core.views.lanes import (
    LaneAssignment,
    Lanes,
    bar_at,
    bar_labels,
    lanes_from,
    layout_columns,
    pixel_bars,
)

#: a lane's height at most and at least (pixels); the gap between lanes
LANE_MOST, LANE_LEAST = 30, 1
#: the wheel zooms by this much per notch
WHEEL_ZOOM = 1.25
#: zoomed in at most this many pixels per code point
PIXELS_PER_POINT = 6
#: chunks whose lanes are assigned in one event-loop turn (deep overlaps: about 5 ms)
LANES_SLICE = 10_000
#: a press that moves less than this is a click, not a drag
DRAG_SLACK = 3
#: a bar this near the mouse (pixels) is under it
HOVER_SLACK = 2
#: the axis' tick labels stand at least this far apart (pixels)
TICK_ROOM = 90


def tick_step(span: float, room: int) -> int:
    """A round step (1, 2 or 5 times a power of ten) near ``span / room`` points."""
    raw = max(span / max(room, 1), 1.0)
    power = 10 ** int(np.floor(np.log10(raw)))
    for factor in (1, 2, 5, 10):
        if factor * power >= raw:
            return int(factor * power)
    return int(10 * power)


@dataclass(frozen=True)
class LaneFrame:
    """What an image of the lanes shows: ``first..last`` (code points) across ``width``
    pixel columns, ``shown`` lanes of ``lane_height`` pixels."""

    first: float
    last: float
    width: int
    lane_height: int
    shown: int


def bar_colours(
    labels: list[str], known: dict[str, tuple[int, int]]
) -> tuple[np.ndarray, np.ndarray]:
    """Each label's colour and its darker edge, as ARGB words (``known`` keeps them)."""
    for label in labels:
        if label not in known:
            colour = theme.kind_colour(label)
            known[label] = (colour.rgba(), colour.darker(160).rgba())
    fill = np.array([known[label][0] for label in labels], np.uint32)
    edge = np.array([known[label][1] for label in labels], np.uint32)
    return fill, edge


def bar_pixels(
    layout: Layout | None, lanes: Lanes | None, frame: LaneFrame, by_reason: bool, stripe: int
) -> np.ndarray:
    """The ARGB pixels of the lanes: each lane's bars in their kind's (or reason's)
    colour, a bar's first column darker where it is wider than two, every other lane
    faintly ``stripe``d, see-through elsewhere (the editor's stretch shades the page under
    the bars, which keep their colours). The cost follows the width, not the chunks."""
    width, lane_height, shown = frame.width, frame.lane_height, frame.shown
    pixels = np.zeros((max(shown * lane_height, 1), width), dtype=np.uint32)
    for lane in range(1, shown, 2):  # rows to read across
        pixels[lane * lane_height : (lane + 1) * lane_height, :] = stripe
    if lanes is None or layout is None:
        return pixels
    gap = 3 if lane_height >= 12 else (1 if lane_height >= 4 else 0)
    known: dict[str, tuple[int, int]] = {}
    for lane in range(shown):
        columns = pixel_bars(lanes, lane, frame.first, frame.last, width)
        drawn = columns >= 0
        if not drawn.any():
            continue
        chunks, inverse = np.unique(columns[drawn], return_inverse=True)
        fill, edge = bar_colours(bar_labels(layout, chunks.tolist(), by_reason), known)
        top = lane * lane_height
        row = pixels[top].copy()
        row[drawn] = fill[inverse]
        # a bar's first column, darker, where the bar is wider than two columns:
        # neighbours in a lane stay apart, thin bars keep their colour
        starts = np.zeros(width, dtype=bool)
        starts[0] = drawn[0]
        starts[1:] = drawn[1:] & (columns[1:] != columns[:-1])
        wide = np.zeros(width, dtype=bool)
        wide[:-2] = (columns[:-2] == columns[1:-1]) & (columns[1:-1] == columns[2:])
        marked = starts & wide
        edges = np.zeros(width, dtype=np.uint32)
        edges[drawn] = edge[inverse]
        row[marked] = edges[marked]
        pixels[top + gap // 2 : top + lane_height - (gap - gap // 2), :] = row
    return pixels


class LanesCanvas(QWidget):
    """The bars, by pixel; ``first..last`` (code points) is the stretch of the axis shown."""

    #: a bar clicked: its chunk's index
    chunk_clicked = Signal(int)
    #: the lanes, the stretch shown or the colouring changed (for the panel's summary)
    changed = Signal()

    def __init__(self, model: InspectorModel, editor: ChunkEditor) -> None:
        super().__init__()
        self.model, self.editor = model, editor
        self.setMouseTracking(True)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # a click or Tab: the keys below
        self.setMinimumHeight(60)
        self.lanes: Lanes | None = None
        self.first, self.last = 0.0, 0.0
        self.by_reason = False
        self.hovered: int | None = None
        #: the image of the bars, and what it was drawn for
        self.image: QImage | None = None
        self._pixels: np.ndarray | None = None
        self._image_key: tuple | None = None
        self._press: QPointF | None = None
        self._press_first = 0.0
        self._dragged = False
        # a layout is turned into lanes once it is shown, a moment after (as the strip)
        self._timer = QTimer(self, singleShot=True, interval=40)
        self._timer.timeout.connect(self.refresh)
        # a layout's lanes being assigned, a slice a turn: (its result, starts, ends, the
        # assignment); the lanes shown meanwhile are the last layout's
        self._pending: tuple[ChunkResult, np.ndarray, np.ndarray, LaneAssignment] | None = None
        self._slice_timer = QTimer(self, singleShot=True, interval=0)
        self._slice_timer.timeout.connect(self._assign_slice)
        model.subscribe(ModelEvent.RESULT, lambda *_args: self._later())
        # the reasons follow the layout (into it): the colours by reason, not the lanes
        model.subscribe(ModelEvent.DETAILS, lambda *_args: self._recolour())
        model.subscribe(ModelEvent.DOCUMENT, lambda *_args: self._new_document())
        model.subscribe(ModelEvent.SELECTION, self._selection_changed)
        editor.verticalScrollBar().valueChanged.connect(lambda _value: self.follow_editor())
        editor.cursorPositionChanged.connect(self.update)  # the cursor's mark moves

    def sizeHint(self) -> QSize:
        return QSize(800, 110)

    # ----- the data -------------------------------------------------------------------
    def _later(self) -> None:
        if self.isVisible():
            self._timer.start()
        else:
            self.lanes = None  # made when next shown

    def _new_document(self) -> None:
        self.lanes, self.image = None, None
        self.first, self.last = 0.0, 0.0
        self._later()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self.lanes is None:
            self._timer.start()

    def length(self) -> int:
        result = self.model.result
        return len(result.layout.document.text) if result is not None else 0

    def refresh(self) -> None:
        """Assign the lanes of the layout shown, a slice per event-loop turn."""
        result = self.model.result
        self._slice_timer.stop()
        if result is None:
            self._pending = None
            self._show_lanes(None)
            return
        starts, ends, placed = layout_columns(result.layout)
        self._pending = (result, starts, ends, LaneAssignment(starts, ends, placed))
        self._assign_slice()

    @property
    def assigning(self) -> bool:
        """True while a layout's lanes are still being assigned."""
        return self._pending is not None

    def _assign_slice(self) -> None:
        if self._pending is None:
            return
        result, starts, ends, assignment = self._pending
        if result is not self.model.result:  # replaced meanwhile: its own refresh follows
            self._pending = None
            return
        if not assignment.advance(LANES_SLICE):
            self._slice_timer.start()
            return
        self._pending = None
        self._show_lanes(lanes_from(starts, ends, assignment.lanes, self.length()))

    def _show_lanes(self, lanes: Lanes | None) -> None:
        """Show ``lanes`` (kept zoom and place while the text is the same)."""
        self.lanes = lanes
        length = self.length()
        if self.last <= self.first or self.last > length:
            self.first, self.last = 0.0, float(length)
        self.image = None
        self.changed.emit()
        self.update()

    def set_by_reason(self, by_reason: bool) -> None:
        if by_reason != self.by_reason:
            self.by_reason = by_reason
            self._recolour()
            self.changed.emit()

    def _recolour(self) -> None:
        self.image = None
        self.update()

    # ----- geometry -------------------------------------------------------------------
    def axis_height(self) -> int:
        return self.fontMetrics().height() + 6

    def lane_height(self) -> int:
        count = self.lanes.count if self.lanes is not None else 1
        room = self.height() - self.axis_height() - 4
        return max(LANE_LEAST, min(LANE_MOST, room // max(count, 1)))

    def lane_at(self, y: float) -> int:
        return int((y - 2) // self.lane_height())

    def lanes_shown(self) -> int:
        """How many lanes fit (the rest are cut off, said in the summary)."""
        if self.lanes is None:
            return 0
        room = self.height() - self.axis_height() - 4
        return min(self.lanes.count, max(room // self.lane_height(), 0))

    def point_at(self, x: float) -> float:
        return self.first + x * (self.last - self.first) / max(self.width(), 1)

    def x_of(self, point: float) -> float:
        return (point - self.first) * self.width() / max(self.last - self.first, 1e-9)

    def set_window(self, first: float, last: float) -> None:
        """Show ``first..last`` (code points), kept inside the document and above the
        closest zoom."""
        length = self.length()
        span = min(max(last - first, self.width() / PIXELS_PER_POINT, 1.0), float(length))
        first = min(max(first, 0.0), max(length - span, 0.0))
        if (first, first + span) != (self.first, self.last):
            self.first, self.last = first, first + span
            self.changed.emit()
            self.update()

    def fit(self) -> None:
        self.set_window(0.0, float(self.length()))

    def zoom(self, factor: float, x: float) -> None:
        """Zoom by ``factor`` (below 1: in) around pixel column ``x``."""
        point = self.point_at(x)
        span = (self.last - self.first) * factor
        share = x / max(self.width(), 1)
        self.set_window(point - share * span, point - share * span + span)

    def show_point_range(self, first: int, last: int) -> None:
        """Pan (keeping the zoom) so ``first..last`` is on view, centred when it was not."""
        span = self.last - self.first
        if span <= 0 or (first >= self.first and last <= self.last):
            return
        middle = (first + last) / 2
        self.set_window(middle - span / 2, middle + span / 2)

    # ----- links with the editor ------------------------------------------------------
    def follow_editor(self) -> None:
        if self.isVisible() and self.lanes is not None and self._press is None:
            self.show_point_range(*self.editor.visible_points())
        self.update()

    def _selection_changed(self, index: int | None) -> None:
        if index is not None and self.lanes is not None and 0 <= index < len(self.lanes):
            self.show_point_range(int(self.lanes.starts[index]), int(self.lanes.ends[index]))
        self.update()

    # ----- painting -------------------------------------------------------------------
    def render_bars(self) -> QImage:
        """The bars of every lane that fits, as an image as wide as the view."""
        result = self.model.result
        stripe = QColor(self.palette().color(QPalette.ColorRole.AlternateBase))
        stripe.setAlpha(140)
        frame = LaneFrame(
            self.first, self.last, max(self.width(), 1), self.lane_height(), self.lanes_shown()
        )
        pixels = bar_pixels(
            result.layout if result is not None else None,
            self.lanes,
            frame,
            self.by_reason,
            stripe.rgba(),
        )
        self._pixels = pixels  # the image reads this buffer
        height, width = pixels.shape
        return QImage(pixels.data, width, height, 4 * width, QImage.Format.Format_ARGB32)

    def _key(self) -> tuple:
        return (
            id(self.lanes),
            self.first,
            self.last,
            self.width(),
            self.height(),
            self.by_reason,
            self.palette().color(QPalette.ColorRole.Base).rgba(),
        )

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        palette = self.palette()
        painter.fillRect(self.rect(), palette.color(QPalette.ColorRole.Base))
        if self.lanes is None or self.last <= self.first:
            painter.end()
            return
        if self.image is None or self._image_key != self._key():
            self.image = self.render_bars()
            self._image_key = self._key()
        self._paint_editor_range(painter, palette, edges=False)
        painter.drawImage(0, 2, self.image)
        self._paint_editor_range(painter, palette, edges=True)
        self._paint_cursor(painter, palette)
        self._paint_axis(painter, palette)
        dark = theme.is_dark(palette)
        for index, hovered in ((self.model.selected, False), (self.hovered, True)):
            rect = self.bar_rect(index)
            if rect is not None and not (hovered and index == self.model.selected):
                painter.setPen(outline.outline_pen(dark, hovered, 2))
                painter.setBrush(Qt.BrushStyle.NoBrush)
                painter.drawRect(rect)
        if self.hasFocus():  # the keys act here
            painter.setPen(QPen(palette.color(QPalette.ColorRole.Highlight), 1))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(QRectF(self.rect()).adjusted(0.5, 0.5, -0.5, -0.5))
        painter.end()

    def focusInEvent(self, event) -> None:
        super().focusInEvent(event)
        self.update()

    def focusOutEvent(self, event) -> None:
        super().focusOutEvent(event)
        self.update()

    def bar_rect(self, index: int | None) -> QRectF | None:
        """Where chunk ``index``'s bar is drawn (None: not in a lane shown)."""
        lanes = self.lanes
        if lanes is None or index is None or not 0 <= index < len(lanes):
            return None
        lane = int(lanes.lane[index])
        if not 0 <= lane < self.lanes_shown():
            return None
        height = self.lane_height()
        # kept near the view: a bar far off it would be drawn from huge coordinates
        left = min(max(self.x_of(float(lanes.starts[index])), -4.0), self.width() + 4.0)
        right = min(max(self.x_of(float(lanes.ends[index])), left + 2), self.width() + 4.0)
        top = 2 + lane * height
        return QRectF(left, top, right - left, max(height - 1, 2))

    def _paint_editor_range(self, painter: QPainter, palette: QPalette, edges: bool) -> None:
        """The stretch the editor shows: shaded under the bars, its edges over them."""
        first, last = self.editor.visible_points()
        left = min(max(self.x_of(first), -4.0), self.width() + 4.0)
        right = min(max(self.x_of(last), left + 2), self.width() + 4.0)
        bottom = self.height() - self.axis_height()
        shade = QColor(palette.color(QPalette.ColorRole.Highlight))
        shade.setAlpha(55)
        if not edges:
            painter.fillRect(QRectF(left, 0, right - left, bottom), shade)
            return
        shade.setAlpha(200)
        painter.setPen(QPen(shade, 1))
        painter.drawLine(QPointF(left, 0), QPointF(left, bottom))
        painter.drawLine(QPointF(right, 0), QPointF(right, bottom))

    def cursor_point(self) -> int:
        """Where the editor's text cursor is (code points of the layout shown)."""
        return self.editor.to_point(self.editor.textCursor().position())

    def _paint_cursor(self, painter: QPainter, palette: QPalette) -> None:
        """The editor's cursor: a line across the lanes, a notch on the axis."""
        x = self.x_of(self.cursor_point())
        if not -2 <= x <= self.width() + 2:
            return
        bottom = self.height() - self.axis_height()
        painter.setPen(QPen(palette.color(QPalette.ColorRole.Text), 1, Qt.PenStyle.DotLine))
        painter.drawLine(QPointF(x, 0), QPointF(x, bottom))
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(palette.color(QPalette.ColorRole.Text))
        painter.drawPolygon(
            QPolygonF([QPointF(x - 4, bottom), QPointF(x + 4, bottom), QPointF(x, bottom - 5)])
        )
        painter.setBrush(Qt.BrushStyle.NoBrush)

    def _paint_axis(self, painter: QPainter, palette: QPalette) -> None:
        top = self.height() - self.axis_height()
        text = palette.color(QPalette.ColorRole.Text)
        line = QColor(text)
        line.setAlpha(110)
        painter.setPen(line)
        painter.drawLine(0, top, self.width(), top)
        step = tick_step(self.last - self.first, max(self.width() // TICK_ROOM, 1))
        metrics = self.fontMetrics()
        tick = (int(self.first) // step + 1) * step if self.first > 0 else 0
        painter.setPen(text)
        while tick <= self.last:
            x = round(self.x_of(tick))
            painter.setPen(line)
            painter.drawLine(x, top, x, top + 3)
            label = f"{tick:,}"
            width = metrics.horizontalAdvance(label)
            left = min(max(x - width // 2, 0), self.width() - width)
            painter.setPen(text)
            painter.drawText(
                QRect(left, top + 3, width, metrics.height()), Qt.AlignmentFlag.AlignCenter, label
            )
            tick += step

    # ----- the mouse ------------------------------------------------------------------
    def chunk_at(self, x: float, y: float) -> int | None:
        """The chunk whose bar is under pixel (``x``, ``y``), if any."""
        if self.lanes is None or self.last <= self.first:
            return None
        lane = self.lane_at(y)
        if not 0 <= lane < self.lanes_shown():
            return None
        slack = HOVER_SLACK * (self.last - self.first) / max(self.width(), 1)
        return bar_at(self.lanes, lane, self.point_at(x), slack)

    def tooltip_for(self, index: int) -> str:
        result = self.model.result
        lanes = self.lanes
        if result is None or lanes is None or not 0 <= index < len(result.layout.spans):
            return ""  # lanes of a layout just replaced: the new ones follow in a moment
        span = result.layout.spans[index]
        lines = [
            f"<b>chunk {index:d}</b> · {escape(span.kind)} · lane {int(lanes.lane[index]) + 1:d}",
            f"{span.start:,}–{span.end:,} · {span.end - span.start:,} chars",
        ]
        if span.start < span.own_start:
            lines.append(f"repeats {span.own_start - span.start:,} chars of the chunk before")
        if span.reason is not None:
            lines.append(f"starts here: {escape(span.reason.rule)}")
        return "<br>".join(lines)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self._press = event.position()
            self._press_first = self.first
            self._dragged = False

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        position = event.position()
        if self._press is not None and event.buttons() & Qt.MouseButton.LeftButton:
            dx = position.x() - self._press.x()
            if self._dragged or abs(dx) > DRAG_SLACK:
                self._dragged = True
                span = self.last - self.first
                first = self._press_first - dx * span / max(self.width(), 1)
                self.set_window(first, first + span)
            return
        index = self.chunk_at(position.x(), position.y())
        if index != self.hovered:
            self.hovered = index
            self.editor.set_hovered(index)
            self.update()
        if index is None:
            QToolTip.hideText()
        else:
            QToolTip.showText(event.globalPosition().toPoint(), self.tooltip_for(index), self)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if event.button() != Qt.MouseButton.LeftButton or self._press is None:
            return
        clicked = not self._dragged
        self._press, self._dragged = None, False
        if clicked:
            index = self.chunk_at(event.position().x(), event.position().y())
            if index is not None:
                self.chunk_clicked.emit(index)

    def mouseDoubleClickEvent(self, event: QMouseEvent) -> None:
        if self.chunk_at(event.position().x(), event.position().y()) is None:
            self.fit()

    def leaveEvent(self, event) -> None:
        if self.hovered is not None:
            self.hovered = None
            self.editor.set_hovered(None)
            self.update()
        super().leaveEvent(event)

    def neighbour(self, step: int) -> int | None:
        """The chunk ``step`` (1 or -1) from the selected one; with none selected, the
        first chunk on view (Right) or the last (Left). None past either end."""
        lanes = self.lanes
        if lanes is None or not len(lanes):
            return None
        selected = self.model.selected
        if selected is not None and 0 <= selected < len(lanes):
            index = selected + step
            return index if 0 <= index < len(lanes) else None
        if step > 0:
            on_view = np.nonzero(lanes.ends > self.first)[0]
            return int(on_view[0]) if len(on_view) else len(lanes) - 1
        on_view = np.nonzero(lanes.starts < self.last)[0]
        return int(on_view[-1]) if len(on_view) else 0

    def keyPressEvent(self, event: QKeyEvent) -> None:
        key, keys = event.key(), Qt.Key
        span = self.last - self.first
        if key in (keys.Key_Left, keys.Key_Right):
            index = self.neighbour(1 if key == keys.Key_Right else -1)
            if index is not None:
                self.chunk_clicked.emit(index)  # as a click on its bar
        elif key in (keys.Key_Plus, keys.Key_Equal, keys.Key_Minus):
            factor = WHEEL_ZOOM if key == keys.Key_Minus else 1 / WHEEL_ZOOM
            self.zoom(factor, self.width() / 2)
        elif key == keys.Key_Home:
            self.set_window(0.0, span)
        elif key == keys.Key_End:
            self.set_window(self.length() - span, float(self.length()))
        elif key == keys.Key_F:
            self.fit()
        else:
            super().keyPressEvent(event)
            return
        event.accept()

    def wheelEvent(self, event: QWheelEvent) -> None:
        delta = event.angleDelta()
        if abs(delta.x()) > abs(delta.y()):  # a sideways swipe pans
            span = self.last - self.first
            first = self.first - delta.x() / 120 * span / 10
            self.set_window(first, first + span)
        elif delta.y():
            self.zoom(WHEEL_ZOOM ** (-delta.y() / 120), event.position().x())
        event.accept()


class LanesPanel(QWidget):
    """The canvas under a row: what it shows, colour by kind or reason, Fit."""

    def __init__(self, model: InspectorModel, editor: ChunkEditor) -> None:
        super().__init__()
        self.canvas = LanesCanvas(model, editor)
        self.summary = QLabel()
        self.colour_by = QComboBox()
        self.colour_by.addItem("colour by kind", False)
        self.colour_by.addItem("colour by reason", True)
        self.colour_by.setToolTip(
            "Colour each bar by its chunk's kind, or by the rule that put its start there"
        )
        self.colour_by.currentIndexChanged.connect(
            lambda _i: self.canvas.set_by_reason(bool(self.colour_by.currentData()))
        )
        self.fit_button = QToolButton()
        self.fit_button.setText("Fit")
        self.fit_button.setToolTip("Show the whole document (or double-click an empty place)")
        self.fit_button.clicked.connect(self.canvas.fit)
        row = QHBoxLayout()
        row.setContentsMargins(4, 2, 4, 0)
        row.addWidget(self.summary, 1)
        row.addWidget(self.colour_by)
        row.addWidget(self.fit_button)
        column = QVBoxLayout(self)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(2)
        column.addLayout(row)
        column.addWidget(self.canvas, 1)
        self.canvas.changed.connect(self._summarize)
        self.summary.setToolTip(
            "Each chunk is a bar on the document's axis; overlapping chunks sit in lanes of "
            "their own. Wheel: zoom; drag: pan; click a bar: select its chunk. Keys: "
            "Left/Right the previous/next chunk, +/- zoom, Home/End, F fit."
        )
        self._summarize()

    def _summarize(self) -> None:
        canvas = self.canvas
        lanes = canvas.lanes
        if lanes is None:
            self.summary.setText("<small>no chunks yet</small>")
            return
        count = lanes.count
        cut = count - canvas.lanes_shown()
        more = f" ({cut:,} not shown: make the panel taller)" if cut > 0 else ""
        plural = "s" if count != 1 else ""
        self.summary.setText(
            f"<small>{len(lanes):,} chunks in {count:,} lane{plural}{more} · "
            f"showing {int(canvas.first):,}–{int(canvas.last):,} of {lanes.length:,} chars · "
            "wheel zooms, drag pans</small>"
        )

    def resizeEvent(self, event) -> None:
        super().resizeEvent(event)
        self._summarize()
