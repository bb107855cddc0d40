"""Session files and each document's kept questions (core/saved): what is written is
read back the same, paths are relative where they can be, and a broken, foreign or newer
file is refused with one line naming it."""

from __future__ import annotations

import hashlib
import json
import os
import re
from pathlib import Path

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
    DOCKS,
    Docks,
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
    untitled_ref,
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
        ViewState(
            "dark",
            2,
            "fruit",
            4,
            "reason",
            "reason",
            True,
            Docks(lanes=True, sweep=True, audit=True),
            "audit",
        ),
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
    assert data["view"]["colour_by"] == "reason" and data["view"]["lanes_colour_by"] == "reason"
    assert data["view"]["side_by_side"] is True
    assert data["view"]["docks"] == {"lanes": True, "sweep": True, "eval": False, "audit": True}
    assert data["view"]["front_dock"] == "audit"
    assert "text" not in data["document"]  # not edited: the document is its file
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
            "saved by a newer chunkview (session format 99; this one reads up to 2): "
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
        (
            lambda d: d["document"].update(sample="guide.md"),
            "document has both a “path” and a “sample”: it names one of them",
        ),
        (
            lambda d: d["document"].pop("path"),
            "document has no “path”, “sample” or “text”: it names its file or sample, or "
            "holds the text of an untitled document",
        ),
        (lambda d: d["document"].update(path=""), "document.path must not be empty"),
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
        (lambda d: d["view"].update(colour_by="rainbow"), "view.colour_by must be “kind” or"),
        (lambda d: d["view"].update(lanes_colour_by=1), "view.lanes_colour_by must be “kind”"),
        (lambda d: d["view"].update(side_by_side="yes"), "view.side_by_side must be true or"),
        (lambda d: d["view"].update(docks=["lanes"]), "view.docks must be an object, got"),
        (lambda d: d["view"]["docks"].update(pane=True), "view.docks.pane is not a dock"),
        (lambda d: d["view"]["docks"].update(lanes="open"), "view.docks.lanes must be true or"),
        (lambda d: d["view"].update(front_dock="pane"), 'view.front_dock "pane" is not a dock'),
        (lambda d: d["view"].update(front_dock=2), "view.front_dock must be a string, got 2"),
        (lambda d: d["document"].update(text=5), "document.text must be a string, got 5"),
        (
            lambda d: d["document"].update(text="x", encoding="klingon"),
            'document.encoding "klingon" is not an encoding chunkview knows',
        ),
        # a hash may be missing only beside the edited text (its file was missing)
        (lambda d: d["document"].update(sha256=None), "document.sha256 must be a string"),
    ],
)
def test_a_bad_field_is_named(change, said):
    data = json.loads(session_json(a_session()))
    change(data)
    with pytest.raises(SessionError, match=r"^s\.chunkview\.json: ") as error:
        parse_session(json.dumps(data), "s.chunkview.json")
    assert said in str(error.value)


def test_an_older_version_is_brought_up_step_by_step(monkeypatch):
    # as a next version would: this version's file read by a chunkview that writes the next
    written = json.loads(session_json(a_session()))
    steps = []

    def to_next(data):
        steps.append(data["version"])
        data["view"]["query"] = data["view"]["query"].upper()
        return data

    current = session_file.VERSION
    monkeypatch.setattr(session_file, "VERSION", current + 1)
    monkeypatch.setattr(session_file, "UPGRADES", {**session_file.UPGRADES, current: to_next})
    session = parse_session(json.dumps(written))
    assert steps == [current]
    assert session.view.query == "FRUIT"
    assert session.setting == a_session().setting


#: a file as chunkview wrote it with session format 1, before the colouring, side by side,
#: the docks and unsaved edits were kept
VERSION_1 = """\
{
  "format": "chunkview-session",
  "version": 1,
  "document": {
    "path": "notes.md",
    "sha256": "abababababababababababababababababababababababababababababababab",
    "encoding": "utf-8",
    "kind": "markdown"
  },
  "entry": {"id": "mastra.chunk", "options": {"maxSize": 300}},
  "embedder": "hash64",
  "tokenizer": "wordpunct",
  "b": {"mode": "config", "id": "smartchunk", "options": {"maxSize": 200}},
  "eval": {"questions": [], "retriever": "bm25", "top_k": 5},
  "view": {"theme": "dark", "zoom": 1, "query": "fruit", "selected": 2},
  "token_counter": "cl100k"
}
"""


def test_a_version_1_file_opens_with_the_new_fields_at_their_defaults(tmp_path):
    path = tmp_path / "old.chunkview.json"
    path.write_text(VERSION_1, encoding="utf-8")
    session = read_session(path)
    assert session.document == DocumentRef("ab" * 32, path="notes.md", kind="markdown")
    assert session.document.text is None  # its document is its file, as before
    assert session.setting == Setting("mastra.chunk", {"maxSize": 300})
    assert session.b == LayoutB("config", Setting("smartchunk", {"maxSize": 200}))
    # the old fields as written, the new ones at their defaults; the docks not kept: None
    # (the window's docks stay as they are)
    assert session.view == ViewState("dark", 1, "fruit", 2, "kind", "kind", False, None)
    # written again, it is of this version, and reads back the same
    write_session(session, path)
    assert json.loads(path.read_text(encoding="utf-8"))["version"] == session_file.VERSION
    assert read_session(path) == session
    # a version 1 file without a view at all: every view field at its default
    bare = json.loads(VERSION_1)
    del bare["view"]
    assert parse_session(json.dumps(bare)).view == ViewState()


def test_a_documents_unsaved_edits_are_kept_inline_with_its_encoding_and_kind():
    edited = Session(
        DocumentRef(
            "ab" * 32, path="notes.md", encoding="windows-1252", kind="markdown", text="é\r\nx"
        ),
        Setting("smartchunk"),
    )
    data = json.loads(session_json(edited))
    assert data["document"]["text"] == "é\r\nx"
    assert data["document"]["encoding"] == "windows-1252" and data["document"]["sha256"]
    assert parse_session(session_json(edited)) == edited
    # its file was missing when the session was saved: no hash, the text all the same
    gone = Session(DocumentRef(None, path="notes.md", text="kept"), Setting("smartchunk"))
    assert json.loads(session_json(gone))["document"]["sha256"] is None
    assert parse_session(session_json(gone)) == gone
    # an edited sample is kept as the sample's name and the text
    sample = Session(DocumentRef("cd" * 32, sample="guide.md", text="# Mine"), Setting("x"))
    assert parse_session(session_json(sample)) == sample


def test_an_untitled_document_is_its_text_with_no_path_sample_or_hash():
    untitled = Session(
        untitled_ref("Typed in.\r\nNever saved: é", "windows-1252", "markdown"),
        Setting("smartchunk", {"maxSize": 250}),
    )
    assert untitled.document.untitled
    data = json.loads(session_json(untitled))
    assert data["document"] == {
        "encoding": "windows-1252",
        "kind": "markdown",
        "text": "Typed in.\r\nNever saved: é",
    }
    assert parse_session(session_json(untitled)) == untitled
    # an empty untitled document is a text too
    empty = Session(untitled_ref(""), Setting("x"))
    assert json.loads(session_json(empty))["document"]["text"] == ""
    assert parse_session(session_json(empty)).document == DocumentRef(None, text="")
    # a hash beside an untitled document's text is of no file: left out
    data["document"]["sha256"] = "nonsense"
    assert parse_session(json.dumps(data)) == untitled


@pytest.mark.parametrize(
    ("document", "said"),
    [
        # neither a path nor a sample, and no text: nothing to open
        ({"kind": "text", "encoding": "utf-8"}, "document has no “path”, “sample” or “text”"),
        ({"sha256": "ab" * 32}, "document has no “path”, “sample” or “text”"),
        # both, with or without a text
        (
            {"path": "a.md", "sample": "guide.md", "sha256": "ab" * 32},
            "document has both a “path” and a “sample”",
        ),
        ({"path": "a.md", "sample": "guide.md", "text": "x"}, "document has both a “path”"),
        ({"text": None}, "document has no “path”, “sample” or “text”"),
        ({"text": ["x"]}, "document.text must be a string"),
        ({"text": "x", "encoding": "klingon"}, 'document.encoding "klingon" is not an encoding'),
        ({"text": "x", "kind": "pdf"}, "document.kind must be one of"),
    ],
)
def test_a_document_with_neither_path_nor_sample_needs_its_text(tmp_path, document, said):
    data = json.loads(session_json(a_session()))
    data["document"] = document
    path = tmp_path / "s.chunkview.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(SessionError) as error:
        read_session(path)
    message = str(error.value)
    assert message.startswith(f"{path}: ") and said in message and "\n" not in message


def test_every_dock_round_trips_on_its_own():
    for name in DOCKS:
        docks = Docks(**{name: True})
        session = Session(
            DocumentRef("0" * 64, path="d.md"), Setting("x"), view=ViewState(docks=docks)
        )
        assert parse_session(session_json(session)).view.docks == docks


def test_a_session_too_large_to_be_read_again_is_not_written(tmp_path, monkeypatch):
    monkeypatch.setattr(session_file, "MAX_BYTES", 1000)
    path = tmp_path / "big.chunkview.json"
    big = Session(DocumentRef("0" * 64, path="d.md", text="x" * 2000), Setting("x"))
    with pytest.raises(SessionError, match=r"more than a session file may be") as error:
        write_session(big, path)
    assert str(error.value).startswith(f"{path}: ") and not path.exists()
    assert str(error.value).endswith("save the document's edits to its file first")
    untitled = Session(untitled_ref("x" * 2000), Setting("x"))
    with pytest.raises(SessionError, match=r"save the document to a file first$"):
        write_session(untitled, path)
    assert not path.exists()


README = Path(__file__).resolve().parent.parent / "README.md"
SAMPLE = Path(session_file.__file__).resolve().parents[2] / "resources" / "samples" / "guide.md"


def readme_session_example() -> str:
    """The JSON example of the README's section on session files, as written."""
    readme = README.read_text(encoding="utf-8")
    section = readme[readme.index("### Session files") :]
    found = re.search(r"```json\n(.*?)```", section, re.DOTALL)
    assert found is not None
    return found.group(1)


def test_the_readme_example_is_a_session_of_this_version_as_written():
    session = parse_session(readme_session_example(), "README")
    assert json.loads(readme_session_example())["version"] == session_file.VERSION
    # its document is the sample guide.md, by its hash, and the question's answer is there
    assert session.document.sha256 == file_sha256(SAMPLE)
    text = SAMPLE.read_text(encoding="utf-8")
    for reference in session.eval.questions[0].references:
        assert text[reference.start : reference.end] == reference.content
    # every field the format has is in it (written out, not left to its default)
    assert session.view.docks is not None and session.view.colour_by == "reason"


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
