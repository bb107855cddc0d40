"""Ctrl-C on a command with a job running: one line, "chunkview: interrupted" (and, for
``audit``, the summary so far), exit status 130, and no process of its left running.

Each case runs the real command (tests/slow_chunking.py: a SemanticChunker run on a text
holding SLOW takes a minute more) in a session of its own, waits until the slow job has
begun, then sends SIGINT to the whole process group, as a terminal's Ctrl-C does (the
chunking processes get it too), or to the command alone, as ``kill -INT`` does.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TESTS = Path(__file__).resolve().parent
SLOW_TEXT = "# Title\n\nSome words. SLOW words.\n\n## Next\n\nMore words here.\n"
QUICK_TEXT = "# Quick\n\nA few words, chunked at once.\n"

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="reads the process table in /proc"
)


def group_members(group: int) -> dict[int, str]:
    """The processes of process group ``group`` still running (pid: state). A zombie is
    left out: it has ended, only its exit status is still held (by its parent, or by a
    container's first process that never collects it)."""
    members = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", encoding="utf-8", errors="replace") as handle:
                stat = handle.read()
        except OSError:  # it ended while we looked
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        state, pgrp = fields[0], int(fields[2])
        if pgrp == group and state != "Z":
            members[int(name)] = state
    return members


def interrupt(tmp_path: Path, args: list[str], whole_group: bool = True) -> tuple[int, str, str]:
    """Run ``chunkview ARGS`` until its slow job has begun, send it SIGINT, and return
    its exit status, stdout and stderr once it has ended and its processes with it."""
    mark = tmp_path / "slow-job-began"
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), str(TESTS)]),
        "CHUNKVIEW_TEST_SLOW_MARK": str(mark),
        "QT_QPA_PLATFORM": "offscreen",
    }
    command = subprocess.Popen(
        [sys.executable, str(TESTS / "slow_chunking.py"), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=tmp_path,
        start_new_session=True,  # its own process group, as a shell gives a command
    )
    try:
        deadline = time.monotonic() + 120
        while not mark.exists():
            if command.poll() is not None or time.monotonic() > deadline:
                out, err = command.communicate()
                pytest.fail(f"the slow job never began: {command.returncode}\n{out}\n{err}")
            time.sleep(0.05)
        assert len(group_members(command.pid)) >= 1
        if whole_group:
            os.killpg(command.pid, signal.SIGINT)
        else:
            os.kill(command.pid, signal.SIGINT)
        out, err = command.communicate(timeout=60)
    finally:
        if command.poll() is None:
            os.killpg(command.pid, signal.SIGKILL)
            command.communicate()
    # the chunking processes were killed before the command ended: what may still be
    # there a moment is a forkserver, which ends as it sees the command gone
    deadline = time.monotonic() + 10
    while group_members(command.pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert group_members(command.pid) == {}
    return command.returncode, out, err


@pytest.fixture
def slow_file(tmp_path: Path) -> Path:
    path = tmp_path / "slow.md"
    path.write_text(SLOW_TEXT, encoding="utf-8")
    return path


def _commands(slow: Path, tmp_path: Path) -> dict[str, list[str]]:
    questions = tmp_path / "questions.jsonl"
    reference = {"content": "Some words", "start_index": 9, "end_index": 19}
    questions.write_text(json.dumps({"question": "q", "references": [reference]}) + "\n")
    entry = ["--entry", "agentos.SemanticChunker"]
    return {
        "run": ["run", "agentos.SemanticChunker", str(slow)],
        "spans": ["spans", "agentos.SemanticChunker", str(slow)],
        "sweep": ["sweep", str(slow), *entry, "--param", "maxSize", "--values", "300,400"],
        "render-html": ["render", str(slow), *entry, "--out", str(tmp_path / "out.html")],
        "render-png": ["render", str(slow), *entry, "--out", str(tmp_path / "out.png")],
        "eval": ["eval", str(slow), *entry, "--questions", str(questions), "--retriever", "none"],
        "eval-sweep": [
            "eval",
            str(slow),
            *entry,
            "--questions",
            str(questions),
            "--retriever",
            "none",
            "--param",
            "maxSize",
            "--values",
            "300,400",
        ],
        "diff": ["diff", str(slow), *entry, "--options", '{"maxSize": 300}'],
    }


@pytest.mark.parametrize(
    "name", ["run", "spans", "sweep", "render-html", "render-png", "eval", "eval-sweep", "diff"]
)
def test_ctrl_c_is_one_line_and_exit_130(tmp_path: Path, slow_file: Path, name: str):
    code, out, err = interrupt(tmp_path, _commands(slow_file, tmp_path)[name])
    assert (code, out, err) == (130, "", "chunkview: interrupted\n")
    assert not (tmp_path / "out.png").exists() and not (tmp_path / "out.html").exists()


@pytest.mark.parametrize("name", ["run", "sweep"])
def test_sigint_to_the_command_alone_ends_its_chunking_processes_too(
    tmp_path: Path, slow_file: Path, name: str
):
    code, out, err = interrupt(tmp_path, _commands(slow_file, tmp_path)[name], whole_group=False)
    assert (code, out, err) == (130, "", "chunkview: interrupted\n")


@pytest.mark.parametrize("whole_group", [True, False])
def test_an_interrupted_audit_prints_the_summary_so_far(tmp_path: Path, whole_group: bool):
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "a-quick.md").write_text(QUICK_TEXT, encoding="utf-8")
    (folder / "b-slow.md").write_text(SLOW_TEXT, encoding="utf-8")
    audit = ["audit", str(folder), "--entry", "agentos.SemanticChunker", "--jobs", "1"]
    code, out, err = interrupt(tmp_path, [*audit, "--format", "jsonl"], whole_group=whole_group)
    assert (code, err) == (130, "chunkview: interrupted\n")
    first, summary = (json.loads(line) for line in out.splitlines())
    assert first["path"].endswith("a-quick.md") and first["status"] == "ok"
    assert summary["summary"]["files"] == 1  # the slow file was never finished
    assert summary["summary"]["statuses"]["ok"] == 1


def test_an_interrupted_table_audit_ends_with_its_summary_lines(tmp_path: Path):
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "a-quick.md").write_text(QUICK_TEXT, encoding="utf-8")
    (folder / "b-slow.md").write_text(SLOW_TEXT, encoding="utf-8")
    code, out, err = interrupt(
        tmp_path, ["audit", str(folder), "--entry", "agentos.SemanticChunker", "--jobs", "1"]
    )
    assert (code, err) == (130, "chunkview: interrupted\n")
    lines = out.splitlines()
    assert "a-quick.md" in lines[1] and "b-slow.md" not in out
    assert lines[-2].startswith("1 files (1 ok), ") and lines[-1].startswith("warnings: ")
