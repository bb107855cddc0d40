"""What a file on disk was when it was read or written (size, mtime, identity), so that a
change made by another program since is noticed before it is overwritten."""

from __future__ import annotations

import os
from typing import Literal, NamedTuple, TypeAlias

#: how a file differs from its stamp: the same, its content changed (same file), replaced
#: by another file (a new inode: an editor's save by rename, a copy over it), or gone
DiskChange: TypeAlias = Literal["same", "changed", "replaced", "deleted"]


class FileStamp(NamedTuple):
    size: int
    mtime_ns: int
    inode: int
    device: int


def file_stamp(path: str | os.PathLike[str]) -> FileStamp | None:
    """The stamp of ``path`` (through a symlink) now; None when it is gone or unreadable."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return FileStamp(info.st_size, info.st_mtime_ns, info.st_ino, info.st_dev)


def disk_change(stamp: FileStamp, path: str | os.PathLike[str]) -> DiskChange:
    """How ``path`` differs now from ``stamp``, taken when it was read or written."""
    now = file_stamp(path)
    if now is None:
        return "deleted"
    if (now.inode, now.device) != (stamp.inode, stamp.device):
        return "replaced"
    return "same" if now == stamp else "changed"
