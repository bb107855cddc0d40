import unicodedata

import pytest

from chunkview.core.text.lexical import lexical_tokens, snippet_around


@pytest.mark.parametrize(
    "text, tokens",
    [
        ("Q3's budget: 1,200 units", ["q3", "s", "budget", "1", "200", "units"]),
        ("Re\u0301sume\u0301", ["résumé"]),
        ("Résumé", ["résumé"]),
        ("Hello, WORLD! 42nd-street", ["hello", "world", "42nd", "street"]),
        ("snake_case and kebab-case", ["snake", "case", "and", "kebab", "case"]),
        ("don't", ["don", "t"]),
        ("ÉCOLE", ["école"]),
        ("東京は2024年に", ["東京は2024年に"]),
        ("👍 ok 😀fine", ["ok", "fine"]),
        ("\u0301abc", ["abc"]),
        ("İstanbul", ["i\u0307stanbul"]),
        ("", []),
    ],
)
def test_lexical_tokens(text, tokens):
    assert lexical_tokens(text) == tokens


def test_composed_and_decomposed_give_the_same_tokens():
    composed = "Ça déjà vu, naïve façade"
    decomposed = unicodedata.normalize("NFD", composed)
    assert decomposed != composed
    assert lexical_tokens(decomposed) == lexical_tokens(composed)


def test_seed_examples():
    text = "The refund goes back to the card that paid."
    miss = snippet_around(text, lexical_tokens("refunds"))
    assert (miss.at, miss.text) == (-1, text)
    hit = snippet_around(text, lexical_tokens("refund"))
    assert (hit.at, hit.text) == (4, text)


@pytest.mark.parametrize(
    "text, words, kwargs, at, snippet",
    [
        ("aaaa bbbb cccc dddd eeee", ["dd"], {"before": 6, "after": 4}, 15, "cccc dddd"),
        ("one  two\n\nthree four", ["thr"], {}, 10, "one two three four"),
        ("東京タワーは高い", ["東京"], {}, 0, "東京タワーは高い"),
        ("東京タワーは高い", ["タワー"], {}, -1, "東京タワーは高い"),
        ("word " * 40, ["zzz"], {}, -1, " ".join(["word"] * 25)),
        ("", [], {}, -1, ""),
        ("no words match here", [], {}, -1, "no words match here"),
    ],
)
def test_snippet_examples(text, words, kwargs, at, snippet):
    result = snippet_around(text, words, **kwargs)
    assert (result.at, result.text) == (at, snippet)


def test_prefix_match_picks_the_first_word():
    assert snippet_around("Refunding is slow; refund me", lexical_tokens("refund")).at == 0


def test_at_counts_in_the_text_as_given():
    text = "cafe\u0301 and the Cafe\u0301 again"
    assert snippet_around(text, ["and"]).at == 6
    assert snippet_around("😀 emoji then word", ["word"]).at == 13


def test_decomposed_query_matches_composed_text():
    assert snippet_around("un résumé court", lexical_tokens("re\u0301sume\u0301")).at == 3


def test_long_text_window():
    text = " ".join(f"w{i}" for i in range(200))
    result = snippet_around(text, ["w100"])
    assert result.at == text.index("w100 ")
    assert result.text.startswith("w") and "w100" in result.text
    assert len(result.text) <= 80 + 120 + 10
