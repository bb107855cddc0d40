"""Ctrl+wheel over a view asks for a zoom of every view together (presentation.py)."""

from __future__ import annotations

from PySide6.QtCore import Qt, SignalInstance
from PySide6.QtGui import QWheelEvent


def zoom_by_wheel(event: QWheelEvent, zoom_asked: SignalInstance) -> bool:
    """Emit ``zoom_asked`` (+1 or -1) for a Ctrl+wheel turn and take the event; False for
    any other wheel event, which the view scrolls by as usual."""
    if not event.modifiers() & Qt.KeyboardModifier.ControlModifier:
        return False
    turned = event.angleDelta().y()
    if turned:
        zoom_asked.emit(1 if turned > 0 else -1)
    event.accept()
    return True
