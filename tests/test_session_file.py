"""Session files and each document's kept questions (core/saved): what is written is
read back the same, paths are relative where they can be, and a broken, foreign or newer
file is refused with one line naming it."""

from __future__ import annotations

import hashlib
import json
import os

import pytest

from chunkview.core.analysis.eval import Question, Reference
from chunkview.core.saved import document_questions as kept_questions
from chunkview.core.saved import session_file
from chunkview.core.saved.document_questions import (
    DocumentQuestions,
    StoreError,
    document_key,
    load_document_questions,
    save_document_questions,
    store_path,
    text_sha256,
    text_sha256_in_slices,
)
from chunkview.core.saved.session_file import (
    DocumentRef,
    EvalSetup,
    LayoutB,
    Session,
    SessionError,
    Setting,
    ViewState,
    file_sha256,
    is_session_path,
    parse_session,
    read_session,
    resolve_path,
    session_json,
    session_path_for,
    stored_path,
    write_session,
)

QUESTIONS = (
    Question("Which fruit?", (Reference("Pears", 10, 15),)),
    Question("Two places", (Reference("a", 0, 1), Reference("bc", 4, 6))),
)


def a_session(path: str = "docs/notes.md") -> Session:
    return Session(
        DocumentRef("ab" * 32, path=path, encoding="windows-1252", kind="markdown"),
        Setting("mastra.chunk", {"strategy": "recursive", "maxSize": 300, "separators": ["\n"]}),
        "hash64",
        "wordpunct",
        LayoutB("pinned", Setting("agentos.SemanticChunker", {"targetSize": 200})),
        EvalSetup(QUESTIONS, "hash64", 3),
        ViewState("dark", 2, "fruit", 4),
    )


def test_a_session_is_read_back_as_written(tmp_path):
    path = tmp_path / "notes.chunkview.json"
    session = a_session()
    write_session(session, path)
    assert read_session(path) == session
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == "chunkview-session" and data["version"] == session_file.VERSION
    assert data["document"]["path"] == "docs/notes.md"
    assert data["b"] == {
        "mode": "pinned",
        "id": "agentos.SemanticChunker",
        "options": {"targetSize": 200},
    }
    assert data["eval"]["questions"][1]["references"][1] == {
        "content": "bc",
        "start_index": 4,
        "end_index": 6,
    }
    # saving again replaces the file whole, and leaves no temporary file beside it
    write_session(Session(session.document, Setting("smartchunk")), path)
    assert read_session(path).setting == Setting("smartchunk")
    assert sorted(os.listdir(tmp_path)) == ["notes.chunkview.json"]


def test_a_sample_and_a_config_b_and_no_b_are_kept_too():
    sample = Session(
        DocumentRef("cd" * 32, sample="guide.md", kind="markdown"),
        Setting("smartchunk", {"maxSize": 100}),
        None,
        None,
        LayoutB("config", Setting("mastra.chunk", {"maxSize": 50})),
    )
    assert parse_session(session_json(sample)) == sample
    bare = Session(DocumentRef("cd" * 32, path="/abs/x.txt"), Setting("smartchunk"))
    assert parse_session(session_json(bare)) == bare


def test_the_document_is_named_relative_to_the_session_where_it_lies_beside_or_below(tmp_path):
    session = tmp_path / "work" / "s.chunkview.json"
    beside = tmp_path / "work" / "doc.md"
    below = tmp_path / "work" / "texts" / "doc.md"
    outside = tmp_path / "elsewhere" / "doc.md"
    assert stored_path(beside, session) == "doc.md"
    assert stored_path(below, session) == "texts/doc.md"
    assert stored_path(outside, session) == str(outside)
    for document in (beside, below, outside):
        ref = DocumentRef("0" * 64, path=stored_path(document, session))
        assert resolve_path(ref, session) == str(document)
    # the folder moved with its session: the relative name still finds the document
    moved = tmp_path / "moved" / "s.chunkview.json"
    assert resolve_path(DocumentRef("0" * 64, path="texts/doc.md"), moved) == str(
        tmp_path / "moved" / "texts" / "doc.md"
    )
    assert resolve_path(DocumentRef("0" * 64, sample="guide.md"), session) is None


def test_names_and_hashes():
    assert is_session_path("a/b.chunkview.json") and not is_session_path("b.json")
    assert session_path_for("x") == "x.chunkview.json"
    assert session_path_for("x.json") == "x.chunkview.json"
    assert session_path_for("x.chunkview.json") == "x.chunkview.json"


def test_the_hash_is_of_the_file_bytes(tmp_path):
    path = tmp_path / "doc.txt"
    path.write_bytes(b"caf\xe9\r\n")
    assert file_sha256(path) == hashlib.sha256(b"caf\xe9\r\n").hexdigest()


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("{nope", "not a chunkview session file (not valid JSON: Expecting property name"),
        ("[1, 2]", "not a chunkview session file (not a JSON object)"),
        ('{"format": "other"}', "not a chunkview session file"),
        ('{"format": "chunkview-session", "version": 0}', "version 0 is not one chunkview has"),
        (
            '{"format": "chunkview-session", "version": 99}',
            "saved by a newer chunkview (session format 99; this one reads up to 1): "
            "update chunkview to open it",
        ),
    ],
)
def test_a_broken_foreign_or_newer_file_is_refused_in_one_line(tmp_path, text, said):
    path = tmp_path / "bad.chunkview.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(SessionError) as error:
        read_session(path)
    message = str(error.value)
    assert message.startswith(f"{path}: ") and said in message
    assert "\n" not in message


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda d: d["document"].update(sha256="xyz"), "document.sha256 must be 64 hex digits"),
        (lambda d: d["document"].update(sample="guide.md"), "a “path” or a “sample”, one of them"),
        (lambda d: d["document"].update(kind="pdf"), "document.kind must be one of"),
        (lambda d: d["entry"].pop("id"), "entry.id must be a string, got null"),
        (lambda d: d["entry"].update(options=[1]), "entry.options must be an object"),
        (lambda d: d["b"].update(mode="both"), "b.mode must be “pinned” or “config”"),
        (lambda d: d["eval"].update(top_k=0), "eval.top_k must be 1 or more"),
        (
            lambda d: d["eval"]["questions"][0]["references"][0].update(end_index=1),
            "eval.questions[0], reference 1: the range 10..1 is empty or negative",
        ),
        (lambda d: d["view"].update(zoom="big"), "view.zoom must be a whole number"),
        (lambda d: d.update(embedder=3), "embedder must be a string, got 3"),
    ],
)
def test_a_bad_field_is_named(change, said):
    data = json.loads(session_json(a_session()))
    change(data)
    with pytest.raises(SessionError, match=r"^s\.chunkview\.json: ") as error:
        parse_session(json.dumps(data), "s.chunkview.json")
    assert said in str(error.value)


def test_an_older_version_is_brought_up_step_by_step(monkeypatch):
    # as a next version would: version 1's file read by a chunkview that writes 2
    written = json.loads(session_json(a_session()))
    steps = []

    def one_to_two(data):
        steps.append(data["version"])
        data["view"]["query"] = data["view"]["query"].upper()
        return data

    monkeypatch.setattr(session_file, "VERSION", 2)
    monkeypatch.setattr(session_file, "UPGRADES", {1: one_to_two})
    session = parse_session(json.dumps(written))
    assert steps == [1]
    assert session.view.query == "FRUIT"
    assert session.setting == a_session().setting


def test_options_that_are_not_json_are_refused_by_name(tmp_path):
    session = Session(DocumentRef("0" * 64, path="d.md"), Setting("x", {"length": len}))
    with pytest.raises(SessionError, match="cannot be saved in a session file"):
        write_session(session, tmp_path / "s.chunkview.json")
    assert not (tmp_path / "s.chunkview.json").exists()


def test_a_missing_file_and_an_unwritable_folder_are_one_line(tmp_path):
    with pytest.raises(SessionError, match="no such file"):
        read_session(tmp_path / "none.chunkview.json")
    with pytest.raises(SessionError, match="cannot be saved"):
        write_session(a_session(), tmp_path / "no" / "folder" / "s.chunkview.json")


# ----- each document's questions --------------------------------------------------------


def test_a_documents_questions_are_kept_by_its_key(tmp_path):
    folder = tmp_path / "data" / "questions"
    key = document_key(tmp_path / "doc.md", "text")
    assert key == str(tmp_path / "doc.md")
    assert document_key(None, "text") == document_key(None, "text")
    assert document_key(None, "text") != document_key(None, "other")
    assert document_key("/x/samples/guide.md", "t", sample=True) == "sample:guide.md"
    assert load_document_questions(folder, key) is None
    kept = DocumentQuestions(key, kept_questions.text_sha256("text"), QUESTIONS)
    save_document_questions(folder, kept)  # the folder is made
    assert load_document_questions(folder, key) == kept
    assert load_document_questions(folder, document_key(tmp_path / "other.md", "")) is None
    # no questions: no file
    save_document_questions(folder, DocumentQuestions(key, "", ()))
    assert not store_path(folder, key).exists()
    assert load_document_questions(folder, key) is None


def test_a_broken_questions_file_is_said_and_an_unwritable_folder_too(tmp_path):
    folder = tmp_path / "questions"
    folder.mkdir()
    store_path(folder, "k").write_text("{nope", encoding="utf-8")
    with pytest.raises(StoreError, match="not valid JSON"):
        load_document_questions(folder, "k")
    blocked = tmp_path / "file"
    blocked.write_text("")
    with pytest.raises(StoreError, match="cannot be written"):
        save_document_questions(blocked / "questions", DocumentQuestions("k", "", QUESTIONS))


@pytest.mark.parametrize("size", [1, 2, 3, 7, 1000])
def test_a_text_hashed_in_slices_hashes_as_the_whole(size):
    text = "a😀é\ud800z" * 20
    steps = list(text_sha256_in_slices(text, size))
    assert steps[-1] == text_sha256(text)
    assert steps[:-1] == [None] * (len(steps) - 1)
    assert len(steps) == max(1, -(-len(text) // size))
