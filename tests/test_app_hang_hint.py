"""The Hang suggestion in the window: searched in the background after a Hang (or a run
stopped past its time budget), shown in the failure box with links that set the value,
cancelled by a change of the options."""

import pytest
from conftest import CORPUS, settle

from chunkview.core.io.read import load_document

ENGINE = "agentos.ChunkingEngine"
#: ChunkingEngine's defaults: they hang on the redis README (issue 34)
DEFAULTS = {"strategy": "fixed", "chunkSize": 512, "chunkOverlap": 64}


def hang_on_redis(qtbot, window):
    window.select_entry(ENGINE, DEFAULTS)
    window.set_document(load_document(CORPUS / "redis-readme.md"))
    settle(qtbot, window)
    assert window.model.failure is not None and window.model.failure.name == "Hang"


def test_a_hang_shows_the_values_that_return_and_a_click_uses_one(qtbot, window):
    hang_on_redis(qtbot, window)
    label = window.error_label
    messages = []
    window.statusBar().messageChanged.connect(messages.append)
    assert "Trying other values" in label.text()  # the search runs beside the GUI
    assert window.chunker.hang_hint.searching == window.model.failure.generation
    qtbot.waitUntil(lambda: "Returns with" in label.text(), timeout=30000)
    generation, suggestion = window.chunker._hang_suggestion
    assert generation == window.model.failure.generation
    bounds = {b.option: b for b in suggestion.bounds}
    assert set(bounds) == {"chunkOverlap", "chunkSize"}
    overlap = bounds["chunkOverlap"]
    assert f'href="set:chunkOverlap={overlap.returns_at}"' in label.text()
    assert f"chunkOverlap&nbsp;≤&nbsp;{overlap.returns_at}" in label.text()
    assert "Values tried:" in label.toolTip() and "chunkSize: 100000 returns" in label.toolTip()
    assert any(m.startswith("Hang: returns with chunkOverlap") for m in messages)
    # the link sets the value, and the run of it returns
    label.linkActivated.emit(f"set:chunkOverlap={overlap.returns_at}")
    settle(qtbot, window)
    assert window.model.failure is None
    assert window.result.request.options["chunkOverlap"] == overlap.returns_at
    assert label.isHidden()


def test_a_change_of_the_options_cancels_the_search(qtbot, window):
    hang_on_redis(qtbot, window)
    hint = window.chunker.hang_hint
    found = []
    hint.found.connect(lambda generation, suggestion: found.append(generation))
    assert hint.searching is not None
    window.params.set_value("chunkOverlap", 0)  # returns
    assert hint.searching is None and hint.cancel.is_set()
    settle(qtbot, window)
    hint.wait(10)
    qtbot.wait(50)
    assert found == [] and window.model.failure is None
    assert window.error_label.isHidden()


def test_a_second_hang_replaces_the_first_search(qtbot, window):
    hang_on_redis(qtbot, window)
    hint = window.chunker.hang_hint
    found = []
    hint.found.connect(lambda generation, suggestion: found.append((generation, suggestion)))
    first = window.model.failure.generation
    window.params.set_value("chunkOverlap", 70)  # hangs too
    settle(qtbot, window)
    second = window.model.failure.generation
    assert window.model.failure.name == "Hang" and second != first
    assert hint.searching == second
    # found crosses from the search's thread as one queued call per slot: the label's
    # slot may run a turn before this test's
    qtbot.waitUntil(
        lambda: bool(found) and "Returns with" in window.error_label.text(), timeout=30000
    )
    assert [generation for generation, _ in found] == [second]
    overlap = next(b for b in found[0][1].bounds if b.option == "chunkOverlap")
    assert overlap.returns_at < 70 and found[0][1].options["chunkOverlap"] == 70
    hint.wait(10)
    assert hint.idle  # its processes are gone with it


SLOW_UNDER_300 = """\
def paragraphs(text, max_chars: int = 100):
    while max_chars < 300:  # never returns under 300
        pass
    return [p[:max_chars] for p in text.split("\\n\\n")]
"""


@pytest.mark.usefixtures("registry_as_before")
def test_a_run_stopped_for_time_gets_the_suggestion_too(qtbot, window, tmp_path):
    mine = tmp_path / "slow.py"
    mine.write_text(SLOW_UNDER_300, encoding="utf-8")
    window.worker.set_budgets(timeout=1)
    with qtbot.waitSignal(window.chunker_files.loaded, timeout=15000):
        assert window.chunker_files.open_file(str(mine))
    window.set_document(load_document(CORPUS / "acorn-readme.md"))
    settle(qtbot, window)
    failure = window.model.failure
    assert failure is not None and failure.name == "Stopped"
    assert failure.message.startswith("stopped after ")
    label = window.error_label
    assert "Chunking stopped." in label.text() and "Trying other values" in label.text()
    qtbot.waitUntil(lambda: "Returns with" in label.text(), timeout=60000)
    _, suggestion = window.chunker._hang_suggestion
    (bound,) = suggestion.bounds
    assert (bound.option, bound.direction) == ("max_chars", "up")
    assert bound.fails_at < 300 <= bound.returns_at  # tried for real, each past 1 s a "Hang"
    assert f'href="set:max_chars={bound.returns_at}"' in label.text()
    label.linkActivated.emit(f"set:max_chars={bound.returns_at}")
    settle(qtbot, window)
    assert window.model.failure is None and window.result.request.options["max_chars"] >= 300
