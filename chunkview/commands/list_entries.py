"""``chunkview list``: every entry with its options and their defaults, as JSON."""

from __future__ import annotations

import argparse
from typing import Any

from chunkview.commands.common import REPORTED, Parser, report
from chunkview.core import registry
from chunkview.core.text.jsonout import dumps


def parse(argv: list[str]) -> argparse.Namespace:
    return Parser(prog="chunkview list").parse_args(argv)


def list_entries() -> list[dict[str, Any]]:
    """Every entry and its options as JSON data. A printed ``default`` is what the library
    uses when the option is left out, so passing it back changes nothing; an option without
    one is best left out (its help says what the library then does); a ``preset`` default
    is the panel's starting value where the library has none, and is always passed; ``when``
    names the settings under which an option applies
    (the library refuses it otherwise)."""
    listed = []
    for entry in registry.entries():
        params = []
        for param in entry.params:
            data = param.to_json()
            if param.omitted(param.default):  # the panel's "leave it out" value
                for key in ("default", "special", "minimum"):
                    data.pop(key, None)
                if "choices" in data:
                    data["choices"] = [c for c in data["choices"] if c != param.special]
            params.append(data)
        listed.append(
            {
                "id": entry.id,
                "library": entry.library,
                "title": entry.title,
                "summary": entry.summary,
                "sizeUnit": entry.size_unit,
                "params": params,
            }
        )
    return listed


def main(argv: list[str]) -> int:
    try:
        parse(argv)
        print(dumps(list_entries(), indent=2))
    except REPORTED as exc:
        return report(exc)
    return 0
