"""A user's own chunker: a function as an Entry, loaded by id from a file or a module, or
from an installed package's entry points; run in the chunking process under the watchdog."""

import json
import os
import subprocess
import sys
from enum import Enum
from typing import Literal, Optional

import pytest
from conftest import CORPUS, ROOT

from chunkview.core import registry
from chunkview.core.build import chunk_layout
from chunkview.core.chunkers.entry import RunContext
from chunkview.core.errors import ChunkerError
from chunkview.core.model.document import Document
from chunkview.core.plugins import FunctionEntry, chunker, is_function_id, load_file
from chunkview.core.plugins.load import EntryLoadError
from chunkview.core.runtime import ChunkService, Stopped
from chunkview.core.runtime.pipeline import ChunkRequest

TEXT = "# Title\n\nA first paragraph. It has two sentences!\n\n## Part\n\nSecond part, here.\n"


def layout_of(entry, text=TEXT, options=None):
    return chunk_layout(entry, Document(text), options or {}, RunContext())[1]


# ----- options from the signature ----------------------------------------------------------


class Colour(Enum):
    RED = "red"
    BLUE = "blue"


def every_kind(
    text: str,
    max_chars: int = 450,
    ratio: float = 0.5,
    trim: bool = True,
    glue: str = "\n",
    mode: Literal["para", "line"] = "para",
    separators: list[str] = ["\n\n", "\n"],  # noqa: B006 (a default never mutated)
    pair: tuple = (1, 2),
    limit: Optional[int] = None,  # noqa: UP045 (the spelling people use)
    colour: Colour = Colour.RED,
    untyped=3,
    *,
    min_chars: int = 10,
    chunk_overlap: int = 0,
    target_size: int = 200,
    **rest,
) -> list[str]:
    """Paragraphs, cut at max_chars.

    Args:
        max_chars: the largest chunk
        glue (str): put between pieces
    """
    return [text]


def test_each_hint_gives_its_kind_default_and_help():
    entry = FunctionEntry(every_kind)
    params = {p.name: p for p in entry.params}
    assert list(params) == [
        "max_chars", "ratio", "trim", "glue", "mode", "separators", "pair", "limit",
        "colour", "untyped", "min_chars", "chunk_overlap", "target_size",
    ]  # fmt: skip
    kinds = {name: p.kind for name, p in params.items()}
    assert kinds == {
        "max_chars": "int", "ratio": "float", "trim": "bool", "glue": "str", "mode": "choice",
        "separators": "json", "pair": "json", "limit": "int", "colour": "choice",
        "untyped": "int", "min_chars": "int", "chunk_overlap": "int", "target_size": "int",
    }  # fmt: skip
    assert params["mode"].choices == ("para", "line")
    assert params["colour"].choices == ("red", "blue")
    assert params["max_chars"].default == 450 and params["limit"].default is None
    assert params["pair"].default == [1, 2]  # JSON has arrays
    assert params["max_chars"].help == "the largest chunk"
    assert params["glue"].help == "put between pieces"
    # the roles a name makes plain
    roles = {name: p.role for name, p in params.items() if p.role}
    assert roles == {
        "max_chars": "max", "min_chars": "min", "chunk_overlap": "overlap",
        "target_size": "target", "limit": "max",
    }  # fmt: skip
    assert entry.summary == "Paragraphs, cut at max_chars."
    assert entry.title == "every_kind" and entry.size_unit == "chars"
    assert entry.limits({"max_chars": 300}) == {
        "max": 300,
        "min": 10,
        "overlap": 0,
        "target": 200,
    }  # limit: None is left out


def test_a_required_option_and_string_annotations():
    namespace: dict = {}
    exec(  # as a file with postponed annotations reads
        "from __future__ import annotations\n"
        "def f(text: str, size: int, *, mode: str = 'a', n: Unknown = 1) -> list: ...\n",
        namespace,
    )
    params = {p.name: p for p in FunctionEntry(namespace["f"]).params}
    assert params["size"].kind == "int" and params["size"].always
    assert params["size"].default is None
    assert params["mode"].kind == "str" and params["n"].kind == "json"


def test_the_decorator_and_attributes_declare_what_a_signature_cannot():
    @chunker(max="width", overlap="shared", size_unit="bytes", boundary_kinds=["line"])
    def cut(text, width: int = 100, shared: int = 0, max_size: int = 5):
        return [text]

    entry = FunctionEntry(cut)
    roles = {p.name: p.role for p in entry.params}
    assert roles == {"width": "max", "shared": "overlap", "max_size": None}
    assert entry.size_unit == "bytes" and entry.boundary_kinds == ("line",)

    def plain(text, a: int = 1):
        return [text]

    plain.chunkview_roles = {"a": "target"}
    plain.chunkview_title = "Plain cut"
    entry = FunctionEntry(plain)
    assert entry.params[0].role == "target" and entry.title == "Plain cut"


def test_a_callable_without_a_text_is_refused():
    def nothing(*, size: int = 1):
        return []

    with pytest.raises(TypeError, match="takes no text"):
        FunctionEntry(nothing)


# ----- the three shapes, placed ------------------------------------------------------------


def by_strings(text: str, size: int = 20) -> list[str]:
    return [text[i : i + size] for i in range(0, len(text), size)]


def by_pairs(text: str, size: int = 20):
    return [(i, min(i + size, len(text))) for i in range(0, len(text), size)]


def by_dicts(text: str, size: int = 20, offsets: bool = True, shift: int = 0):
    out = []
    for i in range(0, len(text), size):
        chunk = {"text": text[i : i + size], "metadata": {"n": i // size}}
        if offsets:
            chunk["start"], chunk["end"] = i + shift, i + shift + len(chunk["text"])
        out.append(chunk)
    return out


class Chunk:
    def __init__(self, text, start_index):
        self.text, self.start_index = text, start_index
        self._private = object()


def by_objects(text: str, size: int = 20):
    return (Chunk(text[i : i + size], i) for i in range(0, len(text), size))  # a generator


@pytest.mark.parametrize("function", [by_strings, by_pairs, by_dicts, by_objects])
def test_every_shape_places_every_chunk_exactly(function):
    entry = FunctionEntry(function)
    native, layout = chunk_layout(entry, Document(TEXT), {"size": 15}, RunContext())
    assert json.loads(json.dumps(native)) == native  # JSON data
    spans = list(layout.spans)
    assert len(spans) == -(-len(TEXT) // 15)
    for i, span in enumerate(spans):
        assert (span.start, span.end, span.located) == (
            i * 15,
            min(i * 15 + 15, len(TEXT)),
            "exact",
        )
        assert span.text == TEXT[span.start : span.end]
    assert not [w for w in layout.warnings if w.kind in ("missing", "bad-offsets", "text-lost")]


def test_run_returns_what_the_function_returns_as_json():
    assert FunctionEntry(by_strings).run(Document(TEXT), {"size": 30}, RunContext()) == by_strings(
        TEXT, 30
    )
    pairs = FunctionEntry(by_pairs).run(Document(TEXT), {}, RunContext())
    assert pairs == [list(p) for p in by_pairs(TEXT)]
    objects = FunctionEntry(by_objects).run(Document(TEXT), {}, RunContext())
    assert objects[0] == {"text": TEXT[:20], "start_index": 0}  # public fields only
    assert FunctionEntry(by_dicts).spans(
        Document(TEXT), FunctionEntry(by_dicts).run(Document(TEXT), {}, RunContext()), {}
    )[1].metadata == {"n": 1}


def test_wrong_offsets_are_searched_for_and_warned():
    entry = FunctionEntry(by_dicts)
    layout = layout_of(entry, options={"shift": 3})
    spans = list(layout.spans)
    assert [(s.start, s.end, s.located) for s in spans] == [
        (i, min(i + 20, len(TEXT)), "exact") for i in range(0, len(TEXT), 20)
    ]
    bad = [w for w in layout.warnings if w.kind == "bad-offsets"]
    assert len(bad) == len(spans)
    assert "says it starts at 3, its text is at 0" in bad[0].message
    # text without offsets: located as the ports' chunks are, no offsets warned
    layout = layout_of(entry, options={"offsets": False})
    assert all(s.located == "exact" for s in layout.spans)
    assert not [w for w in layout.warnings if w.kind == "bad-offsets"]


def test_rewritten_and_made_up_chunks_are_normalized_and_missing():
    def rewrites(text):
        return ["#   Title", "not in the text at all", (5, 2), "Second part, here."]

    spans = list(layout_of(FunctionEntry(rewrites)).spans)
    assert [s.located for s in spans] == ["normalized", "missing", "missing", "exact"]
    assert spans[3].start == TEXT.index("Second part")


def test_numpy_offsets_and_prints_to_stderr(capsys):
    import numpy as np

    def noisy(text):
        print("debugging")
        return np.array([[0, 7], [9, 20]])

    entry = FunctionEntry(noisy)
    native = entry.run(Document(TEXT), {}, RunContext())
    assert native == [[0, 7], [9, 20]]
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == "debugging\n"
    assert [s.text for s in layout_of(entry).spans] == ["# Title", TEXT[9:20]]


def test_a_result_that_is_no_list_of_chunks_is_one_clear_error():
    def one_string(text):
        return text

    def numbers(text):
        return [1, 2, 3]

    with pytest.raises(ChunkerError, match="returned str; a chunker returns a list"):
        FunctionEntry(one_string).run(Document(TEXT), {}, RunContext())
    with pytest.raises(ChunkerError, match="a chunk is int"):
        layout_of(FunctionEntry(numbers))


# ----- loading by id ---------------------------------------------------------------------

MINE = '''\
"""A user's chunkers."""
import json


def paragraphs(text: str, max_chars: int = 200) -> list[str]:
    """Paragraphs, cut at max_chars."""
    out = []
    for part in text.split("\\n\\n"):
        while part:
            out.append(part[:max_chars])
            part = part[max_chars:]
    return out


def fails(text, depth: int = 1):
    values = json.loads("{}")
    return values["missing"]


def forever(text):
    while True:
        pass


def _helper(text):
    return []
'''


@pytest.fixture
def mine(tmp_path):
    path = tmp_path / "mine.py"
    path.write_text(MINE, encoding="utf-8")
    return path


def test_function_ids():
    assert is_function_id("path/to/mine.py:split")
    assert is_function_id("C:\\work\\mine.py:split")
    assert is_function_id("package.module:split")
    assert is_function_id("module:Class.split")
    assert not is_function_id("agentos.SemanticChunker")
    assert not is_function_id("mine.py:")
    assert not is_function_id(":split")


def test_the_registry_resolves_a_file_id(mine):
    entry = registry.get(f"{mine}:paragraphs")
    assert entry.id == f"{mine}:paragraphs" and entry.library == "mine.py"
    assert entry.summary == "Paragraphs, cut at max_chars."
    assert registry.get(f"{mine}:paragraphs") is entry  # read once while unchanged
    assert entry.run(Document(TEXT), {"max_chars": 10}, RunContext())[0] == "# Title"
    assert "runpy.run_path" in entry.code({"max_chars": 10})
    with pytest.raises(KeyError, match="has no 'nope'; it has: fails, forever, paragraphs"):
        registry.get(f"{mine}:nope")
    with pytest.raises(KeyError, match="no such file"):
        registry.get(f"{mine.parent}/absent.py:paragraphs")


def test_a_changed_file_is_read_again(mine):
    entry_id = f"{mine}:paragraphs"
    before = registry.revision(entry_id)
    assert registry.get(entry_id).run(Document("a\n\nb"), {}, RunContext()) == ["a", "b"]
    mine.write_text(MINE.replace("out.append(part[:max_chars])", "out.append(part.upper())"))
    os.utime(mine, ns=(1, 2))  # a new time, whatever the clock's grain
    assert registry.revision(entry_id) != before
    assert registry.get(entry_id).run(Document("a\n\nb"), {}, RunContext()) == ["A", "B"]


def test_load_file_gives_the_public_chunkers(mine, tmp_path):
    entries = load_file(str(mine))
    assert [e.title for e in entries] == ["paragraphs", "fails", "forever"]
    assert entries[0] is registry.get(f"{mine}:paragraphs")
    marked = tmp_path / "marked.py"
    marked.write_text(
        "from chunkview.core.plugins import chunker\n\n"
        "def helper(text):\n    return [text]\n\n"
        "@chunker(max='size')\ndef cut(text, size: int = 5):\n    return [text[:size]]\n"
    )
    assert [e.title for e in load_file(str(marked))] == ["cut"]


def test_a_file_that_does_not_load_says_where(tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("def f(text):\n    return [text\n")
    with pytest.raises(EntryLoadError) as caught:
        registry.get(f"{bad}:f")
    assert caught.value.name == "SyntaxError" and "bad.py, line 2" in caught.value.message
    raising = tmp_path / "raising.py"
    raising.write_text("x = 1\nraise RuntimeError('at import')\n")
    with pytest.raises(EntryLoadError, match=r"at import \(.*raising.py, line 2, in <module>\)"):
        registry.get(f"{raising}:f")


def test_a_module_id_and_the_working_folder(tmp_path, monkeypatch):
    package = tmp_path / "userpkg"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "cutting.py").write_text("def halves(text, n: int = 2):\n    return [text]\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    entry = registry.get("userpkg.cutting:halves")
    assert entry.run(Document("abc"), {}, RunContext()) == ["abc"]
    assert (
        entry.code({"n": 3}) == "from userpkg.cutting import halves\n\nchunks = halves(text, n=3)\n"
    )
    with pytest.raises(KeyError, match="no module named 'nowhere'"):
        registry.get("nowhere.at_all:f")


def test_an_exception_names_the_users_file_and_line(mine):
    entry = registry.get(f"{mine}:fails")
    with pytest.raises(ChunkerError) as caught:
        entry.run(Document(TEXT), {}, RunContext())
    error = caught.value
    assert error.name == "KeyError"
    assert error.message.endswith("mine.py, line 17, in fails)")
    assert "'missing'" in error.message
    assert error.traceback.startswith("Traceback") and "line 17, in fails" in error.traceback
    assert "chunkview/core/plugins" not in error.traceback  # chunkview's frames left out


def test_entry_points_register_chunkers(tmp_path, monkeypatch):
    site = tmp_path / "site"
    (site / "their_chunkers").mkdir(parents=True)
    (site / "their_chunkers" / "__init__.py").write_text(
        "def lines(text, keep_ends: bool = False):\n"
        "    '''One chunk per line.'''\n"
        "    return text.splitlines(keep_ends)\n"
        "def words(text):\n    return text.split()\n"
        "def chars(text):\n    return list(text)\n"
        "BOTH = [words, chars]\n"
    )
    info = site / "their_chunkers-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: their-chunkers\nVersion: 1.0\n")
    (info / "entry_points.txt").write_text(
        "[chunkview.chunkers]\ntheirs.lines = their_chunkers:lines\n"
        "theirs = their_chunkers:BOTH\nbroken = their_chunkers:absent\n"
    )
    monkeypatch.syspath_prepend(str(site))
    from chunkview.core.plugins import load

    monkeypatch.setattr(registry, "_entries", {})
    monkeypatch.setattr(load, "entry_point_problems", {})
    ids = [e.id for e in registry.entries()]
    assert {"theirs.lines", "theirs.words", "theirs.chars"} <= set(ids)
    assert ids.index("theirs.lines") > ids.index("langchain.RecursiveCharacterTextSplitter")
    entry = registry.get("theirs.lines")
    assert entry.library == "their-chunkers" and entry.summary == "One chunk per line."
    assert entry.run(Document("a\nb"), {}, RunContext()) == ["a", "b"]
    assert "broken" in load.entry_point_problems
    with pytest.raises(KeyError, match="broken did not load"):
        registry.get("theirs.absent")


# ----- in the chunking process -------------------------------------------------------------


@pytest.fixture(scope="module")
def service():
    with ChunkService(timeout=20) as svc:
        yield svc


def test_a_users_function_runs_in_the_chunking_process(service, mine):
    request = ChunkRequest(1, f"{mine}:paragraphs", Document(TEXT), {"max_chars": 12})
    result = service.run(request)
    assert [s.text for s in result.layout.spans][:2] == ["# Title", "A first para"]
    with pytest.raises(ChunkerError) as caught:
        service.run(ChunkRequest(2, f"{mine}:fails", Document(TEXT), {}))
    assert caught.value.name == "KeyError" and "mine.py, line 17, in fails" in caught.value.message
    assert "line 17, in fails" in caught.value.traceback  # kept across the pipe


def test_a_saved_file_runs_its_new_code_in_the_process(service, mine):
    entry_id = f"{mine}:paragraphs"
    first = service.run(ChunkRequest(1, entry_id, Document("a\n\nb"), {}))
    assert [s.text for s in first.layout.spans] == ["a", "b"]
    mine.write_text(MINE.replace("    return out\n", "    return [o.upper() for o in out]\n", 1))
    os.utime(mine, ns=(5, 6))
    again = service.run(ChunkRequest(2, entry_id, Document("a\n\nb"), {}))
    assert [s.text for s in again.layout.spans] == ["A", "B"]
    assert [s.located for s in again.layout.spans] == ["missing", "missing"]


def test_a_hanging_function_is_stopped_by_the_watchdog(service, mine):
    service.timeout = 1
    try:
        with pytest.raises(Stopped, match="did not finish within the 1 s budget"):
            service.run(ChunkRequest(1, f"{mine}:forever", Document(TEXT), {}))
    finally:
        service.timeout = 20
    result = service.run(ChunkRequest(2, f"{mine}:paragraphs", Document(TEXT), {}))
    assert len(result.layout.spans) == 4  # a new process, and it works


# ----- the command line --------------------------------------------------------------------


def cli(*args, cwd=None):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "chunkview", *args],
        capture_output=True, text=True, timeout=120, cwd=cwd, env=env,
    )  # fmt: skip


def test_cli_run_and_spans_take_a_file_function(mine):
    doc = CORPUS / "redis-readme.md"
    text = doc.read_text(encoding="utf-8")
    run = cli(
        "run", "mine.py:paragraphs", str(doc), "--options", '{"max_chars": 450}', cwd=mine.parent
    )
    assert run.returncode == 0, run.stderr
    namespace: dict = {}
    exec(MINE, namespace)
    assert json.loads(run.stdout) == namespace["paragraphs"](text, max_chars=450)
    spans = cli(
        "spans", "mine.py:paragraphs", str(doc), "--options", '{"max_chars": 450}', cwd=mine.parent
    )
    assert spans.returncode == 0, spans.stderr
    placed = json.loads(spans.stdout)["spans"]
    assert len(placed) == len(json.loads(run.stdout))
    assert all(s["located"] == "exact" for s in placed)
    failed = cli("run", "mine.py:fails", str(doc), cwd=mine.parent)
    assert failed.returncode == 1
    assert json.loads(failed.stdout) == {
        "error": "KeyError", "message": "'missing' (mine.py, line 17, in fails)"
    }  # fmt: skip
    absent = cli("run", "mine.py:absent", str(doc), cwd=mine.parent)
    assert absent.returncode != 0 and "has no 'absent'" in absent.stdout + absent.stderr
