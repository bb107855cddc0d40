"""The Entry contract: one public function or class of one library, plugged in as a unit.

An entry declares its options as a schema of ``Param`` (the parameter panel is generated
from it), runs on a Document (``run`` returns the library's own result shape), places its
chunks (``spans``) and writes the same call back in the library's language (``code``).
"""

from __future__ import annotations

import json
import re
import threading
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from chunkview.core.errors import Cancelled, OptionError
from chunkview.core.layout.locate import locate
from chunkview.core.model.document import Document
from chunkview.core.model.explain import attach_by_chunk, attach_by_point
from chunkview.core.model.kinds import ParamKind, ParamRole, ReasonsAt, SizeUnit
from chunkview.core.model.observer import NOBODY, RunNotes, RunObserver
from chunkview.core.model.spans import Span
from chunkview.core.text.jsonout import dumps


@dataclass(frozen=True)
class Param:
    """One option, named exactly as the library spells it."""

    name: str
    kind: ParamKind
    default: Any
    help: str = ""
    minimum: float | None = None
    maximum: float | None = None
    step: float = 1
    choices: tuple[Any, ...] = ()
    group: str = "Options"
    #: shown only when every named option has one of the listed values
    when: Mapping[str, tuple[Any, ...]] | None = None
    #: the part a size plays, for histograms and warnings: target | max | min | overlap
    role: ParamRole | None = None
    #: for numbers: the minimum stands for "leave the option out" (the library's own
    #: default, which may depend on other options); the text shown for it. For choices:
    #: the choice that stands for leaving the option out
    special: str | None = None
    #: always pass the value, even when it equals the default (a required option)
    always: bool = False
    #: the default is the panel's preset, not the library's: the library has none (leaving
    #: the option out is an error or does something else), so the value is always passed
    preset: bool = False
    #: presets that depend on another option: {option: {its value: this option's preset}}
    #: (mastra's headers are markdown markers for markdown, selectors for html)
    presets: Mapping[str, Mapping[Any, Any]] | None = None

    def preset_for(self, options: Mapping[str, Any]) -> Any:
        """The value the panel starts this option at, given the other options."""
        for name, by_value in (self.presets or {}).items():
            value = options.get(name)
            if isinstance(value, str) and value in by_value:
                return by_value[value]
        return self.default

    def omitted(self, value: Any) -> bool:
        """True when ``value`` means "leave this option to the library"."""
        if value is None or self.special is None:
            return value is None
        # a choice named ``special`` (such as "none"), or a number's minimum
        return value == (self.special if self.kind == "choice" else self.minimum)

    def applies(self, options: Mapping[str, Any]) -> bool:
        if not self.when:
            return True
        return all(options.get(name) in values for name, values in self.when.items())

    def to_json(self) -> dict[str, Any]:
        data = {
            "name": self.name,
            "kind": self.kind,
            "default": self.default,
            "help": self.help,
            "group": self.group,
        }
        for key in ("minimum", "maximum", "role", "special"):
            if getattr(self, key) is not None:
                data[key] = getattr(self, key)
        if self.choices:
            data["choices"] = list(self.choices)
        if self.when:
            data["when"] = {k: list(v) for k, v in self.when.items()}
        if self.preset:
            data["preset"] = True
        if self.presets:
            data["presets"] = {name: dict(by_value) for name, by_value in self.presets.items()}
        return data


#: RunContext.raw_input when the caller gave a Document rather than the library's argument
NO_RAW_INPUT: Any = object()


@dataclass
class RunContext:
    """What a run may need besides the document and options."""

    metadata: Any = None
    #: the library's own first argument when it is not simply the text (semantic-chunking
    #: takes an array of documents; a plain string there is the library's error)
    raw_input: Any = NO_RAW_INPUT
    embedder: str | None = None
    tokenizer: str | None = None
    cancel_event: threading.Event = field(default_factory=threading.Event)
    on_progress: Callable[[int, int], None] | None = None
    #: whoever watches the run: the port tells it its reasons and places (observer.py);
    #: ``RunNotes(places=False)`` asks for the reasons, which ``Entry.chunk`` gives the spans
    observer: RunObserver = NOBODY

    def check(self) -> None:
        """Raise Cancelled when a newer request has superseded this run."""
        if self.cancel_event.is_set():
            raise Cancelled()

    def progress(self, done: int, total: int) -> None:
        if self.on_progress is not None:
            self.on_progress(done, total)


@dataclass(frozen=True)
class Chunking:
    """One run's result: the library's own output and where each of its chunks lies."""

    native: Any
    spans: Sequence[Span]
    #: the text the spans lie in (``Entry.view_document`` of the document)
    shown: Document


class Entry(ABC):
    """One public function or class of one library, plugged in as a unit.

    To add a chunker, subclass ``Entry`` in one module and add one line to
    ``registry._BUILTIN`` (docs/adding-a-chunker.md walks through it). Implement:

    - ``id``, ``library``, ``title``, ``summary``: how the picker and the CLI name it
      (``id`` is ``<library>.<api>``);
    - ``params``: the options, named exactly as the library spells them (the parameter
      panel, the CLI's ``list`` and the option check are generated from them; give the
      size options a ``role`` so the views draw the target / max / min lines);
    - ``run(document, options, ctx)``: the library's own result, as JSON data; raise
      ``ChunkerError`` (``Hang`` where the original never returns) as the library throws;
    - ``code(options)``: the same call in the library's language, to paste back.

    Override when the defaults do not fit:

    - ``chunk_texts`` / ``chunk_kind``: the text and boundary kind of a native chunk
      (default: ``chunk["text"]`` and the strategy option or the api name); ``spans``
      places them with ``locate``; entries whose result carries offsets override ``spans``;
    - ``chunk``: when the spans need more than the native result (smartchunk's levels);
    - ``view_document``: when the entry chunks a text derived from the file (a
      transcript's turns);
    - ``size_unit`` (chars | units | bytes | tokens), ``boundary_kinds``,
      ``uses_embedder``, ``uses_tokenizer``.
    """

    id: str = ""
    library: str = ""
    title: str = ""
    #: one or two sentences on how the entry cuts, shown under the picker
    summary: str = ""
    params: tuple[Param, ...] = ()
    #: the unit sizes are counted in, for the views: chars | units | bytes | tokens
    size_unit: SizeUnit = "chars"
    #: the kinds of boundary ``spans`` can give (the legend and the checks use them)
    boundary_kinds: tuple[str, ...] = ()
    #: the run takes ``ctx.embedder`` (the picker shows an embedder row)
    uses_embedder: bool = False
    #: the run takes ``ctx.tokenizer`` (the picker shows a tokenizer row)
    uses_tokenizer: bool = False
    #: what the ``at`` of the port's reasons counts: native chunk indexes (``chunk``) or
    #: code points of the text chunked (``point``); see explain.py
    reasons_at: ReasonsAt = "chunk"

    @abstractmethod
    def run(self, document: Document, options: dict[str, Any], ctx: RunContext) -> Any:
        """The library's own result for ``document`` and ``options``, as JSON data."""

    @abstractmethod
    def code(self, options: dict[str, Any]) -> str:
        """The same call, with ``options``, in the library's own language."""

    def defaults(self) -> dict[str, Any]:
        return {p.name: p.default for p in self.params}

    def param(self, name: str) -> Param | None:
        return next((p for p in self.params if p.name == name), None)

    def check_options(self, options: Mapping[str, Any]) -> None:
        """Refuse a value of the wrong type (the panel, the CLI and the API all call this).

        Only the type is checked: any number goes to the port, fractions, negatives, zero
        and NaN included, and gives what the library gives (minimum and maximum bound the
        widgets only). A bool counts as a number and a number as a bool, as JS coerces
        them; a choice takes any value of its choices' type (the library says what it
        makes of an unknown one). Unknown names are left to the entry, as the library
        ignores them. An entry whose library checks types itself (``library_checks_types``,
        as Mastra's zod schemas do) is left to give the library's own error.
        """
        if getattr(self, "library_checks_types", False):
            return
        for name, value in options.items():
            param = self.param(name)
            if param is None or value is None:
                continue
            takes = _TAKES.get(param.kind)
            if param.kind == "choice" and param.choices:
                types = {_json_type(c) for c in param.choices}
                if _json_type(value) not in types:
                    raise OptionError(
                        name,
                        f"takes one of {', '.join(json.dumps(c) for c in param.choices)}, "
                        f"got {_described(value)}",
                    )
            elif takes is not None and _json_type(value) not in takes[1]:
                raise OptionError(name, f"takes {takes[0]}, got {_described(value)}")

    def limits(self, options: Mapping[str, Any]) -> dict[str, float]:
        """The sizes that apply to the output, by role (target, max, min, overlap), in
        ``size_unit``: the histogram draws them and the warnings check max and min."""
        effective = {**self.defaults(), **options}
        result: dict[str, float] = {}
        for p in self.params:
            if p.role is None or not p.applies(effective):
                continue
            value = options.get(p.name, p.default)
            if isinstance(value, (int, float)) and not isinstance(value, bool):
                if not p.omitted(value):
                    result[p.role] = value
        return result

    def view_document(self, document: Document) -> Document:
        """The text the entry chunks and the views show: the document itself, unless the
        entry derives one from it (a transcript shows as its turns)."""
        return document

    def chunk(self, document: Document, options: dict[str, Any], ctx: RunContext) -> Chunking:
        """Run and place the chunks on ``view_document(document)``: the run tells a
        ``RunNotes`` where it cut (given to ``spans``) and, when the caller's observer wants
        them, its reasons (attached to the spans, and told to the caller's observer)."""
        explains = ctx.observer.wants_reasons
        notes = RunNotes(reasons=explains, places=True)
        native = self.run(document, options, replace(ctx, observer=notes))
        ctx.check()
        shown = self.view_document(document)
        spans = self.spans(shown, native, options, places=notes.places)
        if explains:
            attach = attach_by_point if self.reasons_at == "point" else attach_by_chunk
            attach(spans, notes.reasons)
            for reason in notes.reasons:
                ctx.observer.reason(reason)
        return Chunking(native, spans, shown)

    def chunk_texts(self, native: Any) -> list[str]:
        """The text of each native chunk, in order."""
        return [c["text"] for c in native]

    def chunk_kind(self, chunk: Any, options: Mapping[str, Any]) -> str:
        """The boundary kind of one native chunk."""
        return str(options.get("strategy") or self.id.rsplit(".", 1)[-1])

    def spans(
        self, document: Document, native: Any, options: dict[str, Any], places: Any = None
    ) -> Sequence[Span]:
        """Where each native chunk lies in ``document``: a list of Span, or a SpanTable
        (``chunkview.core.model.span_table``) from an entry that knows its chunks' places.
        ``places``: what the run told its observer of where it cut (``RunObserver.placed``),
        when it told anything."""
        return self.located_spans(document, native, options)

    def located_spans(self, document: Document, native: Any, options: dict[str, Any]) -> list[Span]:
        """Where each native chunk lies in ``document``: its text located in order."""
        texts = self.chunk_texts(native)
        spans: list[Span] = []
        for i, (chunk, where) in enumerate(zip(native, locate(document.text, texts))):
            own_start = max(where.start, spans[-1].end) if spans else where.start
            spans.append(
                Span(
                    i,
                    where.start,
                    where.end,
                    min(own_start, where.end),
                    self.chunk_kind(chunk, options),
                    texts[i],
                    where.located,
                    chunk_metadata(chunk),
                )
            )
        return spans


#: what each kind of option takes: words for the message, the JSON types it accepts
_TAKES = {
    "int": ("a number", {"number", "boolean"}),
    "float": ("a number", {"number", "boolean"}),
    "bool": ("true or false", {"boolean", "number"}),
    "str": ("a string", {"string"}),
}


def _json_type(value: Any) -> str:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, (list, tuple)):
        return "array"
    return "object" if isinstance(value, dict) else type(value).__name__


def _described(value: Any) -> str:
    """``the string "abc"``, ``an array [1, 2]``: what a person passed, briefly."""
    kind = _json_type(value)
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    if len(text) > 40:
        text = text[:37] + "..."
    article = "an" if kind[0] in "aeiou" else "a"
    return f"{article} {kind} {text}"


def chunk_metadata(chunk: Any) -> dict[str, Any]:
    if isinstance(chunk, dict) and isinstance(chunk.get("metadata"), dict):
        return dict(chunk["metadata"])
    return {}


_JS_IDENTIFIER_RE = re.compile(r"[A-Za-z_$][\w$]*\Z", re.ASCII)


def js_key(key: str) -> str:
    """An object key as JavaScript: bare when it is an identifier, else a string."""
    return key if _JS_IDENTIFIER_RE.match(key) else dumps(key)


def js_literal(value: Any, indent: int = 2) -> str:
    """An options object written as JavaScript: JSON with identifier keys unquoted (any
    other key stays a string) and lone surrogates as ``\\uXXXX`` escapes (a string with
    one cannot be copied or saved as it is)."""
    text = dumps(value, indent=indent)
    return re.sub(r'^(\s*)"([A-Za-z_$][\w$]*)":', r"\1\2:", text, flags=re.M | re.ASCII)
