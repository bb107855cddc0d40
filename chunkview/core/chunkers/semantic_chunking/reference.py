"""semantic-chunking 3.0.2 step by step, as spec/semantic-chunking.md tells it: the oracle.

Plain and slow on purpose: each function follows one section of the spec and uses its
names, so a reader can check it line by line. The port runs the fast paths named at the
top of ``sentences.py``, ``similarity.py`` and ``packing.py`` where they apply; the tests
check each against the function here it replaces. Texts are *unit strings* where the
spec counts UTF-16 code units (``chunkview.core.text.js``).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import regex
from icu4py.breakers import SentenceBreaker

from chunkview.core.chunkers.semantic_chunking.html_parser import parse_document
from chunkview.core.errors import ChunkerError
from chunkview.core.text.embed import cosine
from chunkview.core.text.js import W_CHARS, W_CLASS, from_units, is_blank, to_units, trim, truthy
from chunkview.core.text.jsregex import compile_js

Vector = Sequence[float]
Count = Callable[[str], int]
Embed = Callable[[list[str]], list[Any]]

#: §5.4 step 3: string-segmenter's English abbreviations (en.json)
ABBREVIATIONS = frozenset(
    """a.d. a.m. a.s.a.p. adm. ala. apr. ariz. ark. aug. b.c. b.c.e.
b.y.o.b. bros. calif. co. col. colo. conn. corp. d.c. d.i.y. dec. del. dr. e.g. e.t.a. etc.
feb. fla. ga. gen. gov. i.e. ill. inc. ind. j.d. jan. jr. jul. jun. kan. kans. ky. la. lt.
ltd. m.d. mar. mass. may. md. messrs. mich. minn. miss. mo. mont. mr. mrs. ms. mt. n.c. n.d.
n.h. n.j. n.m. n.y. neb. nebr. nev. nov. oct. okla. ore. p.m. p.s. pa. ph.d. prof. r.s.v.p.
rep. rev. sen. sep. sept. sr. st. tenn. va. vs. wash. wis.""".split()
)
#: toLocaleUpperCase follows Unicode 17 (node's ICU 78), Python 3.11's str.upper Unicode
#: 14, which lacks these pairs (Unicode 16 and 17: ƛ ɤ ᲊ and Latin letters in U+A7CB–A7DC)
NEWER_UPPER = {
    "\u019b": "\ua7dc",
    "\u0264": "\ua7cb",
    "\u1c8a": "\u1c89",
    "\ua7cd": "\ua7cc",
    "\ua7cf": "\ua7ce",
    "\ua7d3": "\ua7d2",
    "\ua7d5": "\ua7d4",
    "\ua7db": "\ua7da",
}
_W = frozenset(W_CHARS)  # JS white space
_LINE_BREAK_RE = re.compile(r"([^\n])\n([^\n])")
_W_RUN_RE = re.compile(f"[{W_CLASS}]+")
_W_RUNS_OF_TWO_RE = re.compile(f"[{W_CLASS}]{{2,}}")
#: §5.4 step 3's "last word": a run without white space, then white space to the end
LAST_WORD_RE = re.compile(f"([^{W_CLASS}]+)[{W_CLASS}]+\\Z")
_LETTER_RE = regex.compile(r"\p{L}")
_LONE_SURROGATE_RE = re.compile("[\ud800-\udfff]")


# ----- §5.1 chunkit only: line breaks ---------------------------------------------------------
def join_line_breaks(text: str) -> str:
    """§5.1: "x\\ny" becomes "x y" (matches do not overlap), then each run of two or more
    JS white-space characters becomes one space."""
    return _W_RUNS_OF_TWO_RE.sub(" ", _LINE_BREAK_RE.sub(r"\1 \2", text))


# ----- §5.2 HTML to text ---------------------------------------------------------------------
def cheerio_text(node: Any) -> str:
    """§5.2 steps 1-3 read through the text content of ``node``: a <br> is "\\n", every
    <p>, <ul> and <ol> has "\\n\\n" before and after it, every <li> starts with "\\n\\n- ".
    Comments (an etree node whose tag is no string) give nothing."""
    if not isinstance(node.tag, str):
        return ""
    if node.tag == "br":
        return "\n"
    parts = ["\n\n- "] if node.tag == "li" else []
    parts.append(node.text or "")
    for child in node:
        around = "\n\n" if isinstance(child.tag, str) and child.tag in ("p", "ul", "ol") else ""
        parts += [around, cheerio_text(child), around, child.tail or ""]
    return "".join(parts)


def html_text(text: str) -> str:
    """§5.2 step 4: the document parsed as HTML; the text of every <div> in document order
    (a nested one again inside its parent), or, when that is empty, of the whole document."""
    root = parse_document(text)
    of_divs = "".join(cheerio_text(div) for div in root.iter("div"))
    return of_divs if of_divs else cheerio_text(root)


# ----- §5.3 white space ----------------------------------------------------------------------
def normalize(units: str) -> str:
    """§5.3: every run of JS white space is one space; the result is trimmed."""
    return trim(_W_RUN_RE.sub(" ", units))


# ----- §5.4 sentence segmentation -------------------------------------------------------------
def locale_upper(unit: str) -> str:
    """``unit.toLocaleUpperCase()`` (en-US) of one UTF-16 unit, as units: a lone surrogate
    stays, and the result may be longer (ß is SS)."""
    return NEWER_UPPER.get(unit) or to_units(unit.upper())


def follows_period_and_space(units: str, i: int) -> bool:
    """§5.4 step 1: unit ``i`` comes right after a "." and one or more white-space units
    (the look-behind /(?<=\\.\\s+)/ reads the text as it was, before any upper-casing)."""
    j = i
    while j > 0 and units[j - 1] in _W:
        j -= 1
    return j < i and j > 0 and units[j - 1] == "."


def uppercase_after_period(normalized: str) -> str:
    """§5.4 step 1: the copy U of N in which each non-white-space unit right after ". "
    is upper-cased."""
    return "".join(
        locale_upper(unit) if unit not in _W and follows_period_and_space(normalized, i) else unit
        for i, unit in enumerate(normalized)
    )


def icu_segments(units: str) -> list[tuple[int, int]]:
    """§5.4 step 2: ``Intl.Segmenter("en", {granularity: "sentence"})`` on ``units``: each
    segment's start and end in UTF-16 units. ICU is handed UTF-8, which has no lone
    surrogates; Intl.Segmenter breaks around one as around U+FFFD (one unit too), so that
    stands in for it and the offsets stay the same."""
    text = _LONE_SURROGATE_RE.sub("\ufffd", from_units(units))
    return list(SentenceBreaker(text, "en").segments())


def last_word(segment: str) -> str | None:
    """§5.4 step 3: the segment's final run without white space, when white space follows
    it to the end; None otherwise."""
    match = LAST_WORD_RE.search(segment)
    return match.group(1) if match else None


def joins_the_next(segment: str) -> bool:
    """§5.4 step 3: a segment whose last word is an abbreviation of the list (lowercased)
    or ends with ")" is joined to the next one."""
    word = last_word(segment)
    return word is not None and (word.lower() in ABBREVIATIONS or word.endswith(")"))


def rejoin(normalized: str, upper: str, segments: list[tuple[int, int]]) -> list[str]:
    """§5.4 step 3: the pieces, cut from N (the original case) at the ends of the segments
    of U that are not joined to the next. An upper-casing that changed a unit's length
    shifts every later offset (the spec's known defect, reproduced)."""
    pieces, left = [], 0
    for start, end in segments:
        if joins_the_next(upper[start:end]):
            continue
        pieces.append(normalized[left:end])
        left = end
    return pieces


def sentence_parse_output(pieces: list[str], exclude_non_letter: bool) -> list[str]:
    """§5.4 step 4: each piece trimmed; with excludeNonLetterSentences, the pieces with no
    letter (\\p{L}, before the trim) are left out."""
    return [
        from_units(trim(piece))
        for piece in pieces
        if not (exclude_non_letter and not _LETTER_RE.search(from_units(piece)))
    ]


def split_sentences(text: str, exclude_non_letter: bool = False) -> list[str]:
    """§5.2-§5.4: the sentences of a document's text, as sentence-parse returns them."""
    normalized = normalize(to_units(html_text(text)))
    upper = uppercase_after_period(normalized)
    pieces = rejoin(normalized, upper, icu_segments(upper))
    return sentence_parse_output(pieces, exclude_non_letter)


# ----- §6.2 similarities, §6.3 the dynamic threshold -------------------------------------------
def similarities(vectors: Sequence[Vector], lookahead: float) -> tuple[list[float], float, float]:
    """§6.2 ``computeAdvancedSimilarities``: each sentence's best cosine with the next
    one and those up to ``lookahead`` ahead; their mean and population variance, summed
    left to right (one sentence: 0/0, NaN; none: 0)."""
    n = len(vectors)
    sims = []
    for i in range(n - 1):
        best = cosine(vectors[i], vectors[i + 1])
        j = i + 2
        while j <= i + lookahead and j <= n - 1:
            best = max(best, cosine(vectors[i], vectors[j]))
            j += 1
        sims.append(best)
    if n == 0:
        return [], 0.0, 0.0
    if n == 1:
        return [], math.nan, math.nan
    total = 0.0
    for sim in sims:
        total += sim
    average = total / (n - 1)
    spread = 0.0
    for sim in sims:
        spread += (sim - average) ** 2
    return sims, average, spread / (n - 1)


def adjust_threshold(
    average: float, variance: float, base: float, lower: float, upper: float
) -> float:
    """§6.3 ``adjustThreshold``: the base moved by the spread and mean of the similarities,
    kept within the bounds; unchanged and unclamped when the bounds are invalid. (NaN
    compares false: one sentence gives the clamped base.)"""
    if lower >= upper:
        return base
    threshold = base
    if variance < 0.01:
        threshold -= 0.1
    elif variance > 0.05:
        threshold += 0.1
    if average < 0.3:
        threshold += 0.05
    elif average > 0.7:
        threshold -= 0.05
    return min(max(threshold, lower), upper)


# ----- §6.4 createChunks, §7 cramit -----------------------------------------------------------
def create_chunks(
    sentences: list[str],
    sims: Sequence[float] | None,
    threshold: float,
    max_tokens: float,
    count: Count,
) -> list[list[str]]:
    """§6.4 ``createChunks``; with ``sims`` None, §7 cramit (every similarity passes).

    Each chunk as its sentences (its text: them joined by one space). Sentence i joins
    the current chunk when sim[i-1] passes the threshold and the current chunk's count
    (its text counted) plus the sentence's stays within maxTokenSize. No sentences: one
    chunk, empty."""
    if not sentences:
        return [[]]
    chunks, current = [], [sentences[0]]
    for i in range(1, len(sentences)):
        passes = sims is None or sims[i - 1] >= threshold
        if passes and count(" ".join(current)) + count(sentences[i]) <= max_tokens:
            current.append(sentences[i])
        else:
            chunks.append(current)
            current = [sentences[i]]
    chunks.append(current)
    return chunks


# ----- §6.5 the combining pass ----------------------------------------------------------------
@dataclass(frozen=True)
class MergeLimits:
    """§6.5's options (§4): what may merge, and how much in one pass."""

    max_tokens: float  # maxTokenSize
    threshold: float  # combineChunksSimilarityThreshold
    max_merges_per_pass: float  # maxMergesPerPass
    max_uncapped_passes: float  # maxUncappedPasses
    max_merges_per_pass_percentage: float  # maxMergesPerPassPercentage
    uncapped_candidate_merges: float  # uncappedCandidateMerges


@dataclass(eq=False)
class Node:
    """§6.5: a chunk in the linked list. ``first``: the index of the initial chunk it
    began as (it names the node in the record of the passes)."""

    text: str
    tokens: int
    vector: Any
    first: int
    next: Node | None = None


class Merge(NamedTuple):
    """One merge of a pass: the nodes (by ``first``), their similarity and their token
    counts before it. ``phantom``: A had itself been absorbed earlier in the pass, so the
    list did not change (§6.5 step 5's quirk)."""

    a: int
    b: int
    similarity: float
    a_tokens: int
    b_tokens: int
    phantom: bool


@dataclass
class Pass:
    """One pass: every neighbour pair within maxTokenSize with its similarity (by
    ``first``), and the merges made, in order."""

    pairs: list[tuple[int, int, float]] = field(default_factory=list)
    merges: list[Merge] = field(default_factory=list)


@dataclass
class Combined:
    """What §6.5 leaves: the chunks' texts in list order, each one's ``first`` and token
    count, and the passes run."""

    chunks: list[str]
    firsts: list[int]
    tokens: list[int]
    passes: list[Pass]


def merge_limits(get: Callable[[str], Any]) -> MergeLimits:
    """§6.5's limits from the options (``get``: an option's value or its default, §4)."""
    return MergeLimits(
        max_tokens=get("maxTokenSize"),
        threshold=get("combineChunksSimilarityThreshold"),
        max_merges_per_pass=get("maxMergesPerPass"),
        max_uncapped_passes=get("maxUncappedPasses"),
        max_merges_per_pass_percentage=get("maxMergesPerPassPercentage"),
        uncapped_candidate_merges=get("uncappedCandidateMerges"),
    )


def pair_similarities(firsts: list[Vector], seconds: list[Vector]) -> list[float]:
    """§6.5 step 1: cos(A.vec, B.vec) of each pair."""
    return [cosine(a, b) for a, b in zip(firsts, seconds)]


def merge_limit(candidates: int, limits: MergeLimits) -> float:
    """§6.5 step 4: all candidates when there are few, else a share of them, capped."""
    if candidates <= limits.uncapped_candidate_merges:
        return candidates
    share = math.floor(candidates * limits.max_merges_per_pass_percentage / 100)
    return min(share, limits.max_merges_per_pass)


def listed(head: Node) -> list[Node]:
    """The nodes from ``head`` on, following ``next``."""
    nodes: list[Node] = []
    node: Node | None = head
    while node is not None:
        nodes.append(node)
        node = node.next
    return nodes


def combine(
    chunks: list[str],
    vectors: dict[str, Any],
    limits: MergeLimits,
    embed: Embed,
    count: Count,
    check: Callable[[], None],
    similarities_of: Callable[[list[Any], list[Any]], list[float]] = pair_similarities,
) -> Combined:
    """§6.5: passes of highest-similarity-first merges of neighbouring chunks.

    ``vectors``: the sentence map (§6.1); a chunk whose text is no sentence is embedded,
    all such in one batch. ``similarities_of`` works out step 1's cosines for a pass (the
    port hands in ``similarity.pair_similarities``, equal and vectorised). ``check``
    raises when the run is cancelled (once a pass)."""
    passes: list[Pass] = []
    if len(chunks) <= 1:
        return Combined(chunks, list(range(len(chunks))), [count(c) for c in chunks], passes)
    missing = list(dict.fromkeys(c for c in chunks if c not in vectors))
    embedded = dict(zip(missing, embed(missing))) if missing else {}
    nodes = [Node(c, count(c), vectors.get(c, embedded.get(c)), k) for k, c in enumerate(chunks)]
    for a, b in zip(nodes, nodes[1:]):
        a.next = b
    head = nodes[0]
    while len(passes) < limits.max_uncapped_passes:
        check()
        merged = _one_pass(head, limits, similarities_of, passes)
        for node, vector in zip(merged, embed([n.text for n in merged]) if merged else []):
            node.vector = vector  # step 6: every node merged, phantoms too, in one batch
        if not merged:  # step 2 or step 7: no merges, the loop stops
            break
    final = listed(head)
    return Combined(
        [n.text for n in final], [n.first for n in final], [n.tokens for n in final], passes
    )


def _one_pass(
    head: Node,
    limits: MergeLimits,
    similarities_of: Callable[[list[Any], list[Any]], list[float]],
    passes: list[Pass],
) -> list[Node]:
    """§6.5 steps 1-5 once, recorded in ``passes``: the nodes that absorbed another."""
    this = Pass()
    passes.append(this)
    nodes = listed(head)
    fitting = [(a, b) for a, b in zip(nodes, nodes[1:]) if a.tokens + b.tokens <= limits.max_tokens]
    sims = similarities_of([a.vector for a, _ in fitting], [b.vector for _, b in fitting])
    this.pairs = [(a.first, b.first, sim) for (a, b), sim in zip(fitting, sims)]
    candidates = [
        (a, b, sim, a.tokens + b.tokens)
        for (a, b), sim in zip(fitting, sims)
        if sim >= limits.threshold
    ]
    candidates.sort(key=lambda candidate: candidate[2], reverse=True)  # stable
    limit = merge_limit(len(candidates), limits)
    absorbers: list[Node] = []  # in the order they merged
    marked: set[Node] = set()  # the same: they absorbed another in this pass
    gone: set[Node] = set()  # the nodes absorbed from the list
    for a, b, sim, size in candidates:
        if len(absorbers) >= limit:  # a negative limit allows none, 2.5 three
            break
        if a in marked or b in marked:
            continue  # B is never marked: a later (B, C) still merges (the quirk)
        phantom = a in gone  # A is no longer listed: the list does not change
        this.merges.append(Merge(a.first, b.first, sim, a.tokens, b.tokens, phantom))
        a.text = f"{a.text} {b.text}"
        a.tokens = size
        a.vector = None
        a.next = b.next
        absorbers.append(a)
        marked.add(a)
        if not phantom:
            gone.add(b)
    return absorbers


# ----- one document: §6 chunkit, §7 cramit, §8 sentenceit -------------------------------------
def chunkit_chunks(
    text: str,
    get: Callable[[str], Any],
    embed: Embed,
    count: Count,
    check: Callable[[], None] = lambda: None,
) -> list[str]:
    """§5.1, §5, §6.1-§6.5: one document's chunks (``get``: an option or its default)."""
    sentences = split_sentences(join_line_breaks(text), bool(get("excludeNonLetterSentences")))
    distinct = list(dict.fromkeys(sentences))  # §6.1: one vector per distinct sentence
    vectors = dict(zip(distinct, embed(distinct)))
    sims, average, variance = similarities(
        [vectors[s] for s in sentences], get("numSimilaritySentencesLookahead")
    )
    threshold = adjust_threshold(
        average,
        variance,
        get("similarityThreshold"),
        get("dynamicThresholdLowerBound"),
        get("dynamicThresholdUpperBound"),
    )
    groups = create_chunks(sentences, sims, threshold, get("maxTokenSize"), count)
    chunks = [" ".join(group) for group in groups]
    if get("combineChunks"):
        chunks = combine(chunks, vectors, merge_limits(get), embed, count, check).chunks
    return chunks


def cramit_chunks(text: str, get: Callable[[str], Any], count: Count) -> list[str]:
    """§5, §7: one document's sentences packed up to maxTokenSize."""
    sentences = split_sentences(text, bool(get("excludeNonLetterSentences")))
    groups = create_chunks(sentences, None, 0, get("maxTokenSize"), count)
    return [" ".join(group) for group in groups]


def sentenceit_sentences(text: str, get: Callable[[str], Any]) -> list[str]:
    """§5, §8: one document's sentences, each a result."""
    return split_sentences(text, bool(get("excludeNonLetterSentences")))


# ----- §9 the chunk prefix --------------------------------------------------------------------
def has_prefix(prefix: Any) -> bool:
    """§9: a prefix is added when it is truthy and not blank."""
    return truthy(prefix) and not is_blank(str(prefix))


def apply_prefix(prefix: Any, text: str) -> str:
    """§9 ``applyPrefix``: "<p>: <chunk>", or the chunk as it is."""
    return f"{prefix}: {text}" if has_prefix(prefix) else text


def strip_prefix(prefix: str, texts: list[str]) -> list[str]:
    """§9 excludeChunkPrefixInResults: the first match of /^<p>:\\s*/ removed, the prefix
    unescaped; a prefix that is no valid regex rejects the call, when there is a text
    (JS builds the regex for each)."""
    source = f"^{prefix}:\\s*"
    if not texts:
        return []
    try:
        pattern = compile_js(source)
    except re.error as error:
        raise ChunkerError(
            "SyntaxError", f"Invalid regular expression: /{source}/: {error.msg}"
        ) from None
    return [pattern.sub("", text, count=1) for text in texts]
