"""Bad input of every kind, for every entry: an exit code, one line, no traceback, soon.

The matrix runs ``chunkview.cli.main`` in this process (the chunker still runs in a
chunking process of its own); a few cases run the real command for the parts that need
it (stdin, devices, signals of the watchdog).
"""

import errno
import io
import json
import os
import subprocess
import sys
import time

import pytest
from conftest import CORPUS

from chunkview import cli
from chunkview.core import registry
from chunkview.core.io import read as document_module

ENTRIES = [entry.id for entry in registry.entries()]
#: generous: the watchdog's budget in the matrix is 5 s
BOUND_S = 20


def _numeric(entry_id: str) -> str | None:
    entry = registry.get(entry_id)
    return next((p.name for p in entry.params if p.kind in ("int", "float")), None)


def run_cli(capsys, monkeypatch, args, stdin: bytes = b""):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    began = time.monotonic()
    code = cli.main(list(args))
    seconds = time.monotonic() - began
    out, err = capsys.readouterr()
    return code, out, err, seconds


def assert_clean(code, out, err, seconds, allowed=(0, 1)):
    assert code in allowed, (code, out[:300], err[:300])
    assert "Traceback" not in out + err
    assert seconds < BOUND_S
    if code == 0:
        json.loads(out)
    elif code == 1 and out.strip():  # the library's (or the watchdog's) error as JSON
        assert len(out.strip().splitlines()) == 1, out
        error = json.loads(out)
        assert set(error) == {"error", "message"} and error["message"]
    else:  # a usage or input problem: one line on stderr
        assert len(err.strip().splitlines()) == 1, err


TEXT = (CORPUS / "smartchunk-readme.txt").read_bytes()[:4000]


def _input_for(entry_id: str) -> bytes:
    if entry_id == "agentos.chunkTurns":
        return b'[{"id": "a", "role": "user", "text": "hello there. How are you?"}]'
    return TEXT


@pytest.mark.parametrize("entry_id", ENTRIES)
def test_bad_input_matrix(capsys, monkeypatch, entry_id):
    base = ["run", entry_id, "-", "--timeout", "5"]
    numeric = _numeric(entry_id)

    # empty input: the library's answer for "" (a result or its error)
    assert_clean(*run_cli(capsys, monkeypatch, base, b""))

    # binary input: refused before anything runs
    code, out, err, seconds = run_cli(capsys, monkeypatch, base, b"\x89PNG\x00\x00\x01\x02")
    assert code == 1 and "binary" in err
    assert_clean(code, out, err, seconds)

    # huge input: past the cap, refused with the cap named
    monkeypatch.setattr(document_module, "MAX_FILE_BYTES", 1000)
    code, out, err, seconds = run_cli(capsys, monkeypatch, base, b"word " * 1000)
    monkeypatch.undo()
    assert code == 1 and "more than the" in err
    assert_clean(code, out, err, seconds)

    # malformed JSON: a usage error
    code, out, err, seconds = run_cli(capsys, monkeypatch, [*base, "--options", "{bad"])
    assert code == 2 and "not valid JSON" in err
    assert_clean(code, out, err, seconds, allowed=(2,))

    # unknown option names: passed on (ignored as the library ignores them) with a hint
    code, out, err, seconds = run_cli(
        capsys, monkeypatch, [*base, "--options", '{"noSuchOptionAtAll": 3}'], _input_for(entry_id)
    )
    assert "has no option 'noSuchOptionAtAll'" in err
    assert code in (0, 1) and "Traceback" not in out + err

    if numeric is None:
        return
    # wrong types: one line naming the option (or the library's own error for it)
    for wrong in ('"abc"', "[1, 2]", '{"a": 1}'):
        options = f'{{"{numeric}": {wrong}}}'
        code, out, err, seconds = run_cli(
            capsys, monkeypatch, [*base, "--options", options], _input_for(entry_id)
        )
        assert code == 1, (options, out, err)
        assert_clean(code, out, err, seconds)
        assert numeric in json.loads(out)["message"]

    # any number goes to the port, which answers as the original does, in bounded time
    for value in ("NaN", "Infinity", "-Infinity", "-5", "0", "0.5", "1e9", "true"):
        options = f'{{"{numeric}": {value}}}'
        result = run_cli(capsys, monkeypatch, [*base, "--options", options], _input_for(entry_id))
        assert_clean(*result)
        if result[0] == 1:
            assert json.loads(result[1])["error"] != "OptionError", (options, result[1])


def test_unknown_name_suggests_the_closest(capsys, monkeypatch):
    code, out, err, _ = run_cli(
        capsys,
        monkeypatch,
        ["run", "agentos.SemanticChunker", "-", "--options", '{"targetsize": 300}'],
        b"Some text. More text.",
    )
    assert code == 0
    assert err.strip() == (
        "chunkview: warning: agentos.SemanticChunker has no option 'targetsize' "
        "(the library ignores it); did you mean 'targetSize'?"
    )
    assert json.loads(out)


def test_wrong_type_message_names_option_takes_and_got(capsys, monkeypatch):
    code, out, err, _ = run_cli(
        capsys,
        monkeypatch,
        ["run", "agentos.SemanticChunker", "-", "--options", '{"targetSize": "abc"}'],
        b"Some text.",
    )
    assert code == 1 and err == ""
    assert json.loads(out) == {
        "error": "OptionError",
        "message": 'targetSize: takes a number, got a string "abc"',
    }


def test_spans_takes_the_same_protection(capsys, monkeypatch):
    code, out, _err, _ = run_cli(
        capsys,
        monkeypatch,
        ["spans", "agentos.SemanticChunker", "-", "--options", '{"maxSize": [1]}'],
        b"Some text.",
    )
    assert code == 1 and json.loads(out)["error"] == "OptionError"
    code, out, _err, _ = run_cli(
        capsys, monkeypatch, ["spans", "agentos.SemanticChunker", "-"], b"Some text."
    )
    assert code == 0 and json.loads(out)["spans"]


@pytest.mark.parametrize(
    "flag, value, words",
    [("--timeout", "-1", "a time budget"), ("--max-memory", "lots", "a memory budget")],
)
def test_bad_budgets_are_usage_errors(capsys, monkeypatch, flag, value, words):
    code, _out, err, _ = run_cli(
        capsys, monkeypatch, ["run", "smartchunk", "-", flag, value], b"text"
    )
    assert code == 2 and words in err and len(err.strip().splitlines()) == 1


# ----- the real command -------------------------------------------------------------------


def command(*args, stdin=None, timeout=60):
    return subprocess.run(
        [sys.executable, "-m", "chunkview", *args],
        input=stdin,
        capture_output=True,
        timeout=timeout,
    )


def test_dev_zero_ends_quickly_with_a_message():
    began = time.monotonic()
    done = command("run", "smartchunk", "/dev/zero")
    assert time.monotonic() - began < 15
    assert done.returncode == 1
    assert done.stderr.decode().strip() == (
        "chunkview: /dev/zero: this looks like a binary file (a NUL byte at offset 0)"
    )


def test_the_time_budget_stops_a_long_run():
    big = (CORPUS / "redis-readme.md").read_bytes() * 1200  # 21 MB: about a second of work
    # 0.1 s: the shortest budget there is (core/runtime/limits.py)
    done = command("run", "agentos.SemanticChunker", "-", "--timeout", "0.1", stdin=big)
    assert done.returncode == 1, done.stderr
    error = json.loads(done.stdout)
    assert error["error"] == "Stopped"
    assert error["message"].startswith("stopped after ")
    assert "within the 0.1 s budget" in error["message"]
    assert "agentos.SemanticChunker with targetSize 1000" in error["message"]


def test_the_memory_budget_stops_a_run():
    big = (CORPUS / "redis-readme.md").read_bytes() * 400  # 7 MB: a few tenths of a second of work
    # 64 MB: the smallest budget there is (core/runtime/limits.py)
    done = command("run", "agentos.SemanticChunker", "-", "--max-memory", "64M", stdin=big)
    assert done.returncode == 1, done.stderr
    error = json.loads(done.stdout)
    assert error["error"] == "Stopped" and error["message"].startswith("stopped at ")
    assert "64.0 MB memory budget" in error["message"]


def test_encoding_flag_and_the_hint(tmp_path):
    path = tmp_path / "old.txt"
    path.write_bytes("Ceci est un texte français, écrit à la main.".encode("cp1252"))
    done = command("run", "smartchunk", str(path))
    message = done.stderr.decode().strip()
    assert done.returncode == 1 and "not UTF-8 text" in message and "--encoding" in message
    assert len(message.splitlines()) == 1
    done = command("run", "smartchunk", str(path), "--encoding", "cp1252")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)


def test_utf16_stdin_is_text():
    data = "\ufeffHello. World.".encode("utf-16-le")
    done = command("run", "smartchunk", "-", stdin=data)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="FIFOs")
def test_a_fifo_input(tmp_path):
    fifo = tmp_path / "in"
    os.mkfifo(fifo)
    reader = subprocess.Popen(
        [sys.executable, "-m", "chunkview", "run", "smartchunk", str(fifo)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    # write once the command has the FIFO open (a loaded machine starts it late); if it
    # ends without opening it, say why instead of waiting for a reader forever
    deadline = time.monotonic() + 300
    while True:
        try:
            out = os.open(fifo, os.O_WRONLY | os.O_NONBLOCK)
            break
        except OSError as error:
            if error.errno != errno.ENXIO:  # ENXIO: no reader yet
                raise
        assert reader.poll() is None, reader.communicate()[1]
        assert time.monotonic() < deadline, "the command never opened the FIFO"
        time.sleep(0.01)
    os.set_blocking(out, True)
    os.write(out, b"Text from a pipe.")
    os.close(out)
    stdout, stderr = reader.communicate(timeout=300)
    assert reader.returncode == 0, stderr
    assert json.loads(stdout)
