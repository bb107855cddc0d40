"""The watchdog's budgets: one validation (core/runtime/limits.py) for every way they
arrive. nan, inf, 0 or a negative budget would turn the watchdog off or fail every job;
one past the machine's RAM would never be reached."""

import argparse
import subprocess
import sys

import pytest
from PySide6.QtCore import QSettings

from chunkview.app.worker import chunking_budgets
from chunkview.core.runtime import (
    DEFAULT_TIMEOUT,
    BudgetError,
    ChunkPool,
    ChunkService,
    check_max_memory,
    check_timeout,
    default_max_memory,
    machine_memory,
)
from chunkview.core.runtime.limits import (
    max_memory_argument,
    stored_max_memory,
    stored_timeout,
    timeout_argument,
)

MB = 2**20
BAD_TIMES = ["nan", float("nan"), "inf", float("inf"), "-inf", 0, "0", -5, "-5", "1e30T",
             0.05, 86_401, "ten", "", None, True, [1]]  # fmt: skip
BAD_SIZES = ["nan", float("nan"), "inf", float("inf"), 0, "0", -5, "-5", "1e30T", "1e400",
             10**400, "63M", "x", "", None, False, [1]]  # fmt: skip


@pytest.mark.parametrize("value", BAD_TIMES, ids=repr)
def test_a_bad_time_budget_is_refused_in_one_line(value):
    with pytest.raises(BudgetError) as caught:
        check_timeout(value)
    message = str(caught.value)
    assert "\n" not in message and "0.1 s to 86400 s" in message and repr(value) in message


@pytest.mark.parametrize("value", BAD_SIZES, ids=repr)
def test_a_bad_memory_budget_is_refused_in_one_line(value):
    with pytest.raises(BudgetError) as caught:
        check_max_memory(value)
    assert "\n" not in str(caught.value) and "64.0 MB" in str(caught.value)


def test_memory_past_the_ram_is_refused():
    with pytest.raises(BudgetError):
        check_max_memory(machine_memory() + 1)
    assert check_max_memory(machine_memory()) == machine_memory()


@pytest.mark.parametrize(
    ("value", "seconds"), [(0.1, 0.1), ("2.5", 2.5), (10, 10.0), ("86400", 86400.0)]
)
def test_good_time_budgets(value, seconds):
    assert check_timeout(value) == seconds


@pytest.mark.parametrize(
    ("value", "size"), [("64M", 64 * MB), ("1.5G", 1536 * MB), (MB * 100, MB * 100)]
)
def test_good_memory_budgets(value, size):
    assert check_max_memory(value) == size


@pytest.mark.parametrize("value", ["nan", "inf", "0", "-5", "1e30T"])
def test_the_cli_arguments_refuse_bad_budgets_for_argparse(value):
    parser = argparse.ArgumentParser(prog="chunkview")
    parser.add_argument("--timeout", type=timeout_argument)
    parser.add_argument("--max-memory", type=max_memory_argument)
    for flag in ("--timeout", "--max-memory"):
        with pytest.raises(SystemExit) as exited:
            parser.parse_args([flag, value])
        assert exited.value.code == 2
    assert parser.parse_args(["--timeout", "3", "--max-memory", "512M"]).max_memory == 512 * MB


@pytest.mark.parametrize("value", ["nan", "inf", "0", "-5", 0.0, -5.0])
def test_a_bad_stored_time_falls_back_to_the_default_with_a_note(value):
    seconds, note = stored_timeout(value)
    assert seconds == DEFAULT_TIMEOUT and note is not None and "stored time budget" in note


@pytest.mark.parametrize("value", ["nan", "inf", "0", "-5", "1e30T"])
def test_a_bad_stored_memory_falls_back_to_the_default_with_a_note(value):
    size, note = stored_max_memory(value)
    assert size is None and note is not None and "stored memory budget" in note


def test_unset_budgets_are_the_defaults_without_a_note():
    assert stored_timeout(None) == (DEFAULT_TIMEOUT, None)
    assert stored_max_memory(None) == (None, None)


def test_settings_with_bad_budgets_give_the_defaults_and_notes(tmp_path):
    settings = QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat)
    settings.setValue("chunking/timeout", "nan")
    settings.setValue("chunking/maxMemory", "1e30T")
    notes: list[str] = []
    assert chunking_budgets(settings, notes) == {"timeout": DEFAULT_TIMEOUT, "max_memory": None}
    assert len(notes) == 2
    settings.setValue("chunking/timeout", 0)
    settings.setValue("chunking/maxMemory", "-5")
    assert chunking_budgets(settings)["timeout"] == DEFAULT_TIMEOUT


@pytest.mark.parametrize("value", [float("nan"), float("inf"), 0, -5])
def test_the_api_refuses_bad_budgets(value):
    with pytest.raises(BudgetError):
        ChunkService(timeout=value)
    with pytest.raises(BudgetError):
        ChunkService(max_memory=value)
    with pytest.raises(BudgetError):
        ChunkPool(1, timeout=value)
    with pytest.raises(BudgetError):
        ChunkPool(1, max_memory=value)
    service = ChunkService()
    with pytest.raises(BudgetError):
        service.timeout = value
    assert service.timeout == DEFAULT_TIMEOUT and service.max_memory == default_max_memory()
    service.close()


@pytest.mark.parametrize("command", [["run", "agentos.SemanticChunker"], ["audit"], ["eval"]])
@pytest.mark.parametrize(
    ("flag", "value"),
    [
        ("--timeout", "nan"),
        ("--timeout", "inf"),
        ("--timeout", "0"),
        ("--timeout", "-5"),
        ("--max-memory", "1e30T"),
        ("--max-memory", "0"),
        ("--max-memory", "nan"),
    ],
)
def test_the_cli_refuses_a_bad_budget_with_exit_2_and_one_line(command, flag, value, tmp_path):
    if command == ["eval"] and flag == "--max-memory":
        pytest.skip("eval takes no memory budget")
    document = tmp_path / "doc.md"
    document.write_text("Some text.\n", encoding="utf-8")
    argv = [sys.executable, "-m", "chunkview", *command, str(document), flag, value]
    done = subprocess.run(argv, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "budget" in lines[0] and "Traceback" not in done.stderr
