"""JS regular expressions (no flags) run with Python's ``re`` on unit strings.

Without the ``u`` flag a JS regex works on UTF-16 units, like ``re`` on a unit string.
What differs is translated: ``.`` stops at LF, CR, U+2028 and U+2029; ``\\d \\w`` are ASCII;
``\\s`` is the ECMAScript set; ``$`` means the end of the input only.
"""

from __future__ import annotations

import re
from functools import lru_cache

from chunkview.core.text.js import W_CLASS

_CLASS_ESCAPES = {"d": "0-9", "w": "A-Za-z0-9_", "s": W_CLASS}
_ESCAPES = {
    "d": "[0-9]",
    "D": "[^0-9]",
    "w": "[A-Za-z0-9_]",
    "W": "[^A-Za-z0-9_]",
    "s": f"[{W_CLASS}]",
    "S": f"[^{W_CLASS}]",
}


def translate(source: str) -> str:
    """The Python pattern that matches what the JS pattern ``source`` matches."""
    out, i, in_class = [], 0, False
    while i < len(source):
        ch = source[i]
        if ch == "\\" and i + 1 < len(source):
            nxt = source[i + 1]
            if in_class and nxt in _CLASS_ESCAPES:
                out.append(_CLASS_ESCAPES[nxt])
            elif not in_class and nxt in _ESCAPES:
                out.append(_ESCAPES[nxt])
            else:
                out.append(ch + nxt)
            i += 2
            continue
        if in_class:
            if ch == "]":
                in_class = False
            elif ch == "[":
                ch = "\\["
            out.append(ch)
        elif ch == "[":
            in_class = True
            out.append(ch)
            if source[i + 1 : i + 2] == "^":
                out.append("^")
                i += 1
        elif ch == ".":
            out.append("[^\n\r\u2028\u2029]")
        elif ch == "$":
            out.append(r"(?!(?s:.))")
        else:
            out.append(ch)
        i += 1
    return "".join(out)


@lru_cache(maxsize=256)
def compile_js(source: str) -> re.Pattern[str]:
    return re.compile(translate(source))


def escape(text: str) -> str:
    """Mastra's escape of a literal separator: a backslash before . * + ? ^ $ { } ( ) | [ ] \\"""
    return re.sub(r"([.*+?^${}()|\[\]\\])", r"\\\1", text)


@lru_cache(maxsize=256)
def _never_empty(pattern: re.Pattern[str]) -> bool:
    """True when the pattern cannot match the empty string anywhere."""
    try:
        from re import _parser  # type: ignore[attr-defined]
    except ImportError:  # Python 3.10
        import sre_parse as _parser  # type: ignore[no-redef]
    try:
        return _parser.parse(pattern.pattern, pattern.flags).getwidth()[0] > 0
    except Exception:
        return False


def js_split(pattern: re.Pattern[str], text: str) -> list[str]:
    """``text.split(regex)`` with JS semantics: captures are inserted; an empty match at
    the previous split's end is skipped; an empty text gives [] or [text]."""
    if not text:
        return [] if pattern.match(text) else [text]
    if _never_empty(pattern):  # then JS and Python split alike, and re.split runs in C
        return ["" if part is None else part for part in pattern.split(text)]
    parts: list[str] = []
    last = search_from = 0
    while search_from < len(text):
        match = pattern.search(text, search_from)
        if match is None or match.start() >= len(text):
            break  # JS tries no match at the very end
        if match.end() == last:  # an empty match where the last piece ended
            search_from = match.start() + 1
            continue
        parts.append(text[last : match.start()])
        parts.extend("" if g is None else g for g in match.groups())
        last = search_from = match.end()
    parts.append(text[last:])
    return parts
