"""`chunkview` on a machine without the system libraries of Qt's X11 plugin: one line
naming the packages, before Qt is imported (chunkview/qt_platform.py)."""

import os
import subprocess
import sys
from pathlib import Path

from conftest import ROOT

from chunkview.qt_platform import (
    missing_libraries,
    missing_message,
    packages_for,
    platform_problem,
    uses_xcb,
)

#: what ldd prints for PySide6's libqxcb.so on a container without two of the libraries
#: (a library missing from several dependents is named again)
LDD = """\
\tlinux-vdso.so.1 (0x00007ffd5b9e8000)
\tlibQt6XcbQpa.so.6 => /venv/PySide6/Qt/plugins/platforms/../../lib/libQt6XcbQpa.so.6 (0x7f)
\tlibxkbcommon-x11.so.0 => not found
\tlibxcb-cursor.so.0 => /lib/x86_64-linux-gnu/libxcb-cursor.so.0 (0x00007f4941d1b000)
\tlibxcb-icccm.so.4 => not found
\tlibxcb-keysyms.so.1 => not found
\tlibxcb-icccm.so.4 => not found
\tlibfoo-unknown.so.3 => not found
\t/lib64/ld-linux-x86-64.so.2 (0x00007f4941ed6000)
"""
X11 = {"DISPLAY": ":0"}


def test_the_missing_libraries_and_their_packages_from_ldd():
    missing = missing_libraries(LDD)
    assert missing == [
        "libxkbcommon-x11.so.0",
        "libxcb-icccm.so.4",
        "libxcb-keysyms.so.1",
        "libfoo-unknown.so.3",
    ]
    assert packages_for(missing) == [
        "libxkbcommon-x11-0",
        "libxcb-icccm4",
        "libxcb-keysyms1",
        "libfoo-unknown.so.3",  # not in the table: named as it is
    ]
    line = missing_message(missing)
    assert "\n" not in line and line.startswith("chunkview: ")
    assert "sudo apt-get install libxkbcommon-x11-0 libxcb-icccm4 libxcb-keysyms1" in line
    assert missing_libraries("\tlibc.so.6 => /lib/libc.so.6 (0x1)\n") == []


def test_only_where_qt_would_load_the_xcb_plugin():
    assert uses_xcb({"DISPLAY": ":0"}, "linux")
    assert uses_xcb({"DISPLAY": ":0", "QT_QPA_PLATFORM": "xcb"}, "linux")
    assert not uses_xcb({"DISPLAY": ":0", "QT_QPA_PLATFORM": "offscreen"}, "linux")
    assert not uses_xcb({"DISPLAY": ":0", "QT_QPA_PLATFORM": "wayland"}, "linux")
    assert not uses_xcb({"WAYLAND_DISPLAY": "wayland-0"}, "linux")  # Qt picks Wayland
    assert not uses_xcb({}, "linux")
    assert not uses_xcb({"DISPLAY": ":0"}, "darwin")


def test_the_check_runs_ldd_on_the_plugin_and_stays_quiet_when_it_cannot_tell():
    plugin = Path("/venv/PySide6/Qt/plugins/platforms/libqxcb.so")
    asked = []

    def ldd(path):
        asked.append(path)
        return LDD

    if sys.platform.startswith("linux"):
        line = platform_problem(X11, ldd, lambda: plugin)
        assert asked == [plugin] and "libxcb-icccm4" in line
    assert platform_problem({"QT_QPA_PLATFORM": "offscreen", **X11}, ldd, lambda: plugin) is None
    assert platform_problem(X11, lambda _path: None, lambda: plugin) is None  # no ldd
    assert platform_problem(X11, ldd, lambda: None) is None  # no plugin
    assert platform_problem(X11, lambda _path: "\tlibc.so.6 => /lib/libc.so.6\n") is None


def test_chunkview_names_the_packages_in_one_line_before_qt(tmp_path):
    if not sys.platform.startswith("linux"):
        return
    fake = tmp_path / "ldd"  # an ldd that finds the plugin's libraries missing
    fake.write_text("#!/bin/sh\ncat <<'END'\n" + LDD + "END\n", encoding="utf-8")
    fake.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if k not in ("QT_QPA_PLATFORM", "WAYLAND_DISPLAY")}
    env.update(DISPLAY=":99", PATH=f"{tmp_path}{os.pathsep}{env.get('PATH', '')}")
    env["PYTHONPATH"] = str(ROOT)
    probe = (
        "import sys; from chunkview.cli import main; status = main([]); "
        "assert not any(m.startswith('PySide6') for m in sys.modules); sys.exit(status)"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 1, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 1 and "sudo apt-get install libxkbcommon-x11-0 libxcb-icccm4" in lines[0]


def test_the_readme_lists_the_packages_and_an_emoji_font():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    setup = readme[: readme.index("## The inspector")]
    assert "fonts-noto-color-emoji" in setup
    for package in ("libxcb-cursor0", "libxcb-icccm4", "libxcb-keysyms1", "libxkbcommon-x11-0"):
        assert package in setup
