"""The Python side: a long-lived process running cases read as JSON lines from stdin."""

from __future__ import annotations

import json
import sys

import chunkview
from chunkview import ChunkerError


def run_case(case: dict) -> object:
    """The port's result in the shape of the golden files (errors as the tests see them)."""
    entry = case["entry"]
    if entry.startswith("semantic-chunking."):
        embedder = "hash64" + (":provider" if case.get("embed_path") == "stub-provider" else "")
        try:
            output = chunkview.run(
                entry, case["documents"], case["options"], embedder=embedder, tokenizer="wordpunct"
            )
        except ChunkerError as error:
            return {"output": None, "error": {"name": error.name, "message": error.message}}
        return {"output": output, "error": None}
    kwargs: dict = {}
    if entry == "mastra.chunk":
        kwargs["doc"] = case.get("doc", "text")
        kwargs["metadata"] = case.get("metadata")
    elif "metadata" in case:
        kwargs["metadata"] = case["metadata"]
    if case.get("embedder"):
        kwargs["embedder"] = case["embedder"]
    try:
        return chunkview.run(entry, case["input"], case["options"], **kwargs)
    except ChunkerError as error:
        return error.to_json()


def main() -> None:
    for line in sys.stdin:
        if not line.strip():
            continue
        case = json.loads(line)
        try:
            result = {"id": case["id"], "result": run_case(case)}
        except Exception as error:  # a port bug: reported, the batch goes on
            result = {
                "id": case["id"],
                "crash": {"name": type(error).__name__, "message": str(error)},
            }
        try:
            text = json.dumps(result)
        except (TypeError, ValueError) as error:
            text = json.dumps(
                {"id": case["id"], "crash": {"name": "Unserialisable", "message": str(error)}}
            )
        sys.stdout.write(text + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
