"""Port of Mastra's ``MDocument.chunk`` (@mastra/rag 1.3.6, spec/mastra.md): one module
per strategy, the shared text-splitter machinery, and ``document`` for the call itself."""
