"""What the window remembers between launches, kept in QSettings.

Window geometry and state, the splitter, the chosen entry and each entry's options, the
last document, the recent files (absolute paths; ones that no longer exist are dropped),
the chunker files opened, the tokenizer file counting tokens, the last folder audited,
the theme, whether white space is shown and the chunk table's columns a user chose.
Values that are not plain strings are stored as JSON, so every QSettings backend gives
them back with the same types.
"""

from __future__ import annotations

import json
import os
from typing import Any

from PySide6.QtCore import QByteArray, QRect, QSettings
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import QMainWindow, QSplitter

from chunkview.app.theme import THEMES, ThemeMode

MAX_RECENT = 8
#: the window's first size, before the screen has a say
DEFAULT_SIZE = (1400, 860)
#: a sample document is remembered by name, with this prefix
SAMPLE_PREFIX = "sample:"


def is_sample_name(name: str) -> bool:
    """True for a plain file name, as a sample is remembered: a name with a path
    separator or a parent step (a settings file edited to reach outside the samples)
    is refused."""
    separators = {"/", "\\", os.sep, os.altsep or "/"}
    return bool(name) and name not in (".", "..") and not any(c in name for c in separators)


class AppSettings:
    def __init__(self, settings: QSettings) -> None:
        self.qsettings = settings

    # ----- JSON values ----------------------------------------------------------------
    def _get(self, key: str, default: Any) -> Any:
        raw = self.qsettings.value(key)
        if raw is None:
            return default
        try:
            return json.loads(str(raw))
        except json.JSONDecodeError:
            return default

    def _set(self, key: str, value: Any) -> None:
        self.qsettings.setValue(key, json.dumps(value, ensure_ascii=False))

    # ----- the last folder audited ---------------------------------------------------
    def audit_folder(self) -> tuple[str, str]:
        """The folder and the file globs of the last audit ("" when none)."""
        stored = self._get("audit", {})
        if not isinstance(stored, dict):
            return "", ""
        return str(stored.get("folder") or ""), str(stored.get("files") or "")

    def remember_audit(self, folder: str, files: str) -> None:
        self._set("audit", {"folder": folder, "files": files})

    # ----- recent files ----------------------------------------------------------------
    def recent_files(self) -> list[str]:
        """The recent files that still exist, newest first (dead ones are forgotten)."""
        stored = self._get("recent", [])
        if not isinstance(stored, list):
            stored = []
        alive = [p for p in stored if isinstance(p, str) and os.path.isfile(p)]
        if alive != stored:
            self._set("recent", alive)
        return alive

    def remember_file(self, path: str | os.PathLike[str]) -> list[str]:
        absolute = os.path.abspath(os.fspath(path))
        recent = [p for p in self.recent_files() if p != absolute]
        recent = [absolute, *recent][:MAX_RECENT]
        self._set("recent", recent)
        return recent

    # ----- the session ----------------------------------------------------------------
    def last_document(self) -> str | None:
        """An absolute path, or ``sample:NAME``; None when there is none or it is gone."""
        value = self._get("document", None)
        if not isinstance(value, str):
            return None
        if value.startswith(SAMPLE_PREFIX):
            return value if is_sample_name(value[len(SAMPLE_PREFIX) :]) else None
        return value if os.path.isfile(value) else None

    def set_last_document(self, path: str | None, sample: bool = False) -> None:
        if path is None:
            self.qsettings.remove("document")
        elif sample:
            self._set("document", SAMPLE_PREFIX + os.path.basename(path))
        else:
            self._set("document", os.path.abspath(path))

    def last_entry(self) -> str | None:
        value = self._get("entry", None)
        return value if isinstance(value, str) else None

    def set_last_entry(self, entry_id: str) -> None:
        self._set("entry", entry_id)

    def entry_options(self) -> dict[str, dict[str, Any]]:
        """Each entry's options as the user left them (entry id -> options object)."""
        value = self._get("options", {})
        if not isinstance(value, dict):
            return {}
        return {k: v for k, v in value.items() if isinstance(v, dict)}

    def set_entry_options(self, options: dict[str, dict[str, Any]]) -> None:
        try:
            self._set("options", options)
        except (TypeError, ValueError):  # a Python callable as an option: keep the JSON ones
            self._set(
                "options",
                {k: v for k, v in options.items() if _is_json(v)},
            )

    def chunker_files(self) -> list[str]:
        """The chunker files opened (File > Open Chunker…), as stored: absolute paths,
        in the order opened (the caller leaves out and forgets the ones gone)."""
        stored = self._get("chunkerFiles", [])
        if not isinstance(stored, list):
            return []
        return [p for p in stored if isinstance(p, str) and os.path.isabs(p)]

    def set_chunker_files(self, paths: list[str]) -> None:
        self._set("chunkerFiles", [os.path.abspath(p) for p in paths])

    def tokenizer_file(self) -> str | None:
        """The tokenizer file the chunks' tokens are counted by (View > Count Tokens
        With); None for cl100k, or when the file is gone."""
        value = self._get("tokenizerFile", None)
        return value if isinstance(value, str) and os.path.isfile(value) else None

    def set_tokenizer_file(self, path: str | None) -> None:
        if path is None:
            self.qsettings.remove("tokenizerFile")
        else:
            self._set("tokenizerFile", os.path.abspath(path))

    def theme(self) -> ThemeMode:
        value = self._get("theme", None)
        if value in THEMES:
            return value
        # before themes had names, a "dark" flag was kept
        return "dark" if str(self.qsettings.value("dark", "false")).lower() == "true" else "system"

    def set_theme(self, theme: ThemeMode) -> None:
        self._set("theme", theme)

    def show_white_space(self) -> bool:
        return self._get("whiteSpace", False) is True

    def set_show_white_space(self, shown: bool) -> None:
        self._set("whiteSpace", bool(shown))

    def zoom(self) -> int:
        """Zoom steps of the editor and the result views (0: actual size)."""
        value = self._get("zoom", 0)
        return value if isinstance(value, int) and not isinstance(value, bool) else 0

    def set_zoom(self, steps: int) -> None:
        self._set("zoom", int(steps))

    def table_columns(self) -> dict[str, bool]:
        """The chunk table's columns a user chose to show (True) or hide (False), by
        name; the columns never chosen are not in it."""
        value = self._get("tableColumns", {})
        if not isinstance(value, dict):
            return {}
        return {k: v for k, v in value.items() if isinstance(k, str) and isinstance(v, bool)}

    def set_table_columns(self, choices: dict[str, bool]) -> None:
        self._set("tableColumns", choices)

    # ----- the window -----------------------------------------------------------------
    def save_window(self, window: QMainWindow, splitter: QSplitter) -> None:
        self.qsettings.setValue("window/geometry", window.saveGeometry())
        self.qsettings.setValue("window/state", window.saveState())
        self.qsettings.setValue("window/splitter", splitter.saveState())

    def restore_window(self, window: QMainWindow, splitter: QSplitter) -> None:
        """Geometry, state and splitter as they were, then made to fit the screen."""
        geometry = self.qsettings.value("window/geometry")
        if not (isinstance(geometry, QByteArray) and window.restoreGeometry(geometry)):
            window.resize(*DEFAULT_SIZE)
        state = self.qsettings.value("window/state")
        if isinstance(state, QByteArray):
            window.restoreState(state)
        sizes = self.qsettings.value("window/splitter")
        if isinstance(sizes, QByteArray):
            splitter.restoreState(sizes)
        fit_to_screen(window)


def _is_json(value: Any) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True


def fit_to_screen(window: QMainWindow) -> None:
    """Shrink the window to the screen's available area and move it fully onto it (a
    window sized for another screen, or a high scale factor, would hang off the edge)."""
    screen = window.screen() or QGuiApplication.primaryScreen()
    if screen is None:
        return
    available: QRect = screen.availableGeometry()
    frame = window.frameGeometry()
    extra_w = max(frame.width() - window.width(), 0)
    extra_h = max(frame.height() - window.height(), 0)
    width = min(window.width(), available.width() - extra_w)
    height = min(window.height(), available.height() - extra_h)
    if (width, height) != (window.width(), window.height()):
        window.resize(max(width, 200), max(height, 200))
    frame = window.frameGeometry()
    x = min(max(frame.x(), available.left()), available.right() - frame.width() + 1)
    y = min(max(frame.y(), available.top()), available.bottom() - frame.height() + 1)
    if (x, y) != (frame.x(), frame.y()):
        window.move(x, y)
