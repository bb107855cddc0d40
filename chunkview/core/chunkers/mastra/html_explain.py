"""Why the html strategy cut where it did (spec/mastra.md §10), in its own terms.

The html strategy (reference/html.py) tells its run's ``HtmlReasons`` the elements its
query matched (``QuietHtmlReasons`` when nobody asks for reasons): each chunk starts at
a matched header element (which selector of ``headers`` matched it, the key, where its
sibling walk stopped), takes in the matches after it that carry the same header (unless
returnEachLine), and may come earlier in the page than the chunk before, as the query
lists its matches selector by selector. In sections mode each chunk is one matched
element, with an empty text.
"""

from __future__ import annotations

import json

from chunkview.core.chunkers.mastra.html_parser import Node, select
from chunkview.core.model.explain import Reason
from chunkview.core.model.observer import RunObserver
from chunkview.core.text.js import trim


def _quoted(text: str, most: int = 50) -> str:
    text = " ".join(trim(text).split())
    return f"“{text[:most]}…”" if len(text) > most else f"“{text}”"


def _parts(selectors: str) -> list[str]:
    return [part.strip() for part in selectors.split(",") if part.strip()]


def _matched_by(root: Node, selectors: str) -> dict[int, str]:
    """The selector part that found each element first (the query goes part by part)."""
    found: dict[int, str] = {}
    for part in _parts(selectors):
        for element in select(root, part):
            found.setdefault(id(element), part)
    return found


def _page_order(root: Node) -> dict[int, int]:
    order: dict[int, int] = {}
    stack = [root]
    while stack:
        node = stack.pop()
        order[id(node)] = len(order)
        stack.extend(reversed([c for c in node.children if c.is_element]))
    return order


def _walk(header: Node, selectors: list[str]) -> tuple[int, Node | None]:
    """The nodes the sibling walk takes after ``header`` and the element that stops it."""
    parent = header.parent
    if parent is None:
        return 0, None
    siblings = parent.children[parent.children.index(header) + 1 :]
    for taken, sibling in enumerate(siblings):
        if sibling.is_element and sibling.tag_name in selectors:
            return taken, sibling
    return len(siblings), None


def _section_words(header: Node, selectors: list[str]) -> str:
    taken, stop = _walk(header, selectors)
    nodes = "node" if taken == 1 else f"{taken} nodes"
    if stop is not None:
        if not taken:
            return f"its section is empty: the node after it is the header element <{stop.tag}>"
        return f"its section is the text of the {nodes} after it, up to the header <{stop.tag}>"
    parent = header.parent.tag if header.parent is not None and header.parent.tag else "page"
    if not taken:
        return f"its section is empty: nothing follows it in its parent <{parent}>"
    return f"its section is the text of the {nodes} after it, to the end of its parent <{parent}>"


def explain_headers(
    observer: RunObserver,
    root: Node,
    selectors: list[str],
    keys: dict[str, str],
    headers: list[Node],
    each_line: bool,
) -> None:
    """One reason per chunk of headers mode (``headers``: the query's matches, in order)."""
    matched_by = _matched_by(root, ",".join(selectors))
    page = _page_order(root)
    groups: list[list[Node]] = []
    last_meta = None
    for header in headers:
        meta = json.dumps({keys.get(header.tag_name, "undefined"): header.text or ""})
        if groups and not each_line and meta == last_meta:
            groups[-1].append(header)
        else:
            groups.append([header])
        last_meta = meta
    for k, group in enumerate(groups):
        header = group[0]
        key = keys.get(header.tag_name, "undefined")
        part = matched_by.get(id(header), "?")
        words = [
            f'the <{header.tag}> {_quoted(header.text)} matched the header selector "{part}" '
            f'(key "{key}")',
            _section_words(header, selectors),
        ]
        if len(group) > 1:
            more = len(group) - 1
            matches = f"{more} matches" if more > 1 else "match"
            words.append(
                f"the next {matches} in query order with the same "
                f'{key} {_quoted(header.text)} merged into it (contents joined with "  \\n")'
            )
        if k and page[id(header)] < page[id(groups[k - 1][0])]:
            before = matched_by.get(id(groups[k - 1][0]), "?")
            order = (
                f'selector by selector ("{before}" before "{part}")'
                if before != part
                else f'in the order the selector "{part}" finds them'
            )
            words.append(
                f"it comes earlier in the page than the chunk before: the library lists the "
                f"matches {order}, not in page order"
            )
        if each_line:
            words.append("one chunk per matched element (returnEachLine)")
        observer.reason(Reason(k, "header", "; ".join(words)))


def explain_sections(observer: RunObserver, keys: dict[str, str], found: list[Node]) -> None:
    """One reason per chunk of sections mode: the element each stands for."""
    if not found:
        return
    root = found[0]
    while root.parent is not None:
        root = root.parent
    matched_by = _matched_by(root, ",".join(keys))
    for k, element in enumerate(found):
        key = keys.get(element.tag_name, "undefined")
        observer.reason(
            Reason(
                k,
                "section",
                f"the <{element.tag}> {_quoted(element.text)} matched the sections selector "
                f'"{matched_by.get(id(element), "?")}" (key "{key}"); in sections mode the '
                "chunk text is always empty: the library's sibling walk needs "
                "nextElementSibling, which its HTML parser lacks",
            )
        )


class HtmlReasons:
    """Tells the observer one reason per chunk of the html strategy."""

    def __init__(self, observer: RunObserver) -> None:
        self.observer = observer

    def headers(
        self,
        root: Node,
        selectors: list[str],
        keys: dict[str, str],
        headers: list[Node],
        each_line: bool,
    ) -> None:
        """Headers mode (§10.2): ``headers``, the query's matches, in order."""
        explain_headers(self.observer, root, selectors, keys, headers, each_line)

    def sections(self, keys: dict[str, str], found: list[Node]) -> None:
        """Sections mode (§10.3): ``found``, the query's matches."""
        explain_sections(self.observer, keys, found)


class QuietHtmlReasons(HtmlReasons):
    """For a run nobody asks reasons of: tells nothing."""

    def headers(
        self,
        root: Node,
        selectors: list[str],
        keys: dict[str, str],
        headers: list[Node],
        each_line: bool,
    ) -> None:
        pass

    def sections(self, keys: dict[str, str], found: list[Node]) -> None:
        pass
