"""A self-contained HTML page of a layout: chunk backgrounds, overlaps, search hits."""

from __future__ import annotations

import html

from chunkview.core.pipeline import ChunkResult, matching_words

CSS = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 0; display: flex; height: 100vh; }
main { flex: 1; overflow: auto; padding: 12px 18px; }
aside { width: 360px; overflow: auto; border-left: 1px solid #ccc; padding: 8px 12px;
        font-size: 12px; }
pre { white-space: pre-wrap; font: 13px/1.5 ui-monospace, monospace; margin: 0; }
.c0 { background: rgba(86, 180, 233, .28); } .c1 { background: rgba(230, 159, 0, .28); }
.ov { background-image: repeating-linear-gradient(135deg, rgba(0,0,0,.35) 0 1px,
      transparent 1px 5px); }
.mark { display: inline-block; width: 0; border-left: 3px solid #CC79A7; height: 1.1em;
        vertical-align: text-bottom; }
.lbl { font: 10px ui-monospace, monospace; color: #555; vertical-align: super; }
.hit { background: #FFD400; font-weight: bold; color: #000; }
table { border-collapse: collapse; width: 100%; } td, th { padding: 1px 4px;
        text-align: right; border-bottom: 1px solid #eee; }
.warn { color: #D55E00; }
@media (prefers-color-scheme: dark) {
  body { background: #1e1f22; color: #e6e6e6; } aside { border-color: #444; }
  .lbl { color: #aaa; } td, th { border-color: #333; }
  .ov { background-image: repeating-linear-gradient(135deg, rgba(255,255,255,.45) 0 1px,
        transparent 1px 5px); }
}
"""


def render_html(result: ChunkResult, title: str) -> str:
    """The page: the document with chunks painted, and a table of chunks beside it."""
    layout = result.layout
    text = layout.document.text
    query = result.request.query
    # boundaries where the styling changes
    events: set[int] = {0, len(text)}
    for span in layout.spans:
        if span.located != "missing":
            events.update((span.start, span.own_start, span.end))
    hits = matching_words(text, query) if query else []
    for start, end in hits:
        events.update((start, end))
    points = sorted(events)
    starts = {s.own_start: s for s in layout.spans if s.located != "missing"}
    spans = [s for s in layout.spans if s.located != "missing"]
    hit_set = hits
    out = []
    span_i = 0
    hit_i = 0
    for a, b in zip(points, points[1:]):
        if a in starts and starts[a].index:
            out.append(f'<span class="mark"></span><span class="lbl">#{starts[a].index}</span>')
        while span_i < len(spans) and spans[span_i].end <= a:
            span_i += 1
        classes = []
        owner = next(
            (s for s in spans[max(0, span_i - 2) : span_i + 3] if s.own_start <= a < s.end), None
        )
        if owner is not None:
            classes.append(f"c{owner.index % 2}")
        if any(s.start <= a < s.own_start for s in spans[max(0, span_i - 2) : span_i + 3]):
            classes.append("ov")
        while hit_i < len(hit_set) and hit_set[hit_i][1] <= a:
            hit_i += 1
        if hit_i < len(hit_set) and hit_set[hit_i][0] <= a:
            classes.append("hit")
        piece = html.escape(text[a:b])
        out.append(f'<span class="{" ".join(classes)}">{piece}</span>' if classes else piece)
    rows = "".join(
        f"<tr><td>{s.index}</td><td style='text-align:left'>{html.escape(s.kind)}</td>"
        f"<td>{s.start}</td><td>{s.end}</td><td>{len(s.text)}</td></tr>"
        for s in layout.spans
    )
    warnings = "".join(
        f"<li class='warn'>{html.escape(w.message)}</li>" for w in layout.warnings[:500]
    )
    return (
        f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}"
        f"</title><style>{CSS}</style></head><body><main><pre>{''.join(out)}</pre></main>"
        f"<aside><h3>{html.escape(result.request.entry_id)}</h3>"
        f"<p>{len(layout.spans)} chunks · options "
        f"<code>{html.escape(str(result.request.options))}</code></p>"
        f"<table><tr><th>#</th><th>kind</th><th>start</th><th>end</th><th>chars</th></tr>"
        f"{rows}</table><ul>{warnings}</ul></aside></body></html>"
    )
