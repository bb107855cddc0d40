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


CHUNKVIEW = CORE.parent


def local_imports_of_chunkview(tree: ast.Module) -> list[int]:
    """The lines of the imports of chunkview modules made inside a function."""
    lines = []
    for function in ast.walk(tree):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        for node in ast.walk(function):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = ["chunkview" if node.level else node.module or ""]
            else:
                continue
            if any(name.split(".")[0] == "chunkview" for name in names):
                lines.append(node.lineno)
    return sorted(set(lines))  # a nested function's import is walked twice


def test_at_most_8_function_local_imports_of_chunkview_outside_the_app():
    counted = []
    for path in sorted(CHUNKVIEW.rglob("*.py")):
        name = path.relative_to(CHUNKVIEW).as_posix()
        if name.startswith("app/"):  # Qt widgets built on first use: not limited
            continue
        lines = local_imports_of_chunkview(ast.parse(path.read_text(encoding="utf-8")))
        counted += [f"{name}:{line}" for line in lines]
    assert len(counted) <= 8, counted


def test_the_walk_finds_a_function_local_import():
    tree = ast.parse(
        "import os\nfrom chunkview.core import registry\n"
        "def f():\n    from chunkview.core.text import js\n    import json\n"
        "    def g():\n        import chunkview.api\n"
    )
    assert local_imports_of_chunkview(tree) == [4, 7]


def test_no_module_is_over_800_lines():
    long = []
    for path in sorted(CHUNKVIEW.rglob("*.py")):
        name = path.relative_to(CHUNKVIEW).as_posix()
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > 800:
            long.append(f"{name}: {lines} lines")
    assert long == []
