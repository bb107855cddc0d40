"""The icon, the bundle's hidden imports and the license files ship as promised."""

import importlib.util
from pathlib import Path

import pytest
from PySide6.QtGui import QImage
from PySide6.QtSvg import QSvgRenderer

from chunkview import cli
from chunkview.app.icon import ICONS, SIZES, app_icon
from chunkview.core import registry

ROOT = Path(__file__).resolve().parent.parent


def test_icon_svg_and_every_png_size(qapp):
    assert QSvgRenderer(str(ICONS / "chunkview.svg")).isValid()
    for size in SIZES:
        image = QImage(str(ICONS / f"chunkview-{size}.png"))
        assert (image.width(), image.height()) == (size, size)
        assert image.pixelColor(size // 2, size // 2).alpha() == 255  # drawn, not blank
    icon = app_icon()
    assert sorted(s.width() for s in icon.availableSizes()) == sorted(SIZES)


def test_the_bundle_is_told_every_module_the_registry_imports_by_name():
    modules = {type(entry).__module__ for entry in registry.entries()}
    assert modules == set(registry.builtin_modules())
    spec = (ROOT / "packaging" / "chunkview.spec").read_text()
    assert "registry.builtin_modules()" in spec


def test_the_bundle_is_told_every_module_the_command_line_imports_by_name():
    names = cli.loaded_by_name()
    assert len(names) == len(cli.COMMANDS) + 2  # the window's module and the platform check
    for name in names:
        assert importlib.util.find_spec(name) is not None, name
    spec = (ROOT / "packaging" / "chunkview.spec").read_text()
    assert "cli.loaded_by_name()" in spec


def test_license_metadata_and_package_data():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["license"] == "MIT"
    for name in project["project"]["license-files"]:
        assert (ROOT / name).is_file()
    assert "MIT License" in (ROOT / "LICENSE").read_text()
    assert "resources/icons/*" in project["tool"]["setuptools"]["package-data"]["chunkview"]
    desktop = (ROOT / "packaging" / "chunkview.desktop").read_text()
    assert "Icon=chunkview" in desktop
    assert "chunkview-$size.png" in (ROOT / "packaging" / "install-desktop-entry.sh").read_text()
