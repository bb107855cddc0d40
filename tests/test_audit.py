"""``chunkview audit`` over folders with the files that go wrong: binary, empty, hanging."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from chunkview.core.batch.audit import (
    Summary,
    audit_file,
    iter_files,
    parse_fail_on,
    read_jsonl_summary,
    shard_of,
)
from chunkview.core.batch.audit_run import audit_records

ROOT = Path(__file__).resolve().parent.parent
ENGINE = ("agentos.ChunkingEngine", {"strategy": "fixed", "chunkSize": 200, "chunkOverlap": 20})


def audit(*args: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "chunkview", "audit", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=timeout,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    (tmp_path / "notes").mkdir()
    (tmp_path / "guide.md").write_text(
        "# Guide\n\n" + "Some words to read here. " * 40 + "\n\n## Next\n\nThe end.\n",
        encoding="utf-8",
    )
    (tmp_path / "notes" / "plain.txt").write_text("Plain words. " * 50, encoding="utf-8")
    (tmp_path / "blob.bin").write_bytes(b"\x00\x01\x02binary\x00")
    (tmp_path / "empty.txt").write_text("", encoding="utf-8")
    # a run of 300 characters without white space: the original ChunkingEngine never returns
    (tmp_path / "notes" / "longrun.txt").write_text("a\n" * 30 + "x" * 300 + " tail\n")
    return tmp_path


def test_each_bad_file_is_reported_and_none_stops_the_run(corpus: Path):
    entry, options = ENGINE
    done = audit(
        str(corpus),
        "--entry",
        entry,
        "--options",
        json.dumps(options),
        "--format",
        "jsonl",
        "--jobs",
        "2",
    )
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    records = {Path(r["path"]).name: r for r in lines if "summary" not in r}
    assert set(records) == {"guide.md", "plain.txt", "blob.bin", "empty.txt", "longrun.txt"}
    assert records["blob.bin"]["status"] == "error"
    assert "binary file" in records["blob.bin"]["message"]
    assert records["empty.txt"]["status"] == "empty" and records["empty.txt"]["chunks"] == 0
    assert records["longrun.txt"]["status"] == "hang"
    assert records["longrun.txt"]["message"].startswith("Hang: ")
    assert "the original library would never return" in records["longrun.txt"]["message"]
    guide = records["guide.md"]
    assert guide["status"] == "ok" and guide["chunks"] > 1
    assert guide["size"]["max"] <= 200 and guide["unit"] == "units"
    summary = lines[-1]["summary"]
    assert summary["files"] == 5
    assert summary["statuses"] == {"ok": 2, "empty": 1, "error": 1, "hang": 1}


def test_the_watchdog_stops_a_file_past_its_time_and_the_rest_go_on(tmp_path: Path):
    (tmp_path / "small.txt").write_text("A few words. And some more.\n", encoding="utf-8")
    # semantic-chunking embeds every distinct sentence: several seconds for this many
    sentences = (f"Sentence {i} is one more to embed here. " for i in range(200_000))
    (tmp_path / "large.txt").write_text("".join(sentences))
    done = audit(
        str(tmp_path),
        "--entry",
        "semantic-chunking.chunkit",
        "--format",
        "jsonl",
        "--timeout",
        "3",
        "--jobs",
        "1",
        "--fail-on",
        "hang",
    )
    assert done.returncode == 1, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    records = {Path(r["path"]).name: r for r in lines[:-1]}
    assert records["small.txt"]["status"] == "ok"
    assert records["large.txt"]["status"] == "hang"
    assert "within the 3 s budget" in records["large.txt"]["message"]
    assert lines[-1]["summary"]["failing"] == {"hang": 1}


def test_fail_on_a_warning_kind_sets_the_exit_status(corpus: Path):
    entry, options = ENGINE
    args = [str(corpus / "guide.md"), "--entry", entry, "--options", json.dumps(options)]
    assert audit(*args).returncode == 0
    failing = audit(*args, "--fail-on", "mid-sentence,lost-text")
    assert failing.returncode == 1
    assert "fail on mid-sentence, text-lost: mid-sentence in 1 files" in failing.stdout
    wrong = audit(*args, "--fail-on", "sideways")
    assert wrong.returncode == 2
    assert wrong.stderr.startswith("chunkview audit: --fail-on: unknown kind 'sideways'")


def test_csv_and_table_formats(corpus: Path):
    entry, options = ENGINE
    args = [str(corpus), "--entry", entry, "--options", json.dumps(options), "--jobs", "1"]
    table = audit(*args, "--format", "table", "--exclude", "longrun.txt")
    assert table.returncode == 0
    assert "binary file" in table.stdout and "5 files" not in table.stdout
    assert "4 files (2 ok, 1 empty, 1 error)" in table.stdout
    rows = audit(*args, "--format", "csv", "--include", "*.md").stdout.splitlines()
    assert rows[0].startswith("path,status,chars,chunks,unit,size_min,size_median,size_max,")
    assert len(rows) == 2 and rows[1].split(",")[1] == "ok"
    # no progress bar when stderr is not a terminal
    assert "file/s" not in audit(*args, "--format", "csv").stderr


def test_files_are_walked_in_name_order_with_globs(corpus: Path):
    everything = [Path(p).relative_to(corpus).as_posix() for p in iter_files([str(corpus)])]
    assert everything == [
        "blob.bin",
        "empty.txt",
        "guide.md",
        "notes/longrun.txt",
        "notes/plain.txt",
    ]
    only = list(iter_files([str(corpus)], include=["*.txt"], exclude=["notes/*"]))
    assert [Path(p).name for p in only] == ["empty.txt"]
    assert list(iter_files([str(corpus / "missing.md")])) == [str(corpus / "missing.md")]


def test_records_stream_while_the_paths_are_still_being_read(corpus: Path):
    """The pool reads the paths lazily: an endless supply still yields records."""
    endless = itertools.cycle([str(corpus / "guide.md")])
    entry, options = ENGINE
    first = list(itertools.islice(audit_records(endless, entry, options, jobs=2), 6))
    assert len(first) == 6 and all(r["status"] == "ok" for r in first)


def test_a_missing_file_is_an_error_record(corpus: Path):
    record = audit_file(str(corpus / "gone.md"), *ENGINE)
    assert record["status"] == "error" and "no such file" in record["message"]


def test_fail_on_names_and_aliases():
    assert parse_fail_on("lost-text, over-limit,hang") == ("text-lost", "over-limit", "hang")
    assert parse_fail_on("") == ()
    with pytest.raises(ValueError, match="unknown kind 'x'"):
        parse_fail_on("x")


def test_summaries_of_shards_add_up():
    records = [
        {
            "path": "a",
            "status": "ok",
            "chunks": 3,
            "size": {"min": 5, "max": 9},
            "warnings": {"text-lost": 2},
        },
        {"path": "b", "status": "hang", "message": "m"},
        {"path": "c", "status": "ok", "chunks": 1, "size": {"min": 2, "max": 2}, "warnings": {}},
    ]
    lines = [json.dumps(r) for r in records] + [json.dumps({"summary": {"files": 3}})]
    summary = read_jsonl_summary(lines, fail_on=("text-lost",))
    assert (summary.files, summary.chunks, summary.smallest, summary.largest) == (3, 4, 2, 9)
    assert summary.statuses["hang"] == 1 and summary.failing == {"text-lost": 1}
    assert summary.failed and not Summary().failed


def test_shards_split_the_paths_without_overlap():
    paths = [f"docs/file{i}.md" for i in range(200)]
    shards = [[p for p in paths if shard_of(p, k, 3)] for k in range(3)]
    assert sorted(itertools.chain(*shards)) == sorted(paths)
    assert all(40 < len(s) < 100 for s in shards)


def test_a_progress_bar_on_a_terminal(corpus: Path):
    """stderr on a pseudo-terminal of 100 columns: tqdm draws the bar there."""
    import fcntl
    import pty
    import struct
    import termios

    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    entry, options = ENGINE
    command = [sys.executable, "-m", "chunkview", "audit", str(corpus), "--entry", entry]
    process = subprocess.Popen(
        [*command, "--options", json.dumps(options), "--format", "jsonl"],
        stdout=subprocess.DEVNULL,
        stderr=slave,
        stdin=subprocess.DEVNULL,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    os.close(slave)
    shown = b""
    while True:
        try:
            data = os.read(master, 4096)
        except OSError:  # the other end closed
            break
        if not data:
            break
        shown += data
    os.close(master)
    assert process.wait(timeout=120) == 0
    assert "5/5 [" in shown.decode("utf-8", "replace")


def test_the_token_limit_check_does_not_change_the_chunking(corpus: Path):
    path = str(corpus / "guide.md")
    entry, options = "semantic-chunking.chunkit", {}
    plain = audit_file(path, entry, options)
    limited = audit_file(path, entry, options, token_limit=5, tokenizer="wordpunct")
    assert (limited["chunks"], limited["size"]) == (plain["chunks"], plain["size"])
    assert "over-limit" not in plain["warnings"]
    assert limited["warnings"]["over-limit"] == limited["chunks"]  # every chunk is over 5


def test_a_walk_takes_regular_files_only_and_stops_when_asked(tmp_path: Path):
    # a FIFO found in a folder would block the process reading it; a file named on the
    # command line is taken as it is (the audit reports what it is), and so is everything
    # in a folder with special_files (the command line's audit: an error record each)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    (tmp_path / "a" / "one.md").write_text("one")
    (tmp_path / "b" / "two.md").write_text("two")
    os.mkfifo(tmp_path / "a" / "pipe.md")
    assert [os.path.relpath(p, tmp_path) for p in iter_files([str(tmp_path)])] == [
        os.path.join("a", "one.md"),
        os.path.join("b", "two.md"),
    ]
    assert list(iter_files([str(tmp_path / "a" / "pipe.md")])) == [str(tmp_path / "a" / "pipe.md")]
    assert [
        os.path.relpath(p, tmp_path) for p in iter_files([str(tmp_path)], special_files=True)
    ] == [os.path.join("a", "one.md"), os.path.join("a", "pipe.md"), os.path.join("b", "two.md")]
    folders = []

    def stopped() -> bool:  # asked at every folder: stop after the first two
        folders.append(1)
        return len(folders) > 2

    assert [os.path.basename(p) for p in iter_files([str(tmp_path)], stopped=stopped)] == ["one.md"]


def _special_files(folder: Path) -> dict[str, str]:
    """A FIFO, a dangling link and a link loop in ``folder``, each with the message the
    audit gives it."""
    os.mkfifo(folder / "pipe.md")
    os.symlink(folder / "gone.md", folder / "dangling.md")
    os.symlink(folder / "loop-b.md", folder / "loop-a.md")
    os.symlink(folder / "loop-a.md", folder / "loop-b.md")
    return {
        "pipe.md": "not a regular file (a FIFO)",
        "dangling.md": f"a dangling link (to {folder / 'gone.md'}, which does not exist)",
        "loop-a.md": "a link loop",
        "loop-b.md": "a link loop",
    }


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs")
def test_a_fifo_or_a_bad_link_named_as_a_path_is_an_error_at_once(tmp_path: Path):
    messages = _special_files(tmp_path)
    named = [str(tmp_path / name) for name in messages]
    done = audit(*named, "/dev/null", "--entry", "mastra.chunk", "--format", "jsonl")
    assert done.returncode == 0, done.stderr
    *records, summary = (json.loads(line) for line in done.stdout.splitlines())
    found = {record["path"]: record for record in records}
    assert set(found) == {*named, "/dev/null"}
    for name, message in messages.items():
        record = found[str(tmp_path / name)]
        assert record["status"] == "error"  # not a hang: the FIFO was never opened
        assert record["message"] == f"{tmp_path / name}: {message}"
        assert record["seconds"] < 30  # within the default budget of 30 s a file
    assert found["/dev/null"]["message"] == "/dev/null: not a regular file (a character device)"
    assert summary["summary"]["statuses"]["error"] == 5


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs")
def test_inside_a_folder_every_entry_gets_a_record(tmp_path: Path):
    import socket

    folder = tmp_path / "f"
    folder.mkdir()
    (folder / "good.md").write_text("# Good\n\nSome words.\n", encoding="utf-8")
    messages = _special_files(folder)
    server = socket.socket(socket.AF_UNIX)
    if len(str(folder / "sock")) < 100:  # the length a socket's path may have
        server.bind(str(folder / "sock"))
        messages["sock"] = "not a regular file (a socket)"
    try:
        done = audit(str(folder), "--entry", "mastra.chunk", "--format", "jsonl")
    finally:
        server.close()
    assert done.returncode == 0, done.stderr
    *records, summary = (json.loads(line) for line in done.stdout.splitlines())
    found = {os.path.basename(record["path"]): record for record in records}
    assert sorted(found) == sorted(["good.md", *messages])
    assert found["good.md"]["status"] == "ok"
    for name, message in messages.items():
        assert (found[name]["status"], found[name]["message"]) == (
            "error",
            f"{folder / name}: {message}",
        )
    assert summary["summary"]["files"] == len(messages) + 1


def test_csv_keeps_cells_exact_unless_asked_to_neutralize_formulas(tmp_path: Path):
    """Paths and messages come from the disk: a name such as ``=1+2.md`` is a formula to
    a spreadsheet program. ``--neutralize-formulas`` writes it as text (a leading ``'``)."""
    import csv
    import io

    folder = tmp_path / "@notes"
    folder.mkdir()
    (folder / "=1+2.md").write_text("# A\n\nSome words.\n", encoding="utf-8")
    args = ["@notes", "+gone.md", "--entry", "mastra.chunk", "--format", "csv", "--jobs", "1"]

    def rows(*extra: str) -> list[list[str]]:
        done = subprocess.run(
            [sys.executable, "-m", "chunkview", "audit", *args, *extra],
            capture_output=True,
            text=True,
            cwd=tmp_path,  # relative paths: each cell starts as the name does
            timeout=300,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        assert done.returncode == 0, done.stderr
        return list(csv.reader(io.StringIO(done.stdout)))

    exact = rows()
    header = exact[0]
    path, message = header.index("path"), header.index("message")
    by_path = {row[path]: row for row in exact[1:]}
    assert set(by_path) == {"@notes/=1+2.md", "+gone.md"}
    assert by_path["+gone.md"][message] == "+gone.md: no such file"
    neutral = rows("--neutralize-formulas")
    assert neutral[0] == header
    by_path = {row[path]: row for row in neutral[1:]}
    assert set(by_path) == {"'@notes/=1+2.md", "'+gone.md"}
    assert by_path["'+gone.md"][message] == "'+gone.md: no such file"
    assert by_path["'@notes/=1+2.md"][header.index("status")] == "ok"


def test_the_output_neutralizes_only_csv_cells_that_start_like_a_formula():
    import io

    from chunkview.core.batch.audit_output import Output

    record = {"path": "-x.md", "status": "error", "message": "-x.md: no such file"}
    plain = {"path": "x.md", "status": "error", "message": "x.md: no such file"}
    out = io.StringIO()
    writer = Output("csv", out, neutralize_formulas=True)
    writer.record(record)
    writer.record(plain)
    lines = out.getvalue().splitlines()
    assert lines[1].startswith("'-x.md,error,") and lines[1].endswith(",'-x.md: no such file")
    assert lines[2].startswith("x.md,error,") and lines[2].endswith(",x.md: no such file")
    jsonl = io.StringIO()
    Output("jsonl", jsonl, neutralize_formulas=True).record(dict(record))
    assert json.loads(jsonl.getvalue())["path"] == "-x.md"  # JSON is data, kept exact
