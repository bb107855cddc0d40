"""The chunk table's columns: their short header labels and whole meanings, which of
them a user shows (the header's context menu, remembered in QSettings; those the table
has no room for are marked there), and the default set for the narrow panel."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QMenu, QWidget

from chunkview.app.markup import as_rich_text


@dataclass(frozen=True)
class Column:
    #: the column's name: how the code, the tests and the settings name it
    name: str
    #: the header's text, short: the panel is narrow
    label: str
    #: what the column holds, the header's tooltip
    meaning: str
    #: its cells are numbers (right-aligned, sized to their digits)
    numeric: bool
    #: shown whatever a user chooses (a row must say which chunk it is, and where)
    always: bool = False


TABLE_COLUMNS = (
    Column("#", "#", "the chunk's number, from 0", numeric=True, always=True),
    Column(
        "kind",
        "kind",
        "the boundary kind the chunk starts with, in its colour in the editor",
        numeric=False,
    ),
    Column("start", "start", "where the chunk starts (code points)", numeric=True, always=True),
    Column("end", "end", "where the chunk ends (code points)", numeric=True),
    Column("chars", "chars", "the chunk's length in code points", numeric=True),
    Column("bytes", "bytes", "the chunk's length in UTF-8 bytes", numeric=True),
    Column(
        "tokens",
        "tok",
        "the chunk's length in {counter} tokens (View › Count Tokens With chooses the tokenizer)",
        numeric=True,
    ),
    Column(
        "placed",
        "=",
        "how the chunk's text was found in the document: = exactly, ≈ after normalizing "
        "(the library rewrote white space or joins), ✗ not found",
        numeric=False,
    ),
    Column(
        "first words",
        "first words",
        "the chunk's first words (a row's tooltip has them whole)",
        numeric=False,
    ),
)
#: a column shown by choice but left out for room: its menu entry's mark and tooltip
NO_ROOM = " (no room)"
NO_ROOM_TIP = "Left out while the table is too narrow for it: it comes back when it is wider"
COLUMNS = tuple(column.name for column in TABLE_COLUMNS)
BY_NAME = {column.name: column for column in TABLE_COLUMNS}


def header_tooltip(column: Column, counter: str = "cl100k") -> str:
    """The whole name and meaning of ``column``, for its header's tooltip (rich text: a
    tokenizer file's name is shown as it is)."""
    return as_rich_text(column.name + ": " + column.meaning.format(counter=counter))


def shown_by_default(name: str, size_unit: str) -> bool:
    """The columns a first start shows: all but the UTF-8 bytes, unless the chunker
    counts its sizes in them (the narrow panel has room for one size besides the tokens)."""
    return name != "bytes" or size_unit == "bytes"


class ColumnChoices(QObject):
    """Which columns a user chose to show or hide; a column never chosen follows
    ``shown_by_default``. ``chosen`` carries the choices to keep (name -> shown)."""

    chosen = Signal(dict)
    #: the columns to show changed
    changed = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._choices: dict[str, bool] = {}
        self.size_unit = "chars"

    def restore(self, choices: Mapping[str, object]) -> None:
        """Choices as kept (unknown names and columns always shown are left out)."""
        self._choices = {
            name: shown
            for name, shown in choices.items()
            if name in BY_NAME and not BY_NAME[name].always and isinstance(shown, bool)
        }
        self.changed.emit()

    def choices(self) -> dict[str, bool]:
        return dict(self._choices)

    def shown(self, name: str) -> bool:
        if BY_NAME[name].always:
            return True
        return self._choices.get(name, shown_by_default(name, self.size_unit))

    def choose(self, name: str, shown: bool) -> None:
        if BY_NAME[name].always or self.shown(name) == shown:
            return
        self._choices[name] = shown
        self.chosen.emit(self.choices())
        self.changed.emit()

    def reset(self) -> None:
        """Back to the default set."""
        self._choices = {}
        self.chosen.emit({})
        self.changed.emit()

    def set_size_unit(self, unit: str) -> None:
        """The unit the chunker on view counts sizes in (the defaults follow it)."""
        if unit != self.size_unit:
            self.size_unit = unit
            self.changed.emit()

    def menu(
        self, parent: QWidget, only: Iterable[str] | None = None, no_room: Iterable[str] = ()
    ) -> QMenu:
        """A menu of the columns, each checked when shown; those always shown are checked
        and disabled, and so are those ``only`` leaves out (presentation mode's). Those
        in ``no_room``, shown by choice but left out while the table is too narrow for
        them, say so."""
        allowed = set(only) if only is not None else set(COLUMNS)
        crowded = set(no_room)
        menu = QMenu(parent)
        menu.setToolTipsVisible(True)
        for column in TABLE_COLUMNS:
            text = column.name if column.label == column.name else f"{column.name} ({column.label})"
            meaning = column.meaning.format(counter="cl100k or a file's")
            if column.name in crowded:
                text += NO_ROOM
                meaning = f"{meaning}. {NO_ROOM_TIP}"
            action = QAction(text, menu)
            action.setCheckable(True)
            action.setChecked(self.shown(column.name))
            # one left out for room can still be hidden by choice (it stays checked)
            action.setEnabled(not column.always and column.name in allowed)
            action.setToolTip(meaning)
            action.setData(column.name)
            action.toggled.connect(
                lambda shown, name=column.name: self.choose(name, shown)  # type: ignore[misc]
            )
            menu.addAction(action)
        menu.addSeparator()
        reset = menu.addAction("Default Columns")
        reset.setToolTip("Show the columns a first start shows")
        reset.setEnabled(bool(self._choices))
        reset.triggered.connect(self.reset)
        return menu
