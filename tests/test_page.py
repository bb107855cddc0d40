"""The interactive page's data and its command, without a browser (test_page_browser.py
drives the page itself)."""

import json
import re

from chunkview import api
from chunkview.app import theme
from chunkview.commands import page as page_command
from chunkview.core.analysis.compare import compare_layouts
from chunkview.core.batch.page_values import PagePlan, page_values
from chunkview.core.model.document import Document
from chunkview.core.views.kind_colours import kind_colours
from chunkview.core.views.page_data import (
    FailedValue,
    ValueView,
    astral_positions,
    block_starts,
    decode_value,
    page_data,
)
from chunkview.export_page import render_page, script_json
from tests.test_sweep import in_place

TEXT = "One sentence here. Another one there.\n\n" * 30


def page_json(page: str) -> dict:
    found = re.search(r"<script type='application/json' id='page-data'>(.*?)</script>", page, re.S)
    assert found
    return json.loads(found.group(1))


def test_each_value_holds_the_spans_chunkview_spans_gives():
    document = Document(TEXT, path="text.txt")
    plan = PagePlan("mastra.chunk", document, {"strategy": "recursive"}, "maxSize", [250, 600])
    views = page_values(plan, in_place).values
    data = page_data(document, "t", "mastra.chunk", "maxSize", views)
    for index, value in enumerate([250, 600]):
        layout = api.spans(
            "mastra.chunk", document, {"strategy": "recursive", "maxSize": value}, explain=True
        )
        columns = decode_value(data, index)
        assert columns["own_starts"] == [s.own_start for s in layout.spans]
        assert columns["starts"] == [s.start for s in layout.spans]
        assert columns["ends"] == [s.end for s in layout.spans]
        assert columns["kinds"] == [s.kind for s in layout.spans]
        assert columns["sizes"] == layout.sizes
        assert (
            columns["reasons"][1] == f"{layout.spans[1].reason.rule}: {layout.spans[1].reason.text}"
        )
        assert "maxSize: " + str(value) in data["values"][index]["code"]
    assert data["text"] == TEXT and data["values"][0]["options"]["maxSize"] == 250


def test_a_value_that_fails_or_hangs_is_kept_with_its_message():
    document = Document(TEXT)
    plan = PagePlan(
        "agentos.ChunkingEngine",
        document,
        {"strategy": "fixed", "chunkOverlap": 20},
        "chunkSize",
        [300, 0, 100],
    )
    views = page_values(plan, in_place).values
    assert [v.value for v in views] == [300, 0, 100]
    assert isinstance(views[1], FailedValue) and views[1].name == "Hang"
    assert isinstance(views[0], ValueView) and isinstance(views[2], ValueView)
    data = page_json(render_page(document, "agentos.ChunkingEngine", "chunkSize", views))
    assert data["values"][1]["error"]["name"] == "Hang"
    assert data["values"][1]["error"]["message"] == views[1].message
    assert data["values"][1]["options"]["chunkSize"] == 0


def test_repeated_strings_are_stored_once():
    document = Document(TEXT)
    plan = PagePlan("mastra.chunk", document, {"strategy": "recursive"}, "maxSize", [250, 251, 252])
    data = page_data(document, "t", "mastra.chunk", "maxSize", page_values(plan, in_place).values)
    assert len(data["strings"]) == len(set(data["strings"]))
    assert "recursive" in data["strings"]
    assert sum(s == "recursive" for s in data["strings"]) == 1


def test_astral_characters_and_script_safety():
    text = "a😀b𝄞c</script><!-- \ud800"
    assert astral_positions(text) == [1, 3]
    encoded = script_json({"text": text})
    assert "</script>" not in encoded and "<!--" not in encoded
    assert "\\ud800" in encoded
    encoded.encode("utf-8")  # no lone surrogate left raw
    assert json.loads(encoded)["text"] == text


def test_kind_colours_are_the_apps():
    # past the palette's eight colours too: every kind its own, in the page as in the window
    kinds = ["heading", "paragraph", "table", "fence", "heading-2", "list", *"abcdefgh"]
    colours = kind_colours(kinds)
    assert len(set(colours.values())) == len(kinds)
    theme.use_entry_kinds(kinds)
    try:
        assert {k: theme.kind_colour(k).name() for k in kinds} == {
            k: c.lower() for k, c in colours.items()
        }
    finally:
        theme.use_entry_kinds([])


def test_the_command_writes_a_page_with_failed_values_kept(tmp_path, capsys):
    source = tmp_path / "doc.md"
    source.write_text(TEXT, encoding="utf-8")
    out = tmp_path / "page.html"
    status = page_command.main(
        [
            str(source),
            "--entry",
            "mastra.chunk",
            "--options",
            '{"strategy": "recursive"}',
            "--param",
            "maxSize",
            "--values",
            "250,400,-5",
            "--out",
            str(out),
        ]
    )
    assert status == 0
    captured = capsys.readouterr()
    assert "3 values of maxSize (1 failed" in captured.out
    assert "maxSize=-5" in captured.err
    page = out.read_text(encoding="utf-8")
    assert "http://" not in page
    assert "https://" not in page and "<script src" not in page and "<link" not in page
    data = page_json(page)
    assert [v["value"] for v in data["values"]] == [250, 400, -5]
    assert "error" in data["values"][2] and "error" not in data["values"][0]


def test_the_command_refuses_a_bad_option_or_values(tmp_path, capsys):
    source = tmp_path / "doc.txt"
    source.write_text(TEXT, encoding="utf-8")
    base = [str(source), "--entry", "mastra.chunk", "--out", str(tmp_path / "p.html")]
    assert page_command.main([*base, "--param", "strategy", "--values", "1,2"]) == 2
    assert "no numeric option 'strategy'" in capsys.readouterr().err
    assert page_command.main([*base, "--param", "maxSize", "--values", "9:1:1"]) == 2
    assert "--values" in capsys.readouterr().err
    assert not (tmp_path / "p.html").exists()


def test_b_that_fails_is_said_and_the_values_stand():
    document = Document(TEXT)
    plan = PagePlan(
        "agentos.ChunkingEngine",
        document,
        {"strategy": "fixed", "chunkOverlap": 20},
        "chunkSize",
        [300],
        "agentos.ChunkingEngine",
        {"strategy": "fixed", "chunkOverlap": 20, "chunkSize": 0},
    )
    run = page_values(plan, in_place)
    assert isinstance(run.values[0], ValueView)
    assert run.b is not None and run.b.boundaries is None and run.b.error.startswith("Hang")
    data = page_json(
        render_page(document, "agentos.ChunkingEngine", "chunkSize", run.values, b=run.b)
    )
    assert data["b"]["error"] == run.b.error
    assert "d" not in data["values"][0]  # nothing to compare with


def test_each_value_is_compared_with_b_as_the_app_compares():
    document = Document(TEXT)
    plan = PagePlan(
        "mastra.chunk",
        document,
        {"strategy": "recursive"},
        "maxSize",
        [250, 600],
        "mastra.chunk",
        {"strategy": "recursive", "maxSize": 400},
    )
    run = page_values(plan, in_place)
    data = page_data(document, "t", "mastra.chunk", "maxSize", run.values, b=run.b)
    b = api.spans("mastra.chunk", document, {"strategy": "recursive", "maxSize": 400})
    for index, value in enumerate([250, 600]):
        a = api.spans("mastra.chunk", document, {"strategy": "recursive", "maxSize": value})
        diff = compare_layouts(a, b)
        flat = data["values"][index]["d"]
        kinds = data["b"]["kinds"]
        changes = [
            (
                kinds[flat[i]],
                None if flat[i + 1] < 0 else flat[i + 1],
                None if flat[i + 2] < 0 else flat[i + 2],
            )
            for i in range(0, len(flat), 3)
        ]
        assert changes == [tuple(c) for c in diff.changes]
        assert data["strings"][data["values"][index]["ds"]] == diff.summary()


def test_the_tokenizer_the_window_shows_counts_the_sizes():
    document = Document("Tokenization differs between counters, naturally. " * 40)
    entry, options = "semantic-chunking.cramit", {}
    plan = PagePlan(entry, document, options, "maxTokenSize", [60], tokenizer="cl100k")
    (view,) = page_values(plan, in_place).values
    cl100k = api.spans(entry, document, {"maxTokenSize": 60}, tokenizer="cl100k")
    plain = api.spans(entry, document, {"maxTokenSize": 60})
    assert view.sizes == cl100k.sizes and cl100k.sizes != plain.sizes


def test_blocks_start_after_line_ends_and_never_between_cr_and_lf():
    text = "".join(f"line {i} " + "w" * (i % 7) + ("\r\n" if i % 3 else "\r") for i in range(400))
    starts = block_starts(text, 100)
    assert starts[0] == 0 and starts == sorted(set(starts)) and len(starts) > 20
    for start in starts[1:]:
        assert text[start - 1] in "\r\n", start  # after a line end
        assert text[start - 1 : start + 1] != "\r\n", start  # not inside a CRLF
        assert start - starts[starts.index(start) - 1] >= 100


def test_a_very_long_line_is_cut_in_blocks_after_a_space():
    words = "".join(f"word{i} " for i in range(40_000))  # 320 K code points, one line
    starts = block_starts(words)
    assert len(starts) > 100
    sizes = [b - a for a, b in zip(starts, starts[1:])]
    assert all(2000 <= size <= 4000 for size in sizes)
    assert all(words[start - 1] == " " for start in starts[1:])
    # with no space at all, at the size itself
    assert block_starts("x" * 9000) == [0, 2000, 4000, 6000, 8000]
    # a line end ahead within twice the size is waited for, as before
    assert block_starts("a" * 3500 + "\n" + "b" * 100) == [0, 3501]
