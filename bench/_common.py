"""Helpers shared by the benchmarks: corpus-built texts and a node peer when present."""

from __future__ import annotations

import gc
import json
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# measure the checkout the benchmark is in (the venv's editable install may be another one)
sys.path.insert(0, str(ROOT))
CORPUS = Path(os.environ.get("CHUNKVIEW_CORPUS", ROOT / "tests" / "corpus"))
#: where the pinned originals are installed: `python -m conformance` puts them in its cache
JS_REF = Path(
    os.environ.get(
        "CHUNKVIEW_JS_REF",
        Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache")) / "chunkview-conformance",
    )
)


def corpus_text(size_bytes: int, pattern: str = "*.md") -> str:
    """Corpus documents of the given pattern, repeated up to about ``size_bytes``."""
    files = sorted(CORPUS.glob(pattern)) or sorted(CORPUS.glob("*"))
    pieces = [p.read_text(encoding="utf-8") for p in files if p.is_file()]
    if not pieces:
        raise SystemExit(f"no corpus documents under {CORPUS}")
    out, total = [], 0
    while total < size_bytes:
        for piece in pieces:
            out.append(piece)
            total += len(piece.encode("utf-8"))
            if total >= size_bytes:
                break
    return "\n\n".join(out)


def timed_once(fn: Callable[[], object]) -> float:
    """Seconds one call of ``fn`` takes, as the app's chunking process runs a job: with
    the cyclic collector off (it runs between jobs there, here after the clock stops),
    and the result freed after the clock stops (node's collector frees a dead result
    later, at almost no cost: it copies the live objects only)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        began = time.perf_counter()
        result = fn()
        seconds = time.perf_counter() - began
        del result
    finally:
        if enabled:
            gc.enable()
    gc.collect()
    return seconds


def best_of(fn: Callable[[], object], repeat: int = 3) -> float:
    """The shortest of ``repeat`` calls of ``fn``, each timed by ``timed_once``."""
    return min(timed_once(fn) for _ in range(repeat))


def node_seconds(script: str, text: str) -> float | None:
    """Run a node snippet that reads the text from stdin and prints seconds, if node and the
    JS packages are installed under JS_REF; None otherwise."""
    printed = node_json(script, text)
    return None if printed is None else float(printed)


def node_json(script: str, text: str) -> Any:
    """Run a node snippet that reads the text from stdin and prints one JSON value on its
    last line, if node and the JS packages are installed under JS_REF; None otherwise."""
    if not shutil.which("node") or not (JS_REF / "node_modules").is_dir():
        return None
    try:
        done = subprocess.run(
            ["node", "--input-type=module", "-e", script],
            input=text,
            capture_output=True,
            text=True,
            cwd=JS_REF,
            timeout=600,
        )
    except subprocess.TimeoutExpired:
        return None
    if done.returncode != 0:
        print(f"    (node peer failed: {done.stderr.strip().splitlines()[-1:]})")
        return None
    return json.loads(done.stdout.strip().splitlines()[-1])


def report(
    label: str,
    mb: float,
    seconds: float,
    peer: str,
    peer_rate: float | None,
    quoted: float | None = None,
) -> None:
    rate = mb / seconds
    line = f"{label:<44} {rate:8.1f} MB/s"
    if peer_rate:
        line += f"   {peer}: {peer_rate:7.1f} MB/s   ratio {rate / peer_rate:5.2f}x"
    elif quoted:
        line += (
            f"   {peer} (figure measured earlier on this machine): {quoted} MB/s   "
            f"ratio {rate / quoted:5.2f}x"
        )
    print(line)
