"""The Warnings tab: warnings grouped by kind, with counts and previous / next."""

from __future__ import annotations

from collections import Counter

from PySide6.QtCore import QModelIndex, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QHBoxLayout,
    QLabel,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from chunkview.app.lists import RowsModel, RowsView
from chunkview.core.checks import parse_token_limit
from chunkview.core.checks.context import embedded_prefix
from chunkview.core.checks.over_limit import over_limit
from chunkview.core.model.spans import Warning
from chunkview.core.runtime.pipeline import ChunkResult
from chunkview.core.session import InspectorModel, ModelEvent
from chunkview.core.text.tokenizer_files import tokenizer_label
from chunkview.core.text.tokens import count_many

ALL = ""
#: the token limits offered (common embedding models'); any number can be typed
LIMITS = ("no token limit", "256", "512", "8191")


class WarningsPanel(QWidget):
    #: a row asks to show a place in the document (code points)
    show_position = Signal(int)
    #: how many warnings there are now (the layout's and the token limit's)
    counted = Signal(int)

    def __init__(self, model: InspectorModel) -> None:
        super().__init__()
        self.model = model
        self._warnings: list[Warning] = []
        self._shown: list[Warning] = []
        self._result: ChunkResult | None = None
        self.limit_box = QComboBox()
        self.limit_box.setEditable(True)
        self.limit_box.addItems(LIMITS)
        self.limit_box.setToolTip(
            "An embedding model's token limit: chunks over it (in the tokens of View > "
            "Count Tokens With: cl100k or your tokenizer file) are warned "
            "about, as the model would cut them. Type any number."
        )
        self.limit_box.currentTextChanged.connect(self._limit_changed)
        self.kind_box = QComboBox()
        self.kind_box.setToolTip("Show one kind of warning")
        self.kind_box.currentIndexChanged.connect(self._fill)
        self.previous_button = QPushButton("◀ Previous")
        self.next_button = QPushButton("Next ▶")
        self.previous_button.setToolTip("Go to the previous warning of this kind")
        self.next_button.setToolTip("Go to the next warning of this kind")
        self.previous_button.clicked.connect(lambda: self.step(forward=False))
        self.next_button.clicked.connect(lambda: self.step(forward=True))
        # a lazy list: rows are formatted when painted, handed to the view in batches
        self.list = RowsView(RowsModel(lambda w: f"⚠ {w.message}", lambda w: w.message))
        self.list.activated.connect(self._clicked)
        self.list.clicked.connect(self._clicked)
        # the kind and its Previous / Next on one row, the token limit, named, on the
        # next: on one row, at 1280 px wide, both boxes' words were cut
        self.limit_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        bar = QHBoxLayout()
        bar.addWidget(self.kind_box, 1)
        bar.addWidget(self.previous_button)
        bar.addWidget(self.next_button)
        limit_row = QHBoxLayout()
        limit_label = QLabel("Embedding model's token limit:")
        limit_label.setBuddy(self.limit_box)
        limit_label.setToolTip(self.limit_box.toolTip())
        limit_row.addWidget(limit_label)
        limit_row.addWidget(self.limit_box)
        limit_row.addStretch(1)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 4, 0, 0)
        layout.addLayout(bar)
        layout.addLayout(limit_row)
        layout.addWidget(self.list)
        model.subscribe(ModelEvent.RESULT, self.show_result)
        model.subscribe(ModelEvent.TOKENS, lambda _tokens: self._refill())
        model.subscribe(ModelEvent.DETAILS, lambda _result: self._refill())  # sent after the layout
        self._set_enabled()

    # ----- filling ------------------------------------------------------------------
    def token_limit(self) -> int | None:
        """The chosen limit; None when off or not a number yet."""
        text = self.limit_box.currentText().strip()
        if text == LIMITS[0]:
            return None
        try:
            return parse_token_limit(text)
        except ValueError:
            return None

    def _limit_changed(self, _text: str) -> None:
        if self._result is not None:
            self._refill()

    def _refill(self) -> None:
        if self._result is not None:
            self.show_result(self._result)

    def show_result(self, result: ChunkResult) -> None:
        self._result = result
        if not result.layout.complete:  # its warnings follow it: keep the list till then
            return
        self._warnings = list(result.layout.warnings)
        limit = self.token_limit()
        if limit is not None and result.tokens is not None:
            # counted for the chunk table anyway, by cl100k or the user's tokenizer file
            counts, counter = result.tokens, self.model.token_counter
            prefix = embedded_prefix(result.request.options)
            if prefix:  # embedded in front of each chunk though not in its text
                counts = count_many([prefix + s.text for s in result.layout.spans], counter)
            extra = over_limit(result.layout.spans, counts, limit, tokenizer_label(counter))
            self._warnings = sorted([*self._warnings, *extra], key=lambda w: (w.start, w.end))
        per_kind = Counter(w.kind for w in self._warnings)
        chosen = self.kind()
        self.kind_box.blockSignals(True)
        self.kind_box.clear()
        self.kind_box.addItem(f"All kinds ({len(self._warnings)})", ALL)
        for kind, count in sorted(per_kind.items(), key=lambda item: (-item[1], item[0])):
            self.kind_box.addItem(f"{kind} ({count})", kind)
        index = self.kind_box.findData(chosen)
        self.kind_box.setCurrentIndex(max(index, 0))
        self.kind_box.blockSignals(False)
        self._fill()
        self.counted.emit(len(self._warnings))

    def kind(self) -> str:
        return self.kind_box.currentData() or ALL

    def counts(self) -> dict[str, int]:
        """Warnings per kind in the shown layout."""
        return dict(Counter(w.kind for w in self._warnings))

    def shown(self) -> list[Warning]:
        return list(self._shown)

    def _fill(self) -> None:
        kind = self.kind()
        chosen = [w for w in self._warnings if not kind or w.kind == kind]
        self._shown = chosen
        self.list.rows.set_items(chosen)
        self._set_enabled()

    def _set_enabled(self) -> None:
        for button in (self.previous_button, self.next_button):
            button.setEnabled(bool(self._shown))

    # ----- going to one ---------------------------------------------------------------
    def step(self, forward: bool = True) -> Warning | None:
        """Select and show the next (previous) warning of the chosen kind, wrapping."""
        if not self._shown:
            return None
        row = self.list.currentIndex().row()
        if row < 0:
            row = 0 if forward else len(self._shown) - 1
        else:
            row = (row + (1 if forward else -1)) % len(self._shown)
        rows = self.list.rows
        while rows.rowCount() <= row and rows.canFetchMore():
            rows.fetchMore()  # the view holds the rows up to it first
        self.list.setCurrentIndex(rows.index(row))
        self._go(self._shown[row])
        return self._shown[row]

    def _clicked(self, index: QModelIndex) -> None:
        self._go(self._shown[index.row()])

    def _go(self, warning: Warning) -> None:
        if warning.chunk is not None:
            self.model.select_chunk(warning.chunk)
        self.show_position.emit(warning.start)
