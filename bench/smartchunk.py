"""smartchunk on 1 MB and 10 MB of corpus text, beside the same text cut by the mastra
character strategy in this process (a cheap byte-blind splitter, as a floor to compare
with). Run: python bench/smartchunk.py [--quick]
"""

from __future__ import annotations

import sys

from _common import best_of, corpus_text

import chunkview


def main() -> None:
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
        print(
            f"smartchunk 1000/100 bytes, {mb_target} MB: {mb / seconds:6.2f} MB/s   "
            f"mastra character (same process): {mb / peer:6.2f} MB/s   "
            f"ratio {peer / seconds:5.2f}x"
        )


if __name__ == "__main__":
    main()
