"""The chunking process dying: while idle it is restarted on the next job, silently;
during a job its death is reported in words that guess at nothing (a SIGKILL with no
out-of-memory record is "was killed"). Real processes, real signals."""

import os
import signal
import threading
import time

import pytest
from conftest import settle
from test_service import exit_with, pid, sleep_then

from chunkview.core.model.document import Document
from chunkview.core.runtime import ChunkService, Stopped
from chunkview.core.runtime.limits import death_words

MB = 2**20


def wait_dead(process_id: int, timeout: float = 5.0) -> None:
    """Until ``process_id`` is gone or a zombie (its parent reaps it later)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{process_id}/stat", encoding="ascii") as handle:
                if handle.read().rsplit(")", 1)[1].split()[0] == "Z":
                    return
        except (FileNotFoundError, ProcessLookupError):  # reaped, before or while read
            return
        time.sleep(0.02)
    raise AssertionError(f"process {process_id} still alive")


@pytest.fixture
def service():
    with ChunkService(timeout=20, max_memory=1500 * MB) as svc:
        yield svc


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGTERM, signal.SIGSEGV])
def test_an_idle_process_that_died_is_restarted_silently(service, how):
    first = service.call(pid)
    os.kill(first, how)
    wait_dead(first)
    assert service.call(sleep_then, 0, "next") == "next"  # no error: a new process
    assert service.call(pid) != first and service.starts == 2


def test_an_idle_process_that_exited_is_restarted_silently(service):
    first = service.call(pid)
    with pytest.raises(Stopped):  # ends during this job: reported
        service.call(exit_with, 0)
    second = service.call(pid)
    os.kill(second, signal.SIGKILL)
    wait_dead(second)
    assert service.call(sleep_then, 0) == "done"
    assert service.call(pid) not in (first, second)


def test_a_sigkill_during_a_job_says_was_killed(service):
    child = service.call(pid)
    killer = threading.Timer(0.3, os.kill, (child, signal.SIGKILL))
    killer.start()
    with pytest.raises(Stopped) as caught:
        service.call(sleep_then, 10)
    killer.join()
    message = str(caught.value.message)
    assert caught.value.reason == "crash"
    assert message.startswith("the chunking process was killed (SIGKILL): "), message
    assert "memory" not in message  # the kernel recorded no out-of-memory kill
    assert service.call(sleep_then, 0) == "done"  # and the next job runs


def test_death_words_guess_at_nothing():
    assert death_words(-9, False) == "the chunking process was killed (SIGKILL)"
    assert "for want of memory" in death_words(-9, True)
    assert death_words(-11, False) == "the chunking process died of SIGSEGV"
    assert death_words(3, False) == "the chunking process died with status 3"
    for code in (-11, -15, 3, None):
        assert "memory" not in death_words(code, False)


def test_the_window_restarts_a_killed_idle_process_silently(qtbot, window):
    window.set_document(Document("# Notes\n\nSome text to chunk here.\n", None, "markdown"))
    settle(qtbot, window)
    first = window.worker.service.pid
    assert first is not None
    os.kill(first, signal.SIGKILL)
    wait_dead(first)
    window.params.set_value("targetSize", 321)
    settle(qtbot, window)
    assert window.error_label.isHidden(), window.error_label.text()
    assert window.result.request.options["targetSize"] == 321
    assert window.worker.service.pid != first


def test_the_window_says_a_process_killed_mid_job_was_killed(qtbot, window):
    from process_helpers import slow_semantic_chunker

    window.set_document(Document("# Notes\n\nSome text to chunk here.\n", None, "markdown"))
    settle(qtbot, window)
    window.worker.call_in_process(slow_semantic_chunker, 5.0)
    window.params.set_value("targetSize", 321)
    qtbot.waitUntil(lambda: window.model.running, timeout=5000)
    qtbot.wait(500)
    os.kill(window.worker.service.pid, signal.SIGKILL)
    qtbot.waitUntil(window.error_label.isVisible, timeout=10000)
    message = window.error_label.text()
    assert "was killed (SIGKILL)" in message and "memory" not in message, message
    assert "Preferences" not in message  # no advice about budgets for a kill
