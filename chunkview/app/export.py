"""Export from the window: the chunks (JSON, JSON Lines, CSV, built by core.export) and
the view (a self-contained HTML page, or a PNG of the window)."""

from __future__ import annotations

import os

from PySide6.QtWidgets import QFileDialog, QMainWindow

from chunkview.core.session import InspectorModel
from chunkview.core.views.export import export_chunks
from chunkview.export_html import render_html

CHUNK_FILTERS = {
    "json": "JSON (*.json)",
    "jsonl": "JSON Lines (*.jsonl)",
    "csv": "CSV (*.csv)",
}
VIEW_FILTERS = {"html": "HTML page (*.html)", "png": "PNG image (*.png)"}


def _target(window: QMainWindow, title: str, stem: str, fmt: str, filters: dict) -> str:
    suggested = f"{stem}-chunks.{fmt}" if fmt in CHUNK_FILTERS else f"{stem}-view.{fmt}"
    path, _ = QFileDialog.getSaveFileName(window, title, suggested, filters[fmt])
    if path and not os.path.splitext(path)[1]:
        path += f".{fmt}"
    return path


def _stem(model: InspectorModel) -> str:
    return os.path.splitext(model.document.name)[0] or "chunks"


def write_text(path: str, text: str) -> None:
    with open(path, "w", encoding="utf-8", newline="") as out:
        out.write(text)


def export_chunks_to(
    window: QMainWindow, model: InspectorModel, fmt: str, path: str | None = None
) -> str | None:
    """Write the shown chunks; the path written, or None (nothing shown, or cancelled).
    Raises OSError when the file cannot be written."""
    result = model.result
    if result is None:
        return None
    path = path or _target(window, "Export the chunks", _stem(model), fmt, CHUNK_FILTERS)
    if not path:
        return None
    request = result.request
    write_text(path, export_chunks(result.layout, fmt, request.entry_id, request.options))
    return path


def export_view_to(
    window: QMainWindow, model: InspectorModel, fmt: str, path: str | None = None
) -> str | None:
    """Write the view as an HTML page or a PNG of the window; the path, or None."""
    result = model.result
    if result is None and fmt == "html":
        return None
    path = path or _target(window, "Export the view", _stem(model), fmt, VIEW_FILTERS)
    if not path:
        return None
    if fmt == "html" and result is not None:
        comparison = model.comparison()  # the boundary changes too, when comparing
        if comparison is not None and comparison.same_text:
            b = comparison.pinned.request
            page = render_html(
                result, model.document.name, comparison.diff, f"{b.entry_id} {b.options}"
            )
        else:
            page = render_html(result, model.document.name)
        write_text(path, page)
    elif not window.grab().save(path, "PNG"):
        raise OSError(f"cannot write {path}")
    return path
