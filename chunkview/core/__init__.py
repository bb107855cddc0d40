"""The pure-Python core: documents, ports, spans and layouts. Never imports Qt."""
