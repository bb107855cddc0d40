"""What the window promises about a file (README, "What chunkview promises"): nothing is
written without Save, and Save gives back the file's encoding, byte-order mark and
newlines byte for byte. Real files, the real window."""

import pytest
from conftest import settle


@pytest.mark.parametrize(
    "data",
    [
        b"\xef\xbb\xbf# Title\r\n\r\nA line.\r\n",  # UTF-8 with a BOM, CRLF
        b"# Title\r\rA line.\r",  # classic Mac newlines
        "\ufeff# Titre\n\nÉté.\n".encode("utf-16-le"),  # UTF-16 with its BOM
        b"# Title\n\nNo newline at the end",
    ],
    ids=["utf8-bom-crlf", "cr", "utf16-bom", "no-final-newline"],
)
def test_save_gives_the_file_back_byte_for_byte(qtbot, window, tmp_path, data):
    path = tmp_path / "doc.md"
    path.write_bytes(data)
    assert window.open_path(path)
    settle(qtbot, window)
    assert window.save()
    assert path.read_bytes() == data


def test_nothing_is_written_without_save(qtbot, window, tmp_path):
    path = tmp_path / "doc.md"
    path.write_bytes(b"# Title\n\nSome text to chunk.\n")
    before = path.stat()
    assert window.open_path(path)
    settle(qtbot, window)
    window.editor.moveCursor(window.editor.textCursor().MoveOperation.End)
    window.editor.insertPlainText("An edit, never saved.\n")
    window.params.set_value("targetSize", 123)
    settle(qtbot, window)
    window.close()  # offscreen: unsaved edits are let go without a question
    after = path.stat()
    assert path.read_bytes() == b"# Title\n\nSome text to chunk.\n"
    assert (after.st_mtime_ns, after.st_ino) == (before.st_mtime_ns, before.st_ino)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["doc.md", "settings.ini"]
