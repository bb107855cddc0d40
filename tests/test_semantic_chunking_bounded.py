"""semantic-chunking's sentence pass on inputs that used to be slow or to crash."""

import random

from chunkview.core.chunkers.semantic_chunking import reference, sentences


def test_last_word_equals_the_regex_on_many_inputs():
    rng = random.Random(7)
    pieces = [
        "a",
        "Dr.",
        "x)",
        " ",
        "  ",
        "\n",
        "\t",
        "\xa0",
        "\u3000",
        "\ufeff",
        ".",
        "é",
        "\u0085",
    ]
    for _ in range(20_000):
        segment = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 12)))
        assert sentences.last_word(segment) == reference.last_word(segment), repr(segment)


def test_long_run_without_spaces_splits_as_one_sentence():
    run = "x" * 40_000
    assert sentences.split_sentences(f"Before it. {run} after.") == ["Before it.", f"{run} after."]
