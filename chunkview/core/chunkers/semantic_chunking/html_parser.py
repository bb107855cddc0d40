"""The HTML parser sentence-parse reads a document with (spec/semantic-chunking.md §5.2):
parse5 7.3 under cheerio 1.2, here html5lib 1.1 brought up to parse5's reading.

Both follow the WHATWG parsing algorithm, html5lib as it stood about 2016 and parse5 as it
stands today. Where the two differ, html5lib is brought up to date here: <isindex> is an
ordinary element (no more made-up form and prompt text), <search> and <dialog> close an
open <p> like <div>, </p> and </br> inside <svg> or <math> leave the foreign content,
and the "special" elements are parse5's list. ``parse_document`` is the one way in; the
reference and the fast path read the same tree.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

import html5lib

_NUL_RUN_RE = re.compile("\x00+")

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


def parse_document(text: str) -> Any:
    """The element tree of ``text`` parsed as an HTML document, as cheerio's ``load``
    parses it (with scripting on: parse5's default, so <noscript> holds raw text)."""
    return _parser().parse(text, scripting=True)
