"""smartchunk on 1 MB and 10 MB of corpus text, beside the same text cut by the mastra
character strategy in this process (a cheap byte-blind splitter, as a floor to compare
with). smartchunk's JS original is not on the npm registry (`npm view smartchunk`: 404),
so there is no node peer to run beside it.
Each is timed best of 2 runs, in the same run, so the machine's load weighs on both alike.
Run: python bench/smartchunk.py [--quick] [--json]
    --json: one JSON object: smartchunk_<size>_mb_per_s, mastra_character_<size>_mb_per_s,
    smartchunk_<size>_over_mastra_character (smartchunk's rate over mastra character's)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # this checkout's package

from _common import best_of, corpus_text

import chunkview


def main() -> None:
    as_json = "--json" in sys.argv
    figures: dict[str, float] = {}
    for mb_target in [1] if "--quick" in sys.argv else [1, 10]:
        text = corpus_text(mb_target * 1_000_000)
        mb = len(text.encode("utf-8")) / 1e6
        seconds = best_of(
            lambda t=text: chunkview.run("smartchunk", t, {"maxSize": 1000, "minSize": 100}),
            repeat=2,
        )
        peer = best_of(
            lambda t=text: chunkview.run(
                "mastra.chunk", t, {"strategy": "character", "maxSize": 1000, "overlap": 0}
            ),
            repeat=2,
        )
        key = f"{mb_target}mb"
        figures[f"smartchunk_{key}_mb_per_s"] = round(mb / seconds, 2)
        figures[f"mastra_character_{key}_mb_per_s"] = round(mb / peer, 2)
        figures[f"smartchunk_{key}_over_mastra_character"] = round(peer / seconds, 3)
        if not as_json:
            print(
                f"smartchunk 1000/100 bytes, {mb_target} MB: {mb / seconds:6.2f} MB/s   "
                f"mastra character (same process): {mb / peer:6.2f} MB/s   "
                f"ratio {peer / seconds:5.2f}x"
            )
    if as_json:
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
