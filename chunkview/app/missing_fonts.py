"""Scripts of a document that no installed font draws: said in words above the editor
while the document is open, rather than left as rows of boxes (a bare Linux often has
no CJK font)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from itertools import islice

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
    #: the characters that are this script's own
    pattern: re.Pattern[str]
    #: any one of these writing systems' fonts draws it
    systems: tuple[WritingSystem, ...]
    #: a font to install (Debian and Ubuntu's package)
    package: str


_CJK = (WritingSystem.Japanese, WritingSystem.SimplifiedChinese, WritingSystem.TraditionalChinese)
SCRIPTS = (
    Script("Japanese", re.compile("[\u3040-\u30ff]"), (WritingSystem.Japanese,), "fonts-noto-cjk"),
    Script("Chinese", re.compile("[\u4e00-\u9fff]"), _CJK, "fonts-noto-cjk"),
    Script("Korean", re.compile("[\uac00-\ud7af]"), (WritingSystem.Korean,), "fonts-noto-cjk"),
    Script("Arabic", re.compile("[\u0600-\u06ff]"), (WritingSystem.Arabic,), "fonts-noto-core"),
    Script("Hebrew", re.compile("[\u0590-\u05ff]"), (WritingSystem.Hebrew,), "fonts-noto-core"),
    Script("Thai", re.compile("[\u0e00-\u0e7f]"), (WritingSystem.Thai,), "fonts-noto-core"),
    Script(
        "Devanagari", re.compile("[\u0900-\u097f]"), (WritingSystem.Devanagari,), "fonts-noto-core"
    ),
    Script("Greek", re.compile("[\u0370-\u03ff]"), (WritingSystem.Greek,), "fonts-noto-core"),
    Script("Cyrillic", re.compile("[\u0400-\u04ff]"), (WritingSystem.Cyrillic,), "fonts-noto-core"),
)
#: any character of the scripts above: most documents have none, and are done in one pass
_ANY = re.compile(
    "[\u0370-\u04ff\u0590-\u06ff\u0900-\u097f\u0e00-\u0e7f\u3040-\u30ff\u4e00-\u9fff\uac00-\ud7af]"
)


@cache
def has_font(system: WritingSystem) -> bool:
    """Whether an installed font family draws ``system`` (the fonts do not change while
    the app runs)."""
    return bool(QFontDatabase.families(system))


def unreadable_scripts(text: str) -> list[Script]:
    """The scripts in ``text`` (its first SAMPLE_CHARS) that no installed font draws."""
    # the fonts first (known once): where every script has one, as on most machines, no
    # text is read, so a note made again for each layout's text costs nothing
    lacking = [s for s in SCRIPTS if not any(has_font(system) for system in s.systems)]
    if not lacking or _ANY.search(text, 0, SAMPLE_CHARS) is None:
        return []
    missing = [script for script in lacking if _holds(text, script)]
    if any(script.name == "Japanese" for script in missing):  # its kanji are Han too
        missing = [script for script in missing if script.name != "Chinese"]
    return missing


def _holds(text: str, script: Script) -> bool:
    """Whether the first SAMPLE_CHARS of ``text`` have LEAST_CHARS of ``script``'s."""
    found = script.pattern.finditer(text, 0, SAMPLE_CHARS)
    return len(list(islice(found, LEAST_CHARS))) == LEAST_CHARS


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
