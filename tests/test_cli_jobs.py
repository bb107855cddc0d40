"""``--jobs`` (audit, eval) is capped at four per core, at most 256, with a note."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from chunkview.commands import common
from chunkview.commands.common import UsageError, capped_jobs, most_jobs

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("cores, most", [(1, 4), (2, 8), (63, 252), (64, 256), (512, 256)])
def test_the_cap_is_four_per_core_and_at_most_256(monkeypatch, cores, most):
    monkeypatch.setattr(common.os, "cpu_count", lambda: cores)
    assert most_jobs() == most


def test_a_huge_number_is_capped_with_one_line(monkeypatch, capsys):
    monkeypatch.setattr(common.os, "cpu_count", lambda: 2)
    assert capped_jobs("audit", 100000) == 8
    assert capsys.readouterr().err == (
        "chunkview audit: note: --jobs 100000 capped at 8 (4 per core, at most 256)\n"
    )
    assert capped_jobs("audit", 8) == 8 and capped_jobs("eval", 3) == 3
    assert capped_jobs("audit", None) == 2  # one per core when not given
    assert capsys.readouterr().err == ""
    with pytest.raises(UsageError, match="--jobs must be 1 or more"):
        capped_jobs("eval", 0)


def _chunkview(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "chunkview", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


def test_audit_with_100000_jobs_runs_on_the_cap(tmp_path: Path):
    (tmp_path / "a.md").write_text("# A\n\nSome words.\n", encoding="utf-8")
    done = _chunkview(
        "audit", str(tmp_path), "--entry", "mastra.chunk", "--jobs", "100000", "--format", "jsonl"
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == (
        f"chunkview audit: note: --jobs 100000 capped at {most_jobs()} (4 per core, at most 256)\n"
    )
    records = [json.loads(line) for line in done.stdout.splitlines()]
    assert records[0]["status"] == "ok" and records[-1]["summary"]["files"] == 1


def test_eval_with_100000_jobs_runs_on_the_cap(tmp_path: Path):
    (tmp_path / "a.md").write_text("hello there, some words.\n", encoding="utf-8")
    questions = tmp_path / "q.jsonl"
    reference = {"content": "hello", "start_index": 0, "end_index": 5}
    questions.write_text(json.dumps({"question": "q", "references": [reference]}) + "\n")
    done = _chunkview(
        "eval",
        str(tmp_path / "a.md"),
        "--entry",
        "mastra.chunk",
        "--questions",
        str(questions),
        "--retriever",
        "none",
        "--param",
        "maxSize",
        "--values",
        "300,400",
        "--jobs",
        "100000",
        "--json",
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.strip().splitlines() == [
        f"chunkview eval: note: --jobs 100000 capped at {most_jobs()} (4 per core, at most 256)"
    ]
    assert [row["value"] for row in json.loads(done.stdout)["rows"]] == [300, 400]
