"""One package or module per ported library, named after it."""
