"""Mastra's recursive split notes where it cut each chunk (places.py), and the app places
the chunks from those notes instead of searching for each (entry.py ``spans``): every
chunk noted as the text at its place is the text there, every chunk noted as joined
otherwise spans its first piece to its last, and the spans are those the search gives
wherever the text does not repeat itself."""

import random

from conftest import CORPUS
from hypothesis import given, settings
from test_mastra_fast_paths import OPTIONS, TEXTS

from chunkview.core import registry
from chunkview.core.chunkers.entry import RunContext
from chunkview.core.chunkers.mastra import recursive
from chunkview.core.chunkers.mastra.entry import PlacedNodes
from chunkview.core.chunkers.mastra.recursive import piece_offsets
from chunkview.core.chunkers.mastra.splitter import split_on_separator, split_placed
from chunkview.core.errors import ChunkerError
from chunkview.core.layout.placing import located_table
from chunkview.core.model.document import Document
from chunkview.core.text.js import to_units
from chunkview.core.text.jsregex import literal_of

ENTRY = registry.get("mastra.chunk")


def _placed(text: str, options: dict) -> PlacedNodes | None:
    try:
        native = ENTRY.run_to_place(Document(text), dict(options), RunContext())
    except ChunkerError:
        return None
    return native if isinstance(native, PlacedNodes) else None


def _check_notes(text: str, native: PlacedNodes) -> int:
    """Each noted chunk against the text; the number of chunks placed verbatim."""
    units = to_units(text)
    assert len(native.starts) == len(native.verbatim) == len(native)
    verbatim_at = -1
    for number, node in enumerate(native):
        chunk, start = to_units(node["text"]), native.starts[number]
        if native.verbatim[number]:
            assert start >= 0 and units.startswith(chunk, start), (number, start)
            assert start >= verbatim_at  # in the order of the text
            verbatim_at = start
        elif number in native.rewritten:  # from its first piece to its last
            end = native.rewritten[number]
            assert 0 <= start < end <= len(units)
    return sum(native.verbatim)


@settings(max_examples=400, deadline=None)
@given(TEXTS, OPTIONS)
def test_every_noted_chunk_is_where_the_notes_say(text, options):
    native = _placed(text, options)
    if native is not None:
        _check_notes(text, native)


def test_literal_separators_place_what_they_cut_in_every_keep_mode():
    """Random texts of separators and words, each keepSeparator mode, literal and regex
    separators that are plain strings (markdown's "\\n\\n"), escaped ones whose glue is
    the regex's source: every run is noted, and every note holds."""
    rng = random.Random(31)
    words = ["alpha", "be", " ", "  ", "\n", "\n\n", "\n\n\n", ".", "..", "\t", "x" * 30]
    placed = verbatim = rewritten = 0
    for _ in range(1500):
        text = "".join(rng.choice(words) for _ in range(rng.randint(0, 120)))
        options = {
            "strategy": "recursive",
            "maxSize": rng.randint(1, 60),
            "overlap": rng.choice([0, 0, 3, 10, 100]),
            "keepSeparator": rng.choice([False, False, True, "start", "end"]),
            "stripWhitespace": rng.random() < 0.8,
            "separators": rng.choice(
                [["\n\n", "\n", " ", ""], [".", " "], ["\\.", " ", ""], ["\n\n", "."]]
            ),
            "isSeparatorRegex": rng.random() < 0.3,
        }
        native = _placed(text, options)
        if native is None:
            continue
        placed += 1
        verbatim += _check_notes(text, native)
        rewritten += len(native.rewritten)
        # a chunk joined otherwise holds what the text holds from its first piece to its
        # last but for separators (dropped, or joined with a regex's source), where they
        # are plain strings (a regex's matches are whatever it matched)
        separators = options["separators"]
        if options["isSeparatorRegex"] and None in map(literal_of, separators):
            continue
        dropped = str.maketrans("", "", "".join(separators))
        for number, end in native.rewritten.items():
            region = text[native.starts[number] : end]
            chunk = native[number]["text"]
            assert chunk.translate(dropped) == region.translate(dropped), (options, number)
    assert placed > 1000 and verbatim > 10_000 and rewritten > 100


def test_piece_offsets_are_where_each_piece_of_the_split_starts():
    """``piece_offsets`` against the pieces ``split_on_separator`` cuts, found one after
    the other in the text, in each keepSeparator mode."""
    rng = random.Random(32)
    for _ in range(3000):
        text = "".join(rng.choice(["a", "bc", ",", ",,", " "]) for _ in range(rng.randint(0, 30)))
        separator = rng.choice([",", ",,", " ", ""])
        keep = rng.choice([False, True, "start", "end"])
        pieces = split_on_separator(text, separator, keep)  # (none of them a regex's)
        offsets = piece_offsets(text, separator, keep)
        assert len(offsets) == len(pieces), (text, separator, keep)
        assert all(map(text.startswith, pieces, offsets)), (text, separator, keep)
        assert offsets == sorted(offsets)


def test_the_spans_are_the_searched_ones_but_where_the_search_goes_astray():
    """On real documents the table placed from the notes is the one the search builds,
    span for span, but where the search went astray: it took another copy of a chunk
    in a text that repeats itself, or lost a chunk that starts where the one before
    starts (an overlap as large as maxSize), as it looks past the last start. There the
    notes still place each chunk where it is; no chunk placed is missing, and none the
    search finds as it is is placed otherwise."""
    rng = random.Random(33)
    runs = spans = differing = 0
    for path in sorted(CORPUS.iterdir()):
        document = Document(path.read_text(encoding="utf-8"))
        for _ in range(3):
            options = {
                "strategy": "recursive",
                "maxSize": rng.choice([40, 200, 1000, 4000]),
                "overlap": rng.choice([0, 20, 200]),
                "keepSeparator": rng.choice([False, "start", "end"]),
            }
            native = _placed(document.text, options)
            if native is None:
                continue
            table = ENTRY.spans(document, native, options)
            texts = [node["text"] for node in native]
            searched = located_table(document.text, texts, ["recursive"] * len(texts), {})
            assert len(table) == len(searched)
            for placed, found in zip(table, searched, strict=True):
                assert placed.located != "missing"
                if (placed.start, placed.end, placed.located) == (
                    found.start,
                    found.end,
                    found.located,
                ):
                    continue
                differing += 1
                if found.located == "exact":  # another copy of it
                    assert placed.located == "exact"
                    chunk = document.text[placed.start : placed.end]
                    assert document.text.startswith(chunk, found.start)
            runs += 1
            spans += len(table)
    assert runs > 20 and differing < spans // 10


def test_levels_kept_by_a_run_that_noted_nothing_are_placed_later():
    """A long text is split once, its levels kept, by a run that places nothing (``run``,
    as a benchmark or copy-as-code check makes); the next run that places its chunks
    works out where the kept pieces lie, in each keepSeparator mode."""
    text = "\n\n".join(
        path.read_text(encoding="utf-8")
        for path in sorted(CORPUS.iterdir())
        if path.suffix in (".md", ".rst")
    )
    assert len(text) > recursive._KEEP_FROM
    document = Document(text)
    for keep in (False, "start", "end"):
        options = {"strategy": "recursive", "maxSize": 300, "overlap": 30, "keepSeparator": keep}
        for _ in range(2):  # kept from its second run
            ENTRY.run(document, options, RunContext())
        kept = recursive._last_levels
        assert kept is not None and kept.text is document.text and kept.root is not None
        assert kept.root.at is None  # nothing placed yet
        native = _placed(text, options)
        assert native is not None and recursive._last_levels is kept
        assert kept.root.at is not None
        assert _check_notes(text, native) > 0.9 * len(native)


def test_a_regex_level_places_its_pieces_from_its_matches():
    """A level split at a regex places its pieces where the split's matches left them,
    and so its chunks and those below it. The library joins a regex level's pieces with
    the regex's source (LaTeX's and markdown's separators): the search finds such a
    chunk nowhere, the notes place it from its first piece to its last."""
    cases = [
        ("libhttplib2.tex", {"strategy": "latex", "maxSize": 500}),
        ("libhttplib2.tex", {"strategy": "latex", "maxSize": 100, "overlap": 30}),
        ("acorn-readme.md", {"strategy": "markdown", "maxSize": 300}),
        ("redis-readme.md", {"strategy": "markdown", "maxSize": 300, "keepSeparator": "start"}),
    ]
    lost_by_search = 0
    for name, options in cases:
        text = (CORPUS / name).read_text(encoding="utf-8")
        native = _placed(text, options)
        assert native is not None and -1 not in native.starts
        _check_notes(text, native)
        document = Document(text)
        table = ENTRY.spans(document, native, options)
        assert all(span.located != "missing" for span in table), name
        texts = [node["text"] for node in native]
        searched = located_table(text, texts, ["recursive"] * len(texts), {})
        lost_by_search += sum(span.located == "missing" for span in searched)
    assert lost_by_search > 30  # what the search left unplaced


def test_split_placed_gives_the_split_and_where_each_piece_starts():
    """``split_placed`` against ``split_on_separator`` for regexes with and without
    groups, in each keepSeparator mode: the same pieces, each at its offset where it is
    the text there (-1 where a capture and a separator are joined that do not touch)."""
    rng = random.Random(34)
    patterns = ["\\n+", ",", "(,)", "(a)?,", "(,)(b)?", "a|(b)", "[ab]{2}", "x*"]
    for _ in range(3000):
        text = "".join(
            rng.choice(["a", "b", ",", ",,", "\n", " "]) for _ in range(rng.randint(0, 25))
        )
        pattern = rng.choice(patterns)
        keep = rng.choice([False, True, "start", "end"])
        pieces, offsets = split_placed(text, pattern, keep)
        assert pieces == split_on_separator(text, pattern, keep), (text, pattern, keep)
        assert len(offsets) == len(pieces)
        for piece, at in zip(pieces, offsets, strict=True):
            assert at == -1 or (piece is not None and text.startswith(piece, at))


def test_a_run_with_reasons_is_placed_as_one_without(monkeypatch):
    """Reasons take the library's loop, which notes no places: the measured split runs
    again for them, so the layout is placed as it is without reasons. Only a run that
    could take the measured split runs twice."""
    from chunkview.core.chunkers.mastra import entry as entry_module

    calls: list[str] = []
    chunk_document = entry_module.chunk_document

    def counted(text, doc, metadata, options):
        calls.append(options.get("strategy"))
        return chunk_document(text, doc, metadata, options)

    monkeypatch.setattr(entry_module, "chunk_document", counted)
    text = (CORPUS / "redis-readme.md").read_text(encoding="utf-8")
    document = Document(text)
    options = {"strategy": "recursive", "maxSize": 300, "overlap": 50}
    plain = ENTRY.chunk(document, dict(options), RunContext())
    reasons: list = []
    explained = ENTRY.chunk(document, dict(options), RunContext(explain=reasons))
    assert isinstance(explained.native, PlacedNodes) and reasons
    assert calls == ["recursive"] * 3  # once without reasons, twice with them
    assert [(s.start, s.end, s.located) for s in explained.spans] == [
        (s.start, s.end, s.located) for s in plain.spans
    ]
    calls.clear()
    ENTRY.chunk(document, {"strategy": "character", "maxSize": 300}, RunContext(explain=[]))
    assert calls == ["character"]  # it notes no places either way: one run


def test_a_regex_level_of_very_many_pieces_is_searched_for(monkeypatch):
    """Reading a regex split match by match for its offsets costs about 0.3 µs a match:
    past ``_PLACED_MATCHES`` pieces the level's chunks are searched for, as they were
    before any was placed (here with the bound lowered to a few)."""
    monkeypatch.setattr(recursive, "_PLACED_MATCHES", 5)
    text = "one two three four five six seven eight nine ten eleven twelve"
    options = {"strategy": "recursive", "maxSize": 12, "overlap": 0, "separators": ["\\s"]}
    native = _placed(text, {**options, "isSeparatorRegex": True})
    assert native is not None and set(native.starts) == {-1}
    table = ENTRY.spans(Document(text), native, options)
    texts = [node["text"] for node in native]
    searched = located_table(text, texts, ["recursive"] * len(texts), {})
    assert [(s.start, s.end, s.located) for s in table] == [
        (s.start, s.end, s.located) for s in searched
    ]
    few = _placed("one two three", {**options, "isSeparatorRegex": True})
    assert few is not None and -1 not in few.starts  # under the bound: placed
