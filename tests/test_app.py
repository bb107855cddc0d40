"""The real window, offscreen: real widgets, real signals, the real worker thread."""

import os
import time

import pytest
from conftest import CORPUS, settle
from process_helpers import break_semantic_chunker
from PySide6.QtCore import QTimer

from chunkview.app.main_window import DEFAULT_SAMPLE
from chunkview.core.model.document import Document


def open_text(qtbot, win, text, kind="markdown"):
    win.set_document(Document(text, None, kind))
    settle(qtbot, win)


def test_sample_opens_and_is_chunked(qtbot, window):
    assert window.open_path(DEFAULT_SAMPLE, sample=True)
    settle(qtbot, window)
    assert window.result is not None and len(window.result.layout.spans) >= 2
    assert window.table.chunk_model.total() == len(window.result.layout.spans)


@pytest.mark.parametrize(
    "name, value", [("targetSize", 200), ("maxSize", 300), ("minSize", 10), ("overlap", 0)]
)
def test_each_size_change_redraws(qtbot, window, name, value):
    window.open_path(DEFAULT_SAMPLE, sample=True)
    settle(qtbot, window)
    before = [(s.start, s.end) for s in window.result.layout.spans]
    window.params.set_value(name, value)
    settle(qtbot, window)
    assert window.result.request.options.get(name) == value
    after = [(s.start, s.end) for s in window.result.layout.spans]
    assert after != before


def test_burst_of_changes_paints_only_the_newest(qtbot, window):
    window.open_path(DEFAULT_SAMPLE, sample=True)
    settle(qtbot, window)
    painted = []
    window.worker.finished.connect(lambda r: painted.append(r.generation))
    for size in range(100, 120):  # 20 changes, faster than the debounce
        window.params.set_value("targetSize", size)
    settle(qtbot, window)
    assert window.result.generation == window.generation
    assert window.result.request.options["targetSize"] == 119
    assert painted and painted[-1] == window.generation
    assert window.shown_generation == window.generation


def waited_for_a_cpu() -> float:
    """Seconds this process's threads have been ready to run but waiting for a CPU, in
    total (Linux schedstat; 0 where the system does not say). The worker thread counts:
    preempted while it holds the interpreter lock, it holds up the UI thread too."""
    waited = 0
    try:
        for thread in os.listdir("/proc/self/task"):
            try:
                with open(f"/proc/self/task/{thread}/schedstat") as stat:
                    waited += int(stat.read().split()[1])
            except (OSError, ValueError, IndexError):  # a thread that just ended
                pass
    except OSError:
        return 0.0
    return waited / 1e9


def test_large_document_does_not_block_the_event_loop(qtbot, window):
    text = (CORPUS / "redis-readme.md").read_text(encoding="utf-8")
    big = "\n\n".join([text] * (5_000_000 // len(text) + 1))
    open_text(qtbot, window, big)
    ticks = []
    timer = QTimer()
    timer.setInterval(5)
    timer.timeout.connect(lambda: ticks.append((time.perf_counter(), waited_for_a_cpu())))
    timer.start()
    window.params.set_value("targetSize", 700)
    settle(qtbot, window, timeout=120000)
    timer.stop()
    # a stall is time the UI thread spent away from its event loop, less the time this
    # process's threads only waited for a CPU the machine's other work held: a loaded
    # machine delays the ticks; work on the UI thread, or a lock held against it by a
    # thread that runs, still counts in full
    stalls = [(b - a) - (b_wait - a_wait) for (a, a_wait), (b, b_wait) in zip(ticks, ticks[1:])]
    assert len(ticks) > 10
    assert max(stalls) < 0.5, f"the UI stalled for {max(stalls):.3f} s"
    assert window.result.request.options["targetSize"] == 700


def test_search_highlights_words_in_the_right_chunks(qtbot, window):
    text = (
        "# One\n\nApples grow on trees.\n\n# Two\n\nPears and apple pie.\n\n"
        "# Three\n\nNothing here.\n"
    )
    window.select_entry("agentos.SemanticChunker", {"targetSize": 10, "minSize": 0, "overlap": 0})
    open_text(qtbot, window, text)
    window.search_box.setText("apple")
    settle(qtbot, window)
    qtbot.waitUntil(lambda: not window.searcher.running)
    hits = window.searcher.hits
    assert [h.chunk for h in hits] == [0, 1]
    assert [text[h.at : h.at + 5] for h in hits] == ["Apple", "apple"]
    ranges = window.editor.search_ranges()
    assert sorted(text[a:b] for a, b in ranges) == ["Apples", "apple"]
    assert window.hits.model().rowCount() == 2


@pytest.mark.parametrize(
    "text",
    [
        "# Title\r\n\r\nFirst 😀 paragraph here.\r\n\r\n# Next\r\n\r\nSecond 🎉 one.\r\n",
        "emoji 👍🏽 start\n\n" + "word 😀 " * 40 + "\n\n# Tail\n\nend 🎉\n",
    ],
)
def test_crlf_and_emoji_paint_at_span_offsets(qtbot, window, text):
    window.select_entry(
        "agentos.SemanticChunker", {"targetSize": 20, "maxSize": 60, "minSize": 0, "overlap": 5}
    )
    open_text(qtbot, window, text)
    painted = window.editor.chunk_ranges()
    assert painted
    for span in window.result.layout.spans:
        if span.index in painted:
            assert painted[span.index] == (span.own_start, span.end)


def test_corpus_crlf_file_paints_correctly(qtbot, window):
    text = (CORPUS / "email-architecture.rst").read_text(encoding="utf-8")
    text = text.replace("\n", "\r\n") + "\r\nthe end 😀\r\n"
    window.select_entry("agentos.SemanticChunker", {"targetSize": 300, "overlap": 30})
    open_text(qtbot, window, text, kind="text")
    painted = window.editor.chunk_ranges()
    spans = {s.index: s for s in window.result.layout.spans}
    assert painted
    for index, (start, end) in painted.items():
        assert (start, end) == (spans[index].own_start, spans[index].end)


def test_hang_is_explained_and_last_layout_stays(qtbot, window):
    window.select_entry(
        "agentos.ChunkingEngine", {"strategy": "fixed", "chunkSize": 40, "chunkOverlap": 0}
    )
    open_text(qtbot, window, "words " * 30 + "x" * 200 + " end")
    good = window.result
    assert good is not None and window.error_label.isHidden()
    window.params.set_value("chunkOverlap", 10)
    settle(qtbot, window)
    assert not window.error_label.isHidden()
    assert "would never return" in window.error_label.text()
    assert "Show where" in window.error_label.text()
    assert window.result is good
    assert window.editor.toPlainText().startswith("words words")


def test_broken_json_shows_v8s_message_and_where(qtbot, window):
    window.select_entry("mastra.chunk", {"strategy": "json", "maxSize": 200})
    broken = '{\n  "name": "chunkview",\n  "tags": ["a" "b"]\n}\n'
    open_text(qtbot, window, broken, kind="json")
    message = window.error_label.text()
    # V8's words, and its position: the second string's quote, after '["a" '
    assert "Expected ',' or ']' after array element in JSON at position 40" in message
    assert '<a href="pos:40">Show where in the document</a>' in message
    window.chunker.show_position.emit(40)
    assert window.editor.to_point(window.editor.textCursor().position()) == 40
    assert window.editor.toPlainText() == broken


def test_bad_file_keeps_text_and_says_why(qtbot, window, tmp_path):
    open_text(qtbot, window, "my precious edits\n")
    bad = tmp_path / "latin.txt"
    bad.write_bytes(b"caf\xe9")
    assert window.open_path(bad) is False
    assert "not UTF-8" in window.error_label.text()
    assert window.editor.toPlainText() == "my precious edits\n"


def test_click_chunk_selects_row_and_back(qtbot, window):
    window.open_path(DEFAULT_SAMPLE, sample=True)
    settle(qtbot, window)
    span = window.result.layout.spans[2]
    window.editor.click_at(window.editor.to_editor(span.own_start + 1))
    assert window.table.selected_chunk() == 2
    window.table.clicked.emit(window.table.model().index(4, 0))  # as a click on row 4
    assert window.editor._selected == 4 and window.model.selected == 4
    assert window.table.selected_chunk() == 4


def test_edit_rechunks_and_save_keeps_crlf(qtbot, window, tmp_path):
    path = tmp_path / "doc.md"
    path.write_bytes(b"# A\r\n\r\nbody\r\n")
    assert window.open_path(path)
    settle(qtbot, window)
    window.editor.moveCursor(window.editor.textCursor().MoveOperation.End)
    window.editor.insertPlainText("more\n")
    settle(qtbot, window)
    assert window.document.text == "# A\r\n\r\nbody\r\nmore\r\n"
    assert window.modified and window.result.request.document.text.endswith("more\r\n")
    assert window.save()
    assert path.read_bytes() == b"# A\r\n\r\nbody\r\nmore\r\n"
    assert not window.modified


def test_transcript_shows_turns_and_passages(qtbot, window):
    from chunkview.app.main_window import SAMPLES

    window.select_entry("agentos.chunkTurns", {"maxChars": 200, "overlapTurns": 1})
    assert window.open_path(SAMPLES / "transcript.jsonl", sample=True)
    settle(qtbot, window)
    shown = window.editor.toPlainText()
    assert shown.startswith("Welcome back.") and "\n" in shown
    assert window.editor.isReadOnly()
    spans = window.result.layout.spans
    assert len(spans) >= 2 and all(s.located == "exact" for s in spans)
    assert spans[1].start < spans[0].end  # the overlap turn
    window.select_entry("agentos.SemanticChunker")
    settle(qtbot, window)
    assert not window.editor.isReadOnly()
    assert window.editor.toPlainText().startswith('{"seq": 1')


def test_a_chunker_that_throws_is_reported_and_nothing_is_lost(qtbot, window):
    open_text(qtbot, window, "# Keep\n\nthis text\n")
    good = window.result
    window.worker.call_in_process(break_semantic_chunker)
    window.params.set_value("targetSize", 321)
    settle(qtbot, window)
    assert "ZeroDivisionError" in window.error_label.text()
    assert "a bug in a port" in window.error_label.text()
    assert window.result is good
    assert window.editor.toPlainText() == "# Keep\n\nthis text\n"


def test_option_json_error_is_shown_not_run(qtbot, window):
    window.select_entry("smartchunk")
    open_text(qtbot, window, "some text here\n")
    generation = window.generation
    field = window.params.field_widget("strategies").findChild(type(window.search_box))
    field.setText("[not json")
    field.editingFinished.emit()
    qtbot.wait(100)
    assert "not valid JSON" in window.error_label.text()
    assert window.generation == generation


def test_pinned_layout_is_compared_with_the_next(qtbot, window):
    window.select_entry("agentos.SemanticChunker", {"targetSize": 300, "overlap": 0})
    assert window.open_path(DEFAULT_SAMPLE, sample=True)
    settle(qtbot, window)
    pinned_starts = [s.own_start for s in window.result.layout.spans]
    window.pin_button.setChecked(True)
    assert window.editor._diff is not None and window.editor._diff.b == sorted(pinned_starts)
    window.params.set_value("targetSize", 120)
    settle(qtbot, window)
    diff = window.model.comparison().diff
    assert diff.b == sorted(pinned_starts)
    assert diff.a == sorted({s.own_start for s in window.result.layout.spans})
    text = window.compare_label.text()
    assert diff.summary() in text and f"{len(pinned_starts)} chunks" in text
    assert diff.removed + diff.moved > 0
    painted = window.editor.diff_visible()
    first, last = window.editor.visible_points()
    assert painted == [(c.at, c.kind) for c in diff.changes if first <= c.at <= last]
    assert "removed in B" in window.view.legend.text()
    window.pin_button.setChecked(False)
    assert window.editor._diff is None and window.compare_label.isHidden()


def test_histogram_keeps_its_target_line_after_tokens_arrive(qtbot, window):
    window.select_entry("agentos.SemanticChunker", {"targetSize": 300, "maxSize": 600})
    window.open_path(DEFAULT_SAMPLE, sample=True)
    settle(qtbot, window)
    qtbot.waitUntil(lambda: window.result.tokens is not None, timeout=10000)
    qtbot.wait(20)
    limits = window.stats.histogram.limits
    assert limits.get("target") == 300 and limits.get("max") == 600
