"""``page``, ``sweep``, ``audit``, ``eval`` and ``diff`` on a chunker file's function: the
file's top-level code runs in the chunking processes only, never in the command line's
own process (each command runs as a process of its own; the file's top level records the
pid of the process that imports it)."""

import json
import os
import subprocess
import sys

import pytest

MARKED = """\
import os
import time

with open(os.path.join(os.path.dirname(__file__), "loaded-by.txt"), "a") as marker:
    marker.write(f"{os.getpid()}\\n")


def paragraphs(text, max_chars: int = 200):
    while max_chars == 3:  # never returns: its chunking process is stopped and restarted
        time.sleep(0.05)
    return [p[:max_chars] for p in text.split("\\n\\n")]
"""

TEXT = "# Title\n\nA first paragraph here.\n\n## Part\n\nSecond part of it.\n"


def _command(tmp_path, argv: list[str]) -> tuple[subprocess.CompletedProcess, list[str]]:
    """Run ``chunkview ARGV`` as a process; its result and the pids that imported the file."""
    process = subprocess.Popen(
        [sys.executable, "-m", "chunkview", *argv],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": os.getcwd()},
    )
    out, err = process.communicate(timeout=60)
    done = subprocess.CompletedProcess(process.args, process.returncode, out, err)
    marker = tmp_path / "loaded-by.txt"
    loaded_by = marker.read_text(encoding="utf-8").split() if marker.exists() else []
    assert str(process.pid) not in loaded_by, (argv[0], process.pid, loaded_by)
    return done, loaded_by


@pytest.fixture
def files(tmp_path):
    (tmp_path / "mine.py").write_text(MARKED, encoding="utf-8")
    (tmp_path / "doc.md").write_text(TEXT, encoding="utf-8")
    return tmp_path


ENTRY = "mine.py:paragraphs"


def test_sweep(files):
    argv = ["sweep", "doc.md", "--entry", ENTRY, "--param", "max_chars", "--values", "5,50"]
    done, loaded_by = _command(files, [*argv, "--json"])
    assert done.returncode == 0, done.stderr
    rows = json.loads(done.stdout)
    assert [row["value"] for row in rows] == [5, 50] and not any(r["error"] for r in rows)
    assert loaded_by
    done, _ = _command(files, argv)
    assert done.returncode == 0 and done.stdout.startswith("max_chars\t"), done.stderr
    done, _ = _command(files, [*argv[:-4], "--param", "nothing", "--values", "1,2"])
    assert done.returncode == 2 and "has no numeric option 'nothing'" in done.stderr


def test_page(files):
    argv = ["page", "doc.md", "--entry", ENTRY, "--param", "max_chars", "--values", "5,50"]
    done, loaded_by = _command(files, [*argv, "--out", "page.html", "--options", "{}"])
    assert done.returncode == 0, done.stderr
    assert "2 values of max_chars" in done.stdout and "failed" not in done.stdout
    assert "A first parag" in (files / "page.html").read_text(encoding="utf-8")
    assert loaded_by
    # a value that hangs: its process is stopped, and the one started after it (forked
    # from the command's) loads the file itself and chunks the next values
    hangs = [*argv[:-1], "3,5,50", "--out", "hang.html", "--timeout", "1"]
    done, _ = _command(files, hangs)
    assert done.returncode == 0, done.stderr
    assert "3 values of max_chars (1 failed" in done.stdout, done.stdout
    assert "max_chars=3: Stopped" in done.stderr
    bad = [*argv, "--out", "bad.html", "--options", '{"max_chars": "many"}']
    done, _ = _command(files, bad)
    assert done.returncode != 0 and "max_chars" in done.stdout + done.stderr


def test_audit(files):
    done, loaded_by = _command(files, ["audit", "doc.md", "--entry", ENTRY, "--format", "jsonl"])
    assert done.returncode == 0, done.stderr
    assert "doc.md" in done.stdout and loaded_by


def test_eval_one_document_and_a_corpus(files):
    at = TEXT.index("Second part")
    reference = {"content": "Second part", "start_index": at, "end_index": at + 11}
    question = {"question": "What is second?", "references": [reference]}
    (files / "questions.jsonl").write_text(json.dumps(question) + "\n", encoding="utf-8")
    argv = ["eval", "--entry", ENTRY, "--questions", "questions.jsonl", "--json"]
    done, loaded_by = _command(files, [*argv, "doc.md"])
    assert done.returncode == 0, done.stderr
    assert len(json.loads(done.stdout)["questions"]) == 1 and loaded_by
    sweep = [*argv, "--param", "max_chars", "--values", "5,50", "doc.md"]
    done, _ = _command(files, sweep)
    assert done.returncode == 0, done.stderr
    assert [row["value"] for row in json.loads(done.stdout)["rows"]] == [5, 50]
    (files / "corpus").mkdir()
    (files / "corpus" / "doc.md").write_text(TEXT, encoding="utf-8")
    in_corpus = {**question, "corpus_id": "doc.md"}
    (files / "questions.jsonl").write_text(json.dumps(in_corpus) + "\n", encoding="utf-8")
    done, _ = _command(files, [*argv, "corpus"])
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["entry"] == ENTRY
    done, _ = _command(files, [*argv, "--param", "max_chars", "--values", "5,50", "corpus"])
    assert done.returncode == 0, done.stderr
    assert [row["value"] for row in json.loads(done.stdout)["rows"]] == [5, 50]


def test_diff(files):
    argv = ["diff", "doc.md", "--entry", ENTRY, "--options", '{"max_chars": 5}', "--json"]
    done, loaded_by = _command(files, [*argv, "--options-b", '{"max_chars": 50}'])
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) and loaded_by
    done, _ = _command(files, [*argv, "--options-b", '{"max_chars": "many"}'])
    assert done.returncode != 0 and "max_chars" in done.stdout + done.stderr


BROKEN = {
    "syntax": ("def paragraphs(text:\n    return [text]\n", "SyntaxError: '(' was never closed"),
    "raises": (
        'raise RuntimeError("no settings here")\n\n\ndef paragraphs(text):\n    return [text]\n',
        "RuntimeError: no settings here",
    ),
}


@pytest.mark.parametrize("command", ["audit", "eval"])
@pytest.mark.parametrize("broken", sorted(BROKEN))
def test_a_chunker_file_that_fails_to_load_is_one_line_naming_it(files, command, broken):
    source, error = BROKEN[broken]
    (files / "broken.py").write_text(source, encoding="utf-8")
    (files / "questions.jsonl").write_text(
        json.dumps(
            {
                "question": "Q?",
                "references": [{"content": "# Title", "start_index": 0, "end_index": 7}],
            }
        )
        + "\n",
        encoding="utf-8",
    )
    argv = ["doc.md", "--entry", "broken.py:paragraphs"]
    if command == "eval":
        argv += ["--questions", "questions.jsonl"]
    done, _ = _command(files, [command, *argv])
    assert done.returncode not in (0, None), done
    said = done.stderr.strip()
    assert "\n" not in said and "Traceback" not in said, said
    assert said.startswith(f"chunkview {command}: ") and error in said, said
    assert "broken.py, line 1" in said, said
    assert done.stdout == ""
