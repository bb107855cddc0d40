"""What a port reads from a long text before any option counts, kept for its next run.

The app runs one document again at every option change. A reading of the text alone (an
outline, its layout blocks, where its fence lines are) is made once and kept by the
text's identity: one text for each kind of reading. ``forget`` lets go of them all, as
the chunking process does when a new document comes, and calls what other caches of
the last text registered with ``also_forget``.
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
#: what lets go of the caches of the last text kept by their own rules
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
    caches registered with ``also_forget`` hold."""
    _kept.clear()
    for clear in _forgetters:
        clear()


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


def also_forget(clear: Callable[[], None]) -> Callable[[], None]:
    """Have ``forget`` call ``clear`` as well: for a cache of the last text that keeps it
    by a rule of its own (from a second run, or beside a reading of another text), so a
    new document lets go of it too. Returns ``clear`` (a decorator)."""
    _forgetters.append(clear)
    return clear


def kept_names() -> list[str]:
    """The kinds of reading kept now."""
    return sorted(_kept)
