"""Every case the conformance harness found and shrank (tests/golden/conformance.jsonl.gz):
the port must give what the original gave, compared as the other golden tests compare."""

import pytest

from conformance import golden
from conformance.compare import equal
from conformance.pyworker import run_case

CASES = golden.load()


def _expected(case: dict):
    if case["entry"].startswith("semantic-chunking."):
        return {"output": case["output"], "error": case["error"]}
    return case["output"]


@pytest.mark.parametrize("case", [pytest.param(c, id=c["id"]) for c in CASES])
def test_conformance_case(case):
    actual = run_case(case)
    assert equal(case["entry"], _expected(case), actual), actual


def test_conformance_cases_are_there():
    assert CASES, "tests/golden/conformance.jsonl.gz holds the shrunk cases"
    assert len({c["id"] for c in CASES}) == len(CASES)
