"""The parameter panel, generated from an entry's params schema: no entry-specific code."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

from PySide6.QtCore import QEvent, QObject, QSize, Qt, Signal
from PySide6.QtGui import QKeyEvent, QWheelEvent
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QGroupBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPushButton,
    QSlider,
    QVBoxLayout,
    QWidget,
)

from chunkview.app.markup import as_rich_text
from chunkview.app.theme import WARNING_COLOUR
from chunkview.core.chunkers.entry import Param

#: a number box's frame and arrows beside its digits
NUMBER_BOX_EXTRA = 36
#: a text field's box is taken to be this wide before it is shown (its tooltip shows a
#: longer value whole)
LINE_SHOWN_WHOLE = 120
SLIDER_CAP = 8000  # sliders cover the everyday range; the number box takes any number
#: the number boxes' bounds: any number a user types goes to the port, as it would in JS
ANY_NUMBER = 1e12
#: a slider's positions: fine enough that a pixel of a wide panel is one position
SLIDER_POSITIONS = 1000
#: a size scale is logarithmic in (value - floor + SOFT_FLOOR): sizes under about this
#: many units share a small part of the track instead of the quarter a pure log gives 1..10
SOFT_FLOOR = 20
#: an arrow key or wheel notch moves this many positions; with Shift, one unit
COARSE_POSITIONS = 20
#: counts up to this many take a linear slider (lookahead sentences, a percentage)
LINEAR_UP_TO = 200


def is_size(param: Param) -> bool:
    """A size counted in the entry's unit: its slider's range follows the document."""
    return param.role is not None or param.group == "Sizes"


class SliderScale:
    """Slider positions 0..SLIDER_POSITIONS to option values floor..top and back: linear
    for small counts, else logarithmic so that the everyday sizes (tens to thousands)
    take most of the track whatever the document's length."""

    def __init__(self, floor: int, top: int) -> None:
        self.floor = floor
        self.top = max(top, floor + 1)
        self.linear = self.top - floor <= LINEAR_UP_TO
        self._span = math.log((self.top - floor + SOFT_FLOOR) / SOFT_FLOOR)

    def value(self, position: int) -> int:
        fraction = min(max(position, 0), SLIDER_POSITIONS) / SLIDER_POSITIONS
        if self.linear:
            return round(self.floor + fraction * (self.top - self.floor))
        grown = SOFT_FLOOR * math.exp(fraction * self._span) - SOFT_FLOOR
        return min(self.floor + round(grown), self.top)

    def position(self, value: float) -> int:
        value = min(max(value, self.floor), self.top)
        if self.linear:
            fraction = (value - self.floor) / (self.top - self.floor)
        else:
            fraction = math.log((value - self.floor + SOFT_FLOOR) / SOFT_FLOOR) / self._span
        return round(fraction * SLIDER_POSITIONS)


class ScaleSlider(QSlider):
    """A horizontal slider over a ``SliderScale``. Arrow keys and the wheel step by
    COARSE_POSITIONS (a few percent of the value on a log scale); with Shift, by one unit
    of the value. ``stepped`` carries the value a key or the wheel asked for."""

    stepped = Signal(int)

    def __init__(self, scale: SliderScale) -> None:
        super().__init__(Qt.Orientation.Horizontal)
        self.scale = scale
        self.setRange(0, SLIDER_POSITIONS)
        self.setSingleStep(COARSE_POSITIONS)
        self.setPageStep(SLIDER_POSITIONS // 10)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)  # no focus from the wheel alone
        #: the exact value shown in the number box (positions round it)
        self.exact = float(scale.floor)

    def step_value(self, steps: int, fine: bool) -> None:
        """Step ``steps`` times: by a unit when ``fine``, else by COARSE_POSITIONS, and
        always by at least one unit so the low end of a log scale moves too."""
        current = round(self.exact)
        if fine:
            target = current + steps
        else:
            target = self.scale.value(self.scale.position(current) + steps * COARSE_POSITIONS)
            if target == current:
                target = current + steps
        target = min(max(target, self.scale.floor), self.scale.top)
        if target != current:
            self.stepped.emit(target)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        steps = {
            Qt.Key.Key_Right: 1,
            Qt.Key.Key_Up: 1,
            Qt.Key.Key_Left: -1,
            Qt.Key.Key_Down: -1,
        }.get(Qt.Key(event.key()))
        if steps is None:
            super().keyPressEvent(event)
            return
        fine = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        self.step_value(steps, fine)
        event.accept()

    def wheelEvent(self, event: QWheelEvent) -> None:
        delta = event.angleDelta()
        notches = (delta.y() or delta.x()) // 120  # Shift turns some wheels sideways
        if not notches or not self.hasFocus():
            event.ignore()  # the panel scrolls; a passing wheel never changes an option
            return
        fine = bool(event.modifiers() & Qt.KeyboardModifier.ShiftModifier)
        self.step_value(notches, fine)
        event.accept()


class WhenResized(QObject):
    """Calls ``then`` each time ``widget`` is resized."""

    def __init__(self, widget: QWidget, then: Callable[[], None]) -> None:
        super().__init__(widget)
        self.then = then
        widget.installEventFilter(self)

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize:
            self.then()
        return False


class NumberBox(QDoubleSpinBox):
    """A number field that shows whole numbers without decimals and takes fractions and
    negatives too (JS options are numbers: the original takes 0.5 or -5 as well)."""

    def __init__(self) -> None:
        super().__init__()
        self.setDecimals(6)

    def textFromValue(self, value: float) -> str:
        return f"{value:.6f}".rstrip("0").rstrip(".")

    def sizeHint(self) -> QSize:
        """Room for seven digits (a 10 MB document's sizes), not for the range's ends (a
        dozen digits): the slider beside it takes the rest of the row."""
        hint = super().sizeHint()
        digits = self.fontMetrics().horizontalAdvance("0000000")
        return QSize(min(hint.width(), digits + NUMBER_BOX_EXTRA), hint.height())

    def minimumSizeHint(self) -> QSize:
        return self.sizeHint()


class _Field:
    """One widget row: reads and writes a JSON value."""

    def __init__(self, param: Param, on_change) -> None:
        self.param = param
        self.widget = QWidget()
        layout = QHBoxLayout(self.widget)
        layout.setContentsMargins(0, 0, 0, 0)
        kind = param.kind
        if kind == "int":
            self.spin = NumberBox()
            # the minimum stays the bottom only where it means "leave the option out"
            low = param.minimum if param.special and param.minimum is not None else -ANY_NUMBER
            self.spin.setRange(low, ANY_NUMBER)
            self.spin.setSingleStep(param.step or 1)
            self.spin.setKeyboardTracking(False)
            if param.special:
                self.spin.setSpecialValueText(param.special)
            self.slider = ScaleSlider(self._scale(None))
            self.slider.valueChanged.connect(self._slider_moved)
            self.slider.stepped.connect(self.spin.setValue)
            self.spin.valueChanged.connect(self._spin_changed)
            layout.addWidget(self.slider, 1)
            layout.addWidget(self.spin)
            self._on_change = on_change
        elif kind == "float":
            self.decimal = QDoubleSpinBox()
            self.decimal.setDecimals(3)
            self.decimal.setRange(
                param.minimum if param.minimum is not None else -1e9,
                param.maximum if param.maximum is not None else 1e9,
            )
            self.decimal.setSingleStep(param.step or 0.05)
            self.decimal.setKeyboardTracking(False)
            self.decimal.valueChanged.connect(lambda _v: on_change())
            layout.addWidget(self.decimal)
        elif kind == "bool":
            self.check = QCheckBox()
            self.check.toggled.connect(lambda _v: on_change())
            layout.addWidget(self.check)
            layout.addStretch(1)
        elif kind == "choice":
            self.combo = QComboBox()
            for choice in param.choices:
                label = (
                    choice.get("$fn", str(choice))
                    if isinstance(choice, dict)
                    else str(choice).lower()
                    if isinstance(choice, bool)
                    else str(choice)
                )
                self.combo.addItem(label, choice)
            self.combo.currentIndexChanged.connect(lambda _i: on_change())
            layout.addWidget(self.combo, 1)
        else:
            self.line = QLineEdit()
            self.line.setPlaceholderText("JSON" if kind == "json" else "")
            self.line.editingFinished.connect(on_change)
            self.line.textEdited.connect(lambda _text: self._show_whole_line())
            # whether the value fits is known once the box has its width
            self._tip_on_resize = WhenResized(self.line, self._show_whole_line)
            layout.addWidget(self.line, 1)
        self.widget.setToolTip(param.help)
        self.set(param.default)

    def mark_refused(self, error: str | None) -> None:
        """Frame a text field whose value does not parse in the warning colour, the
        reason in its tooltip, so the field at fault shows where it is typed; ``None``
        takes the frame away."""
        line = getattr(self, "line", None)
        if line is None or bool(line.property("refused")) == (error is not None):
            if line is not None and error is not None:
                line.setToolTip(as_rich_text(error))
            return
        line.setProperty("refused", error is not None)
        if error is None:
            line.setStyleSheet("")
            self._show_whole_line()
        else:
            line.setStyleSheet(
                f"QLineEdit {{ border: 2px solid {WARNING_COLOUR}; border-radius: 3px; }}"
            )
            line.setToolTip(as_rich_text(error))

    def _show_whole_line(self) -> None:
        """A text field longer than its box shows whole in its tooltip, under the
        option's help."""
        line = self.line
        if line.property("refused"):  # the tooltip says why the value is refused
            return
        text = line.text()
        room = line.contentsRect().width() - 8 if line.isVisible() else LINE_SHOWN_WHOLE
        cut = line.fontMetrics().horizontalAdvance(text) > room
        tip = f"{self.param.help}\n\n{text}" if cut and self.param.help else text if cut else ""
        line.setToolTip(as_rich_text(tip) if tip else "")

    def _scale(self, document_length: int | None) -> SliderScale:
        """The slider's scale: sizes from the floor to the document's length (in the
        entry's unit), other counts over their range up to SLIDER_CAP."""
        param = self.param
        floor = int(param.minimum if param.minimum is not None else 0)
        top = int(param.maximum if param.maximum is not None else ANY_NUMBER)
        if document_length is not None and is_size(param):
            return SliderScale(floor, min(top, max(document_length, floor + 10)))
        return SliderScale(floor, min(top, max(SLIDER_CAP, int(param.default or 0) * 4)))

    def fit_to_document(self, document_length: int) -> None:
        """Let the slider run from the floor to the document's length."""
        if self.param.kind != "int" or not is_size(self.param):
            return
        self.slider.scale = self._scale(document_length)
        self._place_slider(self.spin.value())

    def _place_slider(self, value: float) -> None:
        self.slider.exact = value
        self.slider.blockSignals(True)
        self.slider.setValue(self.slider.scale.position(value))
        self.slider.blockSignals(False)

    def _slider_moved(self, position: int) -> None:
        value = self.slider.scale.value(position)
        if self.spin.value() != value:
            self.spin.setValue(value)  # the slider keeps its position (a drag goes on)
            self.slider.exact = value

    def _spin_changed(self, value: float) -> None:
        # a value the slider gave keeps the slider where the user put it
        if self.slider.scale.value(self.slider.value()) != value:
            self._place_slider(value)
        self.slider.exact = value
        self._on_change()

    def set(self, value: Any) -> None:
        kind = self.param.kind
        for widget in self._widgets():
            widget.blockSignals(True)
        try:
            if kind == "int":
                number = float(value) if isinstance(value, (int, float)) else 0.0
                self.spin.setValue(number)
                self._place_slider(number)
            elif kind == "float":
                self.decimal.setValue(float(value or 0))
            elif kind == "bool":
                self.check.setChecked(bool(value))
            elif kind == "choice":
                index = self.combo.findData(value)
                self.combo.setCurrentIndex(max(index, 0))
            elif kind == "json":
                self.line.setText("" if value is None else json.dumps(value))
            else:  # strings show their escapes, so "\n\n" is visible and typeable
                self.line.setText("" if value is None else json.dumps(value)[1:-1])
            if kind not in ("int", "float", "bool", "choice"):
                self.line.setCursorPosition(0)  # its start in view, not its end
                self._show_whole_line()
        finally:
            for widget in self._widgets():
                widget.blockSignals(False)

    def _widgets(self) -> list[QWidget]:
        return [
            w
            for w in (
                getattr(self, n, None)
                for n in ("spin", "decimal", "slider", "check", "combo", "line")
            )
            if w
        ]

    def get(self) -> Any:
        kind = self.param.kind
        if kind == "int":
            value = self.spin.value()
            return int(value) if value.is_integer() else value
        if kind == "float":
            return self.decimal.value()
        if kind == "bool":
            return self.check.isChecked()
        if kind == "choice":
            return self.combo.currentData()
        text = self.line.text().strip()
        if kind == "json":
            if not text:
                return None
            try:
                return json.loads(text)
            except json.JSONDecodeError as exc:
                raise ValueError(f"{self.param.name}: not valid JSON ({exc.msg})") from None
        if not text:
            return None
        try:
            return json.loads(f'"{text}"')
        except json.JSONDecodeError:
            return text


class ParamsPanel(QWidget):
    """Builds the form for an entry; ``changed`` carries the options object."""

    changed = Signal(dict)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._fields: dict[str, _Field] = {}
        self._boxes: dict[str, QGroupBox] = {}
        self._rows: dict[str, tuple[QFormLayout, QWidget]] = {}
        self._params: tuple[Param, ...] = ()
        #: the document's length in the entry's unit: the size sliders' top
        self._document_length: int | None = None
        #: the values the form showed last, to tell a preset the user kept from one edited
        self._shown: dict[str, Any] | None = None
        self._layout = QVBoxLayout(self)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._body = QWidget()
        self._layout.addWidget(self._body)
        self.reset_button = QPushButton("Reset to defaults")
        self.reset_button.clicked.connect(self.reset)
        self._layout.addWidget(self.reset_button)
        self._layout.addStretch(1)

    def set_params(self, params: tuple[Param, ...], values: dict[str, Any] | None = None) -> None:
        self._params = params
        self._fields.clear()
        self._rows.clear()
        body = QWidget()
        body_layout = QVBoxLayout(body)
        body_layout.setContentsMargins(0, 0, 0, 0)
        groups: dict[str, QFormLayout] = {}
        self._boxes = {}
        for param in params:
            if param.group not in groups:
                box = QGroupBox(param.group)
                self._boxes[param.group] = box
                form = QFormLayout(box)
                form.setFieldGrowthPolicy(QFormLayout.FieldGrowthPolicy.AllNonFixedFieldsGrow)
                # long option names put their field on the next line rather than cramping it
                form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
                groups[param.group] = form
                body_layout.addWidget(box)
            field = _Field(param, self._emit)
            label = QLabel(param.name)
            label.setToolTip(param.help)
            groups[param.group].addRow(label, field.widget)
            self._fields[param.name] = field
            self._rows[param.name] = (groups[param.group], field.widget)
            if self._document_length is not None:
                field.fit_to_document(self._document_length)
        self._layout.replaceWidget(self._body, body)
        self._body.hide()  # not painted under the new form until it is deleted
        self._body.deleteLater()
        self._body = body
        if values:
            for name, value in values.items():
                if name in self._fields:
                    self._fields[name].set(value)
        self._shown = None
        self._apply_when()

    def _apply_when(self) -> None:
        values = self.all_values(strict=False)
        for param in self._params:
            # a preset that follows another option (headers by strategy) follows it only
            # while the user has not edited it
            if param.presets:
                before = param.preset_for(self._shown) if self._shown else param.default
                after = param.preset_for(values)
                if after != before and values.get(param.name) == before:
                    self._fields[param.name].set(after)
                    values[param.name] = after
        self._shown = values
        shown_groups: set[str] = set()
        for param in self._params:
            form, widget = self._rows[param.name]
            applies = param.applies(values)
            form.setRowVisible(widget, applies)
            if applies:
                shown_groups.add(param.group)
        for group, box in self._boxes.items():
            box.setVisible(group in shown_groups)  # no empty group boxes

    def all_values(self, strict: bool = True) -> dict[str, Any]:
        values = {}
        for name, field in self._fields.items():
            try:
                values[name] = field.get()
            except ValueError:
                if strict:
                    raise
                values[name] = field.param.default
        return values

    def options(self) -> dict[str, Any]:
        """The options object: applicable values that differ from the defaults, and the
        strategy-like choices always (so pasted code says what it means)."""
        values = self.all_values()
        options = {}
        for param in self._params:
            value = values[param.name]
            if not param.applies(values) or param.omitted(value):
                continue
            if value != param.default or param.name == "strategy" or param.always or param.preset:
                options[param.name] = value
        return options

    def set_value(self, name: str, value: Any) -> None:
        """Set one option as a user would (emits ``changed``)."""
        self._fields[name].set(value)
        self._emit()

    def set_values(self, options: dict[str, Any]) -> None:
        """Show ``options`` (the rest at their defaults) as a user would (emits
        ``changed``)."""
        for param in self._params:
            self._fields[param.name].set(options.get(param.name, param.default))
        self._shown = None
        self._emit()

    def fit_to_document(self, length: int) -> None:
        """The size sliders run from their floor to ``length`` (the document's length in
        the entry's unit)."""
        self._document_length = length
        for field in self._fields.values():
            field.fit_to_document(length)

    def field(self, name: str) -> _Field:
        return self._fields[name]

    def field_widget(self, name: str) -> QWidget:
        return self._fields[name].widget

    def reset(self) -> None:
        for param in self._params:
            self._fields[param.name].set(param.default)
        self._emit()

    def _mark_refused(self) -> None:
        for field in self._fields.values():
            try:
                field.get()
            except ValueError as error:
                field.mark_refused(str(error))
            else:
                field.mark_refused(None)

    def _emit(self) -> None:
        self._apply_when()
        self._mark_refused()
        try:
            self.changed.emit(self.options())
        except ValueError as error:
            self.changed.emit({"__error__": str(error)})
