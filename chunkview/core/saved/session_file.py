"""Session files (``NAME.chunkview.json``): the document, the chunker and its options,
layout B, the eval questions and the view of a window, to reopen that exact view.

The file is JSON with a ``format`` name and a ``version``. A file of a newer version, or
one that is not a session, is refused with one line naming the file; an older version is
brought up to this one, step by step (``UPGRADES``), as it is read. The document is named
by its path, relative to the session file's folder when it lies there or below (so a
folder of a document and its session can be moved or shared), and by the SHA-256 of its
bytes, so that a document changed since is noticed. A document edited and not saved to its
file has its text in the session too (``DocumentRef.text``), so no edit is lost; a document
never saved to a file (an untitled one) is its text alone, with no path, sample or hash.
"""

from __future__ import annotations

import codecs
import hashlib
import json
import os
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path, PurePosixPath
from typing import Any, Literal, TypeAlias, get_args

from chunkview.core.analysis.eval import Question, QuestionsError, parse_question, question_data
from chunkview.core.errors import DocumentError
from chunkview.core.io.save import save_document
from chunkview.core.model.document import KINDS, Document, kind_for_path
from chunkview.core.session import BSource

FORMAT = "chunkview-session"
#: the version this chunkview writes, and the newest it reads
VERSION = 2
SUFFIX = ".chunkview.json"
#: a session file is read whole: anything larger is not one
MAX_BYTES = 64 * 1024 * 1024
_SHA256 = re.compile(r"[0-9a-f]{64}")
#: what boundaries are coloured by: their kind, or the rule of their reason
ColourBy: TypeAlias = Literal["kind", "reason"]
COLOUR_BY: tuple[ColourBy, ...] = get_args(ColourBy)


class SessionError(DocumentError):
    """A session file that cannot be read or written; one line naming the file."""


@dataclass(frozen=True)
class Setting:
    """A chunker and its options."""

    entry_id: str
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class DocumentRef:
    """Where the document is: ``path`` (as written in the file: relative to the session
    file's folder, or absolute) or ``sample`` (a built-in sample's name), with what its
    bytes hashed to and how it was read. ``text``: the document as edited and not saved
    to its file (None: the file's text is the document); its ``sha256`` is then None when
    the file was missing as the session was saved. With neither ``path`` nor ``sample``
    the document is untitled (never saved to a file): ``text`` is all of it, and
    ``sha256`` None."""

    sha256: str | None
    path: str | None = None
    sample: str | None = None
    encoding: str = "utf-8"
    kind: str = "text"
    text: str | None = None

    @property
    def untitled(self) -> bool:
        """A document never saved to a file: its text is all the session has of it."""
        return self.path is None and self.sample is None


def untitled_ref(text: str, encoding: str = "utf-8", kind: str = "text") -> DocumentRef:
    """An untitled document's ``DocumentRef``: its text, encoding and kind, no file."""
    return DocumentRef(None, encoding=encoding, kind=kind, text=text)


@dataclass(frozen=True)
class LayoutB:
    """Layout B of compare: a pinned layout (made by ``setting`` on the document) or a
    second configuration (``setting``, run whenever the text changes)."""

    mode: BSource
    setting: Setting


@dataclass(frozen=True)
class EvalSetup:
    questions: tuple[Question, ...] = ()
    retriever: str | None = "bm25"
    top_k: int = 5


@dataclass(frozen=True)
class Docks:
    """Which of the docks the View menu toggles are open."""

    lanes: bool = False
    sweep: bool = False
    eval: bool = False
    audit: bool = False


#: the docks the View menu opens and closes, by the name the file gives them
DOCKS = tuple(f.name for f in fields(Docks))


@dataclass(frozen=True)
class ViewState:
    theme: str = "system"
    zoom: int = 0  # zoom steps (0: actual size)
    query: str = ""
    selected: int | None = None  # the selected chunk's index
    #: the editor's boundaries, and the lanes dock's bars, coloured by kind or by reason
    colour_by: ColourBy = "kind"
    lanes_colour_by: ColourBy = "kind"
    #: the compare view's "Side by side: B in a second editor"
    side_by_side: bool = False
    #: None in a file saved before the docks were kept: the window's docks stay as they are
    docks: Docks | None = None
    #: of the open docks tabbed together, the one in front (None: none so tabbed)
    front_dock: str | None = None


@dataclass(frozen=True)
class Session:
    document: DocumentRef
    setting: Setting
    embedder: str | None = "hash64"
    tokenizer: str | None = "wordpunct"
    b: LayoutB | None = None
    eval: EvalSetup = EvalSetup()
    view: ViewState = ViewState()
    #: what counts tokens (View > Count Tokens With): ``cl100k`` or a tokenizer file's
    #: path (stored as the document's is); None in a file saved before it was kept
    token_counter: str | None = None


# ----- paths and hashes -----------------------------------------------------------------


def is_session_path(path: str | os.PathLike[str]) -> bool:
    """True for a file named as a session file (``NAME.chunkview.json``)."""
    return os.fspath(path).lower().endswith(SUFFIX)


def session_path_for(path: str | os.PathLike[str]) -> str:
    """``path`` with the session suffix (a name typed without it, or with ``.json``)."""
    name = os.fspath(path)
    if is_session_path(name):
        return name
    if name.lower().endswith(".json"):
        name = name[: -len(".json")]
    return name + SUFFIX


def file_sha256(path: str | os.PathLike[str]) -> str:
    """The SHA-256 of the file's bytes, in hex."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def stored_path(document_path: str | os.PathLike[str], session_path: str | os.PathLike[str]) -> str:
    """How a session file at ``session_path`` names the document: relative (with ``/``)
    when it lies in the session file's folder or below, else absolute."""
    document = os.path.abspath(document_path)
    folder = os.path.dirname(os.path.abspath(session_path))
    try:
        relative = os.path.relpath(document, folder)
    except ValueError:  # another drive (Windows)
        return document
    if relative == os.pardir or relative.startswith(os.pardir + os.sep):
        return document
    return PurePosixPath(*Path(relative).parts).as_posix()


def resolve_path(ref: DocumentRef, session_path: str | os.PathLike[str]) -> str | None:
    """The document's path on this machine (None for a sample): a relative path is taken
    from the session file's folder."""
    if ref.path is None:
        return None
    path = ref.path.replace("/", os.sep)
    if os.path.isabs(path):
        return path
    return os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(session_path)), path))


def stored_entry_id(entry_id: str, session_path: str | os.PathLike[str]) -> str:
    """How a session file names a chunker: a chunker file's function id
    (``path/to/file.py:function``) with the file's path as ``stored_path`` gives it;
    any other id as it is."""
    where, colon, name = entry_id.rpartition(":")
    if not colon or not where.endswith(".py"):
        return entry_id
    return f"{stored_path(where, session_path)}:{name}"


def resolve_entry_id(entry_id: str, session_path: str | os.PathLike[str]) -> str:
    """The id on this machine of a chunker a session names: a chunker file's relative
    path is taken from the session file's folder (the inverse of ``stored_entry_id``)."""
    where, colon, name = entry_id.rpartition(":")
    if not colon or not where.endswith(".py"):
        return entry_id
    return f"{resolve_path(DocumentRef('', path=where), session_path)}:{name}"


# ----- writing --------------------------------------------------------------------------


def _setting_data(setting: Setting) -> dict[str, Any]:
    return {"id": setting.entry_id, "options": setting.options}


def session_data(session: Session) -> dict[str, Any]:
    """The session as the JSON object the file holds."""
    ref = session.document
    named: dict[str, Any] = {}  # untitled: no file to name or hash
    if ref.sample is not None:
        named = {"sample": ref.sample, "sha256": ref.sha256}
    elif ref.path is not None:
        named = {"path": ref.path, "sha256": ref.sha256}
    document = {**named, "encoding": ref.encoding, "kind": ref.kind}
    if ref.text is not None:
        document["text"] = ref.text
    b = session.b
    view = session.view
    return {
        "format": FORMAT,
        "version": VERSION,
        "document": document,
        "entry": _setting_data(session.setting),
        "embedder": session.embedder,
        "tokenizer": session.tokenizer,
        "b": None if b is None else {"mode": b.mode, **_setting_data(b.setting)},
        "eval": {
            "questions": [question_data(q) for q in session.eval.questions],
            "retriever": session.eval.retriever,
            "top_k": session.eval.top_k,
        },
        "view": {
            "theme": view.theme,
            "zoom": view.zoom,
            "query": view.query,
            "selected": view.selected,
            "colour_by": view.colour_by,
            "lanes_colour_by": view.lanes_colour_by,
            "side_by_side": view.side_by_side,
            "docks": None if view.docks is None else asdict(view.docks),
            "front_dock": view.front_dock,
        },
        "token_counter": session.token_counter,
    }


def session_json(session: Session) -> str:
    """The file's text. Raises SessionError when an option is not JSON (a Python object
    given to a function entry), naming it."""
    try:
        return json.dumps(session_data(session), ensure_ascii=False, indent=2) + "\n"
    except (TypeError, ValueError) as exc:
        raise SessionError(f"the options cannot be saved in a session file: {exc}") from None


def write_session(session: Session, path: str | os.PathLike[str]) -> None:
    """Write ``session`` to ``path`` atomically (core/io/save: the old file stays whole on
    a failure). Raises SessionError (one line naming the file)."""
    text = session_json(session)
    # a document's unsaved edits are inline: a session too large to be read again is
    # refused here, not found so when it is opened
    size = len(text.encode("utf-8"))
    if size > MAX_BYTES:
        untitled = session.document.untitled
        save = "the document to a file" if untitled else "the document's edits to its file"
        raise SessionError(
            f"{os.fspath(path)}: the session would be {size / 2**20:.0f} MiB, more than a "
            f"session file may be ({MAX_BYTES // 2**20} MiB): save {save} first"
        )
    try:
        save_document(Document(text, path=os.fspath(path), kind="json"), path)
    except SessionError:
        raise
    except DocumentError as exc:
        raise SessionError(str(exc)) from None


# ----- reading --------------------------------------------------------------------------


class _Reader:
    """Field checks that name the file and the field in their one line."""

    def __init__(self, name: str) -> None:
        self.name = name

    def error(self, message: str) -> SessionError:
        return SessionError(f"{self.name}: {message}")

    def object(self, value: Any, where: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise self.error(f"{where} must be an object, got {_shown(value)}")
        return value

    def string(self, data: dict[str, Any], key: str, where: str, default: str | None = None) -> str:
        value = data.get(key, default)
        if not isinstance(value, str):
            raise self.error(f"{_field(where, key)} must be a string, got {_shown(value)}")
        return value

    def optional_string(self, data: dict[str, Any], key: str, where: str) -> str | None:
        value = data.get(key)
        return None if value is None else self.string(data, key, where)

    def whole(self, data: dict[str, Any], key: str, where: str, default: int | None) -> int | None:
        value = data.get(key, default)
        if value is None:
            return None
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.error(f"{_field(where, key)} must be a whole number, got {_shown(value)}")
        return value

    def flag(self, data: dict[str, Any], key: str, where: str, default: bool) -> bool:
        value = data.get(key, default)
        if not isinstance(value, bool):
            raise self.error(f"{_field(where, key)} must be true or false, got {_shown(value)}")
        return value

    def colour_by(self, data: dict[str, Any], key: str, where: str) -> ColourBy:
        value = data.get(key, "kind")
        for known in COLOUR_BY:
            if value == known:
                return known
        raise self.error(f"{_field(where, key)} must be “kind” or “reason”, got {_shown(value)}")

    def setting(self, value: Any, where: str) -> Setting:
        data = self.object(value, where)
        options = self.object(data.get("options", {}), f"{where}.options")
        return Setting(self.string(data, "id", where), dict(options))


def _field(where: str, key: str) -> str:
    return f"{where}.{key}" if where else key


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:39] + "…"


def _one_to_two(data: dict[str, Any]) -> dict[str, Any]:
    """Version 2 keeps the colouring, side by side, the docks and unsaved edits: a file of
    version 1 has the first three at their defaults, its docks left as the window has
    them (null) and no text of its own (its document is its file)."""
    view = data.get("view", {})
    if isinstance(view, dict):  # else refused as it is read
        defaults = {"colour_by": "kind", "lanes_colour_by": "kind", "side_by_side": False}
        data["view"] = {**view, **defaults, "docks": None}
    return data


#: each step turns a file of version N (the key) into version N + 1
UPGRADES: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _one_to_two}


def _upgraded(data: dict[str, Any], reader: _Reader) -> dict[str, Any]:
    if data.get("format") != FORMAT:
        raise reader.error("not a chunkview session file (no “format”: “chunkview-session”)")
    version = data.get("version")
    if isinstance(version, bool) or not isinstance(version, int) or version < 1:
        raise reader.error(f"the session format version {_shown(version)} is not one chunkview has")
    if version > VERSION:
        raise reader.error(
            f"saved by a newer chunkview (session format {version}; this one reads up to "
            f"{VERSION}): update chunkview to open it"
        )
    while version < VERSION:
        data = UPGRADES[version](data)
        version += 1
        data["version"] = version
    return data


def _document(value: Any, reader: _Reader) -> DocumentRef:
    data = reader.object(value, "document")
    text = reader.optional_string(data, "text", "document")
    path = reader.optional_string(data, "path", "document")
    sample = reader.optional_string(data, "sample", "document")
    if path is not None and sample is not None:
        raise reader.error("document has both a “path” and a “sample”: it names one of them")
    if path is None and sample is None and text is None:
        # neither is an untitled document, whose text is all there is of it
        raise reader.error(
            "document has no “path”, “sample” or “text”: it names its file or sample, or "
            "holds the text of an untitled document"
        )
    if path == "" or sample == "":
        raise reader.error(f"document.{'path' if path == '' else 'sample'} must not be empty")
    sha: str | None = None
    # an untitled document has no file to hash (a hash there is of nothing: left out),
    # and one edited while its file was missing no hash
    untitled = path is None and sample is None
    if not untitled and (text is None or data.get("sha256") is not None):
        sha = reader.string(data, "sha256", "document").lower()
        if not _SHA256.fullmatch(sha):
            raise reader.error("document.sha256 must be 64 hex digits (a SHA-256)")
    if sample is not None and ("/" in sample or "\\" in sample or sample in (".", "..")):
        raise reader.error("document.sample must be a sample's file name")
    kind = reader.string(data, "kind", "document", kind_for_path(path or sample or ""))
    if kind not in KINDS:
        raise reader.error(f"document.kind must be one of {', '.join(KINDS)}, got {_shown(kind)}")
    encoding = reader.string(data, "encoding", "document", "utf-8")
    if text is not None:  # the text is written to its file in it when saved
        try:
            codecs.lookup(encoding)
        except LookupError:
            raise reader.error(
                f"document.encoding {_shown(encoding)} is not an encoding chunkview knows"
            ) from None
    return DocumentRef(sha, path, sample, encoding, kind, text)


def _b(value: Any, reader: _Reader) -> LayoutB | None:
    if value is None:
        return None
    data = reader.object(value, "b")
    mode = data.get("mode")
    if mode == "pinned" or mode == "config":
        return LayoutB(mode, reader.setting(data, "b"))
    raise reader.error(f"b.mode must be “pinned” or “config”, got {_shown(mode)}")


def _eval(value: Any, reader: _Reader) -> EvalSetup:
    data = reader.object(value, "eval")
    listed = data.get("questions", [])
    if not isinstance(listed, list):
        raise reader.error(f"eval.questions must be a list, got {_shown(listed)}")
    try:
        questions = tuple(parse_question(q, f"eval.questions[{i}]") for i, q in enumerate(listed))
    except QuestionsError as exc:
        raise reader.error(str(exc)) from None
    top_k = reader.whole(data, "top_k", "eval", 5)
    if top_k is None or top_k < 1:
        raise reader.error("eval.top_k must be 1 or more")
    return EvalSetup(questions, reader.optional_string(data, "retriever", "eval"), top_k)


def _view(value: Any, reader: _Reader) -> ViewState:
    data = reader.object(value, "view")
    selected = reader.whole(data, "selected", "view", None)
    return ViewState(
        reader.string(data, "theme", "view", "system"),
        reader.whole(data, "zoom", "view", 0) or 0,
        reader.string(data, "query", "view", ""),
        selected if selected is None or selected >= 0 else None,
        reader.colour_by(data, "colour_by", "view"),
        reader.colour_by(data, "lanes_colour_by", "view"),
        reader.flag(data, "side_by_side", "view", False),
        _docks(data.get("docks"), reader),
        _front_dock(data, reader),
    )


def _front_dock(data: dict[str, Any], reader: _Reader) -> str | None:
    front = reader.optional_string(data, "front_dock", "view")
    if front is not None and front not in DOCKS:
        raise reader.error(f"view.front_dock {_shown(front)} is not a dock chunkview has")
    return front


def _docks(value: Any, reader: _Reader) -> Docks | None:
    if value is None:
        return None
    data = reader.object(value, "view.docks")
    for name in data:
        if name not in DOCKS:
            raise reader.error(
                f"view.docks.{name} is not a dock chunkview has ({', '.join(DOCKS)})"
            )
    return Docks(**{name: reader.flag(data, name, "view.docks", False) for name in DOCKS})


def parse_session(text: str, name: str = "session") -> Session:
    """A session from the file's text; SessionError (one line, naming ``name``) when it
    is not one, is broken, or is of a newer version."""
    reader = _Reader(name)
    try:
        raw = json.loads(text)
    except json.JSONDecodeError as exc:
        raise reader.error(
            f"not a chunkview session file (not valid JSON: {exc.msg} at line {exc.lineno})"
        ) from None
    if not isinstance(raw, dict):
        raise reader.error("not a chunkview session file (not a JSON object)")
    data = _upgraded(raw, reader)
    return Session(
        _document(data.get("document"), reader),
        reader.setting(data.get("entry"), "entry"),
        reader.optional_string(data, "embedder", ""),
        reader.optional_string(data, "tokenizer", ""),
        _b(data.get("b"), reader),
        _eval(data.get("eval", {}), reader),
        _view(data.get("view", {}), reader),
        reader.optional_string(data, "token_counter", ""),
    )


def read_session(path: str | os.PathLike[str]) -> Session:
    """The session in the file at ``path``; SessionError (one line) when it cannot be."""
    name = os.fspath(path)
    try:
        with open(path, "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except FileNotFoundError:
        raise SessionError(f"{name}: no such file") from None
    except OSError as exc:
        raise SessionError(f"{name}: cannot be read ({exc.strerror or exc})") from None
    if len(data) > MAX_BYTES:
        raise SessionError(f"{name}: too large for a session file")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise SessionError(f"{name}: not a chunkview session file (not UTF-8 text)") from None
    return parse_session(text, name)
