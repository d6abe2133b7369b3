"""What numba adds to each kernel's machine code besides its arithmetic, counted from the LLVM IR.

    python -m benchmarks.kernel_checks

Compiles every kernel afresh (into a temporary numba cache: a kernel loaded from the cache has no
IR to read) and prints, per compiled kernel, in its own native function (the Python wrapper left
out):

- negative-index checks: a signed index is compared with 0 and the array's length added when it
  is negative (`select ..., i64 <shape>, i64 0`); an unsigned index has none;
- reference counts: calls to NRT_incref / NRT_decref, each an atomic update; a helper that takes
  arrays and is not optimised away pays them at every call;
- raise sites: places that can raise an exception (each a test and a branch in the hot path),
  such as division by zero under numba's Python error model.
"""
from __future__ import annotations

import os
import re
import sys
import tempfile


def _native_body(llvm: str) -> str:
    """The IR of the kernel's own function: the first definition, not the CPython or C wrappers."""
    blocks = re.split(r"\n(?=define )", llvm)
    for block in blocks:
        header = block.split("(", 1)[0]
        if header.startswith("define") and "cpython" not in header and "cfunc." not in header:
            return block
    return ""


def counts(llvm: str) -> tuple[int, int, int]:
    """(negative-index checks, reference-count calls, raise sites) in the kernel's own function."""
    body = _native_body(llvm)
    wraparound = len(re.findall(r"select i1 %[\w.\"]+, i64 %arg\.[\w.]+\.5\.\d+, i64 0", body))
    references = len(re.findall(r"call void @NRT_(?:incref|decref)", body))
    raises = len(re.findall(r"store ptr @\.const\.picklebuf", body))
    return wraparound, references, raises


def main() -> int:
    os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="cfrviz-kernel-checks-")
    from numba.core.registry import CPUDispatcher

    from cfrviz import analysis
    from cfrviz.analysis import inspector
    from cfrviz.solvers import _cfr_kernel, _sampling_kernels, _snapshot, matrix
    from cfrviz.app.warmup import compile_kernels

    compile_kernels()
    print("| kernel | signatures | negative-index checks | reference counts | raise sites |")
    print("|---|---|---|---|---|")
    totals = [0, 0, 0, 0]
    for module in (_cfr_kernel, _sampling_kernels, _snapshot, analysis, matrix, inspector):
        for name, kernel in sorted(vars(module).items()):
            if not isinstance(kernel, CPUDispatcher) or kernel.py_func.__module__ != module.__name__:
                continue
            signatures = kernel.signatures
            if not signatures:
                continue
            found = [counts(kernel.inspect_llvm(signature)) for signature in signatures]
            summed = [sum(column) for column in zip(*found)]
            totals[0] += len(signatures)
            for k in range(3):
                totals[k + 1] += summed[k]
            print(f"| {module.__name__.rsplit('.', 1)[-1]}.{name} | {len(signatures)} | "
                  f"{summed[0]} | {summed[1]} | {summed[2]} |")
    print(f"| all | {totals[0]} | {totals[1]} | {totals[2]} | {totals[3]} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
