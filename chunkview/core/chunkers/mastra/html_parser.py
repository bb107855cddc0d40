"""The tree node-html-better-parser 1.5.9 builds, and its selectors (spec/mastra.md
§10.1): what the html strategy (reference/html.py) reads.

No maintained Python HTML parser reproduces that tree: html.parser, lxml and html5lib all
follow the HTML standard (they keep <pre> text, repair nesting, lower-case tag names),
while the original drops <pre>/<script>/<style> content, keeps tag-name case, closes only
a few elements implicitly and appends trailing text to the root. The chunks depend on all
of that, so this module holds the small parser the spec describes.
"""

from __future__ import annotations

import html as html_lib
import re
from dataclasses import dataclass, field

import regex

from chunkview.core.errors import ChunkerError
from chunkview.core.text.js import W_CLASS, from_units, trim

_W = W_CLASS
# node-html-better-parser's kMarkupPattern (flags ig), with JS \s spelled out and the
# case-insensitive [a-z] written as [a-zA-Z]. Groups: 1 "/", 2 name, 3 attributes, 7 "/".
# (The `regex` engine answers at once where V8 backtracks for minutes on some unclosed
# tags; there the original never returns and the port does.)
_MARKUP_RE = regex.compile(
    r"<!--[\s\S]*?(?=-->)-->|<(\/?)([a-zA-Z][-.:0-9_a-zA-Z]*)"
    rf"(([{_W}]*(?:[a-zA-Z][-.:0-9_a-zA-Z]*([{_W}]*=[{_W}]*(\"[^\"]*?\"|'[^']*?'"
    rf"|(?:\/(?!>)|[^{_W}\"'<>/])+))?|[^<\/>{_W}]+))*)[{_W}]*(\/?)>"
)
_ID_CLASS_RE = re.compile(
    rf"(^|[{_W}])(id|class)[{_W}]*=[{_W}]*(\"([^\"]+)\"|'([^']+)'|([^{_W}]+))", re.I
)
_ATTRIBUTE_RE = re.compile(r"([a-zA-Z][-.:0-9_a-zA-Z]*)(\s*=\s*(\"([^\"]*)\"|'([^']*)'|(\S+)))?")
# html-entities' numeric references: 0x80-0x9F through the windows-1252 table (as Python's
# html.unescape), but controls, noncharacters and lone surrogates are kept, and every code
# from 0x10FFFF up is U+FFFD (html.unescape drops or replaces some of these)
_NUMERIC_REF_RE = re.compile(r"&#(?:([0-9]+)|[xX]([0-9a-fA-F]+));?")
_REFERENCE_RE = re.compile(r"&(#[0-9]+;?|#[xX][0-9a-fA-F]+;?|[^\t\n\f <&#;]{1,32};?)")
_VOID = {"area", "base", "br", "col", "hr", "img", "input", "link", "meta", "source"}
_RAW_TEXT = {"script", "noscript", "style", "pre"}
_HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
_TABLE_PARTS = {"colgroup", "tr", "thead", "tbody", "tfoot"}
# tag names compare exactly: <H2> is not closed by <p>, <BR> is not void
_CLOSED_BY_OPENING: dict[str, set[str]] = {
    "li": {"li"},
    "p": {"p", *_HEADINGS},
    "b": {"div"},
    "td": {"td", "th"},
    "th": {"td", "th"},
    **{h: {"p", *_HEADINGS} for h in _HEADINGS},
    **{t: {"tr", "thead", "tbody", "tfoot"} for t in _TABLE_PARTS},
    "ul": {"ul", "ol"},
    "ol": {"ul", "ol"},
    **{t: {t} for t in ("aside", "nav", "form", "header", "footer", "main")},
}


def decode(text: str) -> str:
    """html-entities' decode() (level html5, scope body), as node-html-better-parser calls it:
    named references as html.unescape decodes them, numeric ones its own way."""
    if "&" not in text:
        return text
    decoded = _REFERENCE_RE.sub(_decoded, text)
    # two references to surrogate halves make one character, as they do in a JS string
    return from_units(decoded) if "&#" in text else decoded


def _decoded(match: re.Match[str]) -> str:
    numeric = _NUMERIC_REF_RE.fullmatch(match.group(0))
    if numeric is None:
        return html_lib.unescape(match.group(0))
    code = int(numeric.group(1)) if numeric.group(1) is not None else int(numeric.group(2), 16)
    if code >= 0x10FFFF:
        return "\ufffd"
    if code > 0xFFFF:
        return chr(code)
    if code == 0 or 0x80 <= code <= 0x9F:
        return html_lib.unescape(f"&#{code};")  # the windows-1252 table both share
    return chr(code)


@dataclass(eq=False)
class Node:
    tag: str | None = None  # None for a text node; "" for the root
    raw: str = ""
    attributes: dict[str, str] = field(default_factory=dict)
    children: list[Node] = field(default_factory=list)
    parent: Node | None = None
    element_id: str = ""
    class_names: list[str] = field(default_factory=list)

    @property
    def is_element(self) -> bool:
        return self.tag is not None and self.tag != ""

    @property
    def tag_name(self) -> str:
        """The tag in lower case ("" for a text node or the root)."""
        return (self.tag or "").lower()

    def raw_text(self) -> str:
        """The raw text of every descendant text node, in order (no recursion: nesting
        has no limit)."""
        parts: list[str] = []
        stack = [iter(self.children)]
        while stack:
            for child in stack[-1]:
                if child.is_element:
                    stack.append(iter(child.children))
                    break
                parts.append(child.raw)
            else:
                stack.pop()
        return "".join(parts)

    @property
    def text(self) -> str:
        """All descendant raw text, entity-decoded."""
        return decode(self.raw_text())


def parse(source: str) -> Node:
    """The tree node-html-better-parser 1.5.9 builds (its parse(), step for step)."""
    root = Node(tag="")
    stack = [root]
    last_text = 0
    position = 0
    while position <= len(source):
        match = _MARKUP_RE.search(source, position)
        if match is None:
            break
        if last_text + len(match.group(0)) < match.end():
            stack[-1].children.append(Node(raw=source[last_text : match.start()]))
        position = last_text = match.end()
        if match.group(0)[1] == "!":
            continue  # a comment
        closing, name, self_closing = match.group(1), match.group(2), match.group(7)
        if not closing:
            _open(match, stack, root)
            if name in _RAW_TEXT:  # its text is skipped, not stored
                end = re.compile(rf"</{re.escape(name)}[{_W}]*>", re.I).search(source, position)
                if end is None:
                    position = last_text = len(source) + 1
                else:
                    position = last_text = end.end()
                    closing = "true"
        if closing or self_closing or name in _VOID:
            if closing and name in _VOID and match.group(1):
                continue  # </br> and the like are ignored
            _close(stack, root, name)
    if last_text < len(source):
        root.children.append(Node(raw=source[last_text:]))  # trailing text goes to the root
    _dissolve_unclosed(stack)
    return root


def _open(match: regex.Match[str], stack: list[Node], root: Node) -> None:
    """An opening tag: the current element closed first if the tag closes it (one
    level), then the new element appended to the current one and opened."""
    name, self_closing = match.group(2), match.group(7)
    current = stack[-1]
    if not self_closing and name in _CLOSED_BY_OPENING.get(current.tag or "", ()):
        stack.pop()
        current = stack[-1] if stack else root
    raw_attributes = (match.group(3) or "").strip()
    element_id, class_names = _id_and_classes(raw_attributes)
    element = Node(
        tag=name,
        attributes=_attributes(raw_attributes),
        parent=current,
        element_id=element_id,
        class_names=class_names,
    )
    current.children.append(element)
    stack.append(element)


def _close(stack: list[Node], root: Node, name: str) -> None:
    """A closing tag (or a void or self-closed one): pop open elements until one named
    ``name`` is popped; none: everything down to the root."""
    while True:
        top = stack[-1] if stack else root
        if top.tag == name:
            stack.pop()
            return
        if len(stack) <= 1:
            return
        stack.pop()


def _dissolve_unclosed(stack: list[Node]) -> None:
    """Elements still open at the end of input, deeper than the top level, dissolve into
    the enclosing open element; a pair like <h3><h3> collapses into the grandparent."""
    while len(stack) > 1:
        last = stack.pop()
        before = stack[-1]
        if last.parent is None or last.parent.parent is None:
            continue
        before.children = [c for c in before.children if c is not last]
        if last.parent is before and last.tag == before.tag:  # <h3><h3>: a pair
            for child in last.children:
                _append(last.parent.parent, child)  # before's parent
            stack.pop()
        else:  # <div><h3></div>: the h3 dissolves into its parent
            for child in last.children:
                _append(before, child)


def _append(parent: Node, child: Node) -> None:
    parent.children.append(child)
    if child.is_element:
        child.parent = parent


def _attributes(text: str) -> dict[str, str]:
    """rawAttributes: every name=value pair (kAttributePattern), values entity-decoded."""
    attributes = {}
    for match in _ATTRIBUTE_RE.finditer(text or ""):
        attributes[match.group(1)] = decode(
            match.group(4) or match.group(5) or match.group(6) or ""
        )
    return attributes


def _id_and_classes(text: str) -> tuple[str, list[str]]:
    """The id and class names the element constructor reads (kIdClassAttributePattern)."""
    keys: dict[str, str] = {}
    for match in _ID_CLASS_RE.finditer(text or ""):
        keys[match.group(2)] = match.group(4) or match.group(5) or match.group(6) or ""
    classes = re.split(f"[{_W}]+", keys["class"]) if keys.get("class") else []
    return keys.get("id", ""), classes


# ----- selectors (the library's Matcher and querySelectorAll) ---------------------------
SELECTOR_PART_RE = re.compile(
    r"(?:^|\s+)([a-zA-Z_*][\w:-]*)?(?:#([\w-]+))?"
    r"(?:\.([\w-]+(?:\.[\w-]+)*))?(\[(?:[^\]]+)\](?:\[(?:[^\]]+)\])*)?",
    re.ASCII,
)
_SELECTOR_ATTR_RE = re.compile(
    r"\[([^\s~|^$*!=]+)(?:\s*(=|!=|\^=|\$=|\*=|\|=|~=)\s*"
    r"(?:[\"']?([^\"'\]]*)[\"']?)?)?\]"
)


def checker(selector_part: re.Match[str]):
    tag, element_id, classes, attrs = selector_part.groups()
    wanted = [
        (m.group(1), m.group(2) or "", m.group(3) or "")
        for m in _SELECTOR_ATTR_RE.finditer(attrs or "")
    ]

    def check(node: Node) -> bool:
        if tag and tag != "*" and node.tag != tag:
            return False
        if element_id and node.element_id != element_id:
            return False
        if classes and not all(c in node.class_names for c in classes.split(".")):
            return False
        for key, op, value in wanted:
            have = node.attributes.get(key)
            if not _attribute_ok(have, op, value):
                return False
        return True

    return check


def _attribute_ok(have: str | None, op: str, value: str) -> bool:
    if op == "=":
        return have == value
    if op == "!=":
        return have != value
    if have is None:
        return False
    if op == "^=":
        return have.startswith(value)
    if op == "$=":
        return have.endswith(value)
    if op == "*=":
        return value in have
    if op == "|=":
        return have == value or have.startswith(value + "-")
    if op == "~=":
        return value in re.split(r"\s+", have)
    return True


def select(root: Node, selector: str) -> list[Node]:
    """querySelectorImpl(all) for one selector: a chain of checkers, explored the library's
    way (results of a partly matching node come after those found without it)."""
    checkers = [checker(m) for m in SELECTOR_PART_RE.finditer(selector) if m.group(0).strip()]

    # explore(node, level) as a stack of tasks, so nesting has no limit: a task is a
    # (node, level) to explore, or (node, None) to emit the node at that point
    found: list[Node] = []
    tasks: list[tuple[Node, int | None]] = [(root, 0)] if checkers else []
    while tasks:
        node, level = tasks.pop()
        if level is None:
            found.append(node)
            continue
        advanced = bool(node.tag) and level < len(checkers) and checkers[level](node)
        children = [c for c in node.children if c.is_element]
        then: list[tuple[Node, int | None]] = [(c, level) for c in children]
        if advanced:
            if level + 1 == len(checkers):
                then.insert(0, (node, None))
            else:
                then += [(c, level + 1) for c in children]
        tasks.extend(reversed(then))
    return found


def query(root: Node, selectors: str) -> list[Node]:
    """querySelectorAll: each comma part in turn, duplicates removed (first kept)."""
    found: list[Node] = []
    seen: set[int] = set()
    parts = [part for p in selectors.split(",") if (part := trim(p))]
    for part in parts:
        if not SELECTOR_PART_RE.match(part).group(0):  # type: ignore[union-attr]
            # the Matcher's exec loop finds an empty match at 0 and never moves past it
            raise ChunkerError(
                "Hang",
                f"the selector {part!r} starts with no tag, #id, .class or [attribute]: "
                "the original's selector parser loops forever",
            )
    for part in parts:
        for element in select(root, part):
            if id(element) not in seen:
                seen.add(id(element))
                found.append(element)
    return found
