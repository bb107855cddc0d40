"""Scripts of a document that no installed font draws: said in words above the editor
while the document is open, rather than left as rows of boxes (a bare Linux often has
no CJK font)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np
from PySide6.QtGui import QFontDatabase

WritingSystem = QFontDatabase.WritingSystem

#: how much of a long text is looked at (a script in the first megabyte is enough to say)
SAMPLE_CHARS = 1 << 20
#: a script is named when the sample holds this many of its characters: a word or two
#: in boxes (a sample's one line of Japanese) is left alone, a text in them is not
LEAST_CHARS = 50


@dataclass(frozen=True)
class Script:
    name: str
    #: the characters that are this script's own: code points first to last
    first: int
    last: int
    #: any one of these writing systems' fonts draws it
    systems: tuple[WritingSystem, ...]
    #: a font to install (Debian and Ubuntu's package)
    package: str


_CJK = (WritingSystem.Japanese, WritingSystem.SimplifiedChinese, WritingSystem.TraditionalChinese)
_NOTO = "fonts-noto-core"
SCRIPTS = (
    Script("Japanese", 0x3040, 0x30FF, (WritingSystem.Japanese,), "fonts-noto-cjk"),
    Script("Chinese", 0x4E00, 0x9FFF, _CJK, "fonts-noto-cjk"),
    Script("Korean", 0xAC00, 0xD7AF, (WritingSystem.Korean,), "fonts-noto-cjk"),
    Script("Arabic", 0x0600, 0x06FF, (WritingSystem.Arabic,), _NOTO),
    Script("Hebrew", 0x0590, 0x05FF, (WritingSystem.Hebrew,), _NOTO),
    Script("Thai", 0x0E00, 0x0E7F, (WritingSystem.Thai,), _NOTO),
    Script("Devanagari", 0x0900, 0x097F, (WritingSystem.Devanagari,), _NOTO),
    Script("Greek", 0x0370, 0x03FF, (WritingSystem.Greek,), _NOTO),
    Script("Cyrillic", 0x0400, 0x04FF, (WritingSystem.Cyrillic,), _NOTO),
)


@cache
def has_font(system: WritingSystem) -> bool:
    """Whether an installed font family draws ``system`` (the fonts do not change while
    the app runs)."""
    return bool(QFontDatabase.families(system))


def unreadable_scripts(text: str) -> list[Script]:
    """The scripts of which ``text`` (its first SAMPLE_CHARS) holds LEAST_CHARS
    characters or more and that no installed font draws."""
    # the fonts first (known once): where every script has one, as on most machines, no
    # text is read, so a note made again for each layout's text costs nothing
    lacking = [s for s in SCRIPTS if not any(has_font(system) for system in s.systems)]
    if not lacking or text.isascii():
        return []
    # one pass for every script: how many of each code point (a regex a script took a
    # pass over a megabyte each, 13 ms on the UI thread at each layout of an edit)
    sample = text[:SAMPLE_CHARS].encode("utf-16-le", "surrogatepass")
    below = np.bincount(np.frombuffer(sample, dtype=np.uint16), minlength=0x10000).cumsum()
    missing = [
        script for script in lacking if below[script.last] - below[script.first - 1] >= LEAST_CHARS
    ]
    if any(script.name == "Japanese" for script in missing):  # its kanji are Han too
        missing = [script for script in missing if script.name != "Chinese"]
    return missing


def note(text: str) -> str | None:
    """One line for the legend when part of ``text`` has no font, else None."""
    missing = unreadable_scripts(text)
    if not missing:
        return None
    names = " and ".join(script.name for script in missing)
    packages = ", ".join(dict.fromkeys(script.package for script in missing))
    return (
        f"No font here draws this document's {names} text, shown as boxes (the text and "
        f"its chunks are whole): install one, such as {packages} on Debian or Ubuntu"
    )
