"""``chunkview run`` and ``spans`` on a chunker file's function: the file's top-level code
runs only in the chunking process (described there, as for the window), never in the
command line's own process, and a top level that hangs is stopped by the watchdog."""

import json
import os

from chunkview.commands import render, run, spans
from chunkview.core import registry

MARKED = """\
import os

with open(os.path.join(os.path.dirname(__file__), "loaded-by.txt"), "a") as marker:
    marker.write(f"{os.getpid()}\\n")


def paragraphs(text, max_chars: int = 200):
    return [p[:max_chars] for p in text.split("\\n\\n")]
"""

HANGS = """\
import time

while True:
    time.sleep(0.05)


def paragraphs(text):
    return [text]
"""

TEXT = "# Title\n\nA first paragraph here.\n\n## Part\n\nSecond part.\n"


def _files(tmp_path, source):
    mine = tmp_path / "mine.py"
    mine.write_text(source, encoding="utf-8")
    doc = tmp_path / "doc.md"
    doc.write_text(TEXT, encoding="utf-8")
    return mine, doc


def test_the_files_top_level_runs_in_the_chunking_process_only(tmp_path, capsys):
    mine, doc = _files(tmp_path, MARKED)
    entry = f"{mine}:paragraphs"
    assert run.main([entry, str(doc), "--options", '{"max_chars": 12}']) == 0
    assert json.loads(capsys.readouterr().out) == [p[:12] for p in TEXT.split("\n\n")]
    assert spans.main([entry, str(doc)]) == 0
    assert len(json.loads(capsys.readouterr().out)["spans"]) == 4
    loaded_by = (tmp_path / "loaded-by.txt").read_text(encoding="utf-8").split()
    assert loaded_by and str(os.getpid()) not in loaded_by
    assert registry.registered(entry) is None  # nothing of it registered here either
    # the options are checked against the chunking process's description of the file
    assert run.main([entry, str(doc), "--options", '{"max_chars": "many"}']) != 0
    said = capsys.readouterr()
    assert "max_chars" in said.out + said.err
    assert run.main([f"{mine}:absent", str(doc)]) == 2
    assert "has no 'absent' chunker; it has: paragraphs" in capsys.readouterr().err
    assert str(os.getpid()) not in (tmp_path / "loaded-by.txt").read_text(encoding="utf-8")


def test_a_top_level_that_never_ends_is_stopped_and_named(tmp_path, capsys):
    mine, doc = _files(tmp_path, HANGS)
    assert run.main([f"{mine}:paragraphs", str(doc), "--timeout", "1"]) == 1
    said = json.loads(capsys.readouterr().out)
    assert "mine.py" in said["message"] and "line 4" in said["message"], said


def test_render_to_html_checks_the_options_by_the_description_too(tmp_path, capsys):
    mine, doc = _files(tmp_path, MARKED)
    out = tmp_path / "page.html"
    argv = [str(doc), "--entry", f"{mine}:paragraphs", "--options", '{"max_chars": 12}']
    assert render.main([*argv, "--out", str(out)]) == 0
    assert "A first par" in out.read_text(encoding="utf-8")
    loaded_by = (tmp_path / "loaded-by.txt").read_text(encoding="utf-8").split()
    assert loaded_by and str(os.getpid()) not in loaded_by
