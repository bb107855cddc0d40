"""One decoration function feeds every painter: the runs, and the editor and HTML export
drawing the same ones."""

import re

import pytest

from chunkview.core.analysis.compare import compare_boundaries
from chunkview.core.build import build_layout
from chunkview.core.chunkers.entry import RunContext
from chunkview.core.model.document import Document
from chunkview.core.model.spans import Span
from chunkview.core.runtime.pipeline import ChunkRequest, Pipeline
from chunkview.core.views.decorations import Run, decorations
from chunkview.export_html import render_html

TEXT = "alpha beta gamma delta epsilon zeta eta theta"


def _request():
    options = {"targetSize": 20, "minSize": 0, "overlap": 0}
    return ChunkRequest(1, "agentos.SemanticChunker", Document(TEXT), options)


def _layout():
    # chunk 1 repeats "gamma " from chunk 0; chunk 2 starts cleanly
    spans = [
        Span(0, 0, 17, 0, "paragraph", TEXT[0:17]),
        Span(1, 11, 31, 17, "sentence", TEXT[11:31]),
        Span(2, 31, len(TEXT), 31, "fixed", TEXT[31:]),
    ]
    return build_layout(Document(TEXT), spans)


def test_runs_cover_chunks_overlaps_boundaries_and_hits():
    diff = compare_boundaries([0, 17, 31], [0, 17, 20], len(TEXT))
    runs = decorations(_layout(), query="gam zeta", diff=diff, selected=1)
    by_kind = {k: [r for r in runs if r.kind == k] for k in ("chunk", "overlap", "boundary")}
    assert [(r.start, r.end, r.chunk) for r in by_kind["chunk"]] == [
        (0, 17, 0),
        (17, 31, 1),
        (31, len(TEXT), 2),
    ]
    assert [r.selected for r in by_kind["chunk"]] == [False, True, False]
    assert [(r.start, r.end, r.chunk) for r in by_kind["overlap"]] == [(11, 17, 1)]
    assert [(r.start, r.label) for r in by_kind["boundary"]] == [(17, "sentence"), (31, "fixed")]
    assert [(r.start, r.end) for r in runs if r.kind == "hit"] == [(11, 16), (31, 35)]
    # 20 meets B chunks of 3 and 25 characters: too far from 31 to be a move
    assert [(r.start, r.label) for r in runs if r.kind == "diff"] == [
        (0, "kept"),
        (17, "kept"),
        (20, "added"),
        (31, "removed"),
    ]
    kinds = [r.kind for r in runs]
    assert kinds == sorted(
        kinds, key=["chunk", "overlap", "moved", "hit", "boundary", "diff"].index
    )


def test_a_moved_boundary_paints_the_stretch_it_travelled():
    diff = compare_boundaries([0, 17, 31], [0, 17, 34], len(TEXT))
    runs = decorations(_layout(), 25, 40, diff=diff)
    assert [(r.start, r.end) for r in runs if r.kind == "moved"] == [(31, 34)]
    assert [(r.start, r.label) for r in runs if r.kind == "diff"] == [(34, "moved")]
    page = render_html(Pipeline().run(_request(), RunContext()), "t", diff, "B")
    assert 'class="df moved"' in page and "moved by 3 chars" in page


def test_runs_follow_the_range_not_the_text():
    runs = decorations(_layout(), 32, 40, query="zeta eta")
    assert {r.chunk for r in runs if r.kind == "chunk"} == {2}
    assert all(r.end >= 32 and r.start <= 40 for r in runs)
    assert [(r.start, r.end) for r in runs if r.kind == "hit"] == [(31, 35), (36, 39)]


def test_missing_chunks_paint_nothing():
    layout = build_layout(Document("abc"), [Span(0, 3, 3, 3, "x", "zzz", "missing")])
    assert decorations(layout) == []


def _html_runs(page: str) -> set[tuple]:
    """Read the painted runs back out of the HTML page's <pre>."""
    body = re.search(r"<pre>(.*)</pre>", page, re.S).group(1)
    runs, at = set(), 0
    open_runs: dict[tuple, int] = {}
    for match in re.finditer(
        r'<span class="([^"]*)"(?: data-chunk="(\d+)")?>([^<]*)</span>|'
        r'<span class="mark"[^>]*></span><span class="lbl">#\d+</span>|'
        r"([^<]+)",
        body,
    ):
        classes, chunk, inner, plain = match.groups()
        if match.group(0).startswith('<span class="mark"'):
            continue
        piece = inner if classes is not None else plain
        length = len(
            piece.replace("&lt;", "<")
            .replace("&gt;", ">")
            .replace("&amp;", "&")
            .replace("&#x27;", "'")
            .replace("&quot;", '"')
        )
        keys = set()
        for name in (classes or "").split():
            keys.add(("chunk", int(chunk)) if name in ("c0", "c1") else (name,))
        for key in list(open_runs):
            if key not in keys:
                runs.add((*key, open_runs.pop(key), at))
        for key in keys:
            open_runs.setdefault(key, at)
        at += length
    for key, start in open_runs.items():
        runs.add((*key, start, at))
    return runs


def _as_keys(runs: list[Run]) -> set[tuple]:
    keys = set()
    for run in runs:
        if run.kind == "chunk":
            keys.add(("chunk", run.chunk, run.start, run.end))
        elif run.kind == "overlap":
            keys.add(("ov", run.start, run.end))
        elif run.kind == "hit":
            keys.add(("hit", run.start, run.end))
    return keys


@pytest.mark.parametrize(
    "entry, options",
    [
        ("agentos.SemanticChunker", {"targetSize": 60, "maxSize": 90, "minSize": 0, "overlap": 15}),
        ("mastra.chunk", {"strategy": "character", "maxSize": 50, "overlap": 10, "separator": " "}),
    ],
)
def test_html_export_and_editor_paint_the_same_runs(qtbot, entry, options):
    from chunkview.app.editor import ChunkEditor

    text = (
        "Chunking splits text. Overlap repeats a little of it.\n\n"
        "Search words like overlap show where a query falls. "
    ) * 3
    result = Pipeline().run(
        ChunkRequest(1, entry, Document(text, None, "text"), options, query="overlap"),
        RunContext(),
    )
    assert result.layout.overlaps, "the case must have overlaps to compare"
    html_keys = _html_runs(render_html(result, "t"))

    editor = ChunkEditor()
    qtbot.addWidget(editor)
    editor.resize(1400, 1400)  # the whole text in view
    editor.show()
    editor.set_text(text)
    editor.set_query("overlap")
    editor.set_result(result)
    qtbot.wait(30)
    editor_keys = _as_keys(editor.runs())
    expected = _as_keys(decorations(result.layout, 0, len(text), "overlap"))
    assert editor_keys == expected
    # what the editor applied as extra selections matches its runs
    assert {("chunk", i, a, b) for i, (a, b) in editor.chunk_ranges().items()} == {
        k for k in editor_keys if k[0] == "chunk"
    }
    assert {("hit", a, b) for a, b in editor.search_ranges()} == {
        k for k in editor_keys if k[0] == "hit"
    }
    # the page paints the same chunk, overlap and hit runs (it merges abutting pieces of
    # one run, so compare after merging the same way)
    assert html_keys == _merge(editor_keys)


def _merge(keys: set[tuple]) -> set[tuple]:
    """Merge runs of one key that abut (the page cannot tell them apart)."""
    grouped: dict[tuple, list[tuple[int, int]]] = {}
    for key in keys:
        grouped.setdefault(key[:-2], []).append(key[-2:])
    merged = set()
    for head, ranges in grouped.items():
        ranges.sort()
        start, end = ranges[0]
        for a, b in ranges[1:]:
            if a <= end:
                end = max(end, b)
            else:
                merged.add((*head, start, end))
                start, end = a, b
        merged.add((*head, start, end))
    return merged
