"""recursive, markdown without headers, latex (spec/mastra.md §5.2 to §5.5)."""

from __future__ import annotations

from itertools import compress, repeat
from operator import lt, not_
from typing import Any

from chunkview.core.chunkers.mastra.explain import current as notes_now
from chunkview.core.chunkers.mastra.jsregex import compile_js, escape
from chunkview.core.chunkers.mastra.splitter import (
    Splitter,
    ends_of,
    js_length,
    measured,
    merge_range,
    merge_splits,
    nodes,
    split_on_separator,
    splitter_from,
)
from chunkview.core.chunkers.mastra.validate import check_overlap
from chunkview.core.errors import ChunkerError
from chunkview.core.text.js import to_units

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
) -> list[str | None]:
    """Split on the first separator found, merge pieces under maxSize, recurse on the
    others with the separators after it; a piece with no separator left stays raw.
    With no separators at all JS's separator is undefined: every unit is a piece and the
    pieces are joined with "," (``Array.join(undefined)``)."""
    separator: str | None = separators[-1] if separators else None
    remaining: list[str] = []
    for i, candidate in enumerate(separators):
        if candidate == "":
            separator = candidate
            break
        if compile_js(candidate if is_regex else escape(candidate)).search(text):
            separator, remaining = candidate, separators[i + 1 :]
            break
    pattern = separator if is_regex or separator is None else escape(separator)
    why = notes_now()  # the run's reasons (explain.py), or None
    if why is not None:
        why.split_at(separator)
    pieces = split_on_separator(text, pattern, splitter.keep_separator)
    joiner = "" if splitter.keep_separator else separator
    lengths = measured(splitter.length, pieces) if why is None else None
    if lengths is not None:
        return _split_measured(pieces, lengths, joiner, remaining, is_regex, splitter)
    chunks: list[str | None] = []
    small: list[str | None] = []
    for piece in pieces:
        if js_length(splitter.length, piece) < splitter.max_size:
            small.append(piece)
            continue
        if small:
            chunks.extend(merge_splits(small, joiner, splitter))
            small = []
        if why is not None:
            why.too_large(js_length(splitter.length, piece), splitter.max_size, not remaining)
        if not remaining:
            chunks.append(piece)
            if why is not None:
                why.produced()
        elif piece is None:  # JS: undefined.split(...)
            raise ChunkerError("TypeError", "Cannot read properties of undefined (reading 'split')")
        else:
            chunks.extend(recursive_split(piece, remaining, is_regex, splitter))
        if why is not None:
            why.after_large()
    if small:
        chunks.extend(merge_splits(small, joiner, splitter))
    if why is not None:
        why.level_done()
    return chunks


def _split_measured(
    pieces: list[str],
    lengths: list[int],
    joiner: str | None,
    remaining: list[str],
    is_regex: bool,
    splitter: Splitter,
) -> list[str | None]:
    """The loop of ``recursive_split`` when every piece's length is known: the pieces too
    large for maxSize are found in one pass in C, the runs between them merged at once."""
    fits = map(lt, lengths, repeat(splitter.max_size))  # as the loop tests: length < maxSize
    large = list(compress(range(len(pieces)), map(not_, fits)))
    large.append(len(pieces))  # the end closes the last run
    ends = ends_of(lengths, len(joiner) if joiner else 0)
    chunks: list[str | None] = []
    begin = 0
    for i in large:
        if i > begin and not merge_range(pieces, lengths, ends, begin, i, joiner, splitter, chunks):
            chunks.extend(merge_splits(pieces[begin:i], joiner, splitter))
        if i == len(pieces):
            break
        if remaining:
            chunks.extend(recursive_split(pieces[i], remaining, is_regex, splitter))
        else:
            chunks.append(pieces[i])
        begin = i + 1
    return chunks


def separator_chunks(
    units: str,
    options: dict[str, Any],
    metadata: dict[str, Any],
    separators: list[str],
    is_regex: bool,
) -> list[dict[str, Any]]:
    """The chunk nodes of a recursive split on ``separators`` (latex and markdown without
    headers are this with their own lists)."""
    splitter = splitter_from(options)
    check_overlap(splitter.max_size, splitter.overlap)
    chunks = recursive_split(units, separators, is_regex, splitter)
    return nodes(units, chunks, metadata, splitter)


def recursive_chunks(
    units: str, options: dict[str, Any], metadata: dict[str, Any]
) -> list[dict[str, Any]]:
    """The recursive strategy: a language's separators, or the given (or default) list."""
    language = options.get("language")
    if language is not None:
        return separator_chunks(units, options, metadata, language_separators(language), True)
    separators = [to_units(s) for s in options.get("separators", DEFAULT_SEPARATORS)]
    is_regex = bool(options.get("isSeparatorRegex", False))
    return separator_chunks(units, options, metadata, separators, is_regex)


def latex_chunks(
    units: str, options: dict[str, Any], metadata: dict[str, Any]
) -> list[dict[str, Any]]:
    """The latex strategy: a recursive split on LaTeX's sectioning separators."""
    return separator_chunks(units, options, metadata, LATEX, True)
