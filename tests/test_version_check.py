"""attnlib.version_check.require: a notebook in a course newer than the installed
attnlib says so in one line, in the learner's language, with what the teacher does on
this hub's route; the course's version is read from the course itself."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

import attnlib
from attnlib import i18n
from attnlib.version_check import (
    ROUTE_VARIABLE,
    ROUTES,
    AttnlibTooOld,
    _release,
    course_version,
    require,
)

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def no_route(monkeypatch):
    # the machine running the tests is no hub: each test names the route it means
    monkeypatch.delenv(ROUTE_VARIABLE, raising=False)


def a_course(tmp_path: Path, version: str, name: str = "attnlib") -> Path:
    """A pulled course as nbgitpuller leaves it: pyproject.toml at the top, the
    notebooks below; returns the Chinese notebooks' folder (two levels down)."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "pyproject.toml").write_text(
        '[build-system]\nrequires = ["setuptools>=77"]\n\n'
        f'[project]\nname = "{name}"\nversion = "{version}"  # the release\n'
        'description = "x"\n\n[tool.ruff]\nversion = "0.0.1"\n'
    )
    notebooks = tmp_path / "notebooks" / "zh"
    notebooks.mkdir(parents=True)
    return notebooks


def newer_than_installed() -> str:
    major = _release(attnlib.__version__)[0]
    return f"{major + 1}.0.0"


def test_new_enough_returns_the_installed_version(tmp_path):
    assert require() == attnlib.__version__
    assert require("0.0.1") == attnlib.__version__
    assert require(course=a_course(tmp_path, attnlib.__version__)) == attnlib.__version__


def test_a_course_newer_than_attnlib_stops_from_its_own_version(tmp_path, monkeypatch):
    course = a_course(tmp_path, newer_than_installed())
    monkeypatch.chdir(course)  # Jupyter starts the kernel in the notebook's folder
    with pytest.raises(AttnlibTooOld) as error:
        require()
    message = str(error.value)
    assert "\n" not in message
    assert f"needs attnlib {newer_than_installed()} or newer" in message
    assert f"this server has {attnlib.__version__}" in message
    assert isinstance(error.value, ImportError)  # what a failed import would raise
    # an old notebook's minimum does not hide the course's version
    with pytest.raises(AttnlibTooOld, match=newer_than_installed()):
        require("0.2")


def test_an_older_course_passes(tmp_path):
    # the teacher rebuilt the image before pushing the notebooks
    assert require(course=a_course(tmp_path, "0.1")) == attnlib.__version__


def test_the_course_is_read_from_the_notebooks_folder_upwards(tmp_path):
    course = a_course(tmp_path, "7.3.1")
    assert course_version(course) == ("7.3.1", tmp_path / "pyproject.toml")
    assert course_version(tmp_path) == ("7.3.1", tmp_path / "pyproject.toml")
    # this repository is a course: its notebooks read pyproject's version
    project = (ROOT / "pyproject.toml").read_text()
    version = next(line for line in project.splitlines() if line.startswith("version = "))
    assert course_version(ROOT / "notebooks" / "zh")[0] == version.split('"')[1]


def test_outside_a_course_only_the_minimum_counts(tmp_path):
    alone = tmp_path / "alone"
    alone.mkdir()
    assert course_version(alone) is None
    other = a_course(tmp_path / "other", "999", name="someone-elses-project")
    assert course_version(other) is None  # another project's pyproject is no course
    assert require(course=other) == attnlib.__version__
    with pytest.raises(AttnlibTooOld):
        require("999", course=other)


# What each route's teacher does: the words the message must hold, and the words that
# would send a teacher to a tool their route does not have.
ADVICE = {
    "kubernetes": (["rebuild the course image", "build-image.sh", "next start"], ["pip install"]),
    "tljh": (["deploy/tljh/requirements.txt", "restart the kernel"], ["image", "make lab"]),
    "one-machine": (
        ["git pull", "deploy/jupyterhub/requirements.txt", "restart the kernel"],
        ["image", "make lab"],
    ),
    None: (["ask your teacher", "git pull", "make lab"], ["image"]),
}
ADVICE_ZH = {
    "kubernetes": (["重新构建课程镜像", "下次启动"], ["重启内核"]),
    "tljh": (["deploy/tljh/requirements.txt", "重启内核"], ["镜像"]),
    "one-machine": (["git pull", "重启内核"], ["镜像"]),
    None: (["请老师", "make lab EDITION=zh"], ["镜像"]),
}


@pytest.mark.parametrize("route", [*ROUTES, None])
def test_the_advice_fits_the_hubs_route(route, tmp_path, monkeypatch):
    assert set(ROUTES) == {"kubernetes", "tljh", "one-machine"}
    if route:
        monkeypatch.setenv(ROUTE_VARIABLE, route)
    course = a_course(tmp_path, newer_than_installed())
    for language, advice in (("en", ADVICE), ("zh", ADVICE_ZH)):
        i18n.set_language(language)
        try:
            with pytest.raises(AttnlibTooOld) as error:
                require(course=course)
        finally:
            i18n.set_language("en")
        message = str(error.value)
        said, not_said = advice[route]
        assert [w for w in said if w not in message] == [], message
        assert [w for w in not_said if w in message] == [], message
        assert newer_than_installed() in message and attnlib.__version__ in message


def test_an_unknown_route_gets_the_general_advice(tmp_path, monkeypatch):
    monkeypatch.setenv(ROUTE_VARIABLE, "Kubernetes-typo")
    with pytest.raises(AttnlibTooOld, match="make lab"):
        require(course=a_course(tmp_path, newer_than_installed()))


def test_versions_compare_by_their_numbers_not_as_text():
    assert _release("0.10") > _release("0.9")
    assert _release("0.2") == _release("0.2.0") == _release("0.2.0.dev1")
    assert _release("1.0") > _release("0.99.99")


@pytest.mark.parametrize("bad", ["", "latest", "0.2-beta", 2])
def test_a_minimum_that_is_not_a_version_is_refused(bad):
    with pytest.raises(ValueError, match="minimum must be a version"):
        require(bad)


def test_no_notebook_carries_a_version_to_bump_by_hand():
    # each notebook's first code cell checks against the course's own version
    notebooks = sorted((ROOT / "notebooks").glob("**/*.ipynb"))
    assert len(notebooks) >= 18
    for path in notebooks:
        cells = json.loads(path.read_text("utf-8"))["cells"]
        first = next(c for c in cells if c["cell_type"] == "code")
        source = "".join(first["source"])
        calls = [line for line in source.splitlines() if "require(" in line]
        assert len(calls) == 1, f"{path.relative_to(ROOT)}: {calls}"
        assert calls[0].startswith("attnlib.require()"), f"{path.relative_to(ROOT)}: {calls[0]}"


def test_run_as_a_script_prints_the_installed_version_and_the_courses(tmp_path):
    def run(*args):
        return subprocess.run(
            [sys.executable, "-m", "attnlib.version_check", *map(str, args)],
            capture_output=True,
            text=True,
            check=False,
        )

    alone = run()
    assert (alone.returncode, alone.stdout) == (0, f"attnlib {attnlib.__version__}\n")
    newer = run(a_course(tmp_path / "new", newer_than_installed()))
    assert newer.returncode == 1 and "attnlib is older" in newer.stdout
    same = run(a_course(tmp_path / "same", attnlib.__version__))
    assert same.returncode == 0 and "in step" in same.stdout
