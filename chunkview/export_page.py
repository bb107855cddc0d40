"""The interactive page: one self-contained HTML file with a slider over the values of one
option, each value's chunks drawn as the app draws them (``chunkview page``, File > Export
Interactive Page).

The data is ``core.views.page_data``'s, as JSON in the page; the script and the style are
package files (chunkview/resources/page/page.js and page.css) put inline, so the page
needs no network and no server: it opens from a file.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

from chunkview.core import registry
from chunkview.core.batch.page_values import PagePlan, PageRun, page_values
from chunkview.core.batch.sweep import Runner
from chunkview.core.chunkers.entry import Entry
from chunkview.core.model.document import Document
from chunkview.core.views.kind_colours import kind_colours
from chunkview.core.views.page_data import CompareSide, PageValue, ValueView, page_data


def _resource(name: str) -> str:
    return resources.files("chunkview").joinpath("resources", "page", name).read_text("utf-8")


_SURROGATE = re.compile("[\ud800-\udfff]")


def script_json(data: Any) -> str:
    """``data`` as JSON safe inside a ``<script>`` element and in UTF-8: ``</`` cannot end
    the element, and a lone surrogate (which UTF-8 cannot hold) is written as an escape."""
    text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    text = text.replace("</", "<\\/").replace("<!--", "\\u003c!--")
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _initial(views: Sequence[PageValue], current: float | None) -> int:
    """The value shown first: the one nearest the option's current value, else the first."""
    if current is None or not views:
        return 0
    return min(range(len(views)), key=lambda i: abs(views[i].value - current))


def render_page(
    document: Document,
    entry_id: str,
    param: str,
    views: Sequence[PageValue],
    *,
    boundary_kinds: Sequence[str] = (),
    current: float | None = None,
    title: str | None = None,
    b: CompareSide | None = None,
) -> str:
    """The page's HTML: ``document`` once, each value of ``param`` in ``views`` (in slider
    order) with its layout or its failure; ``boundary_kinds`` the entry's kinds (their
    colours as in the window); ``current`` the value shown first; ``b`` a second
    configuration each value's boundaries are compared with."""
    name = Path(document.path).name if document.path else "document"
    title = title or f"{entry_id} · {param} · {name}"
    data = page_data(document, title, entry_id, param, views, b=b)
    seen = [k for v in views if isinstance(v, ValueView) for k in v.kinds]
    data["colours"] = kind_colours(dict.fromkeys([*boundary_kinds, *seen]))
    data["initial"] = _initial(views, current)
    return (
        "<!doctype html>\n<html lang='en'><head><meta charset='utf-8'>"
        "<meta name='viewport' content='width=device-width, initial-scale=1'>"
        "<meta name='generator' content='chunkview'>"
        f"<title>{html.escape(title)}</title><style>{_resource('page.css')}</style></head>"
        "<body><header>"
        f"<h1>{html.escape(entry_id)} <span class='file'>· {html.escape(name)}</span></h1>"
        "<div class='control'>"
        f"<label for='slider'>{html.escape(param)}</label>"
        "<span class='ends' id='low'></span>"
        "<input type='range' id='slider' min='0' step='1' value='0'>"
        "<span class='ends' id='high'></span><output id='value' for='slider'></output></div>"
        "<div class='figures'><span><b id='count'></b><span class='laid'> chunks</span></span>"
        "<span class='laid'>median <b id='median'></b></span>"
        "<span class='warn laid'><b id='warn-count'></b> warnings</span></div>"
        "</header><div class='body'><main>"
        "<div id='failure' class='failed' hidden></div><div id='doc'></div></main><aside>"
        "<h2>Sizes</h2><svg id='hist' role='img'></svg>"
        "<h2>Legend</h2><div class='legend' id='legend'></div>"
        "<h2>Settings</h2><pre id='settings'></pre>"
        "<button id='copy' type='button'>Copy as code</button><pre id='code'></pre>"
        "<section id='compare' hidden><h2>Compare with B</h2>"
        "<label><input type='checkbox' id='show-b' checked> B's boundaries over the text"
        "</label><p id='b-summary'></p><pre id='b-settings'></pre>"
        "<div class='legend' id='b-legend'></div></section>"
        "<h2>Warnings <span id='wcount'></span></h2><ul id='warnings'></ul>"
        "</aside></div><div id='card' role='tooltip' hidden></div>"
        f"<script type='application/json' id='page-data'>{script_json(data)}</script>"
        f"<script>{_resource('page.js')}</script></body></html>\n"
    )


def make_page(
    plan: PagePlan, runner: Runner | None = None, entry: Entry | None = None
) -> tuple[str, PageRun]:
    """Chunk every value of ``plan`` (and its B) in chunking processes (``runner``: the
    sweep's pool under the watchdog unless given) and render the page; the page and what
    was chunked, failed values included. ``entry``: the plan's entry when the caller has
    it (a chunker file's function as its description gives it, so that the file is not
    imported here); the registry's otherwise."""
    entry = entry or registry.get(plan.entry_id)
    run = page_values(plan, runner, entry)
    current = plan.options.get(plan.param)
    if not isinstance(current, (int, float)):
        param = entry.param(plan.param)
        current = param.default if param is not None else None
    return (
        render_page(
            plan.document,
            plan.entry_id,
            plan.param,
            run.values,
            boundary_kinds=entry.boundary_kinds,
            current=current if isinstance(current, (int, float)) else None,
            b=run.b,
        ),
        run,
    )
