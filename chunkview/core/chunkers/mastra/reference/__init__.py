"""Mastra's ``MDocument.chunk`` as spec/mastra.md describes it, step by step: plain code
the tests run as the oracle of the fast paths.

- splitter.py: the base options (§3) and the text-splitter machinery (§4);
- character.py: §5.1; recursive.py: §5.2 to §5.5 (the library's loop);
- sentence.py: §6; markdown.py: §7 (and §5.3); semantic_markdown.py: §8;
- token.py: §9.1 (the tokenizer, §9.2 and §9.3, is ../token.py);
- html.py: §10.2, §10.3 (the parser, §10.1, is ../html_parser.py);
- json_chunker.py: §11 (JS values, ../json_values.py).

The fast paths that replace some of their steps are ../measured_split.py, ../placing.py
and ../fast.py; ../document.py lists the strategies both ways.
"""
