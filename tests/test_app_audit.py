"""Audit a folder from the window: a row per file from the chunking processes, the totals,
a stop that ends the processes at once, and a double-click that opens the file."""

from __future__ import annotations

import csv
import json
import os
import time
from pathlib import Path

from conftest import settle
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from chunkview.app.audit_panel import COLUMNS
from chunkview.app.files import DEFAULT_SAMPLE
from chunkview.core.batch.audit import audit_file

CORPUS = Path(__file__).parent / "corpus"


def make_folder(root: Path) -> Path:
    folder = root / "docs"
    (folder / "nested").mkdir(parents=True)
    (folder / "guide.md").write_text(Path(DEFAULT_SAMPLE).read_text(encoding="utf-8"))
    (folder / "nested" / "acorn.md").write_text(
        (CORPUS / "acorn-readme.md").read_text(encoding="utf-8")
    )
    (folder / "empty.md").write_text("")
    (folder / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(64))
    return folder


def audit(qtbot, window, folder: Path, include: str = "") -> None:
    panel = window.views.audit
    window.views.show_panel(panel)
    panel.jobs = 1  # one chunking process beside the other tests
    panel.folder_edit.setText(str(folder))
    panel.include_edit.setText(include)
    assert panel.start()
    qtbot.waitUntil(lambda: not panel.running, timeout=60000)


def column(name: str) -> int:
    return [title for title, _value, _tip in COLUMNS].index(name)


def test_a_folder_is_audited_file_by_file_with_the_setting_on_view(qtbot, window, tmp_path):
    assert window.open_path(DEFAULT_SAMPLE, sample=True)
    settle(qtbot, window)
    folder = make_folder(tmp_path)
    panel = window.views.audit
    audit(qtbot, window, folder)
    assert window.views.audit_dock.isVisible()
    by_name = {r["name"]: r for r in panel.results.records}
    assert set(by_name) == {"guide.md", os.path.join("nested", "acorn.md"), "empty.md", "logo.png"}
    assert by_name["empty.md"]["status"] == "empty"
    assert by_name["logo.png"]["status"] == "error"
    assert "binary" in by_name["logo.png"]["message"]
    # each file's figures are what the CLI's audit gives for it (same function, same
    # options), the chunking done in the pool's processes
    options = {k: v for k, v in window.model.options.items() if v is not None}
    for name in ("guide.md", os.path.join("nested", "acorn.md")):
        expected = audit_file(str(folder / name), window.model.entry_id, options)
        record = by_name[name]
        assert record["status"] == "ok" and record["chunks"] == expected["chunks"] > 1
        assert record["size"] == expected["size"] and record["warnings"] == expected["warnings"]
    assert panel.progress.value() == panel.progress.maximum() == 4
    text = panel.message.text()
    assert text.startswith("4 files: 2 ok, 1 empty, 1 error;")
    assert f"{sum(r.get('chunks', 0) for r in panel.results.records)} chunks" in text
    # the table shows them, a row per file, and sorts by a column
    model = panel.table.model()
    assert model.rowCount() == 4
    panel.table.sortByColumn(column("chunks"), Qt.SortOrder.DescendingOrder)
    chunks = [r.get("chunks") for r in panel.results.records]
    assert chunks[0] == max(c for c in chunks if c is not None) and chunks[-1] is None
    shown = model.data(model.index(0, column("chunks")))
    assert shown == str(chunks[0])
    panel.table.sortByColumn(column("file"), Qt.SortOrder.DescendingOrder)
    names = [r["name"] for r in panel.results.records]
    assert names == sorted(names, reverse=True)
    error_row = next(i for i, r in enumerate(panel.results.records) if r["status"] == "error")
    assert model.data(model.index(error_row, column("warnings"))) == ""  # not chunked
    assert "binary" in model.data(model.index(error_row, column("top warnings")))
    # saved as the CLI writes them: a record per file, the summary last; CSV a row per file
    assert panel.save_button.isEnabled()
    assert panel.save(str(tmp_path / "audit.jsonl"))
    lines = [json.loads(line) for line in (tmp_path / "audit.jsonl").read_text().splitlines()]
    assert [r["path"] for r in lines[:-1]] == [r["path"] for r in panel.results.records]
    assert lines[-1]["summary"]["files"] == 4 and "name" not in lines[0]
    assert panel.save(str(tmp_path / "audit.csv"))
    rows = list(csv.DictReader((tmp_path / "audit.csv").open(encoding="utf-8")))
    assert len(rows) == 4 and {r["status"] for r in rows} == {"ok", "empty", "error"}
    assert not panel.save(str(tmp_path / "no" / "such" / "folder.csv"))
    assert "Could not save" in panel.message.text()
    # a double-click opens the file in the inspector
    row = next(i for i, r in enumerate(panel.results.records) if r["name"] == "guide.md")
    opened = []
    panel.open_file = lambda path: opened.append(path) or window.open_path(path)
    panel.table.scrollTo(model.index(row, 0))
    cell = panel.table.visualRect(model.index(row, 0)).center()
    viewport = panel.table.viewport()
    QTest.mouseClick(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, cell)
    QTest.mouseDClick(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, cell)
    settle(qtbot, window)
    assert window.document.path == str(folder / "guide.md")
    assert opened == [str(folder / "guide.md")]  # once: a second open would ask again
    # sorting keeps the selection on its file (Enter opens the file that is selected)
    panel.table.selectRow(row)
    panel.table.sortByColumn(column("chars"), Qt.SortOrder.AscendingOrder)
    current = panel.table.currentIndex()
    assert panel.results.records[current.row()]["name"] == "guide.md"
    assert [i.row() for i in panel.table.selectionModel().selectedRows()] == [current.row()]
    panel.table.sortByColumn(column("file"), Qt.SortOrder.DescendingOrder)
    # a record that comes in while the rows are sorted takes its place among them
    panel.results.add({"path": str(folder / "m.md"), "name": "m.md", "status": "ok", "chunks": 3})
    names = [r["name"] for r in panel.results.records]
    assert names == sorted(names, reverse=True) and "m.md" in names


def test_only_the_files_named_are_audited_and_a_hanging_setting_is_a_row_not_a_stop(
    qtbot, window, tmp_path
):
    folder = make_folder(tmp_path)
    # chunkSize 0 never returns in the original: every file with text is a hang, and the
    # audit goes on to the next
    window.select_entry("agentos.ChunkingEngine", {"strategy": "fixed", "chunkSize": 0})
    settle(qtbot, window)
    audit(qtbot, window, folder, include="*.md")
    panel = window.views.audit
    statuses = {r["name"]: r["status"] for r in panel.results.records}
    assert statuses == {
        "guide.md": "hang",
        os.path.join("nested", "acorn.md"): "hang",
        "empty.md": "empty",
    }
    assert all("Hang" in r["message"] for r in panel.results.records if r["status"] == "hang")
    assert panel.message.text().startswith("3 files: 1 empty, 2 hang;")


def test_stop_ends_the_audit_at_once_and_a_new_one_starts_clean(qtbot, window, tmp_path):
    folder = tmp_path / "many"
    folder.mkdir()
    text = (CORPUS / "acorn-readme.md").read_text(encoding="utf-8")
    for number in range(60):
        (folder / f"doc{number:02}.md").write_text(text)
    panel = window.views.audit
    window.views.show_panel(panel)
    panel.jobs = 1
    panel.folder_edit.setText(str(folder))
    assert panel.start()
    qtbot.waitUntil(lambda: len(panel.results.records) >= 2, timeout=60000)
    assert not panel.start()  # Enter in a field while it runs keeps the audit going
    assert panel.running and len(panel.results.records) >= 2
    began = time.monotonic()
    panel.stop_button.click()
    qtbot.waitUntil(lambda: not panel.running, timeout=10000)
    assert time.monotonic() - began < 5
    assert 2 <= len(panel.results.records) < 60
    assert "Stopped before the end." in panel.message.text()
    assert panel.run_button.isEnabled() and not panel.stop_button.isEnabled()
    assert panel._job.idle  # its processes are gone
    # a folder that is not one says so; a new audit starts from an empty table
    panel.folder_edit.setText(str(tmp_path / "nowhere"))
    assert not panel.start()
    assert "is not a folder" in panel.message.text()
    panel.folder_edit.setText(str(CORPUS))
    panel.include_edit.setText("acorn-readme.md")
    assert panel.start()
    qtbot.waitUntil(lambda: not panel.running, timeout=60000)
    assert [r["name"] for r in panel.results.records] == ["acorn-readme.md"]
    assert panel.message.text().startswith("1 file: 1 ok;")


def test_odd_names_and_a_broken_audit_are_told_apart_from_the_files(qtbot, window, tmp_path):
    folder = tmp_path / "odd"
    folder.mkdir()
    # a name that is not UTF-8 (Linux gives its byte back as a surrogate escape) and a FIFO,
    # which would block its reader: the FIFO is an error row, never opened
    odd = os.path.join(os.fsencode(folder), b"caf\xe9.md")
    with open(odd, "w") as handle:
        handle.write("# Caf\u00e9\n\nA short text about coffee.\n")
    os.mkfifo(folder / "pipe.md")
    audit(qtbot, window, folder)
    panel = window.views.audit
    rows = {r["name"]: r for r in panel.results.records}
    assert sorted(rows) == ["caf\ufffd.md", "pipe.md"]
    assert rows["caf\ufffd.md"]["status"] == "ok"
    assert (
        rows["pipe.md"]["status"] == "error" and "not a regular file" in rows["pipe.md"]["message"]
    )
    assert panel.save(str(tmp_path / "odd.jsonl"))
    first = json.loads((tmp_path / "odd.jsonl").read_text().splitlines()[0])
    assert first["path"].endswith("caf\udce9.md")  # the odd byte, escaped
    # a pool that cannot start is the audit's failure, said once, not a row of the table
    panel._job.deliver(panel._job.failed, panel.number, "OSError: no more processes")
    panel._finished(panel.number)
    stopped = "2 files: 1 ok, 1 error; 1 chunk. The audit stopped: OSError: no more processes."
    assert stopped in panel.message.text()
    assert len(panel.results.records) == 2 and panel.summary.files == 2


def test_the_folder_and_globs_of_the_last_audit_are_there_next_launch(qtbot, window, tmp_path):
    from PySide6.QtCore import QSettings

    from chunkview.app.main_window import MainWindow

    folder = make_folder(tmp_path)
    audit(qtbot, window, folder, include="*.md, *.txt")
    window.settings.sync()
    again = MainWindow(QSettings(window.settings.fileName(), QSettings.Format.IniFormat))
    qtbot.addWidget(again)
    try:
        assert again.views.audit.folder_edit.text() == str(folder)
        assert again.views.audit.include_edit.text() == "*.md, *.txt"
    finally:
        again.views.shutdown()
        again.worker.stop()
