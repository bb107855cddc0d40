"""html (spec/mastra.md §10): headers and sections over the tree that
node-html-better-parser 1.5.9 builds.

No maintained Python HTML parser reproduces that tree: html.parser, lxml and html5lib all
follow the HTML standard (they keep <pre> text, repair nesting, lower-case tag names),
while the original drops <pre>/<script>/<style> content, keeps tag-name case, closes only
a few elements implicitly and appends trailing text to the root. The chunks depend on all
of that, so this module holds the small parser the spec describes.
"""

from __future__ import annotations

import html as html_lib
import json
import re
from dataclasses import dataclass, field
from typing import Any

from chunkview.core.chunkers.mastra.document import splitter_from
from chunkview.core.chunkers.mastra.validate import check_overlap
from chunkview.core.errors import ChunkerError
from chunkview.core.text.js import from_units, trim

_MARKUP_RE = re.compile(r"<!--[\s\S]*?-->|<(/?)([a-z][-.:0-9_a-z]*)\s*([^>]*?)(/?)>", re.I)
_ATTRIBUTE_RE = re.compile(r"([^\s=/]+)(?:\s*=\s*(\"[^\"]*\"|'[^']*'|[^\s\"'>]+))?")
_VOID = {"area", "base", "br", "col", "hr", "img", "input", "link", "meta", "source"}
_RAW_TEXT = {"script", "noscript", "style", "pre"}
_HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
_TABLE_PARTS = {"colgroup", "tr", "thead", "tbody", "tfoot"}
_CLOSED_BY_OPENING: dict[str, set[str]] = {
    "li": {"li"}, "p": {"p", *_HEADINGS}, "b": {"div"}, "td": {"td", "th"},
    "th": {"td", "th"}, **{h: {"p", *_HEADINGS} for h in _HEADINGS},
    **{t: {"tr", "thead", "tbody", "tfoot"} for t in _TABLE_PARTS},
    "ul": {"ul", "ol"}, "ol": {"ul", "ol"},
    **{t: {t} for t in ("aside", "nav", "form", "header", "footer", "main")},
}


@dataclass(eq=False)
class Node:
    tag: str | None = None  # None for a text node (and for the root, which has no tag)
    raw: str = ""
    attributes: dict[str, str] = field(default_factory=dict)
    children: list[Node] = field(default_factory=list)
    parent: Node | None = None

    @property
    def is_element(self) -> bool:
        return self.tag is not None

    def raw_text(self) -> str:
        return "".join(child.raw if not child.is_element else child.raw_text()
                       for child in self.children)

    @property
    def text(self) -> str:
        """All descendant raw text, entity-decoded."""
        return html_lib.unescape(self.raw_text())

    def classes(self) -> list[str]:
        return self.attributes.get("class", "").split()


def parse(source: str) -> Node:
    """The tree node-html-better-parser builds (see the module docstring)."""
    root = Node(tag=None)
    stack = [root]
    last_text = 0
    position = 0
    while True:
        match = _MARKUP_RE.search(source, position)
        if match is None:
            break
        if match.start() > last_text:
            stack[-1].children.append(Node(raw=source[last_text:match.start()]))
        position = last_text = match.end()
        if match.group(0).startswith("<!--"):
            continue
        closing, name, attributes, self_closing = match.groups()
        if not closing:
            current = stack[-1]
            if not self_closing and current.tag in _CLOSED_BY_OPENING and \
                    name in _CLOSED_BY_OPENING[current.tag] and len(stack) > 1:
                stack.pop()
            element = Node(tag=name, attributes=_attributes(attributes), parent=stack[-1])
            stack[-1].children.append(element)
            stack.append(element)
            if name.lower() in _RAW_TEXT:
                end = re.compile(rf"</{re.escape(name)}\s*>", re.I).search(source, position)
                position = last_text = len(source) if end is None else end.end()
                stack.pop()
                continue
            if self_closing or name.lower() in _VOID:
                stack.pop()
            continue
        if name.lower() in _VOID:
            continue
        while len(stack) > 1:
            popped = stack.pop()
            if popped.tag == name:
                break
    if last_text < len(source):
        root.children.append(Node(raw=source[last_text:]))  # trailing text goes to the root
    while len(stack) > 2:  # unclosed elements below the top level dissolve into the parent
        element = stack.pop()
        parent = stack[-1]
        if element in parent.children:
            at = parent.children.index(element)
            parent.children[at:at + 1] = element.children
            for child in element.children:
                child.parent = parent
    return root


def _attributes(text: str) -> dict[str, str]:
    attributes = {}
    for match in _ATTRIBUTE_RE.finditer(text or ""):
        value = match.group(2) or ""
        if value[:1] in ("'", '"'):
            value = value[1:-1]
        attributes[match.group(1)] = value
    return attributes


# ----- selectors --------------------------------------------------------------------------


def _matches_simple(node: Node, selector: str) -> bool:
    match = re.fullmatch(r"([A-Za-z*][\w-]*)?((?:[.#][\w-]+|\[[^\]]*\])*)", selector)
    if match is None:
        return False
    tag, rest = match.groups()
    if tag and tag != "*" and node.tag != tag:
        return False
    for part in re.findall(r"[.#][\w-]+|\[[^\]]*\]", rest or ""):
        if part[0] == "." and part[1:] not in node.classes():
            return False
        if part[0] == "#" and node.attributes.get("id") != part[1:]:
            return False
        if part[0] == "[":
            name, _, value = part[1:-1].partition("=")
            if name.strip() not in node.attributes:
                return False
            if value and node.attributes[name.strip()] != value.strip("'\""):
                return False
    return True


def _matches(node: Node, selector: str) -> bool:
    parts = selector.split()
    if not parts or not _matches_simple(node, parts[-1]):
        return False
    ancestor = node.parent
    for part in reversed(parts[:-1]):
        while ancestor is not None and not (ancestor.is_element and
                                            _matches_simple(ancestor, part)):
            ancestor = ancestor.parent
        if ancestor is None:
            return False
        ancestor = ancestor.parent
    return True


def _elements(node: Node):
    for child in node.children:
        if child.is_element:
            yield child
            yield from _elements(child)


def query(root: Node, selectors: str) -> list[Node]:
    """Matches grouped by selector part (each in document order), duplicates removed."""
    found: list[Node] = []
    seen: set[int] = set()
    for selector in (s.strip() for s in selectors.split(",")):
        for element in _elements(root):
            if id(element) not in seen and _matches(element, selector):
                seen.add(id(element))
                found.append(element)
    return found


# ----- the two modes --------------------------------------------------------------------
def _text_of(node: Node) -> str:
    if not node.is_element:
        return html_lib.unescape(node.raw)
    text = node.text
    for child in node.children:
        child_text = _text_of(child)
        if child_text:
            text += " " + child_text
    return trim(text)


def _xpath(node: Node, indexed: bool = True) -> str:
    steps = []
    while node is not None and node.is_element:
        parent = node.parent
        index = 1
        if indexed and parent is not None:
            for sibling in parent.children:
                if sibling is node:
                    break
                if sibling.is_element and sibling.tag == node.tag:
                    index += 1
        steps.append(f"{node.tag.lower()}[{index}]")
        node = parent
    return "/" + "/".join(reversed(steps))


def _replace_title(meta: dict[str, Any], doc_meta: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for key, value in meta.items():
        if value == "#TITLE#":
            if doc_meta.get("Title") is None:
                continue  # undefined: the key is gone from the JSON
            value = doc_meta["Title"]
        out[key] = value
    return out


def _headers(root: Node, pairs: list[list[str]], return_each_line: bool,
             doc_meta: dict[str, Any]) -> list[dict[str, Any]]:
    pairs = sorted(pairs, key=lambda pair: f"{pair[0]},{pair[1]}".encode("utf-16-be"))
    selectors = [selector for selector, _ in pairs]
    keys = {selector: key for selector, key in pairs}
    elements = []
    for header in query(root, ",".join(selectors)):
        parent = header.parent
        siblings = parent.children[parent.children.index(header) + 1:] if parent else []
        content = ""
        for sibling in siblings:
            if sibling.is_element and sibling.tag.lower() in selectors:
                break
            content += _text_of(sibling) + " "
        key = keys.get(header.tag.lower(), "undefined")
        elements.append((trim(content), {key: header.text or ""}, _xpath(header)))
    if not return_each_line:
        merged: list[list[Any]] = []
        for content, meta, xpath in elements:
            if merged and json.dumps(merged[-1][1]) == json.dumps(meta):
                merged[-1][0] += "  \n" + content
            else:
                merged.append([content, meta, xpath])
        elements = [tuple(m) for m in merged]
    return [{"text": content, "metadata": {**doc_meta, **_replace_title(
        {**meta, "xpath": xpath}, doc_meta)}} for content, meta, xpath in elements]


def _sections(root: Node, pairs: list[list[str]], doc_meta: dict[str, Any]
              ) -> list[dict[str, Any]]:
    keys: dict[str, str] = {}
    for selector, key in pairs:
        keys[selector.lower()] = key
    chunks = []
    for element in query(root, ",".join(keys)):
        key = keys.get(element.tag.lower(), "undefined")
        meta = {key: trim(element.text), "xpath": _xpath(element, indexed=False)}
        chunks.append({"text": "", "metadata": {**doc_meta, **_replace_title(meta, doc_meta)}})
    return chunks


def html_chunks(units: str, options: dict[str, Any], metadata: dict[str, Any]):
    headers, sections = options.get("headers"), options.get("sections")
    if headers:
        root = parse(from_units(units))
        return _headers(root, headers, bool(options.get("returnEachLine", False)), metadata)
    if sections:
        splitter = splitter_from(options)
        check_overlap(splitter.max_size, splitter.overlap)
        return _sections(parse(from_units(units)), sections, metadata)
    raise ChunkerError("Error", "HTML chunking requires either headers or sections to be "
                       "specified")
