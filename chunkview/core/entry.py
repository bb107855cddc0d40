"""The Entry protocol: one public function or class of one library, plugged in as a unit.

An entry declares its options as a schema of ``Param`` (the parameter panel is generated
from it), runs on a Document (``run`` returns the library's own result shape), places its
chunks (``spans``) and writes the same call back in the library's language (``code``).
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from chunkview.core.document import Document
from chunkview.core.errors import Cancelled, OptionError
from chunkview.core.locate import locate
from chunkview.core.spans import Span


@dataclass(frozen=True)
class Param:
    """One option, named exactly as the library spells it."""

    name: str
    kind: str  # int | float | bool | choice | str | json
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
    role: str | None = None
    #: for numbers: the minimum stands for "leave the option out" (the library's own
    #: default, which may depend on other options); the text shown for it
    special: str | None = None
    #: always pass the value, even when it equals the default (a required option)
    always: bool = False

    def omitted(self, value: Any) -> bool:
        """True when ``value`` means "leave this option to the library"."""
        return value is None or (self.special is not None and value == self.minimum)

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

    def check(self) -> None:
        """Raise Cancelled when a newer request has superseded this run."""
        if self.cancel_event.is_set():
            raise Cancelled()

    def progress(self, done: int, total: int) -> None:
        if self.on_progress is not None:
            self.on_progress(done, total)


@runtime_checkable
class Entry(Protocol):
    id: str
    library: str
    title: str
    params: tuple[Param, ...]

    def run(self, document: Document, options: dict[str, Any], ctx: RunContext) -> Any: ...

    def spans(self, document: Document, native: Any, options: dict[str, Any]) -> list[Span]: ...

    def code(self, options: dict[str, Any]) -> str: ...


class BaseEntry:
    """Defaults shared by the entries: option checks, located spans, JSON options."""

    id = ""
    library = ""
    title = ""
    summary = ""
    params: tuple[Param, ...] = ()
    #: which size unit the sizes count, for the views: chars | units | bytes | tokens
    size_unit = "chars"

    def defaults(self) -> dict[str, Any]:
        return {p.name: p.default for p in self.params}

    def param(self, name: str) -> Param | None:
        return next((p for p in self.params if p.name == name), None)

    def check_options(self, options: Mapping[str, Any]) -> None:
        """Refuse option values no widget could produce (GUI and CLI use this; the API
        passes values through as the library would)."""
        for name, value in options.items():
            param = self.param(name)
            if param is None or value is None:
                continue
            if param.kind in ("int", "float"):
                if isinstance(value, bool) or not isinstance(value, (int, float)):
                    raise OptionError(name, f"expected a number, got {json.dumps(value)}")
                if param.minimum is not None and value < param.minimum:
                    raise OptionError(
                        name, f"{value} is below the smallest allowed, {param.minimum:g}"
                    )
                if param.maximum is not None and value > param.maximum:
                    raise OptionError(
                        name, f"{value} is above the largest allowed, {param.maximum:g}"
                    )
            elif param.kind == "choice" and param.choices and value not in param.choices:
                raise OptionError(
                    name, f"{json.dumps(value)} is not one of {', '.join(map(str, param.choices))}"
                )

    def limits(self, options: Mapping[str, Any]) -> dict[str, float]:
        """maxSize / minSize as they apply to the output, for warnings."""
        result = {}
        for p in self.params:
            if p.role in ("max", "min") and p.applies({**self.defaults(), **options}):
                value = options.get(p.name, p.default)
                if (
                    isinstance(value, (int, float))
                    and not isinstance(value, bool)
                    and not p.omitted(value)
                ):
                    result[p.role] = value
        return result

    def chunk_texts(self, native: Any) -> list[str]:
        return [c["text"] for c in native]

    def chunk_kind(self, chunk: Any, options: Mapping[str, Any]) -> str:
        return str(options.get("strategy") or self.id.rsplit(".", 1)[-1])

    def spans(self, document: Document, native: Any, options: dict[str, Any]) -> list[Span]:
        texts = self.chunk_texts(native)
        spans = []
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

    def code(self, options: dict[str, Any]) -> str:
        return json.dumps(options, indent=2, ensure_ascii=False)


def chunk_metadata(chunk: Any) -> dict[str, Any]:
    if isinstance(chunk, dict) and isinstance(chunk.get("metadata"), dict):
        return dict(chunk["metadata"])
    return {}


def js_literal(value: Any, indent: int = 2) -> str:
    """An options object written as JavaScript (JSON with unquoted identifier keys)."""
    text = json.dumps(value, indent=indent, ensure_ascii=False)
    return re.sub(r'^(\s*)"([A-Za-z_$][\w$]*)":', r"\1\2:", text, flags=re.M)
