"""chunkTurns: every rule of the seed, on hand-derived cases (spec/agentos.md §5.3)."""

import json

import pytest

import chunkview
from chunkview import ChunkerError
from chunkview.core.chunkers.agentos.turns_reference import chunk_turns

TURNS = [
    {"seq": 1, "itemId": "a", "text": "Hi there", "startMs": 0, "endMs": 900},
    {"seq": 2, "itemId": "a", "text": "Hello! How are you?", "startMs": 1000, "endMs": 2500},
    {"seq": 3, "itemId": "b", "text": "Fine, thanks.", "startMs": 2600, "endMs": 3400},
    {"seq": 4, "itemId": "b", "text": "Bye.", "startMs": 3500, "endMs": 3900},
]


def test_derived_example_a_overlap_fits():
    first, second = chunk_turns(TURNS, {"maxChars": 40, "overlapTurns": 1})
    assert first["text"] == "Hi there\nHello! How are you?"
    assert (first["firstSeq"], first["lastSeq"], first["itemIds"]) == (1, 2, ["a"])
    assert (first["startMs"], first["endMs"]) == (0, 2500)
    assert [(t["start"], t["end"]) for t in first["turns"]] == [(0, 8), (9, 28)]
    assert second["text"] == "Hello! How are you?\nFine, thanks.\nBye."
    assert (second["firstSeq"], second["lastSeq"], second["itemIds"]) == (2, 4, ["a", "b"])
    assert (second["startMs"], second["endMs"]) == (1000, 3900)
    assert [(t["start"], t["end"]) for t in second["turns"]] == [(0, 19), (20, 33), (34, 38)]


def test_derived_example_b_overlap_dropped_when_it_does_not_fit():
    passages = chunk_turns(TURNS, {"maxChars": 30, "overlapTurns": 1})
    assert [p["text"] for p in passages] == ["Hi there\nHello! How are you?", "Fine, thanks.\nBye."]


def test_a_turn_longer_than_max_chars_stands_alone_and_whole():
    long_turn = {"seq": 2, "itemId": "x", "text": "word " * 50, "startMs": 5, "endMs": 9}
    turns = [TURNS[0], long_turn, TURNS[2]]
    passages = chunk_turns(turns, {"maxChars": 30, "overlapTurns": 1})
    assert [p["text"] for p in passages] == ["Hi there", "word " * 50, "Fine, thanks."]


def test_overlap_zero_never_repeats():
    passages = chunk_turns(TURNS, {"maxChars": 25, "overlapTurns": 0})
    texts = "\n".join(p["text"] for p in passages)
    assert texts == "\n".join(t["text"] for t in TURNS)


def test_overlap_three_carries_up_to_three_that_fit():
    turns = [
        {"seq": i, "itemId": f"i{i}", "text": f"turn {i}", "startMs": i, "endMs": i}
        for i in range(1, 9)
    ]
    passages = chunk_turns(turns, {"maxChars": 27, "overlapTurns": 3})
    # "turn 1\nturn 2\nturn 3\nturn 4" is 27 units; each next passage opens with 3 turns
    assert passages[0]["text"] == "turn 1\nturn 2\nturn 3\nturn 4"
    assert passages[1]["text"].startswith("turn 2\nturn 3\nturn 4\nturn 5")
    assert passages[1]["firstSeq"] == 2
    assert passages[-1]["lastSeq"] == 8


def test_every_new_turn_appears_and_passages_only_start_for_new_turns():
    turns = [
        {"seq": i, "itemId": "s", "text": "x" * (i % 7 + 1), "startMs": 0, "endMs": 0}
        for i in range(40)
    ]
    passages = chunk_turns(turns, {"maxChars": 12, "overlapTurns": 2})
    last = -1
    for passage in passages:
        assert passage["lastSeq"] > last  # each passage brings at least one new turn
        last = passage["lastSeq"]
        assert len(passage["text"]) <= 12 or len(passage["turns"]) == 1
    assert last == 39


def test_empty_turns_are_left_out():
    turns = [
        TURNS[0],
        {"seq": 5, "itemId": "e", "text": "  ", "startMs": 1, "endMs": 2},
        {"seq": 6, "itemId": "e", "text": "", "startMs": 3, "endMs": 4},
        TURNS[3],
    ]
    passages = chunk_turns(turns, {"maxChars": 100})
    assert [p["text"] for p in passages] == ["Hi there\nBye."]
    assert chunk_turns([], {}) == []


def test_unsorted_seq_is_sorted():
    shuffled = [TURNS[2], TURNS[0], TURNS[3], TURNS[1]]
    assert chunk_turns(shuffled, {"maxChars": 40}) == chunk_turns(TURNS, {"maxChars": 40})


def test_defaults_pack_a_short_transcript_into_one_passage():
    (only,) = chunk_turns(TURNS)
    assert only["text"].count("\n") == 3


def test_entry_reads_json_and_jsonl_and_places_passages():
    jsonl = "\n".join(json.dumps(t) for t in TURNS)
    for text in (json.dumps(TURNS), jsonl):
        layout = chunkview.spans("agentos.chunkTurns", text, {"maxChars": 40}, doc="turns")
        shown = layout.document.text
        assert shown == "\n".join(t["text"] for t in TURNS)
        assert [(s.start, s.own_start, s.end) for s in layout.spans] == [
            (0, 0, 28),
            (9, 28, len(shown)),
        ]
        assert all(s.located == "exact" for s in layout.spans)
        assert layout.spans[1].metadata["itemIds"] == ["a", "b"]


def test_bad_transcript_is_a_clear_error():
    with pytest.raises(ChunkerError, match="not JSON"):
        chunkview.run("agentos.chunkTurns", "{not json", {}, doc="turns")


def test_overlap_turns_nan_and_infinities_give_what_up_to_means():
    """NaN or -Infinity carries no turn (a count compared with NaN is never reached);
    +Infinity carries as many as fit; none of them is a Python error."""
    document = json.dumps(TURNS)
    none = [
        p["text"]
        for p in chunkview.run("agentos.chunkTurns", document, {"maxChars": 40, "overlapTurns": 0})
    ]
    for value in (float("nan"), float("-inf")):
        got = chunkview.run("agentos.chunkTurns", document, {"maxChars": 40, "overlapTurns": value})
        assert [p["text"] for p in got] == none
    many = chunk_turns(TURNS, {"maxChars": 40, "overlapTurns": float("inf")})
    assert [p["text"] for p in many] == [
        p["text"] for p in chunk_turns(TURNS, {"maxChars": 40, "overlapTurns": 99})
    ]
    assert many[1]["text"].startswith("Hello! How are you?")
