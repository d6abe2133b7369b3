"""Small pure helpers every layer may use: quoting text for messages and Markdown (`text`), bounded
JSON (`safe_json`), the memory one solve may plan for (`memory`) and the shared vocabularies
(`vocabulary`: algorithms, update schemes, players, strategy kinds, kernel modes).
"""
from __future__ import annotations
