"""Loading chunkers by id: ``path/to/file.py:function``, ``package.module:function``, and
the entry points installed packages register under ``chunkview.chunkers``.

The registry asks here for an id it does not hold; the chunking process resolves the
same id the same way, so a user's function runs there under the watchdog like a port.
A file is read again when it changed on disk (``revision`` says when): saving it in an
editor and running again runs the new code.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import inspect
import os
import re
import sys
import types
from collections.abc import Callable
from importlib import metadata
from typing import Any

from chunkview.core.chunkers.entry import Entry
from chunkview.core.errors import ChunkerError
from chunkview.core.plugins.function import FunctionEntry, text_parameter, user_error

#: the group installed packages register their chunkers under
ENTRY_POINT_GROUP = "chunkview.chunkers"

_MODULE_RE = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")
_NAME_RE = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")


class EntryLoadError(ChunkerError, KeyError):
    """A function id that names no loadable function: a file that is not there or does
    not run, a module that does not import, a name it does not have. A KeyError too, as
    an unknown id is everywhere the registry is asked."""

    def __str__(self) -> str:
        return f"{self.name}: {self.message}"


def is_function_id(entry_id: str) -> bool:
    """True for ``path/to/file.py:function`` and ``package.module:function``."""
    where, colon, name = entry_id.rpartition(":")
    if not colon or not where or not _NAME_RE.match(name):
        return False
    return where.endswith(".py") or bool(_MODULE_RE.match(where))


def revision(entry_id: str) -> tuple[int, int] | None:
    """What changes when a file id's file is saved (its modification time and size);
    None for other ids (a module is imported once)."""
    where = entry_id.rpartition(":")[0]
    return _file_revision(where) if where.endswith(".py") else None


def _file_revision(path: str) -> tuple[int, int] | None:
    try:
        status = os.stat(path)
    except OSError:
        return None
    return (status.st_mtime_ns, status.st_size)


#: file path -> (its revision, the module read from it)
_files: dict[str, tuple[tuple[int, int] | None, Any]] = {}
#: function id -> (revision, its entry)
_functions: dict[str, tuple[tuple[int, int] | None, Entry]] = {}


def function_entry(entry_id: str) -> Entry:
    """The entry of a function id, read again when its file changed; EntryLoadError
    saying what is wrong otherwise."""
    now = revision(entry_id)
    cached = _functions.get(entry_id)
    if cached is not None and cached[0] == now:
        return cached[1]
    where, _, name = entry_id.rpartition(":")
    files: tuple[str, ...] = ()
    if where.endswith(".py"):
        module = _module_of_file(where)
        library, files = os.path.basename(where), (os.path.abspath(where),)
    else:
        module = _imported(where)
        library = where
    function = _attribute(module, name, where)
    entry = as_entry(function, entry_id, library, files)
    _functions[entry_id] = (now, entry)
    return entry


def load_file(path: str) -> list[Entry]:
    """The chunkers of a ``.py`` file as entries, read afresh when it changed: the
    functions marked with ``@chunker`` if any are, else every public function defined
    there that takes an argument. Their ids are ``path:name``; ``revision`` of one tells
    when to load the file again."""
    module = _module_of_file(path)
    functions = [
        value
        for key, value in vars(module).items()
        if inspect.isfunction(value)
        and value.__module__ == module.__name__
        and not key.startswith("_")
        and _takes_text(value)
    ]
    marked = [f for f in functions if getattr(f, "chunkview_chunker", False)]
    entries = []
    for function in marked or functions:
        entries.append(function_entry(f"{path}:{function.__name__}"))
    return entries


def _takes_text(function: Callable) -> bool:
    try:
        text_parameter(function)
    except (TypeError, ValueError):
        return False
    return True


def _module_of_file(path: str) -> Any:
    """The module a file defines, executed again when the file changed."""
    absolute = os.path.abspath(path)
    now = _file_revision(absolute)
    cached = _files.get(absolute)
    if cached is not None and cached[0] == now and now is not None:
        return cached[1]
    if not os.path.isfile(absolute):
        raise EntryLoadError("FileNotFound", f"no such file: {path}")
    digest = hashlib.sha1(absolute.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    stem = re.sub(r"\W", "_", os.path.basename(path)[:-3])
    name = f"chunkview_user_{stem}_{digest}"
    spec = importlib.util.spec_from_file_location(name, absolute)
    if spec is None or spec.loader is None:
        raise EntryLoadError("ImportError", f"{path} cannot be loaded as Python")
    module = importlib.util.module_from_spec(spec)
    folder = os.path.dirname(absolute)
    if folder not in sys.path:  # the file may import its neighbours
        sys.path.append(folder)
    sys.modules[name] = module  # dataclasses and pickling look the module up by name
    try:
        spec.loader.exec_module(module)
    except (Exception, SystemExit) as error:  # sys.exit() at the top: said, not obeyed
        sys.modules.pop(name, None)
        raise _load_error(error, absolute) from None
    _files[absolute] = (now, module)
    return module


def _load_error(error: BaseException, path: str) -> EntryLoadError:
    if isinstance(error, SystemExit):
        error.args = (f"the file's top-level code called sys.exit({error.code!r})",)
    if isinstance(error, SyntaxError):  # its traceback is the loader's: the line is here
        message = f"{error.msg} ({os.path.relpath(error.filename or path)}, line {error.lineno})"
        failure = EntryLoadError("SyntaxError", message)
    else:
        plain = user_error(error.with_traceback(_from_file(error.__traceback__, path)), (path,))
        failure = EntryLoadError(plain.name, plain.message)
        failure.traceback = plain.traceback
    return failure


def _from_file(tb: types.TracebackType | None, path: str) -> types.TracebackType | None:
    """The traceback from its first frame in the file at ``path`` (the loader's frames,
    chunkview's and importlib's, are no part of the user's story); as it is if none."""
    first = tb
    while first is not None and os.path.abspath(first.tb_frame.f_code.co_filename) != path:
        first = first.tb_next
    return first or tb


def _imported(module_name: str) -> Any:
    """The module, imported; the working folder is tried too, as ``python -m`` would."""
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        top = module_name.split(".")[0]
        if error.name != top or os.getcwd() in sys.path:
            raise _import_error(error, module_name) from None
    except Exception as error:
        raise _import_error(error, module_name) from None
    sys.path.append(os.getcwd())
    try:
        return importlib.import_module(module_name)
    except Exception as error:
        raise _import_error(error, module_name) from None


def _import_error(error: Exception, module_name: str) -> EntryLoadError:
    if isinstance(error, ModuleNotFoundError):
        return EntryLoadError("ModuleNotFound", f"no module named {error.name!r} ({module_name})")
    plain = user_error(error)
    failure = EntryLoadError(plain.name, plain.message)
    failure.traceback = plain.traceback
    return failure


def _attribute(module: Any, name: str, where: str) -> Any:
    value: Any = module
    for part in name.split("."):
        if not hasattr(value, part):
            have = sorted(
                k for k, v in vars(module).items() if callable(v) and not k.startswith("_")
            )
            raise EntryLoadError(
                "NameError",
                f"{where} has no {name!r}" + (f"; it has: {', '.join(have)}" if have else ""),
            )
        value = getattr(value, part)
    return value


def as_entry(
    value: Any, entry_id: str | None = None, library: str | None = None, files: tuple = ()
) -> Entry:
    """An Entry of what a name points to: an Entry, an Entry class, or a function."""
    if isinstance(value, Entry):
        return value
    if isinstance(value, type) and issubclass(value, Entry):
        return value()
    if not callable(value):
        raise EntryLoadError("TypeError", f"{entry_id} is {type(value).__name__}, not a function")
    try:
        return FunctionEntry(value, entry_id, library, files)
    except (TypeError, ValueError) as error:
        raise EntryLoadError("TypeError", f"{entry_id}: {error}") from None


#: what went wrong loading each entry point that failed (its name -> the error)
entry_point_problems: dict[str, str] = {}


def entry_point_entries() -> list[Entry]:
    """The entries installed packages register under ``chunkview.chunkers``: each entry
    point names an Entry (class or instance), a function, or a list of them. A function's
    id is the entry point's name (in a list: the name, a dot and the function's name).
    One that fails to load is left out, and said in ``entry_point_problems``."""
    entries: list[Entry] = []
    for point in metadata.entry_points(group=ENTRY_POINT_GROUP):
        distribution = point.dist.name if point.dist is not None else point.module
        try:
            loaded = point.load()
            if isinstance(loaded, (list, tuple)):
                for item in loaded:
                    name = getattr(item, "__name__", "")
                    entries.append(as_entry(item, f"{point.name}.{name}", distribution))
            else:
                entries.append(as_entry(loaded, point.name, distribution))
        except Exception as error:  # one broken package does not take the others along
            entry_point_problems[point.name] = f"{type(error).__name__}: {error}"
    return entries
