"""Deeply nested HTML: the walks have no recursion limit and give what the recursive
walks gave (recursive copies kept here as the reference)."""

import html as html_lib
import random

import chunkview
from chunkview.core.chunkers.mastra import html_parser as mastra_parser
from chunkview.core.chunkers.mastra.reference import html as mastra_html
from chunkview.core.chunkers.semantic_chunking import html_parser, reference, sentences
from chunkview.core.text.js import trim

TAGS = ["div", "p", "b", "ul", "li", "br", "h1", "h2", "span", "ol"]


def _random_html(rng: random.Random) -> str:
    out = []
    for _ in range(rng.randint(1, 40)):
        roll = rng.random()
        tag = rng.choice(TAGS)
        if roll < 0.35:
            out.append(f"<{tag}>")
        elif roll < 0.6:
            out.append(f"</{tag}>")
        elif roll < 0.65:
            out.append("<!-- c -->")
        else:
            out.append(rng.choice(["Hi. ", "a &amp; b", " x ", "Dr. Who", "\n", "end."]))
    return "".join(out)


# ---- the recursive walks as they were --------------------------------------------------
def _raw_text_recursive(node):
    return "".join(c.raw if not c.is_element else _raw_text_recursive(c) for c in node.children)


def _mastra_text_recursive(node):
    if not node.is_element:
        return html_lib.unescape(node.raw)
    text = html_lib.unescape(_raw_text_recursive(node))
    for child in node.children:
        child_text = _mastra_text_recursive(child)
        if child_text:
            text += " " + child_text
    return trim(text)


def _select_recursive(root, selector):
    checkers = [
        mastra_parser.checker(m)
        for m in mastra_parser.SELECTOR_PART_RE.finditer(selector)
        if m.group(0).strip()
    ]

    def explore(node, level):
        advanced = bool(node.tag) and level < len(checkers) and checkers[level](node)
        children = [c for c in node.children if c.is_element]
        if advanced:
            without = [n for c in children for n in explore(c, level)]
            if level + 1 == len(checkers):
                return [node, *without]
            return without + [n for c in children for n in explore(c, level + 1)]
        return [n for c in children for n in explore(c, level)]

    return explore(root, 0) if checkers else []


def test_walks_equal_the_recursive_ones_on_random_html():
    rng = random.Random(3)
    for _ in range(1500):
        source = _random_html(rng)
        root = html_parser.parse_document(source)
        new: list[str] = []
        sentences.cheerio_text_into(root, new)
        assert "".join(new) == reference.cheerio_text(root), source

        tree = mastra_parser.parse(source)
        assert tree.raw_text() == _raw_text_recursive(tree), source
        assert mastra_html.text_of(tree) == _mastra_text_recursive(tree), source
        for selector in ("div", "div p", "b", "ul li", "div div b"):
            assert mastra_parser.select(tree, selector) == _select_recursive(tree, selector)


def test_semantic_chunking_reads_a_thousand_nested_tags():
    documents = [{"document_name": "deep", "document_text": "<b>" * 1000 + "Hi."}]
    result = chunkview.run("semantic-chunking.sentenceit", documents, {})
    assert [r["text"] for r in result] == ["Hi."]


def test_mastra_html_reads_three_thousand_nested_tags():
    text = "<h1>Top</h1>" + "<div>" * 3000 + "Hi." + "</div>" * 3000
    chunks = chunkview.run(
        "mastra.chunk", text, {"strategy": "html", "headers": [["h1", "Header 1"]]}, doc="html"
    )
    assert len(chunks) == 1 and chunks[0]["metadata"]["Header 1"] == "Top"
    # each element's text, then each child's again: the library repeats nested text
    assert set(chunks[0]["text"].split()) == {"Hi."}
