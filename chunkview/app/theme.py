"""Colours: a chunk palette that colour-blind users can tell apart, light and dark."""

from __future__ import annotations

import sys
from functools import cache
from typing import Literal, TypeAlias, get_args

from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QGuiApplication, QPalette, QPen
from PySide6.QtWidgets import QApplication

from chunkview.core.views.decorations import DIFF_STYLES
from chunkview.core.views.kind_colours import KIND_COLOURS, OKABE_ITO, kind_colours

#: the window's colours: follow the desktop's scheme, or always light, or always dark
ThemeMode: TypeAlias = Literal["system", "light", "dark"]
THEMES: tuple[ThemeMode, ...] = get_args(ThemeMode)

# Alternating chunk backgrounds: two clearly different hues, so neighbours never blend.
CHUNK_HUES = ["#56B4E9", "#E69F00"]
WARNING_COLOUR = "#D55E00"
SEARCH_COLOUR = "#FFD400"


def is_dark(palette: QPalette | None = None) -> bool:
    palette = palette or QApplication.palette()
    return palette.color(QPalette.ColorRole.Base).lightness() < 128


def chunk_colour(index: int, dark: bool) -> QColor:
    colour = QColor(CHUNK_HUES[index % len(CHUNK_HUES)])
    colour.setAlpha(95 if dark else 70)
    return colour


#: the colours of the chosen entry's boundary kinds, each its own (``use_entry_kinds``)
_entry_colours: dict[str, str] = {}


def use_entry_kinds(kinds: tuple[str, ...] | list[str]) -> None:
    """The chosen entry's kinds: from now on each is drawn in a colour of its own."""
    _entry_colours.clear()
    _entry_colours.update(kind_colours(kinds))


def kind_colour(kind: str) -> QColor:
    """The colour of a boundary kind: the chosen entry's own for its kinds, fixed ones for
    the common kinds, and a stable pick from the same palette for any other."""
    if kind in _entry_colours:
        return QColor(_entry_colours[kind])
    if kind in KIND_COLOURS:
        return QColor(KIND_COLOURS[kind])
    return QColor(OKABE_ITO[sum(map(ord, kind)) % len(OKABE_ITO)])


#: the least contrast of text against its background that reads (WCAG AA, body text)
READABLE_CONTRAST = 4.5


def _luminance(colour: QColor) -> float:
    """WCAG's relative luminance of an opaque colour."""

    def linear(channel: float) -> float:
        return channel / 12.92 if channel <= 0.03928 else ((channel + 0.055) / 1.055) ** 2.4

    return (
        0.2126 * linear(colour.redF())
        + 0.7152 * linear(colour.greenF())
        + 0.0722 * linear(colour.blueF())
    )


def contrast(first: QColor, second: QColor) -> float:
    """WCAG's contrast ratio of two opaque colours, 1 to 21."""
    light, dark = sorted((_luminance(first), _luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def over(colour: QColor, base: QColor) -> QColor:
    """``colour`` (translucent) painted over the opaque ``base``: what the eye sees."""
    alpha = colour.alphaF()
    return QColor.fromRgbF(
        colour.redF() * alpha + base.redF() * (1 - alpha),
        colour.greenF() * alpha + base.greenF() * (1 - alpha),
        colour.blueF() * alpha + base.blueF() * (1 - alpha),
    )


def readable_text(background: QColor, base: QColor, text: QColor) -> QColor:
    """The colour to write on ``background`` (translucent, over ``base``): ``text`` where
    it reads, else black or white, whichever stands out more (a selected chunk's strong
    tint on the dark theme is too light for its light text)."""
    return QColor.fromRgba(_readable_rgba(background.rgba(), base.rgba(), text.rgba()))


@cache
def _readable_rgba(background: int, base: int, text: int) -> int:
    """``readable_text`` on 0xAARRGGBB values: each decoration pass asks it of every
    chunk on view, for the same few tints."""
    seen = over(QColor.fromRgba(background), QColor.fromRgba(base))
    if contrast(QColor.fromRgba(text), seen) >= READABLE_CONTRAST:
        return text
    black, white = QColor("#000000"), QColor("#ffffff")
    return (black if contrast(black, seen) >= contrast(white, seen) else white).rgba()


#: the warning's vermillion as words: WARNING_COLOUR reads at about 3.4:1 on either
#: theme's window, under the 4.5:1 text needs; a darker shade on light, a lighter on dark
WARNING_TEXT = {False: "#B34700", True: "#FF8A50"}


def warning_text(dark: bool | None = None) -> str:
    """The colour of a warning's words on the window (``dark``: the theme, else the
    application's palette's)."""
    return WARNING_TEXT[is_dark() if dark is None else dark]


def hatch_colour(dark: bool) -> QColor:
    return QColor(255, 255, 255, 110) if dark else QColor(0, 0, 0, 75)


def search_colour(dark: bool) -> QColor:
    """Search hits: bright yellow under black text; on dark a paler lemon, which stands
    clear of the orange chunk tint (a dark gold would sit right beside it)."""
    return QColor("#FFF27A" if dark else SEARCH_COLOUR)


def dark_palette() -> QPalette:
    palette = QPalette()
    roles = {
        QPalette.ColorRole.Window: "#2b2d31",
        QPalette.ColorRole.WindowText: "#e6e6e6",
        QPalette.ColorRole.Base: "#1e1f22",
        QPalette.ColorRole.AlternateBase: "#2b2d31",
        QPalette.ColorRole.ToolTipBase: "#2b2d31",
        QPalette.ColorRole.ToolTipText: "#e6e6e6",
        QPalette.ColorRole.Text: "#e6e6e6",
        QPalette.ColorRole.Button: "#35373c",
        QPalette.ColorRole.ButtonText: "#e6e6e6",
        QPalette.ColorRole.BrightText: "#ff5555",
        QPalette.ColorRole.Highlight: "#3d6fb4",
        QPalette.ColorRole.HighlightedText: "#ffffff",
        QPalette.ColorRole.PlaceholderText: "#8a8a8a",
        QPalette.ColorRole.Link: "#6cb6ff",
    }
    for role, colour in roles.items():
        palette.setColor(role, QColor(colour))
    palette.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text, QColor("#777777"))
    palette.setColor(QPalette.ColorGroup.Disabled, QPalette.ColorRole.ButtonText, QColor("#777777"))
    return palette


def system_is_dark() -> bool:
    """The desktop's colour scheme (Qt 6.5+ reads it from the platform)."""
    scheme = getattr(QGuiApplication.styleHints(), "colorScheme", None)
    return scheme is not None and scheme() == Qt.ColorScheme.Dark


def application() -> QApplication:
    """The running QApplication, made if there is none yet."""
    app = QApplication.instance()
    if not isinstance(app, QApplication):
        app = QApplication(sys.argv[:1])
    return app


def apply_theme(app: QApplication, mode: bool | ThemeMode) -> None:
    """``mode``: "system" (follow the desktop), "light" or "dark" (True / False too)."""
    if isinstance(mode, bool):
        mode = "dark" if mode else "light"
    dark = mode == "dark" or (mode == "system" and system_is_dark())
    app.setStyle("Fusion")
    app.setPalette(dark_palette() if dark else app.style().standardPalette())
    # a style sheet's palette(...) is read when the sheet is set: set again, it takes
    # the new theme's colours (a note's frame, the step card, would keep the old ones)
    for widget in app.allWidgets():
        sheet = widget.styleSheet()
        if "palette(" in sheet:
            widget.setStyleSheet(sheet)


PEN_STYLES = {
    "solid": Qt.PenStyle.SolidLine,
    "dashed": Qt.PenStyle.DashLine,
    "dotted": Qt.PenStyle.DotLine,
}


def diff_colour(kind: str) -> QColor:
    """The colour of a boundary change (kept, moved, added, removed)."""
    return QColor(DIFF_STYLES[kind][0])


def diff_pen(kind: str, width: int) -> QPen:
    """The pen a boundary change is drawn with: its colour and its line style."""
    pen = QPen(diff_colour(kind), width, PEN_STYLES[DIFF_STYLES[kind][1]])
    pen.setCapStyle(Qt.PenCapStyle.FlatCap)
    return pen
