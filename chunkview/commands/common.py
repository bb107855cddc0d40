"""What the subcommands share: one-line usage errors, JSON arguments, and how a command
that fails says so."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, NoReturn

from chunkview.core.checks import parse_token_limit
from chunkview.core.errors import ChunkerError, DocumentError
from chunkview.core.io.read import NotTextError
from chunkview.core.text.jsonout import dumps


class UsageError(Exception):
    pass


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit 2
        raise UsageError(message)


def json_value(name: str, value: str | None) -> Any:
    """The JSON ``value`` of the argument ``name`` (None when it was not given)."""
    if value is None:
        return None
    try:
        return json.loads(value)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{name} is not valid JSON ({exc.msg} at column {exc.colno})") from None


def json_object(name: str, value: str | None) -> dict[str, Any]:
    """The JSON object of the argument ``name`` ({} when it was not given)."""
    if value is None:
        return {}
    data = json_value(name, value)
    if not isinstance(data, dict):
        raise UsageError(f"{name} must be a JSON object")
    return data


def token_limit(value: str | None) -> int | None:
    try:
        return parse_token_limit(value)
    except ValueError as exc:
        raise UsageError(f"--token-limit: {exc}") from None


def most_jobs() -> int:
    """The most chunking processes a command starts: four per core, at most 256 (each
    holds a process and a few pipes; past the cores they only wait on each other)."""
    return min(4 * (os.cpu_count() or 1), 256)


def capped_jobs(command: str, jobs: int | None) -> int:
    """``--jobs`` of ``command``, at most ``most_jobs()`` (with a note on stderr when it
    asked for more); one per core when it was not given; a UsageError below 1."""
    if jobs is None:
        return min(os.cpu_count() or 1, most_jobs())
    if jobs < 1:
        raise UsageError("--jobs must be 1 or more")
    most = most_jobs()
    if jobs > most:
        print(
            f"chunkview {command}: note: --jobs {jobs} capped at {most} (4 per core, at most 256)",
            file=sys.stderr,
        )
        return most
    return jobs


#: what ``report`` tells in one line (a chunker's error as JSON on stdout)
REPORTED = (ChunkerError, UsageError, KeyError, DocumentError)


def report(error: Exception, suggest_encoding: bool = False) -> int:
    """Say what went wrong, as run, spans, list, render, diff and sweep do; the exit
    status: 2 for a usage error or an unknown entry, else 1. ``suggest_encoding``: the
    command takes --encoding and was not given one, so a text that is not UTF-8 names
    the encoding it likely is."""
    if isinstance(error, ChunkerError):
        print(dumps(error.to_json()))
        return 1
    if isinstance(error, KeyError):
        print(f"chunkview: {error.args[0]}", file=sys.stderr)
        return 2
    hint = ""
    if isinstance(error, NotTextError) and error.guess and suggest_encoding:
        hint = f" (--encoding {error.guess})"
    print(f"chunkview: {error}{hint}", file=sys.stderr)
    return 2 if isinstance(error, UsageError) else 1
