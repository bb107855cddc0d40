"""Ports of @framers/agentos 0.9.164 (spec/agentos.md)."""
