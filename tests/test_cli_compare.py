"""`chunkview diff` and `chunkview sweep` against plain `chunkview spans` runs."""

import json
import math
import statistics
import subprocess
import sys

from conftest import CORPUS

from chunkview.core.analysis.compare import compare_boundaries

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


def test_sweep_rows_equal_spans_runs_at_each_value():
    base = {"maxSize": 900, "overlap": 0}
    result = cli(
        "sweep",
        FILE,
        "--entry",
        "agentos.SemanticChunker",
        "--options",
        json.dumps(base),
        "--param",
        "targetSize",
        "--values",
        "200:1000:400",
        "--json",
    )
    assert result.returncode == 0, result.stderr
    rows = json.loads(result.stdout)
    assert [row["value"] for row in rows] == [200, 600, 1000]
    for row in rows:
        layout = spans("agentos.SemanticChunker", {**base, "targetSize": row["value"]})
        sizes = sorted(s["chars"] for s in layout["spans"] if s["located"] != "missing")
        assert row["chunks"] == len(layout["spans"])
        assert row["median"] == statistics.median(sizes)
        assert row["p95"] == sizes[math.ceil(0.95 * len(sizes)) - 1]
        assert row["warnings"] == len(layout["warnings"])
        over = [w for w in layout["warnings"] if w["kind"] == "over-max"]
        assert row["over_max"] == len(over) / len(sizes)
        assert row["error"] is None
    assert rows[0]["chunks"] > rows[-1]["chunks"]


def test_sweep_reports_a_refused_value_in_its_row_and_bad_usage_in_one_line():
    result = cli(
        "sweep",
        FILE,
        "--entry",
        "agentos.ChunkingEngine",
        "--options",
        '{"strategy": "fixed", "chunkOverlap": 50}',
        "--param",
        "chunkSize",
        "--values",
        "0,400",
        "--json",
    )
    assert result.returncode == 0, result.stderr
    rows = json.loads(result.stdout)
    assert rows[0]["error"]["name"] == "Hang" and rows[0]["chunks"] is None
    assert rows[1]["error"] is None and rows[1]["chunks"] > 1
    bad = cli("sweep", FILE, "--entry", "agentos.SemanticChunker", "--param", "x", "--values", "1")
    assert bad.returncode == 2 and "no numeric option 'x'" in bad.stderr
    bad = cli(
        "sweep",
        FILE,
        "--entry",
        "agentos.SemanticChunker",
        "--param",
        "targetSize",
        "--values",
        "9:1:1",
    )
    assert bad.returncode == 2 and "--values" in bad.stderr and "\n" == bad.stderr[-1]
