"""mastra.chunk strategies on 1 MB and 10 MB of corpus markdown, beside the node original
(measured in the same run when `npm i @mastra/rag@1.3.6` was run under $CHUNKVIEW_JS_REF)
and beside LangChain's Python RecursiveCharacterTextSplitter (`pip install
langchain-text-splitters`), the peer a Python user would otherwise reach for.
Each strategy is timed in this process and in a node process kept open beside it, in
turns, on the same text, for at least two seconds (``_common.paired``), so the machine's
speed weighs on both alike: each side's best, and the median of the turns' ratios (the
port's runs after its first read the levels a long text keeps from its second run on,
as the app's runs at each option change do: recursive.py ``_KeptLevels``); and the first
run on a text never chunked before beside node's first run on it (both sides having
chunked 10 KB of it before, so neither counts loading or compiling).
With --warm, also each side's best of 25 runs after 5 warm-up runs, each side alone
(``_common.warm``), and that ratio beside the turns' ratios.
Run: python bench/mastra.py [--quick] [--all] [--warm] [--json]
    --json: one JSON object: <strategy>_<size>_mb_per_s, ..._node_mb_per_s, ..._over_node,
            ..._median_turn_over_node,
            ..._first_run_ms, ..._node_first_run_ms, ..._first_run_over_node,
            with --warm: ..._warm_mb_per_s, ..._warm_node_mb_per_s, ..._warm_over_node
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's package

from _common import best_of, corpus_text, node_peer, paired, report, timed_once, warm

import chunkview

CASES = {
    "recursive": {"strategy": "recursive", "maxSize": 1000, "overlap": 100},
    "markdown": {"strategy": "markdown", "maxSize": 1000, "overlap": 100},
    "character": {"strategy": "character", "maxSize": 1000, "overlap": 100},
    "sentence": {"strategy": "sentence", "maxSize": 1000},
    "token": {"strategy": "token", "maxSize": 500, "overlap": 50},
}
QUOTED = {  # MB/s of the node original measured earlier here, at 1 MB / 10 MB
    "recursive": (113, 40),
    "markdown": (148, 36),
    "character": (22, 8.5),
    "sentence": (25, 10),
    "token": (0.24, 0.68),
}
NODE = """
import { MDocument } from '@mastra/rag';
const options = %s;
// the document (it keeps the text) is built before the clock starts
const prepare = (text) => {
  const doc = MDocument.fromMarkdown(text);
  return () => doc.chunk(options);
};
"""


def langchain_rate(text: str, mb: float) -> float | None:
    try:
        from langchain_text_splitters import RecursiveCharacterTextSplitter
    except ImportError:
        return None
    splitter = RecursiveCharacterTextSplitter(chunk_size=1000, chunk_overlap=100)
    return mb / best_of(lambda: splitter.split_text(text), repeat=2)


def main() -> None:
    sizes = [1] if "--quick" in sys.argv else [1, 10]
    as_json = "--json" in sys.argv
    with_warm = "--warm" in sys.argv
    figures: dict[str, float | None] = {}
    for mb_target in sizes:
        text = corpus_text(mb_target * 1_000_000)
        mb = len(text.encode("utf-8")) / 1e6
        langchain = langchain_rate(text, mb)
        figures[f"langchain_recursive_{mb_target}mb_mb_per_s"] = langchain
        if langchain and not as_json:
            print(f"LangChain RecursiveCharacterTextSplitter, {mb_target} MB: {langchain:.1f} MB/s")
        for name, options in CASES.items():
            if name == "token" and mb_target > 1 and "--all" not in sys.argv:
                continue  # minutes in the original at 10 MB; pass --all to include it
            # the first run on a text never chunked before (a new string), each side
            # having chunked 10 KB of it first; then in turns with node on one text
            chunkview.run("mastra.chunk", text[:10_000], options, doc="markdown")
            fresh = (text + " ")[:-1]
            first = timed_once(
                lambda o=options, t=fresh: chunkview.run("mastra.chunk", t, o, doc="markdown")
            )
            del fresh
            peer = node_peer(NODE % json.dumps(options), text)
            try:
                timing = paired(
                    lambda o=options, t=text: chunkview.run("mastra.chunk", t, o, doc="markdown"),
                    peer,
                )
                warmed = (
                    warm(
                        lambda o=options, t=text: chunkview.run(
                            "mastra.chunk", t, o, doc="markdown"
                        ),
                        peer,
                    )
                    if with_warm
                    else None
                )
            finally:
                if peer is not None:
                    peer.close()
            seconds, node = timing.seconds, timing.peer_seconds
            node_first = peer.first if peer else None
            quoted = QUOTED[name][0 if mb_target == 1 else 1]
            key = f"{name}_{mb_target}mb"
            figures[f"{key}_mb_per_s"] = round(mb / seconds, 2)
            figures[f"{key}_node_mb_per_s"] = round(mb / node, 2) if node else None
            figures[f"{key}_over_node"] = round(node / seconds, 3) if node else None
            turn_ratio = timing.median_turn_ratio
            figures[f"{key}_median_turn_over_node"] = round(turn_ratio, 3) if turn_ratio else None
            figures[f"{key}_first_run_ms"] = round(first * 1000, 1)
            figures[f"{key}_node_first_run_ms"] = (
                round(node_first * 1000, 1) if node_first else None
            )
            figures[f"{key}_first_run_over_node"] = (
                round(node_first / first, 3) if node_first else None
            )
            if warmed is not None:
                figures[f"{key}_warm_mb_per_s"] = round(mb / warmed.seconds, 2)
                figures[f"{key}_warm_node_mb_per_s"] = (
                    round(mb / warmed.peer_seconds, 2) if warmed.peer_seconds else None
                )
                figures[f"{key}_warm_over_node"] = round(warmed.ratio, 3) if warmed.ratio else None
            if as_json:
                continue
            report(
                f"mastra {name}, {mb_target} MB",
                mb,
                seconds,
                "node original",
                mb / node if node else None,
                quoted,
            )
            if turn_ratio:
                print(
                    f"{'':44} median of {len(timing.turn_ratios)} turns' ratios: {turn_ratio:5.2f}x"
                )
            if warmed is not None and warmed.ratio:
                print(
                    f"{'':44} warm (best of 25 after 5, each alone): "
                    f"{mb / warmed.seconds:7.1f} MB/s, node "
                    f"{mb / warmed.peer_seconds:7.1f} MB/s, ratio {warmed.ratio:5.2f}x"
                )
            if node_first:
                print(
                    f"{'':44} first run: {first * 1000:7.1f} ms, node "
                    f"{node_first * 1000:7.1f} ms, ratio {node_first / first:5.2f}x"
                )
            if name == "recursive" and langchain:
                print(f"{'':44} vs LangChain: ratio {mb / seconds / langchain:5.2f}x")
    if as_json:
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
