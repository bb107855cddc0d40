"""What crosses the pipe between the app and a chunking process: one frozen dataclass per
kind of request and reply, each with its job number.

Every message is pickled, most of them several times a second while a user drags a
slider: ``slots`` keeps each one small and quick to pickle, about as cheap as the tuple it
replaces. The app numbers a request when it sends it (``ChunkService.begin`` sets
``job``); every reply names the job it answers, so a late reply of a superseded job is
told apart from the one awaited.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal, TypeAlias

from chunkview.core.model.document import Document
from chunkview.core.runtime.packed import PackedLayout

if TYPE_CHECKING:
    from chunkview.core.runtime.pipeline import ChunkRequest

#: what a chunk request sends back: the layout (packed), or the JSON text of the
#: library's own result (``native``) or of the layout (``spans``)
Output: TypeAlias = Literal["layout", "native", "spans"]

#: a search hit as (chunk, at, snippet), ``SearchHit``'s fields in order: thousands of
#: hits pickle faster as tuples than as objects
HitRow: TypeAlias = tuple[int, int, str]

# ----- requests: the app to the process ----------------------------------------------


@dataclass(frozen=True, slots=True)
class DocumentShell:
    """The first message of a document: its fields but the text, and how many pieces of
    the text follow it (``child.send_document``). Not a job: nothing answers it."""

    document: Document
    pieces: int


@dataclass(frozen=True, slots=True)
class ChunkSpec:
    """A chunking request without its document (the process holds that)."""

    entry_id: str
    options: dict[str, Any]
    query: str = ""
    embedder: str | None = None
    tokenizer: str | None = None
    metadata: Any = None
    output: Output = "layout"
    #: the id of the layout the caller holds: sent again only when the chunks changed
    have_layout: int = 0
    #: record why each boundary is where it is (Span.reason)
    explain: bool = False
    #: a layout without its warnings and size statistics, sent sooner; a
    #: ``DetailsRequest`` asks for them
    details_later: bool = False
    job: int = 0

    @classmethod
    def of(
        cls,
        request: ChunkRequest,
        output: Output = "layout",
        have_layout: int = 0,
        details_later: bool = False,
    ) -> ChunkSpec:
        """``request`` without its document."""
        return cls(
            entry_id=request.entry_id,
            options=dict(request.options),
            query=request.query,
            embedder=request.embedder,
            tokenizer=request.tokenizer,
            metadata=request.metadata,
            output=output,
            have_layout=have_layout,
            explain=request.explain,
            details_later=details_later,
        )


@dataclass(frozen=True, slots=True)
class TokensRequest:
    """The token counts of layout ``layout_id``'s chunks, if it is still the last one,
    counted by ``tokenizer`` (a name, or a tokenizer file's path, read in the process)."""

    layout_id: int
    tokenizer: str = "cl100k"
    job: int = 0


@dataclass(frozen=True, slots=True)
class DetailsRequest:
    """The warnings, size statistics (and reasons) of layout ``layout_id``, if it is still
    the last one (it was sent with ``details_later``)."""

    layout_id: int
    job: int = 0


@dataclass(frozen=True, slots=True)
class CallRequest:
    """``function(*args, **kwargs)`` in the process (the function importable by name)."""

    function: Callable[..., Any]
    args: tuple = ()
    kwargs: dict[str, Any] = field(default_factory=dict)
    job: int = 0


@dataclass(frozen=True, slots=True)
class DescribeFileRequest:
    """Load the chunker file at ``path`` in the process and send back its entries'
    schemas (``plugins.described.FileChunkers``): the app never runs a user's file.
    ``seconds``: the top-level code's time (an alarm there, before the watchdog's)."""

    path: str
    seconds: float | None = None
    job: int = 0


#: a job the process runs (a ``DocumentShell`` comes before, outside any job)
Request: TypeAlias = ChunkSpec | TokensRequest | DetailsRequest | CallRequest | DescribeFileRequest

# ----- replies: the process to the app -----------------------------------------------


@dataclass(frozen=True, slots=True)
class JobProgress:
    job: int
    done: int
    total: int


@dataclass(frozen=True, slots=True)
class JobDone:
    """The job's answer: a ``PackedResult`` (a chunk request for a layout), JSON text (for
    ``native`` or ``spans``), token counts, ``PackedDetails`` or a call's value."""

    job: int
    value: Any


@dataclass(frozen=True, slots=True)
class JobCancelled:
    """The job stopped because a newer request superseded it."""

    job: int


@dataclass(frozen=True, slots=True)
class JobFailed:
    """The job raised: a port's error (its JS name) or any other exception."""

    job: int
    name: str
    message: str
    position: int | None = None
    #: the full traceback of an error in a user's own chunker (plugins), for the app's
    #: failure box; None for a port's error
    traceback: str | None = None


Reply: TypeAlias = JobProgress | JobDone | JobCancelled | JobFailed


@dataclass(frozen=True, slots=True)
class PackedResult:
    """What a chunk request for a layout sends back."""

    #: the job whose run made this layout: the caller sends it back as ``have_layout``
    layout_id: int
    #: None: the chunks did not change since ``have_layout`` (only the search did)
    packed: PackedLayout | None
    hits: list[HitRow]
    seconds: float
    stamps: dict[str, float]
