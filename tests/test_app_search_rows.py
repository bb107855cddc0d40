"""The Search tab's rows: the query's words marked in each snippet (the editor's matching),
snippets of whole words with "…" where the chunk goes on, the hit in sight, text shown as
written, and marks that read on the dark theme. Real window, real worker and chunking
process; the rows' rich text is what the delegate painted."""

from __future__ import annotations

import regex
from conftest import settle
from PySide6.QtGui import QColor, QPalette, QTextDocument, QTextFormat

from chunkview.app import theme
from chunkview.core.model.document import Document
from chunkview.core.views.decorations import matching_words
from chunkview.core.views.snippet import ELLIPSIS

WORD_CHAR = regex.compile(r"[\p{L}\p{N}\p{M}]")
WORDS = (
    "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike "
    "november oscar papa quebec romeo sierra tango uniform victor whiskey xray yankee zulu "
)


def search(qtbot, window, text: str, query: str, entry: str, options: dict) -> list:
    window.select_entry(entry, options)
    window.set_document(Document(text, None, "text"))
    settle(qtbot, window)
    window.search_box.setText(query)
    qtbot.waitUntil(lambda: not window.searcher.running and window.model.query == query)
    window.tabs.setCurrentWidget(window.hits)
    qtbot.waitUntil(lambda: window.hits.isVisible())
    return window.searcher.hits


def painted_rows(qtbot, window) -> dict:
    """Each row on view as the delegate painted it: its snippet and rich text."""
    delegate = window.hits.itemDelegate()
    delegate.painted.clear()
    window.hits.viewport().repaint()
    qtbot.waitUntil(lambda: bool(delegate.painted))
    rows = window.hits.rows
    return {
        row: delegate.painted[rows.item(row)]
        for row in range(rows.rowCount())
        if rows.item(row) in delegate.painted
    }


def marked_spans(rich: str) -> tuple[str, list[tuple[str, QColor, QColor]]]:
    """The plain text Qt draws for ``rich`` and its runs on a background: (text, background,
    foreground) each."""
    document = QTextDocument()
    document.setHtml(rich)
    marks = []
    block = document.begin()
    while block.isValid():
        it = block.begin()
        while not it.atEnd():
            fragment = it.fragment()
            fmt = fragment.charFormat()
            if fmt.hasProperty(QTextFormat.Property.BackgroundBrush):
                marks.append((fragment.text(), fmt.background().color(), fmt.foreground().color()))
            it += 1
        block = block.next()
    return document.toPlainText(), marks


def test_each_row_marks_exactly_the_words_the_editor_marks(qtbot, window):
    text = (
        "# One\n\nApples grow on trees; an applecart of apples.\n\n# Two\n\n"
        "Pears and apple pie, no pineapple.\n\n# Three\n\nNothing here.\n"
    )
    hits = search(
        qtbot, window, text, "apple", "agentos.SemanticChunker",
        {"targetSize": 10, "minSize": 0, "overlap": 0},
    )  # fmt: skip
    assert [h.chunk for h in hits] == [0, 1]
    rows = painted_rows(qtbot, window)
    assert set(rows) == {0, 1}
    for row in rows:
        hit, snippet = window.hits.rows.item(row), rows[row].snippet
        shown, marks = marked_spans(rows[row].html)
        assert shown == snippet.text
        expected = [text[a:b] for a, b in matching_words(text, "apple", snippet.start, snippet.end)]
        assert [m[0] for m in marks] == expected == snippet.hit_words()
        assert text[hit.at : hit.at + 5].lower() == "apple" and expected
    assert marked_spans(rows[0].html)[1][0][0] == "Apples"  # whole words, "pineapple" not one
    assert [m[0] for m in marked_spans(rows[1].html)[1]] == ["apple"]


def test_snippets_start_and_end_between_words_with_an_ellipsis(qtbot, window):
    # separators [""]: every chunk starts and ends inside a word, its overlap cut there
    text = WORDS * 6
    search(
        qtbot, window, text, "quebec", "mastra.chunk",
        {"strategy": "recursive", "maxSize": 90, "overlap": 17, "separators": [""]},
    )  # fmt: skip
    spans = window.result.layout.spans
    assert any(WORD_CHAR.match(text, s.start - 1) and s.start > 0 for s in spans)
    rows = painted_rows(qtbot, window)
    assert len(rows) >= 3
    for row, painted in rows.items():
        hit, snippet = window.hits.rows.item(row), painted.snippet
        span = spans[hit.chunk]
        shown = snippet.text
        assert "quebec" in snippet.hit_words()
        # the window's edges fall between words, and "…" says where the chunk goes on
        for edge in (snippet.start, snippet.end):
            assert not (WORD_CHAR.match(text, edge - 1) and WORD_CHAR.match(text, edge))
        cut_word = span.start > 0 and not text[span.start - 1].isspace()
        assert shown.startswith(ELLIPSIS) == (snippet.start > span.start or cut_word)
        assert shown.endswith(ELLIPSIS) == (snippet.end < span.end)
        # the row's text fits its width, and in a narrow pane too: the hit is in sight
        metrics = window.hits.fontMetrics()
        assert metrics.horizontalAdvance(shown) <= painted.room
        narrow = window.hits.itemDelegate().fitted_snippet(hit, 150, metrics)
        assert "quebec" in narrow.hit_words() and metrics.horizontalAdvance(narrow.text) <= 150
        assert shown.strip(ELLIPSIS) == " ".join(text[snippet.start : snippet.end].split())
        # the hit's word is near the middle of what is shown, where the chunk has text
        # enough on both sides
        if snippet.start - span.start > 30 and span.end - snippet.end > 30:
            middle = shown.index("quebec") + 3
            assert abs(middle - len(shown) / 2) < len(shown) / 4, shown


def test_a_hit_at_the_chunks_end_is_inside_its_snippet(qtbot, window):
    filler = "lorem ipsum dolor sit amet " * 30
    text = f"{filler}zebra.\n"
    hits = search(
        qtbot, window, text, "zebra", "agentos.SemanticChunker",
        {"targetSize": 2000, "minSize": 0, "overlap": 0},
    )  # fmt: skip
    assert len(hits) == 1
    span = window.result.layout.spans[hits[0].chunk]
    assert span.end - hits[0].at < 10 and hits[0].at - span.start > 500  # far in, at the end
    rows = painted_rows(qtbot, window)
    shown, marks = marked_spans(rows[0].html)
    assert [m[0] for m in marks] == ["zebra"]
    assert shown.startswith(ELLIPSIS) and shown.endswith("zebra.")


def test_markup_in_the_text_or_the_query_shows_as_typed(qtbot, window):
    text = "A <b>bold</b> & <i>x</i> &amp;\n"
    query = "<b>bold"
    hits = search(
        qtbot, window, text, query, "agentos.SemanticChunker",
        {"targetSize": 2000, "minSize": 0, "overlap": 0},
    )  # fmt: skip
    assert hits
    rows = painted_rows(qtbot, window)
    shown, marks = marked_spans(rows[0].html)
    assert shown == "A <b>bold</b> & <i>x</i> &amp;"
    # the query's words are "b" and "bold": every word starting with either is marked
    snippet = rows[0].snippet
    expected = [text[a:b] for a, b in matching_words(text, query, snippet.start, snippet.end)]
    assert [m[0] for m in marks] == expected and "bold" in expected


def test_marks_and_words_read_on_the_dark_theme(qtbot, window):
    try:
        for mode in ("dark", "light"):
            window.set_theme(mode)
            search(
                qtbot, window, "Apples and pears.\n\nMore apples here.\n", "apple",
                "agentos.SemanticChunker", {"targetSize": 10, "minSize": 0, "overlap": 0},
            )  # fmt: skip
            rows = painted_rows(qtbot, window)
            palette = window.hits.palette()
            base = palette.color(QPalette.ColorRole.Base)
            assert theme.is_dark(palette) == (mode == "dark")
            for painted in rows.values():
                _shown, marks = marked_spans(painted.html)
                assert marks
                for _word, background, foreground in marks:
                    assert background == theme.search_colour(mode == "dark")
                    ratio = theme.contrast(foreground, background)
                    assert ratio >= theme.READABLE_CONTRAST, (mode, ratio)
            words = palette.color(QPalette.ColorRole.Text)
            assert theme.contrast(words, base) >= theme.READABLE_CONTRAST
    finally:
        window.set_theme("light")
