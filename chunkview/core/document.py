"""Document: the exact text that is chunked, and where it came from."""

from __future__ import annotations

import bisect
import os
import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from chunkview.core.errors import DocumentError

KINDS = ("text", "markdown", "html", "json", "latex", "turns")
MAX_FILE_BYTES = 256 * 1024 * 1024

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


def newline_style(text: str) -> str:
    """``"\\n"``, ``"\\r\\n"``, ``"\\r"``, ``"mixed"``, or ``""`` for a single line."""
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


def decode_text(data: bytes, name: str) -> tuple[str, bool]:
    """Decode file bytes as UTF-8 text, or raise DocumentError saying why not and where."""
    if b"\x00" in data[:65536]:
        raise DocumentError(f"{name}: this looks like a binary file (it holds NUL bytes)")
    bom = data.startswith(b"\xef\xbb\xbf")
    try:
        text = data.decode("utf-8-sig" if bom else "utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise DocumentError(
            f"{name}: not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start}, "
            f"line {line}); convert it to UTF-8 first"
        ) from None
    return text, bom


def load_document(path: str | os.PathLike[str], kind: str | None = None) -> Document:
    """Read a UTF-8 file as a Document. Every failure is a one-line DocumentError."""
    p = Path(path)
    name = str(path)
    try:
        if p.is_dir():
            raise DocumentError(f"{name}: is a directory, not a file")
        size = p.stat().st_size
        if size > MAX_FILE_BYTES:
            raise DocumentError(
                f"{name}: {size / 2**20:.0f} MB is more than the {MAX_FILE_BYTES // 2**20} MB "
                "this tool opens"
            )
        data = p.read_bytes()
    except FileNotFoundError:
        raise DocumentError(f"{name}: no such file") from None
    except PermissionError:
        raise DocumentError(f"{name}: permission denied") from None
    except OSError as exc:
        raise DocumentError(f"{name}: cannot be read ({exc.strerror or exc})") from None
    text, bom = decode_text(data, name)
    return Document(text=text, path=str(p), kind=kind or kind_for_path(p), bom=bom)
