"""Port of semantic-chunking 3.0.2 (spec/semantic-chunking.md): chunkit, cramit and
sentenceit, with sentence-parse 1.3.1's sentence splitter.

``entry`` holds the Entries and ``chunker`` the calls; ``reference`` is the algorithm as
the spec tells it, step by step (the tests' oracle). ``sentences``, ``similarity`` and
``packing`` are the fast paths, each naming the reference function it replaces;
``html_parser`` is the HTML parser both read documents with; ``explain`` tells the
reasons."""
