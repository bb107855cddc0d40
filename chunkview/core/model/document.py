"""Document: the exact text that is chunked, and where it came from."""

from __future__ import annotations

import bisect
import json
import os
import re
import sys
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

KINDS = ("text", "markdown", "html", "json", "latex", "turns")

_SUFFIX_KIND = {
    ".md": "markdown",
    ".markdown": "markdown",
    ".mdx": "markdown",
    ".rst": "text",
    ".html": "html",
    ".htm": "html",
    ".xhtml": "html",
    ".json": "json",
    ".jsonl": "turns",
    ".tex": "latex",
    ".latex": "latex",
}
_ASTRAL_RE = re.compile("[\U00010000-\U0010ffff]")


def kind_for_path(path: str | os.PathLike[str]) -> str:
    """The document kind a file's name suggests (``text`` when nothing does)."""
    return _SUFFIX_KIND.get(Path(path).suffix.lower(), "text")


_MARKDOWN_RE = re.compile(r"^(?:#{1,6} \S|```|~~~|[-*+] \S|\d+\. \S|> )", re.MULTILINE)
_HTML_PAGE_RE = re.compile(r"\A\s*(?:<!doctype html|<html|<head|<body)", re.IGNORECASE)
#: HTML's tags anywhere: markdown holds them too (a README's centred logo), so they
#: make a text HTML only where markdown's marks do not make it markdown
_HTML_RE = re.compile(r"<(?:p|div|h[1-6])\b", re.IGNORECASE)
_LATEX_RE = re.compile(r"\\(?:documentclass|begin\{document\}|section\{)")


def kind_for_text(text: str) -> str:
    """The document kind a text with no file name looks like (text pasted in): JSON
    when the whole text parses as an object or array, else HTML (a whole page), LaTeX,
    markdown or HTML (tags in it: markdown may hold some) by their telltale marks, else
    ``text``. The kind picker changes it."""
    head = text.lstrip()[:1]
    if head in ("{", "["):
        try:
            json.loads(text)
        except ValueError:
            pass
        else:
            return "json"
    if _HTML_PAGE_RE.match(text):
        return "html"
    if _LATEX_RE.search(text):
        return "latex"
    if _MARKDOWN_RE.search(text):
        return "markdown"
    if _HTML_RE.search(text):
        return "html"
    return "text"


def newline_style(text: str) -> str:
    """``"\\n"``, ``"\\r\\n"``, ``"\\r"``, ``"mixed"``, or ``""`` for a single line."""
    if "\r" not in text:  # the usual case, told without counting
        return "\n" if "\n" in text else ""
    crlf = text.count("\r\n")
    lf = text.count("\n") - crlf
    cr = text.count("\r") - crlf
    styles = [s for s, n in (("\r\n", crlf), ("\n", lf), ("\r", cr)) if n]
    if not styles:
        return ""
    return styles[0] if len(styles) == 1 else "mixed"


@dataclass(frozen=True)
class Document:
    """The exact text given to a chunker. Offsets into it are Python code points."""

    text: str
    path: str | None = None
    kind: str = "text"
    bom: bool = False
    newline: str = field(default="")
    #: the codec the file was read with, and is written back with
    encoding: str = "utf-8"

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown document kind {self.kind!r}; one of {', '.join(KINDS)}")
        if not self.newline:
            object.__setattr__(self, "newline", newline_style(self.text))

    @property
    def name(self) -> str:
        return Path(self.path).name if self.path else "untitled"

    @cached_property
    def _astral_points(self) -> list[int]:
        """Code-point offsets of the characters that take two UTF-16 units."""
        if not may_hold_astral(self.text):
            return []  # a long text's scan took 40-60 ms of the window's thread
        return [m.start() for m in _ASTRAL_RE.finditer(self.text)]

    def units_to_points(self, unit_offset: int) -> int:
        """Convert a UTF-16 offset (as the JS libraries report) to a code-point offset."""
        astral = self._astral_points
        if not astral:
            return unit_offset
        # the k-th astral character sits at unit offset point + k; count those before
        lo, hi = 0, len(astral)
        while lo < hi:
            mid = (lo + hi) // 2
            if astral[mid] + mid < unit_offset:
                lo = mid + 1
            else:
                hi = mid
        return unit_offset - lo

    def points_to_units(self, point_offset: int) -> int:
        """Convert a code-point offset to a UTF-16 offset."""
        return point_offset + bisect.bisect_left(self._astral_points, point_offset)


def may_hold_astral(text: str) -> bool:
    """False when ``text`` holds no character past U+FFFF, found without a scan where
    it can be: CPython keeps a string in the narrowest of one, two or four bytes per
    character that fits its largest one (PEP 393), so a long string of under three bytes
    per character has none."""
    if text.isascii():
        return False
    if len(text) > 4096 and sys.implementation.name == "cpython":
        return sys.getsizeof(text) >= 3 * len(text)
    return True


#: what a NUL byte is shown as when a file holding them is opened anyway
NUL_SHOWN = "\u2400"  # ␀ SYMBOL FOR NULL
