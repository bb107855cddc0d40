"""Differential conformance harness: the ports against the pinned original libraries.

``python -m conformance --seed N --cases 2000`` installs the originals with npm into a cache
folder (once), generates seeded cases, runs both sides with a time limit per case, compares
them as the golden tests do, shrinks every mismatch and writes it as a golden case.
"""
