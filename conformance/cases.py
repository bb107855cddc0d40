"""Seeded cases: real documents (the corpus, the installed packages' READMEs and
package.json files), random slices with awkward content mixed in, random options over
each option's whole documented range (zero, negatives and fractions included)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from chunkview.core.chunkers.mastra.entry import LENGTH_JS
from chunkview.core.chunkers.mastra.reference.recursive import LANGUAGES
from chunkview.core.chunkers.mastra.token import JS_ENCODINGS, MODELS
from chunkview.core.chunkers.semantic_chunking.chunker import DEFAULTS
from conformance.mastra_values import HTML_HEADERS, MD_HEADERS, REGEX_SEPARATORS, SEPARATORS
from conformance.synthetic import synthetic

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus"

EMOJI = ["😀", "👍🏽", "👨‍👩‍👧", "🇫🇷", "🎉", "𝔘", "❤️"]
COMBINING = ["e\u0301", "a\u0308", "n\u0303", "\u0915\u094d\u0937", "o\u0302\u0323"]
CJK = ["中文句子。", "日本語の文です。", "한국어 문장입니다.", "漢字かな交じり文！", "第一章　概要"]
SPECIAL_TOKENS = ["<|endoftext|>", "<|endofprompt|>", "<|fim_prefix|>", "<|im_start|>"]
FENCE = "\n```js\nconst x = 1;\n\n// comment. Next\n```\n"
TABLE = "\n| a | b |\n|---|---|\n| 1 | 2. Two |\n| x | y |\n"
WHITE = ["\n", "\n\n", "\r\n", "\t", "  ", "\u00a0", "\u2028", "\u3000", " \n \n", "\n\n\n"]
ENTITIES = [
    "&amp;",
    "&amp",
    "&copy2024",
    "&notit;",
    "&#1;",
    "&#xD83D;&#xDE00;",
    "&#x10FFFF;",
    "&#128;",
]
ENTITIES += ["&#0;", "&#xFFFE;", "&#127;", "&nbsp", "&lt;b&gt;", "&#x1F600;", "&hellip;", "&AMP;"]
TAG_SOUP = [
    "<div>",
    "</div>",
    "<p>",
    "</p>",
    "<br>",
    "</br>",
    "<ul><li>a<li>b</ul>",
    "<table><tr><td>c",
]
TAG_SOUP += [
    "<dialog>",
    "<isindex>",
    "<svg><p>",
    "<math></p>",
    "<search>",
    "<noscript><b>",
    "&copy",
]
TAG_SOUP += [
    "<pre>\n",
    "<textarea>",
    "<plaintext>",
    "<!-- x",
    "<select><option>o",
    "<b><p>x</b>",
    "\x00",
]
TAG_SOUP += ["<frameset>", "<![CDATA[c]]>", "<svg><foreignObject>", "<math><mi>", "<dt>", "<th>"]
TAG_SOUP += ["&#13;", "&#32;", "&#10;", "<pre>&#10;"]
TAG_SOUP += ["<math><html>", "<svg><tr>", "</tfoot>", "<mi>x<mglyph>", "<colgroup>", "<style>"]
TAG_SOUP += ["\x00\x00", "<svg>\x00\x00x", "<math><![CDATA[\x00\x00]]>"]
PUNCT = [". ", "! ", "? ", "... ", ".\n", "; ", ": ", ", ", " - "]
# the markup READMEs and web pages carry (semantic-chunking parses every text as HTML);
# no <template>: its insertion modes are a known difference (README, Conformance)
MARKUP = [
    '<p align="center">\n  <img src="logo.png" alt="Logo" width="200">\n</p>\n',
    '<a href="https://e.com/x?a=1&b=2">link</a>',
    "<details>\n<summary>More</summary>\n\nHidden text. Here.\n</details>\n",
    '<h1 align="center">Title</h1>',
    '<div align="center">\n\n**Bold**. text\n\n</div>\n',
    "<div><div>Nested. Twice</div> outer.</div>",
    "<br/>",
    "<hr/>",
    "<kbd>Ctrl</kbd>+<kbd>C</kbd>",
    "<sup>1</sup>",
    "<code>a &lt; b</code>",
    '<picture><source srcset="a.png"><img src="b.png"></picture>',
    '<script>var a = "<b>";</script>',
    "<style>p { color: red; }</style>",
    "<!DOCTYPE html>",
    "<html><head><title>T</title></head><body>",
    "<![CDATA[ x < y ]]>",
    '<?xml version="1.0"?>',
    "<a href='x' title=\"y\">q</a>",
    '<img src="a.png" alt="x',
    "<a href=x>y</a>",
    "<table><tr><th>h</th></tr><tr><td>d. E</td></tr></table>",
    '<ol start="3"><li>one</li><li>two. Three</li></ol>',
    "<blockquote>Quote. yes</blockquote>",
    '<iframe src="x">inner</iframe>',
    "<textarea>a <b> c</textarea>",
    '<form><input value="v"></form>',
    '<svg viewBox="0 0 1 1"><text>s</text></svg>',
    "<math><mi>x</mi></math>",
    "<p>One<p>Two",
    "</div></div>",
    "<li>stray",
    "<dl><dt>t<dd>d</dl>",
    "<button>Click</button>",
    "<center>c</center>",
    "<font color=red>f</font>",
    "<object><param name=a></object>",
    "<nobr>n</nobr>",
    "<ruby>漢<rt>kan</rt></ruby>",
    "<wbr>",
    "<xmp><p>x</xmp>",
    "<listing>\nL</listing>",
    "<h2>H<h3>I</h2>",
    "<a><a>double</a>",
    "<colgroup><col>",
    "<tbody><tr><td>",
    "<image src=x>",
    '<annotation-xml encoding="text/html"><p>x</p></annotation-xml>',
    "<svg><foreignObject><p>y</p></foreignObject><desc>d</desc></svg>",
    "<frame>",
    "<body><div>late body</div>",
    "<head><meta charset=utf-8><link rel=x>",
]


def documents(cache: Path | None) -> list[tuple[str, str]]:
    """(name, text) of every source document, in a stable order."""
    found = [(f"corpus/{p.name}", p.read_text("utf-8")) for p in sorted(CORPUS.iterdir())]
    if cache is not None and (cache / "node_modules").is_dir():
        modules = cache / "node_modules"
        paths = sorted(modules.glob("*/README.md")) + sorted(modules.glob("@*/*/README.md"))
        paths += sorted(modules.glob("*/package.json"))[:150]
        for path in paths:
            try:
                text = path.read_text("utf-8")
            except (OSError, UnicodeDecodeError):
                continue
            if text.strip() and len(text) < 400_000:
                found.append((f"npm/{path.relative_to(modules)}", text))
    return found


class Generator:
    """Makes case number ``n`` of seed ``seed``: the same pair always gives the same case."""

    def __init__(self, seed: int, docs: list[tuple[str, str]], entries: list[str]):
        self.seed, self.docs, self.entries = seed, docs, entries
        self.json_docs = [d for d in docs if d[0].endswith(".json")]
        self.html_docs = [d for d in docs if d[0].endswith(".html")]

    def case(self, n: int) -> dict:
        rng = random.Random(f"{self.seed}:{n}")
        entry = rng.choice(self.entries)
        make = {
            "mastra.chunk": self._mastra,
            "agentos.SemanticChunker": self._semantic_chunker,
            "agentos.ChunkingEngine": self._chunking_engine,
        }.get(entry, self._semantic_chunking)
        case = make(rng, entry)
        case["entry"] = entry
        case["source"] = f"seed {self.seed} case {n}"
        return case

    # ---- text -------------------------------------------------------------------------

    def text(self, rng: random.Random, pool: list[tuple[str, str]] | None = None) -> str:
        _name, doc = rng.choice(pool or self.docs)
        roll = rng.random()
        if roll < 0.04:
            return rng.choice(["", " ", "\n", "a", ".", "\n\n", "A. B", "is\n\nA"])
        size = (
            rng.randint(1, 60)
            if roll < 0.25
            else rng.randint(60, 1500)
            if roll < 0.75
            else rng.randint(1500, 6000)
            if roll < 0.96
            else rng.randint(6000, 30000)
        )
        start = rng.randint(0, max(0, len(doc) - size))
        text = doc[start : start + size]
        for _ in range(rng.choice([0, 0, 1, 1, 2, 3, 5])):
            text = self._mutate(rng, text)
        return text

    def structured_text(self, rng: random.Random) -> str:
        """Mostly a slice as ``text`` makes; sometimes Markdown built from the structures
        the agentos chunkers look for (headings, fences, tables, blank lines) with the
        awkward units at their edges: CR, tabs, emoji halves, runs without white space."""
        roll = rng.random()
        if roll < 0.6:
            return self.text(rng)
        if roll < 0.65:  # white space only, in JS's set and out of it
            return "".join(
                rng.choice([*WHITE, "\u0085", "\u200b", "\ufeff", "\r"])
                for _ in range(rng.randint(1, 12))
            )
        blocks = [rng.choice(MD_BLOCKS)(rng) for _ in range(rng.randint(1, 12))]
        text = "".join(blocks)
        if rng.random() < 0.25:
            text = text.replace("\n", "\r\n")
        if rng.random() < 0.15:
            text = text.replace("    ", "\t")
        if rng.random() < 0.3:
            text = text.rstrip("\n")
        return text

    def _mutate(self, rng: random.Random, text: str) -> str:
        kind = rng.randrange(11)
        at = rng.randint(0, len(text))
        if kind == 0:
            return text.replace("\n", "\r\n")
        if kind == 1:
            return (
                text.replace("    ", "\t") if rng.random() < 0.5 else text[:at] + "\t" + text[at:]
            )
        inserts = [
            lambda: FENCE,
            lambda: TABLE,
            lambda: rng.choice(EMOJI) * rng.randint(1, 3),
            lambda: rng.choice(COMBINING),
            lambda: rng.choice(CJK) * rng.randint(1, 4),
            lambda: (
                rng.choice(["x", "supercalifragilistic", "https://e.com/a/b?c=d"])
                * rng.randint(5, 80)
            ),
            lambda: rng.choice(WHITE),
            lambda: rng.choice(PUNCT) + rng.choice(["A", "The", "Dr. X", "e.g. this", "3"]),
            lambda: rng.choice(
                ["\n# Title\n", "\n## Sub heading\n", "\n### Deep\n", "#NoSpace\n", *SPECIAL_TOKENS]
            ),
        ]
        return text[:at] + inserts[kind - 2]() + text[at:]

    # ---- numbers ----------------------------------------------------------------------

    @staticmethod
    def number(rng: random.Random, low: float, high: float, integer: bool = False) -> Any:
        """Mostly a typical value; also 0, 1, negatives, fractions and huge values."""
        roll = rng.random()
        if roll < 0.6 or integer:
            value: float = round(low + (high - low) * rng.random() ** 2)
        elif roll < 0.68:
            value = 0
        elif roll < 0.74:
            value = 1
        elif roll < 0.82:
            value = -rng.choice([1, 2, 10, 50, 200])
        elif roll < 0.95:
            value = round(rng.uniform(0, high), rng.choice([1, 2])) or 0.5
        else:
            value = rng.choice([10**6, 10**9, 0.001, 2.5])
        return value

    # ---- entries ----------------------------------------------------------------------

    def _mastra(self, rng: random.Random, entry: str) -> dict:
        doc = rng.choice(["text", "text", "markdown", "markdown", "html", "json"])
        text = self._mastra_text(rng, doc)
        options: dict[str, Any] = {}
        strategy = rng.choice(MASTRA_STRATEGIES)
        if strategy is not None:
            options["strategy"] = strategy
        else:
            strategy = {"markdown": "markdown", "html": "html", "json": "json"}.get(
                doc, "recursive"
            )
        _mastra_sizes(rng, strategy, options)
        _mastra_splitter_options(rng, strategy, options)
        if strategy in MASTRA_STRATEGY_OPTIONS:
            MASTRA_STRATEGY_OPTIONS[strategy](rng, strategy, options)
        if rng.random() < 0.35:
            text = self._synthetic_text(rng, strategy, options)
        if rng.random() < 0.1:
            self._odd_option(rng, strategy, options)
        case: dict[str, Any] = {"doc": doc, "input": text, "options": options}
        if any(isinstance(v, dict) and "$fn" in v for v in options.values()):
            case["length_js"] = LENGTH_JS
        if rng.random() < 0.2:
            case["metadata"] = {"source": "conformance", "n": rng.randint(0, 9)}
            if rng.random() < 0.15:  # what `{...metadata}` makes of other values
                case["metadata"] = rng.choice(
                    [None, ["a", "b"], "doc😀", 7, True, {"Title": "T", "2": 1, "1": {"x": [1]}}]
                )
        return case

    def _mastra_text(self, rng: random.Random, doc: str) -> str:
        """A slice in the kind of document ``doc`` names: JSON and HTML mostly from those
        files, HTML with an entity now and then, JSON often whole or rebuilt."""
        pool = None
        if doc == "json" and self.json_docs and rng.random() < 0.8:
            pool = self.json_docs
        if doc == "html" and self.html_docs and rng.random() < 0.6:
            pool = self.html_docs
        text = self.text(rng, pool)
        if doc == "html" and rng.random() < 0.3:
            at = rng.randint(0, len(text))
            text = text[:at] + rng.choice(ENTITIES) + text[at:]
        if doc == "json" and rng.random() < 0.7:
            _name, full = rng.choice(self.json_docs or self.docs)
            text = full if rng.random() < 0.5 else json.dumps(_json_sample(rng, text))
        return text

    def _synthetic_text(self, rng: random.Random, strategy: str, options: dict[str, Any]) -> str:
        """A made-up document of the kind the strategy is for, maybe mutated (JSON never:
        it would stop being JSON)."""
        kind = _synthetic_kind(rng, strategy, options)
        text = synthetic(rng, kind)
        for _ in range(0 if kind == "json" else rng.choice([0, 0, 1, 2])):
            text = self._mutate(rng, text)
        return text

    @staticmethod
    def _odd_option(rng: random.Random, strategy: str, options: dict[str, Any]) -> None:
        """A value of the wrong type, an unknown key or a misspelt strategy, as the golden
        cases have them: the schema's messages must match too."""
        odd = rng.choice(
            [
                ("strategy", rng.choice(["nope", "Recursive", "", "TOKEN"])),
                ("maxSize", rng.choice(["100", None, True, [100]])),
                ("overlap", rng.choice(["5", None, -0.5])),
                ("keepSeparator", rng.choice(["both", 1, None])),
                ("size", rng.choice([80, "80", -1])),
                ("extra", True),
                ("separator" if strategy != "character" else "separators", "\n"),
                ("language", rng.choice(["markdown", "klingon", "python"])),
                ("allowedSpecial", rng.choice([["<|endoftext|>"], "none", "all"])),
                ("headers", rng.choice([[["#", "title"]], [], [["h2"]], "h1"])),
                ("stripWhitespace", rng.choice(["yes", 0])),
                ("lengthFunction", "len"),
                ("minSize", rng.choice([0, -1, "5", 10])),
                ("joinThreshold", rng.choice([0, 5, "10"])),
            ]
        )
        options[odd[0]] = odd[1]

    @staticmethod
    def _coerced(rng: random.Random, options: dict[str, Any]) -> None:
        """Now and then a bool where a number goes or a number where a bool goes: the
        schema lets both through, as JS coerces them (true is 1, 0 is falsy)."""
        keys = [k for k, v in options.items() if isinstance(v, (int, float)) and k != "strategy"]
        if keys and rng.random() < 0.06:
            key = rng.choice(keys)
            value = options[key]
            options[key] = (
                rng.choice([0, 1, 2, 0.5]) if isinstance(value, bool) else rng.random() < 0.5
            )

    def _semantic_chunker(self, rng: random.Random, entry: str) -> dict:
        n = self.number
        options: dict[str, Any] = {}
        for key, low, high in (
            ("targetSize", 1, 2000),
            ("maxSize", 1, 4000),
            ("minSize", 0, 500),
            ("overlap", 0, 300),
        ):
            if rng.random() < 0.6:
                options[key] = n(rng, low, high) if rng.random() < 0.97 else None
        for key in ("preserveCodeBlocks", "respectHeadings"):
            if rng.random() < 0.3:
                options[key] = rng.choice([True, False, None])
        self._coerced(rng, options)
        case: dict[str, Any] = {"input": self.structured_text(rng), "options": options}
        if rng.random() < 0.5:
            case["metadata"] = rng.choice([{"doc": "conformance"}, {}, [1, "a"], "tag", 0])
        return case

    def _chunking_engine(self, rng: random.Random, entry: str) -> dict:
        n = self.number
        options: dict[str, Any] = {
            "strategy": rng.choice(["fixed", "semantic", "hierarchical", "layout"])
        }
        if rng.random() < 0.02:  # the unknown-strategy error
            odd = rng.choice([None, "Fixed", "", "sentence", "missing"])
            if odd == "missing":
                del options["strategy"]
            else:
                options["strategy"] = odd
        if rng.random() < 0.8:
            options["chunkSize"] = n(rng, 1, 2000) if rng.random() < 0.97 else None
        if rng.random() < 0.6:
            overlap = n(rng, 0, 300) if rng.random() < 0.97 else None
            if isinstance(overlap, int) and rng.random() < 0.1:  # a share of chunkSize
                size = options.get("chunkSize") or 512
                overlap = round(size * rng.choice([0.1, 0.5, 0.99, 1, 1.5]), rng.choice([0, 1]))
            options["chunkOverlap"] = overlap
        self._coerced(rng, options)
        case: dict[str, Any] = {"input": self.structured_text(rng), "options": options}
        if options.get("strategy") == "semantic" and rng.random() < 0.7:
            case["embedder"] = "hash64"
        return case

    def _semantic_chunking(self, rng: random.Random, entry: str) -> dict:
        options = _semantic_chunking_options(rng, entry)
        texts = self._semantic_chunking_texts(rng)
        case = {
            "input": texts[0] if len(texts) == 1 else None,
            "documents": [
                {"document_name": f"doc{i}", "document_text": t} for i, t in enumerate(texts)
            ],
            "options": options,
            "embedder": "hash64",
            "tokenizer": "wordpunct",
            "embed_path": "stub-provider" if rng.random() < 0.1 else "embedCallback",
        }
        if rng.random() < 0.25:
            self._more_semantic_chunking(rng, case)
        self._coerced(rng, options)
        return case

    def _semantic_chunking_texts(self, rng: random.Random) -> list[str]:
        """Mostly one text, now and then two or three; the first sometimes with markup."""
        pool = self.html_docs if self.html_docs and rng.random() < 0.1 else None
        texts = [
            self.text(rng, pool) for _ in range(1 if rng.random() < 0.85 else rng.randint(2, 3))
        ]
        if rng.random() < 0.3:  # markup: every text is parsed as an HTML document
            soup = TAG_SOUP if rng.random() < 0.4 else MARKUP + ENTITIES
            for _ in range(rng.randint(1, 6)):
                at = rng.randint(0, len(texts[0]))
                texts[0] = texts[0][:at] + rng.choice(soup) + texts[0][at:]
        return texts

    @staticmethod
    def _more_semantic_chunking(rng: random.Random, case: dict) -> None:
        """The rarer option kinds of the golden cases: embeddings returned, cache modes,
        labels, prefixes that end in ": " or are blank or are no valid regex, and the
        documents argument in the shapes that fail."""
        options = case["options"]
        kind = rng.randrange(6)
        if kind == 0:
            options["returnEmbedding"] = True
        elif kind == 1:
            options["cache"] = rng.choice(
                [False, "instance", "request", "global", None, 0, True, "", ["request"]]
            )
        elif kind == 2:
            labels = rng.choice(
                [
                    {"modelName": "hash64", "dtypeLabel": "float64"},
                    {"modelName": None, "dtypeLabel": ""},
                    {"onnxEmbeddingModel": None, "dtype": None},
                    {"onnxEmbeddingModel": "Xenova/bge-small-en-v1.5", "dtype": "fp16"},
                ]
            )
            options.update(labels)
            options["onnxEmbeddingModelQuantized"] = True
        elif kind == 3:
            options["chunkPrefix"] = rng.choice(["search_document: ", "   ", "query(", "p", "q*"])
            options["excludeChunkPrefixInResults"] = rng.random() < 0.6
        elif kind == 4:
            options.update(
                rng.choice(
                    [
                        {"dtype": "fp32"},
                        {"logging": rng.random() < 0.5},
                        {"maxTokenSize": 0},
                        # null takes the default (`??`)
                        {rng.choice(sorted(DEFAULTS)): None},
                    ]
                )
            )
        else:
            docs = case["documents"]
            bad = rng.choice(
                [
                    None,
                    {"document_name": "x"},
                    {"document_text": ""},
                    {"document_text": 5},
                    {"document_text": True},
                    {"document_text": ["a. B"]},
                    {"document_text": "   "},
                    {"document_text": "x. Y", "document_name": rng.choice([0, 7, None, True])},
                    "a. B",
                ]
            )
            docs.insert(rng.randint(0, len(docs)), bad)
            case["input"] = None
            if rng.random() < 0.3:  # a prefix regex that fails, in some other document
                options.update(chunkPrefix="(x", excludeChunkPrefixInResults=True)


#: the words ``_words`` draws from
_WORDS = ["lorem", "Ipsum", "dolor.", "Sit", "amet,", "x", "The", "end!", "why?", "A"]
_WORDS += ["😀", "👍🏽x", "中文句子。", "e\u0301", "tab\there", "a|b"]


def _words(rng: random.Random, low: int, high: int) -> str:
    text = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(low, high)))
    return text if rng.random() < 0.8 else text.replace(" ", rng.choice(["  ", "\u00a0", " \n"]))


def _unbroken(rng: random.Random) -> str:
    """A run without white space (a URL, a table rule, CJK, emoji) of 20 to 700 units."""
    unit = rng.choice(["https://e.com/a/b?c=d&", "|---", "中文", "😀", "ab", "👨‍👩‍👧"])
    return unit * max(1, rng.randint(20, 700) // len(unit))


MD_BLOCKS = [
    lambda rng: (
        rng.choice(["#", "##", "###", "######", "#######"])
        + rng.choice([" ", "\t", "  ", "\n", " \n\n"])
        + _words(rng, 0, 6)
        + rng.choice(["\n\n", "\n", " #\n"])
    ),
    lambda rng: rng.choice(["#Title\n", "  # indented\n", "#\n", "# \n", "\n#\n\n"]),
    lambda rng: _words(rng, 1, 120) + rng.choice(["\n\n", "\n", "\n\n\n", "\n \n"]),
    lambda rng: (
        rng.choice(["```", "```js", "````", "  ```", "\t```", "~~~", "```inline```"])
        + "\n"
        + _words(rng, 0, 30).replace(". ", ".\n")
        + rng.choice(["\n```\n", "\n````\n", "\n```js\n", "\n~~~\n", "\n", "\n``` \n\n"])
    ),
    lambda rng: (
        "| a | b |\n|---|---|\n"
        + "".join(f"| {_words(rng, 1, 4)} | {i} |\n" for i in range(rng.randint(0, 6)))
        + rng.choice(["\n", "", "\n\n", "after | pipe\n"])
    ),
    lambda rng: rng.choice(["\n", "\n\n", "\n\n\n\n", " \n\t\n", "\u2028", "\r\n\r\n"]),
    lambda rng: _unbroken(rng) + rng.choice(["\n\n", " ", "\n", ". Next\n"]),
    lambda rng: "- " + _words(rng, 1, 8) + "\n- " + _words(rng, 1, 8) + "\n\n",
]


def _json_sample(rng: random.Random, text: str) -> Any:
    words = text.split()[:40]
    return {
        "title": " ".join(words[:5]),
        "items": [{"id": i, "text": w} for i, w in enumerate(words)],
        "nested": {"a": {"b": {"c": words[:3]}}, "n": rng.randint(0, 99), "ok": True},
    }


def _synthetic_kind(rng: random.Random, strategy: str, options: dict[str, Any]) -> str:
    """The synthetic document a strategy and its options are made for (mostly)."""
    language = options.get("language")
    if strategy in ("json", "html", "latex") and rng.random() < 0.85:
        return strategy
    if language in ("cpp", "c", "ts"):
        return "code"
    if language == "latex":
        return "latex"
    if strategy in ("markdown", "semantic-markdown") or language == "markdown":
        return "markdown"
    return rng.choice(["prose", "prose", "markdown", "markdown", "code", "json", "html"])


# ---- mastra.chunk's options, by strategy -----------------------------------------------

#: the strategies ``_mastra`` draws from (None: the option left out, the doc's default)
MASTRA_STRATEGIES: list[str | None] = ["character", "recursive", "sentence", "token", "markdown"]
MASTRA_STRATEGIES += ["semantic-markdown", "html", "json", "latex", "recursive", "sentence", None]


def _mastra_sizes(rng: random.Random, strategy: str, options: dict[str, Any]) -> None:
    n = Generator.number
    if strategy in ("sentence", "json") or rng.random() < 0.8:
        options["maxSize"] = n(rng, 1, 3000)
    if strategy == "json" and rng.random() < 0.4:
        options["maxSize"] = rng.randint(21, 160)  # many small chunks, deep paths
    if strategy != "json" and rng.random() < 0.6:
        options["overlap"] = n(rng, 0, 400)
        size = options.get("maxSize")
        if isinstance(size, (int, float)) and size > 0 and rng.random() < 0.5:
            # an overlap that fits the size: windows and tails, not the overlap error
            options["overlap"] = rng.choice([0, 1, size // 2, size - 1, round(size / 3, 1)])


def _mastra_splitter_options(rng: random.Random, strategy: str, options: dict[str, Any]) -> None:
    """The options the text splitters share (and the length function, sentence's too)."""
    splitter = strategy in ("character", "recursive", "latex", "markdown")
    if (splitter or strategy == "sentence") and rng.random() < 0.3:
        name = rng.choice(list(LENGTH_JS))
        options["lengthFunction"] = {"$fn": name}
    if splitter:
        if rng.random() < 0.35:
            options["keepSeparator"] = rng.choice([False, True, "start", "end"])
        if rng.random() < 0.2:
            options["stripWhitespace"] = rng.random() < 0.5
        if rng.random() < 0.3:
            options["addStartIndex"] = True


def _character_options(rng: random.Random, strategy: str, options: dict[str, Any]) -> None:
    if rng.random() < 0.5:
        options["isSeparatorRegex"] = rng.random() < 0.5
    regex = options.get("isSeparatorRegex", False)
    if rng.random() < 0.7:
        options["separator"] = rng.choice(REGEX_SEPARATORS if regex else SEPARATORS)


def _recursive_options(rng: random.Random, strategy: str, options: dict[str, Any]) -> None:
    if rng.random() < 0.25:
        options["language"] = rng.choice(
            ["markdown", "latex", "cpp", "c", "ts", "markdown", *LANGUAGES]
        )
        return
    if rng.random() < 0.5:
        options["isSeparatorRegex"] = rng.random() < 0.5
    regex = options.get("isSeparatorRegex", False)
    if rng.random() < 0.6:
        pool = REGEX_SEPARATORS if regex else SEPARATORS
        options["separators"] = rng.sample(pool, rng.randint(0, 4))


def _sentence_options(rng: random.Random, strategy: str, options: dict[str, Any]) -> None:
    n = Generator.number
    if rng.random() < 0.3:
        options["minSize"] = n(rng, 1, 500)
    if rng.random() < 0.4:
        options["targetSize"] = n(rng, 1, 2000)
    if rng.random() < 0.4:
        options["sentenceEnders"] = rng.sample(
            [".", "!", "?", "\n", ";", ":", "。", "..", " ", "！", "？", "...", "", "…"],
            rng.randint(0, 4),
        )
    for key in ("fallbackToWords", "fallbackToCharacters", "addStartIndex"):
        if rng.random() < 0.25:
            options[key] = rng.random() < 0.5


def _token_options(rng: random.Random, strategy: str, options: dict[str, Any]) -> None:
    """token's options; semantic-markdown takes them too, and a join threshold."""
    if rng.random() < 0.3:
        options["encodingName"] = rng.choice([*JS_ENCODINGS, "nope"])
    if rng.random() < 0.15:
        options["modelName"] = rng.choice([*list(MODELS)[:40], "llama-3", "gpt-4o"])
    for key in ("allowedSpecial", "disallowedSpecial"):
        if rng.random() < 0.15:
            options[key] = (
                "all"
                if rng.random() < 0.5
                else {"$set": rng.sample(SPECIAL_TOKENS, rng.randint(0, 2))}
            )
    if rng.random() < 0.2:
        options["stripWhitespace"] = rng.random() < 0.5
    if strategy == "semantic-markdown" and rng.random() < 0.6:
        options["joinThreshold"] = Generator.number(rng, 1, 2000)


def _json_options(rng: random.Random, strategy: str, options: dict[str, Any]) -> None:
    if rng.random() < 0.4:
        options["minSize"] = Generator.number(rng, 1, 1000)
    for key in ("ensureAscii", "convertLists"):
        if rng.random() < 0.3:
            options[key] = rng.random() < 0.5


def _markdown_options(rng: random.Random, strategy: str, options: dict[str, Any]) -> None:
    if rng.random() < 0.6:
        options["headers"] = rng.sample(MD_HEADERS, rng.randint(0, 3))
        for key in ("returnEachLine", "stripHeaders"):
            if rng.random() < 0.3:
                options[key] = rng.random() < 0.5


def _html_options(rng: random.Random, strategy: str, options: dict[str, Any]) -> None:
    if rng.random() < 0.7:
        options["headers"] = rng.sample(HTML_HEADERS, rng.randint(0, 3))
    if rng.random() < 0.4:
        options["sections"] = rng.sample(HTML_HEADERS, rng.randint(0, 2))
    if rng.random() < 0.3:
        options["returnEachLine"] = rng.random() < 0.5
    if rng.random() < 0.03:  # the original's selector parser loops on these
        key = "headers" if "headers" in options else "sections"
        options[key] = [*options.get(key, []), [rng.choice(["#", ":hover", "1"]), "x"]]


#: the options of each strategy that has its own (latex has none)
MASTRA_STRATEGY_OPTIONS: dict[str, Callable[[random.Random, str, dict[str, Any]], None]] = {
    "character": _character_options,
    "recursive": _recursive_options,
    "sentence": _sentence_options,
    "token": _token_options,
    "semantic-markdown": _token_options,
    "json": _json_options,
    "markdown": _markdown_options,
    "html": _html_options,
}


def _semantic_chunking_options(rng: random.Random, entry: str) -> dict[str, Any]:
    options: dict[str, Any] = {}
    if entry != "semantic-chunking.sentenceit" and rng.random() < 0.7:
        options["maxTokenSize"] = Generator.number(rng, 1, 800)
    if entry == "semantic-chunking.chunkit":
        _chunkit_options(rng, options)
    for key in ("excludeNonLetterSentences", "excludeChunkPrefixInResults"):
        if rng.random() < 0.2:
            options[key] = rng.random() < 0.5
    if rng.random() < 0.15:
        options["returnTokenLength"] = rng.random() < 0.5
    if rng.random() < 0.2:
        options["chunkPrefix"] = rng.choice(["search_document", "passage", "", "c++", "(x", "a.b"])
    return options


def _chunkit_options(rng: random.Random, options: dict[str, Any]) -> None:
    """The options only chunkit takes: thresholds, lookahead, the merging passes."""
    n = Generator.number
    for key in (
        "similarityThreshold",
        "dynamicThresholdLowerBound",
        "dynamicThresholdUpperBound",
        "combineChunksSimilarityThreshold",
    ):
        if rng.random() < 0.3:
            options[key] = rng.choice([round(rng.random(), 2), 0, 1, -0.5, 1.5, rng.random()])
    if rng.random() < 0.3:
        options["numSimilaritySentencesLookahead"] = n(rng, 0, 8)
    if rng.random() < 0.3:
        options["combineChunks"] = rng.random() < 0.5
    for key in ("maxMergesPerPass", "maxUncappedPasses", "uncappedCandidateMerges"):
        if rng.random() < 0.1:
            options[key] = n(rng, 0, 50)
    if rng.random() < 0.1:
        options["maxMergesPerPassPercentage"] = n(rng, 0, 100)
