"""The core's function and library entries in the real window (offscreen): chosen by id
as any entry is, laid out, and a user's exception shown with its file and line. (Opening
a chunker file from the menu and watching it is the window's own part.)"""

import pytest
from conftest import settle

from chunkview.core.model.document import Document
from chunkview.core.plugins import libraries

TEXT = "# Title\n\nA first paragraph here.\n\n## Part\n\nSecond part, with words.\n"

MINE = """\
def paragraphs(text, max_chars: int = 200):
    return [p[:max_chars] for p in text.split("\\n\\n")]


def fails(text):
    return [1 / 0]
"""


def test_a_function_entry_is_laid_out_and_its_error_names_the_line(qtbot, window, tmp_path):
    mine = tmp_path / "mine.py"
    mine.write_text(MINE, encoding="utf-8")
    window.set_document(Document(TEXT, None, "markdown"))
    window.select_entry(f"{mine}:paragraphs", {"max_chars": 10})
    settle(qtbot, window)
    assert [s.text for s in window.result.layout.spans][:2] == ["# Title", "A first pa"]
    assert window.error_label.isHidden()
    window.select_entry(f"{mine}:fails", {})
    settle(qtbot, window)
    assert not window.error_label.isHidden()
    assert "mine.py, line 6, in fails" in window.error_label.text()


@pytest.mark.skipif(not libraries.installed("langchain"), reason="langchain is not installed")
def test_a_library_entry_is_laid_out(qtbot, window):
    window.set_document(Document(TEXT * 20, None, "markdown"))
    window.select_entry(
        "langchain.RecursiveCharacterTextSplitter", {"chunk_size": 120, "chunk_overlap": 20}
    )
    settle(qtbot, window)
    spans = list(window.result.layout.spans)
    assert len(spans) > 5 and all(s.located == "exact" for s in spans)
