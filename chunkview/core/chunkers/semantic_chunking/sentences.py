"""sentence-parse 1.3.1 as semantic-chunking uses it (spec §5): HTML to text, white-space
folding, the uppercase-after-". " copy, ICU sentence boundaries, the abbreviation re-join.

The text is parsed as an HTML document with html5lib (it follows the same WHATWG parsing
algorithm as parse5, which cheerio uses); sentence boundaries come from ICU 78 through
icu4py, the engine behind node's Intl.Segmenter.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

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
# string-segmenter upper-cases /(?<=\.\s+)\S/g: the look-behind sees the text as it was, so
# in ". . y" both the second "." and the "y" follow a ". " (a match that took the "." in
# would miss the "y"); here a match is the ". " only, and the unit after it changes
# toLocaleUpperCase follows Unicode 17 (node's ICU 78); Python 3.11's str.upper Unicode 14,
# which lacks these pairs (Unicode 16 and 17: ƛ ɤ ᲊ and new Latin letters in U+A7CB–A7DC)
_NEWER_UPPER = {
    "\u019b": "\ua7dc",
    "\u0264": "\ua7cb",
    "\u1c8a": "\u1c89",
    "\ua7cd": "\ua7cc",
    "\ua7cf": "\ua7ce",
    "\ua7d3": "\ua7d2",
    "\ua7d5": "\ua7d4",
    "\ua7db": "\ua7da",
}
_PERIOD_SPACE_RE = re.compile(f"\\.[{W_CLASS}]+(?=[^{W_CLASS}])")
_LAST_WORD_RE = re.compile(f"([^{W_CLASS}]+)[{W_CLASS}]+$")  # the rule; _last_word runs it
_LAST_W_RE = regex.compile(f"(?r)[{W_CLASS}]")
_LETTER_RE = regex.compile(r"\p{L}")
_NEEDS_HTML_RE = re.compile("[<&\x00]")
_LONE_SURROGATE_RE = re.compile("[\ud800-\udfff]")  # after from_units only lone ones remain
_NUL_RUN_RE = re.compile("\x00+")


# ----- §5.2 HTML to text ------------------------------------------------------------------
# html5lib 1.1 follows the parsing spec of about 2016; parse5 7.3 (under cheerio) follows
# today's. Where the two differ, html5lib is brought up to date here: <isindex> is an
# ordinary element (no more made-up form and prompt text), <search> and <dialog> close an
# open <p> like <div>, </p> and </br> inside <svg> or <math> leave the foreign content,
# and the "special" elements are parse5's list.
_SPECIAL_HTML = """address applet area article aside base basefont bgsound blockquote body br
button caption center col colgroup dd details dir div dl dt embed fieldset figcaption figure
footer form frame frameset h1 h2 h3 h4 h5 h6 head header hgroup hr html iframe img input
keygen li link listing main marquee menu meta nav noembed noframes noscript object ol p
param plaintext pre script section select source style summary table tbody td template
textarea tfoot th thead title tr track ul wbr xmp""".split()


def _special_elements() -> frozenset[tuple[str, str]]:
    ns = html5lib.constants.namespaces
    mathml = ("mi", "mo", "mn", "ms", "mtext", "annotation-xml")
    return frozenset(
        [(ns["html"], name) for name in _SPECIAL_HTML]
        + [(ns["mathml"], name) for name in mathml]
        + [(ns["svg"], name) for name in ("title", "foreignObject", "desc")]
    )


def _dispatcher(phase_class: type, name: str) -> Any:
    """A copy of an html5lib phase's tag dispatcher (``startTagHandler`` or
    ``endTagHandler``), its default handler included, for a subclass to change. The
    dispatcher is a descriptor: it is read from the class dict that holds it."""
    held = next(c.__dict__[name] for c in phase_class.__mro__ if name in c.__dict__)
    copy = html5lib._utils.MethodDispatcher(held.items())
    copy.default = held.default
    return copy


def _with_handlers(phase_class: type, starts: dict[str, str], ends: dict[str, str]) -> type:
    """A subclass of an html5lib phase whose start and end tags in ``starts`` / ``ends``
    go to the named handler methods of the phase instead."""
    start_handler = _dispatcher(phase_class, "startTagHandler")
    end_handler = _dispatcher(phase_class, "endTagHandler")
    for name, method in starts.items():
        start_handler[name] = getattr(phase_class, method)
    for name, method in ends.items():
        end_handler[name] = getattr(phase_class, method)
    body = {"__slots__": (), "startTagHandler": start_handler, "endTagHandler": end_handler}
    return type(phase_class.__name__, (phase_class,), body)


def _foreign_phase(phase_class: type) -> type:
    def processEndTag(self, token):  # html5lib names its methods so
        if token["name"] in ("p", "br"):  # leaves the foreign content, then as in HTML
            parser = self.parser
            stack = self.tree.openElements
            while not (
                stack[-1].namespace == self.tree.defaultNamespace
                or parser.isHTMLIntegrationPoint(stack[-1])
                or parser.isMathMLTextIntegrationPoint(stack[-1])
            ):
                stack.pop()
            return parser.phase.processEndTag(token)
        return phase_class.processEndTag(self, token)

    return type(
        phase_class.__name__, (phase_class,), {"__slots__": (), "processEndTag": processEndTag}
    )


def _newline_after_pre(phase_class: type) -> type:
    """<pre> and <listing> ask the parser, not the body phase, to drop the newline right
    after them (parse5's skipNextNewLine): a <pre> put in front of a table by foster
    parenting drops it too, although the phase is still the table's."""

    def startTagPreListing(self, token):  # html5lib names its methods so
        phase_class.startTagPreListing(self, token)
        self.processSpaceCharacters = self.processSpaceCharactersNonPre
        self.parser.skip_newline = True

    start_handler = _dispatcher(phase_class, "startTagHandler")
    start_handler["pre"] = start_handler["listing"] = startTagPreListing
    body = {"__slots__": (), "startTagHandler": start_handler}
    return type(phase_class.__name__, (phase_class,), body)


def _with_end_tags(phase_class: type, handlers: dict[str, Any]) -> type:
    """A subclass of an html5lib phase whose end tags in ``handlers`` go to the given
    functions (the tag dispatchers hold functions, so a subclass's method alone would
    not be called)."""
    end_handler = _dispatcher(phase_class, "endTagHandler")
    for name, function in handlers.items():
        end_handler[name] = function
    body = {"__slots__": (), "endTagHandler": end_handler}
    return type(phase_class.__name__, (phase_class,), body)


def _br_end_tag_not_ok(phase_class: type) -> type:
    """``</br>`` acts as a ``<br>`` start tag, which sets frameset-ok to "not ok"
    (parse5, today's spec): a later <frameset> is then ignored, and the text stays.
    html5lib 1.1 inserts the <br> but leaves the flag."""

    def endTagBr(self, token):  # html5lib names its methods so
        phase_class.endTagBr(self, token)
        self.parser.framesetOK = False

    return _with_end_tags(phase_class, {"br": endTagBr})


# parse5 gathers a table's text apart only while the current node is one of these
# (by name: it gives a foreign element the id of its tag name too)
_TABLE_TEXT_PARENTS = frozenset(("table", "tbody", "tfoot", "thead", "tr"))


def _table_phase(phase_class: type) -> type:
    """Text in a table, and EOF, as parse5 takes them.

    Text is gathered apart (then put before the table) only under a table element
    itself; under anything else, such as a MathML <mi> put before the table, it goes in
    as in the body, at once. html5lib always gathers it, and text held back so can land
    after later content. EOF stops parsing; html5lib asserts on the way that the current
    node is no <html> (a fragment), but a foreign element of that name can be."""

    def processCharacters(self, token):  # html5lib names its methods so
        if self.tree.openElements[-1].name in _TABLE_TEXT_PARENTS:
            return phase_class.processCharacters(self, token)
        return self.insertText(token)  # foster parenting on, in the body

    def processSpaceCharacters(self, token):
        if self.tree.openElements[-1].name in _TABLE_TEXT_PARENTS:
            return phase_class.processSpaceCharacters(self, token)
        self.tree.insertFromTable = True
        self.parser.phases["inBody"].processSpaceCharacters(token)
        self.tree.insertFromTable = False
        return None

    def processEOF(self):
        return None

    methods = {
        "processCharacters": processCharacters,
        "processSpaceCharacters": processSpaceCharacters,
        "processEOF": processEOF,
    }
    return type(phase_class.__name__, (phase_class,), {"__slots__": (), **methods})


def _row_phase(phase_class: type) -> type:
    """parse5 closes the row at ``</tbody>``, ``</thead>`` or ``</tfoot>`` when that
    element or a <tr> is in table scope (the spec asks for the element itself): the
    stack is cleared back to the row, whatever foreign content was open in it."""

    def endTagTableRowGroup(self, token):  # html5lib names its methods so
        tree = self.tree
        if tree.elementInScope(token["name"], variant="table") or tree.elementInScope(
            "tr", variant="table"
        ):
            self.endTagTr(html5lib.html5parser.impliedTagToken("tr"))
            return token
        return None

    handlers = dict.fromkeys(("tbody", "tfoot", "thead"), endTagTableRowGroup)
    return _with_end_tags(phase_class, handlers)


class _Tokenizer(html5lib._tokenizer.HTMLTokenizer):
    def markupDeclarationOpenState(self):  # html5lib names its methods so
        """parse5 opens a CDATA section only in foreign content that is no integration
        point (its ``inForeignNode``): inside <foreignObject> or <mi> a ``<![CDATA[`` is a
        bogus comment. html5lib looks at the namespace alone; without its parser it
        takes the comment path."""
        parser = self.parser
        stack = parser.tree.openElements if parser is not None else None
        if stack and (
            parser.isHTMLIntegrationPoint(stack[-1])
            or parser.isMathMLTextIntegrationPoint(stack[-1])
        ):
            self.parser = None
            try:
                return super().markupDeclarationOpenState()
            finally:
                self.parser = parser
        return super().markupDeclarationOpenState()

    def cdataSectionState(self):  # html5lib names its methods so
        """html5lib's CDATA section, with one U+FFFD for each run of NULs, as parse5
        gives (a run is one NUL token, which foreign content replaces as a whole)."""
        data = []
        while True:
            data.append(self.stream.charsUntil("]"))
            data.append(self.stream.charsUntil(">"))
            char = self.stream.char()
            if char == html5lib.constants.EOF:
                break
            if data[-1][-2:] == "]]":
                data[-1] = data[-1][:-2]
                break
            data.append(char)
        raw = "".join(data)
        if raw:
            characters = html5lib.constants.tokenTypes["Characters"]
            token = {"type": characters, "data": _NUL_RUN_RE.sub("\ufffd", raw)}
            # where the section starts or ends with NULs: parse5's NUL token goes on
            # across "]]>" and "<![CDATA[" (neither emits a token), see __iter__
            token["nul_ends"] = (raw[0] == "\x00", raw[-1] == "\x00")
            self.tokenQueue.append(token)
        self.state = self.dataState
        return True

    def __iter__(self):
        space, characters, parse_error = (
            html5lib.constants.tokenTypes[t]
            for t in ("SpaceCharacters", "Characters", "ParseError")
        )
        after_nul = False
        for token in super().__iter__():
            if token["type"] == parse_error:
                yield token
                continue
            # parse5 makes one token of a run of NULs, and in foreign content one U+FFFD
            # of it (elsewhere a NUL is dropped, so one stands for all)
            nul = token["type"] == characters and token["data"] == "\x00"
            if nul and after_nul:
                continue
            ends = token.pop("nul_ends", None)  # a CDATA section's (see cdataSectionState)
            if ends is not None:
                if ends[0] and after_nul:  # its first run goes on from the NULs before
                    token["data"] = token["data"][1:]
                    if not token["data"]:
                        continue
                nul = ends[1]
            after_nul = nul
            if token["type"] == space and token["data"] == "\r":
                token["type"] = characters  # &#13;: see _Parser
            if self.parser.skip_newline:
                self.parser.skip_newline = False  # any next token ends the chance
                if token["type"] == space and token["data"].startswith("\n"):
                    token["data"] = token["data"][1:]
                    if not token["data"]:
                        continue
            yield token


class _Parser(html5lib.HTMLParser):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        html5lib.html5parser.specialElements = _special_elements()
        # A CR reaches the tree builder only from &#13; (the input stream turns CR into
        # LF), and parse5 takes that one for a character, not white space: it sets
        # frameset-ok to "not ok" and is put before a table. The tokenizer passes it on
        # as characters (_Tokenizer); the tree builder reads this set only to check
        # characters (the tokenizer has its own)
        html5lib.html5parser.spaceCharacters = frozenset("\t\n\x0c ")
        body = _with_handlers(
            type(self.phases["inBody"]),
            {"isindex": "startTagOther", "search": "startTagCloseP", "dialog": "startTagCloseP"},
            {"isindex": "endTagOther", "search": "endTagBlock"},
        )
        body = _br_end_tag_not_ok(_newline_after_pre(body))
        self.phases["inBody"] = body(self, self.tree)
        foreign = _foreign_phase(type(self.phases["inForeignContent"]))
        self.phases["inForeignContent"] = foreign(self, self.tree)
        self.phases["inTable"] = _table_phase(type(self.phases["inTable"]))(self, self.tree)
        self.phases["inRow"] = _row_phase(type(self.phases["inRow"]))(self, self.tree)
        self.skip_newline = False

    def _parse(self, stream, innerHTML=False, container="div", scripting=False, **kwargs):
        # html5lib's own _parse, with the tokenizer above
        self.innerHTMLMode, self.container, self.scripting = innerHTML, container, scripting
        self.tokenizer = _Tokenizer(stream, parser=self, **kwargs)
        self.skip_newline = False
        self.reset()
        try:
            self.mainLoop()
        except html5lib.html5parser._ReparseException:
            self.reset()
            self.mainLoop()


def _foster_tree() -> type:
    """The etree builder with foster parenting saved and restored around each token a
    table mode hands to the in-body rules, as parse5 does. html5lib turns it off after
    each, also after one handed on inside another: a <dt> in a table row closes the
    <p> before it through the table's rules, and would then not be put before the table."""
    base = html5lib.getTreeBuilder("etree")

    class FosterTree(base):  # type: ignore[misc, valid-type]
        def reset(self):
            self._foster_depth = 0
            super().reset()

        def _setInsertFromTable(self, value):
            if value:
                self._foster_depth += 1
            elif self._foster_depth:
                self._foster_depth -= 1
            base._setInsertFromTable(self, self._foster_depth > 0)

        insertFromTable = property(base._getInsertFromTable, _setInsertFromTable)

    return FosterTree


@lru_cache(maxsize=1)
def _parser() -> html5lib.HTMLParser:
    return _Parser(tree=_foster_tree(), namespaceHTMLElements=False)


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
    parts, done = [], 0
    for match in _PERIOD_SPACE_RE.finditer(units):
        at = match.end()
        unit = units[at]
        parts += [units[done:at], _NEWER_UPPER.get(unit) or to_units(unit.upper())]
        done = at + 1
    if not parts:
        return units
    parts.append(units[done:])
    return "".join(parts)


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
