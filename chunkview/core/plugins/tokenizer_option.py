"""A user's tokenizer file given to the libraries that take a tokenizer or a token
counter (semchunk's ``token_counter``, chonkie's ``tokenizer``): their choice gets one
more value, ``tokenizer file``, and the ``tokenizer_file`` option names the file (on the
command line, ``--tokenizer PATH`` stands in for it). The path travels with the options
to the chunking process, which reads the file there (``text.tokenizer_files``, kept while
unchanged) and gives the library the tokenizer's own object or its count.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chunkview.core.chunkers.entry import Param
from chunkview.core.errors import ChunkerError
from chunkview.core.text.tokenizer_files import TokenizerFile, is_tokenizer_file, tokenizer_file

#: the choice that means "the tokenizer in ``tokenizer_file``"
TOKENIZER_FILE = "tokenizer file"
OPTION = "tokenizer_file"


def tokenizer_file_param(choice: str) -> Param:
    """The ``tokenizer_file`` option, shown when option ``choice`` is ``tokenizer file``."""
    return Param(
        OPTION,
        "str",
        None,
        "the path of a tokenizer.json (Hugging Face) or .tiktoken file, read from disk "
        "(default: --tokenizer PATH)",
        when={choice: (TOKENIZER_FILE,)},
    )


def with_tokenizer_file(
    options: Mapping[str, Any], params: tuple[Param, ...], tokenizer: str | None
) -> dict[str, Any]:
    """``options``, with ``tokenizer`` (the run's ``--tokenizer``) as ``tokenizer_file``
    when the entry takes one, none is given and it names a tokenizer file."""
    given = dict(options)
    takes = any(p.name == OPTION for p in params)
    if takes and not given.get(OPTION) and tokenizer and is_tokenizer_file(tokenizer):
        given[OPTION] = tokenizer
    return given


def chosen_file(options: dict[str, Any]) -> TokenizerFile:
    """The tokenizer of the ``tokenizer_file`` option (taken out of ``options``);
    ChunkerError saying how to give one when there is none."""
    path = options.pop(OPTION, None)
    if not path:
        raise ChunkerError(
            "TokenizerUnavailable",
            f"{TOKENIZER_FILE!r} is chosen: give the file in the {OPTION} option "
            "(or --tokenizer PATH), a tokenizer.json or .tiktoken file",
        )
    return tokenizer_file(str(path))


def loading_code(path: str) -> tuple[str, str]:
    """Python that reads the tokenizer file at ``path`` as ``tokenizer``, and the
    expression of a count of its tokens of ``text`` (for "Copy as code")."""
    if path.lower().endswith(".tiktoken"):
        load = (
            "import tiktoken\nfrom tiktoken.load import load_tiktoken_bpe\n\n"
            "tokenizer = tiktoken.Encoding(\n"
            f"    {path.rsplit('/', 1)[-1]!r},\n"
            '    pat_str=tiktoken.get_encoding("cl100k_base")._pat_str,\n'
            f"    mergeable_ranks=load_tiktoken_bpe({path!r}),\n"
            "    special_tokens={},\n)\n"
        )
        return load, "len(tokenizer.encode(text, disallowed_special=()))"
    load = f"from tokenizers import Tokenizer\n\ntokenizer = Tokenizer.from_file({path!r})\n"
    return load, "len(tokenizer.encode(text, add_special_tokens=False).ids)"
