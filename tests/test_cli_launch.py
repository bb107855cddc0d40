"""The launcher's words: --version, --help, usage errors, no display, render's output."""

import os
import subprocess
import sys
from pathlib import Path

from chunkview import __version__
from chunkview.cli import display_available

NO_DISPLAY = {
    k: v
    for k, v in os.environ.items()
    if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")
}


def cli(*args, env=None):
    return subprocess.run(
        [sys.executable, "-m", "chunkview", *args],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )


def test_version_and_help_need_no_display_and_no_qt():
    for args in (("--version",), ("-V",)):
        result = cli(*args, env=NO_DISPLAY)
        assert result.returncode == 0, result.stderr
        assert result.stdout.strip() == f"chunkview {__version__}"
    result = cli("--help", env=NO_DISPLAY)
    assert result.returncode == 0
    assert result.stdout.startswith("usage: chunkview") and "render" in result.stdout
    probe = (
        "import sys; from chunkview.cli import main; main(['--version']); main(['--help']); "
        "main(['list']); assert not any(m.startswith('PySide6') for m in sys.modules)"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr


def test_version_and_help_import_neither_the_core_nor_numpy():
    # the package and cli.py import a subcommand's module, and the core, only when it runs
    probe = (
        "import sys; from chunkview.cli import main; main(['--version']); main(['--help']); "
        "loaded = [m for m in sys.modules if m.startswith(('chunkview.', 'numpy', 'PySide6'))]; "
        "assert loaded == ['chunkview.cli'], loaded"
    )
    result = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr


def test_unknown_words_are_one_line_usage_errors(tmp_path: Path):
    for args in (("nosuchcommand",), ("--frobnicate",), (str(tmp_path),), ("a", "b")):
        result = cli(*args, env=NO_DISPLAY)
        assert result.returncode == 2, (args, result.stderr)
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
        assert result.stderr.startswith("chunkview: ")
    assert "no such file, nor a command" in cli("nosuchcommand").stderr


def test_no_display_is_a_hint_not_an_abort(tmp_path: Path):
    document = tmp_path / "a.md"
    document.write_text("# A\n\nb\n")
    for args in ((), (str(document),)):
        result = cli(*args, env=NO_DISPLAY)
        assert result.returncode == 1, result.stderr
        assert result.stderr.count("\n") == 1
        assert "QT_QPA_PLATFORM=offscreen" in result.stderr


def test_display_available_reads_the_environment():
    if sys.platform in ("win32", "darwin"):
        return
    assert not display_available({})
    assert display_available({"DISPLAY": ":0"})
    assert display_available({"WAYLAND_DISPLAY": "wayland-0"})
    assert display_available({"QT_QPA_PLATFORM": "offscreen"})


def test_render_prints_plain_errors_and_no_plugin_noise(tmp_path: Path):
    document = tmp_path / "a.html"
    document.write_text("<h1>A</h1><p>text</p>")
    env = {**NO_DISPLAY, "QT_QPA_PLATFORM": "offscreen"}
    ok = cli(
        "render",
        str(document),
        "--entry",
        "agentos.SemanticChunker",
        "--out",
        str(tmp_path / "ok.png"),
        env=env,
    )
    assert ok.returncode == 0, ok.stderr
    assert ok.stderr == ""
    assert (tmp_path / "ok.png").stat().st_size > 1000
    failed = cli(
        "render",
        str(document),
        "--entry",
        "mastra.chunk",
        "--options",
        '{"strategy": "html", "headers": null}',
        "--out",
        str(tmp_path / "x.png"),
        env=env,
    )
    assert failed.returncode == 1
    assert failed.stderr.strip() == (
        "chunkview: mastra.chunk threw Error: "
        "HTML chunking requires either headers or sections to be specified"
    )
