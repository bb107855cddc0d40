"""html (spec/mastra.md §10.2, §10.3): headers and sections over the tree that
node-html-better-parser 1.5.9 builds (html_parser.py, §10.1).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from chunkview.core.chunkers.mastra.html_parser import Node, decode, parse, query
from chunkview.core.chunkers.mastra.reference.splitter import splitter_from
from chunkview.core.chunkers.mastra.validate import check_overlap
from chunkview.core.errors import ChunkerError
from chunkview.core.text.js import from_units, trim

if TYPE_CHECKING:
    from chunkview.core.chunkers.mastra.explain import MastraNotes


# ----- the two modes --------------------------------------------------------------------
def text_of(node: Node) -> str:
    """§10.2's ``textOf``: a node's text, then each child's (recursively), joined with
    spaces and trimmed; worked bottom-up with a stack, so nesting has no limit."""
    done: dict[int, str] = {}
    stack = [(node, False)]
    while stack:
        current, opened = stack.pop()
        if not current.is_element:
            done[id(current)] = decode(current.raw)
        elif not opened:
            stack.append((current, True))
            stack.extend((child, False) for child in reversed(current.children))
        else:
            text = current.text
            for child in current.children:
                child_text = done[id(child)]
                if child_text:
                    text += " " + child_text
            done[id(current)] = trim(text)
    return done[id(node)]


def _xpath(node: Node | None, indexed: bool = True) -> str:
    """§10.2's xpath: ``lower(tag)[k]`` up through the ancestors (k always 1 in §10.3)."""
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
        steps.append(f"{node.tag_name}[{index}]")
        node = parent
    return "/" + "/".join(reversed(steps))


def _with_title(doc_meta: dict[str, Any], meta: dict[str, Any]) -> dict[str, Any]:
    """``{...docMeta, ...chunkMeta}`` once every "#TITLE#" value became ``docMeta.Title``:
    a Title the document lacks is undefined, which drops the key from the JSON, the
    document's own value under that key too; a null Title stays null."""
    out = dict(doc_meta)
    for key, value in meta.items():
        if value == "#TITLE#":
            if "Title" not in doc_meta:
                out.pop(key, None)
                continue
            value = doc_meta["Title"]
        out[key] = value
    return out


def _headers(
    root: Node,
    pairs: list[list[str]],
    return_each_line: bool,
    doc_meta: dict[str, Any],
    notes: MastraNotes,
) -> list[dict[str, Any]]:
    """§10.2: each matched header element, its section the text of the siblings after it
    up to the next header element; runs of the same header merged (unless
    returnEachLine)."""
    pairs = sorted(pairs, key=lambda pair: f"{pair[0]},{pair[1]}".encode("utf-16-be"))
    selectors = [selector for selector, _ in pairs]
    keys = {selector: key for selector, key in pairs}
    elements = []
    headers = query(root, ",".join(selectors))
    notes.html().headers(root, selectors, keys, headers, return_each_line)
    for header in headers:
        parent = header.parent
        siblings = parent.children[parent.children.index(header) + 1 :] if parent else []
        content = ""
        for sibling in siblings:
            if sibling.is_element and sibling.tag_name in selectors:
                break
            content += text_of(sibling) + " "
        key = keys.get(header.tag_name, "undefined")
        elements.append((trim(content), {key: header.text or ""}, _xpath(header)))
    if not return_each_line:
        merged: list[list[Any]] = []
        for content, meta, xpath in elements:
            if merged and json.dumps(merged[-1][1]) == json.dumps(meta):
                merged[-1][0] += "  \n" + content
            else:
                merged.append([content, meta, xpath])
        elements = [tuple(m) for m in merged]
    return [
        {
            "text": content,
            "metadata": _with_title(doc_meta, {**meta, "xpath": xpath}),
        }
        for content, meta, xpath in elements
    ]


def _sections(
    root: Node, pairs: list[list[str]], doc_meta: dict[str, Any], notes: MastraNotes
) -> list[dict[str, Any]]:
    """§10.3: one chunk per matched element, its text always empty."""
    keys: dict[str, str] = {}
    for selector, key in pairs:
        keys[selector.lower()] = key
    chunks = []
    found = query(root, ",".join(keys))
    notes.html().sections(keys, found)
    for element in found:
        key = keys.get(element.tag_name, "undefined")
        meta = {key: trim(element.text), "xpath": _xpath(element, indexed=False)}
        chunks.append({"text": "", "metadata": _with_title(doc_meta, meta)})
    return chunks


def html_chunks(
    units: str, options: dict[str, Any], metadata: dict[str, Any], notes: MastraNotes
) -> list[dict[str, Any]]:
    """§10: headers mode when ``headers`` is given (non-empty), else sections mode."""
    headers, sections = options.get("headers"), options.get("sections")
    if headers:
        root = parse(from_units(units))
        each_line = bool(options.get("returnEachLine", False))
        return _headers(root, headers, each_line, metadata, notes)
    if sections:
        splitter = splitter_from(options)
        check_overlap(splitter.max_size, splitter.overlap)
        return _sections(parse(from_units(units)), sections, metadata, notes)
    raise ChunkerError("Error", "HTML chunking requires either headers or sections to be specified")
