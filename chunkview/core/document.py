"""Document: the exact text that is chunked, and where it came from."""

from __future__ import annotations

import bisect
import codecs
import os
import re
import stat
import tempfile
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import BinaryIO

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


#: byte order marks, longest first (UTF-32 LE starts with UTF-16 LE's mark)
_BOMS = (
    (b"\x00\x00\xfe\xff", "utf-32-be"),
    (b"\xff\xfe\x00\x00", "utf-32-le"),
    (b"\xef\xbb\xbf", "utf-8"),
    (b"\xfe\xff", "utf-16-be"),
    (b"\xff\xfe", "utf-16-le"),
)
_READ_BLOCK = 1 << 20


class NotTextError(DocumentError):
    """Bytes that do not decode; ``guess`` is the encoding they most likely are in."""

    def __init__(self, message: str, guess: str | None = None) -> None:
        super().__init__(message)
        self.guess = guess


class NulBytesError(DocumentError):
    """Bytes with a NUL in their first 64 KB and no byte order mark: likely a binary file.
    ``offset`` is the first NUL's byte offset in the file; ``load_document(...,
    show_nuls=NUL_SHOWN)`` opens it anyway."""

    def __init__(self, name: str, offset: int) -> None:
        super().__init__(f"{name}: this looks like a binary file (a NUL byte at offset {offset})")
        self.offset = offset


#: what a NUL byte is shown as when a file holding them is opened anyway
NUL_SHOWN = "\u2400"  # ␀ SYMBOL FOR NULL


class ReadOnlyError(DocumentError):
    """The file is read-only; ``save_document(..., overwrite_read_only=True)`` may replace it."""


def _too_big(name: str) -> DocumentError:
    return DocumentError(
        f"{name}: more than the {MAX_FILE_BYTES // 2**20} MB this tool opens; "
        "split it or chunk a part of it"
    )


def read_bounded(
    stream: BinaryIO, name: str, limit: int | None = None, binary_ok: bool = False
) -> bytes:
    """Read ``stream`` (a file, stdin, a FIFO, a device) up to ``limit`` bytes, refusing
    more, and refusing at once what starts like a binary stream (``/dev/zero``) unless
    ``binary_ok``."""
    limit = MAX_FILE_BYTES if limit is None else limit
    parts: list[bytes] = []
    size = 0
    while True:
        block = stream.read(min(_READ_BLOCK, limit + 1 - size))
        if not block:
            break
        if not parts and not binary_ok:
            _refuse_binary(block, name)
        parts.append(block)
        size += len(block)
        if size > limit:
            raise _too_big(name)
    return b"".join(parts)


def _bom_of(data: bytes) -> tuple[str, int] | None:
    for mark, encoding in _BOMS:
        if data.startswith(mark):
            return encoding, len(mark)
    return None


def _refuse_binary(data: bytes, name: str) -> None:
    head = data[:65536]
    if b"\x00" in head and _bom_of(head) is None:
        raise NulBytesError(name, head.index(b"\x00"))


def likely_encodings(data: bytes, most: int = 3) -> list[str]:
    """The encodings ``data`` is most likely in, best first (charset-normalizer)."""
    from charset_normalizer import from_bytes

    found: list[str] = []
    for match in from_bytes(data[: 4 * _READ_BLOCK]):
        # without a byte order mark UTF-16/32 is a poor guess for text with no NUL bytes
        if not match.encoding.startswith(("utf_16", "utf_32")) and match.encoding not in found:
            found.append(match.encoding)
    return found[:most]


def guess_encoding(data: bytes) -> str | None:
    """The encoding ``data`` is most likely in, or None."""
    found = likely_encodings(data, 1)
    return found[0] if found else None


def decode_text(data: bytes, name: str, encoding: str | None = None) -> tuple[str, bool]:
    """Decode file bytes as text, or raise DocumentError saying why not and where.

    UTF-8 by default (with or without a BOM); UTF-16 and UTF-32 with a BOM; any other
    ``encoding`` by name. A file that is not UTF-8 names the encoding it likely is in.
    Returns the text and whether it began with a BOM (``decode_document`` also gives
    the encoding).
    """
    text, bom, _ = _decode(data, name, encoding)
    return text, bom


def _decode(data: bytes, name: str, encoding: str | None) -> tuple[str, bool, str]:
    if encoding is not None:
        try:
            codec = codecs.lookup(encoding).name
        except LookupError:
            raise DocumentError(f"unknown encoding {encoding!r}") from None
        found = _bom_of(data)
        bom = found is not None and codecs.lookup(found[0]).name == codec
        body = data[found[1] :] if bom and found else data
        try:
            return body.decode(codec), bom, codec
        except UnicodeDecodeError as exc:
            line = body.count(b"\n", 0, exc.start) + 1
            raise NotTextError(
                f"{name}: not {codec} text (byte 0x{body[exc.start]:02x} at offset "
                f"{exc.start}, line {line})",
                guess_encoding(data),
            ) from None
    _refuse_binary(data, name)
    found = _bom_of(data)
    if found is not None and found[0] != "utf-8":
        return _decode(data, name, found[0])
    bom = found is not None
    try:
        text = data.decode("utf-8-sig" if bom else "utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        likely_ones = likely_encodings(data)
        guess = likely_ones[0] if likely_ones else None
        likely = ""
        if likely_ones:
            likely = "; it is likely " + " or ".join(
                filter(None, [", ".join(likely_ones[:-1]), likely_ones[-1]])
            )
        raise NotTextError(
            f"{name}: not UTF-8 text (byte 0x{data[exc.start]:02x} at offset {exc.start}, "
            f"line {line}){likely}: reopen it with that encoding or convert it to UTF-8",
            guess,
        ) from None
    return text, bom, "utf-8"


def decode_document(
    data: bytes,
    name: str,
    kind: str = "text",
    encoding: str | None = None,
    path: str | None = None,
) -> Document:
    """A Document from bytes (stdin, a file read elsewhere), decoded as ``decode_text``."""
    text, bom, codec = _decode(data, name, encoding)
    return Document(text=text, path=path, kind=kind, bom=bom, encoding=codec)


def decode_showing_nuls(
    data: bytes,
    name: str,
    kind: str = "text",
    encoding: str | None = None,
    path: str | None = None,
    shown: str = NUL_SHOWN,
) -> Document:
    """A file that holds NUL bytes, opened anyway to look at: each NUL is shown as
    ``shown`` (␀ unless the caller's font lacks it) and a byte that does not decode as
    U+FFFD, so the text is not the file's (save it under another name)."""
    found = _bom_of(data)
    try:
        codec = codecs.lookup(encoding or (found[0] if found else "utf-8")).name
    except LookupError:
        raise DocumentError(f"unknown encoding {encoding!r}") from None
    bom = found is not None and codecs.lookup(found[0]).name == codec
    body = data[found[1] :] if bom and found else data
    text = body.decode(codec, errors="replace").replace("\x00", shown)
    return Document(text=text, path=path, kind=kind, bom=bom, encoding=codec)


def load_document(
    path: str | os.PathLike[str],
    kind: str | None = None,
    encoding: str | None = None,
    show_nuls: str | None = None,
) -> Document:
    """Read a text file as a Document (UTF-8 unless ``encoding`` names another). Every
    failure is a one-line DocumentError; FIFOs and devices are read up to the size cap.
    A file with NUL bytes is refused (NulBytesError) unless ``show_nuls`` (what to show
    each NUL as): then it is read as ``decode_showing_nuls`` does."""
    p = Path(path)
    name = str(path)
    try:
        if p.is_dir():
            raise DocumentError(f"{name}: is a directory, not a file")
        info = p.stat()
        if stat.S_ISREG(info.st_mode) and info.st_size > MAX_FILE_BYTES:
            raise DocumentError(
                f"{name}: {info.st_size / 2**20:.0f} MB is more than the "
                f"{MAX_FILE_BYTES // 2**20} MB this tool opens"
            )
        with open(p, "rb") as handle:
            data = read_bounded(handle, name, binary_ok=show_nuls is not None)
    except FileNotFoundError:
        raise DocumentError(f"{name}: no such file") from None
    except PermissionError:
        raise DocumentError(f"{name}: permission denied") from None
    except OSError as exc:
        raise DocumentError(f"{name}: cannot be read ({exc.strerror or exc})") from None
    if show_nuls is not None:
        return decode_showing_nuls(
            data, name, kind or kind_for_path(p), encoding, str(p), show_nuls
        )
    return decode_document(data, name, kind or kind_for_path(p), encoding, str(p))


def encode_document(document: Document) -> bytes:
    """The bytes of ``document`` as it is saved: its encoding, its BOM if it had one."""
    codec = codecs.lookup(document.encoding).name
    unicode = codec.startswith(("utf-8", "utf-16", "utf-32"))
    try:
        data = document.text.encode(codec, "surrogatepass" if unicode else "strict")
    except UnicodeEncodeError as exc:
        line = document.text.count("\n", 0, exc.start) + 1
        raise DocumentError(
            f"{document.name}: {document.text[exc.start]!r} (line {line}) cannot be written "
            f"in {codec}; save it as UTF-8 instead"
        ) from None
    if document.bom:
        mark = next((m for m, e in _BOMS if codecs.lookup(e).name == codec), b"")
        data = mark + data
    return data


def save_document(
    document: Document, path: str | os.PathLike[str], overwrite_read_only: bool = False
) -> Document:
    """Write ``document`` to ``path`` losing nothing: the file's mode and owner are kept,
    a symlink is written through to its target, and a failure leaves the old file and no
    temporary file behind. Returns the document with its new path.

    Raises ReadOnlyError for a read-only file unless ``overwrite_read_only``, and
    DocumentError (one line) for any other failure.
    """
    name = str(path)
    data = encode_document(document)
    target = os.path.realpath(path)  # through a symlink, to what it points at
    try:
        info: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        info = None
    except OSError as exc:
        raise DocumentError(f"{name}: cannot be saved ({exc.strerror or exc})") from None
    if info is not None and not stat.S_ISREG(info.st_mode):
        raise DocumentError(f"{name}: is not a regular file")
    # read-only by its mode (as root can write anything) or to us
    read_only = info is not None and (
        not info.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH)
        or not os.access(target, os.W_OK)
    )
    if read_only and not overwrite_read_only:
        raise ReadOnlyError(f"{name}: the file is read-only")
    # replace by rename (atomic) unless that would change what a rename cannot keep: an
    # owner we may not give back, or other hard links to the same file
    in_place = info is not None and (
        info.st_nlink > 1 or (info.st_uid != os.geteuid() and os.geteuid() != 0)
    )
    try:
        if in_place and os.access(target, os.W_OK):
            with open(target, "r+b") as handle:
                handle.write(data)
                handle.truncate()
        else:
            _replace(target, data, info)
    except OSError as exc:
        raise DocumentError(f"{name}: cannot be saved ({exc.strerror or exc})") from None
    return replace(document, path=str(path))


def _replace(target: str, data: bytes, info: os.stat_result | None) -> None:
    folder = os.path.dirname(target) or "."
    handle, temp = tempfile.mkstemp(
        prefix=f".{os.path.basename(target)}.", suffix=".tmp", dir=folder
    )
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
            out.flush()
            if info is not None:
                os.fchmod(out.fileno(), stat.S_IMODE(info.st_mode))
                if (info.st_uid, info.st_gid) != (os.geteuid(), os.getegid()):
                    try:
                        os.fchown(out.fileno(), info.st_uid, info.st_gid)
                    except PermissionError:  # keep the group at least, when we may
                        try:
                            os.fchown(out.fileno(), -1, info.st_gid)
                        except PermissionError:
                            pass
            else:  # a new file gets the mode any program would give it (not mkstemp's 0600)
                os.fchmod(out.fileno(), 0o666 & ~_umask())
            os.fsync(out.fileno())
        os.replace(temp, target)
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise


def _umask() -> int:
    """The process's umask, read without changing it (Linux), else set and restored."""
    try:
        with open("/proc/self/status", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask
