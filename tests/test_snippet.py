"""The Search tab's snippet window (core/views/snippet.py): whole words, "…" where the
chunk goes on, the hit in the window, its cost the window's and not the chunk's."""

from __future__ import annotations

import regex

from chunkview.core.views.decorations import matching_words
from chunkview.core.views.snippet import ELLIPSIS, hit_snippet

WORD_CHAR = regex.compile(r"[\p{L}\p{N}\p{M}]")


def between_words(text: str, at: int) -> bool:
    return not (WORD_CHAR.match(text, at - 1) and WORD_CHAR.match(text, at)) or at == 0


def test_a_chunk_cut_inside_a_word_shows_from_the_next_word():
    text = "the overlapping chunker cut here and found the needle soon after"
    start = text.index("lapping")  # the chunk starts inside "overlapping"
    snippet = hit_snippet(text, start, len(text), text.index("needle"), "needle", 200)
    assert snippet.text == f"{ELLIPSIS}chunker cut here and found the needle soon after"
    assert snippet.hit_words() == ["needle"]


def test_a_chunk_ending_inside_a_word_ends_before_it():
    text = "needle in the middle of a sentence that goes on"
    end = text.index("goes") + 2
    snippet = hit_snippet(text, 0, end, 0, "needle", 200)
    assert snippet.text == f"needle in the middle of a sentence that{ELLIPSIS}"


def test_a_hit_in_the_word_the_chunk_starts_inside_is_shown_whole():
    text = "an applecart upset"
    start = text.index("lecart")
    snippet = hit_snippet(text, start, len(text), start, "appl", 200)
    assert snippet.hit_words() == ["applecart"]
    assert snippet.text == "applecart upset"


def test_the_window_is_centred_on_the_hit_and_cut_between_words():
    words = [f"w{i:03d}" for i in range(200)]
    text = " ".join([*words[:100], "needle", *words[100:]])
    at = text.index("needle")
    snippet = hit_snippet(text, 0, len(text), at, "needle", 41)
    shown = snippet.text
    assert shown.startswith(ELLIPSIS) and shown.endswith(ELLIPSIS)
    assert between_words(text, snippet.start) and between_words(text, snippet.end)
    assert snippet.end - snippet.start <= 41
    middle = shown.index("needle") + 3
    assert abs(middle - len(shown) / 2) <= 6, shown


def test_marks_are_the_editors_words_in_the_window():
    text = "Apples, an applecart; pineapple APPLE-pie and apple."
    snippet = hit_snippet(text, 0, len(text), 0, "apple", 200)
    expected = [text[a:b] for a, b in matching_words(text, "apple", 0, len(text))]
    assert snippet.hit_words() == expected == ["Apples", "applecart", "APPLE", "apple"]
    assert snippet.text == text


def test_white_space_runs_show_as_one_space():
    text = "one\n\n\ttwo   needle\r\nthree"
    snippet = hit_snippet(text, 0, len(text), text.index("needle"), "needle", 200)
    assert snippet.text == "one two needle three"


def test_text_without_spaces_is_cut_inside_its_one_long_word():
    text = "前文" * 200 + "。検索語" + "後文" * 200
    at = text.index("検索語")
    snippet = hit_snippet(text, 0, len(text), at, "検索語", 30)
    assert snippet.end - snippet.start <= 30
    assert snippet.text.startswith(ELLIPSIS) and snippet.text.endswith(ELLIPSIS)
    assert snippet.text[1:].startswith("検索語")  # cut after the full stop, the hit first


def test_a_long_url_is_cut_after_its_punctuation():
    text = "see https://img.shields.io/npm/dm/@redis/client.svg for the redis badge"
    at = text.index("redis")
    snippet = hit_snippet(text, 0, len(text), at, "redis", 16)
    assert snippet.hit_words()[0] == "redis"
    assert snippet.text[1] not in "./@", snippet.text  # no "….io"


def test_the_window_costs_its_width_not_the_chunk():
    text = ("word " * 200_000) + "needle " + ("word " * 200_000)
    snippet = hit_snippet(text, 0, len(text), text.index("needle"), "needle", 40)
    assert snippet.end - snippet.start <= 40
    assert snippet.hit_words() == ["needle"]
    assert snippet.text.startswith(ELLIPSIS) and snippet.text.endswith(ELLIPSIS)


def test_a_chunk_starting_inside_a_url_says_so():
    text = "see https://github.com/redis/node-redis/blob/master/LICENSE for it"
    start = text.index("/redis/node")  # the overlap began after ".com"
    snippet = hit_snippet(text, start, len(text), start + 1, "redis", 200)
    assert snippet.text == f"{ELLIPSIS}redis/node-redis/blob/master/LICENSE for it"
    assert snippet.hit_words() == ["redis", "redis"]


def test_a_hit_deep_in_a_word_longer_than_the_row_is_in_sight():
    # CJK text has no spaces: a clause is one long word, and search finds a hit inside it
    text = "前文" * 40 + "検索語" + "後文" * 40
    at = text.index("検索語")
    snippet = hit_snippet(text, 0, len(text), at, "検索語", 20)
    assert snippet.start <= at and at + len("検索語") <= snippet.end, snippet
    assert "検索語" in snippet.text
    assert snippet.end - snippet.start <= 20
    assert snippet.text.startswith(ELLIPSIS) and snippet.text.endswith(ELLIPSIS)
