"""The application icon: the PNG sizes rendered from resources/icons/chunkview.svg."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QIcon

ICONS = Path(__file__).resolve().parent.parent / "resources" / "icons"
SIZES = (16, 24, 32, 48, 64, 128, 256, 512)


def app_icon() -> QIcon:
    """Every size, so each place that shows the icon picks a sharp one."""
    icon = QIcon()
    for size in SIZES:
        icon.addFile(str(ICONS / f"chunkview-{size}.png"))
    return icon
