"""The interactive page as headless Chromium renders it, as a PNG (docs/page.png).

python tools/page_screenshot.py OUT.png [--dark] [--entry E] [--options JSON]
    [--param NAME] [--values SPEC] [--value V] [--hover N] [--file FILE] [--options-b JSON]
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from chunkview.core.batch.page_values import PagePlan  # noqa: E402
from chunkview.core.batch.sweep import parse_values  # noqa: E402
from chunkview.core.io.read import load_document  # noqa: E402
from chunkview.export_page import make_page  # noqa: E402
from tests.browser import chromium, missing_browser  # noqa: E402

GUIDE = ROOT / "chunkview" / "resources" / "samples" / "guide.md"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out")
    parser.add_argument("--file", default=str(GUIDE))
    parser.add_argument("--entry", default="mastra.chunk")
    parser.add_argument("--options", default='{"strategy": "recursive", "overlap": 60}')
    parser.add_argument("--param", default="maxSize")
    parser.add_argument("--values", default="150:1500:50")
    parser.add_argument("--value", default="400", help="the value shown")
    parser.add_argument("--hover", type=int, default=3, help="the chunk hovered (-1: none)")
    parser.add_argument("--options-b", help="B's options (the same entry), compared")
    parser.add_argument("--dark", action="store_true")
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=760)
    args = parser.parse_args()
    reason = missing_browser()
    if reason is not None:
        print(f"page_screenshot: {reason}", file=sys.stderr)
        return 1
    document = load_document(args.file, "markdown" if args.file.endswith(".md") else "text")
    plan = PagePlan(
        args.entry,
        document,
        json.loads(args.options),
        args.param,
        parse_values(args.values, integer=True),
        args.entry if args.options_b else None,
        json.loads(args.options_b) if args.options_b else {},
    )
    page, _run = make_page(plan)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "page.html"
        path.write_text(page, encoding="utf-8")
        with chromium() as browser:
            tab = browser.new_page(
                viewport={"width": args.width, "height": args.height},
                color_scheme="dark" if args.dark else "light",
                device_scale_factor=1,
            )
            tab.goto(f"{path.as_uri()}#{args.param}={args.value}")
            tab.wait_for_function("window.chunkview.drawn()")  # every block drawn
            if args.hover >= 0:
                box = tab.locator(f'[data-chunk-start][data-i="{args.hover}"]').bounding_box()
                if box is not None:
                    tab.mouse.move(box["x"] + min(60, box["width"] / 2), box["y"] + 6)
            tab.wait_for_timeout(150)
            tab.screenshot(path=args.out)
    print(args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
