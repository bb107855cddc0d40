import pytest

from chunkview.core.errors import DocumentError
from chunkview.core.io.read import load_document
from chunkview.core.model.document import (
    Document,
    kind_for_text,
    may_hold_astral,
    newline_style,
)


def test_newline_styles():
    assert newline_style("a\nb") == "\n"
    assert newline_style("a\r\nb\r\n") == "\r\n"
    assert newline_style("a\rb") == "\r"
    assert newline_style("a\r\nb\n") == "mixed"
    assert newline_style("one line") == ""


def test_unit_and_point_offsets():
    doc = Document("a😀b😀c")
    assert [doc.points_to_units(p) for p in range(6)] == [0, 1, 3, 4, 6, 7]
    assert [doc.units_to_points(u) for u in (0, 1, 3, 4, 6, 7)] == [0, 1, 2, 3, 4, 5]
    assert doc.units_to_points(2) == 1  # inside the pair: the emoji's start


@pytest.mark.parametrize(
    ("text", "astral"),
    [
        ("plain ascii " * 1000, []),
        ("déją vu " * 1000, []),  # two bytes a character: none, found without a scan
        ("\u4e00\ud800" * 3000, []),  # a lone surrogate is one UTF-16 unit
        ("é" * 5000 + "😀" + "é", [5000]),
        ("a😀" * 3000, list(range(1, 6000, 2))),
        ("😀", [0]),
    ],
)
def test_long_texts_find_their_astral_characters(text, astral):
    assert may_hold_astral(text) == bool(astral)
    doc = Document(text)
    assert doc._astral_points == astral
    assert doc.points_to_units(len(text)) == len(text.encode("utf-16-le", "surrogatepass")) // 2


def test_load_errors_name_the_file(tmp_path):
    with pytest.raises(DocumentError, match="no such file"):
        load_document(tmp_path / "absent.md")
    with pytest.raises(DocumentError, match="directory"):
        load_document(tmp_path)
    binary = tmp_path / "blob.bin"
    binary.write_bytes(b"\x89PNG\x00\x00\x01")
    with pytest.raises(DocumentError, match="binary"):
        load_document(binary)
    latin = tmp_path / "latin1.txt"
    latin.write_bytes("caf\xe9\nna\xefve".encode("latin-1"))
    with pytest.raises(DocumentError, match=r"latin1.txt: not UTF-8.*offset 3, line 1"):
        load_document(latin)


def test_load_keeps_text_exact(tmp_path):
    path = tmp_path / "notes.md"
    path.write_bytes("\ufeff# T\r\n\r\nbody 😀\r\n".encode())
    doc = load_document(path)
    assert doc.text == "# T\r\n\r\nbody 😀\r\n"
    assert doc.bom and doc.kind == "markdown" and doc.newline == "\r\n"


def test_a_pasted_readme_with_html_in_it_is_markdown():
    # a GitHub README often opens with centred HTML: still markdown, its headings say so
    readme = (
        '<p align="center"><img src="logo.png" width="120"></p>\n\n'
        "# chunkview\n\nA chunk inspector.\n\n## Install\n\n- pip install chunkview\n"
    )
    assert kind_for_text(readme) == "markdown"
    assert kind_for_text('<div class="note">\n<p>Hi</p>\n</div>') == "html"
    assert kind_for_text("<!doctype html>\n<html><body>\n# not a heading\n</body></html>") == "html"
