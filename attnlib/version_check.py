"""Is this attnlib new enough for the course? One line for a notebook's first cell.

On a class hub the notebooks and the library travel apart: nbgitpuller brings the
teacher's newest course (notebooks and the repository's pyproject.toml) into each
home at every login, while attnlib is the copy installed on the hub (the course
image on Kubernetes, the shared environment on TLJH or one machine), which changes
only when the teacher reinstalls or rebuilds it. A notebook that uses something
newer than that copy would fail later with an error that says nothing about why;
``require()`` compares the installed attnlib with the version of the course it
runs in (the pyproject.toml above the notebook's folder) and says so at once, in
one line, with what the teacher does on this route.

The route is named by the hub's configuration in the students' servers'
environment, ``ATTNLIB_HUB_ROUTE``: ``tljh``, ``one-machine`` or ``kubernetes``
(deploy/tljh/attnlib_course.py, deploy/jupyterhub/jupyterhub_config.py,
z2jh-values.yaml). Without it (a learner's own computer, Binder) the advice names
both the teacher and ``git pull`` with ``make lab``.

Run as a script (``python -m attnlib.version_check [COURSE_FOLDER]``) it prints the
version this environment carries, and with a course folder the course's version
too, exiting with status 1 when attnlib is older; the image build
(binder/postBuild) runs it.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

from .i18n import tr

__all__ = ["AttnlibTooOld", "course_version", "require"]

# attnlib's versions are plain releases (pyproject.toml): numbers joined by dots. The
# installed one may carry a suffix (0.3.0.dev1, 0.3.0+local), compared by its numbers.
_RELEASE = re.compile(r"\d+(\.\d+)*")

ROUTE_VARIABLE = "ATTNLIB_HUB_ROUTE"

ROUTES = ("kubernetes", "tljh", "one-machine")


def _too_old(route: str | None, needed: str, installed: str) -> str:
    """The learner's line, with what the teacher does on this route (each a whole
    sentence for tr: a catalogue translates sentences, not pieces of them)."""
    if route == "kubernetes":
        return tr(
            "This notebook needs attnlib {needed} or newer, but this server has {installed}: "
            "ask your teacher to rebuild the course image (deploy/jupyterhub/build-image.sh, "
            "then its new tag in the hub's values); your server gets it at its next start "
            "(File > Hub Control Panel: Stop My Server, then Start My Server).",
            needed=needed,
            installed=installed,
        )
    if route == "tljh":
        return tr(
            "This notebook needs attnlib {needed} or newer, but this server has {installed}: "
            "ask your teacher to install the course's attnlib on the hub (the release's tag "
            "in deploy/tljh/requirements.txt, then that file's pip install line), then "
            "restart the kernel (Kernel > Restart Kernel).",
            needed=needed,
            installed=installed,
        )
    if route == "one-machine":
        return tr(
            "This notebook needs attnlib {needed} or newer, but this server has {installed}: "
            "ask your teacher to update the hub's copy of the course (git pull in it, then "
            "the pip install line of deploy/jupyterhub/requirements.txt), then restart the "
            "kernel (Kernel > Restart Kernel).",
            needed=needed,
            installed=installed,
        )
    return tr(
        "This notebook needs attnlib {needed} or newer, but this server has {installed}: "
        "ask your teacher to install the course's attnlib on this server (on your own "
        "computer: `git pull`, then `make lab` in the course folder).",
        needed=needed,
        installed=installed,
    )


def _release(version: str) -> tuple[int, ...]:
    numbers = [int(part) for part in _RELEASE.match(version).group().split(".")]
    while len(numbers) > 1 and numbers[-1] == 0:  # 0.2 == 0.2.0
        numbers.pop()
    return tuple(numbers)


def _project_table(text: str) -> dict[str, str]:
    """The plain string keys of pyproject.toml's [project] table (name, version, ...).

    A small reader instead of tomllib, which Python 3.10 lacks: the file is ours and
    writes its name and version as ``key = "value"`` lines.
    """
    table, found = None, {}
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("["):
            table = line.strip("[] ")
        elif table == "project":
            key = re.fullmatch(r'([A-Za-z_-]+)\s*=\s*"([^"]*)"\s*(#.*)?', line)
            if key:
                found[key.group(1)] = key.group(2)
    return found


def course_version(folder: str | os.PathLike | None = None) -> tuple[str, Path] | None:
    """The attnlib version of the course around `folder`, and where it was read.

    The course is this repository as nbgitpuller pulled it: its pyproject.toml is in
    the folder a notebook runs in or above it (``notebooks/``, ``notebooks/zh/``).

    Parameters
    ----------
    folder : path, optional
        Where to start looking, upwards; by default the working directory, which
        Jupyter sets to the notebook's folder.

    Returns
    -------
    (str, Path) or None
        The version and the pyproject.toml it came from; None outside a course (no
        pyproject.toml above, or the first one found is another project's).

    Examples
    --------
    >>> from pathlib import Path
    >>> version, path = course_version(Path(__import__("attnlib").__file__).parent)
    >>> path.name
    'pyproject.toml'
    """
    start = Path(folder if folder is not None else Path.cwd()).resolve()
    for place in (start, *start.parents):
        project = place / "pyproject.toml"
        try:
            text = project.read_text("utf-8")
        except (FileNotFoundError, NotADirectoryError, PermissionError):
            continue
        except (OSError, UnicodeDecodeError):
            return None
        table = _project_table(text)
        if table.get("name") != "attnlib" or not _RELEASE.fullmatch(table.get("version", "")):
            return None  # inside another project: not a course of ours
        return table["version"], project
    return None


class AttnlibTooOld(ImportError):
    """The installed attnlib is older than the notebook needs."""


def require(minimum: str | None = None, *, course: str | os.PathLike | None = None) -> str:
    """Stop with a one-line message if the installed attnlib is older than the course.

    Parameters
    ----------
    minimum : str, optional
        An oldest version the notebook works with besides the course's own, e.g.
        ``"0.2"`` (notebooks from before the course's version was read passed one).
    course : path, optional
        A folder inside the course; by default the working directory (the notebook's
        folder). Outside a course only `minimum` is checked.

    Returns
    -------
    str
        The installed version, when it is new enough.

    Raises
    ------
    AttnlibTooOld
        If the installed version is older; the message names both versions and
        what the teacher does on this hub's route (``ATTNLIB_HUB_ROUTE``).

    Examples
    --------
    >>> require() == __import__("attnlib").__version__
    True
    >>> require("999")
    Traceback (most recent call last):
    ...
    attnlib.version_check.AttnlibTooOld: This notebook needs attnlib 999 or newer, ...
    """
    from . import __version__ as installed

    if minimum is not None and (not isinstance(minimum, str) or not _RELEASE.fullmatch(minimum)):
        raise ValueError(
            tr("minimum must be a version such as '0.2' or '1.0.3', got {value!r}", value=minimum)
        )
    needed = [minimum] if minimum else []
    found = course_version(course)
    if found:
        needed.append(found[0])
    if not needed:
        return installed
    newest = max(needed, key=_release)
    if _release(installed) >= _release(newest):
        return installed
    route = os.environ.get(ROUTE_VARIABLE, "").strip().lower() or None
    raise AttnlibTooOld(_too_old(route, newest, installed))


def main(argv: list[str]) -> int:
    from . import __version__

    print(f"attnlib {__version__}")
    if not argv:
        return 0
    found = course_version(argv[0])
    if found is None:
        print(f"no attnlib course at or above {argv[0]}")
        return 2
    version, project = found
    older = _release(__version__) < _release(version)
    print(f"course {version} ({project}): " + ("attnlib is older" if older else "in step"))
    return 1 if older else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
