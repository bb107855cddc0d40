"""json (spec/mastra.md §11): nested objects and arrays packed into chunks of at most
maxSize JSON characters, with JS object semantics (json_values.py: integer keys first,
JS number text)."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from chunkview.core.chunkers.mastra.json_values import js_object, js_parse, size, stringify
from chunkview.core.errors import ChunkerError
from chunkview.core.text.js import from_units, to_units

if TYPE_CHECKING:
    from chunkview.core.chunkers.mastra.explain import MastraNotes

_ESCAPED_UNIT_RE = re.compile(r"\\u([0-9a-fA-F]{4})")


# ----- the algorithm ----------------------------------------------------------------------
class _JsonChunker:
    """§11.1's chunkObject: ``run`` chunks parsed data, telling its ``notes`` each chunk
    it makes and why (json_explain.py)."""

    def __init__(self, max_size: float, min_size: float, notes: MastraNotes) -> None:
        self.max_size, self.min_size = max_size, min_size
        #: the run's reasons for the json strategy (json_explain.JsonNotes)
        self.notes = notes.json(self)

    def fits(self, value: Any) -> bool:
        return size(value) <= self.max_size

    @staticmethod
    def wrap(value: Any, path: list[str]) -> Any:
        keys = path[1:] if path and path[0] == "root" else path
        for key in reversed(keys):
            value = js_object([(key, value)])
        return value

    @staticmethod
    def entries(value: Any) -> list[tuple[str, Any]]:
        if isinstance(value, list):
            return [(str(i), v) for i, v in enumerate(value)]
        return list(value.items())

    def object_chunks(self, obj: Any, path: list[str], depth: int = 0) -> list[Any]:
        """§11.1 step 3 (``objectChunks``): the object whole if it fits (or past the depth
        limit, step 6), else its entries gathered while they fit, "save" gated by minSize."""
        path = path or ["root"]
        notes = self.notes
        whole = self.wrap(obj, path)
        if self.fits(whole) or depth > 100:
            notes.whole("object", path, whole, depth > 100)
            return [whole]
        chunks: list[Any] = []
        acc: dict[str, Any] = {}

        def save(*why: Any) -> None:  # ``why`` closed the group: for the reasons only
            nonlocal acc
            wrapped = self.wrap(acc, path)
            if acc and size(wrapped) >= self.min_size:
                notes.saved(path, acc, wrapped, why)
                chunks.append(wrapped)
                acc = {}
            elif acc:
                notes.not_saved(path, acc, wrapped, why)

        for key, value in self.entries(obj):
            if isinstance(value, list):
                save("array", key)
                chunks.extend(self.array_chunks(value, key, path, depth))
                continue
            candidate = js_object([*acc.items(), (key, value)])
            if self.fits(self.wrap(candidate, path)):
                acc = candidate
                continue
            save("full", key, value)
            if isinstance(value, dict):
                chunks.extend(self.object_chunks(value, [*path, key], depth + 1))
            else:
                acc = js_object([(key, value)])
        save("end")
        return chunks

    def array_chunks(
        self, array: list[Any], key: str, path: list[str], depth: int = 0
    ) -> list[Any]:
        """§11.1 step 4 (``arrayChunks``): the array whole if it fits, else its items
        grouped while they fit, an item too large chunked as an object."""
        group_path = [*path, key] if path else ["root", key]
        notes = self.notes
        whole = self.wrap(array, group_path)
        if self.fits(whole):
            notes.whole("array", group_path, whole)
            return [whole]
        chunks: list[Any] = []
        group: list[Any] = []
        first = 0  # the index of the group's first item, for the reasons

        def save(*why: Any) -> None:
            nonlocal group
            wrapped = self.wrap(group, group_path)
            if group and size(wrapped) >= self.min_size:
                notes.saved(group_path, group, wrapped, why, first)
                chunks.append(wrapped)
                group = []
            elif group:
                notes.not_saved(group_path, group, wrapped, why)

        for index, item in enumerate(array):
            if self.fits(self.wrap([*group, item], group_path)):
                if not group:
                    first = index
                group = [*group, item]
                continue
            save("full", index, item)
            if isinstance(item, (dict, list)):
                if self.fits(self.wrap([item], group_path)):
                    group, first = [item], index
                else:
                    chunks.extend(
                        self.object_chunks(item, [*group_path, str(len(chunks))], depth + 1)
                    )
            else:
                group, first = [item], index
        save("end")
        return chunks

    def split_long(self, text: str) -> list[str]:
        """§11.1 step 5 (``splitLong``): pieces of at most floor(maxSize - 20) units, cut
        after the last space within them when there is one past the start."""
        piece_size = math.floor(self.max_size - 20)
        if piece_size <= 0 and text:
            # §11.1 step 5: the loop never ends. With P = 0 each turn pushes slice(0, 0),
            # "", and keeps the rest; with P < 0 slice(0, P) counts from the end, so a cut
            # after a space leaves at least -P units and a cut at P leaves the last -P:
            # the rest is never empty and never <= P. The pieces array grows until V8
            # refuses to grow it, after seconds and gigabytes: its error, at once.
            raise ChunkerError("RangeError", "Invalid array length")
        units, pieces = to_units(text), []
        while units:
            if len(units) <= piece_size:
                pieces.append(units)
                break
            space = units[:piece_size].rfind(" ")
            cut = space + 1 if space > 0 else piece_size  # after the space
            pieces.append(units[:cut])
            units = units[cut:]
        return [from_units(p) for p in pieces]

    def run(self, data: Any) -> list[Any]:
        """§11.1 step 2: the top level's entries; arrays and objects chunked at once, the
        primitives gathered and appended last; empty chunks removed."""
        if not isinstance(data, (dict, list)):
            return []
        notes = self.notes
        chunks: list[Any] = []
        acc: dict[str, Any] = {}
        for key, value in self.entries(data):
            if isinstance(value, list):
                chunks.extend(self.array_chunks(value, key, []))
            elif isinstance(value, dict):
                chunks.extend(self.object_chunks(value, [key]))
            elif self.fits({key: value}):
                merged = js_object([*acc.items(), (key, value)])
                if self.fits(merged):
                    acc = merged
                else:
                    notes.top_full(acc, key, merged)
                    chunks.append(acc)
                    acc = js_object([(key, value)])
            elif isinstance(value, str):
                pieces = self.split_long(value)
                # createChunk(piece, [key]) unwraps a top-level key "root" (`chunk.root ?
                # chunk.root : chunk`): those pieces are bare strings
                made = [piece if key == "root" else {key: piece} for piece in pieces]
                fitting = [self.fits(c) for c in made]
                notes.long_string(key, value, pieces, fitting)
                chunks.extend(c for c, fits in zip(made, fitting) if fits)
            else:
                notes.dropped(key, value)
        notes.top_last(acc)
        chunks.append(acc)
        kept = [c for c in chunks if not (isinstance(c, (dict, list)) and len(c) == 0)]
        notes.finish(chunks)
        return kept


def _convert_lists(value: Any) -> Any:
    """§11.1 step 1's convertLists: every array an object with index keys."""
    if isinstance(value, list):
        return js_object((str(i), _convert_lists(v)) for i, v in enumerate(value))
    if isinstance(value, dict):
        return {k: _convert_lists(v) for k, v in value.items()}
    return value


def _map_strings(value: Any, change: Callable[[str], str]) -> Any:
    """``value`` with ``change`` applied to every string value (not to keys)."""
    if isinstance(value, dict):
        return {k: _map_strings(v, change) for k, v in value.items()}
    if isinstance(value, list):
        return [_map_strings(v, change) for v in value]
    return change(value) if isinstance(value, str) else value


def _ascii_escape(text: str) -> str:
    """§11.2's ensureAscii: each unit in U+0080..U+FFFF written as ``\\uXXXX``."""
    return "".join(f"\\u{ord(u):04x}" if 0x80 <= ord(u) <= 0xFFFF else u for u in to_units(text))


def _unescape(text: str) -> str:
    """§11.2 without ensureAscii: each ``\\uXXXX`` in a value becomes its character."""
    return from_units(_ESCAPED_UNIT_RE.sub(lambda m: chr(int(m.group(1), 16)), text))


def json_chunks(
    units: str, options: dict[str, Any], metadata: dict[str, Any], notes: MastraNotes
) -> list[dict[str, Any]]:
    """§11: the text parsed (§11.1 step 1), chunked, each chunk written out (§11.2)."""
    max_size = options.get("maxSize")
    if not max_size:
        raise ChunkerError("Error", "JSON chunking requires maxSize to be specified")
    min_size = options.get("minSize")
    min_size = max(max_size - 200, 50) if min_size is None else min_size
    data = js_parse(from_units(units))
    if options.get("convertLists", False):
        data = _convert_lists(data)
    chunks = _JsonChunker(max_size, min_size, notes).run(data)
    change = _ascii_escape if options.get("ensureAscii", True) else _unescape
    return [
        {"text": stringify(_map_strings(chunk, change)), "metadata": dict(metadata)}
        for chunk in chunks
    ]
