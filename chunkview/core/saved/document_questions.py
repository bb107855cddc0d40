"""Each document's eval questions, kept in a folder of the app's so that they come back
when the document is opened again, and quitting loses none.

A document is known by its key: the absolute path of its file, ``sample:NAME`` for a
built-in sample, or ``text:SHA256`` (of its text) for one with no file. Each key has one
small JSON file in the folder, named by the key's hash, holding the key, the SHA-256 of
the text the questions were marked on (so a document changed since can be told) and the
questions in chunking_evaluation's format. A document with no questions has no file.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chunkview.core.analysis.eval import Question, QuestionsError, parse_question, question_data
from chunkview.core.errors import DocumentError
from chunkview.core.io.save import save_document
from chunkview.core.model.document import Document

FORMAT = "chunkview-questions"
VERSION = 1


class StoreError(DocumentError):
    """A stored questions file that cannot be read or written; one line naming it."""


@dataclass(frozen=True)
class DocumentQuestions:
    """The questions of the document known by ``key``, marked on the text whose SHA-256
    is ``text_sha256``."""

    key: str
    text_sha256: str
    questions: tuple[Question, ...]


def text_sha256(text: str) -> str:
    """The SHA-256 of ``text`` in UTF-8 (a lone surrogate kept as it is)."""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


#: code points hashed at a time by ``text_sha256_in_slices`` (a few ms each)
HASH_SLICE = 1 << 20


def text_sha256_in_slices(text: str, size: int = HASH_SLICE) -> Iterator[str | None]:
    """``text_sha256(text)``, ``size`` code points at a time: None after each slice but
    the last, then the digest (a caller on a UI thread steps it between events: a 10 MB
    text took 30 ms at once). Code points encode to UTF-8 one by one, so the slices'
    bytes are the whole text's."""
    digest = hashlib.sha256()
    for start in range(0, len(text), size):
        digest.update(text[start : start + size].encode("utf-8", "surrogatepass"))
        if start + size < len(text):
            yield None
    yield digest.hexdigest()


def text_key(text_hash: str) -> str:
    """The key of a document without a file, from its text's ``text_sha256``."""
    return "text:" + text_hash


def document_key(path: str | os.PathLike[str] | None, text: str, sample: bool = False) -> str:
    """How the folder knows a document: its file's absolute path, ``sample:NAME``, or
    ``text:SHA256`` when it has no file."""
    if path is None:
        return text_key(text_sha256(text))
    if sample:
        return "sample:" + os.path.basename(os.fspath(path))
    return os.path.abspath(os.fspath(path))


def store_path(folder: str | os.PathLike[str], key: str) -> Path:
    """The file that holds ``key``'s questions."""
    name = hashlib.sha256(key.encode("utf-8", "surrogatepass")).hexdigest()[:32]
    return Path(folder) / f"{name}.json"


def load_document_questions(folder: str | os.PathLike[str], key: str) -> DocumentQuestions | None:
    """The questions kept for ``key``; None when there are none. Raises StoreError for a
    file that is there but cannot be read."""
    path = store_path(folder, key)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise StoreError(f"{path}: cannot be read ({exc})") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise StoreError(f"{path}: not valid JSON ({exc.msg})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise StoreError(f"{path}: not a chunkview questions file")
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version > VERSION:
        raise StoreError(f"{path}: saved by a newer chunkview (version {version!r})")
    if data.get("key") != key:  # another key whose hash begins alike: not this document's
        return None
    listed = data.get("questions")
    if not isinstance(listed, list):
        raise StoreError(f"{path}: “questions” must be a list")
    try:
        questions = tuple(
            parse_question(q, f"{path}, question {i + 1}") for i, q in enumerate(listed)
        )
    except QuestionsError as exc:
        raise StoreError(str(exc)) from None
    return DocumentQuestions(key, str(data.get("text_sha256", "")), questions)


def save_document_questions(folder: str | os.PathLike[str], kept: DocumentQuestions) -> None:
    """Keep ``kept`` in ``folder`` (made when missing), atomically; no questions remove
    the file. Raises StoreError (one line) when it cannot be written."""
    path = store_path(folder, kept.key)
    if not kept.questions:
        try:
            path.unlink(missing_ok=True)
        except OSError as exc:
            raise StoreError(f"{path}: cannot be removed ({exc.strerror or exc})") from None
        return
    data: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "key": kept.key,
        "text_sha256": kept.text_sha256,
        "questions": [question_data(q) for q in kept.questions],
    }
    text = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    try:
        os.makedirs(folder, exist_ok=True)
        save_document(Document(text, path=str(path), kind="json"), path)
    except OSError as exc:
        raise StoreError(f"{folder}: cannot be written ({exc.strerror or exc})") from None
    except DocumentError as exc:
        raise StoreError(str(exc)) from None
