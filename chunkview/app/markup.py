"""Text from the document or the file system shown on Qt's rich-text surfaces.

Qt guesses whether a tooltip, a message box or an auto-format label is rich text (a tag
near the start is enough), so a chunk's metadata or a file name holding ``<b>`` or
``</script>`` would be rendered, or vanish. Where no markup is meant, a label is set to
plain text (Qt.TextFormat.PlainText); where markup is meant, what comes from outside is
escaped here. tests/test_app_markup.py checks the app for f-strings that skip both.
"""

from __future__ import annotations

import html
import json
from collections.abc import Mapping
from typing import Any


def escape(text: object) -> str:
    """``text`` (made a string) as rich text that shows exactly it."""
    return html.escape(str(text), quote=False)


def as_rich_text(text: str) -> str:
    """Plain ``text`` as rich text, for surfaces that guess the format (QMessageBox's
    static questions, tool tips): surely taken as rich text, each character shown as it
    is, line breaks kept."""
    return "<p>" + escape(text).replace("\n", "<br>") + "</p>"


def options_json(options: Mapping[str, Any]) -> str:
    """Options as the JSON a user types and ``chunkview run --options`` takes (true, null,
    double quotes), not Python's repr; a value JSON has no word for is shown as text."""
    return json.dumps(dict(options), separators=(", ", ": "), ensure_ascii=False, default=str)
