"""Reading any source bounded and in its encoding; saving without losing anything."""

import errno
import io
import os
import stat
import subprocess
import sys
import threading
import time

import pytest

from chunkview.core.errors import DocumentError
from chunkview.core.io import read as document_module
from chunkview.core.io.read import NotTextError, decode_document, load_document, read_bounded
from chunkview.core.io.save import ReadOnlyError, save_document
from chunkview.core.model.document import Document

# ----- reading ------------------------------------------------------------------------


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be", "utf-32-le", "utf-32-be"])
def test_utf16_and_utf32_with_a_bom_are_text(tmp_path, codec):
    text = "Grüße 😀\r\nline two\r\n"
    mark = {"utf-16-le": b"\xff\xfe", "utf-16-be": b"\xfe\xff"}.get(
        codec, b"\xff\xfe\x00\x00" if codec == "utf-32-le" else b"\x00\x00\xfe\xff"
    )
    path = tmp_path / "wide.txt"
    path.write_bytes(mark + text.encode(codec))
    doc = load_document(path)
    assert doc.text == text and doc.bom and doc.encoding == codec
    save_document(doc, path)  # written back byte for byte
    assert path.read_bytes() == mark + text.encode(codec)


def test_not_utf8_names_its_likely_encoding(tmp_path):
    path = tmp_path / "latin.txt"
    data = "Déjà vu: café crème, façade, naïve résumé, à la française.\n".encode("cp1252")
    path.write_bytes(data * 5)
    with pytest.raises(NotTextError) as caught:
        load_document(path)
    message = str(caught.value)
    assert "latin.txt: not UTF-8 text (byte 0xe9 at offset 1, line 1); it is likely " in message
    assert caught.value.guess and caught.value.guess in message and "\n" not in message
    doc = load_document(path, encoding="cp1252")
    assert doc.text.startswith("Déjà vu") and doc.encoding == "cp1252"
    save_document(doc, path)
    assert path.read_bytes() == data * 5  # still cp1252


def test_unknown_or_wrong_encoding_is_one_line(tmp_path):
    path = tmp_path / "x.txt"
    path.write_bytes(b"\xff\xfe\xfd abc")
    with pytest.raises(DocumentError, match="unknown encoding 'klingon'"):
        load_document(path, encoding="klingon")
    with pytest.raises(DocumentError, match="not ascii text"):
        load_document(path, encoding="ascii")


def test_read_bounded_refuses_past_the_cap():
    assert read_bounded(io.BytesIO(b"a" * 100), "s", limit=100) == b"a" * 100
    with pytest.raises(DocumentError, match="more than"):
        read_bounded(io.BytesIO(b"a" * 101), "s", limit=100)
    with pytest.raises(DocumentError, match="binary"):
        read_bounded(io.BytesIO(b"\x00" * 10), "s", limit=100)


def test_dev_zero_is_refused_at_once():
    began = time.monotonic()
    with pytest.raises(DocumentError, match="binary"):
        load_document("/dev/zero")
    assert time.monotonic() - began < 2


def test_a_fifo_is_read_up_to_the_cap(tmp_path, monkeypatch):
    monkeypatch.setattr(document_module, "MAX_FILE_BYTES", 1000)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)

    def feed(data: bytes) -> None:
        try:
            with open(fifo, "wb") as out:
                out.write(data)
        except BrokenPipeError:  # the reader left, as it should past the cap
            pass

    writer = threading.Thread(target=feed, args=(b"word " * 100_000,), daemon=True)
    writer.start()
    with pytest.raises(DocumentError, match="more than the 0 MB"):
        load_document(fifo)
    writer.join(120)  # done writing before the next reader opens the same FIFO
    assert not writer.is_alive()
    writer = threading.Thread(target=feed, args=(b"short text",), daemon=True)
    writer.start()
    assert load_document(fifo).text == "short text"


def test_decode_document_from_bytes():
    doc = decode_document(b"# T\n", "<stdin>", "markdown")
    assert doc.text == "# T\n" and doc.kind == "markdown" and doc.path is None


# ----- saving ---------------------------------------------------------------------------


def test_save_keeps_the_mode(tmp_path):
    path = tmp_path / "notes.md"
    path.write_text("old", encoding="utf-8")
    path.chmod(0o664)
    save_document(Document("new"), path)
    assert path.read_text(encoding="utf-8") == "new"
    assert stat.S_IMODE(path.stat().st_mode) == 0o664


def test_a_new_file_gets_the_usual_mode(tmp_path):
    path = tmp_path / "fresh.md"
    old = os.umask(0o022)
    try:
        saved = save_document(Document("hello"), path)
    finally:
        os.umask(old)
    assert stat.S_IMODE(path.stat().st_mode) == 0o644  # not mkstemp's 0600
    assert saved.path == str(path)


def test_save_writes_through_a_symlink(tmp_path):
    target = tmp_path / "real.md"
    target.write_text("old", encoding="utf-8")
    link = tmp_path / "link.md"
    link.symlink_to(target)
    save_document(Document("new"), link)
    assert link.is_symlink()
    assert target.read_text(encoding="utf-8") == "new"


def test_save_keeps_hard_links_together(tmp_path):
    first = tmp_path / "a.md"
    first.write_text("old", encoding="utf-8")
    second = tmp_path / "b.md"
    os.link(first, second)
    save_document(Document("new"), first)
    assert second.read_text(encoding="utf-8") == "new"


@pytest.mark.skipif(os.geteuid() != 0, reason="giving a file to another owner needs root")
def test_save_keeps_the_owner(tmp_path):
    path = tmp_path / "theirs.md"
    path.write_text("old", encoding="utf-8")
    os.chown(path, 4321, 4321)
    save_document(Document("new"), path)
    info = path.stat()
    assert (info.st_uid, info.st_gid) == (4321, 4321)
    assert path.read_text(encoding="utf-8") == "new"


def test_a_read_only_file_is_not_replaced_unless_asked(tmp_path):
    path = tmp_path / "locked.md"
    path.write_text("old", encoding="utf-8")
    path.chmod(0o444)
    with pytest.raises(ReadOnlyError):
        save_document(Document("new"), path)
    assert path.read_text(encoding="utf-8") == "old"
    save_document(Document("new"), path, overwrite_read_only=True)
    assert path.read_text(encoding="utf-8") == "new"
    assert stat.S_IMODE(path.stat().st_mode) == 0o444


def test_a_failed_save_leaves_the_file_and_no_temp_file(tmp_path, monkeypatch):
    path = tmp_path / "keep.md"
    path.write_text("old", encoding="utf-8")

    def refuse(*_args):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(DocumentError, match=r"keep\.md: cannot be saved"):
        save_document(Document("new"), path)
    assert path.read_text(encoding="utf-8") == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["keep.md"]


def test_text_the_encoding_cannot_hold_is_refused_before_writing(tmp_path):
    path = tmp_path / "legacy.txt"
    path.write_bytes(b"caf\xe9")
    doc = load_document(path, encoding="cp1252")
    with pytest.raises(DocumentError, match="cannot be written in cp1252"):
        save_document(Document(doc.text + " 😀", encoding="cp1252"), path)
    assert path.read_bytes() == b"caf\xe9"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["legacy.txt"]


@pytest.fixture
def small_disk(tmp_path):
    """A 64 KB tmpfs, where this machine lets the tests mount one (root, Linux), else
    skipped: the faked full-disk tests below run everywhere."""
    folder = tmp_path / "disk"
    folder.mkdir()
    if os.geteuid() != 0 or not sys.platform.startswith("linux"):
        pytest.skip("mounting a tmpfs needs root on Linux")
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", str(folder)], capture_output=True
    )
    if mounted.returncode != 0:
        pytest.skip("this machine does not let the tests mount a tmpfs")
    try:
        yield folder
    finally:
        subprocess.run(["umount", str(folder)], check=False)


OLD_TEXT = "old line\n" * 2000  # 18 KB: two of them and the new text fill the disk
NEW_TEXT = "new line, longer\n" * 3000  # 51 KB


def _fill(folder, leave: int) -> None:
    """Fill ``folder``'s disk but for about ``leave`` bytes."""
    free = os.statvfs(folder).f_bavail * os.statvfs(folder).f_frsize
    if free > leave:
        (folder / "filler").write_bytes(b"x" * (free - leave))


def test_a_hard_linked_file_on_a_full_disk_is_left_whole(small_disk):
    first, second = small_disk / "a.md", small_disk / "b.md"
    first.write_text(OLD_TEXT, encoding="utf-8")
    os.link(first, second)
    _fill(small_disk, 8192)
    with pytest.raises(DocumentError, match=r"a\.md: cannot be saved \(No space left"):
        save_document(Document(NEW_TEXT), first)
    assert first.read_text(encoding="utf-8") == OLD_TEXT
    assert second.read_text(encoding="utf-8") == OLD_TEXT
    assert os.stat(first).st_ino == os.stat(second).st_ino


def test_a_file_replaced_by_rename_on_a_full_disk_is_left_whole(small_disk):
    path = small_disk / "keep.md"
    path.write_text(OLD_TEXT, encoding="utf-8")
    _fill(small_disk, 8192)
    with pytest.raises(DocumentError, match=r"keep\.md: cannot be saved \(No space left"):
        save_document(Document(NEW_TEXT), path)
    assert path.read_text(encoding="utf-8") == OLD_TEXT
    assert sorted(p.name for p in small_disk.iterdir()) == ["filler", "keep.md"]


def test_a_hard_linked_save_refused_space_touches_nothing(tmp_path, monkeypatch):
    first, second = tmp_path / "a.md", tmp_path / "b.md"
    first.write_text("old", encoding="utf-8")
    os.link(first, second)

    def full(fd, offset, length):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "posix_fallocate", full)
    with pytest.raises(DocumentError, match=r"a\.md: cannot be saved \(No space left"):
        save_document(Document("a longer new text"), first)
    assert first.read_text(encoding="utf-8") == second.read_text(encoding="utf-8") == "old"


def test_a_hard_linked_save_whose_write_fails_writes_the_old_bytes_back(tmp_path, monkeypatch):
    """A file system that cannot reserve space (it says so) and then fails the write:
    the old bytes go back, both links keep them."""
    first, second = tmp_path / "a.md", tmp_path / "b.md"
    first.write_text("old text here", encoding="utf-8")
    os.link(first, second)

    def unsupported(fd, offset, length):
        raise OSError(errno.EOPNOTSUPP, "Operation not supported")

    real_fsync, calls = os.fsync, []

    def fsync_fails_once(fd):
        calls.append(fd)
        if len(calls) == 1:
            raise OSError(errno.ENOSPC, "No space left on device")
        real_fsync(fd)

    monkeypatch.setattr(os, "posix_fallocate", unsupported)
    monkeypatch.setattr(os, "fsync", fsync_fails_once)
    with pytest.raises(DocumentError, match=r"a\.md: cannot be saved"):
        save_document(Document("a much longer new text than before"), first)
    assert first.read_text(encoding="utf-8") == second.read_text(encoding="utf-8")
    assert second.read_text(encoding="utf-8") == "old text here"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/fd")
def test_a_save_by_rename_syncs_the_folder(tmp_path, monkeypatch):
    path = tmp_path / "a.md"
    path.write_text("old", encoding="utf-8")
    real_fsync, synced = os.fsync, []

    def fsync(fd):
        synced.append(
            os.path.realpath(f"/proc/self/fd/{fd}") if sys.platform.startswith("linux") else fd
        )
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    save_document(Document("new"), path)
    assert path.read_text(encoding="utf-8") == "new"
    assert str(tmp_path) in synced
