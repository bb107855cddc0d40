"""A self-contained HTML page of a layout: chunk backgrounds, overlaps, search hits."""

from __future__ import annotations

import html

from chunkview.core.analysis.compare import BoundaryComparison
from chunkview.core.model.explain import reason_words
from chunkview.core.runtime.pipeline import ChunkResult
from chunkview.core.views.decorations import DIFF_STYLES, Run, decorations

#: a diff mark per change kind, drawn as the editor draws it
DIFF_CSS = "".join(
    f".df.{kind}, .legend .{kind} {{ border-left: 3px {style} {colour}; }}\n"
    for kind, (colour, style, _text) in DIFF_STYLES.items()
)

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
.df { display: inline-block; width: 0; height: 1.3em; margin-left: -1px;
      vertical-align: text-bottom; }
.mv { text-decoration: underline 2px #0072B2; }
.legend span { display: inline-block; width: 0; height: 1em; margin: 0 4px 0 10px;
               vertical-align: text-bottom; }
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


def render_html(
    result: ChunkResult,
    title: str,
    diff: BoundaryComparison | None = None,
    b_title: str = "",
) -> str:
    """The page: the document with chunks painted, and a table of chunks beside it; with
    ``diff`` (this layout as A against a layout B named ``b_title``) the boundary changes
    too, with a legend and the summary."""
    layout = result.layout
    runs = decorations(layout, 0, len(layout.document.text), result.request.query, diff)
    compared = ""
    if diff is not None:
        legend = "".join(
            f"<span class='{kind}'></span>{html.escape(text)}"
            for kind, (_c, _s, text) in DIFF_STYLES.items()
        )
        compared = (
            f"<p>Compared with B: <code>{html.escape(b_title)}</code><br>"
            f"{html.escape(diff.summary())}</p><p class='legend'>{legend}</p>"
        )
    # a boundary's mark says why it is there when the run recorded it
    why = {
        run.chunk: layout.spans[run.chunk].reason
        for run in runs
        if run.kind == "boundary" and run.chunk is not None and run.chunk < len(layout.spans)
    }
    # a port's rule and its words; what a cut falls on says so (observed, not a rule)
    reasons = {
        i: f"{r.rule}: {r.text}" if r.source == "rule" else reason_words(r)
        for i, r in why.items()
        if r is not None
    }
    body = "".join(paint_runs(layout.document.text, runs, reasons))
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
        f"</title><style>{CSS}{DIFF_CSS}</style></head><body><main><pre>{body}</pre></main>"
        f"<aside><h3>{html.escape(result.request.entry_id)}</h3>"
        f"<p>{len(layout.spans)} chunks · options "
        f"<code>{html.escape(str(result.request.options))}</code></p>{compared}"
        f"<table><tr><th>#</th><th>kind</th><th>start</th><th>end</th><th>chars</th></tr>"
        f"{rows}</table><ul>{warnings}</ul></aside></body></html>"
    )


def paint_runs(text: str, runs: list[Run], reasons: dict[int, str] | None = None) -> list[str]:
    """HTML pieces of ``text`` with the runs applied: a class per painted run
    (``c0``/``c1`` chunk tone, ``ov`` overlap, ``hit``, ``mv`` a moved boundary's way)
    and a mark + label per boundary, a ``df`` mark per boundary change.
    Each piece carries ``data-chunk`` for the chunk whose own part it is; a boundary's
    title is its label, or the reason of its chunk from ``reasons`` (chunk -> words)."""
    cuts = {0, len(text)}
    for run in runs:
        cuts.update((run.start, run.end))
    points = sorted(p for p in cuts if 0 <= p <= len(text))
    marks: dict[int, list[Run]] = {}
    for run in runs:
        if run.kind in ("boundary", "diff"):
            marks.setdefault(run.start, []).append(run)
    painted = sorted((r for r in runs if r.start < r.end), key=lambda r: r.start)
    out: list[str] = []
    active: list[Run] = []
    next_run = 0
    for a, b in zip(points, points[1:]):
        for mark in marks.get(a, []):
            if mark.kind == "boundary":
                tip = (reasons or {}).get(mark.chunk, mark.label)  # type: ignore[arg-type]
                out.append(
                    f'<span class="mark" title="{html.escape(tip)}"></span>'
                    f'<span class="lbl">#{mark.chunk}</span>'
                )
            else:
                out.append(f'<span class="df {mark.label}" title="{mark.label}"></span>')
        while next_run < len(painted) and painted[next_run].start <= a:
            active.append(painted[next_run])
            next_run += 1
        active = [r for r in active if r.end > a]
        classes, chunk = [], None
        for run in active:
            if run.kind == "chunk":
                chunk = run.chunk
                classes.append(f"c{(run.chunk or 0) % 2}")
            elif run.kind == "overlap":
                classes.append("ov")
            elif run.kind == "hit":
                classes.append("hit")
            elif run.kind == "moved":
                classes.append("mv")
        piece = html.escape(text[a:b])
        if classes:
            data = f' data-chunk="{chunk}"' if chunk is not None else ""
            out.append(f'<span class="{" ".join(sorted(classes))}"{data}>{piece}</span>')
        else:
            out.append(piece)
    return out
