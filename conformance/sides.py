"""The two sides of a case: one long-lived node process and one long-lived Python process,
both fed JSON lines; each case is bounded by a time limit on each side."""

from __future__ import annotations

import json
import os
import queue
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
Outcome = dict[str, Any]  # {"result": ...} | {"hang": True} | {"crash": {...}}


class _Process:
    """A child fed one JSON line per case; a reader thread collects its answers."""

    def __init__(self, argv: list[str], cwd: Path, env: dict[str, str] | None = None):
        self.argv, self.cwd, self.env = argv, cwd, env
        self.proc: subprocess.Popen | None = None
        self.answers: queue.Queue = queue.Queue()

    def start(self) -> None:
        self.proc = subprocess.Popen(
            self.argv,
            cwd=self.cwd,
            env=self.env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
            encoding="utf-8",
            bufsize=1,
        )
        answers: queue.Queue = queue.Queue()
        stdout = self.proc.stdout
        assert stdout is not None  # stdout=PIPE
        self.answers = answers

        def read() -> None:
            for line in stdout:
                answers.put(json.loads(line))
            answers.put(None)  # the process ended

        threading.Thread(target=read, daemon=True).start()

    def send(self, case: dict) -> None:
        if self.proc is None or self.proc.poll() is not None:
            self.start()
        assert self.proc and self.proc.stdin
        self.proc.stdin.write(json.dumps(case, ensure_ascii=True) + "\n")
        self.proc.stdin.flush()

    def receive(self, case_id: int, timeout: float) -> Outcome | None:
        """The answer to ``case_id``, or None when the time is up or the process died."""
        while True:
            try:
                answer = self.answers.get(timeout=timeout)
            except queue.Empty:
                return None
            if answer is None:
                return {"crash": {"name": "Crash", "message": "the process ended"}}
            if answer.get("id") == case_id:
                return answer

    def kill(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.proc = None

    def close(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            assert self.proc.stdin
            self.proc.stdin.close()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        self.proc = None


class Sides:
    """Runs a case on node and on the port at the same time."""

    def __init__(self, cache: Path, js_timeout: float, py_timeout: float):
        self.js_timeout, self.py_timeout = js_timeout, py_timeout
        self.node = _Process(["node", str(cache / "runner.mjs")], cache)
        env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONHASHSEED="0")
        self.python = _Process([sys.executable, "-m", "conformance.pyworker"], ROOT, env)
        self._next = 0

    def run(self, case: dict, js_timeout: float | None = None) -> tuple[Outcome, Outcome]:
        self._next += 1
        limit = self.js_timeout if js_timeout is None else js_timeout
        wire = dict(case, id=self._next, timeout=limit)
        self.node.send(wire)
        self.python.send(wire)
        py = self.python.receive(self._next, self.py_timeout)
        if py is None:
            self.python.kill()  # a port loop: the next case gets a fresh process
            py = {"hang": True}
        js = self.node.receive(self._next, limit + 30)
        if js is None:  # node itself is stuck: start over
            self.node.kill()
            js = {"crash": {"name": "Crash", "message": "node did not answer"}}
        return js, py

    def close(self) -> None:
        self.node.close()
        self.python.close()
