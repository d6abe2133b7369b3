"""What a user is told when cfrviz refuses: one sentence, never a traceback (the house rule for bad input)."""
from __future__ import annotations

import re


def one_sentence(message: str) -> bool:
    """One line ending in a full stop, with no traceback text and no second sentence outside quoted
    strings (a game string such as 'y(board_size=-1)' may hold a full stop of its own)."""
    unquoted = re.sub(r"'[^']*'", "''", message)
    return (message.endswith(".") and "\n" not in message and "Traceback" not in message
            and re.search(r"[.!?]\s+[A-Z]", unquoted) is None)
