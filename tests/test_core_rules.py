"""Rules of the architecture that a test can hold."""

import ast
from pathlib import Path

CORE = Path(__file__).parent.parent / "chunkview" / "core"
QT = ("PySide6", "PyQt5", "PyQt6", "shiboken6", "qtpy")


def test_core_never_imports_qt():
    offenders = []
    for path in CORE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            offenders += [f"{path.name}: {n}" for n in names if n.split(".")[0] in QT]
    assert offenders == []
    assert len(list(CORE.rglob("*.py"))) > 5  # the walk really saw the core


def test_every_entry_declares_its_params():
    from chunkview.core import registry

    for entry in registry.entries():
        assert entry.params, entry.id
        names = [p.name for p in entry.params]
        assert len(names) == len(set(names)), entry.id
        for p in entry.params:
            if p.choices:
                assert p.default in p.choices or p.default is None, (entry.id, p.name)
            if p.minimum is not None and isinstance(p.default, (int, float)):
                assert p.minimum <= p.default, (entry.id, p.name)
