"""A Python function as an Entry: options from its signature, chunks from what it returns.

The contract, with no chunkview code in the user's file: a callable taking the text first
and its options as keyword arguments, returning a list of strings, of ``(start, end)``
code-point pairs, or of dicts or objects with a text and, where it has them, start/end
offsets and metadata. ``chunker`` (or attributes of the same names) may say more: which
option is the max size, the target, the min or the overlap; the size unit; the kinds of
boundary.
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import inspect
import numbers
import os
import re
import sys
import traceback
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast, get_args

from chunkview.core.chunkers.entry import Chunking, Entry, Param, RunContext
from chunkview.core.errors import Cancelled, ChunkerError
from chunkview.core.layout.locate import locate_columns
from chunkview.core.layout.placing import ordered_table
from chunkview.core.model.document import Document
from chunkview.core.model.kinds import ParamKind, ParamRole
from chunkview.core.model.span_table import (
    EXACT,
    MISSING,
    NORMALIZED,
    SpanTable,
    consecutive_runs,
)
from chunkview.core.plugins.cut_falls_on import explain_cuts

ROLES = ("max", "target", "min", "overlap")
SIZE_UNITS = ("chars", "units", "bytes", "tokens")


def chunker(
    function: Callable | None = None,
    *,
    max: str | None = None,
    target: str | None = None,
    min: str | None = None,
    overlap: str | None = None,
    size_unit: str | None = None,
    boundary_kinds: Sequence[str] | None = None,
    title: str | None = None,
) -> Any:
    """Declare what a signature cannot say: ``@chunker(max="max_chars", overlap="overlap",
    size_unit="chars")``. The same can be set as attributes with no import of chunkview:
    ``fn.chunkview_roles = {"max_chars": "max"}``, ``fn.chunkview_size_unit``,
    ``fn.chunkview_boundary_kinds``, ``fn.chunkview_title``."""

    def declare(target_function: Callable) -> Callable:
        roles = {name: role for role, name in zip(ROLES, (max, target, min, overlap)) if name}
        attributes = {
            "chunkview_roles": roles or None,
            "chunkview_size_unit": size_unit,
            "chunkview_boundary_kinds": tuple(boundary_kinds) if boundary_kinds else None,
            "chunkview_title": title,
        }
        for name, value in attributes.items():
            if value is not None:
                setattr(target_function, name, value)
        target_function.chunkview_chunker = True  # type: ignore[attr-defined]
        return target_function

    return declare(function) if function is not None else declare


# ----- the options, from the signature ----------------------------------------------------


def _hints(function: Callable) -> dict[str, Any]:
    """The type hints, resolved where they can be (a string annotation naming something
    the module no longer has is left as a string)."""
    try:
        return typing.get_type_hints(function)
    except Exception:  # an unresolvable forward reference: the raw annotations
        return dict(getattr(function, "__annotations__", {}) or {})


def _without_none(hint: Any) -> Any:
    """``X`` of ``X | None`` / ``Optional[X]``; the hint itself otherwise."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        rest = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(rest) == 1:
            return rest[0]
    return hint


def _kind_of(hint: Any, default: Any) -> tuple[ParamKind, tuple[Any, ...]]:
    """The Param kind (and choices) a type hint stands for; from the default when the
    parameter has no hint."""
    hint = _without_none(hint)
    if typing.get_origin(hint) is typing.Literal:
        return "choice", typing.get_args(hint)
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return "choice", tuple(member.value for member in hint)
    simple: dict[Any, ParamKind] = {bool: "bool", int: "int", float: "float", str: "str"}
    if hint in simple:
        return simple[hint], ()
    if isinstance(hint, str):  # an annotation left unresolved
        named: dict[str, ParamKind] = {"bool": "bool", "int": "int", "float": "float", "str": "str"}
        return named.get(hint, "json"), ()
    if hint is inspect.Parameter.empty or hint is Any:
        if default is not None and type(default) in simple:
            return simple[type(default)], ()
    return "json", ()  # lists, dicts, tuples, anything else: edited as JSON


#: option names whose role is plain without a declaration (numbers only)
_ROLE_BY_NAME: tuple[tuple[re.Pattern[str], ParamRole], ...] = (
    (re.compile(r"overlap", re.I), "overlap"),
    (re.compile(r"^(max|maximum)_?|^(chunk_?size|size|capacity|limit)$", re.I), "max"),
    (re.compile(r"^(min|minimum)_?", re.I), "min"),
    (re.compile(r"^target", re.I), "target"),
)


def _role(name: str, kind: str, declared: Mapping[str, str] | None) -> ParamRole | None:
    """The part option ``name`` plays: as declared (a declared word that is no role is
    none), else guessed from a number option's name."""
    if declared is not None:
        role = declared.get(name)
        return cast(ParamRole, role) if role in get_args(ParamRole) else None
    if kind not in ("int", "float"):
        return None
    return next((role for pattern, role in _ROLE_BY_NAME if pattern.search(name)), None)


_ARG_HELP_RE = re.compile(r"^\s*(?::param\s+)?(\w+)\s*(?:\([^)]*\))?\s*:\s*(\S.*)$")


def _help_by_name(doc: str) -> dict[str, str]:
    """Each argument's line in a Google-style ``Args:`` section or a ``:param x:`` line."""
    helps: dict[str, str] = {}
    for line in doc.splitlines():
        match = _ARG_HELP_RE.match(line)
        if match and match.group(1) not in helps:
            helps[match.group(1)] = match.group(2).strip()
    return helps


def text_parameter(function: Callable) -> inspect.Parameter:
    """The parameter that takes the text: the first positional one."""
    for parameter in inspect.signature(function).parameters.values():
        if parameter.kind in (parameter.POSITIONAL_ONLY, parameter.POSITIONAL_OR_KEYWORD):
            return parameter
        if parameter.kind is parameter.VAR_POSITIONAL:
            return parameter
    raise TypeError(f"{getattr(function, '__name__', function)!r} takes no text argument")


def params_from_signature(function: Callable) -> tuple[Param, ...]:
    """The options of ``function``: every keyword it takes after the text, named as it
    names them, with its default, a kind from its type hint, and its docstring's line."""
    signature = inspect.signature(function)
    hints = _hints(function)
    declared = getattr(function, "chunkview_roles", None)
    helps = _help_by_name(inspect.getdoc(function) or "")
    text = text_parameter(function)
    params = []
    for parameter in signature.parameters.values():
        if parameter.name == text.name or parameter.kind in (
            parameter.VAR_POSITIONAL,
            parameter.VAR_KEYWORD,
            parameter.POSITIONAL_ONLY,
        ):
            continue
        required = parameter.default is parameter.empty
        default = None if required else parameter.default
        kind, choices = _kind_of(hints.get(parameter.name, parameter.annotation), default)
        if isinstance(default, tuple):
            default = list(default)  # JSON has arrays only
        numeric = kind in ("int", "float")
        params.append(
            Param(
                parameter.name,
                kind,
                default,
                help=helps.get(parameter.name, "required" if required else ""),
                minimum=0 if numeric else None,
                maximum=10**9 if numeric else None,
                choices=choices,
                role=_role(parameter.name, kind, declared),
                always=required,
            )
        )
    return tuple(params)


# ----- what the function returns, as JSON data --------------------------------------------


def to_json_data(value: Any, depth: int = 0) -> Any:
    """``value`` as JSON data: objects as their fields (a dataclass's, a pydantic model's,
    ``to_dict``'s, or their attributes), tuples and other sequences as lists."""
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    if type(value) is list and all(type(v) is str for v in value):
        return value  # the usual result, a list of strings, is JSON data already
    if depth > 20:
        return repr(value)
    if isinstance(value, numbers.Integral):  # numpy's integers and the like
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value)
    if isinstance(value, Mapping):
        return {str(k): to_json_data(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset, range)) or inspect.isgenerator(value):
        return [to_json_data(v, depth + 1) for v in value]
    if isinstance(value, enum.Enum):
        return to_json_data(value.value, depth + 1)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
        return to_json_data(fields, depth + 1)
    for method in ("model_dump", "to_dict", "dict", "tolist"):
        if callable(getattr(value, method, None)):
            try:
                return to_json_data(getattr(value, method)(), depth + 1)
            except Exception:
                continue
    if hasattr(value, "__dict__"):
        public = {k: v for k, v in vars(value).items() if not k.startswith("_")}
        return to_json_data(public, depth + 1)
    if hasattr(value, "__iter__"):
        return [to_json_data(v, depth + 1) for v in value]
    return repr(value)


def returned_list(result: Any, what: str) -> list[Any]:
    """The function's result as a list (a generator or tuple is read out); ChunkerError
    saying what is wrong otherwise."""
    if isinstance(result, (str, bytes, Mapping)) or not hasattr(result, "__iter__"):
        raise ChunkerError(
            "BadResult",
            f"{what} returned {type(result).__name__}; a chunker returns a list of strings, "
            "of (start, end) pairs, or of dicts or objects with a text",
        )
    return list(result)


# ----- the user's exception, with the user's file and line --------------------------------


def user_error(error: BaseException, files: Sequence[str] = ()) -> ChunkerError:
    """One ChunkerError for an exception raised in code that is not chunkview's: named as
    the exception, its message ending with the file and line it came from (the last frame
    in one of ``files`` if any, else the last frame), the traceback kept on it."""
    frames = traceback.extract_tb(error.__traceback__)
    wanted = {os.path.abspath(f) for f in files}
    where = next((f for f in reversed(frames) if os.path.abspath(f.filename) in wanted), None)
    if where is None and frames:
        where = frames[-1]
    message = str(error) or type(error).__name__
    if where is not None:
        message += f" ({_shown_path(where.filename)}, line {where.lineno}, in {where.name})"
    result = ChunkerError(type(error).__name__, message)
    result.traceback = "".join(traceback.format_exception(type(error), error, error.__traceback__))
    return result


def _shown_path(path: str) -> str:
    """A path as a person wrote it: relative to the working folder when inside it."""
    try:
        relative = os.path.relpath(path)
    except ValueError:  # another drive
        return path
    return path if relative.startswith("..") else relative


def call_user(function: Callable, args: Sequence[Any], kwargs: Mapping[str, Any], files=()) -> Any:
    """``function(*args, **kwargs)``; what it raises becomes one ``user_error``
    (cancellation and chunkview's own errors pass through)."""
    try:
        # what it prints goes to stderr: stdout carries the commands' JSON
        with contextlib.redirect_stdout(sys.stderr):
            return function(*args, **kwargs)
    except (Cancelled, ChunkerError):
        raise
    except Exception as error:
        # our own frame is no part of the user's traceback
        raise user_error(error.with_traceback(_after_ours(error.__traceback__)), files) from None


def _after_ours(tb: types.TracebackType | None) -> types.TracebackType | None:
    """The traceback without ``call_user``'s own frame."""
    return tb.tb_next if tb is not None and tb.tb_next is not None else tb


# ----- placing what the function returned ---------------------------------------------------

_TEXT_KEYS = ("text", "page_content", "content", "chunk")
_START_KEYS = ("start", "start_index", "start_offset", "start_char_idx", "startOffset", "offset")
_END_KEYS = ("end", "end_index", "end_offset", "end_char_idx", "endOffset")


@dataclasses.dataclass
class Piece:
    """One returned chunk as placing needs it: its text and the offsets it came with."""

    text: str | None
    start: int | None = None
    end: int | None = None
    metadata: dict[str, Any] = dataclasses.field(default_factory=dict)
    kind: str | None = None


def _first(data: Mapping[str, Any], keys: Sequence[str]) -> Any:
    return next((data[k] for k in keys if data.get(k) is not None), None)


def _offset(value: Any) -> int | None:
    return value if type(value) is int else None


def piece_of(chunk: Any) -> Piece:
    """A native chunk (JSON data) read as a Piece: a string, a ``[start, end]`` pair, an
    ``[offset, text]`` pair (semantic-text-splitter's chunk_indices), or an object."""
    if isinstance(chunk, str):
        return Piece(chunk)
    if isinstance(chunk, list) and len(chunk) == 2:
        first, second = chunk
        if type(first) is int and type(second) is int:
            return Piece(None, first, second)
        if type(first) is int and isinstance(second, str):
            return Piece(second, first)
    if isinstance(chunk, dict):
        text = _first(chunk, _TEXT_KEYS)
        metadata = chunk.get("metadata")
        kind = chunk.get("kind")
        return Piece(
            text if isinstance(text, str) else None,
            _offset(_first(chunk, _START_KEYS)),
            _offset(_first(chunk, _END_KEYS)),
            dict(metadata) if isinstance(metadata, dict) else {},
            kind if isinstance(kind, str) else None,
        )
    raise ChunkerError(
        "BadResult",
        f"a chunk is {type(chunk).__name__}: {str(chunk)[:60]}; each chunk is a string, a "
        "(start, end) pair, or a dict or object with a text",
    )


def placed_pieces(text: str, pieces: Sequence[Piece], kind: str) -> SpanTable:
    """The spans of ``pieces`` in ``text``: at the offsets a piece came with where its text
    is there (a pair's text is the slice); else searched for in order, as the ports'
    chunks are, the offset it gave kept as ``reported`` (the "bad offsets" warning). A
    chunk found nowhere is placed "normalized" where it is without the replacement
    characters a token window cut in a character leaves at its ends, or else at the
    offsets it gave."""
    kinds = [p.kind or kind for p in pieces]
    metadata = {i: p.metadata for i, p in enumerate(pieces) if p.metadata}
    reported: dict[int, int] = {}
    if all(p.start is None for p in pieces):
        chunks = [p.text or "" for p in pieces]
        starts, ends, located = locate_columns(text, chunks)
    else:
        chunks, starts, ends, located = _at_offsets(text, pieces, reported)
    if MISSING in located:
        _place_the_missing(text, pieces, starts, ends, located, reported)
    return ordered_table(text, chunks, starts, ends, located, kinds, metadata, reported)


def _at_offsets(
    text: str, pieces: Sequence[Piece], reported: dict[int, int]
) -> tuple[list[str], list[int], list[int], list[int]]:
    """Chunks placed at their offsets where their text is there, the others searched for
    in order (each run of them from the chunk before, its offset a hint); the offsets
    that did not hold go into ``reported``."""
    count, size = len(pieces), len(text)
    chunks: list[str] = []
    starts, ends, located = [0] * count, [0] * count, [EXACT] * count
    searched: list[int] = []
    for i, piece in enumerate(pieces):
        start, end = piece.start, piece.end
        if piece.text is None:  # a (start, end) pair: the slice, if the pair is one
            if start is not None and end is not None and 0 <= start <= end <= size:
                chunks.append(text[start:end])
                starts[i], ends[i] = start, end
            else:
                chunks.append("")
                located[i] = MISSING
            continue
        chunks.append(piece.text)
        if start is not None and 0 <= start <= size and text.startswith(piece.text, start):
            starts[i], ends[i] = start, start + len(piece.text)
        else:
            searched.append(i)
            if start is not None:
                reported[i] = start
    for first, last in consecutive_runs(searched):
        after = (starts[first - 1], ends[first - 1]) if first else None
        hints = [pieces[k].start if pieces[k].start is not None else -1 for k in range(first, last)]
        found = locate_columns(text, chunks[first:last], True, hints, after)
        starts[first:last], ends[first:last], located[first:last] = found
    return chunks, starts, ends, located


def _place_the_missing(
    text: str,
    pieces: Sequence[Piece],
    starts: list[int],
    ends: list[int],
    located: list[int],
    reported: dict[int, int],
) -> None:
    """Where the chunks found nowhere go (in place): see ``placed_pieces``."""
    size = len(text)
    for i in [k for k, how in enumerate(located) if how == MISSING]:
        piece = pieces[i]
        after = (starts[i - 1], ends[i - 1]) if i else None
        stripped = (piece.text or "").strip("\ufffd")
        if stripped and stripped != piece.text:
            found = locate_columns(text, [stripped], True, None, after)
            if found[2][0] != MISSING:
                starts[i], ends[i], located[i] = found[0][0], found[1][0], NORMALIZED
                continue
        start, end = piece.start, piece.end
        if piece.text is not None and start is not None and end is not None:
            if 0 <= start <= end <= size:  # the library says where it cut it
                starts[i], ends[i], located[i] = start, end, NORMALIZED
                reported.pop(i, None)
                continue
        starts[i] = ends[i] = ends[i - 1] if i else 0  # where the chunk before ended


# ----- the Entry ---------------------------------------------------------------------------


class FunctionEntry(Entry):
    """An Entry calling ``function(text, **options)``; ``run`` gives what it returns, as
    JSON data. ``entry_id``: how commands name it (``path/to/file.py:name``,
    ``package.module:name`` or an entry point's name); ``files``: where its code lies
    (an exception's line is looked for there first)."""

    def __init__(
        self,
        function: Callable,
        entry_id: str | None = None,
        library: str | None = None,
        files: Sequence[str] = (),
    ) -> None:
        text_parameter(function)  # TypeError for a callable that takes no text
        self.function = function
        name = getattr(function, "__name__", type(function).__name__)
        module = getattr(function, "__module__", None) or "function"
        self.id = entry_id or f"{module}:{getattr(function, '__qualname__', name)}"
        self.library = library or self.id.rsplit(":", 1)[0]
        self.title = getattr(function, "chunkview_title", None) or name
        doc = inspect.getdoc(function) or ""
        self.summary = doc.strip().splitlines()[0] if doc.strip() else f"{name}() in {self.library}"
        self.params = params_from_signature(function)
        self.size_unit = getattr(function, "chunkview_size_unit", None) or "chars"
        self.boundary_kinds = tuple(getattr(function, "chunkview_boundary_kinds", ()) or (name,))
        source = _source_file(function)
        self.files = tuple(files) or ((source,) if source else ())

    @property
    def name(self) -> str:
        return getattr(self.function, "__name__", self.title)

    def chunk(self, document: Document, options: dict[str, Any], ctx: RunContext) -> Chunking:
        # a function gives no reasons: each cut is described by what it falls on
        chunking = super().chunk(document, options, ctx)
        explain_cuts(chunking, ctx.observer)
        return chunking

    def run(self, document: Document, options: dict[str, Any], ctx: RunContext) -> Any:
        result = call_user(self.function, (document.text,), options, self.files)
        return to_json_data(returned_list(result, f"{self.name}()"))

    def spans(
        self, document: Document, native: Any, options: dict[str, Any], places: Any = None
    ) -> SpanTable:
        return placed_pieces(document.text, [piece_of(c) for c in native], self.name)

    def chunk_texts(self, native: Any) -> list[str]:
        return [piece_of(c).text or "" for c in native]

    def code(self, options: dict[str, Any]) -> str:
        return function_code(self.id, options)


def function_code(entry_id: str, options: Mapping[str, Any]) -> str:
    """The Python call of function id ``entry_id`` with ``options``, its import first."""
    module, _, name = entry_id.rpartition(":")
    if module.endswith(".py"):
        load = f"import runpy\n\n{name} = runpy.run_path({module!r})[{name!r}]\n"
    else:
        load = f"from {module} import {name}\n" if module else ""
    arguments = "".join(f", {key}={value!r}" for key, value in options.items())
    return f"{load}\nchunks = {name}(text{arguments})\n"


def _source_file(function: Callable) -> str | None:
    try:
        return inspect.getsourcefile(function)
    except TypeError:  # a builtin
        return None
