"""Every public golden case of mastra.chunk (MDocument.from<Doc>(input, metadata).chunk)."""

import pytest
from conftest import golden_params

import chunkview
from chunkview import ChunkerError


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
    expected = case["output"]
    if isinstance(expected, dict):
        assert isinstance(result, dict), result
        assert result["error"] == expected["error"]
        if not expected["message"].startswith("Invalid regular expression"):
            assert result["message"] == expected["message"]  # JSON.parse's words included
    else:
        assert result == expected
