"""The browser timeline's ES modules (cfrviz/figures/timeline_assets) and the joiner that makes one
script of them (cfrviz.figures.timeline_code).

References: issue 28's rules for the modules (none over 400 lines; a mode never replaces a method
of the core; one list of modes, TimelineMode's values; the payload's type written once, in
payload.js's JSDoc typedefs); ECMAScript module semantics for what the joined script must keep (a
module's top-level names are its own; a module runs after the modules it imports; an import names
what its module exports).
"""
from __future__ import annotations

import collections
import re
import shutil
import subprocess
from pathlib import Path

import pytest

import cfrviz
from cfrviz.figures.timeline import TimelineMode, build_payload
from cfrviz.figures.timeline_code import (ENTRY, MOUNT_FUNCTION, ModuleError, joined_script, timeline_script,
                                          timeline_source)

pytestmark = pytest.mark.kuhn_run(iterations=200, updates="simultaneous")

ASSETS = Path(cfrviz.__file__).parent / "figures" / "timeline_assets"
MODULES = sorted(ASSETS.rglob("*.js"))
MODE_FILES = sorted((ASSETS / "modes").glob("*.js"))
CORE_FILES = [p for p in MODULES if p.parent == ASSETS]
NODE = shutil.which("node")


def _relative(path: Path) -> str:
    return path.relative_to(ASSETS).as_posix()


# ---------------------------------------------------------------- the rules for the modules
def test_no_module_is_over_400_lines_and_there_is_no_timeline_js() -> None:
    assert not (ASSETS / "timeline.js").exists()
    long = {_relative(p): n for p in MODULES if (n := len(p.read_text(encoding="utf-8").splitlines())) > 400}
    assert long == {}


def _core_methods() -> set[str]:
    """The names a mode must never assign: the core's methods and exported functions."""
    names: set[str] = set()
    for path in CORE_FILES:
        text = path.read_text(encoding="utf-8")
        names |= set(re.findall(r"^  (?:async )?([A-Za-z_$][\w$]*)\([^)]*\) \{", text, re.M)) - {"constructor"}
        names |= set(re.findall(r"^export (?:async )?(?:function|const) ([A-Za-z_$][\w$]*)", text, re.M))
    return names


def method_assignments(text: str, methods: set[str]) -> list[str]:
    """Where `text` assigns to one of `methods` on any object, or touches a prototype."""
    found = [m.group(0) for m in re.finditer(r"\.\s*([A-Za-z_$][\w$]*)\s*=(?!=)", text) if m.group(1) in methods]
    return found + re.findall(r"\bprototype\b|Object\.(?:assign|defineProperty)\s*\(\s*tl\b", text)


def test_the_check_for_replaced_methods_sees_the_old_walkthroughs_overrides() -> None:
    # The walkthrough replaced these three before the modules (its lines, verbatim).
    old = ("tl.strategyAt = () => tl.walkStrategy;\n"
           "tl.select = (k) => { const s = tl.walkFirst.get(tl.b.nodes.id[k]); };\n"
           "tl.drawInspector = () => walkCard(tl);\n")
    assert len(method_assignments(old, _core_methods() | {"drawInspector", "select"})) == 3
    assert method_assignments("if (tl.f === 3) tl.selected = k;", _core_methods()) == []


def test_no_mode_replaces_a_method_of_the_core() -> None:
    methods = _core_methods()
    # The core has what the modes could be tempted to replace.
    assert {"strategyAt", "draw", "go", "select", "drawInspector", "buildTree", "drawTree"} <= methods
    assert {_relative(p): method_assignments(p.read_text(encoding="utf-8"), methods) for p in MODE_FILES} == \
        {_relative(p): [] for p in MODE_FILES}


# ---------------------------------------------------------------- one list of modes
def _modes_registered(path: Path) -> list[str]:
    return re.findall(r"registerMode\(\s*\"([^\"]+)\"", path.read_text(encoding="utf-8"))


def test_every_mode_has_one_module_and_every_module_one_mode() -> None:
    every = [name for path in MODULES for name in _modes_registered(path)]
    assert collections.Counter(every) == collections.Counter(m.value for m in TimelineMode)
    assert {_relative(p): len(_modes_registered(p)) for p in MODE_FILES} == {_relative(p): 1 for p in MODE_FILES}
    # The pages' modes are the files in modes/, each joined into the script.
    script = timeline_source(".js")
    assert all(f"// {'-' * 64} {_relative(p)}" in script for p in MODE_FILES)


def test_the_script_carries_timeline_modes_values() -> None:
    script = timeline_source(".js")
    line = next(x for x in script.splitlines() if x.startswith("const TIMELINE_MODES"))
    assert re.findall(r"\"(\w+)\"", line) == [m.value for m in TimelineMode]


# ---------------------------------------------------------------- the payload's type
def _typedef(name: str) -> tuple[set[str], set[str]]:
    """(required, optional) property names of the JSDoc typedef `name` in payload.js."""
    text = (ASSETS / "payload.js").read_text(encoding="utf-8")
    block = re.search(r"/\*\*((?:(?!\*/).)*?@typedef \{Object\} " + name + r"\b.*?)\*/", text, re.S)
    assert block, name
    props = re.findall(r"@property \{.*?\} (\[?)([A-Za-z_$][\w$]*)\]?", block.group(1))
    return {p for o, p in props if not o}, {p for o, p in props if o}


@pytest.mark.parametrize("with_run", [True, False])
def test_the_payload_has_the_fields_its_type_names(kuhn_run: cfrviz.Run, with_run: bool) -> None:
    payload = build_payload(kuhn_run.tree, kuhn_run if with_run else None, extra={"kind": "page"})
    required, optional = _typedef("Payload")
    assert required <= set(payload) <= required | optional
    if with_run:
        assert set(payload) == required | optional
    for name, value in [("Nodes", payload["nodes"]), ("Edges", payload["edges"]), ("Colors", payload["colors"]),
                        ("Layout", payload["layouts"][0]), ("InfoSet", payload["sets"][0])]:
        required, optional = _typedef(name)
        assert required <= set(value) <= required | optional, name


# ---------------------------------------------------------------- the joiner
def _folder(tmp_path: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


_MAIN = ('import { half } from "./a.js";\nimport { twice as two } from "./sub/b.js";\n'
         'const signed = "main";\n'
         'export default function (component) { return [half(component), two(component), signed, ORDER.join("")]; }\n')
_A = ('import { twice } from "./sub/b.js";\nconst signed = "a";\nORDER.push("a");\n'
      'export function half(x) { return twice(x) / 4; }\n')
_B = 'const signed = "b";\nORDER.push("b");\nexport const twice = (x) => 2 * x;\n'


def test_the_joiner_orders_modules_after_their_imports_and_keeps_their_names(tmp_path: Path) -> None:
    script = joined_script(_folder(tmp_path, {"main.js": _MAIN, "a.js": _A, "sub/b.js": _B}), "main.js", ("tree",))
    assert script.index("// ---------------------------------------------------------------- sub/b.js") < \
        script.index("// ---------------------------------------------------------------- a.js") < \
        script.index("// ---------------------------------------------------------------- main.js")
    assert script.count("export default function (component)") == 1
    if NODE is None:
        pytest.skip("node runs the joined script; it is not installed here")
    # Three modules each with a top-level `signed`: as modules they are three names, and so here.
    run = ("const ORDER = [];\n" + script.replace("export default function", "const mount = function") +
           "\nconsole.log(JSON.stringify(mount(8)));\n")
    out = subprocess.run([NODE, "--input-type=module"], input=run, capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == '[4,16,"main","ba"]'


@pytest.mark.parametrize(("files", "says"), [
    ({"main.js": 'import { x } from "./gone.js";\n' + _MAIN.split("\n", 2)[2]}, "gone.js does not exist"),
    ({"main.js": 'import * as a from "./a.js";\n' + _MAIN.split("\n", 2)[2], "a.js": _A}, "the joiner takes"),
    ({"main.js": 'import a from "./a.js";\n' + _MAIN.split("\n", 2)[2], "a.js": _A}, "the joiner takes"),
    ({"main.js": 'import { x } from "../out.js";\n' + _MAIN.split("\n", 2)[2]}, "outside the timeline's modules"),
    ({"main.js": 'import { nothing } from "./sub/b.js";\n' + _MAIN.split("\n", 2)[2], "sub/b.js": _B},
     "which does not export it"),
    ({"main.js": 'import { half } from "./a.js";\nexport default function (component) { return half; }\n',
      "a.js": 'import { y } from "./main.js";\nexport function half() {}\n'}, "in a cycle"),
    ({"main.js": 'import { half } from "./a.js";\nexport default function (component) { return half; }\n',
      "a.js": "export let half = 1;\n"}, "the joiner takes `export"),
    ({"main.js": 'import { half } from "./a.js";\nexport default function (component) { return half; }\n',
      "a.js": "const half = 1;\nexport { half };\n"}, "the joiner takes `export"),
    ({"main.js": 'export default function (component) { return import("./a.js"); }\n'}, "nothing is imported at run time"),
    ({"main.js": 'function f() {\n  import { x } from "./a.js";\n}\nexport default function (component) {}\n'},
     "at the start of a line"),
    ({"main.js": "export function mount(component) {}\n"}, "exactly one"),
])
def test_the_joiner_refuses_what_it_cannot_resolve(tmp_path: Path, files: dict[str, str], says: str) -> None:
    with pytest.raises(ModuleError, match=re.escape(says)):
        joined_script(_folder(tmp_path, files), "main.js", ("tree",))


def test_the_joiner_reads_imports_in_comments_and_strings_as_text(tmp_path: Path) -> None:
    # JSDoc's import("./x.js") types and a URL in a string are not imports.
    main = ('/** @param {import("./a.js").Thing} t */\nconst url = "http://www.w3.org/2000/svg";\n'
            "export default function (component) { return url; }\n")
    assert "http://www.w3.org/2000/svg" in joined_script(_folder(tmp_path, {"main.js": main}), "main.js", ("tree",))


def test_the_real_modules_join_into_the_host_interface() -> None:
    script = timeline_source(".js")
    assert ENTRY == "main.js" and script.count("export default function (component)") == 1
    assert script.rstrip().endswith("export default function (component) { return __cfrviz_main.default(component); }")
    # Every module is joined, once.
    assert sorted(re.findall(rf"^// {'-' * 64} (\S+)$", script, re.M)) == sorted(_relative(p) for p in MODULES)
    other = timeline_script()
    assert f"const {MOUNT_FUNCTION} = function (component)" in other and "export " not in other.split("\n")[-2]


@pytest.mark.skipif(NODE is None, reason="node loads the joined script; it is not installed here")
def test_the_joined_script_loads_as_a_module_with_every_mode() -> None:
    # checkModes() runs as main.js loads: it throws unless every TimelineMode is registered.
    script = timeline_source(".js") + "\nconsole.log(typeof __cfrviz_main.default);\n"
    out = subprocess.run([NODE, "--input-type=module"], input=script, capture_output=True, text=True, timeout=60)
    assert (out.returncode, out.stdout.strip()) == (0, "function"), out.stderr


# ---------------------------------------------------------------- the theme
def test_every_theme_variable_has_a_fallback() -> None:
    # A host that sets no --st-* variable (the HTML file, a notebook) still gets every colour: each
    # var() names a fallback, except --tl-paper and --tl-ink, which .tl itself defines from them.
    css = timeline_source(".css")
    assert set(re.findall(r"var\((--[\w-]+)\)", css)) == {"--tl-paper", "--tl-ink"}
    assert re.search(r"\.tl \{\s*--tl-paper: var\(--st-background-color, var\(--tl-host-paper, #ffffff\)\);\s*"
                     r"--tl-ink: var\(--st-text-color, #31333f\);", css)
