"""What a class's slider moves cost the kernel: each student in a fresh process.

    python benchmarks/bench_class_walk.py                      # about 20 s
    PYTHONPATH=/path/to/older/checkout python benchmarks/bench_class_walk.py

``make class`` moves each student's explorer (notebook 05's: n = 6, d_k = 4,
seed = 0) K = 10 times: d_k, seed and n in turn, one step up or down at random.
The explorers draw in the page: a move of n or d_k is computed and drawn there,
and the kernel is only told (the page's ``controls`` message); a new seed asks
the kernel for that seed's numbers (X and each head's W_Q, W_K, W_V at their
widest). Each student runs in a process of its own, as each has a kernel of its
own. Per move: the CPU time of the thread (``time.thread_time``) that applies
the page's message (``Widget.set_state``, as the comm handler does), sends
nothing for n and d_k and the new numbers for a seed. No server, no websocket:
``bench_move`` adds those.

Runs the ``attnlib`` found on the path, so the same script measures an older
checkout (PYTHONPATH=that checkout) for a before/after in one sitting.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys

LIMITS = {"n": (2, 32), "d_k": (1, 64), "seed": (0, 99)}  # tests/classhub/simulation.py's
SLIDERS = ("d_k", "seed", "n")


def walk(student: int, moves: int) -> list[tuple[str, float]]:
    """One student's moves, as the class harness makes them: (slider, ms of CPU)."""
    import time

    import attnlib

    explorer = attnlib.explorer(n=6, d_k=4, seed=0)
    rng = random.Random(student)
    values = {name: getattr(explorer, name).value for name in SLIDERS}
    out = []
    for i in range(moves):
        name = SLIDERS[i % len(SLIDERS)]
        low, high = LIMITS[name]
        step = rng.choice((-1, 1))
        value = values[name] + step if low <= values[name] + step <= high else values[name] - step
        before = explorer.data
        start = time.thread_time()
        # what the page's message does in the kernel once it has drawn the move itself
        explorer.set_state({"controls": {**explorer.controls, name: value}})
        out.append((name, (time.thread_time() - start) * 1e3))
        # a seed needs the page to get new numbers; n and d_k need nothing from the kernel
        assert (explorer.data is not before) == (name == "seed"), name
        values[name] = value
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, default=12)
    parser.add_argument("--moves", type=int, default=10, help="K, as make class")
    parser.add_argument("--one", type=int, help=argparse.SUPPRESS)  # a student's process
    args = parser.parse_args()
    if args.one is not None:
        print(json.dumps(walk(args.one, args.moves)))
        return

    import attnlib

    print(f"attnlib {attnlib.__version__} from {os.path.dirname(attnlib.__file__)}")
    print(f"{args.students} students, {args.moves} moves each, every student in a new process")
    moves = []
    for student in range(args.students):
        done = subprocess.run(
            [sys.executable, __file__, "--one", str(student), "--moves", str(args.moves)],
            check=True,
            capture_output=True,
            text=True,
        )
        moves += json.loads(done.stdout.strip().splitlines()[-1])
    print("CPU per move, ms (median / p95 / max):")
    for name in (*SLIDERS, "all"):
        times = sorted(t for slider, t in moves if name in (slider, "all"))
        p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
        print(
            f"  {name:<5} {statistics.median(times):6.1f} / {p95:6.1f} / {times[-1]:6.1f}"
            f"   ({len(times)} moves)"
        )


if __name__ == "__main__":
    main()
