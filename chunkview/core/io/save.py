"""Saving a Document back to its file in its own encoding, newlines and byte-order mark:
atomically by a rename where it can, in place where the file must keep its identity."""

from __future__ import annotations

import codecs
import errno
import os
import stat
import tempfile
from dataclasses import replace

from chunkview.core.errors import DocumentError
from chunkview.core.io.read import BOMS
from chunkview.core.model.document import Document


class ReadOnlyError(DocumentError):
    """The file is read-only; ``save_document(..., overwrite_read_only=True)`` may replace it."""


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
        mark = next((m for m, e in BOMS if codecs.lookup(e).name == codec), b"")
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
            _overwrite(target, data)
        else:
            _replace(target, data, info)
    except OSError as exc:
        raise DocumentError(f"{name}: cannot be saved ({exc.strerror or exc})") from None
    return replace(document, path=str(path))


def _overwrite(target: str, data: bytes) -> None:
    """Write ``data`` over the file itself (its other hard links see it too), losing
    nothing on a failure: the space is reserved before the first byte changes (a full
    disk refuses the save and leaves the file as it was), and should a write fail all
    the same, the old bytes are written back."""
    with open(target, "r+b") as handle:
        fd = handle.fileno()
        old = handle.read()
        if len(data) > len(old):
            _reserve(fd, len(old), len(data))
        try:
            handle.seek(0)
            handle.write(data)
            handle.truncate()
            handle.flush()
            os.fsync(fd)
        except OSError:
            handle.seek(0)
            handle.write(old)  # fits: the file held these bytes a moment ago
            handle.truncate()
            handle.flush()
            os.fsync(fd)
            raise


def _reserve(fd: int, size: int, needed: int) -> None:
    """Make sure the file can grow from ``size`` to ``needed`` bytes without running out
    of space, before anything is written. Where the file system cannot reserve space
    (it says so), the write goes ahead and a failure restores the old bytes."""
    try:
        os.posix_fallocate(fd, 0, needed)
    except OSError as exc:
        os.ftruncate(fd, size)  # whatever was reserved before the refusal
        if exc.errno in (errno.EOPNOTSUPP, errno.EINVAL, errno.ENOSYS):
            return
        raise


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
        _sync_folder(folder)  # the rename itself survives a power cut
    except BaseException:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise


def _sync_folder(folder: str) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:  # a folder that cannot be opened (Windows): nothing to sync
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # some file systems refuse fsync on a folder; the data is synced already
    finally:
        os.close(fd)


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
