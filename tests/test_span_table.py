"""SpanTable: spans as columns give the same spans, overlaps and gaps as Span objects."""

import pickle
import random
from dataclasses import replace

import pytest
from conftest import CORPUS

from chunkview.core import registry
from chunkview.core.build import _overlaps
from chunkview.core.chunkers.agentos.semantic_chunker import is_plain
from chunkview.core.chunkers.agentos.semantic_spans import prefix_sizes, span_list, span_table
from chunkview.core.chunkers.entry import RunContext
from chunkview.core.layout.placing import placed_table
from chunkview.core.model.document import Document
from chunkview.core.model.observer import RunNotes
from chunkview.core.model.span_table import SpanTable
from chunkview.core.model.spans import Span, gaps_of


def _fields(span: Span) -> tuple:
    return (
        span.index,
        span.start,
        span.end,
        span.own_start,
        span.kind,
        span.text,
        span.located,
        span.metadata,
        span.reported_start,
    )


def _bare(text: str) -> str:
    """The text without its white space."""
    return "".join(text.split())


def _random_markdown(rng: random.Random) -> str:
    pieces = [
        "# Title\n",
        "## Part two\n",
        "A sentence ends here. Another one!  And a third?\n",
        "short\n",
        "\n",
        "\n\n\n",
        "```js\nlet x = 1;\n```\n",
        "word " * 30 + "\n",
        "   indented line\t\n",
        "same line\n",
        "same line\n",
    ]
    return "".join(rng.choice(pieces) for _ in range(rng.randint(0, 400)))


def _semantic_cases(documents, rng):
    entry = registry.get("agentos.SemanticChunker")
    for document in documents:
        if not is_plain(document.text):  # the columns are for texts of plain code points
            continue
        options = {
            "targetSize": rng.choice([1, 7, 7.5, 40, 120, 400, 1000]),
            "maxSize": rng.choice([5, 80, 300, 2000]),
            "minSize": rng.choice([0, 0.5, 10, 50, 200, 5000]),
            "overlap": rng.choice([0, 1, 5, 30, 100, 10_000, -4]),
        }
        notes = RunNotes(reasons=False)
        metadata = {"source": "x"} if rng.random() < 0.3 else None
        native = entry.run(document, options, RunContext(metadata=metadata, observer=notes))
        table = span_table(document.text, native, options["overlap"], notes.places)
        one_by_one = span_list(document, native, options["overlap"])
        yield document, options, notes.places, table, one_by_one


def test_semantic_chunker_columns_equal_the_search_on_real_documents():
    """For a plain text and a whole overlap the SemanticChunker builds its spans as
    columns, from where the port took each own part: on real documents they are the
    spans the search gives, one by one, and they cross the pipe unchanged."""
    rng = random.Random(11)
    documents = [
        Document(path.read_text(encoding="utf-8"))
        for path in sorted(CORPUS.iterdir())
        if path.suffix in (".md", ".rst", ".txt", ".html", ".tex")
    ]
    checked = known = 0
    for document, options, places, table, one_by_one in _semantic_cases(documents * 3, rng):
        known += sum(s.source_end >= 0 for s in places)  # placed where cut
        assert [_fields(s) for s in table] == [_fields(s) for s in one_by_one], options
        assert table.overlaps() == _overlaps(one_by_one)
        assert table.gaps(len(document.text)) == gaps_of(one_by_one, len(document.text))
        again = pickle.loads(pickle.dumps(table)).bind(document.text)
        assert [_fields(s) for s in again] == [_fields(s) for s in one_by_one]
        checked += len(one_by_one)
    assert checked > 1000 and known > 500


def _engine_spans_one_by_one(engine, document, native, options) -> list[Span]:
    """ChunkingEngine's spans as the search places them one by one, each section's
    heading in its metadata."""
    spans = engine.located_spans(document, native, options)
    for span, chunk in zip(spans, native):
        if "heading" in chunk:
            span.metadata["heading"] = chunk["heading"]
    return spans


def test_chunking_engine_columns_equal_the_spans_located_one_by_one():
    """ChunkingEngine's spans come as columns from the same search: span for span what
    ``located_spans`` gives (a section's heading in its metadata), across the pipe too."""
    from chunkview import ChunkerError

    rng = random.Random(12)
    engine = registry.get("agentos.ChunkingEngine")
    checked = kinds = 0
    for path in sorted(CORPUS.iterdir()):
        document = Document(path.read_text(encoding="utf-8"))
        for strategy in ("fixed", "hierarchical", "layout", "semantic"):
            size = rng.choice([40, 200, 512])
            options = {"strategy": strategy, "chunkSize": size, "chunkOverlap": rng.choice([0, 9])}
            try:
                native = engine.run(document, options, RunContext())
            except ChunkerError:
                continue  # a hang (a long run without white space)
            one_by_one = _engine_spans_one_by_one(engine, document, native, options)
            table = engine.spans(document, native, options)
            assert isinstance(table, SpanTable)
            assert [_fields(s) for s in table] == [_fields(s) for s in one_by_one], options
            again = pickle.loads(pickle.dumps(table)).bind(document.text)
            assert [_fields(s) for s in again] == [_fields(s) for s in one_by_one]
            checked += len(one_by_one)
            kinds += len({s.kind for s in one_by_one}) > 1
    assert checked > 1000 and kinds > 3


def test_semantic_chunker_columns_place_each_own_part_where_it_came_from():
    """On documents that repeat themselves the search can take a later copy of a chunk
    whose white space the library rewrote; the columns keep the place the port took it
    from. Every own part is the text there (exact) or the same but for white space
    (normalized, from the first to the last non-space character), and where the two
    differ the search took a copy, and the columns the place the library reports."""
    rng = random.Random(11)
    documents = [Document(_random_markdown(rng)) for _ in range(60)]
    checked = differing = 0
    for document, options, own_segments, table, one_by_one in _semantic_cases(documents, rng):
        text, overlap = document.text, options["overlap"]
        texts = [s.text for s in one_by_one]
        owns = [t[p:] for t, p in zip(texts, prefix_sizes([len(t) for t in texts], overlap))]
        places = [segment.source_end for segment in own_segments]
        for own, ours, searched, known_end in zip(owns, table, one_by_one, places):
            placed = text[ours.own_start : ours.end]
            if ours.located == "exact":
                assert placed == own
                assert ours.text == text[ours.start : ours.end]
            elif placed == own:  # the own part is the text; its overlap prefix is not the
                # text before it (white space the library dropped lies between them)
                assert ours.located == "normalized" and ours.text != text[ours.start : ours.end]
            else:
                assert ours.located == "normalized"
                assert _bare(placed) == _bare(own) and placed == placed.strip()
            if _fields(ours) != _fields(searched) and known_end >= 0:
                # the search took a copy; the columns, the place the library reports
                differing += 1
                assert _bare(text[searched.own_start : searched.end]) == _bare(own)
                edge = 0 if placed == own else len(own) - len(own.lstrip())
                assert ours.own_start == ours.reported_start + edge
            checked += 1
        assert table.overlaps() == _overlaps(list(table))
    assert checked > 1000 and differing  # the repeats do fool the search somewhere


def test_a_table_from_spans_gives_them_back_with_their_reasons():
    entry = registry.get("agentos.SemanticChunker")
    document = Document((CORPUS / "acorn-readme.md").read_text(encoding="utf-8"))
    spans = list(entry.chunk(document, {"targetSize": 300}, RunContext()).spans)
    table = SpanTable.from_spans(spans, document.text)
    assert [_fields(s) for s in table] == [_fields(s) for s in spans]
    assert table.overlaps() == _overlaps(spans)
    # a reason given to a built span crosses with the table, as columns (Reason objects
    # by the ten thousand are slow to unpickle on the UI side)
    from chunkview.core.model.explain import Reason, ReasonColumns, Stage

    because = Reason(7, "cut", "because ≤ 300", (Stage("split", 0, 9, "a piece", (2, 4)),))
    table[3].reason = because
    state = table.__getstate__()
    assert isinstance(state["reasons"], ReasonColumns) and list(state["reasons"]) == [3]
    again = pickle.loads(pickle.dumps(table)).bind(document.text)
    assert again[3].reason == because and again[2].reason is None


@pytest.mark.parametrize(
    "places",
    [
        [],
        [(0, 5, "exact"), (3, 9, "exact"), (20, 25, "exact")],
        [(0, 5, "exact"), (5, 5, "missing"), (2, 30, "normalized"), (1, 4, "exact")],
        [(10, 12, "exact"), (0, 3, "exact"), (10, 11, "exact")],
    ],
)
def test_overlaps_and_gaps_from_columns_equal_those_from_spans(places):
    text = "x" * 40
    spans = [
        Span(i, start, end, start, "k", text[start:end], located)
        for i, (start, end, located) in enumerate(places)
    ]
    table = SpanTable.from_spans(spans, text)
    assert table.overlaps() == _overlaps(spans)
    assert table.gaps(len(text)) == gaps_of(spans, len(text))


def _engine_placed(engine, document, options, ctx=None):
    """The ChunkingEngine's chunks and the places its run told its observer."""
    notes = RunNotes(reasons=False, places=True)
    native = engine.run(document, options, replace(ctx or RunContext(), observer=notes))
    return native, notes.places


def test_chunking_engine_places_its_cuts_as_the_search_would():
    """For the app the port notes where it cut each chunk (windows, one-window texts,
    layout blocks): on real documents those are the places the search finds, span for
    span, and most runs know every place."""
    from chunkview import ChunkerError

    rng = random.Random(14)
    engine = registry.get("agentos.ChunkingEngine")
    placed = runs = 0
    for path in sorted(CORPUS.iterdir()):
        document = Document(path.read_text(encoding="utf-8"))
        for strategy in ("fixed", "fixed", "layout", "hierarchical"):
            options = {
                "strategy": strategy,
                "chunkSize": rng.choice([40, 200, 512, 10**6]),
                "chunkOverlap": rng.choice([0, 0, 9]),
            }
            try:
                chunking = engine.chunk(document, options, RunContext())
            except ChunkerError:
                continue  # a hang (a long run without white space)
            native, places = _engine_placed(engine, document, options)
            assert native == chunking.native
            one_by_one = _engine_spans_one_by_one(engine, document, native, options)
            assert [_fields(s) for s in chunking.spans] == [_fields(s) for s in one_by_one]
            again = pickle.loads(pickle.dumps(places))
            assert again == places
            runs += 1
            astral = any(ord(ch) > 0xFFFF for ch in document.text)  # places are units
            if len(places.starts) == len(native) and not astral:  # all known, each right
                texts = [chunk["content"] for chunk in native]
                kinds = [span.kind for span in one_by_one]
                # every place, not the spread the app's guard compares
                assert all(map(document.text.startswith, texts, places.starts))
                assert places.lengths == [len(t) for t in texts]  # noted beside each place
                if strategy == "hierarchical":  # each section's chunks, with its metadata
                    assert places.block_chunks is None
                    noted = {
                        i: {**meta, "heading": heading}
                        for first, end, meta, heading in places.section_chunks
                        for i in range(first, end)
                    }
                    told = {
                        i: {**c["metadata"], "heading": c["heading"]}
                        for i, c in enumerate(native)
                        if "heading" in c
                    }
                    assert noted == told
                else:  # the layout blocks, noted by kind, are the chunks that say so
                    noted = {i: kind for kind, at in places.block_chunks.items() for i in at}
                    told = {
                        i: c["metadata"]["type"] for i, c in enumerate(native) if "metadata" in c
                    }
                    assert noted == told
                assert placed_table(document.text, texts, places.starts, kinds, {}) is not None
                placed += 1
    assert runs > 30 and placed > runs // 2


def test_chunking_engine_places_the_step_by_step_windows_too():
    """Hard cuts (a run without white space longer than the size) and cuts that step
    back within the overlap: the places are told there as well,
    each where the loop, read literally, cuts that chunk (a search could take an earlier
    copy of a window that starts inside a run of one character)."""
    from chunkview import ChunkerError
    from chunkview.core.text.js import W_CHARS

    rng = random.Random(15)
    engine = registry.get("agentos.ChunkingEngine")
    words = ["a", "to", "chunk", "https://example.org/" + "x" * 30, "\n\n", "  ", "\t"]
    placed = stepped = 0
    for _ in range(1500):
        text = " ".join(rng.choice(words) for _ in range(rng.randint(5, 60)))
        size = rng.randint(4, 40)
        overlap = rng.choice([0, rng.randint(1, size - 1)])
        options = {"strategy": "fixed", "chunkSize": size, "chunkOverlap": overlap}
        document = Document(text)
        try:
            chunking = engine.chunk(document, options, RunContext())
        except ChunkerError:
            continue  # a hang (the loop steps back to a window it cut before)
        _, places = _engine_placed(engine, document, options)
        assert len(places.starts) == len(chunking.native), options  # all noted
        # the loop of spec/agentos.md §2.2, step by step: where each trimmed piece starts
        expected, position, hard_or_back = [], 0, False
        while position < len(text):
            end = position + size
            if end >= len(text):
                end = len(text)
            else:
                while end > position and text[end] not in W_CHARS:
                    end -= 1
                if end == position:
                    end = position + size
                    hard_or_back = True
            window = text[position:end]
            if window.strip(W_CHARS):
                expected.append(position + len(window) - len(window.lstrip(W_CHARS)))
            if end == len(text):
                break
            following = end - overlap
            hard_or_back |= 0 < following <= position
            position = following if following > 0 else end
        spans = chunking.spans
        assert [s.start for s in spans] == expected, (text, options)
        assert all(s.text == text[s.start : s.end] for s in spans)
        stepped += hard_or_back
        placed += 1
    assert placed > 600 and stepped > 20


def test_mastra_columns_equal_the_spans_located_one_by_one():
    """Mastra's spans come as columns from the same search, with the startIndex each
    chunk reports (addStartIndex) as its reported start."""
    from chunkview import ChunkerError
    from chunkview.core.chunkers.entry import chunk_metadata
    from chunkview.core.layout.locate import locate

    rng = random.Random(13)
    mastra = registry.get("mastra.chunk")
    checked = reported = 0
    for path in sorted(CORPUS.iterdir()):
        document = Document(path.read_text(encoding="utf-8"))
        for strategy in ("recursive", "markdown", "character", "sentence"):
            options = {
                "strategy": strategy,
                "maxSize": rng.choice([100, 400]),
                "overlap": rng.choice([0, 20]),
                "addStartIndex": rng.random() < 0.5,
            }
            try:
                native = mastra.run(document, options, RunContext())
            except ChunkerError:
                continue
            texts = [c["text"] for c in native]
            table = mastra.spans(document, native, options)
            previous_end = None
            for i, (span, where) in enumerate(zip(table, locate(document.text, texts))):
                own = where.start if previous_end is None else max(where.start, previous_end)
                start_index = native[i]["metadata"].get("startIndex")
                expected = Span(
                    i,
                    where.start,
                    where.end,
                    min(own, where.end),
                    strategy,
                    texts[i],
                    where.located,
                    chunk_metadata(native[i]),
                    document.units_to_points(start_index)
                    if start_index is not None and start_index >= 0  # -1: not found
                    else None,
                )
                assert _fields(span) == _fields(expected), (path.name, options, i)
                previous_end = where.end
                reported += expected.reported_start is not None
            checked += len(native)
    assert checked > 1000 and reported > 300


def test_smartchunk_columns_equal_each_byte_range_read_one_by_one():
    """smartchunk reports UTF-8 byte ranges: the columns hold each as code points, the
    kind the cascade level that cut it, and the reasons of an explained run survive
    the pipe."""
    from bisect import bisect_left

    from chunkview.core.chunkers.smartchunk.reference import utf8_offsets

    smartchunk = registry.get("smartchunk")
    checked = explained = 0
    for path in sorted(CORPUS.iterdir()):
        document = Document(path.read_text(encoding="utf-8"))
        ctx = RunContext(observer=RunNotes(places=False))
        chunking = smartchunk.chunk(document, {"maxSize": 300}, ctx)
        offsets = utf8_offsets(document.text)
        previous_end = None
        for i, (span, chunk) in enumerate(zip(chunking.spans, chunking.native)):
            start = bisect_left(offsets, chunk["offset"])
            end = bisect_left(offsets, chunk["offset"] + chunk["length"])
            own = start if previous_end is None else max(start, previous_end)
            assert (span.index, span.start, span.end, span.own_start) == (i, start, end, own)
            assert span.text == document.text[start:end] and span.located == "exact"
            assert span.metadata == {"offset": chunk["offset"], "length": chunk["length"]}
            previous_end = end
        kinds = [span.kind for span in chunking.spans]
        assert set(kinds) <= {"paragraph", "line", "sentence", "word", "grapheme"}
        again = pickle.loads(pickle.dumps(chunking.spans)).bind(document.text)
        assert [s.reason for s in again] == [s.reason for s in chunking.spans]
        assert [s.kind for s in again] == kinds
        checked += len(kinds)
        explained += sum(s.reason is not None for s in again)
    assert checked > 500 and explained > 500


def test_reasons_as_columns_read_back_as_the_reasons_given():
    """Details carry their reasons as columns (a few arrays and one string of texts):
    read by index, iterated or unpickled, they are the reasons given, stages and all,
    and a table handed them gives each span its own, built before or after."""
    from chunkview.core.model.explain import Reason, ReasonColumns, Stage

    rng = random.Random(15)
    reasons = {}
    for i in sorted(rng.sample(range(400), 150)):
        stages = tuple(
            Stage(
                rng.choice(["gathered", "split"]),
                i,
                i + 9,
                "text é",
                rng.choice([None, (i, i + 2)]),
            )
            for _ in range(rng.randrange(0, 3))
        )
        reasons[i] = Reason(
            i * 3,
            rng.choice(["paragraph", "cut", "merge"]),
            f"why {i} ✓" * rng.randrange(0, 3),
            stages,
        )
    columns = pickle.loads(pickle.dumps(ReasonColumns(reasons)))
    assert len(columns) == len(reasons) and list(columns) == list(reasons)
    assert all(columns[i] == reasons[i] for i in reasons)
    assert dict(columns.items()) == reasons
    assert columns.get(401) is None
    assert all((i in columns) == (i in reasons) for i in range(400))

    text = "word " * 200
    spans = [Span(i, 2 * i, 2 * i + 2, 2 * i, "k", text[2 * i : 2 * i + 2]) for i in range(400)]
    table = SpanTable.from_spans(spans, text)
    early = table[5]  # built before the reasons come
    table.set_reasons(columns)
    assert early.reason == reasons.get(5)
    assert [s.reason for s in table] == [reasons.get(i) for i in range(400)]


def test_located_kinds_read_from_columns_skip_the_missing_in_order():
    text = "alpha beta gamma delta"
    spans = [
        Span(0, 0, 5, 0, "heading", "alpha", "exact"),
        Span(1, 6, 10, 6, "prose", "beta", "exact"),
        Span(2, 0, 0, 0, "code", "not in the text", "missing"),
        Span(3, 11, 16, 11, "heading", "gamma", "exact"),
    ]
    table = SpanTable.from_spans(spans, text)
    assert table.located_kinds() == ["heading", "prose", "heading"]
    assert SpanTable.from_spans([], text).located_kinds() == []


def test_a_table_sends_no_column_that_says_nothing():
    """The columns of span texts sent and of heads are left out of what crosses the pipe
    where no span needs them (windows cut from the text), made again on the other side,
    and sent where one does; a layout block's metadata goes once for its kind."""
    engine = registry.get("agentos.ChunkingEngine")
    document = Document((CORPUS / "redis-readme.md").read_text(encoding="utf-8"))
    options = {"strategy": "layout", "chunkSize": 200, "chunkOverlap": 0}
    table = engine.chunk(document, options, RunContext()).spans
    state = table.__getstate__()
    assert [state[name] for name in ("text_starts", "text_ends", "head_starts")] == [None] * 3
    assert state["head_sizes"] is None and state["metadata"] == {}
    assert {"code", "table"} <= {table.kinds[k] for k in state["kind_metadata"]}
    again = pickle.loads(pickle.dumps(table)).bind(document.text)
    assert [_fields(s) for s in again] == [_fields(s) for s in table]
    assert list(again.head_sizes) == [0] * len(table)
    blocks = [s for s in again if s.kind in ("code", "table")]
    assert blocks and all(s.metadata == {"type": s.kind} for s in blocks)
    # a SemanticChunker's chunks carry heads and texts the text does not hold as they are
    entry = registry.get("agentos.SemanticChunker")
    state = entry.chunk(document, {"targetSize": 300}, RunContext()).spans.__getstate__()
    assert state["text_starts"] is not None and state["head_sizes"] is not None


def test_placed_chunks_are_searched_for_when_a_place_goes_wrong():
    """The app's guard compares a spread of chunks with the text at their places: a
    place gone wrong, and the places after it with it, sends the chunks to the search."""

    engine = registry.get("agentos.ChunkingEngine")
    text = "alpha beta gamma delta. " * 4000  # 96,000 units: about 4,000 windows of 24
    document = Document(text)
    native, placed = _engine_placed(
        engine, document, {"strategy": "fixed", "chunkSize": 24, "chunkOverlap": 0}
    )
    texts = [chunk["content"] for chunk in native]
    kinds = ["fixed"] * len(texts)
    assert len(texts) > 2048
    assert placed_table(text, texts, placed.starts, kinds, {}) is not None
    for wrong_from in (1, len(texts) // 2, len(texts) - 1):
        shifted = placed.starts[:wrong_from] + [p + 1 for p in placed.starts[wrong_from:]]
        assert placed_table(text, texts, shifted, kinds, {}) is None, wrong_from
    # so does a length noted wrong where the guard looks (the first and the last)
    assert placed_table(text, texts, placed.starts, kinds, {}, placed.lengths) is not None
    for wrong in (0, len(texts) - 1):
        lengths = [n + (k == wrong) for k, n in enumerate(placed.lengths)]
        assert placed_table(text, texts, placed.starts, kinds, {}, lengths) is None, wrong
    spans = engine.spans(document, native, {"strategy": "fixed"}, places=placed)
    assert list(spans.starts) == placed.starts


def test_semantic_groups_joined_otherwise_than_the_text_are_searched_for():
    """A semantic group's sentences are joined by one space: where the document has a
    line break between two of them, the group's windows are not the text at any place,
    so no place is noted from there and every chunk is placed where the search finds
    it (each chunk's span holds its text)."""
    import random

    rng = random.Random(5)
    words = "alpha beta gamma delta epsilon zeta eta theta iota kappa".split()
    sentences = [
        " ".join(rng.choice(words) for _ in range(rng.randint(7, 12))).capitalize() + "."
        for _ in range(1500)
    ]
    # each sentence twice (one group a pair), one pair split by a line break
    text = "".join(s + ("\n" if k == 150 else " ") + s + " " for k, s in enumerate(sentences))
    engine = registry.get("agentos.ChunkingEngine")
    options = {"strategy": "semantic", "chunkSize": 12, "chunkOverlap": 0}
    document = Document(text)
    native, placed = _engine_placed(engine, document, options, RunContext(embedder="hash64"))
    texts = [chunk["content"] for chunk in native]
    assert len(placed.starts) < len(texts)  # the places stop at the line break's group
    assert all(map(text.startswith, texts, placed.starts))  # the ones noted are right
    table = engine.spans(document, native, options, places=placed)
    for k, chunk in enumerate(texts):
        if table.located_ids[k] == 0:  # exact: the span is the chunk's text
            assert text[table.starts[k] : table.ends[k]] == chunk, k


def test_chunk_texts_read_each_chunk_when_asked():
    from chunkview.core.model.span_table import ChunkTexts

    native = [{"content": f"chunk {i}", "index": i} for i in range(5)]
    texts = ChunkTexts(native, "content")
    assert len(texts) == 5 and texts[3] == "chunk 3" and texts[-1] == "chunk 4"
    assert texts[1:4] == ["chunk 1", "chunk 2", "chunk 3"] and texts[::-2] == list(texts)[::-2]
    assert texts.pick([4, 0]) == ["chunk 4", "chunk 0"]
    native[0]["content"] = "changed"  # read when asked, not copied
    assert texts[0] == "changed"
