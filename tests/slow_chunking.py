"""``python tests/slow_chunking.py ARGS...``: the ``chunkview`` command, with every
SemanticChunker run on a text holding ``SLOW`` made 60 s slower, in this process and in
every chunking process: forked from it (``run``, ``spans``) or by the forkserver (the
pools, the window's worker), which imports this module first (``tests`` must be on
PYTHONPATH: the forkserver does not get the script's folder). Each slow run first
creates the file ``CHUNKVIEW_TEST_SLOW_MARK`` names, so a test knows a job is running
before it signals the command."""

from __future__ import annotations

import os
import sys
import time
from typing import Any

from chunkview.core import registry

SLOW = "SLOW"
SECONDS = 60.0


def _slowed(run: Any) -> Any:
    def slow(document: Any, *args: Any, **kwargs: Any) -> Any:
        if SLOW in getattr(document, "text", ""):
            mark = os.environ.get("CHUNKVIEW_TEST_SLOW_MARK")
            if mark:
                with open(mark, "a", encoding="utf-8") as handle:
                    handle.write(f"{os.getpid()}\n")
            time.sleep(SECONDS)
        return run(document, *args, **kwargs)

    return slow


_entry = registry.get("agentos.SemanticChunker")
_entry.run = _slowed(_entry.run)

if __name__ == "__main__":
    from chunkview import cli
    from chunkview.core.runtime import start

    start.PRELOAD = (*start.PRELOAD, "slow_chunking")  # the forkserver imports it first
    sys.exit(cli.main(sys.argv[1:]))
