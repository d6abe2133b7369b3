"""`python -m cfrviz.site build DIR [--menu FILE] [--app-url URL]`."""
from __future__ import annotations

import sys

from cfrviz.site.command import main

sys.exit(main())
