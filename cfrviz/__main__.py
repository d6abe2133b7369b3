"""`python -m cfrviz ...`: see `cfrviz.cli`."""
from __future__ import annotations

from cfrviz.cli import main

raise SystemExit(main())
