"""Why the json strategy cut where it did (spec/mastra.md §11), in its own terms.

The json strategy (reference/json_chunker.py) tells its run's ``JsonNotes``
(``QuietJsonNotes`` when nobody asks for reasons).
Each chunk the algorithm makes is noted as it is made, in output order: the object,
array items or keys that started it, and, for the chunk after it, the size check that
closed it (the next entry would pass maxSize; "save" needs size ≥ minSize). Empty chunks
are dropped at the end, so ``finish`` numbers the reasons over the chunks kept. Sizes are
the UTF-16 length of the compact ``JSON.stringify``, as the library counts them.
"""

from __future__ import annotations

from typing import Any

from chunkview.core.chunkers.mastra.json_values import js_object, size
from chunkview.core.model.explain import Reason
from chunkview.core.model.observer import RunObserver
from chunkview.core.text.js import from_units


def _n(value: Any) -> str:
    return f"{value:,}" if isinstance(value, int) else f"{value:,.6g}"


def _key(key: str) -> str:
    text = from_units(key)
    return f"“{text[:40]}…”" if len(text) > 40 else f"“{text}”"


def _where(path: list[str]) -> str:
    """A path as the library builds it (``root`` stands for the top and is unwrapped)."""
    keys = path[1:] if path and path[0] == "root" else path
    return f"“{'.'.join(from_units(k) for k in keys)}”" if keys else "the top level"


def _keys(keys: list[str], what: str) -> str:
    if len(keys) == 1:
        return f"the {what} {_key(keys[0])}"
    return f"the {what}s {_key(keys[0])} to {_key(keys[-1])} ({len(keys)} of them)"


class JsonNotes:
    """The reasons of one json run, one per chunk made (before empty ones are dropped)."""

    def __init__(self, observer: RunObserver, chunker: Any) -> None:
        self.observer = observer
        self.chunker = chunker
        self.made: list[tuple[str, str]] = []  # (rule, words) of each chunk made
        self.pending: list[str] = []  # words for the next chunk made

    # ----- helpers --------------------------------------------------------------------------
    def _size(self, value: Any) -> int:
        return size(value)

    @property
    def _max(self) -> str:
        return f"maxSize {_n(self.chunker.max_size)}"

    @property
    def _min(self) -> str:
        return f"minSize {_n(self.chunker.min_size)}"

    def _made(self, rule: str, words: str) -> None:
        self.made.append((rule, "; ".join([words, *self.pending])))
        self.pending = []

    # ----- what starts a chunk ----------------------------------------------------------------
    def whole(self, kind: str, path: list[str], wrapped: Any, too_deep: bool = False) -> None:
        size = self._size(wrapped)
        if too_deep and size > self.chunker.max_size:
            self._made(
                "json-depth",
                f"the object at {_where(path)} is more than 100 levels deep: kept whole "
                f"(size {_n(size)} > {self._max})",
            )
        else:
            self._made(
                f"json-{kind}",
                f"the {kind} at {_where(path)} fits whole: size {_n(size)} ≤ {self._max}",
            )

    def saved(self, path: list[str], group: Any, wrapped: Any, why: tuple, first: int = 0) -> None:
        """A group ("save") became a chunk; ``why`` is what closed it (see ``_closed``)."""
        if isinstance(group, list):
            count = len(group)
            items = f"{count} item{'s' if count != 1 else ''}"
            words = (
                f"{items} of the array at {_where(path)}, from item {first}, gathered while "
                f"the chunk fit {self._max}"
            )
            rule = "json-items"
        else:
            words = (
                f"{_keys(list(group), 'key')} of {_where(path)}, gathered while the chunk fit "
                f"{self._max}"
            )
            rule = "json-keys"
        self._made(rule, words)
        size = self._size(wrapped)
        self.pending.append(
            f"the chunk before closed: {self._closed(path, group, why)}; at size {_n(size)} "
            f"≥ {self._min} it was saved"
        )

    def not_saved(self, path: list[str], group: Any, wrapped: Any, why: tuple) -> None:
        """ "save" kept nothing (size < minSize); say so where the group is then lost."""
        size = self._size(wrapped)
        lost = why[0] == "end" or (
            why[0] == "full"
            and (
                not isinstance(why[2], (dict, list))
                or (isinstance(group, list) and self._fits_alone(path, why[2]))
            )
        )
        if lost:
            if isinstance(group, list):
                what = "an item" if len(group) == 1 else f"{len(group)} items"
            else:
                what = _keys(list(group), "key")
            after = "the next value replaced it" if why[0] == "full" else f"{_where(path)} ended"
            self.pending.append(
                f"{what} of {_where(path)} (size {_n(size)} < {self._min}) never saved: lost "
                f"when {after}, as in the library"
            )

    def _fits_alone(self, path: list[str], item: Any) -> bool:
        return self._size(self.chunker.wrap([item], path)) <= self.chunker.max_size

    def _closed(self, path: list[str], group: Any, why: tuple) -> str:
        if why[0] == "array":
            return f"the next value, {_key(why[1])}, is an array, chunked on its own"
        if why[0] == "end":
            return f"{_where(path)} ended"
        _full, key, value = why
        if isinstance(group, list):
            grown = self.chunker.wrap([*group, value], path)
            return f"adding item {key} would make size {_n(self._size(grown))} > {self._max}"
        grown = self.chunker.wrap(js_object([*group.items(), (key, value)]), path)
        return f"adding {_key(key)} would make size {_n(self._size(grown))} > {self._max}"

    # ----- the top level --------------------------------------------------------------------
    def top_full(self, acc: dict, key: str, merged: dict) -> None:
        self._made(
            "json-top",
            f"{_keys(list(acc), 'top-level value')}, gathered while the chunk fit {self._max}",
        )
        self.pending.append(
            f"the chunk before closed: adding {_key(key)} would make size "
            f"{_n(self._size(merged))} > {self._max} (no minSize check at the top level)"
        )

    def top_last(self, acc: dict) -> None:
        if acc:
            self._made(
                "json-top",
                f"{_keys(list(acc), 'top-level value')}: the top-level values that fit come "
                "last, after every nested chunk",
            )
        else:
            self.made.append(("", ""))  # an empty chunk: dropped in ``finish``

    def long_string(self, key: str, value: str, pieces: list[str], kept: list[bool]) -> None:
        size = self._size({key: value})
        limit = self.chunker.max_size - 20
        for i, (piece, ok) in enumerate(zip(pieces, kept)):
            if i == len(pieces) - 1:
                cut = "the rest of the string"
            elif piece.endswith(" "):
                cut = "cut after the last space within them"
            else:
                cut = "cut at the limit (no space within them)"
            words = (
                f"the string {_key(key)} has size {_n(size)} > {self._max}: piece {i + 1} of "
                f"{len(pieces)}, at most floor(maxSize − 20) = {_n(int(limit // 1))} units, {cut}"
            )
            if ok:
                self._made("json-long-string", words)
            else:
                self.pending.append(
                    f"piece {i + 1} of {_key(key)} was dropped: with its key it has size "
                    f"{_n(self._size({key: piece}))} > {self._max}"
                )

    def dropped(self, key: str, value: Any) -> None:
        self.pending.append(
            f"the value of {_key(key)} (size {_n(self._size({key: value}))} > {self._max}, "
            "not a string) was dropped, as in the library"
        )

    # ----- the end ------------------------------------------------------------------------------
    def finish(self, chunks: list[Any]) -> None:
        """One reason per chunk kept (empty objects and arrays are removed)."""
        if len(chunks) != len(self.made):  # a path these notes miss: say nothing wrong
            return
        k = 0
        for chunk, (rule, words) in zip(chunks, self.made):
            if isinstance(chunk, (dict, list)) and len(chunk) == 0:
                continue
            if words:
                self.observer.reason(Reason(k, rule, words))
            k += 1


class QuietJsonNotes(JsonNotes):
    """For a run nobody asks reasons of: hears each chunk made, words nothing."""

    def whole(self, kind: str, path: list[str], wrapped: Any, too_deep: bool = False) -> None:
        pass

    def saved(self, path: list[str], group: Any, wrapped: Any, why: tuple, first: int = 0) -> None:
        pass

    def not_saved(self, path: list[str], group: Any, wrapped: Any, why: tuple) -> None:
        pass

    def top_full(self, acc: dict, key: str, merged: dict) -> None:
        pass

    def top_last(self, acc: dict) -> None:
        pass

    def long_string(self, key: str, value: str, pieces: list[str], kept: list[bool]) -> None:
        pass

    def dropped(self, key: str, value: Any) -> None:
        pass

    def finish(self, chunks: list[Any]) -> None:
        pass
