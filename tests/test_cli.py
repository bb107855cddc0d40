import json
import subprocess
import sys
from pathlib import Path

from conftest import CORPUS


def cli(*args, stdin: str | None = None):
    return subprocess.run(
        [sys.executable, "-m", "chunkview", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_run_prints_native_json():
    result = cli(
        "run",
        "agentos.SemanticChunker",
        "-",
        "--options",
        '{"overlap": 0}',
        stdin="# Title\n\nBody.\n",
    )
    assert result.returncode == 0, result.stderr
    chunks = json.loads(result.stdout)
    assert chunks[0]["boundaryType"] == "heading"
    assert chunks[0]["text"] == "# Title\n\nBody.\n\n"


def test_spans_on_a_corpus_file():
    result = cli("spans", "agentos.SemanticChunker", str(CORPUS / "acorn-readme.md"))
    assert result.returncode == 0, result.stderr
    layout = json.loads(result.stdout)
    assert layout["document"]["kind"] == "markdown"
    assert layout["spans"] and layout["spans"][0]["start"] == 0


def test_list_names_every_param():
    result = cli("list")
    assert result.returncode == 0
    assert "agentos.SemanticChunker" in result.stdout
    listed = {entry["id"]: entry for entry in json.loads(result.stdout)}
    params = {p["name"]: p for p in listed["agentos.SemanticChunker"]["params"]}
    assert params["targetSize"]["default"] == 1000


def test_hang_is_an_error_object():
    result = cli(
        "run",
        "agentos.SemanticChunker",
        "-",
        "--options",
        '{"targetSize": 0, "maxSize": 1, "minSize": 0}',
        stdin="abc def ghi",
    )
    assert result.returncode == 1
    assert json.loads(result.stdout)["error"] == "Hang"


def test_bad_usage_is_one_line_exit_2(tmp_path: Path):
    for args in (
        ("run",),
        ("run", "no.such.entry", "-"),
        ("run", "agentos.SemanticChunker", "-", "--options", "{bad"),
    ):
        result = cli(*args, stdin="")
        assert result.returncode == 2, args
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_bad_files_are_one_line(tmp_path: Path):
    binary = tmp_path / "x.bin"
    binary.write_bytes(b"\x00\x01\x02")
    latin = tmp_path / "x.txt"
    latin.write_bytes(b"caf\xe9")
    for path in (tmp_path / "missing.txt", tmp_path, binary, latin):
        result = cli("run", "agentos.SemanticChunker", str(path))
        assert result.returncode == 1
        assert str(path) in result.stderr and "Traceback" not in result.stderr
        assert len(result.stderr.strip().splitlines()) == 1
