"""How much does attnlib.self_attention cost over bare numpy?

    python benchmarks/bench_attention.py [--repeats 15]

For n in {128, 512, 2048} with d = d_k = d_v = 64, prints the median time of
attnlib.self_attention beside the floor: the same three projections, scores,
stable softmax and weighted sum written in bare numpy with no checks, timed
in the same run with the calls interleaved. The target is a ratio of at most
1.2 at n = 2048: the argument checks must not cost more than 20 %.

Then, at n = 2048, the same call with a causal mask and with float32 inputs,
beside the plain float64 call: what a mask and single precision cost.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

import attnlib


def bare_numpy(X, W_Q, W_K, W_V):
    Q, K, V = X @ W_Q, X @ W_K, X @ W_V  # (n, d) @ (d, d_k) -> (n, d_k), likewise K, V
    scores = Q @ K.T  # (n, d_k) @ (d_k, n) -> (n, n)
    scores /= np.sqrt(W_Q.shape[1])
    # in place, as fast as numpy allows: the floor is the best bare version
    weights = np.exp(scores - scores.max(axis=1, keepdims=True), out=scores)  # (n, n)
    weights /= weights.sum(axis=1, keepdims=True)
    return weights @ V  # (n, n) @ (n, d_v) -> (n, d_v)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=15)
    args = parser.parse_args()
    d = d_k = 64
    print(f"self_attention vs bare numpy, d = d_k = d_v = {d}, median of {args.repeats} runs")
    print(f"{'n':>6} {'attnlib ms':>11} {'numpy ms':>9} {'ratio':>6}")
    for n in (128, 512, 2048):
        rng = np.random.default_rng(n)
        X = rng.standard_normal((n, d))
        W_Q, W_K, W_V = rng.standard_normal((3, d, d_k)) / np.sqrt(d)
        np.testing.assert_allclose(
            attnlib.self_attention(X, W_Q, W_K, W_V).Z,
            bare_numpy(X, W_Q, W_K, W_V),
            rtol=1e-9,
            atol=1e-12,
        )
        ours, floor = [], []
        for _ in range(args.repeats):  # interleaved, so both see the same machine load
            t = time.perf_counter()
            attnlib.self_attention(X, W_Q, W_K, W_V)
            ours.append(time.perf_counter() - t)
            t = time.perf_counter()
            bare_numpy(X, W_Q, W_K, W_V)
            floor.append(time.perf_counter() - t)
        a, b = statistics.median(ours) * 1e3, statistics.median(floor) * 1e3
        print(f"{n:>6} {a:>11.2f} {b:>9.2f} {a / b:>6.2f}")
    variants(X, W_Q, W_K, W_V, args.repeats)


def variants(X, W_Q, W_K, W_V, repeats: int) -> None:
    n = len(X)
    mask = attnlib.causal_mask(n)  # (n, n), made once, outside the timing
    single = [a.astype(np.float32) for a in (X, W_Q, W_K, W_V)]
    calls = {
        "float64": lambda: attnlib.self_attention(X, W_Q, W_K, W_V),
        "float64, causal mask": lambda: attnlib.self_attention(X, W_Q, W_K, W_V, mask=mask),
        "float32": lambda: attnlib.self_attention(*single),
    }
    times = {name: [] for name in calls}
    for _ in range(repeats):  # interleaved, as above
        for name, call in calls.items():
            t = time.perf_counter()
            call()
            times[name].append(time.perf_counter() - t)
    base = statistics.median(times["float64"])
    print(f"\nat n = {n}: {'variant':<22} {'ms':>8} {'x float64':>10}")
    for name, ts in times.items():
        median = statistics.median(ts)
        print(f"{'':>11}{name:<22} {median * 1e3:>8.2f} {median / base:>10.2f}")


if __name__ == "__main__":
    main()
