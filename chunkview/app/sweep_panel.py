"""The parameter sweep: step one numeric option, plot what the chunks do.

The rows come from core/sweep.py, computed in the chunking processes (all cores) by a
thread that hands each row to the UI as it finishes. Five pyqtgraph plots share the
value axis: chunk count, median and 95th-percentile size, the share of chunks over
maxSize, the text lost and the warnings; when the Eval panel has questions, a sixth
plots their mean recall, precision and IoU per value (computed in the same processes,
on the same layouts). A line marks the current value, and clicking a point applies its
value. The plots stand in rows that fill the panel (small_multiples.py): one row in the
dock's usual place, wide and low under the panels, more when it is floated or narrow; the
option's name is written once under them all.
"""

from __future__ import annotations

import math
import re
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QEvent, QObject, Qt, Signal
from PySide6.QtGui import QFontMetricsF, QShowEvent
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QProgressBar,
    QPushButton,
    QSizePolicy,
    QVBoxLayout,
    QWidget,
)

from chunkview.app.background import BackgroundJob
from chunkview.app.small_multiples import LEAST_WIDTH, best_rows, lay_out_rows
from chunkview.core.analysis.eval import Question
from chunkview.core.batch.sweep import (
    SweepPlan,
    numeric_params,
    parse_values,
    pool_runner,
    run_sweep,
    suggested_values,
)
from chunkview.core.model.kinds import UNIT_NAMES
from chunkview.core.session import InspectorModel, ModelEvent
from chunkview.core.views.corpus_report import FIGURE_COLOURS

if TYPE_CHECKING:  # imported when the plots are built: a third of a second of start-up
    import pyqtgraph as pg

#: the plots, in order: (name, figures drawn); TITLES has the words shown over each
PLOTS = (
    ("chunks", ("chunks",)),
    ("size", ("median", "p95")),  # in the entry's unit, named as Stats names it
    ("recall (mean of the questions)", ("recall",)),
    ("precision · IoU (mean)", ("precision", "iou")),
    ("over maxSize", ("over_max",)),
    ("text lost", ("lost",)),
    ("warnings", ("warnings",)),
)
CURVE_COLOURS = {
    "chunks": "#0072B2",
    "median": "#009E73",
    "p95": "#CC79A7",
    "over_max": "#D55E00",
    "lost": "#E69F00",
    "warnings": "#56B4E9",
    # as the corpus evaluation's plots draw them
    **{figure: FIGURE_COLOURS[figure] for figure in ("recall", "precision", "iou")},
}
#: where two figures can coincide (precision is IoU at full recall), both still show
CURVE_SYMBOLS = {"precision": "s", "iou": "t"}
DASHED = {"iou"}
#: the plots drawn only when the sweep has questions: recall on its own, as precision and
#: IoU are small beside it when the answers are short and the chunks long
RETRIEVAL = (PLOTS[2][0], PLOTS[3][0])
#: recall is drawn over the whole 0..1; the figures shown as percentages
WHOLE_SHARE = PLOTS[2][0]
PERCENT = {"over_max"}
#: each plot's title, as HTML, longest first: a narrow plot takes the first that fits.
#: {unit}: the size unit's name ({unit_short} shorter); {median} and the like: the
#: figure's name in its curve's colour ({p95_long}: the long name)
TITLES = {
    "chunks": ("chunks",),
    "size": (
        "size ({unit}) &nbsp;{median} · {p95_long}",
        "{median} · {p95} size ({unit})",
        "{median} · {p95} ({unit})",
        "{median} · {p95} ({unit_short})",
        "{median} · {p95} ({unit_tiny})",
    ),
    RETRIEVAL[0]: ("recall (mean of the questions)", "recall (mean)"),
    RETRIEVAL[1]: (
        "{precision} · {iou} (mean of the questions)",
        "{precision} · {iou} (mean)",
        "{precision} · {iou}",
    ),
    "over maxSize": ("over maxSize (% of chunks)", "over maxSize (%)"),
    "text lost": ("text lost (chars)",),
    "warnings": ("warnings",),
}
#: the figures' names in the titles, and the long ones ({p95_long})
FIGURE_WORDS = {"median": "median", "p95": "p95", "precision": "precision", "iou": "IoU"}
LONG_WORDS = {"p95_long": ("p95", "95th percentile")}
SHORT_UNITS = {"UTF-16 code units": "UTF-16 units"}
TINY_UNITS = {"UTF-16 code units": "UTF-16", "UTF-8 bytes": "UTF-8"}
#: the plots' text (titles, ticks, the option's name under them), in points
PLOT_TEXT_PT = 8
#: the height of a title's line, and the width of the value axis (the left one)
TITLE_HEIGHT = 18
LEFT_AXIS_WIDTH = 40
#: between the plots (pixels)
PLOT_SPACING = 6
#: the panel's width from which the message stands beside the buttons, not under them
MESSAGE_BESIDE = 1000
#: what the sweep's questions come from: () -> (questions, retriever, top k)
RetrievalSource = Callable[[], tuple[list[Question], str | None, int]]


class _SweepJob(BackgroundJob):
    """Runs one sweep at a time and hands each row to the UI thread."""

    row = Signal(int, object)  # sweep number, row
    done = Signal(int)

    def start(self, number: int, plan: SweepPlan, runner: Any) -> None:
        self.launch(self._run, number, plan, runner)

    def _run(self, number: int, plan: SweepPlan, runner: Any, cancel: threading.Event) -> None:
        rows = run_sweep(plan, runner)
        try:
            for row in rows:
                if cancel.is_set():
                    break
                self.deliver(self.row, number, row)
        except Exception as error:  # a broken pool must not take the app down
            if not cancel.is_set():
                error_row = {"name": type(error).__name__, "message": str(error)}
                self.deliver(self.row, number, {"value": None, "error": error_row})
        finally:
            rows.close()  # leaves the pool: its processes end
            self.deliver(self.done, number)


class SweepPanel(QWidget):
    def __init__(
        self,
        model: InspectorModel,
        apply: Callable[[str, Any], None] | None = None,
        retrieval: RetrievalSource | None = None,
    ) -> None:
        super().__init__()
        self.model = model
        self.apply = apply or (
            lambda name, value: model.set_options({**model.options, name: value})
        )
        #: the Eval panel's questions, retriever and top k (none: no retrieval plot)
        self.retrieval = retrieval
        #: seconds each value may take (None: the service's default); the window's budget
        self.time_budget: Callable[[], float | None] = lambda: None
        self.runner: Any = None  # None: the chunking pool (tests may plug another in)
        self.plan: SweepPlan | None = None
        #: the plots' rows as last laid out: (plots a row, the plots shown, the option)
        self._arranged: tuple[list[int], list[str], str] | None = None
        self.row_counts: list[int] = []  # the plots in each row, top to bottom
        self.columns = 1  # in the fullest row
        self.rows: list[dict[str, Any]] = []
        #: the option of the rows shown (``plotted_param``)
        self._swept: str | None = None
        self.number = 0
        self.running = False
        self.param_combo = QComboBox()
        self.param_combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.param_combo.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Fixed)
        self.param_combo.currentIndexChanged.connect(self._param_picked)
        self.values_edit = QLineEdit()
        self.values_edit.setPlaceholderText("start:stop:step or a,b,c")
        self.values_edit.setMinimumWidth(140)
        self.values_edit.returnPressed.connect(self.start)
        self.values_edit.textChanged.connect(self._frame_values)
        self.run_button = QPushButton("Sweep")
        self.run_button.clicked.connect(self.start)
        self.stop_button = QPushButton("Stop")
        self.stop_button.clicked.connect(self.stop)
        self.stop_button.setEnabled(False)
        self.progress = QProgressBar()  # shown while a sweep runs
        self.progress.setTextVisible(True)
        self.progress.setFormat("%v / %m values")
        self.progress.setMaximumWidth(240)
        self.progress.hide()
        self.message = QLabel("Pick a numeric option and the values to try.")
        self.message.setWordWrap(True)
        self.message.setTextFormat(Qt.TextFormat.PlainText)  # errors and options, as written
        # the plots are built when first needed (shown, or a sweep started): pyqtgraph
        # and seven plots cost most of a second, and the dock starts hidden
        self._plots_box = QWidget()
        QVBoxLayout(self._plots_box).setContentsMargins(0, 0, 0, 0)
        self._plots_widget: pg.GraphicsLayoutWidget | None = None
        self._plots: dict[str, pg.PlotItem] = {}
        self._curves: dict[str, pg.PlotDataItem] = {}
        self._markers: list[pg.InfiniteLine] = []
        self._plot_rows: list[pg.GraphicsLayout] = []
        self._value_label: pg.LabelItem | None = None
        # one line of controls, the message at its end when the panel is wide, on a line
        # of its own under them when narrow; the plots take the rest
        self._controls = QHBoxLayout()
        for widget in (QLabel("option"), self.param_combo, QLabel("values"), self.values_edit):
            self._controls.addWidget(widget)
        self._controls.addWidget(self.run_button)
        self._controls.addWidget(self.stop_button)
        self._controls.addWidget(self.progress, 1)
        self._message_line = QHBoxLayout()
        layout = QVBoxLayout(self)
        layout.setContentsMargins(6, 4, 6, 4)  # a dock under the panels: off its edges
        layout.setSpacing(4)
        layout.addLayout(self._controls)
        layout.addLayout(self._message_line)
        layout.addWidget(self._plots_box, 1)
        self._place_message()
        self._job = _SweepJob()
        self._job.row.connect(self._add_row)
        self._job.done.connect(self._finished)
        model.subscribe(ModelEvent.ENTRY, lambda _entry: self._fill_params())
        # the size plot names the entry's unit
        model.subscribe(
            ModelEvent.ENTRY,
            lambda _entry: self._style() if getattr(self, "_plots", None) else None,
        )
        model.subscribe(ModelEvent.RESULT, lambda _result: self._fill_params(only_if_changed=True))
        # the line at the current value moves when seen: a hidden dock's plots cost
        # nothing per layout
        model.subscribe(ModelEvent.RESULT, lambda _result: self._mark_current(only_if_seen=True))

    # ----- plots ----------------------------------------------------------------------
    @property
    def plots_widget(self) -> pg.GraphicsLayoutWidget:
        """The widget the plots are laid out in (built on first use)."""
        self._ensure_plots()
        assert self._plots_widget is not None
        return self._plots_widget

    @property
    def plots(self) -> dict[str, pg.PlotItem]:
        """The plots by title (built on first use)."""
        self._ensure_plots()
        return self._plots

    @property
    def curves(self) -> dict[str, pg.PlotDataItem]:
        """The curves by figure (built on first use)."""
        self._ensure_plots()
        return self._curves

    @property
    def markers(self) -> list[pg.InfiniteLine]:
        """Each plot's line at the current value (built on first use)."""
        self._ensure_plots()
        return self._markers

    def _ensure_plots(self) -> None:
        """Build the plots, framed and marked as they would be had they been there all
        along, and filled with the rows so far."""
        if self._plots:
            return
        self._build_plots()
        if self.rows:
            assert self.plan is not None  # rows come from a sweep's plan
            self._frame(self.plan.values)
            self._redraw()
            return
        if self.values_edit.text():  # values follow an option picked for this entry
            self._frame_values()
        self._mark_current()

    def _build_plots(self) -> None:
        import pyqtgraph as pg

        pg.setConfigOptions(antialias=True)
        self._plots_widget = pg.GraphicsLayoutWidget()
        self._plots_widget.setToolTip("Click a point to use its value")
        # rows and titles follow the plots' own width (laid out after the panel's)
        self._plots_widget.installEventFilter(self)
        self._plots_widget.ci.setContentsMargins(0, 2, 0, 0)
        self._plots_widget.ci.setSpacing(2)
        box = self._plots_box.layout()
        assert box is not None
        box.addWidget(self._plots_widget)
        ink = self.palette().color(self.foregroundRole()).name()
        tick_font = self.font()
        tick_font.setPointSizeF(PLOT_TEXT_PT)
        for title, figures in PLOTS:
            plot = pg.PlotItem()
            plot.showGrid(x=True, y=True, alpha=0.2)
            plot.setMouseEnabled(x=False, y=False)
            plot.hideButtons()
            plot.setMenuEnabled(False)
            # the title over the value axis too, not the data's part alone: a narrow
            # plot's title has the whole width
            plot.layout.removeItem(plot.titleLabel)
            plot.layout.addItem(plot.titleLabel, 0, 0, 1, 2)
            # the plots of a row share its width evenly, whatever their contents ask
            plot.setPreferredWidth(LEAST_WIDTH)
            left = plot.getAxis("left")
            left.setWidth(LEFT_AXIS_WIDTH)
            for side in ("left", "bottom"):
                plot.getAxis(side).enableAutoSIPrefix(False)
                plot.getAxis(side).setStyle(tickFont=tick_font, tickTextOffset=3)
            for figure in figures:
                style = Qt.PenStyle.DashLine if figure in DASHED else Qt.PenStyle.SolidLine
                curve = plot.plot(
                    [],
                    [],
                    pen=pg.mkPen(CURVE_COLOURS[figure], width=2, style=style),
                    symbol=CURVE_SYMBOLS.get(figure, "o"),
                    symbolSize=7,
                    symbolBrush=CURVE_COLOURS[figure],
                    symbolPen=None,
                )
                curve.sigPointsClicked.connect(self._point_clicked)
                self._curves[figure] = curve
            marker = pg.InfiniteLine(
                angle=90, pen=pg.mkPen(ink, width=1.5, style=Qt.PenStyle.DashLine)
            )
            marker.hide()
            plot.addItem(marker)
            self._markers.append(marker)
            self._plots[title] = plot
        # the option's name once, under all the plots: their shared value axis
        self._value_label = pg.LabelItem("", size=f"{PLOT_TEXT_PT}pt")
        self._style()
        self._arrange()

    def shown_plots(self) -> list[str]:
        """The plots on view: the retrieval one only for a sweep with questions."""
        with_retrieval = self.plan is not None and bool(self.plan.questions)
        return [t for t, _f in PLOTS if t not in RETRIEVAL or with_retrieval]

    def shown_markers(self) -> list[pg.InfiniteLine]:
        """The current-value lines of the plots on view."""
        shown = self.shown_plots()
        return [m for m, (title, _f) in zip(self.markers, PLOTS) if title in shown]

    def _arrange(self) -> None:
        """The plots on view in rows that fill the width, as many rows as make them
        nearest a plot's best shape (small_multiples.py), the option named under them."""
        shown = self.shown_plots()
        label = self._value_label
        assert label is not None
        label_height = label.boundingRect().height() if label.isVisible() else 0
        space = self.plots_widget.size()
        counts = best_rows(len(shown), space.width(), space.height() - label_height)
        param = (self.plotted_param or "") if hasattr(self, "param_combo") else ""
        if (counts, shown, param) == self._arranged:
            return
        self._arranged = (counts, shown, param)
        self.row_counts, self.columns = counts, max(counts, default=1)
        layout = self.plots_widget.ci
        if label in layout.items:
            layout.removeItem(label)
        for title, plot in self.plots.items():
            plot.setVisible(title in shown)
        self._plot_rows = lay_out_rows(
            layout, self._plot_rows, [self.plots[t] for t in shown], counts, PLOT_SPACING
        )
        layout.addItem(label, row=len(counts), col=0)
        self._name_values()
        self._title()

    def _name_values(self) -> None:
        """The swept option's name under the plots, in the theme's ink."""
        if self._value_label is None:
            return
        ink = self.palette().color(self.foregroundRole()).name()
        self._value_label.setText(self.plotted_param or "", color=ink)

    def resizeEvent(self, event: Any) -> None:
        super().resizeEvent(event)
        self._place_message()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._plots_widget and event.type() == QEvent.Type.Resize and self._plots:
            self._arrange()
            self._title()
        return False

    def _place_message(self) -> None:
        """The message at the end of the controls' line when the panel is wide; under
        them, on a line of its own, when they leave it too little room."""
        beside = self.width() >= MESSAGE_BESIDE
        line = self._controls if beside else self._message_line
        if line.indexOf(self.message) >= 0:
            return
        (self._message_line if beside else self._controls).removeWidget(self.message)
        line.addWidget(self.message, 3)

    def _title(self) -> None:
        """Each plot's title, the longest of its forms that fits the plot's width."""
        if not self._plots:
            return
        ink = self.palette().color(self.foregroundRole()).name()
        unit = ""
        if self.model.entry_id:
            size_unit = self.model.entry.size_unit
            unit = UNIT_NAMES.get(size_unit, size_unit)
        words = {
            **{
                f: f'<span style="color:{CURVE_COLOURS[f]}">{w}</span>'
                for f, w in FIGURE_WORDS.items()
            },
            **{
                key: f'<span style="color:{CURVE_COLOURS[f]}">{w}</span>'
                for key, (f, w) in LONG_WORDS.items()
            },
            "unit": unit,
            "unit_short": SHORT_UNITS.get(unit, unit),
            "unit_tiny": TINY_UNITS.get(unit, unit),
        }
        font = self.font()
        font.setPointSizeF(PLOT_TEXT_PT)
        metrics = QFontMetricsF(font)
        width = self.plots_widget.width() - PLOT_SPACING * (self.columns - 1)
        # the widest row's plots are the narrowest; a title keeps clear of the next
        room = width / max(self.columns, 1) - 16
        for title, plot in self.plots.items():
            forms = [form.format(**words) for form in TITLES[title]]
            plain = [re.sub("<[^>]+>", "", f).replace("&nbsp;", " ") for f in forms]
            chosen = next(
                (f for f, p in zip(forms, plain) if metrics.horizontalAdvance(p) <= room),
                forms[-1],
            )
            html = f'<span style="color:{ink}">{chosen}</span>'
            if plot.titleLabel.text != html:
                plot.setTitle(html, size=f"{PLOT_TEXT_PT}pt")
                # a line of 8 pt text, not the 30 px pyqtgraph keeps for a title
                plot.layout.setRowFixedHeight(0, TITLE_HEIGHT)
                plot.titleLabel.setMaximumHeight(TITLE_HEIGHT)

    def _style(self) -> None:
        """Background, axes and titles in the theme's colours."""
        import pyqtgraph as pg

        palette = self.palette()
        ink = palette.color(self.foregroundRole())
        self.plots_widget.setBackground(palette.color(self.backgroundRole()))
        for plot in self.plots.values():
            for side in ("left", "bottom"):
                plot.getAxis(side).setTextPen(ink)
                plot.getAxis(side).setPen(ink)
        for marker in self.markers:
            marker.setPen(pg.mkPen(ink, width=1.5, style=Qt.PenStyle.DashLine))
        self._name_values()
        self._title()

    def changeEvent(self, event: QEvent) -> None:
        super().changeEvent(event)
        if event.type() == QEvent.Type.PaletteChange and getattr(self, "_plots", None):
            self._style()

    def _redraw(self) -> None:
        good = [r for r in sorted(self.rows, key=lambda r: r["value"]) if r["error"] is None]
        for figure, curve in self.curves.items():
            scale = 100 if figure in PERCENT else 1
            points = [(r["value"], r[figure]) for r in good if r.get(figure) is not None]
            curve.setData([x for x, _ in points], [y * scale for _, y in points])
        for title, figures in PLOTS:
            if title == WHOLE_SHARE:  # a share: the whole 0..1, so values compare
                self.plots[title].setYRange(0, 1.04, padding=0)
                continue
            # from 0, so a flat line reads as what it is, and never a zero-height range
            top = max(
                [
                    r[f] * (100 if f in PERCENT else 1)
                    for r in good
                    for f in figures
                    if r.get(f) is not None
                ]
                or [0]
            )
            least = 0.01 if title in RETRIEVAL else 1  # shares below 1
            self.plots[title].setYRange(0, max(top, least) * 1.08, padding=0)
        self._arrange()
        self._mark_current()

    def _frame_values(self) -> None:
        """Before a sweep the plots span the values it would try, so the empty axes and
        the current value's line show what the sweep will fill."""
        if self.rows or not self._plots:
            return
        param = self.param_combo.currentData()
        kind = next((p.kind for p in self.model.entry.params if p.name == param), None)
        try:
            values = parse_values(self.values_edit.text(), integer=kind == "int")
        except ValueError:
            return  # Sweep says why
        self._frame(values)

    def _frame(self, values: Sequence[float]) -> None:
        """Every plot's value axis over ``values``. Set on each, not linked: pyqtgraph
        links axes by their place on the screen, and plots in rows of their own have
        different widths."""
        low, high = min(values), max(values)
        if low == high:
            low, high = low - 1, high + 1
        if not math.isfinite(float(high) - float(low)):  # -1e308,1e308: no axis spans it
            return
        for plot in self.plots.values():
            plot.setXRange(low, high, padding=0.04)

    def rows_by_value(self) -> dict[float, dict[str, Any]]:
        return {row["value"]: row for row in self.rows}

    def showEvent(self, event: QShowEvent) -> None:
        super().showEvent(event)
        if self._plots:
            self._mark_current()
        else:
            self._ensure_plots()

    def _mark_current(self, only_if_seen: bool = False) -> None:
        """The line at the option's current value (hidden when it is not set)."""
        if not self._plots or (only_if_seen and not self.isVisible()):
            return  # showEvent (or building the plots) marks it
        param = self.plotted_param
        defaults = {p.name: p.default for p in self.model.entry.params} if param else {}
        value = self.model.options.get(param, defaults.get(param)) if param else None
        for marker in self.markers:
            marker.setVisible(isinstance(value, (int, float)))
            if isinstance(value, (int, float)):
                marker.setValue(value)

    def _point_clicked(self, _curve: Any, points: Any, *_args: Any) -> None:
        if len(points):
            self.apply_value(points[0].pos().x())

    def apply_value(self, value: float) -> None:
        """Use ``value`` for the swept option (as a click on a point does)."""
        param = self.plotted_param
        params = {p.name: p for p in self.model.entry.params}
        if param not in params:
            return
        if params[param].kind == "int":
            value = round(value)
        self.apply(param, value)
        self.message.setText(f"Applied {param} = {value:g}")
        self._mark_current()

    # ----- choosing what to sweep -----------------------------------------------------
    def _fill_params(self, only_if_changed: bool = False) -> None:
        """The numeric options that apply now (a strategy change may change them)."""
        names = [p.name for p in numeric_params(self.model.entry, self.model.options)]
        shown = [self.param_combo.itemData(i) for i in range(self.param_combo.count())]
        if only_if_changed and names == shown:
            return
        previous = self.param_combo.currentData()
        self.param_combo.blockSignals(True)
        self.param_combo.clear()
        for param in numeric_params(self.model.entry, self.model.options):
            self.param_combo.addItem(param.name, param.name)
        index = self.param_combo.findData(previous)
        self.param_combo.setCurrentIndex(max(index, 0))
        self.param_combo.blockSignals(False)
        self._param_picked()

    @property
    def plotted_param(self) -> str | None:
        """The option the plots are of: the one swept while its rows are shown (another
        picked meanwhile is the next sweep's), else the one picked."""
        return self._swept if self.rows and self._swept else self.param_combo.currentData()

    def _param_picked(self) -> None:
        param = next(
            (p for p in self.model.entry.params if p.name == self.param_combo.currentData()),
            None,
        )
        if param is None:
            return
        current = self.model.options.get(param.name, param.default)
        if not isinstance(current, (int, float)) or current <= 0:
            current = param.default if isinstance(param.default, (int, float)) else 1
        self.values_edit.setText(suggested_values(current, param.kind == "int", param.minimum))
        self._name_values()
        self._mark_current()

    # ----- running --------------------------------------------------------------------
    def start(self) -> bool:
        """Sweep the chosen option over the typed values; False with a message when the
        values cannot be read."""
        param = self.param_combo.currentData()
        if not param or not self.model.entry_id:
            return False
        kind = next(p.kind for p in self.model.entry.params if p.name == param)
        try:
            values = parse_values(self.values_edit.text(), integer=kind == "int")
        except ValueError as error:
            self.message.setText(str(error))
            return False
        self.stop()
        self.number += 1
        self.rows = []
        self._swept = param
        self._frame_values()  # steady axes while the points come in
        options = {k: v for k, v in self.model.options.items() if v is not None}
        entry = self.model.entry
        questions, retriever, top_k = self.retrieval() if self.retrieval else ([], None, 5)
        plan = SweepPlan(
            self.model.entry_id,
            self.model.sync_text(),
            options,
            param,
            values,
            embedder=self.model.embedder if entry.uses_embedder else None,
            tokenizer=self.model.tokenizer if entry.uses_tokenizer else None,
            questions=tuple(questions),
            retriever=retriever,
            top_k=top_k,
        )
        self.plan = plan
        self._redraw()
        self.progress.setRange(0, len(values))
        self.progress.setValue(0)
        self.progress.show()
        asked = (
            f", with the retrieval of {len(questions)} questions ({retriever}, top {top_k})"
            if questions
            else ""
        )
        self.message.setText(f"Chunking at {len(values)} values of {param}{asked}…")
        self.running = True
        self.run_button.setEnabled(False)
        self.stop_button.setEnabled(True)
        # each value under the time budget of a chunking job (Edit > Preferences)
        self._runner = self.runner or pool_runner(timeout=self.time_budget())
        self._job.start(self.number, plan, self._runner)
        return True

    def stop(self) -> None:
        self._job.cancel.set()

    def _add_row(self, number: int, row: dict[str, Any]) -> None:
        if number != self.number:
            return
        if row.get("value") is None:  # the pool itself broke
            self.message.setText(f"The sweep stopped: {row['error']['message']}")
            return
        self.rows.append(row)
        self.progress.setValue(len(self.rows))
        self._redraw()

    def _finished(self, number: int) -> None:
        if number != self.number:
            return
        self.running = False
        self.run_button.setEnabled(True)
        self.stop_button.setEnabled(False)
        self.progress.hide()
        failed = [r for r in self.rows if r["error"]]
        plan = self.plan
        assert plan is not None
        text = f"{len(self.rows)} values of {plan.param}."
        if plan.questions:
            text += (
                f" Retrieval: mean of {len(plan.questions)} questions ({plan.retriever}, "
                f"top {plan.top_k})."
            )
        text += " Click a point to use its value."
        if not plan.questions:
            text += " Questions in Retrieval eval add recall and precision."
        unscored = next((r["retrieval_error"] for r in self.rows if r.get("retrieval_error")), "")
        if unscored:
            text += f" Retrieval not scored: {unscored[:120]}"
        if failed:
            first = failed[0]
            text += (
                f" {len(failed)} refused, e.g. {first['value']:g}: {first['error']['name']}: "
                f"{first['error']['message'][:120]}"
            )
        self.message.setText(text)

    def shutdown(self) -> None:
        """Stop the sweep (the window closing): its processes are killed at once."""
        self._job.cancel.set()
        close = getattr(getattr(self, "_runner", None), "close", None)
        if close is not None:
            close()
