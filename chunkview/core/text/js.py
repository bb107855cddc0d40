"""JavaScript string semantics for the ports.

The original libraries run on JS strings: lengths, slices and offsets count UTF-16 code
units, and their white space is the `\\s` set of ECMAScript, which is not Python's.
A port works on a *unit string*: a Python ``str`` in which every character outside the
BMP is written as its two surrogate halves, so ``len()`` and slicing count UTF-16 units
and a cut can fall between the halves, exactly as in JS.
"""

from __future__ import annotations

import math
import re
import sys
from typing import Any

from chunkview.core.text.kept import kept, last_kept

#: ECMAScript white space + line terminators: what `\s` matches and `trim()` removes.
W_CLASS = "\t\n\x0b\x0c\r \xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff"
W_CHARS = (
    "\t\n\x0b\x0c\r \xa0\u1680"
    + "".join(map(chr, range(0x2000, 0x200B)))
    + ("\u2028\u2029\u202f\u205f\u3000\ufeff")
)
W_RE = re.compile(f"[{W_CLASS}]")
W_RUN_RE = re.compile(f"[{W_CLASS}]+")
NON_W_RE = re.compile(f"[^{W_CLASS}]")

_ASTRAL_RE = re.compile("[\U00010000-\U0010ffff]")


def _as_pair(match: re.Match[str]) -> str:
    code = ord(match.group()) - 0x10000
    return chr(0xD800 + (code >> 10)) + chr(0xDC00 + (code & 0x3FF))


def _one_byte(text: str) -> bool:
    """True when CPython stores ``text`` in one byte a character (Latin-1, told in O(1)
    from its size): it then holds no surrogate half and no character above U+FF. False
    for a short text, whose header outweighs it (then the caller reads it)."""
    return sys.getsizeof(text) < 2 * len(text)


def _all_bmp(text: str) -> bool:
    """True when no character needs two UTF-16 units (checked in C: isascii, a string
    CPython stores in under 4 bytes a character, or a UTF-16 encoding exactly twice the
    length). A character above U+FFFF makes CPython store 4 bytes for every character, so
    a string smaller than that holds none: told in O(1), without reading 10 MB."""
    return (
        text.isascii()
        or sys.getsizeof(text) < 4 * len(text)
        or len(text.encode("utf-16-le", "surrogatepass")) == 2 * len(text)
    )


def to_units(text: str) -> str:
    """Return ``text`` as a unit string (astral characters split into surrogate halves)."""
    if _all_bmp(text):
        return text
    return _ASTRAL_RE.sub(_as_pair, text)


def from_units(units: str) -> str:
    """Join surrogate pairs that are still whole; keep lone halves (as ``json.loads`` does)."""
    if units.isascii():
        return units
    try:  # the UTF-16 encoder (C, a few times faster than a regex scan) refuses a half
        units.encode("utf-16-le")
    except UnicodeEncodeError:
        return units.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")
    return units


#: the last text unit_view converted, kept by identity: the app chunks one document again
#: and again (every option change) and a conversion of 10 MB costs what a whole run may
#: the name the unit view of the last long text is kept under (text/kept.py)
UNIT_VIEW = "unit view"


def unit_view(text: str) -> tuple[str, bool]:
    """``(to_units(text), has_surrogates(to_units(text)))`` with one pass over the text,
    and none when ``text`` is the last long text viewed."""
    if text.isascii() or _one_byte(text):  # no surrogate half, no astral character
        return text, False
    return kept(UNIT_VIEW, text, _unit_view)


def _unit_view(text: str) -> tuple[str, bool]:
    try:  # strict UTF-16 refuses lone surrogates; astral characters take four bytes
        whole = len(text.encode("utf-16-le")) == 2 * len(text)
    except UnicodeEncodeError:
        units, surrogates = to_units(text), True
    else:
        units, surrogates = (text, False) if whole else (_ASTRAL_RE.sub(_as_pair, text), True)
    return units, surrogates


def unit_string(text: str) -> str:
    """``unit_view(text)[0]``, told in O(1) for a text with no character outside the BMP
    (CPython stores it in at most two bytes a character): the text itself."""
    if text.isascii() or sys.getsizeof(text) < 4 * len(text):
        return text
    return unit_view(text)[0]


def known_whole(units: str) -> bool:
    """True when ``units`` is known, without a scan, to hold no surrogate half, so every
    slice of it is already the text ``from_units`` would give: an ASCII or Latin-1 string,
    or the unit string of unit_view's last long text when it has none. False when not
    known."""
    if units.isascii() or _one_byte(units):  # O(1) in CPython
        return True
    last = last_kept(UNIT_VIEW)
    return last is not None and last[1][0] is units and not last[1][1]


def has_surrogates(units: str) -> bool:
    """True when a unit string holds any surrogate half (so it needs ``from_units``)."""
    if units.isascii() or _one_byte(units):
        return False
    try:  # UTF-8 has no surrogates: the encoder (C, fast) refuses the first one
        units.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def utf16_len(text: str) -> int:
    """Length of a Python string in UTF-16 code units."""
    if text.isascii():  # O(1) on str
        return len(text)
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


#: white space to ``str.strip()`` only (\x1c-\x1f, \x85) or to JS ``trim`` only (\ufeff)
_STRIP_DIFFERS = "\x1c\x1d\x1e\x1f\x85\ufeff"


def strip_trims_as_js(text: str) -> bool:
    """True when ``str.strip()`` with no argument (a C fast path, twice as fast as with a
    set of characters) trims every slice of ``text`` as JS ``trim`` does: the text holds
    none of the characters the two call white space differently. A scan for each (O(1)
    for those above the text's widest character)."""
    return not any(c in text for c in _STRIP_DIFFERS)


def trim(text: str) -> str:
    """JS ``String.prototype.trim``."""
    return text.strip(W_CHARS)


def is_blank(text: str) -> bool:
    """True when ``trim(text)`` is empty."""
    return NON_W_RE.search(text) is None


def truthy(value: Any) -> bool:
    """JS truthiness of a JSON value."""
    if isinstance(value, float) and value != value:  # NaN
        return False
    return bool(value) if not isinstance(value, (list, dict)) else True


def option(options: dict[str, Any] | None, name: str, default: Any) -> Any:
    """``options.name ?? default``: a missing, undefined or null value takes the default."""
    if not options:
        return default
    value = options.get(name)
    return default if value is None else value


# --- JS numbers as string indices -------------------------------------------------------
# The libraries do arithmetic on option values without checking them, so an index can be
# fractional, negative, NaN or infinite; these helpers apply the coercions JS applies.


def to_number(value: Any) -> int | float:
    """ToNumber of a JSON number or boolean: ``true`` is 1, ``false`` 0; a whole float
    small enough for exact arithmetic becomes an ``int``. Other types raise TypeError."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if value.is_integer() and abs(value) < 2**50:
            return int(value)
        return value
    raise TypeError(f"not a number: {value!r}")


def to_integer(value: float) -> float:
    """ToIntegerOrInfinity: NaN is 0, infinities stay, everything else is truncated."""
    if value != value:
        return 0
    if value in (math.inf, -math.inf):
        return value
    return int(value)


def relative_index(value: float, length: int) -> int:
    """An index as ``slice`` reads it: truncated, negative from the end, clamped."""
    index = to_integer(value)
    if index < 0:
        return int(max(length + index, 0))
    return int(min(index, length))


def js_slice(text: str, start: float, end: float | None = None) -> str:
    """``text.slice(start, end)`` for any JS numbers."""
    length = len(text)
    first = relative_index(start, length)
    last = length if end is None else relative_index(end, length)
    return text[first:last] if first < last else ""


def js_substring(text: str, start: float, end: float | None = None) -> str:
    """``text.substring(start, end)``: negatives and NaN are 0, the bounds are swapped."""
    length = len(text)
    first = int(min(max(to_integer(start), 0), length))
    last = length if end is None else int(min(max(to_integer(end), 0), length))
    if first > last:
        first, last = last, first
    return text[first:last]


def char_at(text: str, index: float) -> str | None:
    """``text[index]``: the unit at a whole index inside the string, else ``undefined``."""
    if isinstance(index, float):
        if not index.is_integer():
            return None
        index = int(index)
    return text[index] if 0 <= index < len(text) else None


def number_text(value: Any) -> str:
    """A JS number as ``String(value)`` shows it (for messages)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        if value != value:
            return "NaN"
        if value in (math.inf, -math.inf):
            return "Infinity" if value > 0 else "-Infinity"
        if value.is_integer() and abs(value) < 2**53:
            return str(int(value))
        return float_text(value)
    return str(value)


def js_string(value: Any) -> str:
    """A JSON value as JS ``String(value)`` shows it (a template literal, a property
    key): null is "null", an array its items joined by "," (null items empty), an object
    "[object Object]"."""
    if value is None:
        return "null"
    if isinstance(value, (bool, int, float)):
        return number_text(value)
    if isinstance(value, list):  # Array.prototype.join
        return ",".join("" if v is None else js_string(v) for v in value)
    if isinstance(value, dict):
        return "[object Object]"
    return str(value)


def float_text(value: float) -> str:
    """Number::toString of a finite non-zero float: the same shortest digits as Python's
    repr, written with an exponent only below 1e-6 or from 1e21 on (1e-7, 0.00001,
    1.5e+21)."""
    sign = "-" if value < 0 else ""
    mantissa, _, exponent = repr(abs(value)).partition("e")
    whole, _, fraction = mantissa.partition(".")
    digits = (whole + fraction).lstrip("0")
    point = len(whole) + int(exponent or 0) - (len(whole + fraction) - len(digits))
    digits = digits.rstrip("0") or "0"
    k, n = len(digits), point
    if k <= n <= 21:
        return sign + digits + "0" * (n - k)
    if 0 < n <= 21:
        return sign + digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * (-n) + digits
    body = digits[0] + ("." + digits[1:] if k > 1 else "")
    return f"{sign}{body}e{'+' if n - 1 >= 0 else '-'}{abs(n - 1)}"


def last_index_of(text: str, search: str, from_index: float) -> int:
    """``text.lastIndexOf(search, fromIndex)``: NaN searches from the end, any other
    number is truncated and clamped to the string."""
    if from_index != from_index:
        start = len(text)
    else:
        start = int(min(max(to_integer(from_index), 0), len(text)))
    return text.rfind(search, 0, start + len(search))
