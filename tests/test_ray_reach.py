"""``--ray ADDRESS`` where nothing answers fails at once, in one line naming the address,
instead of waiting in Ray's own retries."""

from __future__ import annotations

import importlib.util
import os
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from chunkview.core.batch.ray_pool import RayUnavailable, check_reachable, gcs_endpoint

ROOT = Path(__file__).resolve().parent.parent
needs_ray = pytest.mark.skipif(
    importlib.util.find_spec("ray") is None, reason="Ray is not installed (CI installs it)"
)


def closed_port() -> int:
    """A local port nothing listens on: one the system gave, then let go."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_the_addresses_that_name_a_host_and_port():
    assert gcs_endpoint("10.0.0.5:6379") == ("10.0.0.5", 6379)
    assert gcs_endpoint("ray://head.example:10001") == ("head.example", 10001)
    assert gcs_endpoint("[::1]:6379") == ("::1", 6379)
    assert gcs_endpoint("auto") is None and gcs_endpoint("local") is None
    assert gcs_endpoint("head:port") is None


def test_a_closed_port_is_refused_in_one_line():
    port = closed_port()
    with pytest.raises(
        RayUnavailable, match=rf"^cannot reach the Ray cluster at 127\.0\.0\.1:{port} "
    ):
        check_reachable(f"127.0.0.1:{port}")


@needs_ray
@pytest.mark.parametrize("command", ["audit", "eval"])
def test_the_commands_fail_within_seconds_on_an_unreachable_cluster(command, tmp_path):
    (tmp_path / "a.txt").write_text("Apples grow on trees.", encoding="utf-8")
    questions = tmp_path / "q.jsonl"
    questions.write_text(
        '{"question": "apples", "corpus_id": "a.txt", "references": '
        '[{"content": "Apples", "start_index": 0, "end_index": 6}]}\n',
        encoding="utf-8",
    )
    address = f"127.0.0.1:{closed_port()}"
    asked = ["--questions", str(questions)] if command == "eval" else []
    began = time.monotonic()
    done = subprocess.run(
        [sys.executable, "-m", "chunkview", command, str(tmp_path), "--entry", "mastra.chunk",
         *asked, "--ray", address],
        capture_output=True, text=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=120,
    )  # fmt: skip
    assert time.monotonic() - began < 20
    assert done.returncode != 0 and "a.txt" not in done.stdout  # no record, no figure
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and f"cannot reach the Ray cluster at {address}" in lines[0]
