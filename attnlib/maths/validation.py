"""Checks at the boundary: every public function turns its arguments into
float arrays here, so a bad argument is named before numpy sees it.

The messages read in the learner's language, but the maths does not import the
language module (i18n sits above it): attnlib/__init__.py hands :func:`tr` its
translator, i18n.tr, and :func:`language` the question "which language?",
i18n.get_language, with :func:`set_translator`. Until then, English. The toy
data (:mod:`.data`) asks :func:`language` which sentence to give."""

from __future__ import annotations

import numbers
from collections.abc import Callable

import numpy as np

_translator: dict[str, Callable[..., str]] = {}


def set_translator(
    translator: Callable[..., str], language: Callable[[], str] | None = None
) -> None:
    """Make :func:`tr` translate through `translator` (attnlib.i18n.tr), and
    :func:`language` answer with `language` (attnlib.i18n.get_language)."""
    _translator["tr"] = translator
    if language is not None:
        _translator["language"] = language


def language() -> str:
    """The learner's language code: ``"en"`` until attnlib hands its setting down."""
    return _translator["language"]() if "language" in _translator else "en"


def tr(text: str, /, **values) -> str:
    """An error message in the learner's language: `text` is the English template,
    the key of its translation; `values` fill its ``{placeholders}`` after the lookup."""
    if "tr" in _translator:
        return _translator["tr"](text, **values)
    return text.format(**values) if values else text


def as_matrix(
    name: str,
    value,
    *,
    rows_name: str = "n",
    cols_name: str = "d",
    keep_float32: bool = False,
    hint_3d: str = "",
) -> np.ndarray:
    """Return `value` as a finite 2-D float array, or raise naming `name`.

    `keep_float32` and the dtypes are as in `as_float_array`; `hint_3d` is
    added to the message when `value` is 3-D (a batch, or heads stacked).
    """
    array = as_float_array(name, value, keep_float32=keep_float32)
    if array.ndim != 2:
        raise ValueError(
            tr(
                "{name} must be a 2-D array of shape ({rows}, {cols}), "
                "got {ndim}-D with shape {shape}",
                name=name,
                rows=rows_name,
                cols=cols_name,
                ndim=array.ndim,
                shape=array.shape,
            )
            + (tr(". {hint}", hint=hint_3d) if hint_3d and array.ndim == 3 else "")
        )
    if array.shape[0] == 0 or array.shape[1] == 0:
        raise ValueError(
            tr(
                "{name} is empty (shape {shape}): it needs at least one row "
                "and one column ({rows} >= 1, {cols} >= 1)",
                name=name,
                shape=array.shape,
                rows=rows_name,
                cols=cols_name,
            )
        )
    check_finite(name, array)
    return array


def as_float_array(name: str, value, *, keep_float32: bool = False) -> np.ndarray:
    """Return `value` as a float array; TypeError if it does not hold real numbers.

    The result is float64, except with `keep_float32`, where float32 stays
    float32 and float16 becomes float32 (numpy has no fast float16 matmul).
    Booleans are refused: True/False where numbers belong is more often a
    mask passed in the wrong place than a deliberate 1/0.
    """
    if isinstance(value, (str, bytes)):
        raise TypeError(
            tr(
                "{name} must be an array of numbers, got a {kind}",
                name=name,
                kind=type(value).__name__,
            )
        )
    try:
        array = np.asarray(value)
    except ValueError as exc:  # ragged nested lists
        raise ValueError(
            tr("{name} must be a rectangular array of numbers: {error}", name=name, error=exc)
        ) from None
    if array.dtype.kind not in "iuf":
        raise TypeError(
            tr(
                "{name} must hold real numbers (int or float), got dtype {dtype}",
                name=name,
                dtype=array.dtype,
            )
            + (tr(" (ragged rows or mixed types?)") if array.dtype == object else "")
            + (
                tr(
                    "; to use True/False as 1/0, convert first: np.asarray({name}, dtype=float)",
                    name=name,
                )
                if array.dtype == bool
                else ""
            )
        )
    if keep_float32 and array.dtype.kind == "f" and array.dtype.itemsize <= 4:
        return array.astype(np.float32, copy=False)
    return array.astype(np.float64, copy=False)


def common_float(*arrays: np.ndarray) -> tuple[np.ndarray, ...]:
    """Cast float arrays to one dtype by numpy's promotion: float32 only if all are float32."""
    dtype = np.result_type(*arrays)
    return tuple(array.astype(dtype, copy=False) for array in arrays)


def check_finite(name: str, array: np.ndarray) -> None:
    """Raise naming the first NaN or inf entry of `array`."""
    if not np.isfinite(array).all():
        where = tuple(int(i) for i in np.argwhere(~np.isfinite(array))[0])
        raise ValueError(
            tr(
                "{name} must be finite, but {name}{index} is {value}",
                name=name,
                index=list(where),
                value=array[where],
            )
        )


def as_size(name: str, value, *, minimum: int = 1, maximum: int | None = None) -> int:
    """Return `value` as an int in [minimum, maximum]; TypeError if not an integer."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(
            tr(
                "{name} must be an integer, got {value!r} ({kind})",
                name=name,
                value=value,
                kind=type(value).__name__,
            )
        )
    value = int(value)
    if value < minimum or (maximum is not None and value > maximum):
        if maximum is None:
            message = tr("{name} must be an integer >= {minimum}, got {value}")
        else:
            message = tr("{name} must be an integer from {minimum} to {maximum}, got {value}")
        raise ValueError(message.format(name=name, minimum=minimum, maximum=maximum, value=value))
    return value


def as_positive_vector(name: str, values, length: int | None = None) -> np.ndarray:
    """Return `values` as a 1-D float array of >= 2 positive finite numbers (log axes)."""
    array = np.asarray(values, dtype=float)
    if array.ndim != 1 or array.size < 2:
        raise ValueError(
            tr(
                "{name} must be a 1-D sequence of at least 2 numbers, got shape {shape}",
                name=name,
                shape=array.shape,
            )
        )
    if length is not None and array.size != length:
        raise ValueError(
            tr(
                "{name} has {size} entries but ns has {length}: one measurement per n",
                name=name,
                size=array.size,
                length=length,
            )
        )
    if not (np.isfinite(array).all() and (array > 0).all()):
        raise ValueError(
            tr(
                "{name} must hold positive finite numbers (log axes), got {array}",
                name=name,
                array=array,
            )
        )
    return array
