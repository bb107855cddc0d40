"""JSON text as JS's JSON.stringify writes it: lone surrogates as \\udXXX escapes."""

from __future__ import annotations

import json
import re
from typing import Any

_LONE_SURROGATE_RE = re.compile("[\ud800-\udfff]")


def dumps(value: Any, indent: int | None = None) -> str:
    text = json.dumps(value, ensure_ascii=False, indent=indent)
    return _LONE_SURROGATE_RE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)
