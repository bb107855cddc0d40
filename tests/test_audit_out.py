"""``chunkview audit --out DIR``: the records as JSON Lines blocks in a folder, the same
lines as ``--format jsonl``."""

from __future__ import annotations

import json
from pathlib import Path

from chunkview.commands import audit as audit_command
from chunkview.core.batch.audit import Summary
from chunkview.core.batch.audit_blocks import BlockWriter

CORPUS = Path(__file__).resolve().parent / "corpus"


def test_blocks_of_records_and_a_summary(tmp_path):
    writer = BlockWriter(tmp_path / "out", block=2)
    summary = Summary()
    for i in range(5):
        record = {"path": f"f{i}", "status": "ok", "chunks": 1}
        writer.record(record)
        summary.add(record)
    data = writer.summary(summary)
    parts = sorted(p.name for p in (tmp_path / "out").glob("part-*.jsonl"))
    assert parts == ["part-00000.jsonl", "part-00001.jsonl", "part-00002.jsonl"]
    assert data["blocks"] == 3 and data["summary"]["files"] == 5
    assert json.loads((tmp_path / "out" / "summary.json").read_text()) == data


def test_the_command_writes_the_same_records_as_jsonl(tmp_path, capsys):
    args = [str(CORPUS), "--entry", "mastra.chunk", "--jobs", "2"]
    assert audit_command.main([*args, "--format", "jsonl"]) == 0
    streamed = capsys.readouterr().out.splitlines()
    assert audit_command.main([*args, "--out", str(tmp_path / "out")]) == 0
    printed = json.loads(capsys.readouterr().out)
    written = (tmp_path / "out" / "part-00000.jsonl").read_text(encoding="utf-8").splitlines()

    def untimed(lines):
        records = [json.loads(line) for line in lines]
        for record in records:
            record.pop("seconds", None)
        return sorted((r for r in records if "summary" not in r), key=lambda r: r["path"])

    assert untimed(written) == untimed(streamed)
    assert printed["summary"]["files"] == len(written) == 12
    again = audit_command.main([*args, "--out", str(tmp_path / "out")])
    assert again == 2 and "already holds records" in capsys.readouterr().err
