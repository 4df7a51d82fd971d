"""benchmarks/bench_class_walk.py: the class harness's moves, replayed in one process."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT / "tests"))
try:
    import bench_class_walk
    from classhub import simulation
finally:
    del sys.path[:2]


def test_the_walk_moves_as_the_class_harness_does():
    assert bench_class_walk.LIMITS == simulation.LIMITS
    moves = bench_class_walk.walk(student=3, moves=7)
    assert [name for name, _ in moves] == ["d_k", "seed", "n", "d_k", "seed", "n", "d_k"]
    assert all(ms > 0 for _, ms in moves)  # each move redrew (the walk asserts a new picture)
