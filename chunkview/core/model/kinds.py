"""The closed sets of words the model's fields take, as ``Literal`` types: mypy checks
every value written into such a field against its set."""

from __future__ import annotations

from typing import Literal, TypeAlias, get_args

#: how a chunk was placed in the text (``Span.located``): its text is the slice
#: (``exact``), equal but for white space or a rewrite (``normalized``), or not found
#: (``missing``: start == end at the last known place)
Located: TypeAlias = Literal["exact", "normalized", "missing"]

#: the unit a chunk's size is counted in (``Entry.size_unit``, ``Layout.size_unit``):
#: code points, UTF-16 code units, UTF-8 bytes or word-and-punctuation tokens
SizeUnit: TypeAlias = Literal["chars", "units", "bytes", "tokens"]

#: the kind of value an option takes (``Param.kind``), which decides its editor
ParamKind: TypeAlias = Literal["int", "float", "bool", "choice", "str", "json"]

#: the part a size option plays, for the histograms and the size warnings (``Param.role``)
ParamRole: TypeAlias = Literal["target", "max", "min", "overlap"]

#: what the ``at`` of a port's reasons counts (``Entry.reasons_at``): native chunk
#: indexes or code points of the text chunked
ReasonsAt: TypeAlias = Literal["chunk", "point"]

#: where a reason comes from (``Reason.source``): the library's own rule, recorded by a
#: port ("why the library cut here"), or what the cut falls on in the text, observed by
#: chunkview for a chunker that gives no reasons (a function, a library run as it is)
ReasonSource: TypeAlias = Literal["rule", "observed"]

#: one step of how a chunk came to be (``Stage.name``), in the replay's order
StageName: TypeAlias = Literal["gathered", "split", "merged", "cut", "overlapped"]

#: the values of ``Located``, in the order ``SpanTable`` numbers them
LOCATED: tuple[Located, ...] = get_args(Located)
#: the values of ``SizeUnit``
SIZE_UNITS: tuple[SizeUnit, ...] = get_args(SizeUnit)
#: how each unit is named to a user (Stats, the histogram, Sweep, the command line)
UNIT_NAMES: dict[str, str] = {
    "chars": "chars",
    "units": "UTF-16 code units",
    "bytes": "UTF-8 bytes",
    "tokens": "tokens",
}
