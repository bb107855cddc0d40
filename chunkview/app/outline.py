"""The outline of a chunk's whole extent in the editor, its overlap with its neighbours
included: the selected chunk's drawn solid, the one under the mouse dashed, so which chunk
repeats which text shows without a tooltip.

An outline is the shape a multi-line selection has (the first line from the chunk's start
to the right edge, whole lines, the last line to its end), one path around the lines'
rectangles. Only the lines on view are walked, as the gutter walks them: the cost follows
the window, not the chunk or the document.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen, QTextLine
from PySide6.QtWidgets import QPlainTextEdit

#: how far past the viewport's edge an outline that goes on beyond it is drawn, so that no
#: closing edge suggests the chunk ends there
PAST_EDGE = 4
#: lines this close are one stretch of the outline (blocks may leave a pixel between them)
JOIN_GAP = 3.0


@dataclass(frozen=True)
class Outline:
    """A chunk outlined: its index and whole extent (code points, its overlap included)."""

    chunk: int
    start: int
    end: int
    #: True: the chunk under the mouse; False: the selected one
    hovered: bool


def outline_colour(dark: bool) -> QColor:
    """Neither hue of the chunk backgrounds (blue, orange) nor their tint: the text's own
    contrast, black on light and white on dark (and on presentation mode's white)."""
    return QColor(255, 255, 255, 235) if dark else QColor(0, 0, 0, 220)


def outline_pen(dark: bool, hovered: bool, width: float) -> QPen:
    pen = QPen(outline_colour(dark), width)
    pen.setStyle(Qt.PenStyle.DashLine if hovered else Qt.PenStyle.SolidLine)
    pen.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
    return pen


def x_at(line: QTextLine, position: int) -> float:
    """Where position ``position`` of the line's block lies across the line (PySide gives
    cursorToX's x with the position it may have moved)."""
    found = line.cursorToX(position)
    return float(found[0] if isinstance(found, tuple) else found)  # type: ignore[arg-type]


def line_rects(editor: QPlainTextEdit, first: int, last: int) -> list[QRectF]:
    """The rectangles (viewport coordinates) of the lines on view that editor positions
    ``first..last`` cover, in a multi-line selection's shape."""
    document = editor.document()
    viewport = editor.viewport().rect()
    offset = editor.contentOffset()
    margin = document.documentMargin()
    block = editor.firstVisibleBlock()
    start_block = document.findBlock(first)
    if start_block.isValid() and start_block.blockNumber() > block.blockNumber():
        block = start_block
    rects: list[QRectF] = []
    while block.isValid():
        geometry = editor.blockBoundingGeometry(block).translated(offset)
        if geometry.top() > viewport.bottom() or block.position() > last:
            break
        if block.isVisible() and block.position() + block.length() > first:
            left, right = geometry.left() + margin, viewport.right() - margin
            layout = block.layout()
            # from the line ``first`` is on, to the viewport's bottom: a paragraph of a
            # million characters (minified JSON) holds thousands of lines
            found = layout.lineForTextPosition(max(first - block.position(), 0))
            for number in range(found.lineNumber() if found.isValid() else 0, layout.lineCount()):
                line = layout.lineAt(number)
                if geometry.top() + line.y() > viewport.bottom():
                    break
                line_start = block.position() + line.textStart()
                line_end = line_start + line.textLength()
                is_last_line = number == layout.lineCount() - 1
                if line_end + (1 if is_last_line else 0) <= first or line_start > last:
                    continue
                x0 = left
                if line_start <= first:
                    x0 = geometry.left() + x_at(line, first - block.position())
                x1 = right
                if last <= line_end and not (last == line_end and not is_last_line):
                    x1 = geometry.left() + x_at(line, last - block.position())
                if x1 - x0 < 1 and line_start == last:
                    continue  # the chunk ends where this line starts
                top = geometry.top() + line.y()
                rects.append(
                    QRectF(QPointF(x0, top), QPointF(max(x1, x0 + 2), top + line.height()))
                )
        block = block.next()
    return rects


def outline_path(
    editor: QPlainTextEdit, first: int, last: int, begins: bool, ends: bool
) -> QPainterPath:
    """One path around the lines ``first..last`` covers on view; ``begins`` / ``ends``:
    whether the chunk starts / stops on view (else its edge is drawn past the viewport)."""
    rects = line_rects(editor, first, last)
    path = QPainterPath()
    if not rects:
        return path
    for above, below in zip(rects, rects[1:], strict=False):
        if 0 < below.top() - above.bottom() <= JOIN_GAP:
            above.setBottom(below.top())
    if not begins:
        rects[0].setTop(min(rects[0].top(), -PAST_EDGE))
    if not ends:
        rects[-1].setBottom(max(rects[-1].bottom(), editor.viewport().height() + PAST_EDGE))
    for rect in rects:
        path.addRect(rect)
    return path.simplified()


def outline_on_view(
    editor: QPlainTextEdit, start: int, end: int, top: int, bottom: int
) -> QPainterPath:
    """The path around editor positions ``start..end``, clipped to ``top..bottom`` (the
    positions on view); empty when none of it is on view."""
    first, last = max(start, top), min(end, bottom)
    if last < first or (last == first and start != end):
        return QPainterPath()
    return outline_path(editor, first, last, begins=start >= top, ends=end <= bottom)


def paint(painter: QPainter, path: QPainterPath, dark: bool, hovered: bool, width: float) -> None:
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing, False)
    painter.setBrush(Qt.BrushStyle.NoBrush)
    painter.setPen(outline_pen(dark, hovered, width))
    painter.drawPath(path)
    painter.restore()
