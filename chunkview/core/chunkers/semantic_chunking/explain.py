"""Why semantic-chunking cut where it did, in its own terms (see core/explain.py).

chunker.py notes what it decides only when ``ctx.explain`` is a list: each cut of
``create_chunks`` (the sentence it starts at, whether the similarity passed, the token
counts), and in ``combine`` the nodes, each pass's view of the neighbour pairs, each merge
and the final list. This module turns those notes into one ``Reason`` per returned chunk
(``at`` is the index of the chunk in the result), so the port itself stays as it was.
"""

from __future__ import annotations

import bisect
from typing import Any

from chunkview.core.model.explain import Reason


def _tokens(n: int) -> str:
    return f"{n:,} token{'' if n == 1 else 's'}"


def threshold_words(call: Any, average: float, variance: float, threshold: float) -> str:
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


def _cut_reason(call: Any, note: tuple, at: int, threshold: tuple | None) -> Reason:
    _kind, i, passes, sim, joined, sentence = note
    max_tokens = call.get("maxTokenSize")
    over = joined + sentence > max_tokens
    token_words = (
        f"token limit: the chunk's {_tokens(joined)} + the next sentence's {sentence:,} = "
        f"{joined + sentence:,} > maxTokenSize {max_tokens:g}"
    )
    if passes or threshold is None:
        return Reason(at, "token-limit", token_words)
    average, variance, value = threshold
    lookahead = call.get("numSimilaritySentencesLookahead")
    text = (
        f"similarity {sim:.3f} < dynamic threshold {value:.3f}: sentence {i}'s best "
        f"similarity with the next {lookahead:g} sentences is too low "
        f"({threshold_words(call, average, variance, value)})"
    )
    if over:
        text += f"; also the {token_words}"
    return Reason(at, "similarity", text)


def explain_chunks(
    call: Any, notes: list, first: int, name: Any, threshold: tuple | None = None
) -> None:
    """Append to ``call.ctx.explain`` one reason per chunk of this document (chunkit,
    cramit); ``first`` is the index of its first chunk in the whole result."""
    explain = call.ctx.explain
    cuts = [n for n in notes if n[0] == "cut"]
    # the reason each chunk of create_chunks starts where it does (chunk 0: none)
    initial: list[Reason | None] = [None] + [_cut_reason(call, note, 0, threshold) for note in cuts]
    nodes = next((n[1] for n in notes if n[0] == "nodes"), None)
    final = next((n[1] for n in notes if n[0] == "final"), None)
    reasons: list[list[Reason]]
    if nodes is None or final is None:  # no rebalancing pass
        reasons = [[r] if r is not None else [] for r in initial]
    else:
        reasons = _after_combining(call, notes, initial, nodes, final)
    if first > 0:
        label = f" ({name})" if name else ""
        reasons[0].insert(
            0, Reason(0, "document", f"a new document{label}: each is chunked on its own")
        )
    for index, found in enumerate(reasons):
        for reason in found:
            explain.append(reason._replace(at=first + index))


def _after_combining(
    call: Any, notes: list, initial: list[Reason | None], nodes: list[int], head: Any
) -> list[list[Reason]]:
    """The reasons of the chunks left after §6.5's passes: the cut that made each start,
    the merges that took boundaries away before it, and why the pass kept it."""
    index_of = {node_id: j for j, node_id in enumerate(nodes)}
    kept = []
    node = head
    while node is not None:
        kept.append(node)
        node = node.next
    starts = [index_of[id(n)] for n in kept]  # the create_chunks chunk each one begins with
    picked = [initial[j] for j in starts]
    reasons = [[r] if r is not None else [] for r in picked]
    threshold = call.get("combineChunksSimilarityThreshold")
    max_tokens = call.get("maxTokenSize")
    passes = [n for n in notes if n[0] == "pass"]
    merges_after_last_pass = False
    number = 0
    for note in notes:
        if note[0] == "pass":
            number += 1
            merges_after_last_pass = False
        elif note[0] == "merge":
            merges_after_last_pass = True
            _kind, _a, b, similarity, a_tokens, b_tokens = note
            j = index_of[b]
            f = bisect.bisect_right(starts, j) - 1  # the kept chunk that holds it
            if starts[f] == j:  # the library's phantom merge: the chunk stays listed
                continue
            words = (
                f"merged in rebalancing pass {number}: a boundary inside the chunk before "
                f"went, similarity {similarity:.3f} ≥ combineChunksSimilarityThreshold "
                f"{threshold:g} and together {_tokens(a_tokens + b_tokens)} ≤ maxTokenSize "
                f"{max_tokens:g}"
            )
            target = f + 1 if f + 1 < len(reasons) else f
            reasons[target].append(Reason(0, "merged", words))
    # why the last pass left each remaining boundary alone
    last = passes[-1] if passes else None
    similarity_of = {}
    if last is not None:
        for (a, b), similarity in zip(last[2], last[3]):
            similarity_of[(id(a), id(b))] = float(similarity)
    for f in range(1, len(kept)):
        a, b = kept[f - 1], kept[f]
        together = a.tokens + b.tokens
        similarity = similarity_of.get((id(a), id(b)))
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
        elif merges_after_last_pass:
            words = (
                "kept: the rebalancing stopped (maxUncappedPasses "
                f"{call.get('maxUncappedPasses'):g}, or this pass's merge cap) before it "
                "merged these"
            )
        else:
            continue
        reasons[f].append(Reason(0, "kept", words))
    return reasons


def explain_sentences(call: Any, count: int, first: int, name: Any) -> None:
    """sentenceit: every chunk is a sentence."""
    explain = call.ctx.explain
    for k in range(count):
        if k == 0 and first > 0:
            label = f" ({name})" if name else ""
            explain.append(
                Reason(first, "document", f"a new document{label}: each is split on its own")
            )
        elif k > 0:
            explain.append(
                Reason(
                    first + k,
                    "sentence",
                    "a new sentence: sentenceit returns each sentence as sentence-parse "
                    "(ICU) splits them",
                )
            )
