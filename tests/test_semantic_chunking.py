"""semantic-chunking beyond the golden cases: caching, the GUI wrapper, token choice."""

from typing import ClassVar

import chunkview
from chunkview import ChunkerError, Document
from chunkview.core.chunkers.semantic_chunking import reference
from chunkview.core.chunkers.semantic_chunking.sentences import split_sentences
from chunkview.core.text import embed
from chunkview.core.text.kept import forget

TEXT = (
    "Cats purr when content. Cats nap in the sun. Dogs bark at strangers. "
    "Dogs fetch sticks happily. Rain falls on the roof. Rain fills the gutters. "
) * 3


class Counting(embed.Hash64):
    name = "counting"
    calls: ClassVar[list[list[str]]] = []

    def embed(self, texts):
        Counting.calls.append(list(texts))
        return super().embed(texts)


def _with_counting(run):
    embed._FACTORIES["counting"] = Counting
    Counting.calls = []
    try:
        return run()
    finally:
        del embed._FACTORIES["counting"]
        embed._instances.pop("counting", None)
        for key in [k for k in embed._cache if k[0] == "counting"]:
            del embed._cache[key]


def test_threshold_change_does_not_embed_sentences_again():
    def run():
        document = Document(TEXT)
        chunkview.run(
            "semantic-chunking.chunkit", document, {"combineChunks": False}, embedder="counting"
        )
        assert Counting.calls, "the first run embeds the sentences"
        sentences = {t for call in Counting.calls for t in call}
        Counting.calls.clear()
        for threshold in (0.3, 0.6, 0.9):
            chunkview.run(
                "semantic-chunking.chunkit",
                document,
                {"combineChunks": False, "similarityThreshold": threshold, "maxTokenSize": 40},
                embedder="counting",
            )
        assert Counting.calls == []  # nothing embedded again
        # with combining, only new multi-sentence chunk texts can reach the embedder
        chunkview.run(
            "semantic-chunking.chunkit",
            document,
            {"similarityThreshold": 0.45},
            embedder="counting",
        )
        embedded = {t for call in Counting.calls for t in call}
        assert not embedded & sentences

    _with_counting(run)


def test_document_is_wrapped_as_one_named_document(tmp_path):
    path = tmp_path / "notes.txt"
    path.write_text(TEXT)
    result = chunkview.run(
        "semantic-chunking.cramit", chunkview.load_document(path), {"maxTokenSize": 30}
    )
    assert {r["document_name"] for r in result} == {"notes.txt"}
    assert result[0]["chunk_number"] == 1 and result[0]["number_of_chunks"] == len(result)


def test_a_plain_string_is_the_libraries_error():
    try:
        chunkview.run("semantic-chunking.chunkit", "some text")
    except ChunkerError as error:
        assert error.message == "Input must be an array of document objects"
    else:
        raise AssertionError("a string is not a documents array")


def test_tokenizer_choice_changes_counts():
    document = Document("Tokenization differs between counters, naturally.")
    wordpunct = chunkview.run("semantic-chunking.sentenceit", document)
    cl100k = chunkview.run("semantic-chunking.sentenceit", document, tokenizer="cl100k")
    assert wordpunct[0]["token_length"] == 7  # 5 words, a comma and a period
    assert cl100k[0]["token_length"] != wordpunct[0]["token_length"]


def test_layout_places_joined_sentences():
    text = "First line\nstill first. Second   sentence here!\n\nThird one."
    layout = chunkview.spans("semantic-chunking.sentenceit", Document(text))
    assert [s.located for s in layout.spans] == ["normalized", "normalized", "exact"]
    assert text[layout.spans[0].start : layout.spans[0].end] == "First line\nstill first."


def test_more_distinct_sentences_than_the_embedding_cache_holds(monkeypatch):
    """The shared cache is cleared when it passes its limit mid-call; the call still has
    every vector (it raised KeyError for documents with many distinct sentences)."""
    from chunkview.core.text import embed

    monkeypatch.setattr(embed, "CACHE_LIMIT", 50)
    embed._cache.clear()
    texts = [f"Sentence {i} is one more to embed here." for i in range(300)]
    vectors = embed.embed_cached("hash64", [*texts, texts[0]], batch=16)
    assert len(vectors) == 301 and vectors[0] == vectors[-1]
    assert vectors[:300] == embed.get_embedder("hash64").embed(texts)


def test_a_new_document_lets_go_of_the_kept_sentences():
    split_sentences("One. Two.")
    assert split_sentences.cache_info().currsize > 0
    forget()
    assert split_sentences.cache_info().currsize == 0


def test_a_merge_whose_first_chunk_was_absorbed_changes_nothing_and_is_a_phantom():
    # §6.5 step 5: (a, b) merges first; (b, c) still counts, but b is no longer listed
    vectors = {"a": [1.0, 0.0], "b": [1.0, 0.1], "c": [0.9, 0.5]}
    limits = reference.MergeLimits(
        max_tokens=10,
        threshold=0.5,
        max_merges_per_pass=500,
        max_uncapped_passes=1,
        max_merges_per_pass_percentage=40,
        uncapped_candidate_merges=12,
    )
    combined = reference.combine(
        ["a", "b", "c"],
        vectors,
        limits,
        lambda texts: [[1.0, 0.0]] * len(texts),
        lambda text: len(text.split()),
        lambda: None,
    )
    assert combined.chunks == ["a b", "c"] and combined.firsts == [0, 2]
    merges = combined.passes[0].merges
    assert [(m.a, m.b, m.phantom) for m in merges] == [(0, 1, False), (1, 2, True)]
