"""Benchmarks of cfrviz against other solvers, kept outside the package: `python -m benchmarks.speed`."""
