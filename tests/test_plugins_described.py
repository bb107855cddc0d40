"""A chunker file's top-level code runs in the chunking process only: the app asks the
process to load the file and gets its entries' schemas back as data
(``ChunkService.describe_file``); a file that raises, hangs or exits at its top level is
one message naming its file and line, within the watchdog's budget."""

import os
import sys
import time

import pytest

from chunkview.core import registry
from chunkview.core.errors import ChunkerError
from chunkview.core.model.document import Document
from chunkview.core.plugins.described import DescribedEntry, EntrySchema, FileChunkers
from chunkview.core.runtime import ChunkService
from chunkview.core.runtime.pipeline import ChunkRequest

TOP_LEVEL = """\
import os
from typing import Literal

with open({marker!r}, "a") as handle:
    handle.write(f"{{os.getpid()}}\\n")
os.environ["CHUNKVIEW_TEST_TOP_LEVEL"] = "set"


class Unit:
    pass


def paragraphs(text, max_chars: int = 200, mode: Literal["a", "b"] = "a", unit=Unit()):
    \"\"\"Blank-line paragraphs, cut at max_chars.\"\"\"
    return [p[:max_chars] for p in text.split("\\n\\n")]


def _hidden(text):
    return [text]
"""


@pytest.fixture
def service():
    with ChunkService(timeout=2.0) as chunking:
        yield chunking


def _file(tmp_path, name, source):
    path = tmp_path / name
    path.write_text(source, encoding="utf-8")
    return str(path)


def test_the_file_runs_in_the_chunking_process_and_comes_back_as_data(service, tmp_path):
    marker = tmp_path / "marker"
    path = _file(tmp_path, "mine.py", TOP_LEVEL.format(marker=str(marker)))
    described = service.describe_file(path)
    assert isinstance(described, FileChunkers) and described.path == path
    (schema,) = described.entries
    assert isinstance(schema, EntrySchema)
    assert (schema.id, schema.title, schema.library) == (
        f"{path}:paragraphs",
        "paragraphs",
        "mine.py",
    )
    assert schema.summary == "Blank-line paragraphs, cut at max_chars."
    by_name = {p.name: p for p in schema.params}
    assert by_name["max_chars"].kind == "int" and by_name["max_chars"].default == 200
    assert by_name["max_chars"].role == "max"
    assert by_name["mode"].choices == ("a", "b")
    # a default that is an object of the user's module crosses as its JSON data, never as
    # the object (unpickling it would import the file here)
    assert by_name["unit"].default == {}
    # the top-level code ran in the chunking process, not here
    pids = marker.read_text().split()
    assert pids == [str(service.pid)] and str(os.getpid()) not in pids
    assert "CHUNKVIEW_TEST_TOP_LEVEL" not in os.environ
    loaded_here = [m for m in list(sys.modules.values()) if getattr(m, "__file__", None) == path]
    assert loaded_here == []


def test_a_described_entry_lists_and_runs_in_the_chunking_process(service, tmp_path):
    marker = tmp_path / "marker"
    path = _file(tmp_path, "mine.py", TOP_LEVEL.format(marker=str(marker)))
    entry = DescribedEntry(service.describe_file(path).entries[0])
    assert entry.defaults()["max_chars"] == 200 and entry.limits({"max_chars": 50}) == {"max": 50}
    code = entry.code({"max_chars": 5})
    assert "runpy.run_path" in code and "paragraphs(text, max_chars=5)" in code
    with pytest.raises(ChunkerError, match="chunking process"):
        entry.run(Document("a"), {}, None)
    result = service.run(ChunkRequest(1, entry.id, Document("one\n\ntwo"), {"max_chars": 2}))
    assert [s.text for s in result.layout.spans] == ["on", "tw"]
    assert set(marker.read_text().split()) == {str(service.pid)}


@pytest.mark.parametrize(
    ("source", "name", "line"),
    [
        ("x = 1\n\nraise ValueError('bad top')\n", "ValueError", 3),
        ("import sys\nsys.exit(2)\n", "SystemExit", 2),
        ("import os\n\nos._exit(3)\n\ndef f(text):\n    return [text]\n", "TopLevelExit", 3),
        (
            "import time\n\nwhile True:\n    time.sleep(0.01)\n\ndef f(text):\n    return [text]\n",
            "TopLevelTimeout",
            4,
        ),
    ],
    ids=["raises", "sys.exit", "os._exit", "hangs"],
)
def test_top_level_code_that_fails_says_the_file_and_line(service, tmp_path, source, name, line):
    path = _file(tmp_path, "bad.py", source)
    asked = time.monotonic()
    with pytest.raises(ChunkerError) as caught:
        service.describe_file(path)
    assert time.monotonic() - asked < service.timeout + 1  # within the watchdog's budget
    assert caught.value.name == name
    assert f"bad.py, line {line}" in caught.value.message, caught.value.message
    # the process lives on (or was replaced) and answers the next file
    good = _file(tmp_path, "good.py", "def f(text):\n    return [text]\n")
    assert [e.title for e in service.describe_file(good).entries] == ["f"]


def test_a_file_with_no_chunker_says_so(service, tmp_path):
    path = _file(tmp_path, "empty.py", "X = 1\n")
    with pytest.raises(ChunkerError, match=r"empty\.py defines no function taking a text"):
        service.describe_file(path)


def test_the_window_process_refuses_to_load_a_function_id_itself(tmp_path, monkeypatch):
    marker = tmp_path / "marker"
    path = _file(tmp_path, "mine.py", TOP_LEVEL.format(marker=str(marker)))
    monkeypatch.setattr(registry, "_user_code_here", False)
    with pytest.raises(KeyError, match="Open Chunker"):
        registry.get(f"{path}:paragraphs")
    assert not marker.exists()
