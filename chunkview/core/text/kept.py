"""What a port reads from a long text before any option counts, kept for its next run.

The app runs one document again at every option change. A reading of the text alone (an
outline, its layout blocks, where its fence lines are) is made once and kept by the
text's identity: one text for each kind of reading (``kept``; ``keep`` for a reading
made elsewhere; ``second_run`` for one worth making only when the text comes back).
A reading of a text made anew at each run (a normalised copy) is kept by value instead,
its last calls (``memo``). ``forget`` lets go of all of them, as the chunking process
does when a new document comes. This is the one place caches of a text live.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

#: a text this long or longer is worth keeping readings of; shorter ones are read in
#: microseconds
LONG_TEXT = 65_536

Reading = TypeVar("Reading")

#: by kind of reading: the text it was made of, and the reading
_kept: dict[str, tuple[str, Any]] = {}
#: what lets go of the ``memo`` caches
_forgetters: list[Callable[[], None]] = []


def kept(name: str, text: str, read: Callable[[str], Reading]) -> Reading:
    """``read(text)``, kept under ``name`` while ``text`` is the last long text read
    so (the same object: not to be changed by the caller)."""
    if len(text) < LONG_TEXT:
        return read(text)
    entry = _kept.get(name)
    if entry is not None and entry[0] is text:
        return entry[1]
    reading = read(text)
    _kept[name] = (text, reading)
    return reading


def keep(name: str, text: str, reading: Any) -> None:
    """Keep ``reading``, made of ``text`` elsewhere (a search folds a text a block at a
    time), under ``name``, by the same rule as ``kept``: only a long text is kept."""
    if len(text) >= LONG_TEXT:
        _kept[name] = (text, reading)


def kept_for(name: str, text: str) -> Any:
    """The reading kept under ``name`` when ``text`` is the text it was made of, else
    None."""
    entry = _kept.get(name)
    return entry[1] if entry is not None and entry[0] is text else None


def last_kept(name: str) -> tuple[str, Any] | None:
    """The text and reading kept under ``name`` now, if any."""
    return _kept.get(name)


def forget() -> None:
    """Let go of every kept reading and the texts they were made of, and of what the
    ``memo`` caches hold."""
    _kept.clear()
    for clear in _forgetters:
        clear()


def second_run(name: str, text: str) -> bool:
    """True from the second time ``text``, a long text, is asked about under ``name``:
    for a reading worth making only when the text comes back (the app runs one document
    at each option change), so a text's first run makes nothing it may not need again.
    False the first time, and always for a short text."""
    seen = kept(name, text, lambda _text: [0])
    seen[0] += 1
    return seen[0] >= 2


def memo(maxsize: int) -> Callable[[Callable[..., Reading]], Callable[..., Reading]]:
    """A cache of a function's last ``maxsize`` calls by the value of their arguments
    (``functools.lru_cache``), let go of by ``forget`` with the rest: for a reading whose
    text is made anew at each run (a normalised copy), which ``kept``'s test of identity
    would never find again."""

    def decorate(read: Callable[..., Reading]) -> Callable[..., Reading]:
        cached = functools.lru_cache(maxsize=maxsize)(read)
        _forgetters.append(cached.cache_clear)
        return cached

    return decorate


def kept_names() -> list[str]:
    """The kinds of reading kept now."""
    return sorted(_kept)
