"""Headless Chromium for the tests and the benchmark of the interactive page: Debian's
``chromium`` driven by Playwright (the wheel's driver; its own browser download is never
used). Without chromium a test skips, except in CI (``CI`` set), where it fails."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

#: what the browser is started with: no sandbox (CI runs as root), nothing from the network
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def chromium_path() -> str | None:
    """Debian's chromium, where it is installed."""
    return shutil.which("chromium") or (
        "/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None
    )


def missing_browser() -> str | None:
    """Why the browser cannot run here, or None when it can."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "playwright is not installed (pip install -e '.[dev]')"
    if chromium_path() is None:
        return "chromium is not installed (apt-get install chromium; .ci/run does it)"
    return None


@contextmanager
def chromium() -> Iterator[Any]:
    """A headless Chromium browser for the block."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()
