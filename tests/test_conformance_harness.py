"""The conformance harness's own parts that need no node: cases, comparison, shrinking,
golden writing."""

import json

from conformance import golden
from conformance.cases import Generator, documents
from conformance.compare import equal, expected_of, signature
from conformance.shrink import shrink

ENTRIES = ["mastra.chunk", "agentos.ChunkingEngine", "semantic-chunking.chunkit"]


def test_the_same_seed_gives_the_same_cases():
    docs = documents(None)
    first = [Generator(7, docs, ENTRIES).case(n) for n in range(40)]
    again = [Generator(7, docs, ENTRIES).case(n) for n in range(40)]
    other = [Generator(8, docs, ENTRIES).case(n) for n in range(40)]
    assert json.dumps(first) == json.dumps(again)
    assert json.dumps(first) != json.dumps(other)
    assert {c["entry"] for c in first} == set(ENTRIES)


def test_options_cover_edge_values():
    docs = documents(None)
    generator = Generator(3, docs, ["mastra.chunk"])
    sizes = [generator.case(n)["options"].get("maxSize") for n in range(400)]
    numbers = [s for s in sizes if s is not None]
    assert any(s == 0 for s in numbers) and any(s < 0 for s in numbers)
    assert any(isinstance(s, float) and s != int(s) for s in numbers)


def test_comparison_follows_the_golden_tests():
    error = {"error": "SyntaxError", "message": "Invalid regular expression: /(/: x"}
    assert equal("mastra.chunk", error, {"error": "SyntaxError", "message": "other"})
    assert not equal(
        "mastra.chunk", {"error": "Error", "message": "a"}, {"error": "Error", "message": "b"}
    )
    hang = expected_of("agentos.ChunkingEngine", {"hang": True})
    assert equal("agentos.ChunkingEngine", hang, {"error": "Hang", "message": "why"})
    assert not equal("agentos.ChunkingEngine", hang, [])
    js = {"output": [{"document_id": 1700000000000, "text": "a"}], "error": None}
    port = {"output": [{"document_id": 123, "text": "a"}], "error": None}
    assert equal("semantic-chunking.chunkit", js, port)
    assert not equal(
        "semantic-chunking.chunkit",
        js,
        {"output": [{"document_id": 1, "text": "b"}], "error": None},
    )
    assert signature("mastra.chunk", hang, []) == ("error:Hang", "chunks")


def test_shrink_keeps_the_failure_and_cuts_the_rest():
    case = {
        "entry": "mastra.chunk",
        "input": "lorem ipsum " * 20 + "BUG" + " dolor" * 30,
        "options": {"strategy": "recursive", "maxSize": 77, "overlap": 5},
        "metadata": {"a": 1},
    }

    def still(candidate):
        return "BUG" in candidate["input"] and candidate["options"].get("maxSize", 0) > 10

    small = shrink(case, still, budget_s=30)
    assert small["input"] == "BUG"
    assert "overlap" not in small["options"] and "metadata" not in small
    assert 10 < small["options"]["maxSize"] <= 77


def test_golden_add_skips_cases_already_there(tmp_path):
    path = tmp_path / "g.jsonl.gz"
    case = {"entry": "mastra.chunk", "doc": "text", "input": "a", "options": {}, "source": "t"}
    line = golden.record(case, [{"text": "a", "metadata": {}}], "conformance:t")
    assert golden.add([line], path) == 1
    assert golden.add([line], path) == 0
    assert golden.load(path) == [line]


def test_every_entry_makes_its_cases_without_failing():
    docs = documents(None)
    entries = [
        "agentos.SemanticChunker",
        "agentos.ChunkingEngine",
        "semantic-chunking.chunkit",
        "semantic-chunking.cramit",
        "semantic-chunking.sentenceit",
    ]
    for entry in entries:
        cases = [Generator(11, docs, [entry]).case(n) for n in range(400)]
        assert all(c["entry"] == entry and "options" in c for c in cases)
