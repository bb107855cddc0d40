"""`chunkview diff` and `chunkview sweep` against plain `chunkview spans` runs."""

import json
import subprocess
import sys

from conftest import CORPUS

from chunkview.core.compare import compare_boundaries

FILE = str(CORPUS / "acorn-readme.md")


def cli(*args):
    result = subprocess.run(
        [sys.executable, "-m", "chunkview", *args], capture_output=True, text=True, timeout=300
    )
    return result


def spans(entry, options):
    result = cli("spans", entry, FILE, "--options", json.dumps(options))
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def own_starts(layout):
    return sorted({s["own_start"] for s in layout["spans"] if s["located"] != "missing"})


def test_diff_classifies_the_boundaries_that_spans_gives():
    a_options = {"targetSize": 400, "overlap": 0}
    b_options = {"strategy": "recursive", "maxSize": 300, "overlap": 0}
    result = cli(
        "diff",
        FILE,
        "--entry",
        "agentos.SemanticChunker",
        "--options",
        json.dumps(a_options),
        "--entry-b",
        "mastra.chunk",
        "--options-b",
        json.dumps(b_options),
        "--json",
    )
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    a_layout = spans("agentos.SemanticChunker", a_options)
    b_layout = spans("mastra.chunk", b_options)
    assert data["a"]["boundaries"] == own_starts(a_layout)
    assert data["b"]["boundaries"] == own_starts(b_layout)
    assert data["a"]["entry"] == "agentos.SemanticChunker" and data["b"]["options"] == b_options
    length = a_layout["document"]["chars"]
    expected = compare_boundaries(own_starts(a_layout), own_starts(b_layout), length)
    assert data["changes"] == [c.to_json() for c in expected.changes]
    counts = data["counts"]
    assert counts["kept"] + counts["moved"] + counts["removed"] == len(data["a"]["boundaries"])
    assert counts["kept"] + counts["moved"] + counts["added"] == len(data["b"]["boundaries"])
    assert counts["moved"] and counts["added"] and counts["removed"]
    assert data["summary"].startswith(f"{counts['kept']} kept, {counts['moved']} moved by ")


def test_diff_prints_a_summary_and_one_line_errors():
    result = cli("diff", FILE, "--entry", "agentos.SemanticChunker", "--options-b", '{"x": ')
    assert result.returncode == 2 and "--options-b is not valid JSON" in result.stderr
    same = cli("diff", FILE, "--entry", "agentos.SemanticChunker")
    assert same.returncode == 0, same.stderr
    assert same.stdout.split(",")[1:] == [" 0 moved", " 0 added", " 0 removed\n"]
