"""The site's command line: `cfrviz site build DIR [--menu FILE] [--app-url URL]`, also run as
`python -m cfrviz.site build DIR ...`. Every bad argument or menu entry is one sentence and exit status 2."""
from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from cfrviz.site.menu import Menu, default_menu, read_menu_file, small_menu
from cfrviz.util.files import write_failure

USAGE_ERROR = 2
#: The environment variable naming the full app's public address (the app's Share box reads it too).
PUBLIC_URL_VARIABLE = "CFRVIZ_PUBLIC_URL"
#: Where links to the full app point when no address is configured: a local `streamlit run app.py`.
LOCAL_APP = "http://localhost:8501"
#: Menus known by name; anything else is a path to a .json or .toml file.
MENUS = {"default": default_menu, "small": small_menu}


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise ValueError(f"{message[:1].upper()}{message[1:]}; see `cfrviz site build --help`.")


def app_address(text: str) -> str:
    """A public http(s) address of the full app, without a trailing slash (ValueError otherwise)."""
    address = text.strip().rstrip("/")
    if not address.startswith(("http://", "https://")) or any(c.isspace() or c in "\"'<>`" for c in address) \
            or len(address) > 300 or "?" in address or "#" in address:
        raise ValueError(f"--app-url must be the app's http:// or https:// address, such as "
                         f"https://cfrviz.example.org, not {text!r}.")
    return address


def add_parser(commands: Any) -> argparse.ArgumentParser:
    """Add `site build` to a subcommand group (`cfrviz`'s command line); returns the `site` parser."""
    site: argparse.ArgumentParser = commands.add_parser("site", help="build the static site (every page as plain files)",
                               description="Build cfrviz as a static site for any static host.")
    fill(site)
    return site


def fill(site: argparse.ArgumentParser) -> None:
    """The `build` subcommand and its arguments, on `site`."""
    actions = site.add_subparsers(dest="site_command", metavar="build", parser_class=_Parser)
    build = actions.add_parser(
        "build", help="solve the menu's runs and write the site into DIR",
        description="Solve the menu's runs once and write HTML pages, the timeline's script and style, and one "
                    "data file per run and view into DIR. Open DIR/index.html, or serve DIR with any static server.")
    build.add_argument("folder", type=Path, metavar="DIR", help="an empty or new folder (or one this command wrote)")
    build.add_argument("--menu", default="default", metavar="FILE",
                       help="the runs to build: a .json or .toml file, or 'default' (issue 29's menu) or 'small' "
                            "(a few small runs, for tests)")
    build.add_argument("--app-url", default=None, metavar="URL",
                       help=f"the full app's public address, where views the site did not build are linked "
                            f"(default: ${PUBLIC_URL_VARIABLE}, else {LOCAL_APP})")


def run(args: argparse.Namespace) -> int:
    """Run a parsed `site` command; returns the exit status (2 after one sentence on stderr)."""
    from cfrviz.site.build import build_site

    try:
        if getattr(args, "site_command", None) != "build":
            raise ValueError("Give a site command: `cfrviz site build DIR`.")
        configured = args.app_url if args.app_url is not None else os.environ.get(PUBLIC_URL_VARIABLE, "")
        app = app_address(configured) if configured.strip() else LOCAL_APP
        menu: Menu = MENUS[args.menu]() if args.menu in MENUS else read_menu_file(Path(args.menu))
        started = time.perf_counter()
        built = build_site(args.folder, menu, app, say=lambda line: print(line, flush=True))
    except ValueError as problem:
        print(f"cfrviz: {problem}", file=sys.stderr)
        return USAGE_ERROR
    except OSError as error:
        print(f"cfrviz: {write_failure(error)}", file=sys.stderr)
        return USAGE_ERROR
    print(f"Wrote {built.files} files, {built.total_bytes / 1e6:.1f} MB, into {built.folder} in "
          f"{time.perf_counter() - started:.0f} s. Links to the full app point at {app}.")
    if app == LOCAL_APP:
        print(f"Set --app-url (or ${PUBLIC_URL_VARIABLE}) to the public app's address before publishing.")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m cfrviz.site ...`."""
    parser = _Parser(prog="python -m cfrviz.site", description="Build cfrviz as a static site.")
    fill(parser)
    try:
        args = parser.parse_args(argv)
    except ValueError as problem:
        print(f"cfrviz: {problem}", file=sys.stderr)
        return USAGE_ERROR
    return run(args)
