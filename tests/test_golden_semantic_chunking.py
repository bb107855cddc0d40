"""Every public golden case of semantic-chunking chunkit, cramit and sentenceit."""

import pytest
from conftest import golden_params

import chunkview
from chunkview import ChunkerError

CASES = [
    *golden_params("semantic-chunking.chunkit"),
    *golden_params("semantic-chunking.cramit"),
    *golden_params("semantic-chunking.sentenceit"),
]


@pytest.mark.parametrize("case", CASES)
def test_semantic_chunking(case):
    # "stub-provider": hash64 served through the library's local-provider path
    embedder = case["embedder"] + (":provider" if case["embed_path"] == "stub-provider" else "")
    try:
        result = chunkview.run(
            case["entry"],
            case["documents"],
            case["options"],
            embedder=embedder,
            tokenizer=case["tokenizer"],
        )
    except ChunkerError as error:
        assert case["error"] is not None, f"unexpected {error.name}: {error.message}"
        assert error.name == case["error"]["name"]
        if error.name not in ("TypeError", "SyntaxError"):  # V8 / cheerio texts
            assert error.message == case["error"]["message"]
        return
    assert case["error"] is None, f"expected {case['error']}"
    for item in result:
        assert isinstance(item["document_id"], int)  # Date.now(): frozen in the cases
        item["document_id"] = 1700000000000
    assert result == case["output"]
