"""Every subcommand on odd inputs: one line on stderr, an exit status, no traceback."""

import subprocess
import sys

import pytest
from conftest import ROOT


def chunkview(*args, timeout=60):
    return subprocess.run(
        [sys.executable, "-m", "chunkview", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=timeout,
    )


@pytest.mark.parametrize(
    "command",
    [
        ["diff", "--entry", "agentos.SemanticChunker", "--entry-b", "smartchunk"],
        [
            "sweep",
            "--entry",
            "agentos.SemanticChunker",
            "--param",
            "targetSize",
            "--values",
            "1:3:1",
        ],
    ],
)
def test_a_file_not_in_utf8_is_one_line_for_diff_and_sweep(tmp_path, command):
    latin = tmp_path / "latin.txt"
    latin.write_bytes("# Café\n\nNaïve façade, déjà vu.\n".encode("latin-1"))
    done = chunkview(command[0], latin, *command[1:])
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith("chunkview: ") and done.stderr.count("\n") == 1
    assert "not UTF-8" in done.stderr and "--encoding" not in done.stderr


def test_audit_summary_of_files_without_chunks_says_so(tmp_path):
    done = chunkview("audit", tmp_path / "missing.md", "--entry", "smartchunk")
    assert "None" not in done.stdout
    assert "no chunks" in done.stdout
