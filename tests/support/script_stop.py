"""A stand-in for Streamlit's StopException and RerunException in tests of the shared caches."""
from __future__ import annotations


class Stopped(BaseException):
    """Like Streamlit's StopException and RerunException: a script stopped, not a failed computation."""
