"""File formats cfrviz reads and writes, one module each."""
