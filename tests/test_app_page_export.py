"""File > Export Interactive Page in the real window: the page over the Sweep dock's
option and values, written from a background thread by chunking processes."""

import json
import re

from PySide6.QtCore import QTimer

from chunkview.core.batch.sweep import parse_values, suggested_values
from tests.conftest import settle
from tests.test_views import open_sample


def page_data(path) -> dict:
    page = path.read_text(encoding="utf-8")
    found = re.search(r"<script type='application/json' id='page-data'>(.*?)</script>", page, re.S)
    assert found
    return json.loads(found.group(1))


def test_export_interactive_page_takes_the_sweeps_values(qtbot, window, tmp_path):
    open_sample(qtbot, window)
    sweep = window.views.sweep
    sweep.param_combo.setCurrentIndex(sweep.param_combo.findData("targetSize"))
    sweep.values_edit.setText("150,400,1000")
    exporter = window.menus.page_export
    out = tmp_path / "page.html"
    ticks: list[int] = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(1))
    timer.start(5)
    assert exporter.export(str(out))
    assert exporter.running  # it returned at once: the values are chunked elsewhere
    assert "Exporting an interactive page over 3 values of targetSize" in (
        window.statusBar().currentMessage()
    )
    with qtbot.waitSignal(exporter.finished, timeout=60000):
        pass
    timer.stop()
    assert ticks  # the UI thread ran meanwhile
    assert not exporter.running and exporter.last.error is None
    data = page_data(out)
    assert data["param"] == "targetSize" and data["entry"] == "agentos.SemanticChunker"
    assert [v["value"] for v in data["values"]] == [150, 400, 1000]
    assert all("error" not in v for v in data["values"])
    assert data["text"] == window.model.document.text
    # the value shown now in the window is the layout the page holds for it
    window.params.set_value("targetSize", 400)
    settle(qtbot, window)
    starts = [s.own_start for s in window.result.layout.spans]
    steps = data["values"][1]["s"]
    page_starts = [sum(steps[: i + 1]) + data["values"][1]["o"][i] for i in range(len(steps))]
    assert page_starts == starts
    assert "Exported an interactive page of 3 values" in window.statusBar().currentMessage()


def test_without_sweep_values_the_current_option_with_suggested_values(qtbot, window, tmp_path):
    open_sample(qtbot, window)
    sweep = window.views.sweep
    sweep.values_edit.setText("")
    exporter = window.menus.page_export
    choice = exporter.choice()
    param = next(p for p in window.model.entry.params if p.name == choice.param)
    current = window.model.options.get(param.name, param.default)
    expected = parse_values(
        suggested_values(current, param.kind == "int", param.minimum), param.kind == "int"
    )
    assert choice.values == expected


def test_a_page_that_cannot_be_written_says_why(qtbot, window, tmp_path):
    open_sample(qtbot, window)
    sweep = window.views.sweep
    sweep.param_combo.setCurrentIndex(sweep.param_combo.findData("targetSize"))
    sweep.values_edit.setText("300")
    exporter = window.menus.page_export
    target = tmp_path / "no-such-folder" / "page.html"
    assert exporter.export(str(target))
    with qtbot.waitSignal(exporter.finished, timeout=60000):
        pass
    assert exporter.last.error is not None and "no-such-folder" in exporter.last.error
    assert "No such file" in window.statusBar().currentMessage()
    assert not exporter.running
    # bad values in the dock: a message, nothing started
    sweep.values_edit.setText("9:1:1")
    assert not exporter.export(str(tmp_path / "p.html"))
    assert "start:stop:step" in window.statusBar().currentMessage()
    assert not exporter.running


def test_a_pinned_layout_is_the_pages_b(qtbot, window, tmp_path):
    open_sample(qtbot, window)
    window.model.pin()
    pinned = window.model.pinned.request
    sweep = window.views.sweep
    sweep.param_combo.setCurrentIndex(sweep.param_combo.findData("targetSize"))
    sweep.values_edit.setText("150,1000")
    exporter = window.menus.page_export
    out = tmp_path / "page.html"
    assert exporter.export(str(out))
    with qtbot.waitSignal(exporter.finished, timeout=60000):
        pass
    data = page_data(out)
    assert data["b"]["entry"] == pinned.entry_id and data["b"]["error"] is None
    assert data["b"]["options"] == {k: v for k, v in pinned.options.items() if v is not None}
    # each value's changes from B: kept, moved, added or removed, as the app counts them
    assert all(v["d"] and len(v["d"]) % 3 == 0 for v in data["values"])
    assert "kept" in data["strings"][data["values"][0]["ds"]]
