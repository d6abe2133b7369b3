"""Teaching: one iteration step by step (`walkthrough`), playing hands against a strategy (`play`) and
algorithms side by side (`compare`).
"""
from __future__ import annotations
