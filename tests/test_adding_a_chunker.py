"""docs/adding-a-chunker.md stays true: its example module works as an entry."""

import re
import types
from pathlib import Path

import pytest

from chunkview import api
from chunkview.core import registry
from chunkview.core.model.document import Document
from chunkview.core.session import InspectorModel

DOC = Path(__file__).resolve().parent.parent / "docs" / "adding-a-chunker.md"


def example(containing: str) -> str:
    """The page's Python example holding ``containing``."""
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    return next(block for block in blocks if containing in block)


@pytest.fixture
def example_entry():
    source = example("class RecursiveCharacterTextSplitterEntry")
    module = types.ModuleType("langchain_example")
    exec(compile(source, str(DOC), "exec"), module.__dict__)
    entry = module.RecursiveCharacterTextSplitterEntry()
    registry.entries()  # the built-ins first
    replaced = registry._entries.get(entry.id)  # the library entry of the same name
    registry.register(entry)
    yield entry
    registry._entries.pop(entry.id)
    if replaced is not None:
        registry.register(replaced)


def test_the_function_of_ones_own_runs_and_is_placed(tmp_path):
    mine = tmp_path / "mine.py"
    mine.write_text(example("def sentences("), encoding="utf-8")
    text = "One sentence here. Another one follows it. And a third, longer sentence ends."
    chunks = api.run(f"{mine}:sentences", text, {"max_chars": 30})
    assert "".join(c["text"] for c in chunks) == text
    layout = api.spans(f"{mine}:sentences", text, {"max_chars": 30})
    assert [s.text for s in layout.spans] == [c["text"] for c in chunks]
    assert all(s.located == "exact" for s in layout.spans)
    assert registry.get(f"{mine}:sentences").param("max_chars").role == "max"


def test_the_example_entry_runs_lays_out_and_writes_code(example_entry):
    text = "Alpha beta gamma.\n\nDelta epsilon zeta eta theta.\n\nIota kappa lambda mu.\n" * 5
    chunks = api.run(example_entry.id, text, {"chunkSize": 60, "chunkOverlap": 10})
    assert all(isinstance(c, str) and 0 < len(c) <= 60 for c in chunks)
    layout = api.spans(example_entry.id, text, {"chunkSize": 60, "chunkOverlap": 10})
    assert [s.text for s in layout.spans] == chunks
    assert all(s.located == "exact" for s in layout.spans)
    assert not [w for w in layout.warnings if w.kind in ("text-lost", "over-max")]
    assert "RecursiveCharacterTextSplitter({" in example_entry.code({"chunkSize": 60})

    model = InspectorModel()
    model.set_document(Document(text))
    model.select_entry(example_entry.id, {"chunkSize": 60, "chunkOverlap": 10})
    request = model.request()
    assert request.entry_id == example_entry.id and request.embedder is None
    assert model.entry.limits({"chunkSize": 60}) == {"max": 60, "overlap": 200}
