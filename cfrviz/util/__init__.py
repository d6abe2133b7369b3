"""Small pure helpers every layer may use: quoting text for messages and Markdown (`text`), bounded
JSON (`safe_json`) and the memory one solve may plan for (`memory`).
"""
from __future__ import annotations
