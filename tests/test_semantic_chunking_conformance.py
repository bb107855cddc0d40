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


@pytest.mark.parametrize(
    ("cache", "shown"),
    [(None, "null"), (0, "0"), (1e-7, "1e-7"), ([1, [2, None], None, True], "1,2,,,true")],
)
def test_a_cache_mode_only_the_set_holds_is_refused(cache, shown):
    # new Set(['request', 'instance', false]).has(v): null and 0 are no cache mode
    result = run("semantic-chunking.cramit", [{"document_text": "A b."}], {"cache": cache})
    assert result == {
        "error": "Error",
        "message": f"Invalid cache mode \"{shown}\". Expected 'request', 'instance', or false.",
    }


def test_a_null_model_and_dtype_are_reported_as_null_on_the_provider_path():
    # destructuring defaults replace undefined only
    output = chunkview.run(
        "semantic-chunking.cramit",
        [{"document_text": "A b."}],
        {"onnxEmbeddingModel": None, "dtype": None},
        embedder="hash64:provider",
    )
    assert (output[0]["model_name"], output[0]["dtype"]) == (None, None)


PREFIX_ERROR = "SyntaxError"
CHEERIO_ERROR = "TypeError"


@pytest.mark.parametrize(
    ("texts", "options", "wanted"),
    [
        (["b", 5], {}, PREFIX_ERROR),  # both fail on the first await: the first document wins
        ([5, "b"], {}, CHEERIO_ERROR),
        (["b", 5], {"returnEmbedding": True}, CHEERIO_ERROR),  # the regex comes awaits later
    ],
)
def test_a_bad_prefix_regex_and_a_refused_text_reject_in_document_order(texts, options, wanted):
    documents = [{"document_text": t} for t in texts]
    options = dict(options, chunkPrefix="(x", excludeChunkPrefixInResults=True)
    assert run("semantic-chunking.cramit", documents, options)["error"] == wanted


def test_a_document_without_sentences_builds_no_prefix_regex_in_sentenceit():
    documents = [{"document_text": "  "}, {"document_text": True}]
    options = {"chunkPrefix": "(x", "excludeChunkPrefixInResults": True}
    assert run("semantic-chunking.sentenceit", documents, options) == {
        "error": "TypeError",
        "message": "Cannot create property 'prev' on boolean 'true'",
    }
