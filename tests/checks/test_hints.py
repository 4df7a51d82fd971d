"""An exercise's hint names the slip or what to look at, never the line to write.

Two tests. One reads the source of the code checks (the checks that take the
learner's function) and finds every hint they can give: the second argument of
each Failure, each ``hint=``, each variable named like a hint, what the hint helpers
return. None may hold code that writes an exercise's answer (``np.tril``,
``.reshape(``, ``X @ W_Q``, ``keepdims``, ...). The other runs each code check on
its worked solution spoiled in the usual ways (the slips the checks name, and a
stub, an exception, a transpose, a scaled result) in both languages, and holds
every hint it gives free of that solution's key expressions.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import numpy as np
import pytest

import attnlib
from attnlib import causal_mask, checks, softmax, solutions
from attnlib.lessons.checks import formulas, inputs, layer, learned, next_steps, torch_heads

from .helpers import boom, stub

pytestmark = pytest.mark.usefixtures("english_afterwards")  # tests/conftest.py

MODULES = [formulas, inputs, layer, learned, next_steps, torch_heads]

#: code that writes (part of) an exercise's answer: a hint may name the idea, not these
CODE = re.compile(
    r"np\.(?:tril|triu|stack|concatenate|where|zeros|sqrt|eye|split)\b"
    r"|\.(?:reshape|transpose|view|astype|sum|max)\("
    r"|\.T\b|keepdims|axis\s*="
    r"|VOCABULARY\.index\("
    r"|\bX(?:_q|_kv)? @ W|@ V\b|weights @|@ K"
    r"|softmax\(\w+ /|softmax\(logits\)"
    r"|~your_mask|\[:, *\w*\s*[*:]"
)


def _literals(node: ast.AST) -> list[str]:
    """The sentences a hint expression can be: tr("...") literals and plain strings."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "tr":
        return _literals(node.args[0])
    return [text for child in ast.iter_child_nodes(node) for text in _literals(child)]


def _hints_in(function: ast.FunctionDef) -> list[str]:
    found = []
    hint_names = {"hint", "step"}
    for node in ast.walk(function):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name) and target.id.endswith("hint"):
                    found += _literals(node.value)
        if isinstance(node, ast.Call):
            name = node.func.id if isinstance(node.func, ast.Name) else ""
            # the hint's place among each helper's arguments: Failure(message, hint),
            # compare(got, expected, what, hint), expect_array(got, what, hint), ...
            place = {"Failure": 1, "compare": 3, "expect_array": 2, "expect_value": 2}.get(name)
            if place is not None and len(node.args) > place:
                found += _literals(node.args[place])
            found += [t for k in node.keywords if k.arg in hint_names for t in _literals(k.value)]
        if isinstance(node, ast.Return) and "hint" in function.name and node.value is not None:
            found += _literals(node.value)
        if isinstance(node, ast.Tuple) and function.name == "_slips" and len(node.elts) == 3:
            found += _literals(node.elts[2])  # (the slip's Z, what the slip is, its hint)
    return found


def source_hints() -> dict[str, list[str]]:
    """function -> the hints it can give, for every function of the code checks' modules
    that is no prediction (a prediction's first try names its slip: tests/checks/test_first_try)."""
    out = {}
    for module in MODULES:
        tree = ast.parse(Path(module.__file__).read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and not node.name.startswith("check_prediction"):
                hints = _hints_in(node)
                if hints:
                    out[f"{Path(module.__file__).name}: {node.name}"] = hints
    return out


def test_the_source_reader_finds_the_hints():
    found = source_hints()
    assert any("check_split_heads" in where for where in found)
    every = [hint for hints in found.values() for hint in hints]
    assert len(every) > 60, len(every)
    assert CODE.search("M.reshape(n, heads, w).transpose(1, 0, 2)")
    assert CODE.search("W_Q.T @ X_cols") and CODE.search("np.tril(...)")
    assert not CODE.search("print parts[0] and compare it with parts[:, 0]")


def test_no_hint_of_a_code_check_writes_the_answer():
    bad = [
        f"{where}: {hint!r}"
        for where, hints in source_hints().items()
        for hint in hints
        if CODE.search(hint)
    ]
    assert not bad, "hints that hand over code:\n" + "\n".join(bad)


# --- each check run on its solution spoiled, in both languages ---------------------


def _spoiled(solution):
    """The worked solution spoiled in ways no check names: each reaches a generic hint."""

    def twice(*args):
        got = solution(*args)
        return tuple(2 * np.asarray(g) for g in got) if isinstance(got, tuple) else 2 * got

    def plus_one(*args):
        got = solution(*args)
        return tuple(np.asarray(g) + 1 for g in got) if isinstance(got, tuple) else got + 1

    def turned(g):  # a matrix transposed, a vector reversed
        g = np.asarray(g)
        return g.T if g.ndim > 1 else g[::-1]

    def transposed(*args):
        got = solution(*args)
        return tuple(turned(g) for g in got) if isinstance(got, tuple) else turned(got)

    return [stub, boom, lambda *args: "some text", twice, plus_one, transposed]


#: check -> (its worked solution, the key expressions of that solution, the slips it names)
CODE_CHECKS = {
    checks.check_softmax: (
        solutions.my_softmax,
        ["keepdims", "axis=-1", "np.exp(scores", ".max("],
        [lambda s: np.exp(s) / np.exp(s).sum(axis=-1, keepdims=True), lambda s: softmax(s, axis=0)],
    ),
    checks.check_qkv: (
        solutions.my_qkv,
        ["X @ W_Q", "X @ W_K", "X @ W_V"],
        [
            lambda X, W_Q, W_K, W_V: (W_Q.T @ X.T, W_K.T @ X.T, W_V.T @ X.T),
            lambda X, W_Q, W_K, W_V: (W_Q @ X[0], W_K @ X[0], W_V @ X[0]),
            lambda X, W_Q, W_K, W_V: (X @ W_Q, X @ W_Q, X @ W_V),
            lambda X, W_Q, W_K, W_V: None,
        ],
    ),
    checks.check_column_form: (
        solutions.my_column_form,
        ["W_Q.T", ".T @", "transpose"],
        [lambda X_cols, W_Q: W_Q @ X_cols, lambda X_cols, W_Q: X_cols.T @ W_Q],
    ),
    checks.check_scores: (
        solutions.my_scores,
        ["@", "np.sqrt", ".T"],
        [
            lambda Q, K: Q @ K.T,
            lambda Q, K: Q @ K.T / Q.shape[1],
            lambda Q, K: K @ Q.T / np.sqrt(Q.shape[1]),
            lambda Q, K: Q.T @ K / np.sqrt(Q.shape[1]),
        ],
    ),
    checks.check_row_entropy: (
        solutions.my_row_entropy,
        ["np.where", "np.log(np.", ".sum(axis"],
        [
            lambda w: -(w * np.log(w)).sum(axis=1),
            lambda w: -(w * np.log2(np.where(w > 0, w, 1.0))).sum(axis=1),
            lambda w: (w * np.log(np.where(w > 0, w, 1.0))).sum(axis=1),
            lambda w: -(w * np.log(np.where(w > 0, w, 1.0))).sum(axis=0),
        ],
    ),
    checks.check_weighted_sum: (
        solutions.my_weighted_sum,
        ["weights @ V", "@ V"],
        [lambda w, V: w.T @ V, lambda w, V: softmax(w) @ V],
    ),
    checks.check_fused_qkv: (
        solutions.my_fused_qkv,
        ["X @ W_QKV", ":d_k]", "2 * d_k"],
        [
            lambda X, W, d_k: ((X @ W)[:, d_k : 2 * d_k], (X @ W)[:, :d_k], (X @ W)[:, 2 * d_k :]),
            lambda X, W, d_k: X @ W,
            lambda X, W, d_k: tuple(X @ part for part in np.split(W, 3, axis=0)),
        ],
    ),
    checks.check_softmax_temperature: (
        solutions.my_softmax_temperature,
        ["softmax(scores / T)", "scores / T"],
        [
            lambda s, T: softmax(s * T),
            lambda s, T: softmax(s) / T,
            lambda s, T: np.exp(s / T) / np.exp(s / T).sum(axis=-1, keepdims=True),
        ],
    ),
    checks.check_cross_scores: (
        solutions.my_cross_scores,
        ["X_q @ W_Q", "X_kv @ W_K", "@ K.T", "np.sqrt"],
        [
            lambda X_q, X_kv, W_Q, W_K: (X_q @ W_Q) @ (X_kv @ W_K).T,
            lambda X_q, X_kv, W_Q, W_K: (X_q @ W_Q) @ (X_kv @ W_K).T / W_Q.shape[1],
            lambda X_q, X_kv, W_Q, W_K: (X_kv @ W_K) @ (X_q @ W_Q).T,
            lambda X_q, X_kv, W_Q, W_K: (X_q @ W_Q) @ (X_q @ W_K).T,
        ],
    ),
    checks.check_permutation: (
        solutions.predict_permuted,
        ["Z[perm]"],
        [lambda Z, perm: Z, lambda Z, perm: Z[np.argsort(perm)]],
    ),
    checks.check_embedding_lookup: (
        solutions.my_embed,
        ["VOCABULARY.index(", "table["],
        [
            lambda words, table: table[: len(words)],
            lambda words, table: solutions.my_embed(words, table).T,
        ],
    ),
    checks.check_one_hot: (
        solutions.my_one_hot,
        ["np.zeros", "VOCABULARY.index(", "H[i,"],
        [
            lambda words: np.eye(len(words)),
            lambda words: np.roll(solutions.my_one_hot(words), 1, axis=1),
        ],
    ),
    checks.check_shapes: (
        solutions.my_shapes,
        ["(n, d_k)", "(n, n)", "(n, d_v)"],
        [
            lambda n, d, d_k, d_v: {"Q": (n, d), "scores": (n, n), "Z": (n, d_v)},
            lambda n, d, d_k, d_v: {"Q": (d_k, n), "scores": (n, n), "Z": (n, d_v)},
            lambda n, d, d_k, d_v: {"Q": (n, d_k), "scores": (n, d_k), "Z": (n, d_v)},
            lambda n, d, d_k, d_v: {"Q": (n, d_k), "scores": (n, n), "Z": (n, d_k)},
            lambda n, d, d_k, d_v: {"Q": (n, d_k), "scores": (n, n), "Z": (d, d)},
            lambda n, d, d_k, d_v: {"Q": "n by d_k"},
        ],
    ),
    checks.check_softmax_backward: (
        solutions.my_softmax_backward,
        ["keepdims", ".sum(axis", "weights * (d_weights"],
        [
            lambda w, g: w * g,
            lambda w, g: w * (g - (g * w).sum(axis=0, keepdims=True)),
            lambda w, g: w @ g,
        ],
    ),
    checks.check_loss_gradient: (
        solutions.my_loss_gradient,
        ["softmax(logits) -", "np.eye", "- one_hot"],
        [
            lambda z, a: -np.eye(10)[a],
            lambda z, a: -solutions.my_loss_gradient(z, a),
            lambda z, a: softmax(z),
        ],
    ),
    checks.check_causal_mask: (
        solutions.my_causal_mask,
        ["np.tril", "np.triu", "~your_mask", ".astype(bool)"],
        [
            lambda n: ~causal_mask(n),
            lambda n: np.triu(np.ones((n, n), dtype=bool)),
            lambda n: np.tril(np.ones((n, n), dtype=bool), k=-1),
            lambda n: np.tril(np.ones((n, n))),
            lambda n: np.ones((n, n + 1), dtype=bool),
        ],
    ),
    checks.check_window_mask: (
        solutions.my_window_mask,
        ["np.tril", ".astype(bool)", "& ~"],
        [
            lambda n, w: causal_mask(n),
            lambda n, w: solutions.my_window_mask(n, w).T,
            lambda n, w: solutions.my_window_mask(n, w).astype(float),
            lambda n, w: solutions.my_window_mask(n, w + 1),
        ],
    ),
    checks.check_split_heads: (
        solutions.my_split_heads,
        ["reshape(", "transpose(", "np.stack", "h*w:(h+1)*w", "M[:,"],
        [
            lambda M, heads: M.reshape(heads, M.shape[0], -1),
            lambda M, heads: M.reshape(M.shape[0], -1, heads).transpose(2, 0, 1),
            lambda M, heads: M.reshape(M.shape[0], heads, -1),
        ],
    ),
    checks.check_merge_heads: (
        solutions.my_merge_heads,
        ["concatenate", "reshape(", "transpose(", "axis=1"],
        [
            lambda parts: parts.reshape(-1, parts.shape[2]),
            lambda parts: parts.reshape(parts.shape[1], -1),
        ],
    ),
    checks.check_self_attention: (
        solutions.my_self_attention,
        ["X @ W_Q", "Q @ K.T", "/ np.sqrt", "@ V", "axis="],
        [
            lambda X, W_Q, W_K, W_V: softmax((X @ W_Q) @ (X @ W_K).T) @ (X @ W_V),
            lambda X, W_Q, W_K, W_V: softmax((X @ W_Q) @ (X @ W_K).T, axis=0) @ (X @ W_V),
            lambda X, W_Q, W_K, W_V: softmax((X @ W_Q) @ (X @ W_Q).T / 3) @ (X @ W_V),
            lambda X, W_Q, W_K, W_V: softmax((X @ W_Q) @ (X @ W_K).T / 3),
        ],
    ),
}


def _hints(check, solution, slips) -> set[str]:
    seen = set()
    for func in [*_spoiled(solution), *slips]:
        result = check(func)
        assert not result, f"{check.__name__} passed a spoiled answer"
        seen.add(result.hint)
    return seen


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize("check", CODE_CHECKS, ids=lambda c: c.__name__)
def test_a_code_check_names_the_slip_not_the_solution(check, language):
    solution, key, slips = CODE_CHECKS[check]
    attnlib.set_language(language)
    hints = _hints(check, solution, slips)
    assert len(hints) >= 2, hints  # the spoiled answers reach more than one of its hints
    for hint in hints:
        for expression in key:
            assert expression not in hint, f"{check.__name__}'s hint {hint!r} holds {expression!r}"
        assert not CODE.search(hint), hint


def test_every_code_check_is_tried():
    code_checks = {
        name
        for name in checks.__all__
        if name.startswith("check_") and not name.startswith("check_prediction")
    }
    # check_pick takes a prediction; check_to_heads a torch tensor (below)
    tried = {check.__name__ for check in CODE_CHECKS}
    assert code_checks - tried == {"check_pick", "check_to_heads"}


def test_the_torch_check_names_the_slip_not_the_solution():
    torch = pytest.importorskip("torch")  # the bridge to PyTorch (08); the test install has it
    del torch
    slips = [
        lambda M, heads: M.reshape(M.shape[0], heads, M.shape[1], -1),
        lambda M, heads: M.view(M.shape[0], M.shape[1], heads, -1),
        lambda M, heads: M.view(M.shape[0], M.shape[1], -1, heads).permute(0, 3, 1, 2),
        lambda M, heads: M * 2,
        stub,
        boom,
    ]
    for language in ("en", "zh"):
        attnlib.set_language(language)
        for func in slips:
            hint = checks.check_to_heads(func).hint
            assert ".transpose(1, 2)" not in hint and "view(B" not in hint, hint
            assert not CODE.search(hint), hint
    assert torch_heads.check_to_heads is checks.check_to_heads
