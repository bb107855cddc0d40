"""Why semantic-chunking cut where it did, in its own terms (see core/explain.py).

The port hands over what it worked out for a document (``Chunked``): the initial chunks
as their sentences (§6.4), the similarities and the dynamic threshold (§6.2, §6.3) and,
after combining, the record of its passes (§6.5, ``reference.Combined``). From those,
this module tells the run's observer one or more ``Reason`` per returned chunk (``at`` is
the chunk's index in the whole result); the algorithm itself notes nothing.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from chunkview.core.chunkers.semantic_chunking.reference import Combined
from chunkview.core.model.explain import Reason
from chunkview.core.model.observer import RunObserver


class Options(Protocol):
    """What the reasons read of a call: its options (with defaults) and its counter."""

    def get(self, name: str) -> Any: ...

    def count(self, text: str) -> int: ...


@dataclass
class Chunked:
    """What chunkit or cramit worked out for one document."""

    name: Any  # the document's name
    first: int  # the index in the whole result of the document's first chunk
    groups: list[list[str]]  # the initial chunks, each as its sentences (§6.4)
    sims: Sequence[float] | None = None  # chunkit: §6.2's similarities (cramit: none)
    #: chunkit: (average, variance, threshold) of §6.2 and §6.3
    threshold: tuple[float, float, float] | None = None
    combined: Combined | None = None  # chunkit with combineChunks: §6.5's record


def _tokens(n: int) -> str:
    return f"{n:,} token{'' if n == 1 else 's'}"


def threshold_words(call: Options, average: float, variance: float, threshold: float) -> str:
    """How the dynamic threshold came from similarityThreshold (§6.3), with its bounds."""
    base = call.get("similarityThreshold")
    lower = call.get("dynamicThresholdLowerBound")
    upper = call.get("dynamicThresholdUpperBound")
    if lower >= upper:
        return f"similarityThreshold {base:g}, unadjusted: the bounds {lower:g} ≥ {upper:g}"
    steps = [f"similarityThreshold {base:g}"]
    if variance < 0.01:
        steps.append(f"− 0.1 (similarities vary little: variance {variance:.4f} < 0.01)")
    elif variance > 0.05:
        steps.append(f"+ 0.1 (similarities vary a lot: variance {variance:.4f} > 0.05)")
    if average < 0.3:
        steps.append(f"+ 0.05 (mean similarity {average:.3f} < 0.3)")
    elif average > 0.7:
        steps.append(f"− 0.05 (mean similarity {average:.3f} > 0.7)")
    return f"{' '.join(steps)}, kept within the bounds {lower:g}–{upper:g}"


def _cut_reason(call: Options, chunked: Chunked, k: int, i: int) -> Reason:
    """Why initial chunk ``k`` starts at sentence ``i`` (§6.4): the similarity before it
    failed, or the chunk before it was full."""
    joined = call.count(" ".join(chunked.groups[k - 1]))
    sentence = call.count(chunked.groups[k][0])
    max_tokens = call.get("maxTokenSize")
    token_words = (
        f"token limit: the chunk's {_tokens(joined)} + the next sentence's {sentence:,} = "
        f"{joined + sentence:,} > maxTokenSize {max_tokens:g}"
    )
    if chunked.sims is None or chunked.threshold is None:
        return Reason(0, "token-limit", token_words)
    sim = chunked.sims[i - 1]
    average, variance, value = chunked.threshold
    if sim >= value:
        return Reason(0, "token-limit", token_words)
    lookahead = call.get("numSimilaritySentencesLookahead")
    text = (
        f"similarity {sim:.3f} < dynamic threshold {value:.3f}: sentence {i}'s best "
        f"similarity with the next {lookahead:g} sentences is too low "
        f"({threshold_words(call, average, variance, value)})"
    )
    if joined + sentence > max_tokens:
        text += f"; also the {token_words}"
    return Reason(0, "similarity", text)


def tell_chunk_reasons(observer: RunObserver, call: Options, chunked: Chunked) -> None:
    """Tell ``observer`` the reasons of this document's chunks (chunkit, cramit)."""
    initial: list[Reason | None] = [None]  # chunk 0 starts the document: no cut
    i = len(chunked.groups[0])
    for k in range(1, len(chunked.groups)):
        initial.append(_cut_reason(call, chunked, k, i))
        i += len(chunked.groups[k])
    if chunked.combined is None:  # no combining pass
        reasons = [[r] if r is not None else [] for r in initial]
    else:
        reasons = _after_combining(call, initial, chunked.combined)
    if chunked.first > 0:
        label = f" ({chunked.name})" if chunked.name else ""
        reasons[0].insert(
            0, Reason(0, "document", f"a new document{label}: each is chunked on its own")
        )
    for index, found in enumerate(reasons):
        for reason in found:
            observer.reason(reason._replace(at=chunked.first + index))


def _after_combining(
    call: Options, initial: list[Reason | None], combined: Combined
) -> list[list[Reason]]:
    """The reasons of the chunks left after §6.5's passes: the cut that made each start,
    the merges that took boundaries away before it, and why the passes kept it."""
    starts = combined.firsts  # the initial chunk each one begins with
    reasons = [[r] if (r := initial[j]) is not None else [] for j in starts]
    threshold = call.get("combineChunksSimilarityThreshold")
    max_tokens = call.get("maxTokenSize")
    for number, one_pass in enumerate(combined.passes, 1):
        for merge in one_pass.merges:
            if merge.phantom:  # the library's phantom merge: the list did not change
                continue
            f = bisect.bisect_right(starts, merge.b) - 1  # the kept chunk that holds it
            words = (
                f"merged in rebalancing pass {number}: a boundary inside the chunk before "
                f"went, similarity {merge.similarity:.3f} ≥ combineChunksSimilarityThreshold "
                f"{threshold:g} and together {_tokens(merge.a_tokens + merge.b_tokens)} ≤ "
                f"maxTokenSize {max_tokens:g}"
            )
            target = f + 1 if f + 1 < len(reasons) else f
            reasons[target].append(Reason(0, "merged", words))
    # why the last pass left each remaining boundary alone
    last = combined.passes[-1] if combined.passes else None
    similarity_of = {(a, b): sim for a, b, sim in last.pairs} if last is not None else {}
    merges_in_last_pass = last is not None and bool(last.merges)
    for f in range(1, len(starts)):
        together = combined.tokens[f - 1] + combined.tokens[f]
        similarity = similarity_of.get((starts[f - 1], starts[f]))
        if together > max_tokens:
            words = (
                f"kept by the rebalancing: together {_tokens(together)} > maxTokenSize "
                f"{max_tokens:g}"
            )
        elif similarity is not None and similarity < threshold:
            words = (
                f"kept by the rebalancing: the two chunks' similarity {similarity:.3f} < "
                f"combineChunksSimilarityThreshold {threshold:g}"
            )
        elif merges_in_last_pass:
            words = (
                "kept: the rebalancing stopped (maxUncappedPasses "
                f"{call.get('maxUncappedPasses'):g}, or this pass's merge cap) before it "
                "merged these"
            )
        else:
            continue
        reasons[f].append(Reason(0, "kept", words))
    return reasons


def tell_sentence_reasons(observer: RunObserver, count: int, first: int, name: Any) -> None:
    """sentenceit: every chunk is a sentence."""
    for k in range(count):
        if k == 0 and first > 0:
            label = f" ({name})" if name else ""
            observer.reason(
                Reason(first, "document", f"a new document{label}: each is split on its own")
            )
        elif k > 0:
            observer.reason(
                Reason(
                    first + k,
                    "sentence",
                    "a new sentence: sentenceit returns each sentence as sentence-parse "
                    "(ICU) splits them",
                )
            )
