"""Reading a file into a Document: size caps, byte-order marks, encodings (a guess the
user can correct), binary files refused, NUL bytes shown or refused, all in words."""

from __future__ import annotations

import codecs
import os
import re
import stat
from pathlib import Path
from typing import BinaryIO

from chunkview.core.errors import DocumentError
from chunkview.core.model.document import NUL_SHOWN, Document, kind_for_path

MAX_FILE_BYTES = 256 * 1024 * 1024


#: byte order marks, longest first (UTF-32 LE starts with UTF-16 LE's mark)
BOMS = (
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
    for mark, encoding in BOMS:
        if data.startswith(mark):
            return encoding, len(mark)
    return None


def _refuse_binary(data: bytes, name: str) -> None:
    head = data[:65536]
    if b"\x00" in head and _bom_of(head) is None:
        raise NulBytesError(name, head.index(b"\x00"))


#: how much messier (charset-normalizer's mess ratio) cp1252 or Latin-1 may read than the
#: best guess and still come first: Western European text fits several single-byte
#: encodings equally (cp1257, cp1250, iso8859_16 ...), and cp1252 is by far the likeliest
WESTERN_MESS_TOLERANCE = 0.1
#: the C1 control bytes: printable in cp1252 (mostly), control characters in Latin-1
_C1 = re.compile(rb"[\x80-\x9f]")


def _single_byte(encoding: str) -> bool:
    """True for a codec that maps every byte to one character (cp1257, koi8_r, ...)."""
    if encoding.startswith("utf"):
        return False
    try:
        return len(bytes(range(0x80, 0x100)).decode(encoding, "replace")) == 0x80
    except LookupError:
        return False


def _western(data: bytes) -> str | None:
    """cp1252, else Latin-1, when the bytes allow it: cp1252 leaves five bytes undefined,
    and C1 control bytes are no Latin-1 text."""
    try:
        data.decode("cp1252")
        return "cp1252"
    except UnicodeDecodeError:
        return None if _C1.search(data) else "latin_1"


def likely_encodings(data: bytes, most: int = 3) -> list[str]:
    """The encodings ``data`` is most likely in, best first (charset-normalizer). Where
    the best guesses are single-byte encodings and cp1252 (or Latin-1) reads the bytes
    about as cleanly, it comes first."""
    from charset_normalizer import from_bytes
    from charset_normalizer.md import mess_ratio

    sample = data[: 4 * _READ_BLOCK]
    found: list[str] = []
    best_mess = 0.0
    for match in from_bytes(sample):
        # without a byte order mark UTF-16/32 is a poor guess for text with no NUL bytes
        if not match.encoding.startswith(("utf_16", "utf_32")) and match.encoding not in found:
            if not found:
                best_mess = match.chaos
            found.append(match.encoding)
    western = _western(sample)
    if western is not None and (not found or _single_byte(found[0])):
        text = sample.decode(western, "replace")
        if mess_ratio(text, 1.0) <= best_mess + WESTERN_MESS_TOLERANCE:
            found = [western, *(e for e in found if e != western)]
    return found[:most]


def preview_line(data: bytes, encoding: str, width: int = 80) -> str:
    """The first line holding a byte above ASCII, decoded as ``encoding`` (undecodable
    bytes as U+FFFD), for a user to pick the encoding by eye."""
    lines = data[: 4 * _READ_BLOCK].splitlines() or [b""]
    line = next((ln for ln in lines if re.search(rb"[\x80-\xff]", ln)), lines[0])
    try:
        text = line.decode(encoding, "replace")
    except LookupError:
        return ""
    text = " ".join(text.split())
    if len(text) > width:  # around the first non-ASCII character
        at = next((i for i, c in enumerate(text) if ord(c) > 127), 0)
        start = max(0, min(at - width // 3, len(text) - width))
        text = ("…" if start else "") + text[start : start + width]
    return text


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
