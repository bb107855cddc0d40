"""Port of Mastra's ``MDocument.chunk`` (@mastra/rag 1.3.6, spec/mastra.md).

- ``entry``: the Entry (schema, run, spans, copy-as-code); ``document``: the call itself
  (§1, §2) and the strategies listed as the reference writes them and as they run;
- ``reference/``: each strategy as the spec describes it, step by step (the oracle);
- fast paths, each naming the reference step it replaces: ``measured_split`` (the
  recursive split), ``placing`` (where the split's pieces lie), ``fast`` (character
  windows, sentences, fallback packing, chunk nodes);
- what the strategies read: ``validate`` (§2), ``token`` (js-tiktoken, §9.2, §9.3),
  ``html_parser`` (§10.1), ``json_values`` (JS values, §11), ``jsregex`` (JS regexes);
- what they tell the run's observer: ``explain`` and the ``*_explain`` modules (reasons),
  ``places`` (where the measured split cut each chunk).
"""
