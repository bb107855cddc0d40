"""``--ray``: the same records and means as the local pool (a local Ray of two CPUs, one
session for the module), a hang reported for its file while the others finish, and one
line when the extra is missing."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from chunkview.commands import audit as audit_command
from chunkview.commands import evaluate as eval_command
from chunkview.core.analysis.eval import Question, Reference
from chunkview.core.batch.audit_run import audit_records
from chunkview.core.batch.corpus_eval import Setting, corpus_documents, corpus_eval
from chunkview.core.batch.ray_pool import INSTALL_HINT, RayPool, RayUnavailable, load_ray
from chunkview.core.runtime import ChunkPool

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "tests" / "corpus"
RECURSIVE = {"strategy": "recursive", "maxSize": 400, "overlap": 50}


@pytest.fixture(scope="module")
def local_ray():
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
    yield ray
    ray.shutdown()


def without_timing(records):
    return sorted(({k: v for k, v in r.items() if k != "seconds"} for r in records), key=str)


def test_audit_records_are_the_same_with_and_without_ray(local_ray):
    paths = [str(p) for p in sorted(CORPUS.iterdir())]
    with ChunkPool(2, timeout=60) as pool:
        local = list(audit_records(paths, "mastra.chunk", RECURSIVE, pool=pool))
    with RayPool(timeout=60) as pool:
        remote = list(audit_records(paths, "mastra.chunk", RECURSIVE, pool=pool))
    assert len(remote) == len(paths)
    assert without_timing(remote) == without_timing(local)


def test_the_audit_command_prints_the_same_records_with_ray(local_ray, capsys):
    def run(*extra):
        args = [str(CORPUS), "--entry", "mastra.chunk", "--options", json.dumps(RECURSIVE)]
        assert audit_command.main([*args, "--format", "jsonl", *extra]) == 0
        lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        summary = lines.pop()["summary"]
        del summary["seconds"]
        return without_timing(lines), summary

    assert run("--ray") == run("--jobs", "2")


def corpus_questions():
    questions = []
    for path in sorted(CORPUS.iterdir())[:6]:
        text = path.read_text(encoding="utf-8")
        for start in (40, 900, 2500):
            end = min(start + 180, len(text))
            words = " ".join(text[start : start + 60].split())
            questions.append(Question(words, (Reference("", start, end),), path.name))
    return questions


def test_corpus_means_are_the_same_with_and_without_ray(local_ray):
    questions = corpus_questions()
    settings = [Setting("mastra.chunk", RECURSIVE), Setting("mastra.chunk", {"maxSize": 900})]

    def run(pool):
        documents = corpus_documents([str(CORPUS)])
        results = corpus_eval(documents, questions, settings, pool, retriever="bm25", top_k=3)
        return [r.to_json() for r in results]

    with ChunkPool(2, timeout=60) as pool:
        local = run(pool)
    with RayPool(timeout=60) as pool:
        remote = run(pool)
    assert remote == local
    assert local[0]["means"]["iou_omega"] is not None and not local[0]["failed"]


def test_the_eval_command_gives_the_same_means_with_ray(local_ray, tmp_path, capsys):
    questions = tmp_path / "q.jsonl"
    lines = []
    for q in corpus_questions():
        ref = q.references[0]
        refs = [{"content": "", "start_index": ref.start, "end_index": ref.end}]
        lines.append(
            json.dumps({"question": q.question, "references": refs, "corpus_id": q.corpus_id})
        )
    questions.write_text("\n".join(lines) + "\n", encoding="utf-8")

    def run(*extra):
        args = [str(CORPUS), "--entry", "mastra.chunk", "--options", json.dumps(RECURSIVE)]
        args += ["--questions", str(questions), "--retriever", "none", "--json"]
        assert eval_command.main([*args, *extra]) == 0
        return json.loads(capsys.readouterr().out)

    assert run("--ray") == run("--jobs", "2")


def test_a_hang_under_ray_is_that_files_and_the_others_finish(local_ray, tmp_path):
    (tmp_path / "small.txt").write_text("A few words. And some more.\n", encoding="utf-8")
    (tmp_path / "other.txt").write_text("Plain words. " * 50, encoding="utf-8")
    # semantic-chunking embeds every distinct sentence: far past a 2 s budget
    sentences = (f"Sentence {i} is one more to embed here. " for i in range(200_000))
    (tmp_path / "large.txt").write_text("".join(sentences))
    paths = [str(p) for p in sorted(tmp_path.iterdir())]
    with RayPool(timeout=2) as pool:
        records = {
            Path(r["path"]).name: r
            for r in audit_records(paths, "semantic-chunking.chunkit", {}, pool=pool)
        }
    assert records["large.txt"]["status"] == "hang"
    assert "within the 2 s budget" in records["large.txt"]["message"]
    assert records["small.txt"]["status"] == "ok" and records["other.txt"]["status"] == "ok"


def test_without_the_extra_ray_says_what_to_install_in_one_line(monkeypatch, capsys, tmp_path):
    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now fails
    with pytest.raises(RayUnavailable, match="pip install 'chunkview\\[ray\\]'"):
        load_ray()
    status = audit_command.main([str(CORPUS), "--entry", "mastra.chunk", "--ray"])
    err = capsys.readouterr().err
    assert status == 1 and err == f"chunkview audit: {INSTALL_HINT}\n"
    questions = tmp_path / "q.jsonl"
    refs = [{"content": "", "start_index": 0, "end_index": 10}]
    questions.write_text(json.dumps({"question": "q", "references": refs, "corpus_id": "x"}))
    status = eval_command.main(
        [
            str(CORPUS / "redis-readme.md"),
            "--entry",
            "mastra.chunk",
            "--questions",
            str(questions),
            "--ray",
        ]
    )
    assert status == 1 and capsys.readouterr().err == f"chunkview eval: {INSTALL_HINT}\n"


def test_an_object_store_url_is_refused_in_one_line(local_ray, capsys):
    status = audit_command.main(["s3://bucket/corpus", "--entry", "mastra.chunk", "--ray"])
    err = capsys.readouterr().err
    assert status == 1 and err.count("\n") == 1
    assert err.startswith("chunkview audit: s3://bucket/corpus: chunkview reads files by path")
