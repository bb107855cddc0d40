"""Whoever watches a run: the one way a port tells what it decided and where it cut.

A port is given an observer on its ``RunContext`` and tells it, as it goes, why each
boundary is where it is (``reason``) and, when it knows, where in the text it cut its
chunks (``placed``). The default observer (``NOBODY``) hears nothing, so the algorithm
calls it without asking first: there is no ``if notes is not None`` in a port.

``wants_reasons`` and ``wants_places`` say whether anyone listens. A port may read them
once, at its top, to choose between its reference (which tells everything) and a fast
path (which tells only what it can for free); it never tests them inside its loops.
"""

from __future__ import annotations

from typing import Any

from chunkview.core.model.explain import Reason


class RunObserver:
    """Hears nothing: the default. Subclass it (``RunNotes``) to listen."""

    #: someone reads the reasons: a port may take a slower path that gives them
    wants_reasons: bool = False
    #: someone reads where the port cut its chunks (``Entry.spans`` does, to place them)
    wants_places: bool = False

    def reason(self, reason: Reason) -> None:
        """Why the boundary at ``reason.at`` is there (see explain.py for ``at``)."""

    def placed(self, places: Any) -> None:
        """Where the port cut this run's chunks, in the port's own terms (its entry's
        ``spans`` reads them back): a port's places type, told once per run."""


#: the observer of a run nobody watches
NOBODY = RunObserver()


class RunNotes(RunObserver):
    """Keeps what a run tells: its reasons in order and its places (None: not told)."""

    def __init__(self, reasons: bool = True, places: bool = True) -> None:
        self.wants_reasons = reasons
        self.wants_places = places
        self.reasons: list[Reason] = []
        self.places: Any = None

    def reason(self, reason: Reason) -> None:
        if self.wants_reasons:
            self.reasons.append(reason)

    def placed(self, places: Any) -> None:
        if self.wants_places:
            self.places = places
