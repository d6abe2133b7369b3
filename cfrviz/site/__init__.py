"""The static cfrviz: every page of the learner's path as plain files, with runs computed when the
site is built, for any static host (`cfrviz site build DIR`, `python -m cfrviz.site build DIR`).

A front end beside the app and the command line: `menu` (which runs a build computes, checked),
`data` (one payload file per run and view, from the app's payload builder), `pages` and `markup`
(the HTML), `build` (writes the folder) and `command` (the command line).
"""
from __future__ import annotations

from cfrviz.site.build import build_site
from cfrviz.site.menu import default_menu, read_menu_file, small_menu

__all__ = ["build_site", "default_menu", "read_menu_file", "small_menu"]
