"""What a user sees on screen reads: text against its background, the options a field
refuses marked where they are typed."""

from conftest import settle

from chunkview.app import theme
from chunkview.core.model.document import Document

TEXT = "\n\n".join(f"Paragraph {n}: " + "words of a sentence. " * 12 for n in range(12))


def _chunk_formats(editor):
    """Each painted chunk run's (background, text colour or None), by chunk index."""
    painted = {}
    for selection in editor.extraSelections():
        fmt = selection.format
        index = fmt.property(fmt.Property.UserProperty)
        if index is not None:
            written = fmt.hasProperty(fmt.Property.ForegroundBrush)
            painted[index] = (
                fmt.background().color(),
                fmt.foreground().color() if written else None,
            )
    return painted


def _seen_contrast(editor, painted):
    from PySide6.QtGui import QPalette

    background, text = painted
    palette = editor.palette()
    base = palette.color(QPalette.ColorRole.Base)
    text = text or palette.color(QPalette.ColorRole.Text)
    return theme.contrast(text, theme.over(background, base))


def test_every_chunk_tint_reads_in_both_themes_the_selected_one_included(qtbot, window):
    """The selected chunk's strong tint on the dark theme is a light orange or blue: its
    light text read at about 2:1 before; every tint reads at 4.5:1 (WCAG AA)."""
    window.select_entry("agentos.SemanticChunker", {"targetSize": 300, "overlap": 40})
    window.set_document(Document(TEXT, None, "text"))
    settle(qtbot, window)
    try:
        for mode in ("dark", "light"):
            window.set_theme(mode)
            for selected in (0, 1):
                window.model.select_chunk(selected)
                qtbot.waitUntil(lambda s=selected: window.editor._selected == s)
                qtbot.wait(50)
                formats = _chunk_formats(window.editor)
                assert {0, 1} <= set(formats)
                for index, fmt in formats.items():
                    ratio = _seen_contrast(window.editor, fmt)
                    assert ratio >= theme.READABLE_CONTRAST, (mode, selected, index, ratio)
    finally:
        window.set_theme("light")


def test_contrast_is_wcags_ratio():
    from PySide6.QtGui import QColor

    assert round(theme.contrast(QColor("#000000"), QColor("#ffffff")), 1) == 21.0
    assert theme.contrast(QColor("#777777"), QColor("#777777")) == 1.0
    half = theme.over(QColor(255, 255, 255, 128), QColor("#000000"))
    assert abs(half.red() - 128) <= 1
