"""Is this attnlib new enough for the course? One line for a notebook's first cell.

On a class hub the notebooks and the library travel apart: nbgitpuller brings the
teacher's newest notebooks into each home at every login, while attnlib is the copy
installed in the course image, which changes only when the image is rebuilt. A
notebook that uses something newer than the image carries would fail later with
an error that says nothing about why; ``require`` says it at once, in one line,
and tells the learner whom to ask.

Run as a script (``python -m attnlib.version_check``) it prints the version this
environment carries; the image build (binder/postBuild) does so.
"""

from __future__ import annotations

import re

from .i18n import tr

__all__ = ["AttnlibTooOld", "require"]

# attnlib's versions are plain releases (pyproject.toml): numbers joined by dots. The
# installed one may carry a suffix (0.3.0.dev1, 0.3.0+local), compared by its numbers.
_RELEASE = re.compile(r"\d+(\.\d+)*")


def _release(version: str) -> tuple[int, ...]:
    numbers = [int(part) for part in _RELEASE.match(version).group().split(".")]
    while len(numbers) > 1 and numbers[-1] == 0:  # 0.2 == 0.2.0
        numbers.pop()
    return tuple(numbers)


class AttnlibTooOld(ImportError):
    """The installed attnlib is older than the notebook needs."""


def require(minimum: str) -> str:
    """Stop with a one-line message if the installed attnlib is older than `minimum`.

    Parameters
    ----------
    minimum : str
        The oldest attnlib version the notebook works with, e.g. ``"0.2"``.

    Returns
    -------
    str
        The installed version, when it is new enough.

    Raises
    ------
    AttnlibTooOld
        If the installed version is older; the message names both versions and
        what to ask for.

    Examples
    --------
    >>> require("0.0.1") == __import__("attnlib").__version__
    True
    >>> require("999")
    Traceback (most recent call last):
    ...
    attnlib.version_check.AttnlibTooOld: This notebook needs attnlib 999 or newer, ...
    """
    from . import __version__ as installed

    if not isinstance(minimum, str) or not _RELEASE.fullmatch(minimum):
        raise ValueError(f"minimum must be a version such as '0.2' or '1.0.3', got {minimum!r}")
    if _release(installed) >= _release(minimum):
        return installed
    raise AttnlibTooOld(
        tr(
            "This notebook needs attnlib {needed} or newer, but this server has {installed}: "
            "ask your teacher to rebuild the course image (on your own computer: "
            "`git pull`, then `make lab` in the course folder).",
            needed=minimum,
            installed=installed,
        )
    )


if __name__ == "__main__":
    from . import __version__

    print(f"attnlib {__version__}")
