"""The chunk inspector: the selected chunk exactly as the library returned it, its text
right under a few lines of facts (the panel under the table is short: the text a user
clicked for must show without scrolling), the reasons and details after it.

White space is drawn as marks, the overlap it repeats is shown apart, and a chunk placed
only after normalising white space (or not found at all) gets a character diff against
the source, so its text is never out of sight.
"""

from __future__ import annotations

import html
import json

from PySide6.QtWidgets import QTextBrowser

from chunkview.core.model.explain import SOURCE_TITLES, chunk_ends, reason_label
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
#: the chunk's text right under its heading: a line more of it in a short panel
TEXT_MARGIN = "; margin-top: 2px"
#: how the chunk was placed, in the facts' first line (PLACED says it whole, below)
PLACED_SHORT = {
    "exact": "placed exactly",
    "normalized": "placed ≈ after normalizing",
    "missing": "✗ not in the document",
}
ONLY_IN_CHUNK = DIFF_STYLES["added"][0]
ONLY_IN_SOURCE = DIFF_STYLES["removed"][0]


def _pre(text: str, margin: str = "") -> str:
    shown = show_white_space(text[:SHOW_LIMIT])
    more = f"\n… {len(text) - SHOW_LIMIT:,} more chars" if len(text) > SHOW_LIMIT else ""
    return f'<pre style="white-space: pre-wrap{margin}">{html.escape(shown)}{more}</pre>'


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


def _why_in_brief(spans, index: int) -> str:
    """The rules the chunk starts and ends by, in a line (``_why`` says them whole)."""
    ends = zip(("starts", "ends"), chunk_ends(spans, index), strict=True)
    said = [f"{label}: {html.escape(reason_label(r))}" for label, r in ends if r is not None]
    return "<b>Why</b> " + " · ".join(said)


class ChunkInspector(QTextBrowser):
    def __init__(self, model: InspectorModel) -> None:
        super().__init__()
        self.model = model
        self.setOpenLinks(False)
        # the facts' links go to the reasons and the diff below the text
        self.anchorClicked.connect(lambda url: self.scrollToAnchor(url.fragment()))
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
        """The chunk's facts in a few lines, then its text (in sight in a short panel,
        where a user looks first), then what it repeats of the chunk before, why it was
        cut where it was in full, the facts in words and its metadata, and a diff."""
        result = self.model.result
        assert result is not None
        layout = result.layout
        facts = chunk_facts(layout, index, result.tokens)
        tokens = "…" if facts.tokens is None else f"{facts.tokens:,}"
        counter = html.escape(tokenizer_label(self.model.token_counter))
        placed = PLACED_SHORT.get(facts.located, html.escape(facts.located))
        if facts.located != "exact":  # the diff is what a user wants to see
            placed += ' · <a href="#diff">diff ↓</a>'
        why = _why(layout.spans, index)
        lines = [
            f"<b>Chunk #{facts.index}</b> · {html.escape(facts.kind)} · {placed}",
            f"<b>offsets</b> {_offsets(facts)}",
            f"{facts.chars:,} chars · {facts.utf8_bytes:,} UTF-8 bytes · {tokens} {counter} tokens",
        ]
        if why:
            lines.append(f"{_why_in_brief(layout.spans, index)} · " + '<a href="#why">why ↓</a>')
        parts = [
            f'<p style="margin-top:0; margin-bottom:6px">{"<br>".join(lines)}</p>',
            '<p style="margin:0"><b>Text as returned</b> (· space, → tab, ¶ line end)</p>',
            _pre(facts.text, TEXT_MARGIN),
        ]
        if facts.overlap:
            parts.append(
                f"<p><b>Overlap</b>: repeats {len(facts.overlap):,} chars of the chunk before"
                f"</p>{_pre(facts.overlap)}"
            )
        if why:
            parts.append(f'<a name="why"></a>{why}')
        rows = [("placed", html.escape(PLACED.get(facts.located, facts.located)))]
        for key, value in list(facts.metadata.items())[:20]:
            shown = value if isinstance(value, str) else json.dumps(value, default=str)
            rows.append((html.escape(str(key)), html.escape(shown[:300])))
        table = "".join(f"<tr><td><b>{k}</b></td><td>&nbsp;{v}</td></tr>" for k, v in rows)
        parts.append(f"<p><b>Details</b></p><table>{table}</table>")
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
