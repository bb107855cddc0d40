"""Unicode segmentation as ICU gives it (the engine behind JS ``Intl.Segmenter``).

``icu4py`` ships ICU4C 78 inside its wheel, so sentence, word and grapheme boundaries
are the ones node 20 with ICU 78 computes (UAX #29 plus ICU's tailoring), with no system
library and no network. Offsets here are Python code points.
"""

from __future__ import annotations

import re
from functools import lru_cache

from icu4py.breakers import CharacterBreaker, SentenceBreaker, WordBreaker

_ASTRAL_RE = re.compile("[\U00010000-\U0010ffff]")
_BREAKERS = {"sentence": SentenceBreaker, "word": WordBreaker, "grapheme": CharacterBreaker}
_SURROGATE_RE = re.compile("[\ud800-\udfff]")


def _for_icu(text: str) -> str:
    """ICU is handed UTF-8, which has no lone surrogates; a JS string can hold them and
    Intl.Segmenter breaks around one as around U+FFFD (checked under node 20), which is
    also one code point here, so the offsets stay the same."""
    return text if text.isascii() else _SURROGATE_RE.sub("\ufffd", text)


def _unit_to_point_map(text: str):
    """A function from UTF-16 offsets in ``text`` to code-point offsets."""
    astral = [m.start() for m in _ASTRAL_RE.finditer(text)]
    if not astral:
        return lambda unit: unit
    import bisect

    shifted = [point + k for k, point in enumerate(astral)]  # unit offset of each one
    return lambda unit: unit - bisect.bisect_left(shifted, unit)


def boundaries(text: str, kind: str, locale: str = "en") -> list[tuple[int, int]]:
    """Segments of ``text`` of one kind (sentence | word | grapheme), as code-point ranges
    that cover the text in order."""
    if not text:
        return []
    breaker = _BREAKERS[kind](_for_icu(text), _locale(locale))
    to_point = _unit_to_point_map(text)
    return [(to_point(start), to_point(end)) for start, end in breaker.segments()]


def sentences(text: str, locale: str = "en") -> list[str]:
    """The sentence segments of ``text`` (each keeps its trailing white space)."""
    if not text:
        return []
    if text.isascii() or not _SURROGATE_RE.search(text):
        return list(SentenceBreaker(text, _locale(locale)))
    return [text[start:end] for start, end in boundaries(text, "sentence", locale)]


@lru_cache(maxsize=32)
def _locale(locale: str) -> str:
    return (locale or "en").replace("_", "-")
