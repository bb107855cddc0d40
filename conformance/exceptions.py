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


EXCEPTIONS: list[tuple[str, Predicate, str]] = [
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
