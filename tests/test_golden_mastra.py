"""Every public golden case of mastra.chunk (MDocument.from<Doc>(input, metadata).chunk):
as the port runs it, and as its reference alone runs it (the oracle of the fast paths)."""

import pytest
from conftest import golden_params

import chunkview
from chunkview import ChunkerError
from chunkview.core.chunkers.mastra.document import chunk_document
from chunkview.core.chunkers.mastra.entry import FACTORY
from chunkview.core.model.observer import NOBODY


def _check(result, expected) -> None:
    if isinstance(expected, dict):
        assert isinstance(result, dict), result
        assert result["error"] == expected["error"]
        if not expected["message"].startswith("Invalid regular expression"):
            assert result["message"] == expected["message"]  # JSON.parse's words included
    else:
        assert result == expected


@pytest.mark.parametrize("case", golden_params("mastra.chunk"))
def test_mastra_chunk(case):
    try:
        result = chunkview.run(
            "mastra.chunk",
            case["input"],
            case["options"],
            doc=case["doc"],
            metadata=case.get("metadata"),
        )
    except ChunkerError as error:
        result = error.to_json()
    _check(result, case["output"])


@pytest.mark.parametrize("case", golden_params("mastra.chunk"))
def test_mastra_chunk_reference(case):
    doc = case["doc"] if case["doc"] in FACTORY else "text"
    try:
        result = chunk_document(
            case["input"], doc, case.get("metadata"), dict(case["options"]), NOBODY, True
        )
    except ChunkerError as error:
        result = error.to_json()
    _check(result, case["output"])
