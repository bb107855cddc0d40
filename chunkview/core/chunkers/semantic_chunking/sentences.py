"""sentence-parse 1.3.1 as semantic-chunking uses it (spec §5): HTML to text, white-space
folding, the uppercase-after-". " copy, ICU sentence boundaries, the abbreviation re-join.

The text is parsed as an HTML document with html5lib (it follows the same WHATWG parsing
algorithm as parse5, which cheerio uses); sentence boundaries come from ICU 78 through
icu4py, the engine behind node's Intl.Segmenter.
"""

from __future__ import annotations

import re
from functools import lru_cache

import html5lib
import regex
from icu4py.breakers import SentenceBreaker

from chunkview.core.text.js import W_CHARS, W_CLASS, from_units, to_units, trim

ABBREVIATIONS = frozenset(
    """a.d. a.m. a.s.a.p. adm. ala. apr. ariz. ark. aug. b.c. b.c.e.
b.y.o.b. bros. calif. co. col. colo. conn. corp. d.c. d.i.y. dec. del. dr. e.g. e.t.a. etc.
feb. fla. ga. gen. gov. i.e. ill. inc. ind. j.d. jan. jr. jul. jun. kan. kans. ky. la. lt.
ltd. m.d. mar. mass. may. md. messrs. mich. minn. miss. mo. mont. mr. mrs. ms. mt. n.c. n.d.
n.h. n.j. n.m. n.y. neb. nebr. nev. nov. oct. okla. ore. p.m. p.s. pa. ph.d. prof. r.s.v.p.
rep. rev. sen. sep. sept. sr. st. tenn. va. vs. wash. wis.""".split()
)
_W_RUN_RE = re.compile(f"[{W_CLASS}]+")
_AFTER_PERIOD_RE = re.compile(f"\\.[{W_CLASS}]+[^{W_CLASS}]")
_LAST_WORD_RE = re.compile(f"([^{W_CLASS}]+)[{W_CLASS}]+$")  # the rule; _last_word runs it
_LAST_W_RE = regex.compile(f"(?r)[{W_CLASS}]")
_LETTER_RE = regex.compile(r"\p{L}")
_NEEDS_HTML_RE = re.compile("[<&\x00]")
_LONE_SURROGATE_RE = re.compile("[\ud800-\udfff]")  # after from_units only lone ones remain


# ----- §5.2 HTML to text ------------------------------------------------------------------
@lru_cache(maxsize=1)
def _parser() -> html5lib.HTMLParser:
    return html5lib.HTMLParser(tree=html5lib.getTreeBuilder("etree"), namespaceHTMLElements=False)


def _text_of(element, out: list[str]) -> None:
    """Text content with cheerio's insertions: <br> as LF, LF LF around <p>, <ul>, <ol>,
    and LF LF "- " at the start of each <li>. Walks with its own stack: nesting has no
    limit (a string on the stack is text to add, anything else an element to open)."""
    stack = [element]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            out.append(item)
            continue
        tag = item.tag if isinstance(item.tag, str) else None
        if tag is None:  # a comment or processing instruction: no text
            continue
        if tag == "br":
            out.append("\n")
            continue
        if tag == "li":
            out.append("\n\n- ")
        if item.text:
            out.append(item.text)
        later: list = []
        for child in item:
            around = isinstance(child.tag, str) and child.tag in ("p", "ul", "ol")
            if around:
                later.append("\n\n")
            later.append(child)
            if around:
                later.append("\n\n")
            if child.tail:
                later.append(child.tail)
        stack.extend(reversed(later))


def html_text(text: str) -> str:
    """The text sentence-parse takes from a document: the text of every <div> (nested ones
    again), or, when that is empty, of the whole document."""
    if not _NEEDS_HTML_RE.search(text):
        return text.replace("\r\n", "\n").replace("\r", "\n")  # what parsing would give
    # parse5, under cheerio, parses with scripting on: <noscript> holds raw text
    root = _parser().parse(text, scripting=True)
    divs: list[str] = []
    for div in root.iter("div"):
        _text_of(div, divs)
    if "".join(divs):
        return "".join(divs)
    whole: list[str] = []
    _text_of(root, whole)
    return "".join(whole)


# ----- §5.3, §5.4 -----------------------------------------------------------------------
def normalize(text: str) -> str:
    """Each run of JS white space as one space, trimmed (a unit string in, out)."""
    return trim(_W_RUN_RE.sub(" ", text))


def _uppercase_after_period(units: str) -> str:
    """The copy in which the unit after ". " is upper-cased (its length may change: the
    library's offsets then drift, and so do ours)."""
    return _AFTER_PERIOD_RE.sub(lambda m: m.group()[:-1] + to_units(m.group()[-1].upper()), units)


def _last_word(segment: str) -> str | None:
    """``_LAST_WORD_RE.search(segment).group(1)`` in linear time: the last run without
    white space when white space follows it to the end (the regex retries every start
    in a long run: quadratic). None where the regex finds no match."""
    end = len(segment.rstrip(W_CHARS))
    if end == 0 or end == len(segment):
        return None
    space = _LAST_W_RE.search(segment, 0, end)
    return segment[space.end() if space else 0 : end]


@lru_cache(maxsize=16)
def split_sentences(text: str, exclude_non_letter: bool = False) -> list[str]:
    """The sentences of a document's text, as sentence-parse returns them (cached: the
    parse is the slow part, and a slider moving over one document asks again and again)."""
    normalized = normalize(to_units(html_text(text)))
    if not normalized:
        return []
    return _sentences(normalized, exclude_non_letter)


def _for_icu(text: str) -> str:
    """ICU is handed UTF-8, which has no lone surrogates; a JS string can hold them and
    Intl.Segmenter breaks around one as around U+FFFD (checked under node 20), also one
    UTF-16 unit, so the offsets stay the same."""
    return _LONE_SURROGATE_RE.sub("\ufffd", text)


@lru_cache(maxsize=64)
def _sentences(normalized: str, exclude_non_letter: bool) -> list[str]:
    upper = _uppercase_after_period(normalized)
    pieces, left = [], 0
    for start, end in SentenceBreaker(_for_icu(from_units(upper)), "en").segments():
        segment = upper[start:end]
        word = _last_word(segment)
        if word and (word.lower() in ABBREVIATIONS or word.endswith(")")):
            continue  # joined to the next segment
        pieces.append(normalized[left:end])
        left = end
    sentences = []
    for piece in pieces:
        text = from_units(piece)
        if exclude_non_letter and not _LETTER_RE.search(text):
            continue
        sentences.append(from_units(trim(piece)))
    return sentences
