"""Errors the core raises. A chunker's own failure keeps the JS error's name."""

from __future__ import annotations


class ChunkerError(Exception):
    """The library threw (or, for ``Hang``, would never return).

    ``name`` is the JS error name (``RangeError``, ``Error``, ``Hang`` ...) and
    ``message`` its text, so a case can be compared with the original's output.
    """

    def __init__(self, name: str, message: str, position: int | None = None) -> None:
        super().__init__(f"{name}: {message}")
        self.name = name
        self.message = message
        #: where in the document the problem lies (code points), when known
        self.position = position
        #: the full traceback of an exception raised in a user's or a library's code (the
        #: message names its file and line; the failure box shows the rest)
        self.traceback: str | None = None

    def to_json(self) -> dict[str, str]:
        return {"error": self.name, "message": self.message}


class OptionError(ChunkerError):
    """An option value that the port refuses before running (not one the library checks)."""

    def __init__(self, option: str, message: str) -> None:
        super().__init__("OptionError", f"{option}: {message}")
        self.option = option


class Cancelled(Exception):
    """A newer request superseded this run (raised by ``RunContext.check``)."""


class DocumentError(Exception):
    """A file that cannot be opened as a text document; the message names the file."""
