"""What a user sees on screen reads: text against its background, the options a field
refuses marked where they are typed."""

from conftest import settle
from PySide6.QtCore import Qt
from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication, QFrame

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


def _warning_pixels(widget) -> int:
    """Pixels of the widget in the warning colour (its frame when refused)."""
    from PySide6.QtGui import QColor

    image = widget.grab().toImage()
    warning = QColor(theme.WARNING_COLOUR)
    return sum(
        1
        for x in range(image.width())
        for y in (0, 1, image.height() - 2, image.height() - 1)
        if abs(image.pixelColor(x, y).red() - warning.red()) < 30
        and abs(image.pixelColor(x, y).green() - warning.green()) < 30
        and abs(image.pixelColor(x, y).blue() - warning.blue()) < 30
    )


def test_a_value_that_does_not_parse_is_framed_where_it_was_typed(qtbot, window):
    """JSON typed wrong into an option's field: the field itself is framed in the warning
    colour with the reason in its tooltip, and the message says nothing ran (the chunks
    on view are the settings' before the edit); a right value takes both away."""
    from PySide6.QtCore import Qt

    window.select_entry("mastra.chunk", {"strategy": "recursive", "maxSize": 300})
    window.set_document(Document(TEXT, None, "text"))
    settle(qtbot, window)
    line = window.params.field("separators").line
    assert _warning_pixels(line) == 0
    shown = window.result.request.options
    line.setFocus()
    qtbot.keyClicks(line, '["\\n\\n", "\\n"')  # the closing bracket forgotten
    qtbot.keyClick(line, Qt.Key.Key_Return)
    qtbot.wait(50)
    message = window.error_label.text()
    assert not window.error_label.isHidden()
    assert "separators" in message and "not valid JSON" in message, message
    assert "before this edit" in message, message
    assert window.result.request.options == shown  # nothing ran
    assert _warning_pixels(line) > line.width(), "the refused field is not framed"
    assert "not valid JSON" in line.toolTip()
    line.clear()
    qtbot.keyClicks(line, '["\\n\\n", "\\n"]')
    qtbot.keyClick(line, Qt.Key.Key_Return)
    settle(qtbot, window)
    assert window.error_label.isHidden()
    assert window.result.request.options["separators"] == ["\n\n", "\n"]
    assert _warning_pixels(line) == 0
    assert "not valid JSON" not in line.toolTip()


def _cut_words(panel) -> list[str]:
    """The visible combo boxes, buttons and one-line labels in ``panel`` whose words are
    wider than the room their widget gives them."""
    from PySide6.QtWidgets import QComboBox, QLabel, QPushButton, QStyle, QStyleOptionComboBox

    cut = []
    for combo in panel.findChildren(QComboBox):
        if not combo.isVisible():
            continue
        if combo.isEditable():
            room = combo.lineEdit().width() - 4
        else:
            option = QStyleOptionComboBox()
            combo.initStyleOption(option)
            room = (
                combo.style()
                .subControlRect(
                    QStyle.ComplexControl.CC_ComboBox,
                    option,
                    QStyle.SubControl.SC_ComboBoxEditField,
                    combo,
                )
                .width()
            )
        if combo.fontMetrics().horizontalAdvance(combo.currentText()) > room:
            cut.append(combo.currentText())
    for button in panel.findChildren(QPushButton):
        if button.isVisible() and button.sizeHint().width() > button.width():
            cut.append(button.text())
    for label in panel.findChildren(QLabel):
        if label.isVisible() and not label.wordWrap() and label.text():
            if label.minimumSizeHint().width() > label.width():  # its words, rich or plain
                cut.append(label.text())
    return cut


def test_the_warnings_tabs_boxes_and_buttons_read_whole_at_1280(qtbot, window):
    """At 1280 x 800 the kind box and the token limit shared one row with Previous and
    Next: "All kinds (120)" and "no token limit" were cut to "All kinds" and "oken
    limit"."""
    from conftest import CORPUS

    window.resize(1280, 800)
    window.select_entry("mastra.chunk", {"strategy": "recursive", "maxSize": 200, "overlap": 50})
    assert window.open_path(CORPUS / "redis-readme.md")
    settle(qtbot, window)
    panel = window.tabs.warnings_panel
    window.tabs.setCurrentWidget(panel)
    qtbot.wait(50)
    assert panel.kind_box.currentText().startswith("All kinds (1")
    assert _cut_words(panel) == []
    panel.limit_box.setCurrentText("512")
    qtbot.wait(50)
    assert _cut_words(panel) == []


def test_the_audit_bar_counts_no_file_before_an_audit_and_none_in_an_empty_folder(
    qtbot, window, tmp_path
):
    """Before any audit the bar said "0 / 1 files", of a folder not chosen yet; an empty
    folder said the same."""
    panel = window.views.audit
    window.views.show_panel(panel)
    qtbot.wait(50)
    assert panel.progress.text() == ""
    panel.jobs = 1
    empty = tmp_path / "nothing here"
    empty.mkdir()
    panel.folder_edit.setText(str(empty))
    assert panel.start()
    qtbot.waitUntil(lambda: not panel.running, timeout=60000)
    assert "1 files" not in panel.progress.text()
    assert panel.progress.text() == "no files"
    (empty / "a.md").write_text("# A\n\nSome words.\n", encoding="utf-8")
    (empty / "b.md").write_text("# B\n\nMore words.\n", encoding="utf-8")
    assert panel.start()
    qtbot.waitUntil(lambda: not panel.running, timeout=60000)
    assert panel.progress.text() == "2 / 2 files"


def test_chunks_the_library_rewrote_are_said_to_be_missing_above_the_editor(qtbot, window):
    """Mastra's json strategy returns each chunk as JSON of its own, found nowhere in the
    text: the editor showed the file with no tint and no word why."""
    from conftest import CORPUS

    window.select_entry("mastra.chunk", {"strategy": "json", "maxSize": 300})
    assert window.open_path(CORPUS / "protobuf-type.json")
    settle(qtbot, window)
    spans = window.result.layout.spans
    assert all(span.located == "missing" for span in spans)
    legend = window.view.legend.text()
    assert f"{len(spans)} of {len(spans)} chunks are not in the text" in legend, legend
    window.select_entry("mastra.chunk", {"strategy": "recursive", "maxSize": 300})
    settle(qtbot, window)
    assert all(span.located != "missing" for span in window.result.layout.spans)
    assert "not in the text" not in window.view.legend.text()


def test_a_chunker_file_that_throws_is_named_by_its_file_not_its_folders(
    qtbot, window, tmp_path, registry_as_before
):
    """The failure's first line named the function by its whole path (a temporary
    folder's name and all, over three lines of the box); it names the file and the
    function, the line under it the whole path and the line that raised."""
    folder = tmp_path / "a folder with a long name" / "and another one"
    folder.mkdir(parents=True)
    path = folder / "my_chunker.py"
    path.write_text(
        "def _helper(text):\n    return text.split()[999]\n\n\n"
        "def fails(text):\n    return [_helper(text)]\n",
        encoding="utf-8",
    )
    window.set_document(Document("# Title\n\nA few words.\n", None, "markdown"))
    settle(qtbot, window)
    with qtbot.waitSignal(window.chunker_files.loaded, timeout=15000):
        assert window.chunker_files.open_file(str(path))
    settle(qtbot, window)
    message = window.error_label.text()
    headline = message.split("<br>")[0]
    assert "my_chunker.py:fails threw IndexError" in headline, message
    assert "long name" not in headline, headline
    assert "my_chunker.py, line 2, in _helper" in message
    assert str(folder) in message  # the whole path, once, where the line is
    assert window.statusBar().currentMessage() == "Opened 1 chunker from my_chunker.py"


def _strongest_contrast(widget) -> float:
    """The contrast of the widget's most distinct pixel against its commonest one (its
    background): for a label, its words' full colour."""
    from collections import Counter

    from PySide6.QtGui import QColor

    image = widget.grab().toImage()
    pixels = Counter(
        image.pixel(x, y) for x in range(0, image.width()) for y in range(0, image.height())
    )
    background = QColor.fromRgb(pixels.most_common(1)[0][0])
    return max(theme.contrast(QColor.fromRgb(p), background) for p in pixels)


def test_a_failures_words_read_on_the_window_in_both_themes(qtbot, window):
    """The failure box wrote its words in the warning vermillion, 3.4:1 on the light
    window and 3.6:1 on the dark one; its words read at 4.5:1 in both, the theme switched
    while it is shown included."""
    import re

    from conftest import CORPUS
    from PySide6.QtGui import QColor, QPalette

    window.select_entry("mastra.chunk", {"strategy": "recursive", "maxSize": 300})
    window.set_document(Document(TEXT, None, "text"))
    settle(qtbot, window)
    line = window.params.field("separators").line
    line.setText("[not json")
    line.editingFinished.emit()
    assert not window.error_label.isHidden()
    try:
        for mode in ("dark", "light", "dark"):
            window.set_theme(mode)
            qtbot.wait(50)
            ratio = _strongest_contrast(window.error_label)
            assert ratio >= theme.READABLE_CONTRAST, (mode, ratio)
        # the legend's word on chunks nowhere in the text, likewise
        window.select_entry("mastra.chunk", {"strategy": "json", "maxSize": 300})
        assert window.open_path(CORPUS / "protobuf-type.json")
        settle(qtbot, window)
        for mode in ("dark", "light"):
            window.set_theme(mode)
            qtbot.wait(50)
            legend = window.view.legend
            colour = re.search(r'color:(#\w+)">⚠', legend.text()).group(1)
            behind = legend.palette().color(QPalette.ColorRole.Window)
            assert theme.contrast(QColor(colour), behind) >= theme.READABLE_CONTRAST, mode
    finally:
        window.set_theme("light")


def test_the_inspector_gives_a_chunk_found_nowhere_no_offsets(qtbot, window):
    """A chunk found nowhere in the text read "offsets 0–0 (own text from 0)", as if it
    were an empty chunk at the start."""
    from conftest import CORPUS

    window.select_entry("mastra.chunk", {"strategy": "json", "maxSize": 300})
    assert window.open_path(CORPUS / "protobuf-type.json")
    settle(qtbot, window)
    assert window.result.layout.spans[2].located == "missing"
    window.model.select_chunk(2)
    qtbot.wait(50)
    text = window.views.inspector.toPlainText()
    assert "own text from" not in text, text[:300]
    assert "none: not in the text" in text and "last known place" in text
    window.select_entry("mastra.chunk", {"strategy": "recursive", "maxSize": 300})
    settle(qtbot, window)
    window.model.select_chunk(1)
    qtbot.wait(50)
    span = window.result.layout.spans[1]
    assert f"{span.start:,}–{span.end:,} (own text from" in window.views.inspector.toPlainText()


def test_a_script_no_installed_font_draws_is_named_above_the_editor(qtbot, window):
    """Japanese text on a machine with no Japanese font showed as rows of boxes with no
    word why; the legend names the script and a font to install while the document is
    open. Where a font is installed, nothing is said."""
    from conftest import CORPUS
    from PySide6.QtGui import QFontDatabase

    from chunkview.app import missing_fonts

    assert window.open_path(CORPUS / "mastra-chunk-reference-ja.md")
    settle(qtbot, window)
    said = window.view.legend.text()
    if QFontDatabase.families(QFontDatabase.WritingSystem.Japanese):
        assert "No font here" not in said, said
    else:
        assert "No font here draws this document" in said and "Japanese text" in said, said
        assert "fonts-noto-cjk" in said and "Chinese" not in said  # kanji are Japanese here
    assert missing_fonts.note("Plain English, nothing else.") is None
    assert missing_fonts.note("A word of Japanese: 日本語です.") is None  # a few boxes: no word
    assert window.open_path(CORPUS / "redis-readme.md")
    settle(qtbot, window)
    assert "No font here" not in window.view.legend.text()


def test_no_limit_line_is_drawn_over_another_limits_label(qtbot, window):
    """targetSize 300 beside minSize 200: the target's dashed line ran through the words
    "minSize 200"; each label lies over the other lines it reaches."""
    from PySide6.QtCore import QPointF, Qt

    window.select_entry("agentos.SemanticChunker", {"targetSize": 300, "minSize": 200})
    window.set_document(Document(TEXT, None, "text"))
    settle(qtbot, window)
    window.tabs.setCurrentWidget(window.stats)
    histogram = window.stats.histogram
    qtbot.waitUntil(lambda: len(histogram.lines) >= 2)
    qtbot.wait(50)
    scene = histogram.scene()
    crossings = 0
    for labelled in histogram.lines.values():
        box = labelled.label.sceneBoundingRect()
        for other in histogram.lines.values():
            x = other.scenePos().x()  # where the line stands
            if other is labelled or not box.left() + 2 < x < box.right() - 2:
                continue
            crossings += 1
            stack = scene.items(QPointF(x, box.center().y()), order=Qt.SortOrder.DescendingOrder)
            mine = [labelled.label, *labelled.label.childItems()]
            first_label = min(stack.index(item) for item in mine if item in stack)
            assert other not in stack or first_label < stack.index(other), (
                labelled.label.toPlainText(),
                other.label.toPlainText(),
            )
    assert crossings >= 1  # the case is there: a line through another's label


def test_the_encoding_dialog_names_the_file_it_reopens(qtbot, window, tmp_path):
    from conftest import CORPUS

    path = tmp_path / "notes-latin1.txt"
    path.write_bytes("Café crème, naïve façade.\n".encode("cp1252"))
    window.open_path(path)  # offscreen: not opened, the guess named
    settle(qtbot, window)
    assert "notes-latin1.txt" in window.error_label.text()  # the file and what happened
    assert "not UTF-8" in window.error_label.text()
    dialog = window.menus.encoding_dialog()
    qtbot.addWidget(dialog)
    assert dialog.windowTitle() == "Reopen notes-latin1.txt with encoding"
    assert window.open_path(CORPUS / "acorn-readme.md")
    settle(qtbot, window)
    other = window.menus.encoding_dialog()
    qtbot.addWidget(other)
    assert "acorn-readme.md" in other.windowTitle()


def test_a_script_with_no_font_pasted_into_a_new_document_is_named(qtbot, window, monkeypatch):
    """File › New, then Japanese pasted in: the legend named the missing font only for a
    document opened, never for text typed or pasted in, and kept naming it after that
    text was gone."""
    from chunkview.app import missing_fonts

    monkeypatch.setattr(missing_fonts, "has_font", lambda _system: False)  # a bare Linux
    assert window.files.new_document()
    settle(qtbot, window)
    assert "No font here" not in window.view.legend.text()
    window.editor.setFocus()
    window.editor.insertPlainText("これは日本語の文章です。" * 10)
    qtbot.waitUntil(lambda: "No font here" in window.view.legend.text(), timeout=10000)
    assert "Japanese text" in window.view.legend.text()
    window.editor.selectAll()
    window.editor.insertPlainText("Plain English now.")
    qtbot.waitUntil(lambda: "No font here" not in window.view.legend.text(), timeout=10000)


def test_the_step_card_and_option_notes_take_the_theme_switched_to(qtbot, window):
    """A style sheet's palette(...) colours are read when the sheet is set: the theme
    switch sets such sheets again, so the step-through card (palette(base)) and the
    option note's frame follow it instead of keeping the old theme's colours."""
    window.set_theme("light")
    window.set_document(Document(TEXT, None, "markdown"))
    settle(qtbot, window)
    window.editor.setFocus()
    qtbot.keyClick(window.editor, Qt.Key.Key_F9)
    assert window.step_through.active
    qtbot.wait(50)
    cards = [f for f in window.findChildren(QFrame) if f.objectName() == "stepCard"]
    assert cards and cards[0].isVisible(), "the step-through card"
    card = cards[0]

    def seen() -> str:
        return card.grab().toImage().pixelColor(card.width() - 3, card.height() - 3).name()

    assert seen() == QApplication.palette().color(QPalette.ColorRole.Base).name()
    window.set_theme("dark")
    qtbot.wait(20)
    dark_base = QApplication.palette().color(QPalette.ColorRole.Base).name()
    assert dark_base != "#ffffff" and seen() == dark_base
    note = window.chunker.note_label
    assert "palette(mid)" in note.styleSheet()  # set again, not rewritten
    window.set_theme("light")
    qtbot.keyClick(window.step_through, Qt.Key.Key_Escape)
