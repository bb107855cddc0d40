"""Step-through mode, for teaching: the text large, the side panels hidden, and Next /
Previous walking the boundaries in order with the reason for each shown beside the text.

The mode is a panel of its own over the same InspectorModel: it shows the model's result
in a ChunkEditor at a presentation size (Ctrl+plus / Ctrl+minus zoom, Ctrl+0 back to the
presentation size) and a card that says which boundary this is, the rule that put it
there and why, in the library's terms with the numbers. Entering it hides the window's
other panels; leaving it (Esc) shows them again.
"""

from __future__ import annotations

import html
import json

from PySide6.QtCore import QPoint, QRect, Qt, Signal
from PySide6.QtGui import (
    QAction,
    QBrush,
    QColor,
    QFont,
    QKeySequence,
    QPainter,
    QPaintEvent,
    QShortcut,
    QTextCharFormat,
    QTextCursor,
    QTextFormat,
)
from PySide6.QtWidgets import (
    QApplication,
    QFrame,
    QHBoxLayout,
    QLabel,
    QMainWindow,
    QPushButton,
    QScrollArea,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from chunkview.app import theme
from chunkview.app.editor import ChunkEditor
from chunkview.app.replay import Replay
from chunkview.core.model.explain import Stage, chunk_ends, reason_label, reason_words
from chunkview.core.model.spans import Span
from chunkview.core.runtime.pipeline import ChunkResult
from chunkview.core.session import InspectorModel, ModelEvent
from chunkview.core.views.replay import cascade_stages, stage_title

#: the text size a class can read from the back of the room (points), and the zoom limits
PRESENTATION_POINTS = 20
SMALLEST_POINTS, LARGEST_POINTS = 8, 72
ZOOM_STEP = 2


#: the colour of the boundary being explained (reads on the chunk colours and on white)
CURRENT_COLOUR = "#D7263D"


#: the colour of each replay stage (reads on white and on a dark base)
STAGE_COLOURS = {
    "gathered": "#2F6FDB",
    "split": "#E08A00",
    "cut": "#E08A00",
    "merged": "#1A9A6C",
    "overlapped": "#8A4FD8",
}
#: the format property that marks a replay highlight (its stage name)
STAGE_PROPERTY = QTextFormat.Property.UserProperty + 1


def stage_colour(name: str) -> QColor:
    return QColor(STAGE_COLOURS.get(name, "#E08A00"))


class _StepEditor(ChunkEditor):
    """The chunk editor with the boundary being explained drawn large, and, during a
    replay, only the stage shown: its range in the stage's colour (fading in), the part
    it changed stronger, and the stage before it as a grey outline of where it came from."""

    def __init__(self) -> None:
        super().__init__()
        self.current: int | None = None  # code point
        self.stage: Stage | None = None
        self.stage_before: Stage | None = None
        self.stage_strength = 1.0  # the fade, 0 to 1

    def show_stage(self, stage: Stage | None, before: Stage | None = None) -> None:
        self.stage, self.stage_before = stage, before
        self._decorate()

    def set_strength(self, strength: float) -> None:
        self.stage_strength = strength
        self._decorate()

    def _decorate(self) -> None:
        if self.stage is None:
            super()._decorate()
            return
        self._runs = []  # no chunk colours, no boundary marks: the stage alone
        stage, dark = self.stage, theme.is_dark(self.palette())
        colour = stage_colour(stage.name)
        selections = []
        if self.stage_before is not None:
            where = QTextCharFormat()
            where.setBackground(QColor(255, 255, 255, 40) if dark else QColor(0, 0, 0, 22))
            where.setProperty(STAGE_PROPERTY, "before")
            before = self.stage_before
            selections.append(self._selection(before.start, before.end, where))
        body = QTextCharFormat()
        fill = QColor(colour)
        fill.setAlpha(int((110 if dark else 80) * self.stage_strength))
        body.setBackground(fill)
        body.setProperty(STAGE_PROPERTY, stage.name)
        selections.append(self._selection(stage.start, stage.end, body))
        if stage.focus is not None:
            focus = QTextCharFormat()
            strong = QColor(colour)
            strong.setAlpha(int(230 * self.stage_strength))
            pattern = (
                Qt.BrushStyle.BDiagPattern
                if stage.name == "overlapped"  # overlaps are hatched everywhere in the app
                else Qt.BrushStyle.SolidPattern
            )
            if pattern == Qt.BrushStyle.SolidPattern:
                strong.setAlpha(int((190 if dark else 165) * self.stage_strength))
            focus.setBackground(QBrush(strong, pattern))
            focus.setProperty(STAGE_PROPERTY, f"{stage.name}:focus")
            selections.append(self._selection(stage.focus[0], stage.focus[1], focus))
        self.setExtraSelections(selections)
        self.viewport().update()

    def stage_ranges(self) -> list[tuple[str, int, int]]:
        """The replay highlights painted now: (stage name, start, end) in code points."""
        found = []
        for selection in self.extraSelections():
            name = selection.format.property(STAGE_PROPERTY)
            if name:
                found.append(
                    (
                        str(name),
                        self.to_point(selection.cursor.selectionStart()),
                        self.to_point(selection.cursor.selectionEnd()),
                    )
                )
        return found

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if self.current is None:
            return
        cursor = QTextCursor(self.document())
        cursor.setPosition(self.to_editor(self.current))
        rect = self.cursorRect(cursor)
        painter = QPainter(self.viewport())
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        colour = QColor(CURRENT_COLOUR)
        width = max(4, rect.height() // 8)
        x = max(rect.left(), width // 2 + 1)  # at a line's start, keep it all in view
        painter.fillRect(QRect(x - width // 2, rect.top(), width, rect.height()), colour)
        tip = rect.height() // 3
        painter.setBrush(colour)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.drawPolygon(
            [
                QPoint(x - tip, rect.top() - 1),
                QPoint(x + tip, rect.top() - 1),
                QPoint(x, rect.top() + tip),
            ]
        )
        painter.end()


class StepThrough(QWidget):
    """The step-through panel. While active it is ``window``'s central widget in place of
    the usual panels (taken out and put back whole, so the window's layout and sizes are
    left as they were)."""

    #: the boundary now shown: the index of the chunk whose start it is
    stepped = Signal(int)
    #: a replay stage is shown: its index among the chunk's stages and its name
    stage_shown = Signal(int, str)

    def __init__(self, model: InspectorModel, window: QMainWindow) -> None:
        super().__init__()
        self.model = model
        self.window_ = window
        self._panels: QWidget | None = None  # the central widget while this one is shown
        self._text: str | None = None
        self._result: ChunkResult | None = None
        #: the chunk whose start boundary is shown (0: the start of the text)
        self.index = 0

        self.editor = _StepEditor()
        self.editor.setReadOnly(True)
        self.editor.chunk_clicked.connect(self.go_to)
        self.points = PRESENTATION_POINTS
        self._apply_points()

        self.title = QLabel()
        self.title.setObjectName("stepTitle")
        self.title.setTextFormat(Qt.TextFormat.PlainText)  # options may hold < and &
        self.counter = QLabel()
        self.counter.setObjectName("stepCounter")
        self.rule = QLabel()
        self.rule.setObjectName("stepRule")
        self.rule.setAlignment(Qt.AlignmentFlag.AlignLeft)
        self.reason = QLabel()
        self.reason.setObjectName("stepReason")
        self.reason.setWordWrap(True)
        self.reason.setTextFormat(Qt.TextFormat.RichText)
        self.reason.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.reason.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.details = QLabel()
        self.details.setObjectName("stepDetails")
        self.details.setWordWrap(True)
        self.details.setTextFormat(Qt.TextFormat.RichText)
        self.previous_button = QPushButton("◀  Previous")
        self.next_button = QPushButton("Next  ▶")
        self.exit_button = QPushButton("Leave (Esc)")
        self.previous_button.clicked.connect(self.previous)
        self.next_button.clicked.connect(self.next)
        self.exit_button.clicked.connect(lambda: self.set_active(False))
        self.replay = Replay(self)
        self.replay.shown.connect(self._show_stage)
        self.replay.faded.connect(self.editor.set_strength)
        self.replay.state_changed.connect(self._replay_state)
        self.replay_button = QPushButton()
        self.replay_button.setObjectName("replayButton")
        self.replay_button.clicked.connect(self.toggle_replay)
        self.stage_path = QLabel()
        self.stage_path.setObjectName("stagePath")
        self.stage_path.setWordWrap(True)
        self.stage_path.setTextFormat(Qt.TextFormat.RichText)
        self._replay_state("stopped")
        for button in (
            self.previous_button,
            self.next_button,
            self.exit_button,
            self.replay_button,
        ):
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # arrows stay with the panel
            button.setMinimumHeight(44)

        card = QFrame()
        card.setObjectName("stepCard")
        card.setMinimumWidth(500)
        card.setMaximumWidth(600)
        card.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Expanding)
        column = QVBoxLayout(card)
        column.setContentsMargins(22, 20, 22, 20)
        column.setSpacing(14)
        column.addWidget(self.counter)
        column.addWidget(self.rule)
        # a long reason (semantic-chunking's can run to a paragraph) scrolls in its place
        scroller = QScrollArea()
        scroller.setWidget(self.reason)
        scroller.setWidgetResizable(True)
        scroller.setFrameShape(QFrame.Shape.NoFrame)
        scroller.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        scroller.viewport().setAutoFillBackground(False)  # the card's colour shows through
        self.reason.setAutoFillBackground(False)
        column.addWidget(scroller, 1)
        column.addWidget(self.details)
        column.addWidget(self.stage_path)
        column.addWidget(self.replay_button)
        buttons = QHBoxLayout()
        buttons.addWidget(self.previous_button)
        buttons.addWidget(self.next_button)
        column.addLayout(buttons)
        column.addWidget(self.exit_button)

        body = QHBoxLayout()
        body.setSpacing(0)
        body.addWidget(self.editor, 1)
        body.addWidget(card)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(0)
        outer.addWidget(self.title)
        outer.addLayout(body, 1)
        self._style()

        context = Qt.ShortcutContext.WidgetWithChildrenShortcut
        for keys, slot in (
            (("Right", "Space", "PgDown", "N"), self.next),
            (("Left", "Backspace", "PgUp", "P"), self.previous),
            (("Home",), lambda: self.go_to(0)),
            (("End",), lambda: self.go_to(self._last())),
            ((QKeySequence.StandardKey.ZoomIn, "Ctrl+="), lambda: self.zoom(ZOOM_STEP)),
            ((QKeySequence.StandardKey.ZoomOut,), lambda: self.zoom(-ZOOM_STEP)),
            (("Ctrl+0",), self.presentation_size),
            (("Esc",), lambda: self.set_active(False)),
            (("R",), self.toggle_replay),
        ):
            for key in keys:
                shortcut = QShortcut(QKeySequence(key), self, context=context)
                shortcut.activated.connect(slot)

        self.toggle_action = QAction("Step &through boundaries", window)
        self.toggle_action.setCheckable(True)
        self.toggle_action.setShortcut(QKeySequence("F9"))
        self.toggle_action.setToolTip(
            "Teaching mode: the text large, Next / Previous walks the boundaries and says why "
            "each is there"
        )
        self.toggle_action.toggled.connect(self.set_active)

        model.subscribe(ModelEvent.RESULT, self._show_result)
        # the reasons arrive after the layout: show the step again with its reason
        model.subscribe(
            ModelEvent.DETAILS, lambda result: self._show_result(result, keep_place=True)
        )
        model.subscribe(ModelEvent.FAILED, lambda _failure: self._show_step())
        model.subscribe(ModelEvent.DOCUMENT, self._forget_text)
        self.hide()

    # ----- the mode ---------------------------------------------------------------------
    @property
    def active(self) -> bool:
        return self.toggle_action.isChecked()

    def set_active(self, active: bool) -> None:
        """Enter the mode (hide the other panels, show the current result from its first
        boundary) or leave it (show them again)."""
        if self.toggle_action.isChecked() != active:
            self.toggle_action.setChecked(active)  # comes back here through toggled
            return
        if active:
            self._panels = self.window_.takeCentralWidget()
            self.window_.setCentralWidget(self)
            self.show()
            if self.model.result is not None:
                self._show_result(self.model.result, keep_place=True)
            else:
                self._show_step()
            self.setFocus()
        elif self._panels is not None:
            self.window_.takeCentralWidget()  # this panel: kept for next time, not deleted
            self.window_.setCentralWidget(self._panels)
            self._panels.show()
            self._panels = None
            self.hide()

    # ----- walking ------------------------------------------------------------------------
    def spans(self) -> list[Span]:
        return list(self._result.layout.spans) if self._result is not None else []

    def _last(self) -> int:
        return max(len(self._result.layout.spans) - 1, 0) if self._result is not None else 0

    def next(self) -> None:
        self.go_to(self.index + 1)

    def previous(self) -> None:
        self.go_to(self.index - 1)

    def go_to(self, index: int) -> None:
        """Show the boundary where chunk ``index``'s own part starts (clamped)."""
        self.index = min(max(index, 0), self._last())
        self._show_step()
        self.stepped.emit(self.index)

    # ----- zoom ---------------------------------------------------------------------------
    def zoom(self, step: int) -> None:
        self.points = min(max(self.points + step, SMALLEST_POINTS), LARGEST_POINTS)
        self._apply_points()

    def presentation_size(self) -> None:
        self.points = PRESENTATION_POINTS
        self._apply_points()

    def _apply_points(self) -> None:
        font = QFont(QApplication.font())
        font.setPointSize(self.points)
        self.editor.setFont(font)
        self.editor._update_margins()
        self.editor._schedule()

    # ----- showing ------------------------------------------------------------------------
    def _forget_text(self) -> None:
        self._text = None

    def _show_result(self, result: ChunkResult, keep_place: bool = False) -> None:
        if not self.active:
            return
        self._result = result
        shown = result.layout.document.text
        if shown != self._text:
            self.editor.set_text(shown)
            self._text = shown
            if not keep_place:
                self.index = 0
        self.editor.set_result(result)
        self.index = min(self.index, self._last())
        self._show_step()

    def _show_step(self) -> None:
        self._stop_replay()  # a step shown in full ends any replay (its stages may be gone)
        result = self._result
        entry = self.model.entry_id or "no chunker"
        self.title.setText(f"  {entry}  ·  {self._options_text()}")
        spans = self.spans()
        if not spans:
            self.rule.setText("")
            if result is None:
                self.counter.setText("No chunks yet")
                self.reason.setText("Open a document and pick a chunker, then step through.")
            else:  # a run that gave none: say so, and of what
                self.counter.setText("No chunks")
                chars = len(result.layout.document.text)
                failure = self.model.failure
                self.reason.setText(
                    f"{html.escape(failure.name)}: {html.escape(failure.message)}"
                    if failure is not None
                    else f"{html.escape(result.request.entry_id)} made no chunks of this "
                    f"{chars:,}-character document."
                )
            self.details.setText("")
            self.stage_path.setText("")
            self._enable()
            return
        span = spans[self.index]
        start, end = chunk_ends(spans, self.index)
        self.counter.setText(
            "Start of the text" if self.index == 0 else f"Boundary {self.index} of {len(spans) - 1}"
        )
        rule = reason_label(start) if start is not None else span.kind
        colour = theme.kind_colour(rule)
        self.rule.setText(
            f'<span style="background:{colour.name()};color:{_ink(colour)};">'
            f"&nbsp;{html.escape(rule)}&nbsp;</span>"
            f'&nbsp;&nbsp;<span style="color:gray">kind: {html.escape(span.kind)}</span>'
        )
        why = reason_words(start) if start is not None else _no_reason(result, self.index)
        self.reason.setText(_sentences(why))
        # as large as the card allows: a long reason gets a smaller (still legible) size
        points = 19 if len(why) <= 220 else 16 if len(why) <= 450 else 14
        self.reason.setStyleSheet(f"font-size: {points}pt;")
        size = len(span.text)
        bytes_ = len(span.text.encode("utf-8", "surrogatepass"))
        repeated = span.own_start - span.start
        lines = [f"<b>chunk {span.index}</b>: {size:,} chars · {bytes_:,} bytes"]
        if repeated > 0:
            lines.append(f"repeats {repeated:,} chars of the chunk before (hatched)")
        if end is not None:
            lines.append(f"<b>it ends</b> where chunk {span.index + 1} starts: press Next")
        else:
            lines.append("it runs to the end of the text")
        self.details.setText("<br>".join(lines))
        self.editor.current = span.own_start if self.index > 0 else None
        self.editor.select_chunk(span.index, scroll=False)
        self.editor.show_position(span.own_start)
        self.editor.viewport().update()
        stages = cascade_stages(spans, self.index)
        self.stage_path.setText(_stage_path(stages, None) if len(stages) > 1 else "")
        self._enable()

    def _enable(self) -> None:
        self.previous_button.setEnabled(self.index > 0)
        self.next_button.setEnabled(self.index < self._last())
        stages = cascade_stages(self.spans(), self.index) if self.spans() else []
        self.replay_button.setEnabled(len(stages) > 1 or self.replay.state != "stopped")
        self.replay_button.setToolTip(
            "Replay how this chunk came to be, stage by stage (R); press again to pause"
            if len(stages) > 1
            else "This chunk came to be in one step: nothing to replay"
        )

    # ----- the cascade replay -------------------------------------------------------------
    def toggle_replay(self) -> None:
        """Start the replay of the current chunk's stages, or pause / resume it."""
        if self.replay.state in ("playing", "paused"):
            self.replay.toggle()
            return
        stages = cascade_stages(self.spans(), self.index) if self.spans() else []
        if len(stages) > 1:
            self.replay.start(stages)

    def _stop_replay(self) -> None:
        if self.replay.state != "stopped":
            self.replay.stop()
        if self.editor.stage is not None:
            self.editor.show_stage(None)

    def _show_stage(self, index: int, stage: Stage) -> None:
        stages = self.replay.stages
        before = stages[index - 1] if index > 0 else None
        self.editor.current = None
        self.editor.show_stage(stage, before)
        # the part the stage changed is what to look at (a merge's may be screens below)
        self.editor.show_position(stage.focus[0] if stage.focus is not None else stage.start)
        self.counter.setText(f"Replay · step {index + 1} of {len(stages)}")
        colour = stage_colour(stage.name)
        self.rule.setText(
            f'<span style="background:{colour.name()};color:{_ink(colour)};">'
            f"&nbsp;{html.escape(stage_title(stage))}&nbsp;</span>"
            f'&nbsp;&nbsp;<span style="color:gray">chunk {self.index}</span>'
        )
        self.reason.setText(_sentences(stage.text))
        self.reason.setStyleSheet(f"font-size: {19 if len(stage.text) <= 220 else 16}pt;")
        size = stage.end - stage.start
        lines = [f"<b>{size:,} characters</b> highlighted"]
        if stage.focus is not None:
            changed = stage.focus[1] - stage.focus[0]
            what = "repeated (hatched)" if stage.name == "overlapped" else "taken in (darker)"
            lines.append(f"{changed:,} of them {what}")
        if before is not None:
            lines.append(f"grey: the chunk as it was {stage_title(before).lower()}")
        self.details.setText("<br>".join(lines))
        self.stage_path.setText(_stage_path(stages, index))
        self.stage_shown.emit(index, stage.name)

    def _replay_state(self, state: str) -> None:
        self.replay_button.setText(
            {
                "playing": "❚❚  Pause replay (R)",
                "paused": "▶  Resume replay (R)",
                "done": "↺  Replay again (R)",
            }.get(state, "▶  Replay the cascade (R)")
        )

    def _options_text(self) -> str:
        options = self._result.request.options if self._result is not None else {}
        shown = [
            f"{k}={v if isinstance(v, (int, float, str)) else json.dumps(v, ensure_ascii=False)}"
            for k, v in options.items()
            if v is not None
        ][:6]
        return ", ".join(shown) if shown else "default options"

    def _style(self) -> None:
        self.setStyleSheet(
            """
            QLabel#stepTitle { font-size: 15pt; padding: 8px 4px; }
            QFrame#stepCard { border-left: 1px solid palette(mid); background: palette(base); }
            QLabel#stepCounter { font-size: 24pt; font-weight: 600; }
            QLabel#stepRule { font-size: 16pt; }
            QLabel#stepReason { font-size: 19pt; }
            QLabel#stepDetails { font-size: 13pt; color: palette(text); }
            QLabel#stagePath { font-size: 14pt; }
            QPushButton { font-size: 14pt; padding: 6px 14px; }
            """
        )


def _ink(colour: QColor) -> str:
    """Black or white, whichever reads on ``colour``."""
    return "#000000" if colour.lightnessF() > 0.55 else "#ffffff"


def _sentences(text: str) -> str:
    """A reason as paragraphs: its parts (joined by "; ") one under the other."""
    parts = [html.escape(part.strip()) for part in text.split("; ") if part.strip()]
    return "".join(f"<p style='margin:0 0 10px 0'>{part}</p>" for part in parts)


def _stage_path(stages: list[Stage], current: int | None) -> str:
    """The stages as a path, "First gathered → Split → Overlapped", the current one in
    its colour."""
    shown = []
    for i, stage in enumerate(stages):
        title = html.escape(stage_title(stage))
        if i == current:
            colour = stage_colour(stage.name)
            shown.append(f'<b style="color:{colour.name()}">{title}</b>')
        else:
            shown.append(f'<span style="color:gray">{title}</span>')
    return " → ".join(shown)


def _no_reason(result: ChunkResult | None, index: int) -> str:
    if index == 0:
        return "the start of the text"
    if result is not None and not result.request.explain:
        return "the run did not record reasons"
    return "no reason was recorded at this boundary; its boundary kind is shown above"
