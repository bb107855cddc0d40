"""The Qt layer: a thin view over chunkview.core."""
