"""Mastra's measured split notes where it cut each chunk (places.py, placing.py) and tells
the run's observer, and the entry places the chunks from those notes instead of
searching for each (entry.py ``spans``): every
chunk noted as the text at its place is the text there, every chunk noted as joined
otherwise spans its first piece to its last, and the spans are those the search gives
wherever the text does not repeat itself."""

import random

from conftest import CORPUS
from hypothesis import given, settings
from hypothesis import strategies as st
from test_mastra_fast_paths import OPTIONS, TEXTS

from chunkview.core import registry
from chunkview.core.chunkers.entry import RunContext
from chunkview.core.chunkers.mastra import entry as entry_module
from chunkview.core.chunkers.mastra import measured_split
from chunkview.core.chunkers.mastra.places import PlaceNotes
from chunkview.core.chunkers.mastra.placing import piece_offsets, split_placed
from chunkview.core.chunkers.mastra.reference.splitter import split_on_separator
from chunkview.core.errors import ChunkerError
from chunkview.core.layout.placing import located_table
from chunkview.core.model.document import Document
from chunkview.core.model.observer import RunNotes
from chunkview.core.text.js import to_units
from chunkview.core.text.jsregex import escape, literal_of
from chunkview.core.text.kept import LONG_TEXT
from conformance.cases import REGEX_SEPARATORS, SEPARATORS

ENTRY = registry.get("mastra.chunk")


class Placed(list):
    """The chunk nodes of a run (a list) and the places it told its observer."""

    def __init__(self, nodes: list, places: PlaceNotes) -> None:
        super().__init__(nodes)
        self.places = places
        self.starts, self.verbatim, self.rewritten = (
            places.starts,
            places.verbatim,
            places.rewritten,
        )


def _placed(text: str, options: dict, reasons: bool = False) -> Placed | None:
    """The run's nodes with the places it told, when it told every chunk's."""
    notes = RunNotes(reasons=reasons, places=True)
    try:
        native = ENTRY.run(Document(text), dict(options), RunContext(observer=notes))
    except ChunkerError:
        return None
    places = notes.places
    if isinstance(places, PlaceNotes) and places.fits(len(native)):
        return Placed(native, places)
    return None


def _check_notes(text: str, native: Placed) -> int:
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


@settings(max_examples=200, deadline=None)
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


SPLIT_TEXTS = st.lists(
    st.sampled_from(["a", "bc", ",", ",,", " ", "\r\n", "\n", "😀", "\ud83d", "\ude00", "東"]),
    max_size=30,
).map(lambda parts: to_units("".join(parts)))
KEEP = st.sampled_from([False, True, "start", "end"])


@settings(max_examples=200, deadline=None)
@given(SPLIT_TEXTS, st.sampled_from([",", ",,", " ", "", "\r\n", *SEPARATORS]), KEEP)
def test_piece_offsets_are_where_each_piece_of_the_split_starts(text, separator, keep):
    """``placing.piece_offsets`` against the pieces ``split_on_separator`` (the
    reference) cuts, each found at its offset, in each keepSeparator mode."""
    separator = to_units(separator)
    pieces = split_on_separator(text, escape(separator), keep)
    offsets = piece_offsets(text, separator, keep)
    assert len(offsets) == len(pieces)
    assert all(map(text.startswith, pieces, offsets))
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
            table = ENTRY.spans(document, native, options, places=native.places)
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
    document = Document(text)
    units = to_units(text)
    assert len(units) > LONG_TEXT
    for keep in (False, "start", "end"):
        options = {"strategy": "recursive", "maxSize": 300, "overlap": 30, "keepSeparator": keep}
        for _ in range(2):  # kept from its second run
            ENTRY.run(document, options, RunContext())
        kept = measured_split.levels_kept_for(units)
        assert kept is not None and kept.text is units and kept.root is not None
        assert kept.root.at is None  # nothing placed yet
        native = _placed(text, options)
        assert native is not None and measured_split.levels_kept_for(units) is kept
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
        table = ENTRY.spans(document, native, options, places=native.places)
        assert all(span.located != "missing" for span in table), name
        texts = [node["text"] for node in native]
        searched = located_table(text, texts, ["recursive"] * len(texts), {})
        lost_by_search += sum(span.located == "missing" for span in searched)
    assert lost_by_search > 30  # what the search left unplaced


@settings(max_examples=200, deadline=None)
@given(
    SPLIT_TEXTS,
    st.sampled_from(
        ["\\n+", ",", "(,)", "(a)?,", "(,)(b)?", "a|(b)", "[ab]{2}", "x*", *REGEX_SEPARATORS]
    ),
    KEEP,
)
def test_split_placed_gives_the_split_and_where_each_piece_starts(text, pattern, keep):
    """``placing.split_placed`` against ``split_on_separator`` (the reference) for
    regexes with and without groups, in each keepSeparator mode: the same pieces, each
    at its offset where it is the text there (-1 where a capture and a separator are
    joined that do not touch)."""
    if not pattern:
        return  # (the empty source splits into units; split_placed takes a regex)
    try:
        expected = split_on_separator(text, pattern, keep)
    except ChunkerError:
        return  # (a source JS refuses)
    pieces, offsets = split_placed(text, pattern, keep)
    assert pieces == expected
    assert len(offsets) == len(pieces)
    for piece, at in zip(pieces, offsets, strict=True):
        assert at == -1 or (piece is not None and text.startswith(piece, at))


def test_a_run_with_reasons_is_placed_as_one_without(monkeypatch):
    """Reasons take the library's loop, which notes no places: the measured split runs
    again for them, so the layout is placed as it is without reasons. Only a run that
    could take the measured split runs twice."""
    calls: list[str] = []
    chunk_document = entry_module.chunk_document

    def counted(text, doc, metadata, options, observer):
        calls.append(options.get("strategy"))
        return chunk_document(text, doc, metadata, options, observer)

    monkeypatch.setattr(entry_module, "chunk_document", counted)
    text = (CORPUS / "redis-readme.md").read_text(encoding="utf-8")
    document = Document(text)
    options = {"strategy": "recursive", "maxSize": 300, "overlap": 50}
    plain = ENTRY.chunk(document, dict(options), RunContext())
    notes = RunNotes(places=False)
    explained = ENTRY.chunk(document, dict(options), RunContext(observer=notes))
    assert notes.reasons and explained.native == plain.native
    assert calls == ["recursive"] * 3  # once without reasons, twice with them
    assert [(s.start, s.end, s.located) for s in explained.spans] == [
        (s.start, s.end, s.located) for s in plain.spans
    ]
    calls.clear()
    ENTRY.chunk(
        document,
        {"strategy": "character", "maxSize": 300},
        RunContext(observer=RunNotes(places=False)),
    )
    assert calls == ["character"]  # it notes no places either way: one run


def test_a_regex_level_of_very_many_pieces_is_searched_for(monkeypatch):
    """Reading a regex split match by match for its offsets costs about 0.3 µs a match:
    past ``_PLACED_MATCHES`` pieces the level's chunks are searched for, as they were
    before any was placed (here with the bound lowered to a few)."""
    monkeypatch.setattr(measured_split, "_PLACED_MATCHES", 5)
    text = "one two three four five six seven eight nine ten eleven twelve"
    options = {"strategy": "recursive", "maxSize": 12, "overlap": 0, "separators": ["\\s"]}
    native = _placed(text, {**options, "isSeparatorRegex": True})
    assert native is not None and set(native.starts) == {-1}
    table = ENTRY.spans(Document(text), native, options, places=native.places)
    texts = [node["text"] for node in native]
    searched = located_table(text, texts, ["recursive"] * len(texts), {})
    assert [(s.start, s.end, s.located) for s in table] == [
        (s.start, s.end, s.located) for s in searched
    ]
    few = _placed("one two three", {**options, "isSeparatorRegex": True})
    assert few is not None and -1 not in few.starts  # under the bound: placed
