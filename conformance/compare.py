"""Both sides' results compared as the golden tests compare them (tests/test_golden_*.py)."""

from __future__ import annotations

from typing import Any

HANG = "Hang"


def expected_of(entry: str, js: dict) -> Any:
    """The JS outcome as a golden ``output`` (semantic-chunking: ``{output, error}``)."""
    if js.get("hang"):
        if entry.startswith("semantic-chunking."):
            return {"output": None, "error": {"name": HANG, "message": ""}}
        return {"error": HANG, "message": ""}
    if "crash" in js:
        return {"crash": js["crash"]}
    return js["result"]


def actual_of(entry: str, py: dict) -> Any:
    if py.get("hang"):
        return {"timeout": True}
    if "crash" in py:
        return {"crash": py["crash"]}
    return py["result"]


def equal(entry: str, expected: Any, actual: Any) -> bool:
    if isinstance(expected, dict) and ("crash" in expected or "harnessError" in expected):
        return False
    if entry.startswith("semantic-chunking."):
        return _equal_semantic_chunking(expected, actual)
    if isinstance(expected, dict):  # an error
        if not (isinstance(actual, dict) and actual.get("error") == expected.get("error")):
            return False
        if entry == "agentos.SemanticChunker" or expected["error"] == HANG:
            return True
        if expected["error"] == "SyntaxError" and "regular expression" in expected["message"]:
            return True  # V8's regex parser words its errors its own way; JSON.parse's match
        return actual.get("message") == expected.get("message")
    return actual == expected


def _equal_semantic_chunking(expected: Any, actual: Any) -> bool:
    if not isinstance(actual, dict) or "output" not in actual:
        return False
    if expected["error"] is not None:
        error = actual.get("error")
        if error is None or error["name"] != expected["error"]["name"]:
            return False
        return error["name"] in ("TypeError", "SyntaxError", HANG) or (
            error["message"] == expected["error"]["message"]
        )
    if actual.get("error") is not None or not isinstance(actual["output"], list):
        return False
    output = []
    for item in actual["output"]:
        if not isinstance(item, dict) or not isinstance(item.get("document_id"), int):
            return False
        output.append(dict(item, document_id=1700000000000))
    wanted = [
        dict(item, document_id=1700000000000) if isinstance(item, dict) else item
        for item in expected["output"]
    ]
    return output == wanted


def signature(entry: str, expected: Any, actual: Any) -> tuple[str, str]:
    """What kind of disagreement this is: kept while a mismatch is shrunk."""
    return _kind(expected), _kind(actual)


def _kind(value: Any) -> str:
    if isinstance(value, dict):
        if "crash" in value:
            return "crash:" + value["crash"].get("name", "")
        if value.get("timeout"):
            return "timeout"
        if "error" in value and "output" not in value:
            return "error:" + str(value["error"])
        if "output" in value:
            error = value.get("error")
            return "error:" + error["name"] if error else "chunks"
    return "chunks"
