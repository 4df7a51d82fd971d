"""The class list, read one way by every route: the one-machine hub's config
(jupyterhub_config.py), create-students.sh and TLJH's setup.sh.

One login name per line. A `#` starts a comment, on a line of its own or after a
name (`ada   # TA`); blank lines, spaces around a name, Windows line ends (CRLF), a
byte-order mark and a last line without its newline are all fine. A name listed
twice counts once (a warning names both lines). A line that is not a login name
stops everything, naming the file, the line and what a name may hold: a list half
read would lock the students it skipped out.

    python3 class_list.py FILE     # the names, one a line (what the scripts read)

Standard library only: the scripts run it with the system's python3, before any
environment of the course exists.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

# Login names that useradd (Debian's default NAME_REGEX) and TLJH (jupyter-NAME) both
# take: lower case, starting with a letter or _, at most 32 characters.
NAME = re.compile(r"[a-z_][a-z0-9_.-]{0,31}")
RULE = "lower-case letters, digits, '_', '-' or '.', starting with a letter or '_', at most 32"


class ClassListError(ValueError):
    """A class list (or a name given elsewhere) that is not what the hub can use."""


def check_name(name: str, where: str) -> str:
    """`name` if it is a login name; ClassListError naming `where` it came from if not."""
    if NAME.fullmatch(name):
        return name
    hint = ""
    if NAME.fullmatch(name.lower()):
        hint = f" (login names are lower-case: write {name.lower()!r})"
    elif re.search(r"\s", name):
        hint = " (one name per line; a comment starts with #)"
    raise ClassListError(f"{where}: {name!r} is not a login name{hint}; expected {RULE}")


def parse_class_list(text: str, source: str = "the class list") -> list[str]:
    """The names in `text`, in order, each once.

    Examples
    --------
    >>> parse_class_list("ada   # TA\\r\\nalan\\n\\n# late\\ngrace\\nada")
    ['ada', 'alan', 'grace']
    """
    names: dict[str, int] = {}
    for number, line in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        name = line.split("#", 1)[0].strip()
        if not name:
            continue
        check_name(name, f"{source} line {number}")
        if name in names:
            print(
                f"{source} line {number}: {name} is listed already (line {names[name]}); "
                "counted once",
                file=sys.stderr,
            )
            continue
        names[name] = number
    if not names:
        raise ClassListError(f"{source} has no names: expected one login name per line")
    return list(names)


def read_class_list(path: str | Path) -> list[str]:
    """The names in the class list file at `path` (see parse_class_list)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8-sig")
    except FileNotFoundError:
        raise FileNotFoundError(f"the class list {path} does not exist") from None
    except UnicodeDecodeError as error:
        raise ClassListError(
            f"{path} is not UTF-8 text ({error.reason} at byte {error.start}): "
            "save the class list as UTF-8 plain text"
        ) from None
    return parse_class_list(text, str(path))


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: class_list.py CLASS_LIST  (prints the names, one a line)", file=sys.stderr)
        return 2
    try:
        names = read_class_list(argv[0])
    except (OSError, ClassListError) as error:
        print(f"class list: {error}", file=sys.stderr)
        return 1
    print("\n".join(names))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
