"""The pinned originals, installed with npm into a cache folder outside the repository."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

HERE = Path(__file__).parent
JS = HERE / "js"
PINNED = {
    "@framers/agentos": "0.9.164",
    "@mastra/rag": "1.3.6",
    "semantic-chunking": "3.0.2",
}
# semantic-chunking's embedding package is replaced by a stand-in serving hash64 vectors
# and wordpunct counts through the library's own provider path; transformers never loads.
STUBS = {
    "embedding-utils": "stub-embedding-utils",
    "@huggingface/transformers": "stub-transformers",
}


def cache_dir() -> Path:
    default = Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))
    return Path(os.environ.get("CHUNKVIEW_CONFORMANCE_CACHE", default / "chunkview-conformance"))


def node_available() -> bool:
    return shutil.which("node") is not None and shutil.which("npm") is not None


def _manifest() -> dict:
    deps = dict(PINNED)
    deps.update({name: f"file:./{folder}" for name, folder in STUBS.items()})
    return {
        "name": "chunkview-conformance-cache",
        "private": True,
        "type": "module",
        "dependencies": deps,
        "overrides": {name: f"${name}" for name in STUBS},
    }


def _copy_js(cache: Path) -> None:
    """The runner, worker and stubs, copied fresh on every start (they are small)."""
    for folder in STUBS.values():
        shutil.copytree(JS / folder, cache / folder, dirs_exist_ok=True)
    shutil.copy(JS / "hash64.mjs", cache / "stub-embedding-utils" / "hash64.mjs")
    for name in ("runner.mjs", "worker.mjs"):
        shutil.copy(JS / name, cache / name)


def ensure_installed(quiet: bool = False) -> Path:
    """The cache folder with the originals installed (npm runs only when the pins change)."""
    cache = cache_dir()
    cache.mkdir(parents=True, exist_ok=True)
    _copy_js(cache)
    manifest = _manifest()
    stamp = cache / "installed.json"
    if stamp.exists() and json.loads(stamp.read_text()) == manifest:
        return cache
    (cache / "package.json").write_text(json.dumps(manifest, indent=2))
    if not quiet:
        print(f"installing the pinned originals into {cache} ...", flush=True)
    subprocess.run(
        ["npm", "install", "--no-audit", "--no-fund", "--loglevel=error"],
        cwd=cache,
        check=True,
        stdout=subprocess.DEVNULL if quiet else None,
    )
    stamp.write_text(json.dumps(manifest))
    return cache
