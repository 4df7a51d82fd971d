"""How long does the lookup model of notebook 06 take to train, and how well does it learn?

    python benchmarks/bench_training.py [--repeats 3]

Trains attnlib.lookup's model with the notebook's settings (seed 0, 200
steps of 32 sequences, d = 16, d_k = d_v = 8) `repeats` times and prints the
median wall time, then the accuracy on 500 held-out sequences and the query
row's weight on the matching pair, averaged over them. Targets: at most 10 s,
at least 95 % accuracy, at least 0.8 weight. Then the √d_k experiment of the
notebook (d_k = 64), scaled against unscaled, with q and k coordinates of size 1
(qk_scale 1.0, the notebook's setting) and of size 0.3 (the default start).
"""

from __future__ import annotations

import argparse
import statistics
import time

from attnlib import lookup


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    train_task = lookup.make_task(4000, seed=0)
    held_out = lookup.make_task(500, seed=1)
    seconds = []
    for _ in range(args.repeats):
        start = time.perf_counter()
        history = lookup.train(lookup.init_params(seed=0), train_task, steps=200)
        seconds.append(time.perf_counter() - start)
    ev = lookup.evaluate(history.params, held_out)
    print(
        f"training, 200 steps x 32 sequences: median {statistics.median(seconds):.2f} s "
        f"of {args.repeats} runs ({', '.join(f'{s:.2f}' for s in seconds)})"
    )
    print(
        f"held-out accuracy {ev.accuracy:.1%}, weight on the matching pair {ev.match_weight:.3f}, "
        f"loss {ev.loss:.4f} nats"
    )
    print("√d_k experiment, d_k = 64: steps until the loss (mean of 10) is below 0.5 (- = not in")
    print("200 steps), and the loss over the last 20 steps, for 5 seeds of the start")
    for qk_scale in (1.0, 0.3):
        for scaled in (True, False):
            reached, final = [], []
            for seed in range(5):
                params = lookup.init_params(d_k=64, qk_scale=qk_scale, seed=seed)
                losses = lookup.train(params, train_task, steps=200, scaled=scaled).losses
                step = lookup.steps_to_reach(losses, 0.5)
                reached.append("-" if step is None else str(step))
                final.append(f"{losses[-20:].mean():.3f}")
            print(
                f"  qk_scale {qk_scale}, scaled={scaled!s:5}: steps {' '.join(reached):24} "
                f"final loss {' '.join(final)}"
            )


if __name__ == "__main__":
    main()
