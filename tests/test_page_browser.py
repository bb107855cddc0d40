"""The interactive page in a real browser engine (headless Chromium): the chunks it draws
for a value are those ``chunkview spans`` gives, the slider follows the keys and the URL."""

import json
import os
from pathlib import Path

import pytest

from chunkview.commands import page as page_command
from chunkview.commands import spans as spans_command
from chunkview.core.analysis.compare import compare_boundaries
from tests.browser import chromium, missing_browser

GUIDE = Path(__file__).parent.parent / "chunkview" / "resources" / "samples" / "guide.md"
OPTIONS = '{"strategy": "recursive"}'

#: each chunk element's index and own text's place, in chunk order, once the value is
#: drawn whole (the blocks off screen are drawn in idle time)
CHUNKS_JS = """async () => { await window.chunkview.drawn();
  return Array.from(document.querySelectorAll('[data-chunk-start]'))
  .map(el => [Number(el.dataset.i), Number(el.dataset.chunkStart), Number(el.dataset.chunkEnd)])
  .sort((a, b) => a[0] - b[0]); }"""

#: the text the page shows (labels aside), once drawn whole
DRAWN_TEXT_JS = """async () => { await window.chunkview.drawn();
  const pre = document.querySelector('#doc').cloneNode(true);
  pre.querySelectorAll('.lb').forEach(el => el.remove()); return pre.textContent; }"""

#: each chunk's own text as the page shows it (its pieces in every block, joined)
OWN_TEXTS_JS = """async () => { await window.chunkview.drawn(); const texts = [];
  document.querySelectorAll('.ck').forEach(el => {
    texts[el.dataset.i] = (texts[el.dataset.i] || '') + el.textContent; });
  return texts; }"""


def wait_drawn(page, value: str) -> None:
    """Until the page has drawn ``value`` whole."""
    page.wait_for_function(f"document.body.dataset.drawn === {json.dumps(value)}")


@pytest.fixture(scope="module")
def browser():
    reason = missing_browser()
    if reason is not None:
        if os.environ.get("CI"):
            pytest.fail(f"the browser tests must run in CI: {reason}")
        pytest.skip(reason)
    with chromium() as running:
        yield running


def write_page(path: Path, source: Path, values: str, capsys) -> str:
    argv = [str(source), "--entry", "mastra.chunk", "--options", OPTIONS]
    argv += ["--param", "maxSize", f"--values={values}", "--out", str(path)]
    assert page_command.main(argv) == 0
    capsys.readouterr()
    return path.as_uri()


def layout_of(source: Path, value: int, capsys) -> dict:
    """``chunkview spans``' layout at maxSize ``value``."""
    options = json.dumps({"strategy": "recursive", "maxSize": value})
    assert spans_command.main(["mastra.chunk", str(source), "--options", options]) == 0
    return json.loads(capsys.readouterr().out)


def spans_of(source: Path, value: int, capsys) -> list[list[int]]:
    """``chunkview spans``' chunks at maxSize ``value``: index, own_start, end."""
    spans = layout_of(source, value, capsys)["spans"]
    return [[s["index"], s["own_start"], s["end"]] for s in spans]


def boundaries(source: Path, value: int, capsys) -> list[int]:
    """The boundaries compare.py reads: the distinct own starts of the placed chunks."""
    spans = layout_of(source, value, capsys)["spans"]
    return sorted({s["own_start"] for s in spans if s["located"] != "missing"})


@pytest.fixture(scope="module")
def guide_page(tmp_path_factory):
    return tmp_path_factory.mktemp("page") / "guide.html"


def test_the_chunks_at_a_value_are_those_of_chunkview_spans(browser, tmp_path, capsys):
    url = write_page(tmp_path / "guide.html", GUIDE, "300:1500:300", capsys)
    seen = []
    for value in (300, 900, 1500):
        page = browser.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error, errors=errors: errors.append(str(error)))
        page.goto(f"{url}#maxSize={value}")
        chunks = page.evaluate(CHUNKS_JS)
        assert chunks == spans_of(GUIDE, value, capsys)
        assert page.text_content("#value") == str(value)
        assert page.text_content("#count") == str(len(chunks))
        assert not errors
        seen.append(chunks)
        page.close()
    assert seen[0] != seen[1] != seen[2]  # the values differ, so the test tells them apart


def test_arrow_keys_move_the_slider_and_the_hash_follows(browser, tmp_path, capsys):
    url = write_page(tmp_path / "guide.html", GUIDE, "300:1500:300", capsys)
    page = browser.new_page()
    page.goto(f"{url}#maxSize=600")
    assert page.evaluate(CHUNKS_JS) == spans_of(GUIDE, 600, capsys)
    page.keyboard.press("ArrowRight")
    assert page.evaluate("location.hash") == "#maxSize=900"
    assert page.evaluate(CHUNKS_JS) == spans_of(GUIDE, 900, capsys)
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("location.hash") == "#maxSize=300"
    assert page.evaluate(CHUNKS_JS) == spans_of(GUIDE, 300, capsys)
    assert page.input_value("#slider") == "0"
    # the ends hold: no value before the first
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("location.hash") == "#maxSize=300"
    # a link that changes only the hash moves the slider too
    page.evaluate("location.hash = '#maxSize=1500'")
    page.wait_for_function("document.querySelector('#value').textContent === '1500'")
    assert page.evaluate(CHUNKS_JS) == spans_of(GUIDE, 1500, capsys)
    # the slider itself, focused, moves by the keys as well
    page.focus("#slider")
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("location.hash") == "#maxSize=1200"
    page.close()


def test_astral_characters_are_counted_in_code_points(browser, tmp_path, capsys):
    source = tmp_path / "emoji.md"
    lines = [f"Line {i}: a face 😀, a clef 𝄞 and 🇫🇷 flags, then café.\n" for i in range(60)]
    source.write_text("# Emoji 🎉\n\n" + "".join(lines), encoding="utf-8")
    text = source.read_text(encoding="utf-8")
    url = write_page(tmp_path / "emoji.html", source, "250,400", capsys)
    page = browser.new_page()
    for value in (250, 400):
        page.goto(f"{url}#maxSize={value}")
        chunks = page.evaluate(CHUNKS_JS)
        assert chunks == spans_of(source, value, capsys)
        # a chunk running over a block of the page goes on in a span of its own
        own_texts = page.evaluate(OWN_TEXTS_JS)
        assert own_texts == [text[start:end] for _i, start, end in chunks]
        assert page.locator(".ck").count() > len(chunks)  # one ran over a block's end
        # the whole text is drawn once, the labels aside
        assert page.evaluate(DRAWN_TEXT_JS) == text
    page.close()


def test_hover_card_and_a_failed_value(browser, tmp_path, capsys):
    url = write_page(tmp_path / "guide.html", GUIDE, "-5,600", capsys)
    page = browser.new_page()
    page.goto(f"{url}#maxSize=-5")
    assert "maxSize = -5 failed" in page.text_content("#failure")
    assert "Number must be greater than 0" in page.text_content("#failure")
    assert page.text_content("#count") == "failed"
    assert page.evaluate(DRAWN_TEXT_JS) == GUIDE.read_text(encoding="utf-8")
    page.keyboard.press("ArrowRight")
    assert page.is_hidden("#failure")
    wait_drawn(page, "600")
    chunk = page.locator('[data-i="2"]')
    chunk.hover()
    card = page.text_content("#card")
    assert page.is_visible("#card")
    assert "#2" in card and "units" in card and "recursive" in card
    assert "maxSize: 600" in page.text_content("#code")
    settings = json.loads(page.text_content("#settings"))
    assert settings == {"strategy": "recursive", "maxSize": 600}
    page.close()


def test_copy_as_code_copies_the_value_shown(browser, tmp_path, capsys):
    url = write_page(tmp_path / "guide.html", GUIDE, "300,600", capsys)
    context = browser.new_context()
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto(f"{url}#maxSize=600")
    page.click("#copy")
    page.wait_for_function("document.querySelector('#copy').textContent === 'Copied'")
    copied = page.evaluate("navigator.clipboard.readText()")
    assert copied == page.text_content("#code") and "maxSize: 600" in copied
    context.close()


def test_compare_marks_each_change_from_b(browser, tmp_path, capsys):
    out = tmp_path / "compare.html"
    argv = [str(GUIDE), "--entry", "mastra.chunk", "--options", OPTIONS, "--param", "maxSize"]
    argv += ["--values", "300,900", "--out", str(out)]
    argv += ["--options-b", '{"strategy": "recursive", "maxSize": 600}']
    assert page_command.main(argv) == 0
    capsys.readouterr()
    b = boundaries(GUIDE, 600, capsys)
    length = len(GUIDE.read_text(encoding="utf-8"))
    page = browser.new_page()
    for value in (300, 900):
        page.goto(f"{out.as_uri()}#maxSize={value}")
        diff = compare_boundaries(boundaries(GUIDE, value, capsys), b, length)
        wait_drawn(page, str(value))
        for kind, count in diff.counts.items():
            assert page.locator(f"#doc .df.{kind}").count() == count, kind
        assert page.text_content("#b-summary") == diff.summary()
        assert diff.counts["kept"] and len(diff.changes) > diff.counts["kept"]
    # B's marks can be hidden; the chunks stay
    chunks = page.evaluate(CHUNKS_JS)
    # which blocks hold a mark of B, and each block's first node
    page.evaluate(
        """() => { window.before = Array.from(document.querySelectorAll('.blk'))
          .map(el => [el.firstChild, el.querySelector('.df') !== null]); }"""
    )
    page.uncheck("#show-b")
    assert page.evaluate(CHUNKS_JS) == chunks
    assert page.locator("#doc .df").count() == 0
    # a block whose HTML did not change keeps its nodes; one that held a mark is redrawn
    kept = page.evaluate(
        """() => Array.from(document.querySelectorAll('.blk'))
          .map((el, b) => [el.firstChild === window.before[b][0], window.before[b][1]])"""
    )
    assert [same for same, _marked in kept] == [not marked for _same, marked in kept]
    assert any(same for same, _marked in kept) and not all(same for same, _marked in kept)
    page.close()


def test_a_crlf_text_is_shown_as_it_is_with_each_cr_marked(browser, tmp_path, capsys):
    source = tmp_path / "crlf.md"
    guide = GUIDE.read_text(encoding="utf-8")
    # CRLF line ends, and a few lone CRs (old Mac line ends) among them
    text = guide.replace("\n", "\r\n").replace(".\r\n", ".\r", 3)
    assert "\r\n" in text and text.replace("\r\n", "").count("\r") >= 1
    source.write_bytes(text.encode("utf-8"))
    assert source.read_bytes().decode("utf-8") == text
    url = write_page(tmp_path / "crlf.html", source, "300,900", capsys)
    page = browser.new_page()
    for value in (300, 900):
        page.goto(f"{url}#maxSize={value}")
        chunks = page.evaluate(CHUNKS_JS)
        assert chunks == spans_of(source, value, capsys)
        # the browser keeps every CR: each chunk's text, and the whole, are the document's
        own_texts = page.evaluate(OWN_TEXTS_JS)
        assert own_texts == [text[start:end] for _i, start, end in chunks]
        assert page.evaluate(DRAWN_TEXT_JS) == text
    # each CR is marked, as the inspector marks it (in a box), and a lone CR breaks its line
    assert page.locator("#doc .cr").count() == text.count("\r")
    mark = page.evaluate("getComputedStyle(document.querySelector('#doc .cr'), '::before').content")
    assert mark == '"CR"'
    assert page.locator("#doc br").count() == text.replace("\r\n", "").count("\r")
    assert "carriage return" in page.text_content("#legend")
    page.close()


def test_one_very_long_line_is_cut_in_blocks_with_exact_offsets(browser, tmp_path, capsys):
    source = tmp_path / "long.txt"
    text = " ".join(f"word{i} is here, and so on." for i in range(7200))  # 200 KB, one line
    assert "\n" not in text and len(text) > 200_000
    source.write_text(text, encoding="utf-8")
    url = write_page(tmp_path / "long.html", source, "1000,4000", capsys)
    page = browser.new_page()
    for value in (1000, 4000):
        page.goto(f"{url}#maxSize={value}")
        chunks = page.evaluate(CHUNKS_JS)
        assert chunks == spans_of(source, value, capsys)
        assert page.locator("#doc .blk").count() > 50  # the line is cut in blocks
        own_texts = page.evaluate(OWN_TEXTS_JS)
        assert own_texts == [text[start:end] for _i, start, end in chunks]
        assert page.evaluate(DRAWN_TEXT_JS) == text
    # the slider redraws it too; a warning clicked at once (in the same task, before the
    # blocks off screen are drawn) goes to its chunk of this value
    chunk, drawn_before = page.evaluate(
        """() => { window.chunkview.show(window.chunkview.shown() - 1);
          const drawn = document.body.dataset.drawn;
          const li = Array.from(document.querySelectorAll('#warnings li[data-chunk]')).pop();
          li.click(); return [Number(li.dataset.chunk), drawn ?? null]; }"""
    )
    assert drawn_before is None and chunk > 10
    flashed = page.locator("#doc .flash")
    assert flashed.count() == 1 and flashed.get_attribute("data-i") == str(chunk)
    own_start = dict((i, start) for i, start, _end in spans_of(source, 1000, capsys))[chunk]
    assert flashed.get_attribute("data-chunk-start") == str(own_start)
    assert page.evaluate("document.body.dataset.drawn") == "1000"
    assert page.evaluate(CHUNKS_JS) == spans_of(source, 1000, capsys)
    page.close()
