"""Regressions of semantic-chunking found against the original with the conformance
harness; every expected value was produced by semantic-chunking 3.0.2 under node 20."""

import pytest

import chunkview
from chunkview.core.chunkers.semantic_chunking.sentences import split_sentences


def run(entry: str, documents, options: dict | None = None):
    try:
        return chunkview.run(entry, documents, options or {})
    except chunkview.ChunkerError as error:
        return error.to_json()


def test_unit_after_a_second_period_space_is_uppercased_too():
    # /(?<=\.\s+)\S/g upper-cases both the "." and the "y": ICU then breaks before "Y"
    assert split_sentences(". . y") == [". .", "y"]
    assert split_sentences("It ends. . yes it does. . . ok") == [
        "It ends. .",
        "yes it does. . .",
        "ok",
    ]


@pytest.mark.parametrize("entry", ["semantic-chunking.cramit", "semantic-chunking.sentenceit"])
def test_an_early_failure_wins_over_a_text_cheerio_refuses(entry):
    documents = [{"document_text": 5}, {"document_name": "b", "document_text": ""}]
    result = run(entry, documents)
    assert result["message"] == "Each document must have a document_text property"


def test_letters_cased_since_unicode_16_are_uppercased_after_a_period():
    # node's ICU knows Ɤ and Ƛ as the capitals of ɤ and ƛ: the copy has a capital, ICU breaks
    assert split_sentences("IPA has it. ɤ is a vowel. ƛ too.") == [
        "IPA has it.",
        "ɤ is a vowel.",
        "ƛ too.",
    ]
