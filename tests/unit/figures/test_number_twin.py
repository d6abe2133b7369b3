"""The timeline's number format (util.js `number`) writes every number as the pages do
(cfrviz.util.text.number), exploitability with rounding noise clamped as they clamp it: the same strings
for the same values (issue 30, defect 5).

Reference: cfrviz.util.text.number itself (Python's format rules: `.2e` below 0.001, `.3g` up to 1,000,
`,.0f` above, each rounding the double's exact value with an exact tie to even). The values are the
format's edges (0.001, 999.5 becoming "1e+03", 2^53, 1e21), exact ties such as 100.5 and 2,500.5 (JS's own
rounding takes them up), and seeded random values over 14 orders of magnitude and dyadic fractions.
The JS runs in node, as tests/js's type check does.
"""
from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import cfrviz
from cfrviz.util.text import clamped_exploitability, number

NODE = shutil.which("node")
UTIL = Path(cfrviz.__file__).parent / "figures" / "timeline_assets" / "util.js"
EDGES = [0.0, -0.0, 1e-3, 0.00099999, 9.995e-4, 9.9949e-4, 5e-324, 1e-300, 7.2663e-05, 0.0072663, 0.25, 0.5, 1.0,
         999.4999, 999.5, 999.6, 1000.0, 1000.5, 1001.5, 2500.5, 3500.5, 99999.5, 12345.6, 2.0 ** 53, 2.0 ** 53 + 2,
         1e21, 1.5e22, 1.7976931348623157e308, 100.5, 101.5, 10.25, 10.75, 1.125, 1.375, 0.1875, 0.0625, 123.5,
         124.5, 12.25, 0.015625, 6.94e-18, 1e-9, 9.99e-10, 1.1e-9, float("nan"), float("inf")]


def _values() -> list[float]:
    rng = np.random.default_rng(30)
    spread = (10.0 ** rng.uniform(-7, 7, 3000)).tolist()
    dyadic = (rng.integers(1, 2 ** 20, 3000) / 2.0 ** rng.integers(1, 14, 3000)).tolist()
    values = EDGES + spread + dyadic
    return values + [-v for v in values]


def _js_numbers(values: list[float]) -> list[list[str]]:
    # Python's repr is the shortest text that reads back as the same double, in JS too.
    texts = [{"inf": "Infinity", "-inf": "-Infinity"}.get(repr(v), repr(v)) for v in values]
    script = UTIL.read_text(encoding="utf-8") + f"""
const texts = {json.dumps(texts)};
console.log(JSON.stringify(texts.map((t) => [number(Number(t)), number(Number(t), {{ signed: true }}),
                                             number(clampedExploitability(Number(t)))])));
"""
    out = subprocess.run([NODE, "--input-type=module"], input=script, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


@pytest.mark.skipif(NODE is None, reason="node runs the timeline's util.js; it is not installed here")
def test_the_timeline_writes_every_number_as_the_pages_do() -> None:
    values = _values()
    shown = _js_numbers(values)
    expected = [[number(v), number(v, signed=True), number(clamped_exploitability(v))] for v in values]
    wrong = [(v, js, py) for v, js, py in zip(values, shown, expected) if js != py]
    assert wrong == [], wrong[:10]
    # The format's own examples (its docstring), so the list above is the pages' format and not the JS's.
    assert [number(v) for v in (0.0072663, 7.2663e-05, 999.5, 100.5, 2500.5)] == \
        ["0.00727", "7.27e-05", "1e+03", "100", "2,500"]
