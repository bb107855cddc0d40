"""Helpers shared by the benchmarks: corpus-built texts and a node peer when present."""

from __future__ import annotations

import gc
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
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
    return timed_turn(fn, 1)[0]


def timed_turn(fn: Callable[[], object], runs: int) -> list[float]:
    """Seconds of ``runs`` calls of ``fn`` one after another, each timed as ``timed_once``
    times one; the collector runs after the last."""
    enabled = gc.isenabled()
    gc.disable()
    seconds = []
    try:
        for _ in range(runs):
            began = time.perf_counter()
            result = fn()
            seconds.append(time.perf_counter() - began)
            del result
    finally:
        if enabled:
            gc.enable()
    gc.collect()
    return seconds


def best_of(fn: Callable[[], object], repeat: int = 3) -> float:
    """The shortest of ``repeat`` calls of ``fn``, each timed by ``timed_once``."""
    return min(timed_once(fn) for _ in range(repeat))


#: the node side of a pair: the snippet's imports and ``prepare(text)``, which returns the
#: call to time (anything built before it, such as a document object, is not timed)
NODE_WORKER = """
import fs from 'node:fs';
import readline from 'node:readline';
%s
const text = fs.readFileSync(process.env.CHUNKVIEW_BENCH_TEXT, 'utf8');
await prepare(text.slice(0, 10000))();  // loads the library, compiles its first tier
let call = prepare(text); let began = performance.now(); await call();
console.log(JSON.stringify((performance.now() - began) / 1000));
for await (const line of readline.createInterface({ input: process.stdin })) {
  const times = [];
  for (let i = 0; i < Number(line); i++) {
    call = prepare(text); began = performance.now(); await call();
    times.push((performance.now() - began) / 1000);
  }
  console.log(JSON.stringify(times));
}
"""


class NodePeer:
    """The original library in a node process kept open beside this one, so that the
    port and the original are timed in turns (``paired``): this machine's speed swings
    by half for a fraction of a second at a time, and a side timed in a spell of its own
    caught a different speed than the other (one build measured 0.27x and 1.07x).

    ``setup`` is ESM code that imports the library and defines ``prepare(text)``; node
    times ``await prepare(text)()``. ``first`` is the seconds of its first call on the
    whole text, after one on its first 10 KB (the library loaded and compiled)."""

    def __init__(self, setup: str, text: str, timeout: float = 600) -> None:
        self.timeout = timeout
        self._file = tempfile.NamedTemporaryFile("w", suffix=".txt", encoding="utf-8")
        self._file.write(text)
        self._file.flush()
        self._process = subprocess.Popen(
            ["node", "--input-type=module", "-e", NODE_WORKER % setup],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            cwd=JS_REF,
            env={**os.environ, "CHUNKVIEW_BENCH_TEXT": self._file.name},
        )
        try:
            self.first: float = self._read()
        except RuntimeError:
            self.close()
            raise

    def _read(self) -> Any:
        """The next JSON line node prints; RuntimeError if it fails or takes too long."""
        assert self._process.stdout is not None
        watchdog = threading.Timer(self.timeout, self._process.kill)
        watchdog.start()
        try:
            line = self._process.stdout.readline()
        finally:
            watchdog.cancel()
        if not line:
            assert self._process.stderr is not None
            error = self._process.stderr.read().strip().splitlines()[-1:]
            raise RuntimeError(f"node peer failed: {error or 'no output'}")
        try:
            return json.loads(line)
        except json.JSONDecodeError:
            raise RuntimeError(f"node peer printed {line.strip()[:80]!r}") from None

    def times(self, runs: int) -> list[float]:
        """The seconds of ``runs`` more calls, one after another."""
        assert self._process.stdin is not None
        self._process.stdin.write(f"{runs}\n")
        self._process.stdin.flush()
        return self._read()

    def close(self) -> None:
        process = self._process
        if process.poll() is None:
            assert process.stdin is not None
            process.stdin.close()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        for stream in (process.stdin, process.stdout, process.stderr):
            if stream is not None:
                stream.close()
        self._file.close()


def node_peer(setup: str, text: str) -> NodePeer | None:
    """A ``NodePeer`` if node and the JS packages are installed under JS_REF (and the
    snippet runs); None otherwise."""
    if not shutil.which("node") or not (JS_REF / "node_modules").is_dir():
        return None
    try:
        return NodePeer(setup, text)
    except RuntimeError as error:
        print(f"    ({error})")
        return None


@dataclass
class Paired:
    """Best seconds of each side over the same spell of turns, and each turn's ratio."""

    seconds: float
    peer_seconds: float | None
    #: each turn's peer best / port best: the machine's speed is about the same within a
    #: turn, so their median moves less from run to run than the bests' ratio
    turn_ratios: list[float] = field(default_factory=list)

    @property
    def ratio(self) -> float | None:
        """The peer's best over the port's best (above 1: the port is faster)."""
        return self.peer_seconds / self.seconds if self.peer_seconds else None

    @property
    def median_turn_ratio(self) -> float | None:
        return statistics.median(self.turn_ratios) if self.turn_ratios else None


def paired(
    fn: Callable[[], object],
    peer: NodePeer | None,
    *,
    turns: int = 5,
    spell: float = 2.0,
    most_turns: int = 40,
) -> Paired:
    """Time ``fn`` and ``peer`` in turns, a few calls each, for at least ``turns`` turns
    and ``spell`` seconds: both sides' bests then come from the same stretch of time,
    whatever the machine's speed did in it. A call over a third of a second is timed
    once a turn, a shorter one three times. Each side's calls in a turn run one after
    another (the port's with the cyclic collector off, as in the app's chunking process;
    it collects after the turn, while node waits for its next turn)."""
    began = time.perf_counter()
    runs = 1 if timed_once(fn) > 0.33 else 3
    port_bests: list[float] = []
    peer_bests: list[float] = []
    while len(port_bests) < most_turns and (
        len(port_bests) < turns or time.perf_counter() - began < spell
    ):
        port_bests.append(min(timed_turn(fn, runs)))
        if peer is not None:
            try:
                peer_bests.append(min(peer.times(runs)))
            except RuntimeError as error:  # the port's figures stand; the peer's so far
                print(f"    ({error})")
                peer = None
    return Paired(
        seconds=min(port_bests),
        peer_seconds=min(peer_bests) if peer_bests else None,
        turn_ratios=[b / a for a, b in zip(port_bests, peer_bests)],
    )


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


@dataclass
class Warm:
    """Each side's best of ``runs`` calls after ``warmup`` calls, each side timed alone
    (the port first, then node): the fully warm figures, beside ``paired``'s turns.
    ``back_to_back_seconds``: the port's best of ``runs`` calls made one after another
    with no collection between them, as node's are (each ``timed_once`` call ends in a
    full collection, a pass over every tracked object that leaves the next call's
    caches cold)."""

    seconds: float
    peer_seconds: float | None
    back_to_back_seconds: float | None = None

    @property
    def ratio(self) -> float | None:
        """The peer's best over the port's best (above 1: the port is faster)."""
        return self.peer_seconds / self.seconds if self.peer_seconds else None


def warm(
    fn: Callable[[], object], peer: NodePeer | None, *, warmup: int = 5, runs: int = 25
) -> Warm:
    """Time ``fn`` alone ``warmup`` + ``runs`` times (each as ``timed_once``), then the
    peer alone as many times; each side's best of its last ``runs``."""
    for _ in range(warmup):
        timed_once(fn)
    seconds = min(timed_once(fn) for _ in range(runs))
    back_to_back = min(timed_turn(fn, warmup + runs)[warmup:])
    peer_seconds = None
    if peer is not None:
        try:
            peer.times(warmup)
            peer_seconds = min(peer.times(runs))
        except RuntimeError as error:
            print(f"    ({error})")
    return Warm(seconds=seconds, peer_seconds=peer_seconds, back_to_back_seconds=back_to_back)


def fixed_floor(text: str, chunks: list[dict]) -> Callable[[], object]:
    """What any Python port of a fixed window split must at least do to return
    ``chunks`` (each ``{content, index}``, in order, not overlapping): slice each
    chunk's content from where it lies (from an ASCII copy of the text where the chunk
    is ASCII: a plain copy, where a slice of a two-byte text is converted unit by unit)
    and make its object, knowing every place beforehand. Returns that call, to be timed
    as the port is: the floor under the port's figure in this Python."""
    narrow = text.encode("ascii", "replace").decode("ascii")
    bounds, cursor = [], 0
    for chunk in chunks:
        content = chunk["content"]
        start = text.find(content, cursor)
        cursor = start + len(content)
        bounds.append((narrow if content.isascii() else text, start, cursor))

    def floor() -> list[dict]:
        return [{"content": s[a:b], "index": i} for i, (s, a, b) in enumerate(bounds)]

    if [c["content"] for c in floor()] != [c["content"] for c in chunks]:
        raise AssertionError("the floor does not rebuild the port's chunks")
    return floor
