"""Port of semantic-chunking 3.0.2 (spec/semantic-chunking.md): chunkit, cramit and
sentenceit, with sentence-parse 1.3.1's sentence splitter."""
