"""The browser timeline's script and style, as text, for every home of the timeline (the Streamlit
component, the one HTML file, the notebook widget).

The script is written as ES modules in `timeline_assets/` (`main.js` is the entry: its default
export is the host interface). No home may need a JavaScript build tool (a pip or Streamlit Cloud
install has no node), so this module joins them into one script itself, in dependency order: each
module becomes a function scope of its own (its top-level names stay its own; what it imports is
read from the modules it names), and the list of modes, `TimelineMode`'s values, is written in
front as `TIMELINE_MODES` (registry.js registers a mode only under one of them). The joiner takes
only the few forms of `import` and `export` the modules use and refuses anything else with a
`ModuleError`, rather than guess.
"""
from __future__ import annotations

import functools
import json
import posixpath
import re
from dataclasses import dataclass
from importlib import resources
from importlib.resources.abc import Traversable

from cfrviz.figures.timeline import TimelineMode

_ASSETS = resources.files("cfrviz.figures").joinpath("timeline_assets")
ENTRY = "main.js"

#: The host interface every home calls: `mountTimeline(component)`, where component is
#: {key, data, parentElement, setStateValue, setTriggerValue} as Streamlit's components v2 gives it:
#: data is the header line (JSON) + "\n" + the payload, and the two callbacks hear t, node, kind
#: and the page events back. Calling it again on the same element with a new header re-draws.
MOUNT_FUNCTION = "mountTimeline"
_EXPORT = "export default function (component)"

# `import { a, b as c } from "./x.js";` (the braces may span lines) or `import "./x.js";`.
_IMPORT = re.compile(r'import\s*(?:\{(?P<names>[^}]*)\}\s*from\s*)?"(?P<spec>\.\.?/[^"]+\.js)";[ \t]*(?:\n|$)')
_EXPORT_DECL = re.compile(r"export (?:async function|function|class|const) ([A-Za-z_$][\w$]*)\b")
_NAME = re.compile(r"[A-Za-z_$][\w$]*$")
# Comments, to look for what the joiner refuses in the code alone (`//` after a quote or colon is
# in a string, as in "http://...").
_COMMENTS = re.compile(r"/\*.*?\*/|(?<![:\"'\w])//[^\n]*", re.S)


class ModuleError(ValueError):
    """A timeline module the joiner cannot join: an import it cannot resolve, a form of import or
    export it does not take, a cycle, or a name imported that the module named does not export."""


@dataclass(frozen=True)
class _Module:
    path: str                                   # relative to timeline_assets/, e.g. "modes/play.js"
    imports: tuple[tuple[str, tuple[tuple[str, str], ...]], ...]   # (path, ((exported, local), ...))
    exports: tuple[str, ...]
    body: str                                   # the text with its imports taken out


def _variable(path: str) -> str:
    """The name the joined script keeps module `path`'s exports under."""
    return "__cfrviz_" + re.sub(r"\W", "_", path.removesuffix(".js"))


def _read(path: str, folder: Traversable) -> str:
    node = folder
    for part in path.split("/"):
        node = node.joinpath(part)
    if not node.is_file():
        raise ModuleError(f"The timeline module {path} does not exist.")
    return node.read_text(encoding="utf-8")


def _parse(path: str, text: str, entry: bool) -> _Module:
    imports: list[tuple[str, tuple[tuple[str, str], ...]]] = []
    body: list[str] = []
    at = 0
    for line_start in [m.start() for m in re.finditer(r"^import\b", text, re.M)]:
        found = _IMPORT.match(text, line_start)
        if not found:
            line = text[line_start:].split("\n", 1)[0]
            raise ModuleError(f"{path}: the joiner takes `import {{ a, b as c }} from \"./x.js\";` or "
                              f"`import \"./x.js\";`, not: {line}")
        body.append(text[at:line_start])
        at = found.end()
        target = posixpath.normpath(posixpath.join(posixpath.dirname(path), found["spec"]))
        if target.startswith("../"):
            raise ModuleError(f"{path}: {found['spec']} is outside the timeline's modules.")
        names: list[tuple[str, str]] = []
        for item in (found["names"] or "").split(","):
            if not item.strip():
                continue
            parts = item.split()
            if len(parts) == 1 and _NAME.match(parts[0]):
                names.append((parts[0], parts[0]))
            elif len(parts) == 3 and parts[1] == "as" and _NAME.match(parts[0]) and _NAME.match(parts[2]):
                names.append((parts[0], parts[2]))
            else:
                raise ModuleError(f"{path}: cannot read the imported name {item.strip()!r}.")
        imports.append((target, tuple(names)))
    body.append(text[at:])
    code = "".join(body)
    bare = _COMMENTS.sub("", code)
    if re.search(r"^[ \t]+(import|export)\b", bare, re.M) or re.search(r"\bimport\s*\(|\bimport\.meta\b", bare):
        raise ModuleError(f"{path}: imports and exports go at the start of a line at the top level, "
                          "and nothing is imported at run time.")
    exports: list[str] = []
    default = 0
    for found_export in re.finditer(r"^export\b.*", code, re.M):
        line = found_export.group(0)
        declared = _EXPORT_DECL.match(line)
        if declared:
            exports.append(declared.group(1))
        elif entry and line.startswith(_EXPORT):
            default += 1
        else:
            raise ModuleError(f"{path}: the joiner takes `export function|async function|class|const name`"
                              f"{' and the entry default export' if entry else ''}, not: {line}")
    if entry and default != 1:
        raise ModuleError(f"{path}: the entry module has exactly one `{_EXPORT}`.")
    code = re.sub(r"^export (?=async function|function|class|const)", "", code, flags=re.M)
    code = code.replace(_EXPORT, "const __default = function (component)")
    return _Module(path, tuple(imports), tuple(exports + (["default"] if entry else [])), code)


def _modules(folder: Traversable = _ASSETS, entry: str = ENTRY) -> list[_Module]:
    """The modules `entry` needs, each after every module it imports."""
    order: list[_Module] = []
    done: set[str] = set()

    def visit(path: str, chain: tuple[str, ...]) -> None:
        if path in chain:
            raise ModuleError(f"The timeline's modules import each other in a cycle: {' -> '.join(chain + (path,))}.")
        if path in done:
            return
        module = _parse(path, _read(path, folder), entry=path == entry)
        for target, _ in module.imports:
            visit(target, chain + (path,))
        done.add(path)
        order.append(module)

    visit(entry, ())
    exported = {m.path: set(m.exports) for m in order}
    for module in order:
        for target, names in module.imports:
            missing = [name for name, _ in names if name not in exported[target] or name == "default"]
            if missing:
                raise ModuleError(f"{module.path} imports {', '.join(missing)} from {target}, which does not export it.")
    return order


def joined_script(folder: Traversable = _ASSETS, entry: str = ENTRY,
                  modes: tuple[str, ...] = tuple(TimelineMode)) -> str:
    """The modules under `folder`, from `entry`, as one module text whose only export is
    `export default function (component)`: `entry`'s default export."""
    parts = ["// cfrviz timeline: its ES modules (cfrviz/figures/timeline_assets), joined by cfrviz.figures.timeline_code.",
             f"const TIMELINE_MODES = Object.freeze({json.dumps(list(modes))});"]
    for module in _modules(folder, entry):
        lines = [f"// ---------------------------------------------------------------- {module.path}",
                 f"const {_variable(module.path)} = (() => {{"]
        for target, names in module.imports:
            if names:
                taken = ", ".join(name if name == local else f"{name}: {local}" for name, local in names)
                lines.append(f"const {{ {taken} }} = {_variable(target)};")
        lines.append(module.body.strip("\n"))
        exports = ", ".join("default: __default" if name == "default" else name for name in module.exports)
        lines.append(f"return Object.freeze({{ {exports} }});")
        lines.append("})();")
        parts.append("\n".join(lines))
    parts.append(f"{_EXPORT} {{ return {_variable(entry)}.default(component); }}")
    return "\n".join(parts) + "\n"


@functools.cache
def _script() -> str:
    # Joined once per process: the modules ship with the package and do not change while it runs.
    return joined_script()


def timeline_script() -> str:
    """The timeline's script for a home that is not Streamlit (the HTML file, the notebook widget):
    no export, one function named MOUNT_FUNCTION, and nothing that could end a <script> element."""
    script = timeline_source(".js")
    if script.count(_EXPORT) != 1 or "</script" in script.lower():
        raise RuntimeError("The timeline's script no longer ends in one default export, as its homes need.")
    return script.replace(_EXPORT, f"const {MOUNT_FUNCTION} = function (component)")


def timeline_source(suffix: str) -> str:
    """The timeline's script (".js": the modules joined, a module text with one default export, as
    Streamlit's components v2 takes it) or style (".css": the core's, then each mode's)."""
    if suffix == ".js":
        return _script()
    if suffix != ".css":
        raise ValueError(f"The timeline has .js and .css sources, not {suffix!r}.")
    folder = _ASSETS.joinpath("modes")
    modes = sorted((f for f in folder.iterdir() if f.name.endswith(suffix)), key=lambda f: f.name) \
        if folder.is_dir() else []
    core = _ASSETS.joinpath("timeline.css").read_text(encoding="utf-8")
    return "\n".join([core, *(f.read_text(encoding="utf-8") for f in modes)])
