"""The colours of boundary kinds, one palette for the window and the interactive page:
Okabe-Ito's seven hues (told apart under the common colour-vision deficiencies) and a mid
grey, each of an entry's kinds in its usual colour or the first one free."""

from __future__ import annotations

import colorsys
from collections.abc import Iterable

#: Okabe-Ito: distinguishable under the common colour-vision deficiencies
OKABE_ITO = ["#E69F00", "#56B4E9", "#009E73", "#F0E442", "#0072B2", "#D55E00", "#CC79A7"]
#: the eighth colour, after Okabe-Ito's seven hues: a mid grey (Okabe-Ito's own eighth,
#: black, would vanish on the dark theme)
EIGHTH_COLOUR = "#7F7F7F"
#: the usual colour of the common kinds
KIND_COLOURS = {
    "heading": "#CC79A7",
    "paragraph": "#56B4E9",
    "sentence": "#009E73",
    "code-block": "#D55E00",
    "code": "#D55E00",
    "fixed": "#E69F00",
    "table": "#F0E442",
    "semantic": "#0072B2",
    "hierarchical": "#CC79A7",
    "layout": "#009E73",
}


def darker(colour: str, factor: int) -> str:
    """``colour`` (``#RRGGBB``) made darker as Qt's ``QColor.darker(factor)`` does it: its
    HSV value divided by ``factor / 100``; the result as ``#rrggbb``."""
    red, green, blue = (int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5))
    hue, saturation, value = colorsys.rgb_to_hsv(red, green, blue)
    rgb = colorsys.hsv_to_rgb(hue, saturation, value * 100 / factor)
    return "#" + "".join(f"{round(part * 255):02x}" for part in rgb)


def kind_colours(kinds: Iterable[str]) -> dict[str, str]:
    """A colour of its own for each of an entry's boundary kinds, by kind: the kind's usual
    colour when no earlier kind took it, else the first palette colour free, then darker
    shades of the palette when an entry has more kinds than it has colours."""
    palette = [*OKABE_ITO, EIGHTH_COLOUR]
    taken: set[str] = set()
    colours: dict[str, str] = {}
    for kind in kinds:
        wanted = KIND_COLOURS.get(kind)
        if wanted is None or wanted in taken:
            free = [c for c in palette if c not in taken]
            shade = len(taken) // len(palette)
            wanted = (
                free[0] if free else darker(palette[len(taken) % len(palette)], 140 + 40 * shade)
            )
        taken.add(wanted)
        colours[kind] = wanted
    return colours
