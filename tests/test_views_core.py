"""The Qt-free parts of the views: B as a second configuration on the model, the
overview's bins, the inspector's facts and character diff."""

import numpy as np

from chunkview.core.build import build_layout
from chunkview.core.chunkers.entry import RunContext
from chunkview.core.model.document import Document
from chunkview.core.model.spans import Span
from chunkview.core.runtime.pipeline import Pipeline
from chunkview.core.session import InspectorModel, ModelEvent
from chunkview.core.views.inspect import character_diff, chunk_facts, show_white_space, source_slice
from chunkview.core.views.overview import bin_positions, overview_bins, point_of, row_of

TEXT = ("Alpha beta gamma. Delta epsilon zeta.\n\n" * 20).strip() + "\n"


def test_b_as_a_second_configuration_runs_on_the_same_text():
    model = InspectorModel()
    pipeline = Pipeline()
    model.runner = lambda request: model.accept(pipeline.run(request, RunContext()))
    b_requests = []
    model.subscribe(ModelEvent.COMPARE_CONFIG, lambda: b_requests.append(model.request_b()))
    model.set_document(Document(TEXT))
    model.select_entry("agentos.SemanticChunker", {"targetSize": 80, "overlap": 0})
    model.submit()
    assert model.request_b() is None  # not comparing with a configuration
    model.set_b_config("mastra.chunk", {"strategy": "character", "maxSize": 120, "overlap": 0})
    request = b_requests[-1]
    assert request.entry_id == "mastra.chunk" and request.document.text == TEXT
    b = Pipeline().run(request, RunContext())
    assert model.accept_b(b) and model.pinned is b
    comparison = model.comparison()
    assert comparison.same_text and comparison.pinned is b
    assert model.comparison() is comparison  # computed once per pair
    # an older B answer never replaces a newer one
    model.set_b_config("mastra.chunk", {"strategy": "character", "maxSize": 60, "overlap": 0})
    assert not model.accept_b(b)
    model.stop_comparing()
    assert model.pinned is None and model.comparison() is None


def test_overview_bins_count_marks_per_row():
    assert list(bin_positions([0, 1, 50, 99, 100], 100, 4)) == [2, 0, 1, 2]
    assert list(bin_positions([], 100, 3)) == [0, 0, 0]
    bins = overview_bins({"a": [5], "b": list(range(0, 10_000_000, 100))}, 10_000_000, 800)
    assert bins["a"].sum() == 1 and bins["b"].sum() == 100_000
    assert np.all(bins["b"] == 125)
    assert row_of(5_000_000, 10_000_000, 800) == 400
    assert point_of(400, 10_000_000, 800) == 5_000_000


def test_inspector_facts_and_character_diff():
    text = "one  two\tthree four"
    spans = [
        Span(0, 0, 8, 0, "x", text[:8]),
        Span(1, 5, 19, 8, "x", "two three four", "normalized"),
        Span(2, 19, 19, 19, "x", "gone text", "missing"),
    ]
    layout = build_layout(Document(text), spans)
    facts = chunk_facts(layout, 1, tokens=[2, 3, 2])
    assert facts.overlap == "two" and facts.tokens == 3 and facts.located == "normalized"
    assert facts.utf8_bytes == len("two three four")
    assert show_white_space("a b\tc\n") == "a·b→\tc¶\n"
    start, end = source_slice(layout, spans[1])
    pieces = character_diff(spans[1].text, text[start:end])
    assert "".join(t for side, t in pieces if side != "source") == spans[1].text
    assert "".join(t for side, t in pieces if side != "chunk") == text[start:end]
    assert ("source", "\t") in pieces and ("chunk", " ") in pieces
    # a missing chunk is compared with the text from its last known place
    assert source_slice(layout, spans[2]) == (19, 19)
