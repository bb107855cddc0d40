"""agentos ``chunkTurns`` (spec/agentos.md §5.3): passages of whole transcript turns.

The function is not in the released package, so this follows the documentation seed.
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
from dataclasses import dataclass
from typing import Any

from chunkview.core.chunkers.entry import Entry, Param, RunContext, js_literal
from chunkview.core.errors import ChunkerError
from chunkview.core.model.document import Document
from chunkview.core.model.explain import Reason
from chunkview.core.model.spans import Span
from chunkview.core.text.js import option, utf16_len


@dataclass(frozen=True)
class Turn:
    seq: Any
    item_id: Any
    text: str
    start_ms: Any
    end_ms: Any


def parse_turns(text: str) -> list[dict[str, Any]]:
    """A transcript file: a JSON array of turns, or JSON Lines of turns."""
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


def _turns(raw: list[dict[str, Any]]) -> list[Turn]:
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


def _joined_length(turns: list[Turn]) -> int:
    return sum(utf16_len(t.text) for t in turns) + max(len(turns) - 1, 0)


def chunk_turns(
    raw_turns: list[dict[str, Any]],
    options: dict[str, Any] | None = None,
    explain: list | None = None,
) -> list[dict[str, Any]]:
    """``chunkTurns(turns, {maxChars, overlapTurns})``: the passages, in order."""
    max_chars = option(options, "maxChars", 1200)
    overlap_turns = max(int(option(options, "overlapTurns", 1)), 0)
    turns = _turns(raw_turns)
    passages: list[list[Turn]] = []
    next_new = 0
    while next_new < len(turns):
        carried: list[Turn] = []
        if passages and overlap_turns:
            previous = passages[-1]
            for count in range(min(overlap_turns, len(previous)), 0, -1):
                candidate = previous[-count:]
                if _joined_length([*candidate, turns[next_new]]) <= max_chars:
                    carried = candidate
                    break
        passage = [*carried, turns[next_new]]
        if explain is not None and passages:
            _explain_passage(explain, passages, carried, turns[next_new], max_chars, overlap_turns)
        next_new += 1
        while next_new < len(turns) and _joined_length([*passage, turns[next_new]]) <= max_chars:
            passage.append(turns[next_new])
            next_new += 1
        passages.append(passage)
    return [_passage(p) for p in passages]


def _explain_passage(
    explain: list,
    passages: list[list[Turn]],
    carried: list[Turn],
    first: Turn,
    max_chars: Any,
    overlap_turns: int,
) -> None:
    """Why passage ``len(passages)`` starts with turn ``first`` (and what it carries)."""
    previous = passages[-1]
    size = _joined_length(previous)
    added = utf16_len(first.text)
    text = (
        f"the passage before was full: {size:,} chars + the next turn's (seq {first.seq}) "
        f"{added:,} + 1 = {size + added + 1:,} > maxChars {max_chars}"
    )
    if carried:
        text += (
            f"; overlap: the last {f'{len(carried)} turns' if len(carried) > 1 else 'turn'} "
            f"of the passage before carried (overlapTurns {overlap_turns})"
        )
    elif overlap_turns:
        text += (
            f"; no turn carried: with overlapTurns {overlap_turns} the passage would pass "
            f"maxChars {max_chars} with its first new turn"
        )
    explain.append(Reason(len(passages), "turns-full", text))


def _passage(turns: list[Turn]) -> dict[str, Any]:
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


class ChunkTurnsEntry(Entry):
    id = "agentos.chunkTurns"
    library = "agentos"
    title = "chunkTurns"
    summary = (
        "Transcript passages of whole turns joined by line feeds, each opening with "
        "the last turns of the passage before. Input: JSON array or JSON Lines of "
        "{seq, itemId, text, startMs, endMs}."
    )
    size_unit = "units"
    boundary_kinds = ("turns",)
    params = (
        Param(
            "maxChars",
            "int",
            1200,
            "a passage holds at most this many UTF-16 units, unless one turn alone is longer",
            1,
            1_000_000,
            group="Sizes",
            role="max",
        ),
        Param(
            "overlapTurns",
            "int",
            1,
            "turns from the end of the previous passage that "
            "open the next (fewer when they would not fit)",
            0,
            100,
            group="Sizes",
            role="overlap",
        ),
    )

    def run(self, document: Document, options: dict[str, Any], ctx: RunContext) -> Any:
        return chunk_turns(parse_turns(document.text), options, ctx.explain)

    def view_document(self, document: Document) -> Document:
        """The transcript as text: one turn per line, in seq order."""
        try:
            turns = _turns(parse_turns(document.text))
        except ChunkerError:
            return document
        return Document("\n".join(t.text for t in turns), document.path, "text")

    def chunk_kind(self, chunk: Any, options: Any) -> str:
        return "turns"

    def spans(
        self, document: Document, native: Any, options: dict[str, Any], places: Any = None
    ) -> list[Span]:
        spans = self.located_spans(document, native, options)
        for span, passage in zip(spans, native):
            span.metadata = {
                key: passage[key] for key in ("firstSeq", "lastSeq", "itemIds", "startMs", "endMs")
            }
        return spans

    def code(self, options: dict[str, Any]) -> str:
        return (
            "import { chunkTurns } from '@framers/agentos';\n\n"
            f"const passages = chunkTurns(turns, {js_literal(options)});\n"
        )
