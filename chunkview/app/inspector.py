"""The chunk inspector: the selected chunk exactly as the library returned it.

White space is drawn as marks, the overlap it repeats is shown apart, and a chunk placed
only after normalising white space (or not found at all) gets a character diff against
the source, so its text is never out of sight.
"""

from __future__ import annotations

import html
import json

from PySide6.QtWidgets import QTextBrowser

from chunkview.core.model.explain import SOURCE_TITLES, chunk_ends
from chunkview.core.session import InspectorModel, ModelEvent
from chunkview.core.text.tokenizer_files import tokenizer_label
from chunkview.core.views.decorations import DIFF_STYLES
from chunkview.core.views.inspect import (
    ChunkFacts,
    character_diff,
    chunk_facts,
    show_white_space,
    source_slice,
)

#: the longest text the panel shows (a 10 MB chunk would make the panel crawl)
SHOW_LIMIT = 50_000
PLACED = {
    "exact": "exact: the chunk's text is this slice of the document",
    "normalized": "normalized: equal to the document but for white space or a rewrite",
    "missing": "missing: the chunk's text is not in the document",
}
ONLY_IN_CHUNK = DIFF_STYLES["added"][0]
ONLY_IN_SOURCE = DIFF_STYLES["removed"][0]


def _pre(text: str) -> str:
    shown = show_white_space(text[:SHOW_LIMIT])
    more = f"\n… {len(text) - SHOW_LIMIT:,} more chars" if len(text) > SHOW_LIMIT else ""
    return f'<pre style="white-space: pre-wrap">{html.escape(shown)}{more}</pre>'


def _why(spans, index: int) -> str:
    """Why the chunk starts and ends where it does, as the run recorded it: a port's rules
    ("why the library cut here") apart from what a cut falls on, observed by chunkview
    for a chunker that gives no reasons, each under its own title."""
    start, end = chunk_ends(spans, index)
    sections = []
    for source, title in SOURCE_TITLES.items():
        rows = [
            f"<li><b>{label}</b> ({html.escape(reason.rule)}): {html.escape(reason.text)}</li>"
            for label, reason in (("starts here", start), ("ends here", end))
            if reason is not None and reason.source == source
        ]
        if rows:
            sections.append(f"<p><b>{html.escape(title)}</b></p><ul>{''.join(rows)}</ul>")
    return "".join(sections)


class ChunkInspector(QTextBrowser):
    def __init__(self, model: InspectorModel) -> None:
        super().__init__()
        self.model = model
        self.setOpenLinks(False)
        self.setPlaceholderText("Select a chunk (click it, or a row of the table)")
        self.shown: int | None = None
        #: the HTML shown ("" when empty)
        self._page = ""
        model.subscribe(ModelEvent.SELECTION, lambda _index: self.refresh())
        model.subscribe(ModelEvent.RESULT, lambda _result: self.refresh())
        model.subscribe(ModelEvent.DETAILS, lambda _result: self.refresh())  # reasons arrive later
        model.subscribe(ModelEvent.TOKENS, lambda _tokens: self.refresh())

    def refresh(self) -> None:
        result, index = self.model.result, self.model.selected
        if result is None or index is None or index >= len(result.layout.spans):
            self.shown = None
            if self._page:  # clearing an empty page still lays it out and repaints it
                self._page = ""
                self.clear()
            return
        self.shown = index
        page = self.page(index)
        if page != self._page:  # a new layout often leaves the selected chunk as it was
            self._page = page
            self.setHtml(page)

    def page(self, index: int) -> str:
        result = self.model.result
        assert result is not None
        layout = result.layout
        facts = chunk_facts(layout, index, result.tokens)
        tokens = "…" if facts.tokens is None else f"{facts.tokens:,}"
        rows = [
            ("kind", html.escape(facts.kind)),
            ("placed", html.escape(PLACED.get(facts.located, facts.located))),
            ("offsets", _offsets(facts)),
            (
                "size",
                f"{facts.chars:,} chars · {facts.utf8_bytes:,} UTF-8 bytes · "
                f"{tokens} {html.escape(tokenizer_label(self.model.token_counter))} tokens",
            ),
        ]
        for key, value in list(facts.metadata.items())[:20]:
            shown = value if isinstance(value, str) else json.dumps(value, default=str)
            rows.append((html.escape(str(key)), html.escape(shown[:300])))
        table = "".join(
            f"<tr><td><b>{k}</b></td><td>&nbsp;{v}</td></tr>" for k, v in rows if v is not None
        )
        parts = [f"<h3>Chunk #{facts.index}</h3><table>{table}</table>"]
        parts.append(_why(layout.spans, index))
        if facts.overlap:
            parts.append(
                f"<p><b>Overlap</b>: repeats {len(facts.overlap):,} chars of the chunk before"
                f"</p>{_pre(facts.overlap)}"
            )
        parts.append("<p><b>Text as the library returned it</b> (· space, → tab, ¶ line end)</p>")
        parts.append(_pre(facts.text))
        if facts.located != "exact":
            parts.append(self._diff(index))
        return "".join(parts)

    def _diff(self, index: int) -> str:
        layout = self.model.result.layout  # type: ignore[union-attr]
        span = layout.spans[index]
        start, end = source_slice(layout, span)
        pieces = character_diff(span.text, layout.document.text[start:end])
        out = []
        for side, text in pieces:
            shown = html.escape(show_white_space(text))
            if side == "chunk":
                out.append(f'<span style="background:{ONLY_IN_CHUNK}; color:#fff">{shown}</span>')
            elif side == "source":
                out.append(
                    f'<span style="background:{ONLY_IN_SOURCE}; color:#fff"><s>{shown}</s></span>'
                )
            else:
                out.append(shown)
        where = "its place" if span.located == "normalized" else "its last known place"
        return (
            f'<p><a name="diff"></a><b>Against the source</b> at {start:,}–{end:,} ({where}): '
            f'<span style="background:{ONLY_IN_CHUNK}; color:#fff">&nbsp;only in the chunk&nbsp;'
            f'</span> <span style="background:{ONLY_IN_SOURCE}; color:#fff">&nbsp;<s>only in '
            f"the source</s>&nbsp;</span></p>"
            f'<pre style="white-space: pre-wrap">{"".join(out)}</pre>'
        )


def _offsets(facts: ChunkFacts) -> str:
    """Where the chunk lies; a chunk found nowhere has no offsets ("0–0 (own text from
    0)" read as an empty chunk at the start), only the mark at its last known place."""
    if facts.located == "missing":
        return f"none: not in the text (marked at {facts.start:,}, its last known place)"
    return f"{facts.start:,}–{facts.end:,} (own text from {facts.own_start:,})"
