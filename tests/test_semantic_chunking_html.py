"""HTML that html5lib 1.1 parses by the older spec and parse5 7.3 (cheerio, under
semantic-chunking) by today's; every expected value was produced by semantic-chunking
3.0.2 under node 20 (sentenceit)."""

import pytest

from chunkview.core.chunkers.semantic_chunking.sentences import split_sentences


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("<isindex>", []),  # no made-up "This is a searchable index." prompt
        ("><isindex>", [">"]),
        ("<math></br><noscript><i>", ["<i>"]),  # </br> leaves the MathML: noscript is raw
        ("<svg></br><iframe><details>", ["<details>"]),
        # a <dt> in a table row closes the foster-parented <p> and is put before the table too
        ("<table><th>h<tr><p><dt>a", ["ah"]),
        # <![CDATA[ at an integration point is a bogus comment; in other foreign content, text
        ("<svg><foreignObject><![CDATA[y", []),
        ("<math><mi><![CDATA[y", []),
        ("<svg><![CDATA[y", ["y"]),
        # </br> is a <br>: frameset-ok turns "not ok", the <frameset> is ignored
        ("</br><frameset>x", ["x"]),
        ("<p></br><frameset><![CDATA[c]]>b", ["b"]),
        # &#13; is a character to parse5, not white space: frameset-ok turns "not ok"
        ("&#13;<frameset>x", ["x"]),
        ("<th>&#13;<frameset>y", ["y"]),
        ("<table>a<tr><td>b</td></tr>&#13;c", ["a cb"]),  # put before the table
        # a MathML <html> as the current node at the end of a table (html5lib asserted)
        ("<table><math><image>x<html>", ["x"]),
        # </tfoot> with a <tr> in table scope closes the row: <style> is HTML, raw text
        ("<table><tr><math><annotation-xml></tfoot><style>x</body>v", ["x</body>v"]),
        # text under <mi> in a table goes in at once, not held back as table text
        ("<table><colgroup><svg><title><math><mi>x<mglyph><dialog><caption>xx<td>q", ["xxxq"]),
        # a run of NULs in foreign content, or in its CDATA, is one U+FFFD
        ("<svg>a\x00\x00b", ["a\ufffdb"]),
        ("<svg><![CDATA[a\x00\x00b\x00]\x00\ufffd]]>c", ["a\ufffdb\ufffd]\ufffd\ufffdc"]),
        # ... and the run goes on across "]]>" and "<![CDATA["
        ("<svg>\x00<![CDATA[\x00a\x00]]>\x00b", ["\ufffda\ufffdb"]),
    ],
)
def test_html_parsed_as_parse5_parses_it(text, expected):
    assert split_sentences(text) == expected


def test_parsing_twice_gives_the_same_sentences():
    text = "<p>a<search>b</search><pre>\nx</pre>"
    assert split_sentences.__wrapped__(text) == split_sentences.__wrapped__(text)


def test_newline_after_a_pre_put_before_a_table_is_dropped():
    # parse5's skipNextNewLine belongs to the parser: "i" and "e" meet with no space
    assert split_sentences("<table>i<pre>\ne") == ["ie"]
    assert split_sentences("a<pre>\n\nb</pre>") == ["a b"]  # one newline only


def test_one_parser_parses_many_documents_alike():
    # the parser is kept between documents: its patched phases must not pile up
    for _ in range(3):
        split_sentences.cache_clear()
        assert split_sentences("<svg></g>x</svg> <math></br><noscript><i>") == ["x <i>"]
