"""The ``chunkview`` command: opens the window, or hands a subcommand to its module in
chunkview/commands/. Those modules, and the window's, are imported only when used (by
``load``), so ``--version`` and ``--help`` answer at once and never import Qt or numpy."""

from __future__ import annotations

import importlib
import os
import signal
import sys
import threading
from collections.abc import Mapping
from types import FrameType, ModuleType

from chunkview import __version__

#: each subcommand and the module that runs it
COMMANDS = {
    "run": "chunkview.commands.run",
    "spans": "chunkview.commands.spans",
    "list": "chunkview.commands.list_entries",
    "render": "chunkview.commands.render",
    "diff": "chunkview.commands.diff",
    "sweep": "chunkview.commands.sweep",
    "page": "chunkview.commands.page",
    "eval": "chunkview.commands.evaluate",
    "audit": "chunkview.commands.audit",
}
SUBCOMMANDS = tuple(COMMANDS)
#: the module that opens the window
WINDOW = "chunkview.app.main_window"
#: the module that names Qt's missing platform libraries before the window opens
PLATFORM_CHECK = "chunkview.qt_platform"


def loaded_by_name() -> list[str]:
    """Every module ``load`` imports (a bundle is told them: it cannot see them)."""
    return [*COMMANDS.values(), WINDOW, PLATFORM_CHECK]


def load(module: str) -> ModuleType:
    """The command line's one lazy import: a subcommand's module or the window's, when it
    is about to run (importing them all would cost every command, ``--version`` too, the
    core, numpy and, for the window, Qt)."""
    return importlib.import_module(module)


USAGE = (
    "usage: chunkview [FILE]            open the inspector (a sample without FILE)\n"
    "       chunkview NAME.chunkview.json  reopen a saved session (the exact view)\n"
    "       chunkview run|spans ENTRY [FILE|-] [--options JSON] ...\n"
    "       chunkview list               every entry, its options and defaults, as JSON\n"
    "       chunkview render FILE --entry ENTRY [--options JSON] [--query Q] "
    "--out OUT.png|OUT.html\n"
    "       chunkview diff FILE --entry A [--options JSON] [--entry-b B] [--options-b JSON] "
    "[--json]\n"
    "       chunkview eval FILE --entry ENTRY --questions Q.jsonl [--retriever bm25|hash64|"
    "minilm|none] [--top-k 5] [--param P --values V] [--json]\n"
    "       chunkview audit PATH... --entry ENTRY [--options JSON] [--jobs N] "
    "[--format jsonl|csv|table] [--fail-on KINDS]\n"
    "       chunkview sweep FILE --entry E [--options JSON] --param NAME --values 200:2000:100 "
    "[--json]\n"
    "       chunkview page FILE --entry E [--options JSON] --param NAME --values 200:2000:100 "
    "--out OUT.html\n"
    "       chunkview --version"
)
NO_DISPLAY_HINT = (
    "chunkview: no display to open the window on (DISPLAY and WAYLAND_DISPLAY are unset); "
    "run it in a desktop session, or set QT_QPA_PLATFORM=offscreen to run without a screen"
)


def _launch_problem(argv: list[str]) -> str | None:
    """Why these arguments cannot open the window, as one line; None when they can."""
    if len(argv) > 1:
        return f"one file at most, got {len(argv)} arguments (see chunkview --help)"
    if not argv:
        return None
    word = argv[0]
    if word.startswith("-") and word != "-":
        return f"unknown option {word} (see chunkview --help)"
    if os.path.isdir(word):
        return f"{word} is a folder, not a file"
    if not os.path.isfile(word):
        return (
            f"{word}: no such file, nor a command ({', '.join(SUBCOMMANDS)}; see chunkview --help)"
        )
    return None


def display_available(environ: Mapping[str, str] = os.environ) -> bool:
    """False where Qt would abort for want of a screen: Linux and the BSDs with neither an
    X11 nor a Wayland display and no platform plugin chosen."""
    if sys.platform in ("win32", "darwin"):
        return True
    return any(environ.get(name) for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM"))


#: the exit status of a command stopped by Ctrl-C (SIGINT): 128 + 2, as a shell reports it
INTERRUPTED = 130


def _interrupted(_signum: int, _frame: FrameType | None) -> None:
    """SIGINT during a command: a KeyboardInterrupt once, then no more, so a second
    Ctrl-C cannot cut short the cleanup (the chunking processes killed, an audit's
    summary written) with a traceback."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    raise KeyboardInterrupt


def run_command(name: str, argv: list[str]) -> int:
    """The subcommand ``name`` with its arguments; its exit status. Ctrl-C ends it with
    one line and status 130: each command's ``with`` blocks kill the chunking processes
    as the KeyboardInterrupt passes (``audit`` writes the summary so far)."""
    on_main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGINT, _interrupted) if on_main_thread else None
    interrupted = False
    try:
        status: int = load(COMMANDS[name]).main(argv)
        sys.stdout.flush()  # here, where a closed pipe can still be caught
        return status
    except KeyboardInterrupt:
        interrupted = True  # SIGINT then stays ignored while the interpreter shuts down
        print("chunkview: interrupted", file=sys.stderr)
        return INTERRUPTED
    except BrokenPipeError:  # `chunkview list | head`: the reader left, no traceback
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    finally:
        if previous is not None and not interrupted:
            signal.signal(signal.SIGINT, previous)


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] in COMMANDS:
        return run_command(argv[0], argv[1:])
    if argv and argv[0] in ("-h", "--help"):
        print(USAGE)
        return 0
    if argv and argv[0] in ("-V", "--version"):
        print(f"chunkview {__version__}")
        return 0
    problem = _launch_problem(argv)
    if problem is not None:
        print(f"chunkview: {problem}", file=sys.stderr)
        return 2
    if not display_available():
        print(NO_DISPLAY_HINT, file=sys.stderr)
        return 1
    missing = load(PLATFORM_CHECK).platform_problem()  # before Qt, which would abort
    if missing is not None:
        print(missing, file=sys.stderr)
        return 1
    return load(WINDOW).launch(argv[0] if argv else None)


if __name__ == "__main__":
    sys.exit(main())
