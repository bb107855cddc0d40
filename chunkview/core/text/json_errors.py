"""The message V8's ``JSON.parse`` throws for a text it refuses (node 20, V8 11.3).

Python's ``json`` finds the same errors but words them its own way and counts offsets in
code points. A user who pastes a broken JSON document should read what the original
library would have said, so on failure the text is scanned again in V8's order: the
first token V8 stops at, its position in UTF-16 units, and V8's wording for that place
(an explicit message where the parser names what it expected, otherwise the unexpected
token with up to ten units of context on each side).

Only called after ``json.loads`` failed, so the cost of a good document is nil.
"""

from __future__ import annotations

from typing import NamedTuple

from chunkview.core.text.js import from_units, to_units

#: V8 shows context around the bad token only for sources at least this long.
_MIN_LENGTH_FOR_CONTEXT = 21
#: units of context on each side of the bad token
_CONTEXT = 10
#: whole sources V8 names as they are, without the token ("NaN" is not valid JSON)
_SPECIAL_SOURCES = frozenset({"[object Object]", "undefined", "Infinity", "NaN"})
_WHITESPACE = " \t\n\r"
_ESCAPES = '"\\/bfnrt'
_HEX = "0123456789abcdefABCDEF"

UNEXPECTED_END = "Unexpected end of JSON input"


class _Refused(Exception):
    """The first error V8 reports: its message template (``%`` for the position, as in
    V8), or None for the unexpected token at that position (see ``_token_message``)."""

    def __init__(self, position: int, message: str | None = None) -> None:
        super().__init__(message)
        self.position = position
        self.message = message


class _Scanner:
    """V8's JSON parser reduced to its checks: it walks the text and raises at the first
    place V8 would report, with V8's message for that place."""

    def __init__(self, units: str) -> None:
        self.units = units
        self.end = len(units)
        self.at = 0

    # ----- characters --------------------------------------------------------------
    def peek(self) -> str:
        return self.units[self.at] if self.at < self.end else ""

    def skip_whitespace(self) -> None:
        while self.at < self.end and self.units[self.at] in _WHITESPACE:
            self.at += 1

    def expect(self, char: str, message: str | None) -> None:
        """Step over ``char`` after white space; otherwise report ``message`` (or, with
        none, the token found) where the parser stands."""
        self.skip_whitespace()
        if self.peek() != char:
            raise _Refused(self.at, message)
        self.at += 1

    # ----- values ------------------------------------------------------------------
    def document(self) -> None:
        self.value()
        self.skip_whitespace()
        if self.at < self.end:
            raise _Refused(self.at, "Unexpected non-whitespace character after JSON at position %")

    def value(self) -> None:
        self.skip_whitespace()
        char = self.peek()
        if char == '"':
            self.string()
        elif char == "-" or _is_digit(char):
            self.number()
        elif char == "{":
            self.object()
        elif char == "[":
            self.array()
        elif char in ("t", "f", "n"):
            self.literal({"t": "true", "f": "false", "n": "null"}[char])
        else:
            raise _Refused(self.at)

    def object(self) -> None:
        self.at += 1  # {
        self.skip_whitespace()
        if self.peek() == "}":
            self.at += 1
            return
        # The first property names what it expected; later ones (V8's continuation loop)
        # report a missing colon as the token found there.
        if self.peek() != '"':
            raise _Refused(self.at, "Expected property name or '}' in JSON at position %")
        self.string()
        self.expect(":", "Expected ':' after property name in JSON at position %")
        self.value()
        while True:
            self.skip_whitespace()
            char = self.peek()
            if char == "}":
                self.at += 1
                return
            if char != ",":
                raise _Refused(
                    self.at, "Expected ',' or '}' after property value in JSON at position %"
                )
            self.at += 1
            self.skip_whitespace()
            if self.peek() != '"':
                raise _Refused(
                    self.at, "Expected double-quoted property name in JSON at position %"
                )
            self.string()
            self.expect(":", None)
            self.value()

    def array(self) -> None:
        self.at += 1  # [
        self.skip_whitespace()
        if self.peek() == "]":
            self.at += 1
            return
        while True:
            self.value()
            self.skip_whitespace()
            char = self.peek()
            if char == "]":
                self.at += 1
                return
            if char != ",":
                raise _Refused(
                    self.at, "Expected ',' or ']' after array element in JSON at position %"
                )
            self.at += 1

    def literal(self, word: str) -> None:
        for expected in word[1:]:
            self.at += 1
            if self.peek() != expected:
                raise _Refused(self.at)
        self.at += 1

    def number(self) -> None:
        if self.peek() == "-":
            self.at += 1
        char = self.peek()
        if char == "0":
            self.at += 1
            if _is_digit(self.peek()):
                raise _Refused(self.at)  # a leading zero: "Unexpected number"
        elif _is_digit(char):
            self.digits()
        else:
            raise _Refused(self.at, "No number after minus sign in JSON at position %")
        if self.peek() == ".":
            self.at += 1
            if not _is_digit(self.peek()):
                raise _Refused(self.at, "Unterminated fractional number in JSON at position %")
            self.digits()
        if self.peek() in ("e", "E"):
            self.at += 1
            if self.peek() in ("+", "-"):
                self.at += 1
            if not _is_digit(self.peek()):
                raise _Refused(self.at, "Exponent part is missing a number in JSON at position %")
            self.digits()

    def digits(self) -> None:
        while _is_digit(self.peek()):
            self.at += 1

    def string(self) -> None:
        self.at += 1  # the opening quote
        while True:
            char = self.peek()
            if not char:
                raise _Refused(self.at, "Unterminated string in JSON at position %")
            if char == '"':
                self.at += 1
                return
            if char == "\\":
                self.at += 1
                escaped = self.peek()
                if not escaped or ord(escaped) > 0xFF:
                    raise _Refused(self.at)  # the token found there (or the end)
                if escaped == "u":
                    for _ in range(4):
                        self.at += 1
                        if not self.peek() or self.peek() not in _HEX:
                            raise _Refused(self.at, "Bad Unicode escape in JSON at position %")
                elif escaped not in _ESCAPES:
                    raise _Refused(self.at, "Bad escaped character in JSON at position %")
            elif ord(char) < 0x20:
                raise _Refused(
                    self.at, "Bad control character in string literal in JSON at position %"
                )
            self.at += 1


def _is_digit(char: str) -> bool:
    return char != "" and "0" <= char <= "9"


def _token_message(units: str, position: int) -> str:
    """V8's words for an unexpected token at ``position`` (no explicit message)."""
    if position >= len(units):
        return UNEXPECTED_END
    char = units[position]
    if _is_digit(char) or char == "-":
        return f"Unexpected number in JSON at position {position}"
    if char == '"':
        return f"Unexpected string in JSON at position {position}"
    if units in _SPECIAL_SOURCES:
        return f'"{units}" is not valid JSON'
    if len(units) < _MIN_LENGTH_FOR_CONTEXT:
        return f"Unexpected token '{char}', \"{units}\" is not valid JSON"
    if position < _CONTEXT:
        return f"Unexpected token '{char}', \"{units[: position + _CONTEXT]}\"... is not valid JSON"
    if position < len(units) - _CONTEXT:
        context = units[position - _CONTEXT : position + _CONTEXT]
        return f"Unexpected token '{char}', ...\"{context}\"... is not valid JSON"
    return f"Unexpected token '{char}', ...\"{units[position - _CONTEXT :]}\" is not valid JSON"


class JsonRefusal(NamedTuple):
    """What ``JSON.parse`` says, and where in the text (code points) it stopped."""

    message: str
    position: int


def v8_json_refusal(text: str) -> JsonRefusal | None:
    """Why ``JSON.parse(text)`` throws in node 20, or None when V8 would accept the text
    (or it nests too deep to scan here; the caller then keeps its own message)."""
    units = to_units(text)
    try:
        _Scanner(units).document()
    except _Refused as refused:
        if refused.message is None:
            message = from_units(_token_message(units, refused.position))
        else:
            message = refused.message.replace("%", str(refused.position))
        return JsonRefusal(message, len(from_units(units[: refused.position])))
    except RecursionError:
        return None
    return None


def v8_json_error(text: str) -> str | None:
    """The message ``JSON.parse(text)`` throws in node 20, or None when it would not."""
    refusal = v8_json_refusal(text)
    return refusal.message if refusal else None
