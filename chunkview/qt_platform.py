"""Before the window opens on Linux: the system libraries Qt's X11 platform plugin needs
and cannot find, named as the packages that hold them, in one line.

Without them Qt prints a page about "xcb" and aborts. The plugin's libraries are read
with ``ldd`` (a few milliseconds) before Qt is imported, only where Qt would load that
plugin: QT_QPA_PLATFORM unset or ``xcb``, and an X display named. Nothing here imports Qt.
"""

from __future__ import annotations

import importlib.util
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

#: the Debian and Ubuntu package holding each library the xcb plugin loads (what a bare
#: system most often lacks; the README's set-up lines install them)
PACKAGES = {
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-render.so.0": "libxcb-render0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-shm.so.0": "libxcb-shm0",
    "libxcb-sync.so.1": "libxcb-sync1",
    "libxcb-util.so.1": "libxcb-util1",
    "libxcb-xfixes.so.0": "libxcb-xfixes0",
    "libxcb-xinerama.so.0": "libxcb-xinerama0",
    "libxcb-xinput.so.0": "libxcb-xinput0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxcb-glx.so.0": "libxcb-glx0",
    "libxcb.so.1": "libxcb1",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libX11.so.6": "libx11-6",
    "libXau.so.6": "libxau6",
    "libXdmcp.so.6": "libxdmcp6",
    "libSM.so.6": "libsm6",
    "libICE.so.6": "libice6",
    "libEGL.so.1": "libegl1",
    "libGL.so.1": "libgl1",
    "libGLX.so.0": "libglx0",
    "libOpenGL.so.0": "libopengl0",
    "libGLdispatch.so.0": "libglvnd0",
    "libfontconfig.so.1": "libfontconfig1",
    "libfreetype.so.6": "libfreetype6",
    "libdbus-1.so.3": "libdbus-1-3",
    "libglib-2.0.so.0": "libglib2.0-0",
    "libgthread-2.0.so.0": "libglib2.0-0",
}
#: an ``ldd`` line naming a library it could not find
NOT_FOUND = re.compile(r"^\s*(\S+)\s+=>\s+not found\s*$", re.MULTILINE)
#: seconds ``ldd`` may take before the check gives up (and the window opens as before)
LDD_TIMEOUT = 5.0


def missing_libraries(ldd_output: str) -> list[str]:
    """The libraries ``ldd`` could not find, each once, in the order it names them."""
    return list(dict.fromkeys(NOT_FOUND.findall(ldd_output)))


def packages_for(libraries: list[str]) -> list[str]:
    """The packages that hold ``libraries``, each once (a library not in the table is
    named as it is)."""
    return list(dict.fromkeys(PACKAGES.get(name, name) for name in libraries))


def missing_message(libraries: list[str]) -> str:
    """The one line printed in place of Qt's abort."""
    packages = " ".join(packages_for(libraries))
    return (
        f"chunkview: the window cannot open: Qt's X11 platform plugin needs "
        f"{', '.join(libraries)}, not installed; on Debian or Ubuntu: sudo apt-get "
        f"install {packages} (or set QT_QPA_PLATFORM=offscreen to run without a screen)"
    )


def uses_xcb(environ: Mapping[str, str], platform: str = sys.platform) -> bool:
    """True where Qt would load the xcb plugin: Linux, no other platform chosen, and an
    X display named (with only a Wayland display Qt picks its Wayland plugin)."""
    chosen = environ.get("QT_QPA_PLATFORM", "").strip().lower()
    return platform.startswith("linux") and chosen in ("", "xcb") and bool(environ.get("DISPLAY"))


def xcb_plugin() -> Path | None:
    """PySide6's xcb platform plugin, found without importing PySide6."""
    spec = importlib.util.find_spec("PySide6")
    if spec is None or not spec.submodule_search_locations:
        return None
    for folder in spec.submodule_search_locations:
        plugin = Path(folder) / "Qt" / "plugins" / "platforms" / "libqxcb.so"
        if plugin.is_file():
            return plugin
    return None


def run_ldd(path: Path) -> str | None:
    """``ldd path``'s output; None without ldd or when it fails."""
    ldd = shutil.which("ldd")
    if ldd is None:
        return None
    try:
        done = subprocess.run(
            [ldd, str(path)], capture_output=True, text=True, timeout=LDD_TIMEOUT, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout


def platform_problem(
    environ: Mapping[str, str] = os.environ,
    ldd: Callable[[Path], str | None] = run_ldd,
    plugin: Callable[[], Path | None] = xcb_plugin,
) -> str | None:
    """The line naming the missing packages, or None when nothing is known to be
    missing (another platform, no display, no plugin or no ldd: Qt goes on as before)."""
    if not uses_xcb(environ):
        return None
    found = plugin()
    output = ldd(found) if found is not None else None
    missing = missing_libraries(output or "")
    return missing_message(missing) if missing else None
