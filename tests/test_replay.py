"""The cascade replay's steps, from the core: each chunk as first gathered, split, merged
and overlapped, with the ranges of the text and the rule's numbers, read from what the run
recorded (no Qt)."""

from chunkview import api
from chunkview.core import registry
from chunkview.core.chunkers.entry import RunContext
from chunkview.core.model.document import Document
from chunkview.core.model.explain import Reason, Stage, combine
from chunkview.core.model.observer import RunNotes
from chunkview.core.model.spans import Span
from chunkview.core.views.replay import cascade_stages, stage_title


def chunked(entry_id: str, text: str, options: dict) -> list[Span]:
    entry = registry.get(entry_id)
    return entry.chunk(Document(text), options, RunContext(observer=RunNotes(places=False))).spans


def steps(spans: list[Span], index: int, text: str) -> list[tuple[str, str, str]]:
    return [(s.name, text[s.start : s.end], s.text) for s in cascade_stages(spans, index)]


SMART = (
    "Intro line.\n\nTiny.\n\n" + " ".join(f"word{i}" for i in range(20)) + "\n\nEnd para here ok.\n"
)
PARAGRAPH = " ".join(f"word{i}" for i in range(20)) + "\n\n"


def test_smartchunk_gathered_split_and_overlapped_in_order():
    spans = chunked("smartchunk", SMART, {"maxSize": 40, "minSize": 10})
    assert steps(spans, 3, SMART) == [
        (
            "gathered",
            PARAGRAPH,
            "first gathered: a paragraph of 131 bytes > maxSize 40: too large, it goes down "
            "the cascade",
        ),
        (
            "split",
            "word6 word7 word8 word9 word10 ",
            "split: down the cascade (paragraph → line → sentence → word), words packed into "
            "38 bytes ≤ maxSize 40, 7 bytes of them the overlap carried in front",
        ),
        (
            "overlapped",
            " word5 word6 word7 word8 word9 word10 ",
            "overlap: the last 3 word segments of the chunk before are repeated (7 bytes ≤ 20% "
            "of maxSize = 8)",
        ),
    ]
    overlapped = cascade_stages(spans, 3)[-1]
    assert SMART[slice(*overlapped.focus)] == " word5 "
    assert overlapped.focus == (spans[3].start, spans[3].own_start)


def test_smartchunk_a_paragraph_that_fits_has_one_step_and_a_merge_shows_what_joined():
    spans = chunked("smartchunk", SMART, {"maxSize": 40, "minSize": 10})
    assert steps(spans, 1, SMART) == [
        (
            "cut",
            "Tiny.\n\n",
            "new paragraph: at the first level every paragraph that fits is a chunk of its own "
            "(7 bytes ≤ maxSize 40)",
        )
    ]
    last = cascade_stages(spans, len(spans) - 1)
    assert [s.name for s in last] == ["gathered", "split", "merged"]
    merged = last[-1]
    assert merged.text == (
        "merged: at 1 byte it was under minSize 10, so it took in the next piece (together "
        "19 ≤ maxSize 40)"
    )
    assert SMART[merged.start : merged.end] == "\nEnd para here ok.\n"
    assert SMART[slice(*merged.focus)] == "End para here ok.\n"


AGENTOS = (
    "# Title\n\nShort intro.\n\n"
    + " ".join(f"Sentence number {i} is here." for i in range(12))
    + "\n\n## Next\n\nAnother paragraph that is long enough to stand.\n\nOk.\n"
)


def test_semantic_chunker_segment_split_merged_and_overlap():
    options = {"targetSize": 120, "maxSize": 200, "minSize": 10, "overlap": 10}
    spans = chunked("agentos.SemanticChunker", AGENTOS, options)
    found = steps(spans, 1, AGENTOS)
    assert [name for name, _, _ in found] == ["gathered", "split", "overlapped"]
    assert found[0][1].startswith("# Title\n\nShort intro.\n\nSentence number 0")
    assert found[0][2] == (
        "first gathered: the line pass took a heading segment of 349 units > maxSize 200: "
        "too large, split again"
    )
    assert found[1][1] == "".join(f"Sentence number {i} is here. " for i in range(4)).rstrip()
    assert found[1][2] == (
        "split again: a segment of 349 units > maxSize 200, sentences packed up to targetSize "
        "120: this sentence piece is 107 units"
    )
    assert found[2][2] == "overlap: the last 10 units of chunk 0 repeated in front (overlap 10)"


def test_semantic_chunker_pieces_merged_under_min_size():
    text = (
        "# Title\n\nIntro paragraph that is long enough.\n\nTiny.\n\n## Next\n\n"
        "Another paragraph that is long enough to stand.\n\nOk.\n"
    )
    options = {"targetSize": 20, "maxSize": 200, "minSize": 10, "overlap": 0}
    spans = chunked("agentos.SemanticChunker", text, options)
    found = steps(spans, 0, text)
    assert found == [
        (
            "gathered",
            "# Title\n\nIntro paragraph that is long enough.\n",
            "first gathered: the line pass took a heading segment of 46 units ≤ maxSize 200: "
            "kept as it is",
        ),
        (
            "merged",
            "# Title\n\nIntro paragraph that is long enough.\n\nTiny.\n\n",
            'merged: the next piece (5 units trimmed) < minSize 10 joined it, each after "\\n\\n"',
        ),
    ]
    merged = cascade_stages(spans, 0)[-1]
    assert text[slice(*merged.focus)] == "Tiny.\n\n"


def test_a_port_without_stages_replays_its_cut_then_its_overlap():
    text = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda"
    options = {"strategy": "recursive", "maxSize": 30, "overlap": 12}
    spans = chunked("mastra.chunk", text, options)
    stages = cascade_stages(spans, 1)
    assert [(s.name, stage_title(s)) for s in stages] == [
        ("cut", "Cut"),
        ("overlapped", "Overlapped"),
    ]
    assert stages[0].text.startswith('merging pieces between " " stopped: length ')
    assert stages[1].text.startswith("overlap: the last ")
    assert (stages[1].start, stages[1].end) == (spans[1].start, spans[1].end)


def test_no_reason_no_steps_and_combine_keeps_stages():
    spans = [Span(0, 0, 5, 0, "k", "aaaaa")]
    assert cascade_stages(spans, 0) == []
    assert cascade_stages(spans, 3) == []
    stage = Stage("gathered", 0, 5, "first gathered")
    joined = combine([Reason(0, "start", "the start"), Reason(0, "", "", (stage,))])
    assert joined == Reason(0, "start", "the start", (stage,))


def test_spans_explain_json_carries_the_recorded_stages():
    layout = api.spans("smartchunk", SMART, {"maxSize": 40, "minSize": 10}, explain=True)
    span = layout.to_json()["spans"][3]
    assert [s["stage"] for s in span["reason"]["stages"]] == ["gathered", "split"]
    split = span["reason"]["stages"][1]
    assert SMART[split["start"] : split["end"]] == "word6 word7 word8 word9 word10 "
    assert "focus" not in split


def test_semantic_markdown_section_gathered_then_sections_merged():
    text = (
        "Intro text here.\n\n# Alpha\nalpha body one two three.\n\n## Beta\nbeta body.\n\n"
        "### Gamma\ngamma.\n\n# Delta\n" + "delta words " * 30
    )
    options = {"strategy": "semantic-markdown", "joinThreshold": 20}
    spans = chunked("mastra.chunk", text, options)
    assert steps(spans, 1, text) == [
        (
            "gathered",
            "# Alpha\nalpha body one two three.\n\n",
            "first gathered: the header “# Alpha” (level 1) starts a section of 6 tokens",
        ),
        (
            "merged",
            "# Alpha\nalpha body one two three.\n\n## Beta\nbeta body.\n\n### Gamma\ngamma.\n\n",
            "merged: “### Gamma” joined “## Beta”, 3 + 2 = 5 tokens < joinThreshold 20; merged: "
            "“## Beta” joined “# Alpha”, 6 + 8 = 14 tokens < joinThreshold 20",
        ),
    ]
    merged = cascade_stages(spans, 1)[-1]
    assert text[slice(*merged.focus)] == "## Beta\nbeta body.\n\n### Gamma\ngamma.\n\n"
    assert [s.name for s in cascade_stages(spans, 2)] == ["cut"]  # a section kept as it was


def test_reasons_cross_a_process_as_plain_tuples_and_their_stages_come_back():
    import pickle

    spans = chunked("smartchunk", SMART, {"maxSize": 40, "minSize": 10})
    sent = pickle.loads(pickle.dumps(spans, protocol=pickle.HIGHEST_PROTOCOL))
    assert [s.reason for s in sent] == [s.reason for s in spans]
    assert type(sent[3].reason) is Reason and type(sent[3].reason.stages[0]) is tuple
    assert cascade_stages(sent, 3) == cascade_stages(spans, 3)
    assert all(type(s) is Stage for s in cascade_stages(sent, 3))
