"""View › Count Tokens With: cl100k, or a user's own tokenizer file (a Hugging Face
``tokenizer.json`` or a tiktoken ``.tiktoken`` file; ``core.text.tokenizer_files``).

The choice counts the token column, the token figures of the statistics (and the
histogram of an entry sized in tokens) and the over-limit check; the file is also offered
to the chunkers that take a tokenizer (the picker's tokenizer row). Its path goes with
each request to the chunking process, which reads the file there and keeps it. The choice
is remembered between launches; a file gone since falls back to cl100k.
"""

from __future__ import annotations

import os
from collections.abc import Callable

from PySide6.QtCore import QObject, QSettings, Qt
from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QComboBox, QFileDialog, QMenu, QWidget

from chunkview.app.settings import AppSettings
from chunkview.app.worker import ChunkWorker
from chunkview.core.errors import ChunkerError
from chunkview.core.session import InspectorModel
from chunkview.core.text.tokenizer_files import tokenizer_file, tokenizer_label
from chunkview.core.text.tokens import TOKENIZERS

#: what the dialog offers
FILE_FILTER = "Tokenizer files (*.json *.tiktoken);;All files (*)"


class TokenCounter(QObject):
    """The "Count Tokens With" menu and what it sets."""

    def __init__(
        self,
        parent: QWidget,
        model: InspectorModel,
        worker: ChunkWorker,
        settings: QSettings,
        tokenizer_combo: QComboBox,
        show_status: Callable[[str], None],
    ) -> None:
        super().__init__(parent)
        self.parent_widget = parent
        self.model, self.worker = model, worker
        self.remembered = AppSettings(settings)
        self.tokenizer_combo = tokenizer_combo
        self.show_status = show_status
        self.menu = QMenu("Count &Tokens With", parent)
        group = QActionGroup(self)
        self.cl100k = QAction("&cl100k (OpenAI)", self, checkable=True)
        self.cl100k.triggered.connect(lambda: self.use(None))
        self.file_action = QAction("&Tokenizer File…", self, checkable=True)
        self.file_action.setToolTip("a tokenizer.json (Hugging Face) or a .tiktoken file")
        self.file_action.triggered.connect(self.choose_file)
        for action in (self.cl100k, self.file_action):
            group.addAction(action)
            self.menu.addAction(action)
        self.path: str | None = None
        # not read here: a large tokenizer.json would hold up the launch; the chunking
        # process reads it when it first counts (a file gone since is cl100k again)
        self.use(self.remembered.tokenizer_file(), announce=False, check=False)

    def choose_file(self) -> str | None:
        """Ask for a tokenizer file and count by it; None (cl100k kept) when cancelled
        or the file is no tokenizer."""
        start = os.path.dirname(self.path) if self.path else ""
        path, _ = QFileDialog.getOpenFileName(
            self.parent_widget, "Count Tokens With a Tokenizer File", start, FILE_FILTER
        )
        if not path:
            self._check_actions()
            return None
        return path if self.use(path) else None

    def use(self, path: str | None, announce: bool = True, check: bool = True) -> bool:
        """Count by the tokenizer file at ``path`` (None: cl100k); False, with the reason
        in the status bar, when ``check`` finds it is no tokenizer file (the counter stays
        as it was)."""
        if path is not None and check:
            try:
                tokenizer_file(path)  # read here once to refuse a bad file at once
            except ChunkerError as error:
                self.show_status(f"Not a tokenizer: {error.message}")
                self._check_actions()
                return False
        path = os.path.abspath(path) if path is not None else None
        self.path = path
        counter = path or "cl100k"
        self.remembered.set_tokenizer_file(path)
        self.worker.set_token_counter(counter)
        self._offer_to_chunkers(path)
        self._check_actions()
        self.model.set_token_counter(counter)  # the counts shown are dropped...
        result = self.model.result
        if result is not None:  # ...and counted again by the new counter
            self.worker.request_tokens(result.generation)
        if announce:
            self.show_status(f"Tokens counted with {tokenizer_label(counter)}")
        return True

    def _check_actions(self) -> None:
        self.cl100k.setChecked(self.path is None)
        self.file_action.setChecked(self.path is not None)
        label = f"&Tokenizer File ({tokenizer_label(self.path)})…" if self.path else None
        self.file_action.setText(label or "&Tokenizer File…")

    def _offer_to_chunkers(self, path: str | None) -> None:
        """The tokenizer row of the chunkers that take a tokenizer offers the file."""
        combo = self.tokenizer_combo
        index = next((i for i in range(combo.count()) if combo.itemData(i) not in TOKENIZERS), -1)
        if path is None:
            if index >= 0:
                if combo.currentIndex() == index:
                    combo.setCurrentIndex(0)
                combo.removeItem(index)
            return
        if index < 0:
            combo.addItem("", path)
            index = combo.count() - 1
        combo.setItemText(index, f"file: {tokenizer_label(path)}")
        combo.setItemData(index, path)
        combo.setItemData(index, path, Qt.ItemDataRole.ToolTipRole)
        if combo.currentIndex() == index:  # chosen already: the new file from now on
            self.model.set_tokenizer(path)
