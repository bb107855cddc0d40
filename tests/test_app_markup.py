"""Text from the document or the file system is shown as written on every rich-text
surface: the editor's hover tooltip, the status bar, labels, message boxes, list tips,
the Search tab's rows.
And a check over chunkview/app/ that no tooltip, label or message is built from an
f-string of unescaped values, so future code cannot bring markup back in."""

from __future__ import annotations

import ast
from pathlib import Path

from conftest import settle
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QTextDocument
from PySide6.QtGui import Qt as GuiQt

from chunkview.app.hit_rows import snippet_html
from chunkview.app.markup import as_rich_text
from chunkview.core.model.document import Document
from chunkview.core.model.spans import Span
from chunkview.core.views.snippet import HitSnippet, SnippetPart

APP = Path(__file__).resolve().parent.parent / "chunkview" / "app"
MARKUP = "## Sub <b>BOLD</b> <img src=x>"


def shown_text(rich: str) -> str:
    """What Qt draws for ``rich`` taken as rich text: its plain text."""
    document = QTextDocument()
    document.setHtml(rich)
    return document.toPlainText().replace("\u2028", "\n")


def test_the_tooltip_shows_chunk_metadata_exactly(window):
    metadata = {
        "header": MARKUP,
        "script": "before </script> after",
        "amp": "&lt; is < and &amp; is &",
        "<key>": "two  spaces",
    }
    span = Span(0, 0, 5, 0, "<i>kind</i>", "hello", "exact", metadata)
    tip = window.editor.tooltip_for(span)
    assert GuiQt.mightBeRichText(tip)  # drawn as rich text, as QToolTip will
    lines = shown_text(tip).split("\n")
    assert lines[0] == "chunk 0 · <i>kind</i>"
    for key, value in metadata.items():
        assert f"{key}: {value}" in lines


def test_the_tooltip_of_a_real_heading_with_markup(qtbot, window):
    window.select_entry("mastra.chunk", {"strategy": "markdown", "maxSize": 60})
    text = f"# Top\n\nIntro.\n\n{MARKUP}\n\nBody with </script> in it.\n"
    window.set_document(Document(text, None, "markdown"))
    settle(qtbot, window)
    spans = window.result.layout.spans
    assert any(MARKUP.lstrip("# ") in str(s.metadata) for s in spans), spans
    for span in spans:
        lines = shown_text(window.editor.tooltip_for(span)).split("\n")
        for key, value in list(span.metadata.items())[:6]:
            assert f"{key}: {str(value)[:80]}" in lines


def test_a_file_name_with_markup_is_shown_as_written(qtbot, window, tmp_path):
    name = "<b>bold<b> <img src=x> &amp;.md"  # no "/": a file name cannot hold one
    path = tmp_path / name
    path.write_text("# Notes\n", encoding="utf-8")
    assert window.open_path(path)
    label = window.status_doc
    assert label.textFormat() == Qt.TextFormat.PlainText
    assert label.text().startswith(f"{name} · markdown")
    assert window.status_line.run_label.textFormat() == Qt.TextFormat.PlainText
    assert name in window.windowTitle()  # a window title is never rich text


def test_as_rich_text_shows_each_character_as_written():
    for text in (MARKUP, "a & b", "&amp; < >", "</script>", "line\nbreak", "x"):
        rich = as_rich_text(text)
        assert GuiQt.mightBeRichText(rich) and shown_text(rich) == text


def test_a_search_rows_snippet_shows_each_character_as_written():
    marked = SnippetPart("<b>bold", True)
    for text in (MARKUP, "a & b", "&amp; < >", "</script>", "x"):
        snippet = HitSnippet((SnippetPart(text, False), marked, SnippetPart(text, False)), 0, 1)
        rich = snippet_html(snippet, QColor("#FFD400"), QColor("#000000"))
        assert shown_text(rich) == snippet.text == f"{text}<b>bold{text}"


# ----- the check over the app's code ------------------------------------------------------

#: calls that show their text argument where Qt may take it as rich text
RICH_SINKS = {"setToolTip", "setText", "showText", "setInformativeText", "setHtml"}
#: QMessageBox's static functions: their third argument is the text
BOXES = {"question", "warning", "information", "critical"}
#: calls whose text is always plain (QStatusBar draws a message as plain text; titles,
#: detailed texts and placeholders are never rich)
PLAIN_SINKS = {"showMessage", "setWindowTitle", "setDetailedText", "setPlaceholderText"}
#: what makes a value safe inside rich text
ESCAPES = {"escape", "html.escape", "as_rich_text", "len"}
#: values reviewed as safe where they are (file, value): why
ALLOWED = {
    # HTML the app builds itself, its pieces escaped where they are made
    ("compare_panel.py", "legend_html()"): "the app's own legend",
    ("compare_panel.py", "legend_html(diff.counts)"): "the app's own legend, counts",
    ("compare_panel.py", "diff.summary()"): "counts in words",
    ("compare_panel.py", "count"): "an int",
    ("compare_panel.py", "'s' if count != 1 else ''"): "a fixed plural",
    ("compare_panel.py", "at + 1"): "an int",
    ("chunker_panel.py", "diff.summary()"): "counts in words",
    ("lanes_view.py", "plural"): "a fixed plural",
    ("lanes_view.py", "more"): "a fixed phrase and a formatted count",
    ("document_view.py", "title"): "a fixed title with a link",
    ("document_view.py", "swatches"): "kinds escaped where joined",
    ("document_view.py", "overlap"): "a fixed phrase",
    ("document_view.py", "compared"): "fixed labels and counts",
    ("document_view.py", "missing"): "counts and a fixed phrase",
    ("document_view.py", "fonts"): "a fixed phrase, escaped where it is made",
    ("step_through.py", "colour.name()"): "a colour's #rrggbb",
    ("step_through.py", "_ink(colour)"): "a colour's #rrggbb",
    ("step_through.py", "self.index"): "an int",
    ("step_through.py", "index + 1"): "an int",
    ("editor.py", "tokens"): "a count built above",
    ("editor.py", "size"): "an int",
    ("editor.py", "span.index"): "an int",
    ("editor.py", "span.start"): "an int",
    ("editor.py", "span.end"): "an int",
    ("editor.py", "span.own_start - span.start"): "an int",
    ("editor.py", "self._result.tokens[span.index]"): "an int",
    ("editor.py", "label"): "a fixed label",
    ("chunk_table.py", "label"): "a fixed label",
    ("files.py", "shown"): "the NUL stand-in, one of NUL_STAND_INS",
    ("files.py", "encoding or 'UTF-8'"): "an encoding the app offered",
    ("views.py", "title.lower()"): "a panel's fixed title",
}


def _plain_receivers(tree: ast.AST) -> set[str]:
    """What a file sets to plain text (``x.setTextFormat(Qt.TextFormat.PlainText)``)."""
    return {
        ast.unparse(node.func.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "setTextFormat"
        and node.args
        and ast.unparse(node.args[0]).endswith("PlainText")
    }


def _unescaped(expression: ast.AST) -> list[str]:
    """The values of the f-strings in ``expression`` that are neither escaped nor
    formatted as numbers (a format spec), outside any escaping call."""
    if isinstance(expression, ast.Call) and ast.unparse(expression.func) in ESCAPES:
        return []
    if isinstance(expression, ast.FormattedValue):
        if expression.format_spec is not None or _unescaped(expression.value) == []:
            return []
        return [ast.unparse(expression.value)]
    if isinstance(expression, ast.JoinedStr):
        return [v for part in expression.values for v in _unescaped(part)]
    if isinstance(expression, (ast.Name, ast.Attribute, ast.Subscript, ast.Call)):
        return [ast.unparse(expression)]
    return [v for child in ast.iter_child_nodes(expression) for v in _unescaped(child)]


def _shown_texts(tree: ast.AST) -> list[tuple[ast.AST, ast.AST, str | None]]:
    """(node, the text shown, its receiver) for each rich sink's text, and each f-string
    in a function making a tool tip."""
    found: list[tuple[ast.AST, ast.AST, str | None]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            name, receiver = node.func.attr, ast.unparse(node.func.value)
            if name in RICH_SINKS and node.args:
                found.append((node, node.args[-1 if name == "showText" else 0], receiver))
            elif name in BOXES and receiver == "QMessageBox" and len(node.args) > 2:
                found.append((node, node.args[2], None))
        elif isinstance(node, ast.FunctionDef) and "tooltip" in node.name:
            found.extend(
                (sub, sub, None) for sub in ast.walk(node) if isinstance(sub, ast.JoinedStr)
            )
    return found


def _bare_values(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    plain = _plain_receivers(tree)
    problems = []
    for node, text, receiver in _shown_texts(tree):
        if receiver in plain or not any(isinstance(n, ast.JoinedStr) for n in ast.walk(text)):
            continue  # a plain-text label, or no f-string (a name is checked where built)
        values = _unescaped(text) if isinstance(text, ast.JoinedStr) else [
            v for sub in ast.walk(text) if isinstance(sub, ast.JoinedStr)
            for v in _unescaped(sub)
        ]  # fmt: skip
        if isinstance(text, ast.Call) and ast.unparse(text.func) in ESCAPES:
            values = []
        for value in values:
            if (path.name, value) not in ALLOWED:
                problems.append(f"{path.name}:{node.lineno}: {value}")
    return problems


def test_no_label_or_tooltip_is_built_from_unescaped_values():
    problems = [p for path in sorted(APP.glob("*.py")) for p in _bare_values(path)]
    assert problems == [], (
        "escape these (chunkview.app.markup.escape), or set the widget to plain text "
        "(Qt.TextFormat.PlainText), or add them to ALLOWED with the reason they are safe:\n"
        + "\n".join(problems)
    )


def test_the_check_finds_a_bare_value(tmp_path):
    code = tmp_path / "bad.py"
    code.write_text(
        "label.setText(f'<b>{document.name}</b>')\n"
        "label.setToolTip(f'{escape(document.name)} {count:,}')\n"
        "plain.setTextFormat(Qt.TextFormat.PlainText)\n"
        "plain.setText(f'{document.name}')\n"
        "QMessageBox.question(window, 'Title', f'{path} is read-only')\n"
        "QMessageBox.question(window, 'Title', as_rich_text(f'{path} is read-only'))\n"
        "def make_tooltip(span):\n"
        "    return f'{span.kind}'\n",
        encoding="utf-8",
    )
    assert sorted(_bare_values(code)) == [
        "bad.py:1: document.name",
        "bad.py:5: path",
        "bad.py:8: span.kind",
    ]
