"""A port's rule ("why the library cut here") and what a cut falls on (observed by
chunkview) are told apart by ``Reason.source``: across the pipe, in a span's JSON, in the
inspector, the step-through, the HTML page and the chunk table's tips."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
from pathlib import Path

from chunkview.app.chunk_table import ends_tooltip
from chunkview.app.inspector import _why
from chunkview.core.model.explain import Reason, ReasonColumns, combine
from chunkview.core.model.spans import Span
from chunkview.core.plugins.cut_falls_on import cut_reason
from chunkview.core.views.decorations import boundary_label
from chunkview.core.views.replay import cascade_stages

RULE = Reason(10, "paragraph", "cut at a blank line (maxSize 400)")
OBSERVED = cut_reason("One.\n\nTwo.", 6)


def _span(index: int, start: int, end: int, reason: Reason | None) -> Span:
    return Span(index, start, end, start, "chunk", "x" * (end - start), reason=reason)


def test_the_source_crosses_a_process_and_the_columns() -> None:
    for reason in (RULE, OBSERVED):
        assert pickle.loads(pickle.dumps(reason)) == reason
    columns = ReasonColumns({1: OBSERVED, 2: RULE})
    assert columns[1].source == "observed" and columns[2].source == "rule"
    assert columns[1] == OBSERVED and columns[2] == RULE
    back = pickle.loads(pickle.dumps(columns))
    assert back[1].source == "observed"
    assert combine([OBSERVED, OBSERVED._replace(text="more")]).source == "observed"


def test_a_spans_json_keeps_them_under_their_own_keys() -> None:
    ported = _span(1, 10, 20, RULE).to_json()
    observed = _span(1, 6, 10, OBSERVED).to_json()
    assert ported["reason"] == {"rule": "paragraph", "text": RULE.text}
    assert "cut_falls_on" not in ported
    assert observed["cut_falls_on"] == {
        "rule": "blank-line",
        "text": "a blank line",
        "source": "observed",
    }
    assert "reason" not in observed


def test_the_inspector_titles_each_source_apart() -> None:
    spans = [_span(0, 0, 6, None), _span(1, 6, 10, OBSERVED), _span(2, 10, 20, RULE)]
    observed_only = _why(spans[:2], 0)
    assert "What the cut falls on (observed by chunkview)" in observed_only
    assert "Why the library cut here" not in observed_only
    both = _why(spans, 1)  # starts at an observed cut, ends at a port's rule
    assert both.index("Why the library cut here") < both.index("What the cut falls on")
    rule_part, observed_part = both.split("What the cut falls on")
    assert "paragraph" in rule_part and "blank-line" not in rule_part
    assert "blank-line" in observed_part and "paragraph" not in observed_part


def test_labels_and_words_say_what_is_observed() -> None:
    span = _span(1, 6, 10, OBSERVED)
    assert boundary_label(span, by_reason=True) == "falls on: blank-line"
    assert boundary_label(_span(2, 10, 20, RULE), by_reason=True) == "paragraph"
    tip = ends_tooltip([_span(0, 0, 6, None), span], 1) or ""
    assert "what the cut falls on: a blank line" in tip
    stages = cascade_stages([_span(0, 0, 6, None), span], 1)
    assert stages[0].text == "what the cut falls on: a blank line"


def test_the_command_line_puts_observed_reasons_apart(tmp_path: Path) -> None:
    mine = tmp_path / "mine.py"
    mine.write_text("def lines(text):\n    return text.splitlines(True)\n", encoding="utf-8")
    document = tmp_path / "doc.txt"
    document.write_text("One line.\nTwo line.\n\nThree.\n", encoding="utf-8")
    shown = subprocess.run(
        [sys.executable, "-m", "chunkview", "spans", f"{mine}:lines", str(document), "--explain"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    spans = json.loads(shown)["spans"]
    assert "cut_falls_on" not in spans[0]
    assert [s["cut_falls_on"]["rule"] for s in spans[1:]] == [
        "line-end",
        "blank-line",
        "blank-line",
    ]
    assert all("reason" not in s for s in spans)
