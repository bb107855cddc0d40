"""``chunkview render`` checks its --options as ``run`` does: the same line, the same exit
status, before any process starts or any file is written."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest

from chunkview import cli

ENTRY = "agentos.SemanticChunker"


def _main(capsys, monkeypatch, args: list[str], stdin: bytes = b"") -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin), encoding="utf-8"))
    code = cli.main(args)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def document(tmp_path: Path) -> Path:
    path = tmp_path / "a.md"
    path.write_text("# Title\n\nSome words.\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("options", ["[1]", "[]", "0", '"text"', "true"])
def test_options_that_are_not_an_object(capsys, monkeypatch, document, tmp_path, options):
    out_file = tmp_path / "out.html"
    ran = _main(capsys, monkeypatch, ["run", ENTRY, str(document), "--options", options])
    rendered = _main(
        capsys,
        monkeypatch,
        ["render", str(document), "--entry", ENTRY, "--options", options, "--out", str(out_file)],
    )
    assert ran == (2, "", "chunkview: --options must be a JSON object\n")
    assert rendered == ran
    assert not out_file.exists()


def test_an_option_of_the_wrong_type(capsys, monkeypatch, document, tmp_path):
    options = '{"maxSize": "x"}'
    out_file = tmp_path / "out.html"
    ran = _main(capsys, monkeypatch, ["run", ENTRY, str(document), "--options", options])
    rendered = _main(
        capsys,
        monkeypatch,
        ["render", str(document), "--entry", ENTRY, "--options", options, "--out", str(out_file)],
    )
    assert ran[0] == 1 and json.loads(ran[1])["error"] == "OptionError"
    assert rendered == ran
    assert not out_file.exists()


def test_an_unknown_option_is_warned_about_and_good_options_render(
    capsys, monkeypatch, document, tmp_path
):
    out_file = tmp_path / "out.html"
    code, _out, err = _main(
        capsys,
        monkeypatch,
        [
            "render",
            str(document),
            "--entry",
            ENTRY,
            "--options",
            '{"maxsize": 300}',
            "--out",
            str(out_file),
        ],
    )
    assert code == 0, err
    assert "has no option 'maxsize'" in err and "did you mean 'maxSize'?" in err
    assert out_file.read_text(encoding="utf-8").startswith("<!")
