"""The ``mastra.chunk`` entry: schema, run, spans and copy-as-code."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import compress
from operator import itemgetter, methodcaller
from typing import Any

import numpy as np

from chunkview.core.chunkers.entry import Entry, Param, RunContext, js_key
from chunkview.core.chunkers.mastra.document import (
    DEFAULT_STRATEGY,
    STRATEGIES,
    chunk_document,
)
from chunkview.core.chunkers.mastra.places import PlaceNotes
from chunkview.core.chunkers.mastra.reference.recursive import LANGUAGES
from chunkview.core.chunkers.mastra.token import JS_ENCODINGS
from chunkview.core.layout.placing import located_table, placed_table
from chunkview.core.model.document import Document
from chunkview.core.model.explain import Reason
from chunkview.core.model.observer import RunNotes, RunObserver
from chunkview.core.model.span_table import SpanTable
from chunkview.core.text.jsonout import dumps

SPLITTERS = ("character", "recursive", "latex", "markdown")
TOKENS = ("token", "semantic-markdown")
SIZED = (*SPLITTERS, "sentence", "token", "json")
FACTORY = {"text": "fromText", "markdown": "fromMarkdown", "html": "fromHTML", "json": "fromJSON"}
# the panel's choices are the option values themselves; utf16 (text.length) is the library default
LENGTH_CHOICES = ({"$fn": "utf16"}, {"$fn": "utf8"}, {"$fn": "wordpunct"}, {"$fn": "cl100k"})
LENGTH_JS = {
    "utf8": "(text) => new TextEncoder().encode(text).length",
    "wordpunct": "(text) => (text.match(/[\\p{L}\\p{N}\\p{M}]+|[^\\s\\p{L}\\p{N}\\p{M}]/gu) "
    "?? []).length",
    # the encoding is built once: building it per call takes ~0.1 s in js-tiktoken
    "cl100k": "((gpt4) => (text) => gpt4.encode(text).length)(encodingForModel('gpt-4'))",
}


_METADATA, _TEXT = methodcaller("get", "metadata"), itemgetter("text")


def _when(*strategies: str) -> dict[str, tuple[str, ...]]:
    return {"strategy": strategies}


class MastraChunkEntry(Entry):
    id = "mastra.chunk"
    library = "mastra"
    title = "MDocument.chunk"
    summary = (
        "Mastra's nine strategies. Sizes count UTF-16 units (tokens for token); "
        "overlap repeats whole pieces except in character and token windows."
    )
    size_unit = "units"
    boundary_kinds = STRATEGIES
    #: its zod schemas refuse a wrong type with the library's own error (validate.py)
    library_checks_types = True
    params = (
        Param(
            "strategy",
            "choice",
            "recursive",
            "how the document is cut",
            choices=STRATEGIES,
            group="Strategy",
        ),
        Param(
            "maxSize",
            "int",
            4000,
            "largest chunk (units; tokens for token; JSON "
            "characters for json). Not a hard limit: overlap and joiners can exceed it",
            1,
            1_000_000,
            group="Sizes",
            role="max",
            always=True,
            preset=True,  # the sentence strategy requires it
            when=_when(*SIZED),
        ),
        Param(
            "overlap",
            "int",
            -1,
            "overlap: whole pieces totalling at most this "
            "(exact units in character windows, tokens in token windows). Library "
            "default: 200, or 0 for sentence",
            -1,
            1_000_000,
            group="Sizes",
            role="overlap",
            special="default",
            when=_when(*SPLITTERS, "sentence", "token"),
        ),
        Param(
            "minSize",
            "int",
            0,
            "sentence: never used by the library; json: the smallest "
            "group saved (default max(maxSize - 200, 50))",
            0,
            1_000_000,
            group="Sizes",
            role="min",
            special="default",
            when=_when("sentence", "json"),
        ),
        Param(
            "targetSize",
            "int",
            0,
            "sentence: a group is emitted once this big (default 80% of maxSize)",
            0,
            1_000_000,
            group="Sizes",
            special="default",
            when=_when("sentence"),
        ),
        Param(
            "joinThreshold",
            "int",
            500,
            "merge neighbouring sections while their token counts sum below this",
            1,
            1_000_000,
            group="Sizes",
            when=_when("semantic-markdown"),
        ),
        Param(
            "lengthFunction",
            "choice",
            {"$fn": "utf16"},
            "how sizes are measured (the library "
            "takes a function; these are the ones chunkview offers)",
            choices=LENGTH_CHOICES,
            group="Splitting",
            when=_when(*SPLITTERS, "sentence"),
        ),
        Param(
            "separator",
            "str",
            "\n\n",
            "the one separator of the character strategy",
            group="Splitting",
            when=_when("character"),
        ),
        Param(
            "separators",
            "json",
            None,
            'tried in order (default ["\\n\\n", "\\n", " ", ""])',
            group="Splitting",
            when=_when("recursive"),
        ),
        Param(
            "isSeparatorRegex",
            "bool",
            False,
            "separators are JS regular expressions",
            group="Splitting",
            when=_when("character", "recursive"),
        ),
        Param(
            "language",
            "choice",
            "none",
            "language-specific separators (only markdown, "
            "latex, cpp, c and ts work in the library)",
            choices=("none", *LANGUAGES),
            special="none",
            group="Splitting",
            when=_when("recursive"),
        ),
        Param(
            "keepSeparator",
            "choice",
            False,
            "keep the separators: at the start of the next piece or the end of the previous",
            choices=(False, "start", "end"),
            group="Splitting",
            when=_when(*SPLITTERS),
        ),
        Param(
            "stripWhitespace",
            "bool",
            True,
            "trim merged chunks",
            group="Splitting",
            when=_when(*SPLITTERS),
        ),
        Param(
            "addStartIndex",
            "bool",
            False,
            "metadata.startIndex (can be -1 or an earlier repeat, as in the library)",
            group="Splitting",
            when=_when(*SPLITTERS, "sentence"),
        ),
        Param(
            "sentenceEnders",
            "json",
            None,
            'single characters (default [".", "!", "?"])',
            group="Sentences",
            when=_when("sentence"),
        ),
        Param(
            "fallbackToWords",
            "bool",
            True,
            "split an oversized sentence at words",
            group="Sentences",
            when=_when("sentence"),
        ),
        Param(
            "fallbackToCharacters",
            "bool",
            True,
            "split an oversized sentence or word at characters",
            group="Sentences",
            when=_when("sentence"),
        ),
        Param(
            "encodingName",
            "choice",
            "cl100k_base",
            "tokenizer (js-tiktoken's encodings, bundled)",
            choices=JS_ENCODINGS,
            group="Tokens",
            when=_when(*TOKENS),
        ),
        Param(
            "modelName",
            "str",
            None,
            "a model name; wins over encodingName",
            group="Tokens",
            when=_when(*TOKENS),
        ),
        Param(
            "allowedSpecial",
            "json",
            None,
            'special tokens allowed: "all" or {"$set": [...]}',
            group="Tokens",
            when=_when(*TOKENS),
        ),
        Param(
            "disallowedSpecial",
            "json",
            None,
            'default "all": the text may not hold them',
            group="Tokens",
            when=_when(*TOKENS),
        ),
        Param(
            "headers",
            "json",
            [["#", "title"], ["##", "section"]],
            "markdown: [marker, "
            "key] pairs (empty field: no headers, the recursive markdown splitter); html: "
            "[selector, key] pairs",
            group="Structure",
            when=_when("markdown", "html"),
            preset=True,  # the library has no default headers: the field's value is sent
            presets={"strategy": {"html": [["h1", "title"], ["h2", "section"]]}},
        ),
        Param(
            "sections",
            "json",
            None,
            "html: [selector, key] pairs (text is always empty in the library)",
            group="Structure",
            when=_when("html"),
        ),
        Param(
            "returnEachLine",
            "bool",
            False,
            "one chunk per line (markdown) or per header element (html)",
            group="Structure",
            when=_when("markdown", "html"),
        ),
        Param(
            "stripHeaders",
            "bool",
            True,
            "leave header lines out of the chunks",
            group="Structure",
            when=_when("markdown"),
        ),
        Param(
            "ensureAscii",
            "bool",
            True,
            "escape non-ASCII in string values (twice, as the library does)",
            group="JSON",
            when=_when("json"),
        ),
        Param(
            "convertLists",
            "bool",
            False,
            "turn arrays into objects with index keys",
            group="JSON",
            when=_when("json"),
        ),
    )

    def run(self, document: Document, options: dict[str, Any], ctx: RunContext) -> Any:
        """The chunk nodes; the strategies tell ``ctx.observer`` their reasons and, from
        the measured split, where they cut the chunks (``spans`` reads it). A run that
        gives reasons takes the library's loop, which notes no places: then the measured
        split runs again for them, so a layout is placed the same with reasons and
        without (the app gives a layout its reasons only then)."""
        doc = document.kind if document.kind in FACTORY else "text"
        observer = ctx.observer
        if not (observer.wants_reasons and observer.wants_places):
            return chunk_document(document.text, doc, ctx.metadata, options, observer)
        heard = _PlacesHeard(observer)
        native = chunk_document(document.text, doc, ctx.metadata, options, heard)
        places = heard.places
        if isinstance(places, PlaceNotes) and places.for_reasons:
            again = RunNotes(reasons=False, places=True)
            if chunk_document(document.text, doc, ctx.metadata, options, again) == native:
                places = again.places  # (the tests hold the two runs equal)
            else:
                places = None
        if places is not None:
            observer.placed(places)
        return native

    def chunk_kind(self, chunk: Any, options: Mapping[str, Any]) -> str:
        return str(options.get("strategy") or "recursive")

    def spans(
        self, document: Document, native: Any, options: dict[str, Any], places: Any = None
    ) -> SpanTable:
        """The chunks placed where the split noted it cut them (``places``, a
        ``PlaceNotes`` the run told its observer), else located in order, as columns;
        the startIndex each chunk reports (``addStartIndex``, in UTF-16 units) as its
        reported start, in code points."""
        strategy = options.get("strategy") or DEFAULT_STRATEGY.get(document.kind, "recursive")
        metadata: dict[int, dict] = {}
        reported: dict[int, int] = {}
        metas = list(map(_METADATA, native))
        # only the chunks with metadata (compress skips the others in C: most have none)
        for i in compress(range(len(metas)), metas):
            meta = metas[i]
            if not isinstance(meta, dict):
                continue
            metadata[i] = dict(meta)
            start_index = meta.get("startIndex")
            if isinstance(start_index, int) and start_index >= 0:
                reported[i] = document.units_to_points(start_index)
        texts = list(map(_TEXT, native))
        kinds = [strategy] * len(texts)
        if isinstance(places, PlaceNotes) and places.fits(len(texts)):
            verbatim = np.frombuffer(places.verbatim, np.uint8)
            rewritten = places.rewritten
            searched = [i for i in np.flatnonzero(verbatim == 0).tolist() if i not in rewritten]
            table = placed_table(
                document.text,
                texts,
                places.starts,
                kinds,
                metadata,
                None,
                rewritten,
                searched,
                reported,
            )
            if table is not None:
                return table
        return located_table(document.text, texts, kinds, metadata, reported)

    def code(self, options: dict[str, Any]) -> str:
        strategy = options.get("strategy", "recursive")
        factory = {
            "markdown": "fromMarkdown",
            "semantic-markdown": "fromMarkdown",
            "html": "fromHTML",
            "json": "fromJSON",
        }.get(strategy, "fromText")
        fields = ",\n".join(
            f"  {js_key(key)}: {_js_value(value)}" for key, value in options.items()
        )
        uses_tiktoken = any(
            isinstance(v, dict) and v.get("$fn") == "cl100k" for v in options.values()
        )
        imports = "import { encodingForModel } from 'js-tiktoken';\n" if uses_tiktoken else ""
        return (
            f"import {{ MDocument }} from '@mastra/rag';\n{imports}\n"
            f"const doc = MDocument.{factory}(text);\n"
            f"const chunks = await doc.chunk({{\n{fields}\n}});\n"
        )


class _PlacesHeard(RunObserver):
    """Passes a run's reasons on to ``observer`` and keeps the places it tells, for the
    entry to look at before it tells them on."""

    def __init__(self, observer: RunObserver) -> None:
        self.observer = observer
        self.wants_reasons = observer.wants_reasons
        self.wants_places = observer.wants_places
        self.places: Any = None

    def reason(self, reason: Reason) -> None:
        self.observer.reason(reason)

    def placed(self, places: Any) -> None:
        self.places = places


def _js_value(value: Any) -> str:
    """An option value as JavaScript: length functions and Sets as the library takes them."""
    if isinstance(value, dict) and "$fn" in value:
        return LENGTH_JS.get(value["$fn"], "(text) => text.length")
    if isinstance(value, dict) and "$set" in value:
        return f"new Set({dumps(value['$set'])})"
    return dumps(value)
