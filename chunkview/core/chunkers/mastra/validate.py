"""Option validation as Mastra's zod schemas report it (spec/mastra.md §2)."""

from __future__ import annotations

from typing import Any

from chunkview.core.errors import ChunkerError
from chunkview.core.text.js import number_text

BASE = (
    "size",
    "maxSize",
    "overlap",
    "lengthFunction",
    "keepSeparator",
    "addStartIndex",
    "stripWhitespace",
)
TOKEN_KEYS = ("encodingName", "modelName", "allowedSpecial", "disallowedSpecial")
STRATEGY_KEYS: dict[str, tuple[str, ...]] = {
    "character": ("separator", "isSeparatorRegex"),
    "recursive": ("separators", "isSeparatorRegex", "language"),
    "sentence": (
        "minSize",
        "targetSize",
        "sentenceEnders",
        "fallbackToWords",
        "fallbackToCharacters",
    ),
    "token": TOKEN_KEYS,
    "semantic-markdown": (*TOKEN_KEYS, "joinThreshold"),
    "json": ("minSize", "ensureAscii", "convertLists"),
    "html": ("headers", "sections", "returnEachLine"),
    "markdown": ("headers", "returnEachLine", "stripHeaders"),
    "latex": (),
}
POSITIVE = {"size", "maxSize", "minSize", "targetSize", "joinThreshold"}
NON_NEGATIVE = {"overlap"}
BOOLEANS = {
    "addStartIndex",
    "stripWhitespace",
    "isSeparatorRegex",
    "fallbackToWords",
    "fallbackToCharacters",
    "ensureAscii",
    "convertLists",
    "returnEachLine",
    "stripHeaders",
}
STRINGS = {"separator", "language", "encodingName", "modelName"}
STRING_ARRAYS = {"separators", "sentenceEnders"}
PAIR_ARRAYS = {"headers", "sections"}
SPECIALS = {"allowedSpecial", "disallowedSpecial"}


def js_type(value: Any) -> str:
    """zod's name for the received type."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if callable(value) or (isinstance(value, dict) and "$fn" in value):
        return "function"
    return "object"


def _issues(name: str, value: Any) -> list[str]:
    """zod's issues with option ``name`` set to ``value``, as ``path: message``."""
    kind = js_type(value)
    if name in POSITIVE or name in NON_NEGATIVE:
        return _number_issues(name, value, kind)
    if name in STRING_ARRAYS or name in PAIR_ARRAYS:
        return _array_issues(name, value, kind)
    if name in BOOLEANS:
        return [] if kind == "boolean" else [f"{name}: Expected boolean, received {kind}"]
    if name in STRINGS:
        return [] if kind == "string" else [f"{name}: Expected string, received {kind}"]
    if name == "lengthFunction":
        return [] if kind == "function" else [f"{name}: Expected function, received {kind}"]
    if name == "keepSeparator":
        return (
            []
            if isinstance(value, bool) or value in ("start", "end")
            else [f"{name}: Invalid input"]
        )
    if name in SPECIALS:
        ok = value == "all" or (isinstance(value, dict) and "$set" in value)
        return [] if ok else [f"{name}: Must be a Set object or the literal 'all'"]
    return []


def _number_issues(name: str, value: Any, kind: str) -> list[str]:
    if kind != "number":
        return [f"{name}: Expected number, received {kind}"]
    if name in POSITIVE and not value > 0:
        return [f"{name}: Number must be greater than 0"]
    if name in NON_NEGATIVE and not value >= 0:
        return [f"{name}: Number must be greater than or equal to 0"]
    return []


def _array_issues(name: str, value: Any, kind: str) -> list[str]:
    """A string array's issues, or a pair array's (each item two strings)."""
    if kind != "array":
        return [f"{name}: Expected array, received {kind}"]
    issues = []
    for i, item in enumerate(value):
        if name in STRING_ARRAYS:
            if js_type(item) != "string":
                issues.append(f"{name}.{i}: Expected string, received {js_type(item)}")
            continue
        if js_type(item) != "array":
            issues.append(f"{name}.{i}: Expected array, received {js_type(item)}")
            continue
        if len(item) < 2:
            issues.append(f"{name}.{i}: Array must contain at least 2 element(s)")
        elif len(item) > 2:
            issues.append(f"{name}.{i}: Array must contain at most 2 element(s)")
        for j, part in enumerate(item[:2]):
            if js_type(part) != "string":
                issues.append(f"{name}.{i}.{j}: Expected string, received {js_type(part)}")
    return issues


def validate(strategy: str, options: dict[str, Any]) -> None:
    """Raise the library's Error for unknown keys or bad values of ``strategy``."""
    allowed = (*BASE, *STRATEGY_KEYS[strategy])
    unknown = [k for k in options if k not in allowed]
    prefix = f"Invalid parameters for {strategy} strategy: "
    if unknown:
        raise ChunkerError("Error", f"{prefix}'{', '.join(unknown)}' not supported")
    issues = []
    if strategy == "sentence" and "maxSize" not in options:
        issues.append("maxSize: Required")
    for name in allowed:
        if name in options:
            issues += _issues(name, options[name])
    if issues:
        raise ChunkerError("Error", prefix + ", ".join(issues))


def js_number(value: float) -> str:
    """A number as JS prints it in a message (1e-7, not 1e-07)."""
    return number_text(value)


def check_overlap(max_size: float, overlap: float) -> None:
    """The text-splitter base's constructor check (strictly greater)."""
    if overlap > max_size:
        raise ChunkerError(
            "Error",
            f"Got a larger chunk overlap ({js_number(overlap)}) than "
            f"chunk size ({js_number(max_size)}), should be smaller.",
        )
