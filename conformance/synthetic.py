"""Seeded synthetic documents for the mastra cases: the shapes real files take that slices
of the corpus rarely give. Markdown with deep, odd and fenced headers; prose full of
abbreviations and enders; JSON with nested arrays, escapes, big numbers, integer-like and
repeated keys; small HTML trees; C and TypeScript for the language presets; LaTeX."""

from __future__ import annotations

import json
import random

WORDS = (
    "alpha beta gamma delta chunk split token size overlap header section value item "
    "über café naïve 東京 données ёлка"
).split()
ABBREVIATIONS = ["Dr.", "Mr.", "Mrs.", "Prof.", "U.S.", "e.g.", "i.e.", "a.m.", "p.m.", "etc."]
ENDERS = [". ", "! ", "? ", ".\n", "。", "！", "… ", "; ", ".  ", ".\t", "?\n\n"]
ODD = ["😀", "👍🏽", "e\u0301", "\u00a0", "\u2028", "\t", "\ufeff", "中文", "\u200b", "«", "\u3000"]


def synthetic(rng: random.Random, kind: str) -> str:
    return {
        "markdown": _markdown,
        "prose": _prose,
        "json": _json,
        "html": _html,
        "code": _code,
        "latex": _latex,
    }[kind](rng)


# ---- prose and markdown --------------------------------------------------------------------
def _word(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.05:
        return rng.choice(ODD)
    if roll < 0.08:
        return rng.choice(WORDS) * rng.randint(5, 40)  # a very long word
    if roll < 0.12:
        return str(rng.choice([1, 3, 42, 2024, 10**6]))
    return rng.choice(WORDS)


def _sentence(rng: random.Random) -> str:
    words = [_word(rng) for _ in range(rng.randint(1, 14))]
    if rng.random() < 0.3:
        words.insert(rng.randrange(len(words) + 1), rng.choice(ABBREVIATIONS))
    text = " ".join(words)
    return text[:1].upper() + text[1:] + rng.choice(ENDERS)


def _prose(rng: random.Random) -> str:
    paragraphs = []
    for _ in range(rng.randint(1, 8)):
        sentences = "".join(_sentence(rng) for _ in range(rng.randint(1, 8)))
        paragraphs.append(sentences.rstrip(" ") if rng.random() < 0.7 else sentences)
    return _line_ends(rng, rng.choice(["\n\n", "\n", "\n\n\n", " "]).join(paragraphs))


def _header(rng: random.Random) -> str:
    level = rng.choice([1, 1, 2, 2, 2, 3, 3, 4, 5, 6, 7])
    gap = rng.choice([" ", " ", " ", "  ", "\t", ""])
    title = " ".join(_word(rng) for _ in range(rng.randint(0, 5)))
    indent = rng.choice(["", "", "", "", " ", "   "])
    return indent + "#" * level + gap + title + rng.choice(["", "", " ", " #"])


def _fence(rng: random.Random) -> str:
    opening = rng.choice(["```", "```", "~~~", "````", "```js", "~~~python", "``` x ```"])
    body = rng.choice(["# not a header", "## inside\ncode();", "x = 1\n\n\ny = 2", "```"])
    closing = rng.choice([opening[:3], opening[:3], "````", "", "~~~"])
    return f"{opening}\n{body}\n{closing}".rstrip("\n")


def _markdown(rng: random.Random) -> str:
    blocks = []
    for _ in range(rng.randint(1, 14)):
        roll = rng.random()
        if roll < 0.4:
            blocks.append(_header(rng))
        elif roll < 0.5:
            blocks.append(_fence(rng))
        elif roll < 0.55:
            blocks.append(rng.choice(["***", "---", "___", "-----", "* * *"]))
        elif roll < 0.6:
            blocks.append("| a | b |\n|---|---|\n| 1 | 2. Two |")
        elif roll < 0.67:
            blocks.append("\n".join(f"- {_sentence(rng).strip()}" for _ in range(3)))
        else:
            blocks.append("".join(_sentence(rng) for _ in range(rng.randint(1, 5))).strip())
    text = "".join(block + rng.choice(["\n", "\n\n", "\n\n", "\n\n\n"]) for block in blocks)
    if rng.random() < 0.3:
        text = text.rstrip("\n")
    if rng.random() < 0.15:
        text = "\n" + text
    return _line_ends(rng, text)


def _line_ends(rng: random.Random, text: str) -> str:
    roll = rng.random()
    if roll < 0.12:
        return text.replace("\n", "\r\n")
    if roll < 0.15:
        return text.replace("\n", " \n")
    return text


# ---- JSON ----------------------------------------------------------------------------------
class _Raw(str):
    """A JSON number written as it stands in the text."""


NUMBERS = [
    "0",
    "-0",
    "1.0",
    "1e21",
    "1E+2",
    "1.5e-7",
    "0.000001",
    "12345678901234567890",
    "9007199254740993",
    "-1.25",
    "3.14159",
    "1e400",
    "5e-324",
    "100",
    "0.1",
]
STRINGS = [
    "",
    " ",
    "café",
    "😀 emoji",
    "\\u00e9 escaped",
    "tab\there",
    "line\nbreak",
    "\u2028sep",
    'quote " and \\ slash',
    "東京タワー",
    "e\u0301",
]
KEYS = ["id", "name", "text", "items", "0", "1", "10", "2", "01", "-1", "", "a b", "ключ", "é"]


def _json_value(rng: random.Random, depth: int) -> object:
    roll = rng.random()
    if depth > 5 or roll < 0.45:
        pick = rng.random()
        if pick < 0.3:
            return _Raw(rng.choice(NUMBERS))
        if pick < 0.4:
            return rng.choice([True, False, None])
        if pick < 0.6:
            return rng.choice(STRINGS)
        if pick < 0.7:  # a long string: split at spaces, or with none to split at
            glue = rng.choice([" ", "", "-"])
            return glue.join(_word(rng) for _ in range(rng.randint(10, 120)))
        return " ".join(_word(rng) for _ in range(rng.randint(1, 6)))
    if roll < 0.72:
        return [_json_value(rng, depth + 1) for _ in range(rng.randint(0, 8))]
    pairs = [(rng.choice(KEYS), _json_value(rng, depth + 1)) for _ in range(rng.randint(0, 7))]
    return ("{pairs}", pairs)  # repeated keys stay: the last value wins in place


def _dump(value: object, indent: str | None, ascii_only: bool, level: int = 0) -> str:
    pad = "" if indent is None else "\n" + indent * (level + 1)
    end = "" if indent is None else "\n" + indent * level
    colon = ":" if indent is None else ": "
    if isinstance(value, _Raw):
        return str(value)
    if isinstance(value, list):
        if not value:
            return "[]"
        items = [_dump(v, indent, ascii_only, level + 1) for v in value]
        return "[" + pad + ("," + pad).join(items) + end + "]"
    if isinstance(value, tuple):
        pairs = value[1]
        if not pairs:
            return "{}"
        items = [
            json.dumps(k, ensure_ascii=ascii_only) + colon + _dump(v, indent, ascii_only, level + 1)
            for k, v in pairs
        ]
        return "{" + pad + ("," + pad).join(items) + end + "}"
    return json.dumps(value, ensure_ascii=ascii_only)


def _json(rng: random.Random) -> str:
    if rng.random() < 0.06:  # nesting past the original's depth limit of 100
        deep: object = _Raw("1")
        for _ in range(rng.randint(95, 110)):
            deep = ("{pairs}", [(rng.choice(["a", "0", "k"]), deep), ("n", _Raw("1"))])
        value: object = deep
    elif rng.random() < 0.2:
        value = [_json_value(rng, 1) for _ in range(rng.randint(0, 12))]
    else:
        pairs = [(rng.choice(KEYS), _json_value(rng, 1)) for _ in range(rng.randint(1, 10))]
        value = ("{pairs}", pairs)
    indent = rng.choice([None, None, "  ", "\t", "    "])
    return _dump(value, indent, rng.random() < 0.3)


# ---- HTML ----------------------------------------------------------------------------------
BLOCKS = ["div", "section", "article", "main", "header", "footer", "nav", "aside", "ul", "ol"]
HEADINGS = ["h1", "h2", "h2", "h3", "h4", "H2", "h1"]
INLINE = ["span", "a", "b", "i", "code", "em", "strong"]
VOID = ["br", "hr", "img", "input", "meta"]
SKIPPED = ["pre", "script", "style", "noscript"]
ENTITY = ["&amp;", "&lt;b&gt;", "&copy;", "&nbsp;", "&#233;", "&#x1F600;", "&hellip;", "&amp"]


def _attrs(rng: random.Random) -> str:
    out = ""
    if rng.random() < 0.25:
        out += f' id="{rng.choice(["main", "top", "x"])}"'
    if rng.random() < 0.3:
        out += f' class="{rng.choice(["x", "wrap", "x wrap", "note"])}"'
    if rng.random() < 0.1:
        out += rng.choice([" data-x='1'", " hidden", ' title="a > b"'])
    return out


def _html_text(rng: random.Random) -> str:
    text = _sentence(rng).strip()
    if rng.random() < 0.3:
        at = rng.randint(0, len(text))
        text = text[:at] + rng.choice(ENTITY) + text[at:]
    return text


def _element(rng: random.Random, depth: int) -> str:
    roll = rng.random()
    if depth > 4 or roll < 0.3:
        return _html_text(rng)
    if roll < 0.5:
        tag = rng.choice(HEADINGS)
        return f"<{tag}{_attrs(rng)}>{_html_text(rng)}</{tag}>"
    if roll < 0.58:
        return f"<{rng.choice(VOID)}{rng.choice(['', '/', ' /'])}>"
    if roll < 0.63:
        tag = rng.choice(SKIPPED)
        return f"<{tag}>\n# kept? {_html_text(rng)}\n</{tag}>"
    if roll < 0.67:
        return rng.choice(["<!-- note -->", "<!DOCTYPE html>", "<p>", "</div>", "<li>loose"])
    tag = rng.choice(BLOCKS + INLINE + ["p", "li", "table", "tr", "td"])
    inner = "".join(
        _element(rng, depth + 1) + rng.choice(["", "\n", " "]) for _ in range(rng.randint(0, 5))
    )
    close = "" if rng.random() < 0.08 else f"</{tag}>"
    return f"<{tag}{_attrs(rng)}>{inner}{close}"


SOUP = [
    "<h1>",
    "</h1>",
    "<h2 class=x>",
    "</H2>",
    "<H2>",
    "<h3/>",
    "<p>",
    "</p>",
    "<li>",
    "<ul>",
    "</ul>",
    "<div id='main'>",
    "</div>",
    "<b>",
    "</b>",
    "<td>",
    "<tr>",
    "<br>",
    "</br>",
    "<pre>",
    "</pre>",
    "<section>",
    "</section>",
    '<a href="x>y">',
    "</a>",
    "<!-- c -->",
    "<!-- open",
    "a < b",
    "<3",
    "</ >",
    "<x-y:z.w>",
    "</x-y:z.w>",
    "<h1\n>",
    "<p\tclass='note'>",
    "&amp;",
    "&lt;h1&gt;",
]


def _soup(rng: random.Random) -> str:
    """Tags in any order, unclosed and stray: the parser's repair paths."""
    parts = []
    for _ in range(rng.randint(2, 40)):
        parts.append(rng.choice(SOUP) if rng.random() < 0.55 else _html_text(rng))
    return rng.choice(["", "\n", " "]).join(parts)


def _html(rng: random.Random) -> str:
    if rng.random() < 0.3:
        return _soup(rng)
    body = "\n".join(_element(rng, 0) for _ in range(rng.randint(1, 8)))
    if rng.random() < 0.5:
        body = f"<html><head><title>{_html_text(rng)}</title></head><body>\n{body}\n</body></html>"
    return body


# ---- code and LaTeX ------------------------------------------------------------------------
CODE = [
    "class Box {",
    "void run(int n) {",
    "int count = 0;",
    "float ratio = 0.5;",
    "double total = 1e3;",
    "if (n > 0) {",
    "for (int i = 0; i < n; i++) {",
    "while (busy) {",
    "switch (kind) {",
    "case 1:",
    "default:",
    "}",
    "enum Color { Red, Green }",
    "interface Shape { area(): number }",
    "namespace Geo {",
    "type Id = string | number;",
    "function area(s: Shape) {",
    "const limit = 10;",
    "let x = `template ${limit}`;",
    "var legacy = true;",
    "// a comment. With a Capital",
    "/* block */",
    "return x;",
    "",
]


def _code(rng: random.Random) -> str:
    lines = []
    for _ in range(rng.randint(3, 60)):
        indent = rng.choice(["", "", "", "  ", "    ", "\t"])
        lines.append(indent + rng.choice(CODE))
    return _line_ends(rng, "\n".join(lines) + rng.choice(["", "\n"]))


LATEX = [
    "\\documentclass{article}",
    "\\begin{document}",
    "\\part{One}",
    "\\chapter*{Intro}",
    "\\section{Method}",
    "\\section*{Result}",
    "\\subsection{Detail}",
    "\\subsubsection{Fine}",
    "\\begin{itemize}",
    "\\item first \\emph{point}",
    "\\end{itemize}",
    "\\begin{equation}\\label{eq:1} E = mc^2 \\end{equation}",
    "Inline $x^2 + y$ math and \\textbf{bold} text.",
    "\\[ a = b \\]",
    "% a comment",
    "\\end{document}",
]


def _latex(rng: random.Random) -> str:
    lines = []
    for _ in range(rng.randint(3, 50)):
        lines.append(rng.choice(LATEX) if rng.random() < 0.6 else _sentence(rng).strip())
    return _line_ends(rng, rng.choice(["\n", "\n\n"]).join(lines))
