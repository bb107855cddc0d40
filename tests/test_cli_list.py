"""`chunkview list` prints JSON, and every default it prints round-trips through `run`."""

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest
from tokenizer_files_helpers import write_tiktoken

from chunkview import api
from chunkview.core.errors import ChunkerError
from chunkview.core.plugins.tokenizer_option import OPTION, TOKENIZER_FILE

TEXT = (
    "# Title\n\nA first paragraph. It has two sentences!\n\n## Part\n\n"
    "Second part, with more words in it. And a last sentence?\n"
)
TRANSCRIPT = "\n".join(
    json.dumps({"seq": i, "itemId": f"t{i}", "text": f"turn {i} says something.", "startMs": i})
    for i in range(6)
)
JSON_TEXT = json.dumps({"a": {"b": [1, 2, 3], "c": "words here"}, "d": "more"})


def listed() -> list[dict]:
    result = subprocess.run(
        [sys.executable, "-m", "chunkview", "list"], capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


LISTED = listed()
#: the file a "tokenizer file" choice reads (a choice that needs its companion option)
TIKTOKEN_FILE = str(write_tiktoken(Path(tempfile.mkdtemp()) / "tiny.tiktoken"))


def contexts(entry: dict) -> list[dict]:
    """One options object per value of each option another option depends on (mastra's
    strategy, chunkit's combineChunks), the others at their defaults."""
    params = {p["name"]: p for p in entry["params"]}
    switches = sorted({name for p in entry["params"] for name in p.get("when", {})})
    base = {name: params[name]["default"] for name in switches}
    found = [base]
    for name in switches:
        values = params[name].get("choices") or [True, False]
        found += [{**base, name: value} for value in values if value != base[name]]
    presets = [p for p in entry["params"] if p.get("preset")]
    return [{**o, **{p["name"]: preset_of(p, o) for p in presets if applies(p, o)}} for o in found]


def preset_of(param: dict, options: dict):
    """The listed preset for these options (mastra's html headers are selectors)."""
    for name, by_value in param.get("presets", {}).items():
        if options.get(name) in by_value:
            return by_value[options[name]]
    return param["default"]


def applies(param: dict, options: dict) -> bool:
    return all(options.get(k) in v for k, v in param.get("when", {}).items())


def text_for(entry_id: str, options: dict) -> str:
    if entry_id == "agentos.chunkTurns":
        return TRANSCRIPT
    if options.get("strategy") == "json":
        return JSON_TEXT
    return TEXT


def outcome(entry_id: str, text: str, options: dict):
    try:
        native = api.run(entry_id, text, options)
    except ChunkerError as error:
        return f"{error.name}: {error.message}"
    if entry_id.startswith("semantic-chunking."):  # document_id is the clock (Date.now())
        native = [{k: v for k, v in chunk.items() if k != "document_id"} for chunk in native]
    return native


CASES = [(entry["id"], options) for entry in LISTED for options in contexts(entry)]


@pytest.mark.parametrize(("entry_id", "context"), CASES, ids=[str(c) for c in CASES])
def test_every_listed_default_round_trips(entry_id, context):
    if TOKENIZER_FILE in context.values():  # the choice reads the file its companion names
        context = {**context, OPTION: TIKTOKEN_FILE}
    entry = next(e for e in LISTED if e["id"] == entry_id)
    text = text_for(entry_id, context)
    if entry_id.startswith("semantic-chunking."):
        text = [{"document_name": "d", "document_text": text}]
    bare = outcome(entry_id, text, context)
    assert not isinstance(bare, str), bare  # the context itself is a valid call
    applicable = [p for p in entry["params"] if "default" in p and applies(p, context)]
    assert applicable
    every = {**{p["name"]: p["default"] for p in applicable}, **context}
    assert outcome(entry_id, text, every) == bare, every
    for param in applicable:  # each default alone changes nothing either
        alone = {param["name"]: param["default"], **context}
        assert outcome(entry_id, text, alone) == bare, alone


def test_list_is_json_with_every_entry():
    ids = [entry["id"] for entry in LISTED]
    assert "agentos.SemanticChunker" in ids and "mastra.chunk" in ids
    semantic = next(e for e in LISTED if e["id"] == "agentos.SemanticChunker")
    target = next(p for p in semantic["params"] if p["name"] == "targetSize")
    assert target["default"] == 1000 and target["kind"] == "int"


def test_defaults_the_library_does_not_have_are_not_printed():
    mastra = {p["name"]: p for p in next(e for e in LISTED if e["id"] == "mastra.chunk")["params"]}
    assert "default" not in mastra["overlap"]  # 200, or 0 for sentence: left out
    assert "none" not in mastra["language"]["choices"]
    assert mastra["lengthFunction"]["default"] == {"$fn": "utf16"}
    engine = next(e for e in LISTED if e["id"] == "agentos.ChunkingEngine")
    strategy = next(p for p in engine["params"] if p["name"] == "strategy")
    assert strategy["preset"] is True  # the library has no default strategy
    assert "fixed" in strategy["choices"]


def test_the_cli_run_takes_a_listed_default():
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "chunkview",
            "run",
            "mastra.chunk",
            "-",
            "--options",
            json.dumps(
                {
                    "strategy": "recursive",
                    "lengthFunction": {"$fn": "utf16"},
                    "maxSize": 40,
                    "overlap": 0,
                }
            ),
        ],
        input=TEXT,
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ},
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert len(json.loads(result.stdout)) > 1
