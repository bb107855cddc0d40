import gzip
import json
import os
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

GOLDEN = Path(__file__).parent / "golden"
ROOT = Path(__file__).parent.parent
CORPUS = Path(__file__).parent / "corpus"  # vendored from shared/corpus
SAMPLES = ROOT / "chunkview" / "resources" / "samples"


def golden_cases(name: str) -> list[dict]:
    """Every case of tests/golden/NAME.jsonl.gz, in file order."""
    with gzip.open(GOLDEN / f"{name}.jsonl.gz", "rt", encoding="utf-8") as handle:
        return [json.loads(line) for line in handle]


def golden_params(name: str) -> list:
    return [pytest.param(case, id=case["id"]) for case in golden_cases(name)]
