"""Headless subcommands that live in their own modules (``chunkview eval``, ``audit``)."""

from __future__ import annotations


def run_command(argv: list[str]) -> int:
    """Run ``argv[0]`` (eval or audit) with the rest of ``argv``; the exit status."""
    if argv[0] == "eval":
        from chunkview.commands.evaluate import main

        return main(argv[1:])
    from chunkview.commands.audit import main

    return main(argv[1:])


COMMANDS = ("eval", "audit")
