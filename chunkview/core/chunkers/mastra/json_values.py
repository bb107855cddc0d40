"""JS values as the json strategy sees them (spec/mastra.md §11): objects with integer
keys first, ``JSON.parse`` with V8's errors, ``JSON.stringify`` and ``String(number)``,
and a value's size (the UTF-16 length of its compact JSON text)."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Iterable
from typing import Any

from chunkview.core.errors import ChunkerError
from chunkview.core.text.js import float_text, utf16_len
from chunkview.core.text.json_errors import v8_json_refusal

_INDEX_KEY_RE = re.compile(r"0|[1-9][0-9]*")


def _is_index(key: str) -> bool:
    return bool(_INDEX_KEY_RE.fullmatch(key)) and int(key) < 2**32 - 1


def js_object(pairs: Iterable[tuple[str, Any]]) -> dict[str, Any]:
    """A JS object: canonical array-index keys first, ascending, then insertion order."""
    data: dict[str, Any] = {}
    for key, value in pairs:
        data[key] = value  # a repeated key keeps its first place, takes the last value
    if not any(_is_index(k) for k in data):
        return data
    indexes = sorted((k for k in data if _is_index(k)), key=int)
    return {**{k: data[k] for k in indexes}, **{k: v for k, v in data.items() if not _is_index(k)}}


def _parse_number(text: str) -> float | int:
    value = float(text)
    if value.is_integer() and abs(value) <= 2**53 and "." not in text and "e" not in text.lower():
        return int(text)
    return value


def _reject_constant(name: str) -> None:
    raise ValueError(f"Unexpected token '{name[0]}'")


def js_parse(text: str) -> Any:
    """``JSON.parse``; a refused text raises SyntaxError with V8's own message."""
    try:
        return json.loads(
            text,
            object_pairs_hook=js_object,
            parse_float=_parse_number,
            parse_int=_parse_number,
            parse_constant=_reject_constant,
        )
    except (json.JSONDecodeError, ValueError, RecursionError) as error:
        refusal = v8_json_refusal(text)
        if refusal is None:
            raise ChunkerError("SyntaxError", str(error)) from None
        raise ChunkerError("SyntaxError", refusal.message, refusal.position) from None


def js_number(value: float) -> str:
    """``String(number)`` as JS writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) and abs(value) <= 2**53:
        return str(value)
    value = float(value)
    if math.isnan(value) or math.isinf(value):
        return "null"  # JSON.stringify
    if value == 0:
        return "0"
    return float_text(value)


def _quote(text: str) -> str:
    out = json.dumps(text, ensure_ascii=False)
    # JSON.stringify writes lone surrogates as escapes and leaves U+2028/2029 raw
    return re.sub("[\ud800-\udfff]", lambda m: f"\\u{ord(m.group()):04x}", out)


def stringify(value: Any) -> str:
    """Compact ``JSON.stringify``."""
    if isinstance(value, dict):
        return "{" + ",".join(f"{_quote(k)}:{stringify(v)}" for k, v in value.items()) + "}"
    if isinstance(value, list):
        return "[" + ",".join(stringify(v) for v in value) + "]"
    if isinstance(value, str):
        return _quote(value)
    if value is None:
        return "null"
    return js_number(value)


def size(value: Any) -> int:
    """§11's ``size(v)``: the UTF-16 length of the compact ``JSON.stringify(v)``."""
    return utf16_len(stringify(value))
