"""Regressions of mastra found against the original (issue 16); every expected value
below was produced by @mastra/rag 1.3.6 under node 20."""

import pytest

import chunkview
from chunkview import ChunkerError
from chunkview.core.chunkers.mastra.entry import MastraChunkEntry
from chunkview.core.text.jsregex import compile_js, js_split


def run(text: str, options: dict):
    try:
        return chunkview.run("mastra.chunk", text, options)
    except ChunkerError as error:
        return error.to_json()


def texts(result) -> list[str]:
    return [chunk["text"] for chunk in result]


REGEX = {"strategy": "recursive", "isSeparatorRegex": True}


@pytest.mark.parametrize(
    ("text", "separators", "expected"),
    [
        ("ap q\nr", ["\\p", "\\cJ"], ["a\\p q\nr"]),  # \p is "p" without the u flag
        ("ý\n", ["\\b"], ["ý"]),  # \b is ASCII: no boundary around ý
        ("a\nb", ["\\cJ"], ["a\\cJb"]),  # the joiner is the source text
    ],
)
def test_js_regex_escapes(text, separators, expected):
    assert texts(run(text, {**REGEX, "separators": separators})) == expected


@pytest.mark.parametrize(
    ("source", "text", "expected"),
    [
        ("\\p", "apb", ["a", "b"]),
        ("\\cJ", "a\nb", ["a", "b"]),
        ("[^]", "ab", ["", "", ""]),
        ("[]", "ab", ["ab"]),
        ("(?<d>\\.)", "a.b", ["a", ".", "b"]),
        ("\\b", "ýa b", ["ý", "a", " ", "b"]),
        ("\\w", "éa", ["é", ""]),
        ("\\d", "٣1", ["٣", ""]),
        ("a{,2}", "a{,2}b", ["", "b"]),
        ("\\u{2}", "uu-", ["", "-"]),
        ("(a)|b", "xbyaz", ["x", None, "y", "a", "z"]),
        ("(a)|\\1b", "xb", ["x", None, ""]),  # a backreference to nothing matches ""
        ("[\\w-]", "a-!", ["", "", "!"]),
        ("\\x4", "x4", ["", ""]),
        ("\\8", "8", ["", ""]),
    ],
)
def test_js_split_matches_v8(source, text, expected):
    assert js_split(compile_js(source), text) == expected


@pytest.mark.parametrize("source", ["a++", "(?i)a", "(?P<x>a)", "[z-a]", "(", "a{2,1}", "\\"])
def test_what_v8_refuses_is_a_syntax_error(source):
    result = run("abc", {"strategy": "character", "separator": source, "isSeparatorRegex": True})
    assert result["error"] == "SyntaxError"


def test_capture_group_without_match_reads_length_of_undefined():
    result = run("b", {**REGEX, "separators": ["(a)|b"]})
    assert result == {
        "error": "TypeError",
        "message": "Cannot read properties of undefined (reading 'length')",
    }


def test_capture_group_without_match_keep_end_spells_undefined():
    assert texts(run("b", {**REGEX, "separators": ["(a)|b"], "keepSeparator": "end"})) == [
        "bundefined"
    ]


def test_undefined_pieces_with_other_length_functions():
    utf8 = {"$fn": "utf8"}
    options = {"strategy": "character", "separator": "(a)|b", "isSeparatorRegex": True}
    assert texts(run("xb yb", {**options, "lengthFunction": utf8})) == ["x", "", " y", ""]
    assert run("xb yb", {**options, "lengthFunction": utf8, "addStartIndex": True})["error"] == (
        "TypeError"
    )
    assert texts(run("xb yb", {**REGEX, "separators": ["(a)|b"], "lengthFunction": utf8})) == [
        "x(a)|b(a)|b y(a)|b"
    ]
    result = run(
        "xb yb", {**REGEX, "separators": ["(a)|b"], "lengthFunction": {"$fn": "wordpunct"}}
    )
    assert result["message"] == "Cannot read properties of undefined (reading 'match')"


def test_sentence_white_space_ender_trims_before_the_last_word():
    options = {"strategy": "sentence", "maxSize": 100, "sentenceEnders": ["\n"]}
    assert texts(run("is\n\nA", options)) == ["is\n\nA"]


@pytest.mark.parametrize("strategy", ["token", "semantic-markdown"])
def test_encoding_is_loaded_before_the_overlap_check(strategy):
    result = run("x", {"strategy": strategy, "maxSize": 1, "modelName": "llama-3"})
    assert result["message"].startswith("Could not load tiktoken encoding")


def test_cl100k_length_refuses_special_tokens_like_the_copied_js():
    result = run("<|endofprompt|> ", {"strategy": "recursive", "lengthFunction": {"$fn": "cl100k"}})
    assert result == {
        "error": "Error",
        "message": "The text contains a special token that is not allowed: <|endofprompt|>",
    }
    code = MastraChunkEntry().code({"strategy": "recursive", "lengthFunction": {"$fn": "cl100k"}})
    assert "import { encodingForModel } from 'js-tiktoken';" in code
    assert "encodingForModel('gpt-4')" in code


def test_recursive_without_separators_joins_units_with_commas():
    assert texts(run("o#No\nr", {"strategy": "recursive", "separators": []})) == ["o,#,N,o,\n,r"]
    options = {"strategy": "recursive", "separators": [], "keepSeparator": True}
    assert texts(run("o#No\nr", {**options, "maxSize": 3, "overlap": 1})) == ["o#N", "No", "r"]


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("&#1;x", "\x01x"),  # controls stay (html.unescape drops them)
        ("&#xFFFE;&#xFDD0;", "\ufffe\ufdd0"),  # so do noncharacters
        ("&#x10FFFF;", "\ufffd"),  # from 0x10FFFF up: U+FFFD
        ("&#xD800;", "\ud800"),  # a lone surrogate half, not U+FFFD
        ("&#128;&#0;&#13;", "\u20ac\ufffd\r"),  # the windows-1252 table both share
        ("&amp &copy2024 &notit; &#65", "& ©2024 ¬it; A"),
    ],
)
def test_html_entities_decode_as_html_entities_does(raw, expected):
    from chunkview.core.chunkers.mastra.html_parser import decode

    assert decode(raw) == expected


def test_json_top_level_root_key_pieces_are_bare_strings():
    # createChunk unwraps a path that starts with "root": a top-level key "root" too
    text = '{"root": "word word word word word word word word word", "b": 1}'
    result = run(text, {"strategy": "json", "maxSize": 40})
    assert texts(result) == [
        '"word word word word "',
        '"word word word word "',
        '"word"',
        '{"b":1}',
    ]


def test_markdown_blank_last_line_is_no_header_for_an_empty_marker():
    # aggregation glues a header line to its body only when the last line is not blank:
    # `lastLine ? headers.some(startsWith) : false`, so "" as a marker does not glue it
    options = {
        "strategy": "markdown",
        "headers": [["", "blank"], ["#", "h"]],
        "stripHeaders": False,
    }
    text = "\n\n\n# \n## \n###\nx\n\n\n"
    result = chunkview.run("mastra.chunk", text, options, doc="markdown", metadata={"s": "m"})
    assert result == [
        {"text": "  \n  \n", "metadata": {"s": "m", "blank": ""}},
        {"text": "#   \n## \n###\nx  \n", "metadata": {"s": "m", "blank": "", "h": ""}},
        {"text": "  \n", "metadata": {"s": "m", "blank": ""}},
    ]


def test_markdown_metadata_compares_as_js_objects_with_integer_like_keys():
    # JSON.stringify lists integer-like keys first: {"2":"A","1":"B"} equals {"1":"B","2":"A"}
    options = {"strategy": "markdown", "headers": [["#", "2"], ["##", "1"]], "stripHeaders": False}
    result = chunkview.run("mastra.chunk", "## B\n# A\n## B\nx\ny", options, doc="markdown")
    assert result == [{"text": "## B  \n# A  \n## B  \nx\ny", "metadata": {"1": "B", "2": "A"}}]
    assert list(result[0]["metadata"]) == ["1", "2"]


@pytest.mark.parametrize(
    ("metadata", "expected"),
    [
        ({"source": "s", "n": 1}, {"n": 1, "xpath": "/h1[1]"}),  # undefined: key gone
        ({"source": "s", "Title": None}, {"source": None, "Title": None, "xpath": "/h1[1]"}),
    ],
)
def test_html_title_placeholder_overrides_the_documents_own_key(metadata, expected):
    # {...docMeta, ...chunkMeta} after "#TITLE#" became docMeta.Title
    text = "<h1>#TITLE#</h1><p>x</p>"
    for options in (
        {"headers": [["h1", "source"]]},
        {"sections": [["h1", "source"]], "overlap": 0},
    ):
        result = chunkview.run("mastra.chunk", text, options, doc="html", metadata=metadata)
        assert result[0]["metadata"] == expected


@pytest.mark.parametrize(
    ("metadata", "expected"),
    [
        (["a", "b"], {"0": "a", "1": "b"}),  # {...array}: its index keys
        ("é😀", {"0": "é", "1": "\ud83d", "2": "\ude00"}),  # {...string}: one key a unit
        (5, {}),
        (True, {}),
        (None, {}),
    ],
)
def test_document_metadata_is_spread_as_js_does(metadata, expected):
    options = {"strategy": "sentence", "maxSize": 40}
    result = chunkview.run("mastra.chunk", "Hello world. Foo bar.", options, metadata=metadata)
    assert [chunk["metadata"] for chunk in result] == [expected]


def test_sentence_word_fallback_measures_the_piece_with_the_word_first():
    # cl100k counts "a DAMAGES" as 2 tokens and "DAMAGES" alone as 3: with maxSize 2 the
    # word joins the piece, as splitSentenceIntoWords tests the joined piece first
    options = {"strategy": "sentence", "maxSize": 2, "lengthFunction": {"$fn": "cl100k"}}
    assert texts(run("a DAMAGES b c", options)) == ["a DAMAGES", "b c"]


@pytest.mark.parametrize(
    ("disallowed", "expected"),
    [
        (["cat", "ca"], "The text contains a special token that is not allowed: cat"),
        (["ca", "cat"], "The text contains a special token that is not allowed: ca"),
        (["zz", "", "cat"], "The text contains a special token that is not allowed: "),
    ],
)
def test_disallowed_tokens_are_tried_in_their_sets_order(disallowed, expected):
    # js-tiktoken joins the Set into one alternation: at one place the earlier token wins
    options = {"strategy": "token", "maxSize": 3, "overlap": 0}
    result = run("the cat", {**options, "disallowedSpecial": {"$set": disallowed}})
    assert result == {"error": "Error", "message": expected}


@pytest.mark.parametrize(
    ("member", "message"),
    [
        (1, "str.replace is not a function"),
        (None, "Cannot read properties of null (reading 'replace')"),
        ([1], "str.replace is not a function"),
    ],
)
def test_disallowed_set_member_that_is_no_string_throws_as_escape_regex_does(member, message):
    options = {"strategy": "token", "maxSize": 3, "overlap": 0}
    result = run("a b", {**options, "disallowedSpecial": {"$set": ["x", member]}})
    assert result == {"error": "TypeError", "message": message}
    allowed = run("a b", {**options, "allowedSpecial": {"$set": [member]}})
    assert texts(allowed) == ["a b"]  # an allowed value that is no string allows nothing


@pytest.mark.parametrize(
    ("strategy", "expected"),
    [
        (["recursive"], ["a b", "c"]),  # validationSchemas[["recursive"]]: key "recursive"
        (True, {"error": "Error", "message": "Unknown chunking strategy: true"}),
        ({"a": 1}, {"error": "Error", "message": "Unknown chunking strategy: [object Object]"}),
        ("toString", {"error": "TypeError", "message": "schema.safeParse is not a function"}),
        ("__proto__", {"error": "TypeError", "message": "schema.safeParse is not a function"}),
    ],
)
def test_strategy_is_looked_up_as_a_js_property_key(strategy, expected):
    result = run("a b c", {"strategy": strategy, "maxSize": 4, "overlap": 0})
    assert (texts(result) if isinstance(result, list) else result) == expected


def test_falsy_language_and_extract_are_not_set():
    # `if (options?.language)` and `if (extract)`: "" and false change nothing
    options = {"maxSize": 4, "overlap": 0}
    plain = texts(run("a b c", options))
    assert texts(run("a b c", {**options, "language": ""})) == plain == ["a b", "c"]
    assert texts(run("a b c", {**options, "extract": False})) == plain
    assert texts(run("a b c", {**options, "extract": 0})) == plain


@pytest.mark.parametrize("selector", ["#", ".", "[", ":first-child", "1h", "é"])
def test_html_selector_starting_with_no_simple_selector_is_a_hang(selector):
    # node-html-better-parser's Matcher: exec finds an empty match at 0 and loops there
    text = "<h1>T</h1><p>x</p>"
    for options in ({"headers": [["h1", "a"], [selector, "b"]]}, {"sections": [[selector, "b"]]}):
        result = run(text, {**options, "strategy": "html", "overlap": 0})
        assert result["error"] == "Hang" and selector in result["message"]
