"""A whole session on the InspectorModel alone: no Qt, a runner that chunks in place."""

from chunkview.core.chunkers.entry import RunContext
from chunkview.core.errors import ChunkerError
from chunkview.core.model.document import Document
from chunkview.core.runtime.pipeline import Pipeline
from chunkview.core.session import InspectorModel, ModelEvent

TEXT = (
    "Chunking splits a document. Overlap repeats text.\n\n"
    "Search words fall in chunks. More words follow here.\n\n"
) * 4


class Recorder:
    def __init__(self, model):
        self.events = []
        for event in (
            ModelEvent.DOCUMENT,
            ModelEvent.ENTRY,
            ModelEvent.STALE,
            ModelEvent.RESULT,
            ModelEvent.FAILED,
            ModelEvent.PINNED,
            ModelEvent.SELECTION,
            ModelEvent.MODIFIED,
            ModelEvent.RUNNING,
            ModelEvent.TOKENS,
            ModelEvent.QUERY,
        ):
            model.subscribe(event, lambda *args, e=event: self.events.append((e, args)))

    def names(self):
        return [n for n, _ in self.events]


def sync_runner(model):
    pipeline = Pipeline()

    def run(request):
        try:
            result = pipeline.run(request, RunContext())
        except ChunkerError as error:
            model.fail(request.generation, error.name, error.message)
            return
        model.accept(result)
        model.accept_tokens(result.generation, pipeline.tokens(result, RunContext()))

    return run


def test_a_whole_session_on_the_model_alone():
    model = InspectorModel()
    model.runner = sync_runner(model)
    seen = Recorder(model)

    # open
    model.set_document(Document(TEXT, "/tmp/guide.md", "markdown"))
    model.select_entry(
        "agentos.SemanticChunker", {"targetSize": 60, "maxSize": 120, "minSize": 0, "overlap": 0}
    )
    model.submit()
    first = model.result
    assert first is not None and len(first.layout.spans) > 3
    assert model.limits() == {"target": 60, "max": 120, "min": 0, "overlap": 0}
    assert first.tokens is not None and len(first.tokens) == len(first.layout.spans)
    assert not model.running

    # change options: a new generation, a new layout
    model.set_options({**model.options, "targetSize": 200, "maxSize": 400})
    model.submit()
    assert model.result.generation == model.generation == 2
    assert len(model.result.layout.spans) < len(first.layout.spans)
    # the histogram's target line survives the token counts
    assert model.limits()["target"] == 200 and model.result.tokens is not None

    # pin (B), then change again (A): boundaries from A to B are kept, moved, added, removed
    model.pin()
    model.set_options({**model.options, "targetSize": 60, "maxSize": 120})
    model.submit()
    comparison = model.comparison()
    assert comparison.same_text
    diff = comparison.diff
    assert diff.kept > 0 and diff.removed + diff.moved > 0
    assert diff.kept + diff.moved + diff.removed == len(model.result.layout.spans)
    assert diff.kept + diff.moved + diff.added == len(model.pinned.layout.spans)
    # F8: differences in order, wrapping round
    places = model.targets("difference")
    assert places == sorted(places) and len(places) == len(set(places)) > 1
    assert model.step("difference", places[0]) == places[1]
    assert model.step("difference", places[-1]) == places[0]
    assert model.step("difference", places[0], forward=False) == places[-1]

    # search: hits arrive with the result, the chunks are reused
    model.set_query("overlap")
    model.submit()
    assert model.result.hits and all("verlap" in h.snippet for h in model.result.hits)
    assert model.result.layout is not None

    # select a chunk by a point in the text, and by index
    point = TEXT.index("Search words")
    index = model.chunk_at(point)
    model.select_chunk(index)
    assert model.selected == index
    span = model.result.layout.spans[index]
    assert span.own_start <= point < span.end
    model.select_chunk(10_000)
    assert model.selected is None

    # next / previous chunk, warning and search hit are places in the text
    starts = model.targets("chunk")
    assert model.step("chunk", starts[1]) == starts[2] and model.selected == 2
    assert model.step("chunk", starts[2], forward=False) == starts[1] and model.selected == 1
    hits = model.targets("hit")
    assert hits and all(TEXT[h:].lower().startswith("overlap") for h in hits)
    assert len(hits) == TEXT.lower().count("overlap")
    model.navigation_targets["custom"] = lambda: [3, 7]
    assert model.step("custom", 3) == 7

    # an edit marks the document modified and is read once, when the next run needs it
    edited = TEXT + "A new closing paragraph.\n"
    model.text_source = lambda: edited
    model.text_edited()
    assert model.modified and model.document.text == TEXT
    model.submit()
    assert model.document.text == edited
    assert model.result.layout.document.text == edited
    model.saved("/tmp/guide-copy.md")
    assert not model.modified and model.document.path == "/tmp/guide-copy.md"

    names = seen.names()
    assert names.count(ModelEvent.RESULT) == model.generation
    assert ModelEvent.PINNED in names and ModelEvent.SELECTION in names
    assert (ModelEvent.MODIFIED, (True,)) in seen.events


def test_failure_keeps_the_last_layout_and_older_results_never_replace_newer():
    model = InspectorModel()
    requests = []
    model.runner = requests.append
    model.set_document(Document("word " * 50))
    model.select_entry("agentos.SemanticChunker", {"targetSize": 40})
    old = model.submit()
    model.set_options({"targetSize": 20})
    new = model.submit()
    pipeline = Pipeline()
    newer = pipeline.run(new, RunContext())
    older = Pipeline().run(old, RunContext())
    assert model.accept(newer)
    assert not model.accept(older)  # late and older: dropped
    assert model.result is newer

    model.set_options({"targetSize": "x"})
    failing = model.submit()
    model.fail(failing.generation, "OptionError", "targetSize: expected a number")
    assert model.failure.name == "OptionError" and model.result is newer
    assert not model.running
    # a failure of a superseded run is not shown
    model.fail(failing.generation - 1, "Hang", "old")
    assert model.failure.name == "OptionError"


def test_a_failure_on_another_document_shows_no_chunks_of_the_old_one():
    model = InspectorModel()
    model.runner = sync_runner(model)
    model.set_document(Document("# A\n\n" + "alpha words here. " * 40, None, "markdown"))
    model.select_entry("agentos.SemanticChunker", {"targetSize": 60})
    model.submit()
    assert model.result is not None and model.result.layout.spans
    # an option that fails keeps the last good layout
    model.set_options({"targetSize": "x"})
    model.submit()
    assert model.failure.kept_layout and model.result.layout.spans
    # a new document whose run fails: the old document's chunks are not shown for it
    other = Document("not a transcript", None, "text")
    model.select_entry("agentos.chunkTurns", {})
    model.set_document(other)
    model.submit()
    assert model.failure is not None and model.failure.name == "SyntaxError"
    assert not model.failure.kept_layout
    assert model.result.layout.document.text == other.text
    assert model.result.layout.spans == [] and model.result.layout.warnings == []
    assert model.targets("chunk") == []


def test_entries_expose_everything_the_views_read():
    from chunkview.core import registry

    for entry in registry.entries():
        assert entry.id and entry.library and entry.title and entry.summary
        assert entry.size_unit in ("chars", "units", "bytes", "tokens")
        assert entry.boundary_kinds, entry.id
        assert isinstance(entry.uses_embedder, bool) and isinstance(entry.uses_tokenizer, bool)
        assert isinstance(entry.code(entry.defaults()), str)
        roles = {p.role for p in entry.params if p.role}
        assert roles <= {"target", "max", "min", "overlap"}
