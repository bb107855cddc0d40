"""core.export: the chunks as JSON, JSON Lines and CSV, read back equal (no Qt)."""

import csv
import io
import json

import pytest

from chunkview import spans
from chunkview.core.views.export import FORMATS, export_chunks

TEXT = 'Line one, with "quotes" and commas.\n\nSecond paragraph\nover two lines. Ünïcödé 😀.\n'


@pytest.fixture(scope="module")
def layout():
    return spans("agentos.SemanticChunker", TEXT, {"targetSize": 20, "minSize": 0, "overlap": 5})


def test_json_holds_the_call_and_every_chunk(layout):
    data = json.loads(export_chunks(layout, "json", "agentos.SemanticChunker", {"targetSize": 20}))
    assert data["entry"] == "agentos.SemanticChunker"
    assert data["options"] == {"targetSize": 20}
    assert [c["text"] for c in data["chunks"]] == [s.text for s in layout.spans]
    assert [(c["start"], c["end"]) for c in data["chunks"]] == [
        (s.start, s.end) for s in layout.spans
    ]
    assert len(layout.spans) >= 2


def test_jsonl_is_one_chunk_per_line(layout):
    lines = export_chunks(layout, "jsonl").splitlines()
    records = [json.loads(line) for line in lines]
    assert [r["index"] for r in records] == list(range(len(layout.spans)))
    emoji = next(r for r in records if "😀" in r["text"])
    assert emoji["utf8_bytes"] == len(emoji["text"].encode()) > emoji["chars"]


def test_csv_survives_quotes_commas_and_newlines(layout):
    rows = list(csv.DictReader(io.StringIO(export_chunks(layout, "csv"), newline="")))
    assert [r["text"] for r in rows] == [s.text for s in layout.spans]
    assert all(json.loads(r["metadata"]) == s.metadata for r, s in zip(rows, layout.spans))


def test_lone_surrogates_are_escaped_and_bad_formats_refused():
    layout = spans("agentos.SemanticChunker", "a\ud800b and more text")
    for fmt in FORMATS:
        out = export_chunks(layout, fmt)
        out.encode("utf-8")  # writable as UTF-8
        assert "\\ud800" in out
    with pytest.raises(ValueError, match="unknown export format"):
        export_chunks(layout, "xml")


FORMULAS = "=SUM(A1:A9)\n\n+1 and more\n\n-2 minus\n\n@cmd here\n\nplain text\n"


def test_csv_keeps_formula_like_text_exact_unless_asked_to_neutralize_it():
    layout = spans("mastra.chunk", FORMULAS, {"strategy": "character", "maxSize": 20, "overlap": 0})
    texts = [s.text for s in layout.spans]
    assert [t[0] for t in texts] == ["=", "+", "-", "@", "p"]
    exact = list(csv.DictReader(io.StringIO(export_chunks(layout, "csv"), newline="")))
    assert [r["text"] for r in exact] == texts  # the default: the data as it is
    safe = export_chunks(layout, "csv", neutralize_formulas=True)
    rows = list(csv.DictReader(io.StringIO(safe, newline="")))
    assert [r["text"] for r in rows] == ["'" + t for t in texts[:4]] + [texts[4]]
