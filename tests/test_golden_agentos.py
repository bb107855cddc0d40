"""Every public golden case of the agentos ports, one test id per case."""

import pytest
from conftest import golden_params

import chunkview
from chunkview import ChunkerError


def _run(case: dict):
    kwargs = {}
    if "metadata" in case:
        kwargs["metadata"] = case["metadata"]
    if case.get("embedder"):
        kwargs["embedder"] = case["embedder"]
    try:
        return chunkview.run(case["entry"], case["input"], case["options"], **kwargs)
    except ChunkerError as error:
        return error.to_json()


@pytest.mark.parametrize("case", golden_params("agentos.SemanticChunker"))
def test_semantic_chunker(case):
    result = _run(case)
    if isinstance(case["output"], dict):  # an error: names are compared
        assert isinstance(result, dict) and result["error"] == case["output"]["error"]
    else:
        assert result == case["output"]


@pytest.mark.parametrize("case", golden_params("agentos.ChunkingEngine"))
def test_chunking_engine(case):
    result = _run(case)
    expected = case["output"]
    if isinstance(expected, dict):
        assert isinstance(result, dict) and result["error"] == expected["error"]
        if expected["error"] != "Hang":
            assert result["message"] == expected["message"]
    else:
        assert result == expected
