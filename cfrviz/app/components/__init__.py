"""The app's browser components (Streamlit components v2): the timeline's Python, JavaScript and CSS."""
from __future__ import annotations
