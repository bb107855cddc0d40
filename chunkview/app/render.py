"""``chunkview render``: the inspector's view, headless, to a PNG or an HTML page."""

from __future__ import annotations

import os
import sys
import time
from typing import Any

from chunkview.core.errors import ChunkerError, DocumentError
from chunkview.core.io.read import load_document
from chunkview.core.runtime.pipeline import ChunkRequest


def render_file(
    path: str,
    entry_id: str,
    options: dict[str, Any] | None,
    query: str,
    out: str,
    dark: bool = False,
) -> int:
    try:
        document = load_document(path)
    except DocumentError as error:
        print(f"chunkview: {error}", file=sys.stderr)
        return 1
    if out.lower().endswith(".html"):
        from chunkview.core.runtime import ChunkService
        from chunkview.export_html import render_html

        request = ChunkRequest(0, entry_id, document, options or {}, query, explain=True)
        try:  # in a chunking process, under the watchdog, as everywhere else
            with ChunkService() as service:
                result = service.run(request)
        except ChunkerError as error:
            print(f"chunkview: {entry_id} threw {error.name}: {error.message}", file=sys.stderr)
            return 1
        with open(out, "w", encoding="utf-8") as handle:
            handle.write(render_html(result, document.name))
        return 0
    if not out.lower().endswith(".png"):
        print("chunkview: --out must end in .png or .html", file=sys.stderr)
        return 2
    return _render_png(document, entry_id, options or {}, query, out, dark)


def _render_png(document, entry_id, options, query, out, dark) -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QCoreApplication, QSettings, qInstallMessageHandler

    from chunkview.app import theme
    from chunkview.app.main_window import MainWindow

    previous_handler = qInstallMessageHandler(_quiet_offscreen)
    app = theme.application()
    theme.apply_theme(app, dark)
    settings = QSettings(
        os.path.join(os.path.dirname(os.path.abspath(out)), ".chunkview-render.ini"),
        QSettings.Format.IniFormat,
    )
    window = MainWindow(settings)
    try:
        window.select_entry(entry_id, options)
        window.set_document(document)
        window.search_box.setText(query)
        window.resize(1400, 860)
        window.show()
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            QCoreApplication.processEvents()
            if (
                not window._debounce.isActive()
                and window.shown_generation == window.generation
                and (window.result is None or window.result.tokens is not None)
            ):
                break
            time.sleep(0.01)
        for _ in range(20):
            QCoreApplication.processEvents()
            time.sleep(0.005)
        if window.shown_generation != window.generation:
            print("chunkview: the layout did not finish in time", file=sys.stderr)
            return 1
        if not window.grab().save(out):
            print(f"chunkview: cannot write {out}", file=sys.stderr)
            return 1
        if not window.error_label.isHidden():
            print(f"chunkview: {plain_error(window.error_label.text())}", file=sys.stderr)
            return 1
        return 0
    finally:
        window.worker.stop()
        window.deleteLater()
        if os.path.exists(settings.fileName()):
            os.remove(settings.fileName())
        qInstallMessageHandler(previous_handler)


def _quiet_offscreen(mode, context, message: str) -> None:
    """Qt's messages, less the offscreen plugin's note that it cannot size windows."""
    if "propagateSizeHints" not in message:
        print(message, file=sys.stderr)


def plain_error(rich: str) -> str:
    """The window's error label as one line of plain text (it is rich text there, with a
    note about the last good layout that a one-off render has no use for)."""
    from PySide6.QtGui import QTextDocumentFragment

    lines = QTextDocumentFragment.fromHtml(rich).toPlainText().splitlines()
    kept = [line.strip() for line in lines if line.strip() and "last good run" not in line]
    return ": ".join(kept)
