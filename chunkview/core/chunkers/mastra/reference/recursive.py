"""recursive, markdown without headers, latex (spec/mastra.md §5.2 to §5.5): the
library's split, piece by piece, as it loops.

The strategies take the split as a step (``split``): ``split_text`` here, or the
measured split (measured_split.py), which gives the same chunks faster where it applies.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from chunkview.core.chunkers.mastra.reference.splitter import (
    Splitter,
    js_length,
    merge_splits,
    nodes,
    split_on_separator,
    splitter_from,
)
from chunkview.core.chunkers.mastra.validate import check_overlap
from chunkview.core.errors import ChunkerError
from chunkview.core.text.js import to_units
from chunkview.core.text.jsregex import compile_js, escape

if TYPE_CHECKING:
    from chunkview.core.chunkers.mastra.explain import MastraNotes

#: the recursive split a strategy runs: ``split_text`` or one that gives what it gives
Split = Callable[[str, list[str], bool, Splitter, "MastraNotes"], list[str | None]]
#: the chunk nodes made of a split's chunks: ``splitter.nodes`` or one that gives the same
Nodes = Callable[..., list[dict[str, Any]]]

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
#: §5.4: the languages whose separators the library has (the rest of the enum throws)
SUPPORTED = {"markdown": MARKDOWN, "latex": LATEX, "cpp": CPP, "c": CPP, "ts": TS}


def language_separators(language: str) -> list[str]:
    """§5.4: the separators of a supported ``language`` (regex mode), or the library's
    error."""
    if language not in SUPPORTED:
        raise ChunkerError(
            "Error",
            f"Language {language} is not supported! Please choose from {','.join(LANGUAGES)}",
        )
    return SUPPORTED[language]


def choose_separator(
    text: str, separators: list[str], is_regex: bool
) -> tuple[str | None, list[str]]:
    """§5.2 step 1: the first separator found in ``text`` (an empty one at once) and the
    separators after it; none found: the last one, with none after it. With no
    separators at all JS's separator is undefined (None)."""
    for i, candidate in enumerate(separators):
        if candidate == "":
            return candidate, []
        if compile_js(candidate if is_regex else escape(candidate)).search(text):
            return candidate, separators[i + 1 :]
    return (separators[-1] if separators else None), []


def split_text(
    text: str, separators: list[str], is_regex: bool, splitter: Splitter, notes: MastraNotes
) -> list[str | None]:
    """§5.2 ``split(text, seps)``: split on the first separator found, merge the pieces
    under maxSize, recurse on the others with the separators after it; a piece with no
    separator left stays raw. With no separators every unit is a piece and the pieces
    are joined with "," (``Array.join(undefined)``). ``notes`` hears each decision."""
    separator, remaining = choose_separator(text, separators, is_regex)  # step 1
    notes.split_at(separator)
    pattern = separator if is_regex or separator is None else escape(separator)
    pieces = split_on_separator(text, pattern, splitter.keep_separator)  # step 2
    joiner = "" if splitter.keep_separator else separator  # step 3
    chunks: list[str | None] = []
    small: list[str | None] = []
    for piece in pieces:  # step 4
        size = js_length(splitter.length, piece)
        if size < splitter.max_size:
            small.append(piece)
            continue
        if small:
            chunks.extend(merge_splits(small, joiner, splitter, notes))
            small = []
        notes.too_large(size, splitter.max_size, not remaining)
        if not remaining:
            chunks.append(piece)
            notes.produced()
        elif piece is None:  # JS: undefined.split(...)
            raise ChunkerError("TypeError", "Cannot read properties of undefined (reading 'split')")
        else:
            chunks.extend(split_text(piece, remaining, is_regex, splitter, notes))
        notes.after_large()
    if small:  # step 5
        chunks.extend(merge_splits(small, joiner, splitter, notes))
    notes.level_done()
    return chunks


def separator_chunks(
    units: str,
    options: dict[str, Any],
    metadata: dict[str, Any],
    notes: MastraNotes,
    separators: list[str],
    is_regex: bool,
    split: Split = split_text,
    make_nodes: Nodes = nodes,
) -> list[dict[str, Any]]:
    """The chunk nodes of a recursive split on ``separators`` (§5.2; latex and markdown
    without headers are this with their own lists, §5.3, §5.5)."""
    splitter = splitter_from(options)
    check_overlap(splitter.max_size, splitter.overlap)
    chunks = split(units, separators, is_regex, splitter, notes)
    return make_nodes(units, chunks, metadata, splitter, glue=separators)


def recursive_chunks(
    units: str,
    options: dict[str, Any],
    metadata: dict[str, Any],
    notes: MastraNotes,
    split: Split = split_text,
    make_nodes: Nodes = nodes,
) -> list[dict[str, Any]]:
    """The recursive strategy (§5.2): a language's separators (§5.4), or the given (or
    default) list."""
    language = options.get("language")
    if language:  # `options?.language`: "" is no language
        separators, is_regex = language_separators(language), True
    else:
        separators = [to_units(s) for s in options.get("separators", DEFAULT_SEPARATORS)]
        is_regex = bool(options.get("isSeparatorRegex", False))
    return separator_chunks(
        units, options, metadata, notes, separators, is_regex, split, make_nodes
    )


def latex_chunks(
    units: str,
    options: dict[str, Any],
    metadata: dict[str, Any],
    notes: MastraNotes,
    split: Split = split_text,
    make_nodes: Nodes = nodes,
) -> list[dict[str, Any]]:
    """The latex strategy (§5.5): a recursive split on LaTeX's sectioning separators."""
    return separator_chunks(units, options, metadata, notes, LATEX, True, split, make_nodes)
