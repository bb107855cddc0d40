"""What a cut falls on: each kind on a small text."""

from __future__ import annotations

import pytest

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
    assert reason.rule == "falls-on:blank-line"
    assert reason.text == "what the cut falls on: a blank line"
