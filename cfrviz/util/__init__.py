"""Small pure helpers every layer may use: quoting text for messages and Markdown (`text`), bounded
JSON (`safe_json`), the memory one solve may plan for (`memory`) and the shared vocabularies
(`vocabulary`: algorithms, update schemes, players, strategy kinds, kernel modes), typed whole
numbers read one way for links and the CLI (`whole_numbers`), user-named files read from ordinary
files only, to a bound (`files`), and the least-recently-used cache within a count and bytes
(`bounded_cache`).
"""
from __future__ import annotations
