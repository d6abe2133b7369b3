"""cfrviz's version, written once: the package's metadata reads it from here (pyproject.toml's
dynamic version), and what cfrviz writes (an HTML page's header) says it, installed or not."""
from __future__ import annotations

VERSION = "0.1.0"
