"""What the subcommands share: one-line usage errors and JSON options."""

from __future__ import annotations

import argparse
import json
from typing import Any, NoReturn


class UsageError(Exception):
    pass


class Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # one line, exit 2
        raise UsageError(message)


def json_object(name: str, value: str | None) -> dict[str, Any]:
    if value is None:
        return {}
    try:
        data = json.loads(value)
    except json.JSONDecodeError as exc:
        raise UsageError(f"{name} is not valid JSON ({exc.msg} at column {exc.colno})") from None
    if not isinstance(data, dict):
        raise UsageError(f"{name} must be a JSON object")
    return data


def token_limit(value: str | None) -> int | None:
    from chunkview.core.checks import parse_token_limit

    try:
        return parse_token_limit(value)
    except ValueError as exc:
        raise UsageError(f"--token-limit: {exc}") from None
