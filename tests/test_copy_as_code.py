"""Copy as code writes JavaScript that runs: keys that are not identifiers stay strings,
lone surrogates are escaped, and the call gives what the port gives (checked with node
where the conformance harness installed the originals)."""

import json
import shutil
import subprocess

import pytest

import chunkview
from chunkview.core import registry
from chunkview.core.chunkers.entry import js_key, js_literal
from conformance.install import cache_dir


def test_a_key_that_is_no_identifier_is_quoted_and_a_lone_surrogate_escaped():
    assert js_key("maxSize") == "maxSize" and js_key("$x_1") == "$x_1"
    assert js_key("my-key") == '"my-key"' and js_key("1st") == '"1st"'
    assert js_key("naïve") == '"naïve"'  # JS allows it, but ASCII identifiers are safe
    written = js_literal({"odd key": "\ud800", "ok": 1})
    assert '"odd key": "\\ud800"' in written and "ok: 1" in written
    written.encode("utf-8")  # no lone surrogate left to break a clipboard or a file
    code = registry.get("mastra.chunk").code({"separator": "\udc00x", "my-key": 2})
    assert '"my-key": 2' in code and '"\\udc00x"' in code
    code.encode("utf-8")


def _installed() -> bool:
    return shutil.which("node") is not None and (cache_dir() / "installed.json").is_file()


@pytest.mark.skipif(not _installed(), reason="the originals are not installed (conformance)")
@pytest.mark.parametrize(
    "options",
    [
        {"strategy": "character", "separator": "\ud83d", "maxSize": 40, "overlap": 0},
        {"strategy": "recursive", "maxSize": 30, "overlap": 5, "separators": ["\n\n", "é"]},
    ],
)
def test_mastra_code_runs_under_node_and_gives_the_ports_chunks(tmp_path, options):
    text = "First part here. \ud83d\ude00 then more words é and more\n\nA second block of text."
    code = registry.get("mastra.chunk").code(options)
    script = cache_dir() / f"copy-as-code-{tmp_path.name}.mjs"
    script.write_text(
        f"const text = {json.dumps(text)};\n{code}"
        "console.log(JSON.stringify(chunks.map((chunk) => chunk.text)));\n",
        encoding="utf-8",
    )
    try:
        ran = subprocess.run(
            ["node", str(script)], capture_output=True, text=True, timeout=60, check=True
        )
    finally:
        script.unlink()
    expected = [chunk["text"] for chunk in chunkview.run("mastra.chunk", text, options)]
    assert json.loads(ran.stdout) == expected
