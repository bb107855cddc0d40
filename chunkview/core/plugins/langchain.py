"""LangChain's text splitters (langchain-text-splitters), called as they are: one entry a
splitter, with LangChain's own names for the entry and its options.

The character splitters measure chunk_size with their ``length_function``: ``len`` (the
library's default), or a user's tokenizer file (``plugins.tokenizer_option``: a
tokenizer.json or a .tiktoken file, read in the chunking process), as semchunk and
chonkie take one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chunkview.core.chunkers.entry import Param
from chunkview.core.model.kinds import SizeUnit
from chunkview.core.plugins.libraries import (
    OFFLINE_ENCODINGS,
    LibraryEntry,
    SourceCode,
    call_arguments,
    encoding_for_model,
    provide_encoding,
    size_param,
)
from chunkview.core.plugins.tokenizer_option import (
    TOKENIZER_FILE,
    chosen_file,
    loading_code,
    tokenizer_file_param,
)

# ----- the splitters ------------------------------------------------------

_LANGUAGES = (
    "none", "cpp", "go", "java", "kotlin", "js", "ts", "php", "proto", "python", "r", "rst",
    "ruby", "rust", "scala", "swift", "markdown", "latex", "html", "sol", "csharp", "cobol",
    "c", "lua", "perl", "haskell", "elixir", "powershell", "visualbasic6",
)  # fmt: skip
_LANGCHAIN_COMMON = (
    size_param("chunk_size", 4000, "max", "the largest chunk, in characters"),
    size_param("chunk_overlap", 200, "overlap", "characters repeated from the chunk before"),
    Param("strip_whitespace", "bool", True, "strip white space from each chunk's ends"),
    Param("add_start_index", "bool", False, "a start_index in each Document's metadata"),
)
#: what a character splitter measures chunk_size with
LENGTH_FUNCTIONS = ("len", TOKENIZER_FILE)
_LENGTH = (
    Param(
        "length_function", "choice", "len", "what chunk_size counts: characters (len) or "
        "the tokens of your tokenizer file", choices=LENGTH_FUNCTIONS,
    ),
    tokenizer_file_param("length_function"),
)  # fmt: skip


def length_option(options: dict[str, Any]) -> None:
    """``options`` as the splitter takes them: ``length_function`` the tokenizer file's
    count when it is chosen (left out for ``len``, the library's default), and no
    ``tokenizer_file``."""
    chosen = options.pop("length_function", "len")
    if chosen == TOKENIZER_FILE:
        options["length_function"] = chosen_file(options).counter
    options.pop("tokenizer_file", None)


def length_code(options: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """For "Copy as code": the lines that read the tokenizer file (if chosen) and the
    options with ``length_function`` as Python (``_Code``, written as it is)."""
    options = dict(options)
    chosen = options.pop("length_function", "len")
    path = options.pop("tokenizer_file", None)
    if chosen != TOKENIZER_FILE:
        return "", options
    load, count = loading_code(str(path))
    return load + "\n", {**options, "length_function": SourceCode(f"lambda text: {count}")}


class LangChainSplitter(LibraryEntry):
    library = "langchain"
    extra = "langchain"

    def call(self, library: Any, text: str, options: dict[str, Any]) -> Any:
        length_option(options)
        return getattr(library, self.title)(**options).split_text(text)

    def limits(self, options: Mapping[str, Any]) -> dict[str, float]:
        if options.get("length_function", "len") != "len":
            return {}  # tokens of the user's tokenizer, not characters
        return super().limits(options)

    def code(self, options: dict[str, Any]) -> str:
        load, options = length_code(self.with_presets(options))
        return (
            f"{load}from langchain_text_splitters import {self.title}\n\n"
            f"splitter = {self.title}({call_arguments(options)})\n"
            "chunks = splitter.split_text(text)\n"
        )


class RecursiveCharacterEntry(LangChainSplitter):
    id = "langchain.RecursiveCharacterTextSplitter"
    title = "RecursiveCharacterTextSplitter"
    summary = (
        "Splits at the first separator that makes pieces small enough, recursing with the "
        "next on the pieces still too large, and merges pieces up to chunk_size."
    )
    params = (
        *_LANGCHAIN_COMMON,
        *_LENGTH,
        Param("separators", "json", ["\n\n", "\n", " ", ""], "tried in order"),
        Param(
            "keep_separator", "choice", True, "keep each separator, with the piece after "
            "(true, start) or before (end)", choices=(True, False, "start", "end"),
        ),
        Param("is_separator_regex", "bool", False, "the separators are regexes"),
        Param(
            "language", "choice", "none", "RecursiveCharacterTextSplitter.from_language: "
            "the language's own separators", choices=_LANGUAGES, special="none",
        ),
    )  # fmt: skip

    def call(self, library: Any, text: str, options: dict[str, Any]) -> Any:
        language = options.pop("language", "none")
        length_option(options)
        splitter = library.RecursiveCharacterTextSplitter
        if language in (None, "none"):
            return splitter(**options).split_text(text)
        return splitter.from_language(library.Language(language), **options).split_text(text)

    def code(self, options: dict[str, Any]) -> str:
        options = dict(options)
        language = options.pop("language", "none")
        if language in (None, "none"):
            return super().code(options)
        load, options = length_code(options)
        rest = call_arguments(options)
        return (
            f"{load}from langchain_text_splitters import Language, "
            "RecursiveCharacterTextSplitter\n\n"
            "splitter = RecursiveCharacterTextSplitter.from_language(\n"
            f"    Language({language!r}){', ' + rest if rest else ''}\n)\n"
            "chunks = splitter.split_text(text)\n"
        )


class CharacterEntry(LangChainSplitter):
    id = "langchain.CharacterTextSplitter"
    title = "CharacterTextSplitter"
    summary = "Splits at one separator and merges the pieces up to chunk_size."
    params = (
        *_LANGCHAIN_COMMON,
        *_LENGTH,
        Param("separator", "str", "\n\n", "where the text is split"),
        Param("is_separator_regex", "bool", False, "the separator is a regex"),
        Param(
            "keep_separator", "choice", False, "keep the separator, with the piece after "
            "(true, start) or before (end)", choices=(True, False, "start", "end"),
        ),
    )  # fmt: skip


class TokenSplitterEntry(LangChainSplitter):
    id = "langchain.TokenTextSplitter"
    title = "TokenTextSplitter"
    summary = "Windows of chunk_size tiktoken tokens, chunk_overlap of them repeated."
    size_unit: SizeUnit = "tokens"
    params = (
        Param("chunk_size", "int", 4000, "tokens a chunk holds", minimum=0, maximum=10**9),
        Param("chunk_overlap", "int", 200, "tokens repeated", minimum=0, maximum=10**9),
        Param("encoding_name", "choice", "gpt2", "the tiktoken encoding (shipped with "
              "chunkview)", choices=OFFLINE_ENCODINGS),
        Param("model_name", "str", None, "a model's encoding instead (tiktoken's name)"),
        Param("allowed_special", "json", None, '"all" or a list of special tokens'),
        Param("disallowed_special", "json", "all", '"all" or a list of special tokens'),
        Param("strip_whitespace", "bool", True, "strip white space from each chunk's ends"),
        Param("add_start_index", "bool", False, "a start_index in each Document's metadata"),
    )  # fmt: skip

    def call(self, library: Any, text: str, options: dict[str, Any]) -> Any:
        model = options.get("model_name")
        encoding = encoding_for_model(model) if model else options.get("encoding_name", "gpt2")
        provide_encoding(encoding)
        return super().call(library, text, options)

    def limits(self, options: Mapping[str, Any]) -> dict[str, float]:
        return {}  # tokens of an encoding the views do not count


class MarkdownHeaderEntry(LangChainSplitter):
    id = "langchain.MarkdownHeaderTextSplitter"
    title = "MarkdownHeaderTextSplitter"
    summary = (
        "One Document per section under the headers it splits on, the headers in its "
        "metadata (stripped from the text unless strip_headers is off)."
    )
    boundary_kinds = ("section",)
    params = (
        Param("headers_to_split_on", "json", [["#", "Header 1"], ["##", "Header 2"],
              ["###", "Header 3"]], "[marker, metadata key] pairs", preset=True, always=True),
        Param("return_each_line", "bool", False, "a Document per line"),
        Param("strip_headers", "bool", True, "leave the headers out of the text"),
        Param("custom_header_patterns", "json", None, "{pattern: level} of other headers"),
    )  # fmt: skip

    def call(self, library: Any, text: str, options: dict[str, Any]) -> Any:
        headers = options.get("headers_to_split_on")
        if isinstance(headers, list):
            options["headers_to_split_on"] = [tuple(pair) for pair in headers]
        return library.MarkdownHeaderTextSplitter(**options).split_text(text)


#: the LangChain entries, in the picker's order
LANGCHAIN_ENTRIES: tuple[type[LangChainSplitter], ...] = (
    RecursiveCharacterEntry,
    CharacterEntry,
    MarkdownHeaderEntry,
    TokenSplitterEntry,
)


def langchain_entries() -> list[LangChainSplitter]:
    """An entry of each LangChain splitter, installed or not (none is imported here)."""
    return [entry_class() for entry_class in LANGCHAIN_ENTRIES]
