"""The parts of a window's view a session keeps beyond the model (session_files.py): what
the editor's boundaries and the lanes dock's bars are coloured by, the compare view's
"Side by side: B in a second editor", which of the View menu's docks are open and which
of those tabbed together is in front."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from PySide6.QtWidgets import QDockWidget, QMainWindow

from chunkview.app.compare_panel import ComparePanel
from chunkview.app.document_view import DocumentView
from chunkview.app.lanes_view import LanesPanel
from chunkview.core.saved.session_file import DOCKS, ColourBy, Docks, ViewState


def _colour_by(by_reason: bool) -> ColourBy:
    return "reason" if by_reason else "kind"


class SessionView:
    """Reads and sets the view's colouring, side by side and docks; ``docks`` maps each
    name of ``session_file.DOCKS`` to its dock, ``set_aside`` gives those hidden for a
    while (step-through's), which a session keeps open."""

    def __init__(
        self,
        document_view: DocumentView,
        lanes: LanesPanel,
        compare: ComparePanel,
        docks: dict[str, QDockWidget],
        set_aside: Callable[[], Sequence[QDockWidget]] = tuple,
    ) -> None:
        missing = set(DOCKS) - set(docks)
        if missing:
            raise ValueError(f"no dock given for {', '.join(sorted(missing))}")
        self.document_view, self.lanes, self.compare = document_view, lanes, compare
        self.docks = docks
        #: the docks hidden for a while (step-through's), open all the same
        self.set_aside = set_aside

    def kept(self, view: ViewState) -> ViewState:
        """``view`` with the window's colouring, side by side and docks."""
        # a dock tabbed behind another is open all the same: its View menu entry says so
        aside = self.set_aside()
        is_open = {
            name: dock.toggleViewAction().isChecked() or dock in aside
            for name, dock in self.docks.items()
        }
        return replace(
            view,
            colour_by=_colour_by(self.document_view.editor.by_reason),
            lanes_colour_by=_colour_by(bool(self.lanes.colour_by.currentData())),
            side_by_side=self.compare.side_by_side.isChecked(),
            docks=Docks(**{name: is_open[name] for name in DOCKS}),
            front_dock=self._front(is_open),
        )

    def _front(self, is_open: dict[str, bool]) -> str | None:
        """Of the open docks tabbed with another open one, the one on view (those behind
        its tab are visible widgets all the same, with nothing of them on screen)."""
        for name, dock in self.docks.items():
            frame = dock.parentWidget()
            tabbed = frame.tabifiedDockWidgets(dock) if isinstance(frame, QMainWindow) else []
            behind = [other for other in tabbed if other.toggleViewAction().isChecked()]
            if is_open[name] and behind and not dock.visibleRegion().isEmpty():
                return name
        return None

    def apply_colouring(self, view: ViewState) -> None:
        self.document_view.set_colour_by_reason(view.colour_by == "reason")
        combo = self.lanes.colour_by
        combo.setCurrentIndex(max(combo.findData(view.lanes_colour_by == "reason"), 0))

    def apply_docks(self, docks: Docks | None, front: str | None = None) -> None:
        """Open and close the docks as ``docks`` says (None: a session saved before they
        were kept leaves them as they are), ``front`` on view among those tabbed with it."""
        if docks is None:
            return
        for name in DOCKS:
            dock = self.docks[name]
            if getattr(docks, name):
                dock.show()
            else:
                dock.hide()
        if front is not None and getattr(docks, front):
            self.docks[front].raise_()

    def apply_side_by_side(self, on: bool) -> None:
        """After layout B is set: stopping the comparison turns side by side off."""
        self.compare.side_by_side.setChecked(on)
