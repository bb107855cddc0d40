"""Documented exceptions: disagreements that are known, explained and accepted.

Each is a predicate over (case, JS outcome, Python outcome) and a reason; the README lists
them. A mismatch that one of them covers is counted apart and never becomes a golden case.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Predicate = Callable[[dict, Any, Any], bool]


def _js_slow(case: dict, expected: Any, actual: Any) -> bool:
    """Node did not finish within the long recheck limit while the port returned."""
    return bool(case.get("_js_slow"))


def _json_memory(case: dict, expected: Any, actual: Any) -> bool:
    """mastra json with a tiny maxSize on a long string: the port stops at once."""
    return (
        case["entry"] == "mastra.chunk"
        and isinstance(actual, dict)
        and actual.get("error") == "RangeError"
        and "Invalid array length" in str(actual.get("message"))
        and isinstance(expected, dict)
        and (expected.get("error") == "Hang" or "crash" in expected)
    )


EXCEPTIONS: list[tuple[str, Predicate, str]] = [
    (
        "mastra-json-array-length",
        _json_memory,
        "mastra json with maxSize ≤ 20 and a string longer than that: the original grows an "
        "array until V8 throws RangeError 'Invalid array length' or memory runs out, which "
        "takes minutes; the port raises that RangeError at once",
    ),
    (
        "node-slower-than-limit",
        _js_slow,
        "node took longer than the recheck limit (60 s by default) and the port returned; "
        "the original may finish after that, the harness cannot tell a slow case from a hang",
    ),
]


def exception_for(case: dict, expected: Any, actual: Any) -> str | None:
    for name, predicate, _reason in EXCEPTIONS:
        if predicate(case, expected, actual):
            return name
    return None
