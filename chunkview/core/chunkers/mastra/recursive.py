"""recursive, markdown without headers, latex (spec/mastra.md §5.2 to §5.5)."""

from __future__ import annotations

from chunkview.core.chunkers.mastra.jsregex import compile_js, escape
from chunkview.core.chunkers.mastra.splitter import (
    Splitter,
    merge_splits,
    split_on_separator,
)
from chunkview.core.errors import ChunkerError

DEFAULT_SEPARATORS = ["\n\n", "\n", " ", ""]
MARKDOWN = ["\n#{1,6} ", "```\n", "\n\\*\\*\\*+\n", "\n---+\n", "\n___+\n", "\n\n", "\n", " ", ""]
LATEX = [
    "\\\\part\\*?\\{",
    "\\\\chapter\\*?\\{",
    "\\\\section\\*?\\{",
    "\\\\subsection\\*?\\{",
    "\\\\subsubsection\\*?\\{",
    "\\\\begin\\{.*?\\}",
    "\\\\end\\{.*?\\}",
    "\\\\[a-zA-Z]+\\{.*?\\}",
    "\n\n",
    "\n",
    " ",
    "",
]
CPP = [
    "\nclass ",
    "\nvoid ",
    "\nint ",
    "\nfloat ",
    "\ndouble ",
    "\nif ",
    "\nfor ",
    "\nwhile ",
    "\nswitch ",
    "\ncase ",
    "\n\n",
    "\n",
    " ",
    "",
]
TS = [
    "\nenum ",
    "\ninterface ",
    "\nnamespace ",
    "\ntype ",
    "\nclass ",
    "\nfunction ",
    "\nconst ",
    "\nlet ",
    "\nvar ",
    "\nif ",
    "\nfor ",
    "\nwhile ",
    "\nswitch ",
    "\ncase ",
    "\ndefault ",
    "\n\n",
    "\n",
    " ",
    "",
]
LANGUAGES = [
    "cpp",
    "go",
    "java",
    "kotlin",
    "js",
    "ts",
    "php",
    "proto",
    "python",
    "rst",
    "ruby",
    "rust",
    "scala",
    "swift",
    "markdown",
    "latex",
    "html",
    "sol",
    "csharp",
    "cobol",
    "c",
    "lua",
    "perl",
    "haskell",
    "elixir",
    "powershell",
]
SUPPORTED = {"markdown": MARKDOWN, "latex": LATEX, "cpp": CPP, "c": CPP, "ts": TS}


def language_separators(language: str) -> list[str]:
    """The separators of a supported ``language`` (regex mode), or the library's error."""
    if language not in SUPPORTED:
        raise ChunkerError(
            "Error",
            f"Language {language} is not supported! Please choose from {','.join(LANGUAGES)}",
        )
    return SUPPORTED[language]


def recursive_split(
    text: str, separators: list[str], is_regex: bool, splitter: Splitter
) -> list[str]:
    """Split on the first separator found, merge pieces under maxSize, recurse on the
    others with the separators after it; a piece with no separator left stays raw."""
    separator, remaining = separators[-1], []
    for i, candidate in enumerate(separators):
        if candidate == "":
            separator, remaining = candidate, []
            break
        if compile_js(candidate if is_regex else escape(candidate)).search(text):
            separator, remaining = candidate, separators[i + 1 :]
            break
    pieces = split_on_separator(
        text, separator if is_regex else escape(separator), splitter.keep_separator
    )
    joiner = "" if splitter.keep_separator else separator
    chunks: list[str] = []
    small: list[str] = []
    for piece in pieces:
        if splitter.length(piece) < splitter.max_size:
            small.append(piece)
            continue
        if small:
            chunks.extend(merge_splits(small, joiner, splitter))
            small = []
        if not remaining:
            chunks.append(piece)
        else:
            chunks.extend(recursive_split(piece, remaining, is_regex, splitter))
    if small:
        chunks.extend(merge_splits(small, joiner, splitter))
    return chunks
