"""What a cut falls on: each kind on a small text."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from chunkview.core.model.explain import reason_label, reason_words
from chunkview.core.plugins.cut_falls_on import cut_reason, falls_on

FENCE = "Intro.\n\n```py\nx = 1\ny = 2\n```\n\nAfter."
TABLE = "Intro.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n| 3 | 4 |\n\nAfter."
HEADING = "# A long heading here\n\nBody text."


@pytest.mark.parametrize(
    ("text", "at", "kind"),
    [
        ("One.\n\nTwo.", 6, "blank-line"),
        ("One.\n\nTwo.", 5, "blank-line"),
        ("one\ntwo", 4, "line-end"),
        ("One. Two.", 5, "sentence-end"),
        ("One. Two.", 4, "sentence-end"),
        ('He said "no." Then', 14, "sentence-end"),
        ("one two", 4, "word-boundary"),
        ("one, two", 4, "word-boundary"),
        ("pi is 3.14", 8, "word-boundary"),  # after a stop, but no sentence end
        ("pi is 3.14", 9, "inside-word"),
        ("splitter", 5, "inside-word"),
        (FENCE, FENCE.index("y = 2"), "inside-fence"),
        (TABLE, TABLE.index("| 3"), "inside-table"),
        (HEADING, HEADING.index("heading"), "inside-heading"),
        (FENCE, FENCE.index("```"), "blank-line"),
    ],
)
def test_falls_on_each_kind(text: str, at: int, kind: str) -> None:
    assert falls_on(text, at)[0] == kind


def test_cut_reason_is_labelled_apart_from_the_ports_rules() -> None:
    reason = cut_reason("One.\n\nTwo.", 6)
    assert reason.at == 6
    assert reason.rule == "blank-line"
    assert reason.text == "a blank line"
    # typed apart from a port's rule: its source says it is observed, not the library's
    assert reason.source == "observed"
    assert reason_words(reason) == "what the cut falls on: a blank line"
    assert reason_label(reason) == "falls on: blank-line"


PARAGRAPHS = "# Title\n\nOne sentence. Another one here.\n\nA second paragraph\nwith two lines.\n"
BY_LINE = "def by_line(text):\n    return text.splitlines(keepends=True)\n"


def _assert_cut_reasons(layout: Any) -> None:
    spans = list(layout.spans)
    assert len(spans) > 2
    assert spans[0].reason is None
    for span in spans[1:]:
        assert span.reason is not None
        assert span.reason.source == "observed"
        assert "reason" not in span.to_json() and span.to_json()["cut_falls_on"]["text"]


def test_a_function_entry_explains_each_cut_by_what_it_falls_on(tmp_path: Path) -> None:
    import chunkview

    mine = tmp_path / "by_line.py"
    mine.write_text(BY_LINE, encoding="utf-8")
    entry = f"{mine}:by_line"
    layout = chunkview.spans(entry, PARAGRAPHS, {}, explain=True)
    _assert_cut_reasons(layout)
    rules = [span.reason.rule for span in list(layout.spans)[1:] if span.reason]
    assert "line-end" in rules
    # without explain, no reasons and the same chunks
    plain = chunkview.spans(entry, PARAGRAPHS, {})
    assert all(span.reason is None for span in plain.spans)
    assert [s.start for s in plain.spans] == [s.start for s in layout.spans]


def test_a_library_entry_explains_each_cut_by_what_it_falls_on() -> None:
    pytest.importorskip("langchain_text_splitters")
    import chunkview

    options = {"chunk_size": 20, "chunk_overlap": 0}
    layout = chunkview.spans(
        "langchain.RecursiveCharacterTextSplitter", PARAGRAPHS, options, explain=True
    )
    _assert_cut_reasons(layout)
