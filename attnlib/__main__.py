"""``python -m attnlib``: write the two-panel picture (scores | weights) of the toy sentence.

    python -m attnlib --n 6 --d-k 4 --seed 0 --out attention.png
    python -m attnlib --n 32 --size large --out slide.png

The format follows the file's suffix (png, pdf, svg). Bad arguments get a
usage message and exit code 2.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from .maths.core import self_attention
from .maths.data import MAX_SEED, toy_example


def _int_in(name: str, low: int, high: int):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{name} must be an integer, got {text!r}") from None
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{name} must be from {low} to {high}, got {value}")
        return value

    return parse


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m attnlib",
        description="Write the scores | weights heatmaps of self-attention on the toy sentence.",
    )
    parser.add_argument(
        "--n", type=_int_in("--n", 1, 64), default=6, help="tokens, 1 to 64 (default 6)"
    )
    parser.add_argument(
        "--d-k",
        type=_int_in("--d-k", 1, 512),
        default=4,
        help="query/key size, 1 to 512 (default 4)",
    )
    parser.add_argument(
        "--d", type=_int_in("--d", 1, 512), default=8, help="embedding size, 1 to 512 (default 8)"
    )
    parser.add_argument(
        "--seed", type=_int_in("--seed", 0, MAX_SEED), default=0, help="random seed (default 0)"
    )
    parser.add_argument(
        "--size",
        choices=["normal", "large"],
        default="normal",
        help="'large' for slides and projectors (default normal)",
    )
    parser.add_argument(
        "--out",
        default="attention.png",
        help="file to write; .png, .pdf or .svg (default attention.png)",
    )
    return parser


def _fail(message: str) -> int:
    """One line on stderr and exit code 2, as argparse does for bad arguments."""
    print(f"python -m attnlib: error: {message}", file=sys.stderr)
    return 2


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns 0 on success, 2 when --out cannot be written
    (argparse exits with 2 on other bad arguments).

    Examples
    --------
    >>> import tempfile, pathlib
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "a.png"
    >>> main(["--n", "4", "--out", str(out)])  # doctest: +ELLIPSIS
    wrote .../a.png (n = 4, d = 8, d_k = 4, seed = 0)
    0
    """
    parser = _parser()
    args = parser.parse_args(argv)
    out = Path(args.out)
    if args.out.endswith(("/", os.sep)) or out.is_dir():
        return _fail(
            f"--out {args.out!r} is a folder; give a file name, e.g. {str(out / 'attention.png')!r}"
        )
    suffix = out.suffix.lower().lstrip(".")
    if suffix not in {"png", "pdf", "svg"}:
        parser.error(f"--out must end in .png, .pdf or .svg, got {args.out!r}")
    if not out.parent.is_dir():
        parser.error(f"--out: folder {str(out.parent)!r} does not exist")
    if not os.access(out.parent, os.W_OK):
        return _fail(
            f"--out: cannot write {args.out!r}: no permission to write in {str(out.parent)!r}"
        )

    from .pictures.plotting import plot_attention  # matplotlib only once the arguments are good

    example = toy_example(args.n, d=args.d, d_k=args.d_k, seed=args.seed)
    figure = plot_attention(self_attention(*example[1:]), example.tokens, size=args.size)
    try:
        figure.savefig(out, format=suffix)
    except OSError as err:  # read-only disk, full disk, a special file system, ...
        return _fail(f"--out: cannot write {args.out!r}: {err.strerror or err}")
    print(f"wrote {out} (n = {args.n}, d = {args.d}, d_k = {args.d_k}, seed = {args.seed})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
