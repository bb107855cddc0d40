"""agentos ``chunkTurns`` (spec/agentos.md §5.3): passages of whole transcript turns.

The reference, and the only version: plain, in the seed's terms. The function is not
in the released package, so this follows the documentation seed (§5.3 "Rules stated by
the seed" and "Reading used for the derived examples").
Where the seed is silent, the choices, each with a test:

- turns are ordered by ``seq`` (stable for equal seq): a transcript's order is its seq,
  whatever order the file lists them in;
- turns whose text is empty or only white space are left out: they would add empty lines
  and carry no words;
- packing is greedy: the next turn joins while the joined text stays within ``maxChars``;
  a passage that has no new turn yet takes the next one even when it alone is longer;
- overlap turns count toward ``maxChars``: up to ``overlapTurns`` turns from the end of the
  previous passage are carried, fewer (down to none) when carrying them would push the
  passage over ``maxChars`` together with its first new turn;
- a passage is started only while new turns remain;
- ``itemIds`` lists each id once, in order of first appearance.
"""

from __future__ import annotations

import json
import math
import sys
from dataclasses import dataclass
from typing import Any

from chunkview.core.chunkers.agentos.explain import passage_reason
from chunkview.core.errors import ChunkerError
from chunkview.core.model.observer import NOBODY, RunObserver
from chunkview.core.text.js import option, utf16_len


@dataclass(frozen=True)
class Turn:
    seq: Any
    item_id: Any
    text: str
    start_ms: Any
    end_ms: Any


def parse_turns(text: str) -> list[dict[str, Any]]:
    """A transcript file: a JSON array of turns, or JSON Lines of turns (§5.3 rule 1:
    ``[{seq, itemId, text, startMs, endMs}]``)."""
    stripped = text.strip()
    if not stripped:
        return []
    try:
        if stripped.startswith("["):
            turns = json.loads(stripped)
        else:
            turns = [json.loads(line) for line in stripped.splitlines() if line.strip()]
    except json.JSONDecodeError as error:
        raise ChunkerError(
            "SyntaxError",
            f"the transcript is not JSON or JSON Lines: {error.msg} at line {error.lineno}",
        ) from None
    if not isinstance(turns, list) or not all(isinstance(t, dict) for t in turns):
        raise ChunkerError(
            "TypeError", "a transcript is a list of {seq, itemId, text, startMs, endMs} objects"
        )
    return turns


def ordered_turns(raw: list[dict[str, Any]]) -> list[Turn]:
    """The turns a transcript passes on: those with words, in seq order (the choices at
    the top of this module)."""
    turns = []
    for position, item in enumerate(raw):
        text = item.get("text")
        if not isinstance(text, str):
            raise ChunkerError("TypeError", f"turn {position}: text must be a string")
        if text.strip():
            turns.append(
                Turn(
                    item.get("seq", position),
                    item.get("itemId"),
                    text,
                    item.get("startMs"),
                    item.get("endMs"),
                )
            )
    return sorted(
        turns,
        key=lambda t: (t.seq is None, t.seq if isinstance(t.seq, (int, float)) else str(t.seq)),
    )


def joined_length(turns: list[Turn]) -> int:
    """The length of the turns' texts joined with LF (§5.3 rule 2), in units."""
    return sum(utf16_len(t.text) for t in turns) + max(len(turns) - 1, 0)


def chunk_turns(
    raw_turns: list[dict[str, Any]],
    options: dict[str, Any] | None = None,
    observer: RunObserver = NOBODY,
) -> list[dict[str, Any]]:
    """``chunkTurns(turns, {maxChars, overlapTurns})``: the passages, in order (§5.3).
    Tells ``observer`` why each passage after the first starts where it does."""
    max_chars = option(options, "maxChars", 1200)
    overlap_turns = overlap_count(option(options, "overlapTurns", 1))
    turns = ordered_turns(raw_turns)
    passages: list[list[Turn]] = []
    next_new = 0
    while next_new < len(turns):  # a passage is started only while new turns remain
        first = turns[next_new]
        carried = carried_turns(passages[-1] if passages else [], first, overlap_turns, max_chars)
        if passages:
            previous = passages[-1]
            observer.reason(
                passage_reason(
                    len(passages),
                    joined_length(previous),
                    first.seq,
                    utf16_len(first.text),
                    max_chars,
                    len(carried),
                    overlap_turns,
                )
            )
        # the first new turn joins even when it alone is longer than maxChars
        passage = [*carried, first]
        next_new += 1
        # greedy: the next turn joins while the joined text stays within maxChars
        while next_new < len(turns) and joined_length([*passage, turns[next_new]]) <= max_chars:
            passage.append(turns[next_new])
            next_new += 1
        passages.append(passage)
    return [_passage(p) for p in passages]


def overlap_count(overlap_turns: Any) -> int:
    """How many turns "up to ``overlapTurns``" (§5.3 rule 4) lets a passage carry: the
    whole number of a finite count (as the library has always been read here), none for
    NaN or a count below one (a count compared with NaN is never reached), and any number
    for +Infinity (as many as fit within maxChars)."""
    if isinstance(overlap_turns, float):
        if math.isnan(overlap_turns) or overlap_turns == -math.inf:
            return 0
        if overlap_turns == math.inf:
            return sys.maxsize
    return max(int(overlap_turns), 0)


def carried_turns(
    previous: list[Turn], first: Turn, overlap_turns: int, max_chars: Any
) -> list[Turn]:
    """§5.3 rule 4 ("up to" overlapTurns turns from the end of the passage before): the
    most of them that still fit within maxChars with the passage's first new turn."""
    for count in range(min(overlap_turns, len(previous)), 0, -1):
        candidate = previous[-count:]
        if joined_length([*candidate, first]) <= max_chars:
            return candidate
    return []


def _passage(turns: list[Turn]) -> dict[str, Any]:
    """§5.3 rule 5: what a passage records (its first and last seq, its item ids once
    each, its time span, and where each turn sits in its text)."""
    offsets, position = [], 0
    for turn in turns:
        length = utf16_len(turn.text)
        offsets.append(
            {"seq": turn.seq, "itemId": turn.item_id, "start": position, "end": position + length}
        )
        position += length + 1
    item_ids = list(dict.fromkeys(t.item_id for t in turns))
    return {
        "text": "\n".join(t.text for t in turns),
        "firstSeq": turns[0].seq,
        "lastSeq": turns[-1].seq,
        "itemIds": item_ids,
        "startMs": turns[0].start_ms,
        "endMs": turns[-1].end_ms,
        "turns": offsets,
    }
