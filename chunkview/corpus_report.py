"""A corpus evaluation as one self-contained HTML page (``chunkview eval ... --report``):
the settings, the means per setting as plots and a table, each document's IoU as a strip
plot, and the worst questions with their excerpts and chunks. Nothing is fetched: the
style is inline and the plots are inline SVG.

The plots are a few lines, dots and labels on a fixed 0..1 scale, written here as SVG
elements. pyqtgraph, which draws the window's plots, cannot write them: its SVG exporter
fails under PySide6 6.x, Qt's own SVG generator needs a laid-out widget and a
QApplication in the command, and it paints markers as bitmaps.
"""

from __future__ import annotations

import html
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass

from chunkview.core.errors import DocumentError
from chunkview.core.views.corpus_report import (
    FIGURE_COLOURS,
    FIGURE_NAMES,
    Column,
    CorpusReport,
    WorstQuestion,
    figure_shown,
)

WIDTH, HEIGHT = 460, 240
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 28, 62

CSS = """
body { font: 14px/1.45 system-ui, sans-serif; margin: 18px auto; max-width: 1000px;
       padding: 0 16px; color: #222; }
h1 { font-size: 20px; } h2 { font-size: 16px; margin-top: 28px; }
table { border-collapse: collapse; } td, th { padding: 2px 8px; text-align: right;
        border-bottom: 1px solid #e4e4e4; } th { font-weight: 600; }
td.l, th.l { text-align: left; }
.plots { display: flex; flex-wrap: wrap; gap: 12px; }
svg { background: #fff; border: 1px solid #ddd; }
svg text { font: 11px system-ui, sans-serif; fill: #333; }
pre { white-space: pre-wrap; font: 12px/1.45 ui-monospace, monospace; margin: 2px 0 6px;
      padding: 4px 6px; background: #f6f6f6; border-left: 3px solid #bbb; }
pre.excerpt { border-color: #E69F00; } pre.own { border-color: #0072B2; }
.q { margin-bottom: 18px; } .muted { color: #666; } .fail { color: #D55E00; }
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


@dataclass(frozen=True)
class Series:
    figure: str
    #: one value per column (None: not computed)
    values: list[float | None]
    dashed: bool = False


class _Frame:
    """A plot's frame: a 0..1 value axis and one slot per column label."""

    def __init__(self, title: str, labels: Sequence[str], axis: str = "") -> None:
        self.labels = list(labels)
        self.parts = [
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
            f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img"><title>{_e(title)}</title>',
            f'<text x="{WIDTH / 2}" y="16" text-anchor="middle">{_e(title)}</text>',
        ]
        for tick in (0.0, 0.25, 0.5, 0.75, 1.0):
            y = self.y(tick)
            self.parts.append(
                f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y}" y2="{y}" stroke="#eee"/>'
                f'<text x="{LEFT - 6}" y="{y + 4}" text-anchor="end">{tick:g}</text>'
            )
        fits = int((WIDTH - LEFT - RIGHT) / max(len(self.labels), 1) / 6.5)
        for i, label in enumerate(self.labels):
            shown = label if len(label) <= fits else label[: max(fits - 1, 1)] + "…"
            self.parts.append(
                f'<text x="{self.x(i)}" y="{HEIGHT - BOTTOM + 16}" text-anchor="middle">'
                f"<title>{_e(label)}</title>{_e(shown)}</text>"
            )
        if axis:
            self.parts.append(
                f'<text x="{(WIDTH + LEFT - RIGHT) / 2}" y="{HEIGHT - BOTTOM + 32}" '
                f'text-anchor="middle" font-style="italic">{_e(axis)}</text>'
            )

    def x(self, i: int) -> float:
        inner = WIDTH - LEFT - RIGHT
        return round(LEFT + inner * (i + 0.5) / max(len(self.labels), 1), 1)

    def y(self, value: float) -> float:
        inner = HEIGHT - TOP - BOTTOM
        return round(TOP + inner * (1 - min(max(value, 0.0), 1.0)), 1)

    def dot(self, x: float, value: float, colour: str, tip: str, r: float = 3.5) -> None:
        self.parts.append(
            f'<circle cx="{x}" cy="{self.y(value)}" r="{r}" fill="{colour}">'
            f"<title>{_e(tip)}</title></circle>"
        )

    def svg(self, legend: Sequence[tuple[str, str, bool]] = ()) -> str:
        x = LEFT
        for name, colour, dashed in legend:
            dash = ' stroke-dasharray="5 3"' if dashed else ""
            y = HEIGHT - 12
            self.parts.append(
                f'<line x1="{x}" x2="{x + 18}" y1="{y - 4}" y2="{y - 4}" stroke="{colour}" '
                f'stroke-width="2"{dash}/><text x="{x + 22}" y="{y}">{_e(name)}</text>'
            )
            x += 30 + 7 * len(name)
        return "".join(self.parts) + "</svg>"


def means_plot(title: str, labels: Sequence[str], series: Sequence[Series], axis: str = "") -> str:
    """Each figure's means, one point per column: joined by a line along a swept option
    (``axis`` names it), else side by side in each column (settings are not a scale)."""
    frame = _Frame(title, labels, axis)
    for k, line in enumerate(series):
        colour = FIGURE_COLOURS[line.figure]
        shift = 0.0 if axis else (k - (len(series) - 1) / 2) * 9
        points = [
            (round(frame.x(i) + shift, 1), v, labels[i])
            for i, v in enumerate(line.values)
            if v is not None
        ]
        if axis and len(points) > 1:
            path = " ".join(f"{x},{frame.y(v)}" for x, v, _ in points)
            dash = ' stroke-dasharray="5 3"' if line.dashed else ""
            frame.parts.append(
                f'<polyline points="{path}" fill="none" stroke="{colour}" stroke-width="2"{dash}/>'
            )
        for x, v, label in points:
            frame.dot(x, v, colour, f"{FIGURE_NAMES[line.figure]} at {label}: {figure_shown(v)}")
    return frame.svg([(FIGURE_NAMES[s.figure], FIGURE_COLOURS[s.figure], s.dashed) for s in series])


def spread_plot(title: str, columns: Sequence[Column], figure: str, axis: str = "") -> str:
    """Each document's mean of ``figure`` as a dot per column (spread sideways so equal
    values stay visible), with the corpus mean as a bar."""
    frame = _Frame(title, [c.label for c in columns], axis)
    step = (WIDTH - LEFT - RIGHT) / max(len(columns), 1)
    colour = FIGURE_COLOURS[figure]
    for i, col in enumerate(columns):
        x = frame.x(i)
        values = [(d.corpus_id, getattr(d, figure)) for d in col.documents]
        shown = [(c, v) for c, v in values if v is not None]
        for n, (corpus_id, value) in enumerate(shown):
            offset = ((n * 7) % 11 - 5) / 5 * step * 0.25
            tip = f"{corpus_id}: {figure_shown(value)}"
            frame.dot(round(x + offset, 1), value, colour, tip, r=2.5)
        mean = col.means.get(figure)
        if mean is not None:
            y = frame.y(mean)
            half = step * 0.35
            frame.parts.append(
                f'<line x1="{x - half:.1f}" x2="{x + half:.1f}" y1="{y}" y2="{y}" '
                f'stroke="#222" stroke-width="2"><title>corpus mean: {figure_shown(mean)}'
                "</title></line>"
            )
    return frame.svg(
        [(f"{FIGURE_NAMES[figure]} per document", colour, False), ("corpus mean", "#222", False)]
    )


def _means_table(report: CorpusReport) -> str:
    columns = report.columns + ([report.compared] if report.compared else [])
    head = "".join(f"<th>{_e(FIGURE_NAMES[n])}</th>" for n in FIGURE_NAMES)
    rows = []
    for col in columns:
        whole = col.means.get("whole")
        cells = "".join(f"<td>{figure_shown(col.means.get(n))}</td>" for n in FIGURE_NAMES)
        compared = col is report.compared and col.label != "compared"
        label = f"compared: {col.label}" if compared else col.label
        rows.append(
            f'<tr><td class="l">{_e(label)}</td>{cells}'
            f"<td>{'-' if whole is None else f'{100 * whole:.0f}%'}</td>"
            f"<td>{col.chunks}</td><td>{col.files}</td></tr>"
        )
    setting = _e(report.settings.get("param") or "setting")
    return (
        f'<table><tr><th class="l">{setting}</th>{head}<th>whole</th><th>chunks</th>'
        f"<th>files</th></tr>{''.join(rows)}</table>"
    )


def _settings_table(settings: dict[str, object]) -> str:
    rows = []
    for name, value in settings.items():
        if value is None or value == "":
            continue
        shown = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
        rows.append(f'<tr><th class="l">{_e(name)}</th><td class="l">{_e(shown)}</td></tr>')
    return f"<table>{''.join(rows)}</table>"


def _question(q: WorstQuestion) -> str:
    figures = " · ".join(f"{FIGURE_NAMES[n]} {figure_shown(v)}" for n, v in q.figures.items())
    excerpts = "".join(f'<pre class="excerpt">{_e(t)}</pre>' for t in q.excerpts)
    kind = "retrieved (top k, over the corpus)" if q.retrieved else "holding the excerpts"
    chunks = "".join(
        f'<div class="muted">{_e(c.corpus_id)} · chunk {c.index}</div>'
        f'<pre class="{"own" if c.corpus_id == q.corpus_id else "other"}">{_e(c.text)}</pre>'
        for c in q.chunks
    )
    return (
        f'<div class="q"><b>{q.number}. {_e(q.question)}</b> '
        f'<span class="muted">{_e(q.corpus_id)}</span><div>{figures}</div>'
        f"<div>reference excerpts:</div>{excerpts or '<div class=muted>(none kept)</div>'}"
        f"<div>chunks {kind}:</div>{chunks or '<div class=muted>(none)</div>'}</div>"
    )


def _plots(report: CorpusReport) -> str:
    axis = str(report.settings.get("param") or "")
    # along a sweep the compared setting is no point of the line: the table and the
    # spread show it; without one it stands beside the setting
    columns = report.columns + ([report.compared] if report.compared and not axis else [])
    labels = [c.label for c in columns]
    figures = ["recall", "precision", "iou"] if report.retrieval else []
    plots = []
    if figures:
        series = [Series(f, [c.means.get(f) for c in columns], f == "iou") for f in figures]
        plots.append(
            means_plot(
                f"mean recall · precision · IoU, top {report.settings.get('top_k')}",
                labels,
                series,
                axis,
            )
        )
    omega = [
        Series(f, [c.means.get(f) for c in columns], f == "iou_omega")
        for f in ("precision_omega", "iou_omega")
    ]
    plots.append(means_plot("mean precision Ω · IoU Ω", labels, omega, axis))
    spread = report.columns + ([report.compared] if report.compared else [])
    for figure in ["iou"] * bool(figures) + ["iou_omega"]:
        plots.append(spread_plot(f"{FIGURE_NAMES[figure]} per document", spread, figure, axis))
    return f'<div class="plots">{"".join(plots)}</div>'


def render_report(report: CorpusReport, title: str = "chunkview corpus evaluation") -> str:
    """The page, whole: no link, script or image leaves it."""
    failed = [f for c in report.columns for f in c.failed]
    failures = (
        "<h2>Failed documents</h2>" + "".join(f'<div class="fail">{_e(f)}</div>' for f in failed)
        if failed
        else ""
    )
    worst = "".join(_question(q) for q in report.worst)
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{_e(title)}</title><style>{CSS}</style></head><body>"
        f"<h1>{_e(title)}</h1><h2>Settings</h2>{_settings_table(report.settings)}"
        f"<h2>Corpus means</h2>{_means_table(report)}{_plots(report)}{failures}"
        f"<h2>The worst questions</h2><p class=muted>the {len(report.worst)} lowest in "
        f"{_e(FIGURE_NAMES[report.worst_by])} at {_e(report.worst_of)}</p>{worst}"
        "</body></html>\n"
    )


def save_report(page: str, path: str) -> None:
    """Write the page whole or not at all (a temporary file beside it, then renamed);
    DocumentError (one line) when it cannot be written."""
    temporary = f"{path}.{os.getpid()}.tmp"
    try:
        with open(temporary, "x", encoding="utf-8") as out:  # the user's umask, as any file
            out.write(page)
        os.replace(temporary, path)
    except OSError as exc:
        if os.path.exists(temporary):
            os.unlink(temporary)
        message = f"{path}: the report cannot be written ({exc.strerror or exc})"
        raise DocumentError(message) from None
