"""The Chinese edition's notebooks run under nbval with numpy held to its baseline
SIMD kernels and one thread (conftest.py): the stored outputs, the same numbers in
both editions, must come out the same on a plainer CPU. This checks that the kernel
nbval starts for a notebook in notebooks/zh really computes that way, and that one
for notebooks/ does not."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

kernel = pytest.importorskip("nbval.kernel")

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"

PROBE = """
import json, os
try:
    from numpy._core import _multiarray_umath as m
except ImportError:
    from numpy.core import _multiarray_umath as m
print(json.dumps({"simd": sorted(f for f in m.__cpu_dispatch__ if m.__cpu_features__.get(f)),
                  "threads": os.environ.get("OMP_NUM_THREADS")}))
"""


def simd_in_kernel(cwd: Path) -> dict:
    km, kc = kernel.start_new_kernel(kernel_name=kernel.CURRENT_ENV_KERNEL_NAME, cwd=str(cwd))
    try:
        printed = []
        kc.execute_interactive(
            PROBE,
            timeout=30,
            output_hook=lambda msg: printed.append(msg["content"].get("text", "")),
        )
        return json.loads("".join(printed))
    finally:
        kc.stop_channels()
        km.shutdown_kernel(now=True)


def test_nbval_runs_the_chinese_edition_on_baseline_simd_and_one_thread():
    assert getattr(kernel.start_new_kernel, "another_cpu", False), "conftest.py did not hook nbval"
    here = simd_in_kernel(NOTEBOOKS)
    plain = simd_in_kernel(NOTEBOOKS / "zh")
    assert plain == {"simd": [], "threads": "1"}, plain
    assert here == simd_here(), here  # the English edition: numpy as this process has it


def simd_here() -> dict:
    try:
        from numpy._core import _multiarray_umath as m
    except ImportError:
        from numpy.core import _multiarray_umath as m
    found = sorted(f for f in m.__cpu_dispatch__ if m.__cpu_features__.get(f))
    return {"simd": found, "threads": os.environ.get("OMP_NUM_THREADS")}
