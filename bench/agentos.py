"""agentos SemanticChunker and ChunkingEngine on 1 MB and 10 MB of corpus text.

Prints MB/s beside the node original measured in the same run when the JS packages are
installed (see bench/_common.py), otherwise beside the figure the issue quotes. Both sides
time one chunking of a text already in memory (the app builds its Document once per
document or edit, and runs the port on it for every option change), in turns of three
calls each for at least two seconds (``_common.paired``): each side's best over the same
stretch of time, and the median of the turns' ratios.
With --warm, also each side's best of 25 runs after 5 warm-up runs, each side alone
(``_common.warm``), and that ratio beside the turns' ratios; and the port's best of 25
runs made back to back (no collection between them, as node's runs follow each other).
With --warm, for 'fixed' also the floor: the least any Python port does to return the
same chunks (``_common.fixed_floor``: slice each chunk and make its object, every place
known beforehand), timed back to back, with node's and the port's time over it.
With --only TEXT, only the cases whose label holds TEXT (e.g. --only fixed).
Run: python bench/agentos.py [--quick] [--warm] [--json] [--only TEXT]
"""

from __future__ import annotations

import json
import sys

from _common import (
    Warm,
    corpus_text,
    fixed_floor,
    node_peer,
    paired,
    report,
    timed_once,
    timed_turn,
    warm,
)

import chunkview
from chunkview import Document

NODE_SEMANTIC = """
import { SemanticChunker } from '@framers/agentos';
const chunker = new SemanticChunker();
const prepare = (text) => () => chunker.chunk(text);
"""
NODE_ENGINE = """
import { ChunkingEngine } from '@framers/agentos';
const engine = new ChunkingEngine();
const options = {strategy: '%s', chunkSize: 512, chunkOverlap: 0};
const prepare = (text) => () => engine.chunk(text, options);
"""


def main() -> None:
    sizes = [1, 10] if "--quick" not in sys.argv else [1]
    as_json = "--json" in sys.argv
    with_warm = "--warm" in sys.argv
    only = sys.argv[sys.argv.index("--only") + 1] if "--only" in sys.argv else ""
    rows = []

    def measure(label, entry, options, text, mb, setup, quoted=None):
        if only not in label:
            return
        # node first: its process chunks 10 KB (loads, compiles) and then the whole text
        # once, its first run; it then waits to be timed in turns with the port
        peer = node_peer(setup, text)
        try:
            # the first run on a text never chunked before (a new string: nothing the
            # port keeps for the last text applies), beside node's first run on it; both
            # sides have chunked 10 KB of it before (imports, compiled expressions)
            chunkview.run(entry, Document(text[:10_000]), options)
            fresh = Document((text + " ")[:-1])
            first_seconds = timed_once(lambda f=fresh: chunkview.run(entry, f, options))
            del fresh
            # then again on one text, as the app runs a document at each option change
            document = Document(text)
            timing = paired(lambda: chunkview.run(entry, document, options), peer)
            warmed = (
                warm(lambda: chunkview.run(entry, document, options), peer) if with_warm else None
            )
            floor_seconds = None
            if with_warm and options.get("strategy") == "fixed":
                floor = fixed_floor(document.text, chunkview.run(entry, document, options))
                floor_seconds = min(timed_turn(floor, 30)[5:])
        finally:
            if peer is not None:
                peer.close()
        peer_first = peer.first if peer else None
        peer_rate = mb / timing.peer_seconds if timing.peer_seconds else None
        base = peer_rate or quoted
        turn_ratio = timing.median_turn_ratio
        rows.append(
            {
                "case": label,
                "mb_per_s": round(mb / timing.seconds, 2),
                "peer": "node original" if peer_rate else "figure measured earlier",
                "peer_mb_per_s": round(base, 2) if base else None,
                "ratio": round(mb / timing.seconds / base, 2) if base else None,
                "median_turn_ratio": round(turn_ratio, 2) if turn_ratio else None,
                "turns": len(timing.turn_ratios),
                "first_run_ms": round(first_seconds * 1000, 1),
                "peer_first_run_ms": round(peer_first * 1000, 1) if peer_first else None,
                "first_run_ratio": round(peer_first / first_seconds, 2) if peer_first else None,
            }
        )
        if warmed is not None:
            rows[-1].update(_warm_fields(mb, warmed, floor_seconds))
        if not as_json:
            report(label, mb, timing.seconds, "node original", peer_rate, quoted)
            if turn_ratio:
                print(
                    f"{'':44} median of {len(timing.turn_ratios)} turns' ratios: {turn_ratio:5.2f}x"
                )
            if warmed is not None and warmed.peer_seconds:
                _print_warm(mb, warmed, floor_seconds)
            if peer_first:
                print(
                    f"{'':44} first run: {first_seconds * 1000:7.1f} ms, node "
                    f"{peer_first * 1000:7.1f} ms, ratio {peer_first / first_seconds:5.2f}x"
                )

    for mb in sizes:
        text = corpus_text(mb * 1_000_000)
        real_mb = len(text.encode("utf-8")) / 1e6
        measure(
            f"SemanticChunker defaults, {mb} MB",
            "agentos.SemanticChunker",
            {},
            text,
            real_mb,
            NODE_SEMANTIC,
            61 if mb == 1 else None,
        )
        # overlap 0: the default 64 hangs in the original on the corpus's long table rules
        for strategy in ("fixed", "hierarchical", "layout"):
            measure(
                f"ChunkingEngine {strategy} 512/0, {mb} MB",
                "agentos.ChunkingEngine",
                {"strategy": strategy, "chunkSize": 512, "chunkOverlap": 0},
                text,
                real_mb,
                NODE_ENGINE % strategy,
                54 if (strategy, mb) == ("layout", 10) else None,
            )
    if as_json:
        ratios = [r["ratio"] for r in rows if r["ratio"] is not None]
        turns = [r["median_turn_ratio"] for r in rows if r["median_turn_ratio"] is not None]
        firsts = [r["first_run_ratio"] for r in rows if r["first_run_ratio"] is not None]
        warms = [r["warm_ratio"] for r in rows if r.get("warm_ratio") is not None]
        print(
            json.dumps(
                {
                    "rows": rows,
                    "lowest_ratio": min(ratios) if ratios else None,
                    "lowest_median_turn_ratio": min(turns) if turns else None,
                    "lowest_first_run_ratio": min(firsts) if firsts else None,
                    "lowest_warm_ratio": min(warms) if warms else None,
                }
            )
        )


def _warm_fields(mb: float, warmed: Warm, floor_seconds: float | None) -> dict:
    """The JSON fields of the warm figures (and the floor's, for 'fixed')."""
    peer, back_to_back = warmed.peer_seconds, warmed.back_to_back_seconds
    fields = {
        "warm_mb_per_s": round(mb / warmed.seconds, 2),
        "warm_peer_mb_per_s": round(mb / peer, 2) if peer else None,
        "warm_ratio": round(warmed.ratio, 2) if warmed.ratio else None,
        "warm_back_to_back_mb_per_s": round(mb / back_to_back, 2),
        "warm_back_to_back_ratio": round(peer / back_to_back, 2) if peer else None,
    }
    if floor_seconds is not None:
        fields["floor_ms"] = round(floor_seconds * 1000, 3)
        fields["port_over_floor"] = round(back_to_back / floor_seconds, 2)
        fields["node_over_floor"] = round(peer / floor_seconds, 2) if peer else None
    return fields


def _print_warm(mb: float, warmed: Warm, floor_seconds: float | None) -> None:
    peer, back_to_back = warmed.peer_seconds, warmed.back_to_back_seconds
    print(
        f"{'':44} warm (best of 25 after 5, each alone): {mb / warmed.seconds:7.1f} MB/s, "
        f"node {mb / peer:7.1f} MB/s, ratio {warmed.ratio:5.2f}x"
    )
    print(
        f"{'':44} warm, the port's runs back to back as node's: "
        f"{mb / back_to_back:7.1f} MB/s, ratio {peer / back_to_back:5.2f}x"
    )
    if floor_seconds is not None:
        print(
            f"{'':44} the floor (slice each chunk, make its object, places known): "
            f"{floor_seconds * 1000:.3f} ms; node {peer / floor_seconds:4.2f}x it, "
            f"the port {back_to_back / floor_seconds:4.2f}x it"
        )


if __name__ == "__main__":
    main()
