"""A file that is not UTF-8: the guesses prefer cp1252 / Latin-1 where the bytes allow it,
and keep the encodings the bytes point to (Cyrillic, Greek, Czech, Japanese)."""

import pytest

from chunkview.core.io.read import NotTextError, decode_text, likely_encodings, preview_line

WESTERN = ("cp1252", "latin_1")


@pytest.mark.parametrize(
    "text",
    [
        "déjà Señor\n",
        "Déjà vu, Señor! Café crème à la française. Ein schönes Mädchen aus Köln.\n",
        "Ça coûte 10 € — «très» cher.\n",
    ],
)
def test_latin_text_is_guessed_as_cp1252_or_latin_1(text):
    data = text.encode("cp1252")
    assert likely_encodings(data)[0] in WESTERN
    with pytest.raises(NotTextError) as raised:
        decode_text(data, "f.txt")
    assert raised.value.guess in WESTERN
    assert data.decode(raised.value.guess) == text


@pytest.mark.parametrize(
    "text, encoding",
    [
        ("Привет, как дела? Это тестовый текст на русском языке.\n", "cp1251"),
        ("Příliš žluťoučký kůň úpěl ďábelské ódy. Zażółć gęślą jaźń.\n", "cp1250"),
        ("Καλημέρα κόσμε, αυτό είναι ένα κείμενο.\n", "cp1253"),
        ("こんにちは世界、これはテストです。\n", "shift_jis"),
    ],
)
def test_other_scripts_keep_their_guess(text, encoding):
    guess = likely_encodings(text.encode(encoding))[0]
    assert guess not in WESTERN
    assert text.encode(encoding).decode(guess) == text


def test_preview_line_shows_the_text_each_candidate_makes():
    data = b"plain first line\n" + "déjà Señor\n".encode("latin-1")
    assert preview_line(data, "cp1252") == "déjà Señor"
    assert preview_line(data, "cp1257") == "déją Seńor"  # the misreading
    assert preview_line(data, "utf-8") == "d\ufffdj\ufffd Se\ufffdor"
    assert preview_line(data, "no-such-codec") == ""


def test_the_encoding_dialog_previews_each_candidate(qtbot, window, tmp_path):
    from conftest import settle

    path = tmp_path / "latin.txt"
    path.write_bytes("Title\n\nDéjà vu, Señor! Café crème.\n".encode("latin-1"))
    window.open_path(path)  # offscreen: not opened, the guess named
    settle(qtbot, window)
    dialog = window.menus.encoding_dialog()
    qtbot.addWidget(dialog)
    previews = {
        dialog.table.item(row, 0).text(): dialog.table.item(row, 1).text()
        for row in range(dialog.table.rowCount())
    }
    assert dialog.names[0] in WESTERN and dialog.encoding() == dialog.names[0]
    assert previews[dialog.names[0]] == "Déjà vu, Señor! Café crème."
    assert "\ufffd" in previews["utf-8"]  # the line as UTF-8 shows what is wrong
    dialog.other.setText("cp1257")
    assert dialog.other_preview.text() == "Déją vu, Seńor! Café crčme."
    assert dialog.encoding() == "cp1257"
    dialog.other.clear()
    dialog.accept()
    assert window.menus.reopen(dialog.encoding())
    settle(qtbot, window)
    assert "Señor" in window.document.text
