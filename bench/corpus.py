"""A corpus on the local pool and on a local Ray: files/s, MB/s and the driver's memory.

Writes a generated corpus cut from tests/corpus (2,000 files by default, ``--files 20000``
for the issue's figure; sizes from 2 KB to 1 MB, most of them small, as a real corpus), then
runs on the same cores: ``audit`` (mastra.chunk recursive) and corpus ``eval`` without a
retriever (one question every tenth file), each with the local ``ChunkPool`` and with a
``RayPool`` on a local Ray of as many CPUs. The driver's resident set is sampled at every
record: its peak, and its growth over the run (flat memory: about the same at 2,000 and
20,000 files).

``--flat N`` is the flat-memory figure alone: N small files (1 to 4 KB, so 20,000 take a
few minutes) audited on each engine, the driver's resident set read at every record, and
its growth over the run's start told at record 2,000 and at record N.
Run: python bench/corpus.py [--files N] [--jobs N] [--no-ray] [--json]
     python bench/corpus.py --flat 20000 [--no-ray] [--json]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path

from _common import corpus_text

from chunkview.core.analysis.eval import Question, Reference
from chunkview.core.batch.audit import iter_files
from chunkview.core.batch.audit_run import audit_records
from chunkview.core.batch.corpus_eval import Setting, corpus_documents, corpus_eval
from chunkview.core.batch.engine import Pool
from chunkview.core.runtime import ChunkPool

ENTRY = "mastra.chunk"
OPTIONS = {"strategy": "recursive", "maxSize": 400, "overlap": 40}
SMALLEST, LARGEST = 2_000, 1_000_000


def rss_mb() -> float:
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def write_cut(folder: Path, text: str, number: int, size: int, chance: random.Random) -> str:
    """``size`` characters of ``text`` from a random start, written as document ``number``
    (``document_id``: 1,000 a folder); the text written."""
    start = chance.randrange(0, len(text) - size)
    path = folder / document_id(number)
    path.parent.mkdir(exist_ok=True)
    body = text[start : start + size]
    path.write_text(body, encoding="utf-8")
    return body


def document_id(number: int) -> str:
    """Document ``number``'s path under the corpus folder, as questions name it."""
    return f"d{number // 1000:03d}/doc{number:06d}.md"


def write_corpus(folder: Path, count: int) -> tuple[int, list[Question]]:
    """``count`` files of 2 KB to 1 MB (log-skewed: most a few KB) and their questions."""
    text = corpus_text(2 * LARGEST)
    chance = random.Random(33)
    total = 0
    questions = []
    for i in range(count):
        size = int(SMALLEST * (LARGEST / SMALLEST) ** (chance.random() ** 4))
        body = write_cut(folder, text, i, size, chance)
        total += len(body.encode("utf-8"))
        if i % 10 == 0:
            at = size // 3
            words = " ".join(body[at : at + 80].split())
            questions.append(Question(words, (Reference("", at, at + 300),), document_id(i)))
    return total, questions


def write_small_corpus(folder: Path, count: int) -> int:
    """``count`` files of 1 to 4 KB cut from tests/corpus, 1,000 a folder; their bytes."""
    text = corpus_text(200_000)
    chance = random.Random(33)
    total = 0
    for i in range(count):
        size = chance.randrange(1_000, 4_000)
        total += len(write_cut(folder, text, i, size, chance).encode("utf-8"))
    return total


#: the records at which the driver's growth is told (and at the last one)
MARKS = (2_000,)


def growth_run(folder: Path, pool: Pool, files: int) -> dict[str, object]:
    """Audit ``folder`` on ``pool``; the driver's growth over its start at record 2,000
    and at the last record, and its peak growth."""
    marks = {*MARKS, files}
    before = rss_mb()
    peak = before
    at: dict[str, float] = {}
    began = time.perf_counter()
    count = 0
    for _ in audit_records(iter_files([str(folder)]), ENTRY, OPTIONS, pool=pool):
        count += 1
        now = rss_mb()
        peak = max(peak, now)
        if count in marks:
            at[str(count)] = round(now - before, 1)
    seconds = time.perf_counter() - began
    assert count == files, count
    first, last = at[str(min(marks))], at[str(files)]
    return {
        "seconds": round(seconds, 1),
        "files_per_second": round(files / seconds, 1),
        "rss_before_mb": round(before, 1),
        "rss_growth_at_mb": at,
        "rss_peak_growth_mb": round(peak - before, 1),
        # the flat-memory figure: what the driver gained between the two marks
        "rss_growth_between_mb": round(last - first, 1),
    }


def flat(args: argparse.Namespace) -> dict[str, object]:
    result: dict[str, object] = {"flat_files": args.flat, "jobs": args.jobs}
    with tempfile.TemporaryDirectory(prefix="chunkview-flat-") as name:
        folder = Path(name)
        began = time.perf_counter()
        total = write_small_corpus(folder, args.flat)
        result |= {
            "mb": round(total / 2**20, 1),
            "written_s": round(time.perf_counter() - began, 1),
        }
        for engine, make in engines(args.jobs, not args.no_ray):
            with make() as pool:  # type: ignore[attr-defined]
                result[f"audit_{engine}"] = growth_run(folder, pool, args.flat)
    return result


def measured(run: Callable[[Callable[[], None]], None]) -> dict[str, float]:
    """Seconds of ``run`` and the driver's resident set: before, peak (sampled at every
    record), growth."""
    before = rss_mb()
    peak = [before]

    def sample() -> None:
        peak[0] = max(peak[0], rss_mb())

    began = time.perf_counter()
    run(sample)
    seconds = time.perf_counter() - began
    return {
        "seconds": round(seconds, 2),
        "rss_before_mb": round(before, 1),
        "rss_peak_mb": round(peak[0], 1),
        "rss_growth_mb": round(peak[0] - before, 1),
    }


def audit_run(folder: Path, pool: Pool) -> Callable[[Callable[[], None]], None]:
    def run(sample: Callable[[], None]) -> None:
        for _ in audit_records(iter_files([str(folder)]), ENTRY, OPTIONS, pool=pool):
            sample()

    return run


def eval_run(
    folder: Path, pool: Pool, questions: list[Question]
) -> Callable[[Callable[[], None]], None]:
    def run(sample: Callable[[], None]) -> None:
        documents = corpus_documents([str(folder)])
        (result,) = corpus_eval(
            documents, questions, [Setting(ENTRY, OPTIONS)], pool, progress=sample
        )
        assert not result.failed, result.failed[:3]

    return run


def rates(figures: dict[str, float], files: int, total_bytes: int) -> dict[str, float]:
    return {
        **figures,
        "files_per_second": round(files / figures["seconds"], 1),
        "mb_per_second": round(total_bytes / 2**20 / figures["seconds"], 2),
    }


def engines(jobs: int, with_ray: bool) -> Iterator[tuple[str, Callable[[], Pool]]]:
    yield "local", lambda: ChunkPool(jobs, timeout=120)
    if with_ray:
        import ray

        from chunkview.core.batch.ray_pool import RayPool

        ray.init(num_cpus=jobs, include_dashboard=False, log_to_driver=False, logging_level="ERROR")
        yield "ray", lambda: RayPool(timeout=120)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=2_000)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--no-ray", action="store_true")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--flat", type=int, metavar="N", help="only the driver's growth: N small files, audited"
    )
    args = parser.parse_args()
    if args.flat:
        if args.flat < max(MARKS):
            parser.error(f"--flat needs at least {max(MARKS)} files")
        figures = flat(args)
        print(
            json.dumps(figures) if args.json else "\n".join(f"{k}: {v}" for k, v in figures.items())
        )
        return
    result: dict[str, object] = {"files": args.files, "jobs": args.jobs}
    with tempfile.TemporaryDirectory(prefix="chunkview-corpus-") as name:
        folder = Path(name)
        total_bytes, questions = write_corpus(folder, args.files)
        result |= {"mb": round(total_bytes / 2**20, 1), "questions": len(questions)}
        for engine, make in engines(args.jobs, not args.no_ray):
            with make() as pool:  # type: ignore[attr-defined]
                result[f"audit_{engine}"] = rates(
                    measured(audit_run(folder, pool)), args.files, total_bytes
                )
                result[f"eval_{engine}"] = rates(
                    measured(eval_run(folder, pool, questions)), args.files, total_bytes
                )
    for task in ("audit", "eval"):
        if f"{task}_ray" in result:
            ray_s = result[f"{task}_ray"]["seconds"]  # type: ignore[index]
            local_s = result[f"{task}_local"]["seconds"]  # type: ignore[index]
            result[f"{task}_ray_over_local"] = round(ray_s / local_s, 2)
    if args.json:
        print(json.dumps(result))
        return
    for key, value in result.items():
        print(f"{key}: {value}")


if __name__ == "__main__":
    main()
