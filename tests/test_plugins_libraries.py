"""The optional library entries: each equal to a direct call of its installed library over
the corpus and a grid of options (skipped when the library is not installed); placed;
offline; and "copy as code" runs to the same result."""

import json
import os
import subprocess
import sys

import pytest
from conftest import CORPUS, ROOT

from chunkview.core import registry
from chunkview.core.build import chunk_layout
from chunkview.core.chunkers.entry import RunContext
from chunkview.core.errors import ChunkerError
from chunkview.core.model.document import Document
from chunkview.core.plugins import libraries
from chunkview.core.text.tokens import tiktoken_encoding

FILES = sorted(CORPUS.iterdir())
TEXTS = {path.name: path.read_text(encoding="utf-8") for path in FILES}
MARKDOWN = {name: text for name, text in TEXTS.items() if name.endswith(".md")}


def needs(extra):
    module = libraries.LIBRARIES[extra][0]
    return pytest.mark.skipif(not libraries.installed(extra), reason=f"{module} is not installed")


def run(entry_id, text, options):
    return registry.get(entry_id).run(Document(text), dict(options), RunContext())


def plain(value):
    """A direct call's result as JSON data (tuples as lists)."""
    return json.loads(json.dumps(value))


def placed_well(entry_id, text, options):
    """Every chunk placed, none missing, each exact one the text at its place."""
    native, layout = chunk_layout(registry.get(entry_id), Document(text), options, RunContext())
    spans = list(layout.spans)
    semchunk_offsets = entry_id == "semchunk.chunk" and options.get("offsets")
    assert len(spans) == len(native[0] if semchunk_offsets else native)
    for span in spans:
        assert span.located != "missing", (entry_id, span)
        if span.located == "exact":
            assert text[span.start : span.end] == span.text
    return spans


# ----- LangChain --------------------------------------------------------------------------

LANGCHAIN_GRID = [
    {"chunk_size": 300, "chunk_overlap": 40},
    {"chunk_size": 1000, "chunk_overlap": 0, "keep_separator": "end"},
    {"chunk_size": 120, "chunk_overlap": 30, "strip_whitespace": False},
    {"chunk_size": 200, "chunk_overlap": 20, "separators": ["\n\n", "\\.\\s", " "],
     "is_separator_regex": True},
]  # fmt: skip


@needs("langchain")
@pytest.mark.parametrize("options", LANGCHAIN_GRID)
@pytest.mark.parametrize("name", list(TEXTS))
def test_langchain_recursive_equals_the_library(name, options):
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    text = TEXTS[name]
    direct = RecursiveCharacterTextSplitter(**options).split_text(text)
    assert run("langchain.RecursiveCharacterTextSplitter", text, options) == direct
    spans = placed_well("langchain.RecursiveCharacterTextSplitter", text, options)
    if not options.get("is_separator_regex"):
        assert all(s.located == "exact" for s in spans)


@needs("langchain")
@pytest.mark.parametrize("language", ["python", "markdown", "html", "latex", "js"])
def test_langchain_from_language_equals_the_library(language):
    from langchain_text_splitters import Language, RecursiveCharacterTextSplitter

    options = {"chunk_size": 250, "chunk_overlap": 30}
    for text in TEXTS.values():
        direct = RecursiveCharacterTextSplitter.from_language(
            Language(language), **options
        ).split_text(text)
        assert (
            run("langchain.RecursiveCharacterTextSplitter", text, {**options, "language": language})
            == direct
        )


@needs("langchain")
@pytest.mark.parametrize(
    "options",
    [
        {"chunk_size": 400, "chunk_overlap": 50},
        {"separator": "\n", "chunk_size": 200, "chunk_overlap": 0, "keep_separator": True},
        {"separator": "\\s+", "is_separator_regex": True, "chunk_size": 100, "chunk_overlap": 10},
    ],
)
def test_langchain_character_equals_the_library(options):
    from langchain_text_splitters import CharacterTextSplitter

    for text in TEXTS.values():
        direct = CharacterTextSplitter(**options).split_text(text)
        assert run("langchain.CharacterTextSplitter", text, options) == direct
        if not options.get("is_separator_regex"):  # (it joins with the regex's source)
            placed_well("langchain.CharacterTextSplitter", text, options)


@needs("langchain")
@pytest.mark.parametrize(
    "options",
    [
        {},
        {"strip_headers": False},
        {"return_each_line": True},
        {"headers_to_split_on": [["#", "h1"], ["##", "h2"]]},
    ],
)
def test_langchain_markdown_headers_equals_the_library(options):
    from langchain_text_splitters import MarkdownHeaderTextSplitter

    headers = options.get("headers_to_split_on", [["#", "Header 1"], ["##", "Header 2"],
                                                  ["###", "Header 3"]])  # fmt: skip
    rest = {k: v for k, v in options.items() if k != "headers_to_split_on"}
    for text in MARKDOWN.values():
        direct = MarkdownHeaderTextSplitter([tuple(h) for h in headers], **rest).split_text(text)
        assert run("langchain.MarkdownHeaderTextSplitter", text, options) == [
            plain(d.model_dump()) for d in direct
        ]
        chunk_layout(
            registry.get("langchain.MarkdownHeaderTextSplitter"), Document(text), options,
            RunContext(),
        )  # fmt: skip


@needs("langchain")
@pytest.mark.parametrize(
    "options",
    [
        {"chunk_size": 100, "chunk_overlap": 10},
        {"chunk_size": 60, "chunk_overlap": 0, "encoding_name": "cl100k_base"},
        {"chunk_size": 80, "chunk_overlap": 5, "model_name": "gpt-4o"},
    ],
)
def test_langchain_tokens_equal_the_library_with_the_vendored_encodings(options):
    from langchain_text_splitters import TokenTextSplitter

    for text in list(TEXTS.values())[:6]:
        ours = run("langchain.TokenTextSplitter", text, options)
        # the direct call after chunkview's: tiktoken now has the vendored encodings
        assert ours == TokenTextSplitter(**options).split_text(text)
        placed_well("langchain.TokenTextSplitter", text, options)


@needs("langchain")
def test_an_encoding_that_is_not_shipped_is_refused():
    with pytest.raises(ChunkerError, match="would be downloaded, and chunkview never downloads"):
        run("langchain.TokenTextSplitter", "some text", {"encoding_name": "o200k_harmony"})
    with pytest.raises(ChunkerError, match="knows no model"):
        run("langchain.TokenTextSplitter", "some text", {"model_name": "no-such-model"})


@needs("langchain")
def test_langchain_errors_keep_their_name():
    with pytest.raises(ChunkerError) as caught:
        run(
            "langchain.RecursiveCharacterTextSplitter",
            "abc",
            {"chunk_size": 10, "chunk_overlap": 20},
        )
    assert caught.value.name == "ValueError" and "chunk overlap" in caught.value.message
    assert "langchain_text_splitters" in caught.value.traceback


# ----- LlamaIndex -------------------------------------------------------------------------


@needs("llama_index")
@pytest.mark.parametrize(
    "options",
    [{"chunk_size": 256, "chunk_overlap": 20}, {"chunk_size": 100, "chunk_overlap": 0,
                                                 "separator": " ", "paragraph_separator": "\n\n"}],
)  # fmt: skip
def test_llama_index_sentence_splitter_equals_the_library(options):
    ours = {
        name: run("llama_index.SentenceSplitter", text, options) for name, text in TEXTS.items()
    }
    from llama_index.core.node_parser import SentenceSplitter

    for name, text in TEXTS.items():
        assert ours[name] == SentenceSplitter(**options).split_text(text)
    placed_well("llama_index.SentenceSplitter", TEXTS["redis-readme.md"], options)


@needs("llama_index")
@pytest.mark.parametrize(
    "options", [{"chunk_size": 128, "chunk_overlap": 16}, {"chunk_size": 300, "chunk_overlap": 0}]
)
def test_llama_index_token_splitter_equals_the_library(options):
    ours = {
        name: run("llama_index.TokenTextSplitter", text, options) for name, text in TEXTS.items()
    }
    from llama_index.core.node_parser import TokenTextSplitter

    for name, text in TEXTS.items():
        assert ours[name] == TokenTextSplitter(**options).split_text(text)


@needs("llama_index")
@pytest.mark.parametrize("options", [{}, {"header_path_separator": " > "}])
def test_llama_index_markdown_nodes_equal_the_library(options):
    from llama_index.core import Document as LlamaDocument
    from llama_index.core.node_parser import MarkdownNodeParser

    for text in MARKDOWN.values():
        nodes = MarkdownNodeParser(**options).get_nodes_from_documents([LlamaDocument(text=text)])
        assert run("llama_index.MarkdownNodeParser", text, options) == [
            libraries.node_json(node) for node in nodes
        ]
        placed_well("llama_index.MarkdownNodeParser", text, options)


# ----- chonkie ----------------------------------------------------------------------------


def chonkie_json(chunks):
    return [{k: v for k, v in plain(c.to_dict()).items() if k != "id"} for c in chunks]


CHONKIE_GRID = [
    {"chunk_size": 200, "chunk_overlap": 20},
    {"tokenizer": "word", "chunk_size": 50},
    {"tokenizer": "gpt2", "chunk_size": 64},
]


@needs("chonkie")
@pytest.mark.parametrize("options", CHONKIE_GRID)
@pytest.mark.parametrize("name", ["TokenChunker", "SentenceChunker", "RecursiveChunker"])
def test_chonkie_equals_the_library(name, options):
    import chonkie

    if name == "RecursiveChunker":
        options = {k: v for k, v in options.items() if k != "chunk_overlap"}
    tokenizer = options.get("tokenizer", "character")
    direct_options = dict(options)
    if tokenizer == "gpt2":
        direct_options["tokenizer"] = tiktoken_encoding("gpt2")
    for text in list(TEXTS.values())[:6]:
        direct = getattr(chonkie, name)(**direct_options).chunk(text)
        assert run(f"chonkie.{name}", text, options) == chonkie_json(direct)
        spans = placed_well(f"chonkie.{name}", text, options)
        # at chonkie's own offsets; a token window ending inside a character ends in
        # U+FFFD (the library's own text), placed "normalized"
        assert all(s.located == ("normalized" if "\ufffd" in s.text else "exact") for s in spans)


@needs("chonkie")
def test_chonkie_refuses_a_tokenizer_it_would_download():
    with pytest.raises(ChunkerError, match="would download the tokenizer 'bert-base-uncased'"):
        run("chonkie.TokenChunker", "text", {"tokenizer": "bert-base-uncased"})


# ----- semchunk ---------------------------------------------------------------------------


@needs("semchunk")
@pytest.mark.parametrize(
    "options",
    [
        {"chunk_size": 64, "token_counter": "word"},
        {"chunk_size": 128, "token_counter": "cl100k_base", "overlap": 0.25},
        {"chunk_size": 300, "token_counter": "characters", "offsets": True},
    ],
)
def test_semchunk_equals_the_library(options):
    import semchunk

    counters = {
        "word": lambda t: len(t.split()),
        "characters": len,
        "cl100k_base": lambda t: len(
            tiktoken_encoding("cl100k_base").encode(t, disallowed_special=())
        ),
    }
    rest = {k: v for k, v in options.items() if k not in ("chunk_size", "token_counter")}
    for text in list(TEXTS.values())[:6]:
        direct = semchunk.chunk(
            text, options["chunk_size"], counters[options["token_counter"]], **rest
        )
        assert run("semchunk.chunk", text, options) == plain(direct)
        spans = placed_well("semchunk.chunk", text, options)
        if options.get("offsets"):
            assert all(s.located == "exact" for s in spans)


# ----- semantic-text-splitter ---------------------------------------------------------------


@needs("text_splitter")
@pytest.mark.parametrize(
    "options",
    [
        {"capacity": 400},
        {"capacity": 200, "overlap": 40, "trim": False},
        {"capacity": 100, "tokenizer": "gpt-4"},
    ],
)
@pytest.mark.parametrize("name", ["TextSplitter", "MarkdownSplitter"])
def test_semantic_text_splitter_equals_the_library(name, options):
    import semantic_text_splitter

    splitter_class = getattr(semantic_text_splitter, name)
    rest = {k: v for k, v in options.items() if k not in ("capacity", "tokenizer")}
    if "tokenizer" in options:
        splitter = splitter_class.from_tiktoken_model(
            options["tokenizer"], options["capacity"], **rest
        )
    else:
        splitter = splitter_class(options["capacity"], **rest)
    for text in TEXTS.values():
        assert run(f"text_splitter.{name}", text, options) == plain(splitter.chunk_indices(text))
        spans = placed_well(f"text_splitter.{name}", text, options)
        assert all(s.located == "exact" for s in spans)  # at its own chunk_indices


# ----- all of them --------------------------------------------------------------------------

EXAMPLE_OPTIONS = {
    "langchain.RecursiveCharacterTextSplitter": {"chunk_size": 300, "chunk_overlap": 40},
    "langchain.CharacterTextSplitter": {"chunk_size": 300, "chunk_overlap": 0},
    "langchain.MarkdownHeaderTextSplitter": {},
    "langchain.TokenTextSplitter": {"chunk_size": 100, "chunk_overlap": 10},
    "llama_index.SentenceSplitter": {"chunk_size": 200, "chunk_overlap": 10},
    "llama_index.TokenTextSplitter": {"chunk_size": 200, "chunk_overlap": 10},
    "llama_index.MarkdownNodeParser": {},
    "chonkie.TokenChunker": {"chunk_size": 300},
    "chonkie.SentenceChunker": {"chunk_size": 300},
    "chonkie.RecursiveChunker": {"chunk_size": 300},
    "semchunk.chunk": {"chunk_size": 60, "token_counter": "cl100k_base"},
    "text_splitter.TextSplitter": {"capacity": 300, "overlap": 20},
    "text_splitter.MarkdownSplitter": {"capacity": 300},
}


@pytest.mark.parametrize("entry_id", list(EXAMPLE_OPTIONS))
def test_copy_as_code_runs_to_the_same_result(entry_id):
    entry = registry.get(entry_id)
    if not entry.installed:
        pytest.skip(f"{entry.library} is not installed")
    text = TEXTS["redis-readme.md"]
    options = EXAMPLE_OPTIONS[entry_id]
    namespace = {"text": text}
    run(entry_id, text, options)  # tiktoken has the vendored encodings from here on
    exec(entry.code(options), namespace)
    result = namespace.get("chunks", namespace.get("nodes"))
    if entry_id == "llama_index.MarkdownNodeParser":
        result = [libraries.node_json(node) for node in result]
    elif entry_id.startswith("chonkie."):
        result = chonkie_json(result)
    elif entry_id == "langchain.MarkdownHeaderTextSplitter":
        result = [d.model_dump() for d in result]
    assert plain(result) == run(entry_id, text, options)


def test_every_library_entry_is_listed_installed_or_not():
    ids = [e.id for e in registry.entries()]
    assert set(EXAMPLE_OPTIONS) <= set(ids)
    for entry_id in EXAMPLE_OPTIONS:
        entry = registry.get(entry_id)
        hinted = entry.summary.startswith("not installed: pip install 'chunkview[")
        assert hinted == (not entry.installed)


def test_a_missing_library_is_listed_and_refused_clearly(monkeypatch):
    monkeypatch.setitem(libraries.LIBRARIES, "semchunk", ("no_such_semchunk", "semchunk"))
    monkeypatch.delitem(libraries._loaded, "semchunk", raising=False)
    entry = libraries.SemchunkEntry()
    assert entry.summary.startswith("not installed: pip install 'chunkview[semchunk]'. ")
    with pytest.raises(
        ChunkerError, match=r"semchunk is not installed: pip install 'chunkview\[semchunk\]'"
    ):
        entry.run(Document("text"), {}, RunContext())


def test_listing_imports_no_library():
    code = (
        "import sys\nfrom chunkview.core import registry\nregistry.entries()\n"
        "print([m for m in ('langchain_text_splitters', 'llama_index', 'chonkie', 'semchunk', "
        "'semantic_text_splitter') if m in sys.modules])"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert result.stdout.strip() == "[]", result.stderr


@needs("langchain")
def test_cli_run_and_spans_of_langchain_recursive():
    from langchain_text_splitters import RecursiveCharacterTextSplitter

    doc = CORPUS / "mammoth-readme.md"
    options = '{"chunk_size": 300, "chunk_overlap": 40}'
    env = {**os.environ, "PYTHONPATH": str(ROOT)}

    def cli(*args):
        return subprocess.run(
            [sys.executable, "-m", "chunkview", *args], capture_output=True, text=True,
            timeout=120, env=env,
        )  # fmt: skip

    result = cli("run", "langchain.RecursiveCharacterTextSplitter", str(doc), "--options", options)
    assert result.returncode == 0, result.stderr
    direct = RecursiveCharacterTextSplitter(chunk_size=300, chunk_overlap=40).split_text(
        doc.read_text(encoding="utf-8")
    )
    assert json.loads(result.stdout) == direct
    spans = cli("spans", "langchain.RecursiveCharacterTextSplitter", str(doc), "--options", options)
    assert spans.returncode == 0, spans.stderr
    placed = json.loads(spans.stdout)["spans"]
    assert len(placed) == len(direct) and all(s["located"] == "exact" for s in placed)


@needs("llama_index")
def test_llama_index_refuses_to_download_its_sentence_data(tmp_path, monkeypatch):
    monkeypatch.setenv("NLTK_DATA", str(tmp_path))  # a folder without punkt_tab
    with pytest.raises(
        ChunkerError, match=r"needs NLTK.s punkt_tab in .*chunkview never downloads"
    ):
        run("llama_index.SentenceSplitter", "One. Two.", {})
