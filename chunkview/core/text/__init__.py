"""Text primitives shared by the ports: JS string semantics, lexical tokens, segmentation."""
