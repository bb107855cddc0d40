"""One package or module per ported library, named after it."""

#: the library each port follows: (library, npm package and version it matches)
PORTED = (
    ("agentos", "@framers/agentos 0.9.164"),
    ("smartchunk", "smartchunk, from its README (no reference code to run)"),
    ("mastra", "@mastra/rag 1.3.6"),
    ("semantic-chunking", "semantic-chunking 3.0.2"),
)
