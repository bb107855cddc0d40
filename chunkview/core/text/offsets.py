"""Offsets between Document.text (code points) and an editor's positions.

Qt's text document counts UTF-16 units (an emoji is 2), turns "\\r\\n" into one block
separator (a lone "\\r" too, at 1:1) and drops one leading U+FEFF. ``EditorOffsets`` is
the one tested mapping both ways; every painter goes through it.
"""

from __future__ import annotations

import bisect
import re

_LINE_BREAK_RE = re.compile("\r\n?")
_EVENT_RE = re.compile("\r\n|[\U00010000-\U0010ffff]")
_CRLF_RE = re.compile("\r\n")
_ASTRAL_RE = re.compile("[\U00010000-\U0010ffff]")


class EditorOffsets:
    """Maps code points of ``text`` to editor positions and back.

    Each place where the two counts differ is an event (point start, point length,
    editor length): a CRLF is (i, 2, 1), an astral character (i, 1, 2), a leading BOM
    (0, 1, 0). Lookups are binary searches over the events.
    """

    def __init__(self, text: str) -> None:
        self.length = len(text)
        points, shifts, editor_starts, editor_ends = [], [], [], []
        shift = 0

        def add(start: int, point_len: int, editor_len: int) -> None:
            nonlocal shift
            editor_start = start + shift
            points.append(start)
            editor_starts.append(editor_start)
            editor_ends.append(editor_start + editor_len)
            shift += editor_len - point_len
            shifts.append(shift)

        if text.startswith("\ufeff"):
            add(0, 1, 0)
        # scan for the kinds of event the text can hold (the two-way pattern over 10 MB
        # takes a quarter of a second even when nothing matches)
        has_cr = "\r" in text
        # isascii is O(1); a UTF-16 encoding longer than two bytes a character means an
        # astral character (one C pass, where a pattern search is many times slower)
        astral = not text.isascii() and len(text.encode("utf-16-le", "surrogatepass")) > 2 * len(
            text
        )
        if has_cr and astral:
            events = _EVENT_RE.finditer(text)
        elif has_cr:
            events = _CRLF_RE.finditer(text)
        elif astral:
            events = _ASTRAL_RE.finditer(text)
        else:
            events = iter(())
        for match in events:
            if match.group() == "\r\n":
                add(match.start(), 2, 1)
            else:
                add(match.start(), 1, 2)
        self._points, self._shifts = points, shifts
        self._editor_starts, self._editor_ends = editor_starts, editor_ends
        self.editor_length = self.length + shift

    def to_editor(self, point: int) -> int:
        """Editor position of code point ``point`` (inside a CRLF: the separator)."""
        point = min(max(point, 0), self.length)
        k = bisect.bisect_left(self._points, point)
        return point + (self._shifts[k - 1] if k else 0)

    def to_point(self, position: int) -> int:
        """Code point at editor ``position`` (inside an emoji: the emoji's start)."""
        position = min(max(position, 0), self.editor_length)
        k = bisect.bisect_right(self._editor_ends, position)
        if k < len(self._points) and self._editor_starts[k] < position:
            return self._points[k]
        return position - (self._shifts[k - 1] if k else 0)


def editor_text(text: str) -> str:
    """What the editor is given: CRLF and lone CR as LF, so one separator stands for each."""
    return _LINE_BREAK_RE.sub("\n", text)


def text_from_editor(raw: str, newline: str) -> str:
    """Document text from the editor's raw text (U+2029 block separators) in a style."""
    separator = newline if newline in ("\n", "\r\n", "\r") else "\n"
    return raw.replace("\u2029", separator)
