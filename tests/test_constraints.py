"""The test toolchain's lock, requirements/test.txt, against pyproject.toml.

`make test` installs with `-c requirements/test.txt` (requirements/test.in says why
the whole test install is pinned). These tests fail when a package that pyproject's
extras or requirements/test.in ask for has no pin in the lock, when a pin falls
outside pyproject's bounds, when a Python or platform we support is left without a
pin, and when `make test` stops installing from the lock.
"""

import os
import re
import shlex
import shutil
import subprocess
import sys
from importlib.metadata import PackageNotFoundError, distribution, version
from pathlib import Path

import pytest
from packaging.requirements import InvalidRequirement, Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
LOCK = ROOT / "requirements" / "test.txt"
LOCK_INPUT = ROOT / "requirements" / "test.in"
HUB_REQUIREMENTS = ROOT / "deploy" / "jupyterhub" / "requirements.txt"
# pyproject's extras the lock covers: the test install's (notebook, test, and site for the
# website's tests), and the class's (make class and the one-machine hub install with -c
# from the same lock)
LOCKED_EXTRAS = ("notebook", "test", "class", "site")

# Where the lock must hold one pin for each package: every Python from
# requires-python's 3.10 on, on Linux, macOS and Windows.
PYTHONS = ("3.10.12", "3.11.7", "3.12.3", "3.13.1", "3.14.0")
PLATFORMS = (("linux", "posix", "Linux"), ("darwin", "posix", "Darwin"), ("win32", "nt", "Windows"))


def _environments():
    for full in PYTHONS:
        for sys_platform, os_name, system in PLATFORMS:
            yield {
                "python_version": ".".join(full.split(".")[:2]),
                "python_full_version": full,
                "sys_platform": sys_platform,
                "os_name": os_name,
                "platform_system": system,
                "implementation_name": "cpython",
                "platform_python_implementation": "CPython",
            }


def _requirement_lines(text):
    """The requirement lines of a requirements file: no comments, no blank lines."""
    for line in text.splitlines():
        line = line.split(" #", 1)[0].strip()
        if line and not line.startswith("#"):
            yield line


def read_lock(text):
    """[Requirement] of a lock, each one a pin `name==version [; marker]`."""
    pins = []
    for line in _requirement_lines(text):
        try:
            req = Requirement(line)
        except InvalidRequirement as error:
            raise ValueError(f"the lock has a line that is no requirement: {line!r}") from error
        specs = list(req.specifier)
        if len(specs) != 1 or specs[0].operator != "==" or req.url:
            raise ValueError(f"the lock has {line!r}: every line must be a pin, name==version")
        pins.append(req)
    return pins


def wanted_requirements():
    """What the installs from the lock ask for: attnlib's dependencies, its notebook,
    test and class extras, requirements/test.in and the one-machine hub's
    requirements."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    lines = list(project["dependencies"])
    for extra in LOCKED_EXTRAS:
        lines += extras[extra]
    lines += list(_requirement_lines(LOCK_INPUT.read_text()))
    lines += list(_requirement_lines(HUB_REQUIREMENTS.read_text()))
    return [Requirement(line) for line in lines]


def lock_problems(wanted, pins):
    """Every way the pins fail the wanted requirements, as sentences ([] if none)."""
    problems = []
    by_name = {}
    for pin in pins:
        by_name.setdefault(canonicalize_name(pin.name), []).append(pin)
    for req in wanted:
        name = canonicalize_name(req.name)
        locked = by_name.get(name)
        if not locked:
            problems.append(f"{req} has no pin in the lock")
            continue
        for pin in locked:
            pinned = next(iter(pin.specifier)).version
            if not req.specifier.contains(pinned, prereleases=True):
                problems.append(f"the lock pins {pin}, outside {req} (pyproject / test.in)")
        for env in _environments():
            if req.marker is not None and not req.marker.evaluate(env):
                continue
            applying = [p for p in locked if p.marker is None or p.marker.evaluate(env)]
            if len(applying) != 1:
                where = f"Python {env['python_full_version']} on {env['sys_platform']}"
                problems.append(f"{req}: {len(applying)} pins apply on {where}, not 1")
    return list(dict.fromkeys(problems))  # a package wanted twice is reported once


def test_every_line_of_the_lock_is_a_pin():
    pins = read_lock(LOCK.read_text())
    assert len(pins) > 50, f"only {len(pins)} pins: is {LOCK.name} the compiled lock?"
    names = {canonicalize_name(p.name) for p in pins}
    assert "attnlib" not in names, "the project itself must not be pinned (pip refuses -e)"


def test_the_lock_pins_every_requirement_within_its_bounds():
    problems = lock_problems(wanted_requirements(), read_lock(LOCK.read_text()))
    assert not problems, (
        f"{LOCK.relative_to(ROOT)} disagrees with pyproject.toml / requirements/test.in; "
        "run `make lock`:\n  " + "\n  ".join(problems)
    )


def test_the_lock_holds_the_test_tools_and_the_jsonschema_cap():
    # named here too, so that a tool dropped from pyproject's test extra by mistake
    # shows up as well as one missing from the lock
    pins = {canonicalize_name(p.name): p for p in read_lock(LOCK.read_text())}
    tools = (
        "pytest nbval hypothesis playwright pytest-playwright psutil papermill "
        "pytest-xdist pytest-randomly pyyaml ruff"
    ).split()
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    test_extra = {
        canonicalize_name(Requirement(r).name) for r in project["optional-dependencies"]["test"]
    }
    assert [t for t in tools if t not in test_extra] == [], "missing from pyproject's test extra"
    assert [t for t in tools if t not in pins] == [], "missing from the lock"
    assert "jsonschema<4.25" in list(_requirement_lines(LOCK_INPUT.read_text()))
    assert next(iter(pins["jsonschema"].specifier)).version.startswith("4.24.")


def test_the_lock_pins_the_class_and_the_one_machine_hub():
    # named here too: the class extra's packages and the spawner, which floated before
    # (an install got JupyterHub 6.1.1 one day, another version the next)
    pins = {canonicalize_name(p.name) for p in read_lock(LOCK.read_text())}
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    class_extra = [Requirement(r).name for r in project["optional-dependencies"]["class"]]
    hub = [Requirement(r).name for r in _requirement_lines(HUB_REQUIREMENTS.read_text())]
    assert {"jupyterhub", "jupyterhub-idle-culler", "nbgitpuller"} <= set(class_extra)
    assert "jupyterhub-systemdspawner" in hub
    assert [n for n in class_extra + hub if canonicalize_name(n) not in pins] == []


def test_make_lock_compiles_the_class_extra_and_the_hub_requirements():
    recipe = _make_dry_run("lock").replace("\\\n", " ")
    line = next(x for x in recipe.splitlines() if "uv pip compile" in x)
    words = shlex.split(line)
    extras = [words[i + 1] for i, w in enumerate(words) if w == "--extra"]
    assert sorted(extras) == sorted(LOCKED_EXTRAS)
    assert str(HUB_REQUIREMENTS.relative_to(ROOT)) in words


def test_the_one_machine_hub_and_make_class_install_from_the_lock():
    commands = _make_dry_run("-W", "requirements/test.txt", ".venv/.installed-class")
    assert "pip install --quiet -c requirements/test.txt -e '.[notebook,test,class]'" in commands
    # every install line the teacher is given for the hub's environment
    docs = [
        "docs/teaching.md",
        "docs/zh/teaching.md",
        "deploy/jupyterhub/README.md",
        HUB_REQUIREMENTS,
    ]
    for doc in docs:
        text = (ROOT / doc).read_text("utf-8").replace("\\\n", " ")
        installs = [line for line in text.splitlines() if "'.[notebook,class]'" in line]
        assert installs, f"{doc}: no install line for the hub's environment"
        loose = [line.strip() for line in installs if "-c requirements/test.txt" not in line]
        assert loose == [], f"{doc}: installs the hub without the lock"


@pytest.mark.parametrize(
    ("wanted", "lock", "problem"),
    [
        # a tool of the test extra that the lock lacks
        (["ruff>=0.4"], "pytest==9.2.0\n", "ruff>=0.4 has no pin"),
        # a pin below pyproject's bound, and one above a cap
        (["ruff>=0.18"], "ruff==0.17.6\n", "outside ruff>=0.18"),
        (["jsonschema<4.25"], "jsonschema==4.25.0\n", "outside jsonschema<4.25"),
        # a Python left without a pin, and two pins for the same Python
        (["numpy>=1.24"], "numpy==2.4.6 ; python_full_version >= '3.11'\n", "0 pins apply"),
        (["numpy>=1.24"], "numpy==2.2.6\nnumpy==2.4.6 ; python_version >= '3.12'\n", "2 pins"),
    ],
)
def test_a_lock_that_disagrees_is_reported(wanted, lock, problem):
    problems = lock_problems([Requirement(w) for w in wanted], read_lock(lock))
    assert any(problem in p for p in problems), problems


def test_a_lock_line_that_is_no_pin_is_refused():
    with pytest.raises(ValueError, match="must be a pin"):
        read_lock("ruff>=0.4\n")
    # markers are allowed, as are uv's "# via" comments
    assert len(read_lock("tomli==2.5.0 ; python_version < '3.11'\n    # via pytest\n")) == 1


def test_markers_are_judged_for_each_python():
    # tomli is only wanted below 3.11; one pin there and none above is right
    wanted = [Requirement("tomli>=1.1; python_version < '3.11'")]
    assert lock_problems(wanted, read_lock("tomli==2.5.0 ; python_full_version < '3.11'")) == []


def _make_dry_run(*args):
    make = shutil.which("make")
    if make is None:
        pytest.skip("make is not installed (the lock is used by the Makefile's installs)")
    env = {k: v for k, v in os.environ.items() if k not in {"MAKEFLAGS", "MFLAGS", "MAKELEVEL"}}
    result = subprocess.run(
        [make, "--no-print-directory", "-n", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


def test_make_test_installs_from_the_lock_and_again_when_it_changes():
    # -W: as if the lock had just been edited
    commands = _make_dry_run("-W", "requirements/test.txt", ".venv/.installed-test")
    wanted = "pip install --quiet -c requirements/test.txt -e '.[notebook,test,site]'"
    assert wanted in commands


def test_make_lab_installs_the_ranges_not_the_lock():
    commands = _make_dry_run("-W", "pyproject.toml", ".venv/.installed-notebook")
    install = [line for line in commands.splitlines() if "pip install" in line and "-e" in line]
    assert install, commands
    assert all("requirements/test.txt" not in line for line in install), install


def test_the_tests_guide_gives_the_command_that_make_lock_runs():
    guide = (ROOT / "docs" / "tests.md").read_text("utf-8")
    found = re.search(r"`(uv pip compile [^`]+)`", guide)
    assert found, "docs/tests.md should give the uv pip compile command that refreshes the lock"
    recipe = _make_dry_run("lock").replace("\\\n", " ")
    line = next((x for x in recipe.splitlines() if "uv pip compile" in x), None)
    assert line, recipe
    ran = shlex.split(line.split("uv pip compile", 1)[1])
    told = shlex.split(found.group(1).split("uv pip compile", 1)[1])
    only_make = {"--quiet", "--custom-compile-command", "make lock"}  # how uv reports
    assert [w for w in told if w not in ran] == [], "in docs/tests.md, not in make lock"
    assert [w for w in ran if w not in told and w not in only_make] == [], "not in docs/tests.md"


def installed_closure(requirements):
    """Canonical names of what installing these requirements pulls in, followed through
    the metadata installed here (a requirement whose distribution is missing is still
    named)."""
    names, done = set(), set()
    todo = [(req.name, frozenset(req.extras)) for req in requirements]
    while todo:
        name, extras = todo.pop()
        if (canonicalize_name(name), extras) in done:
            continue
        done.add((canonicalize_name(name), extras))
        names.add(canonicalize_name(name))
        try:
            requires = distribution(name).requires or []
        except PackageNotFoundError:
            continue
        environments = [{"extra": extra} for extra in ("", *extras)]
        for line in requires:
            req = Requirement(line)
            if req.marker is None or any(req.marker.evaluate(e) for e in environments):
                todo.append((req.name, frozenset(req.extras)))
    return names


def test_this_test_environment_is_the_lock():
    # in a venv that `make test` installed, every pin that applies here is what is installed;
    # the lock also holds the class's packages, which `make test` does not install
    if not (Path(sys.prefix) / ".installed-test").exists():
        pytest.skip(f"{sys.prefix} was not installed by `make test`")
    class_installed = (Path(sys.prefix) / ".installed-class").exists()
    # what `make test` asks for, from pyproject itself (an older install's metadata of
    # attnlib may lack a dependency added since)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    extras = project["optional-dependencies"]
    asked = project["dependencies"] + extras["notebook"] + extras["test"] + extras["site"]
    asked += list(_requirement_lines(LOCK_INPUT.read_text()))
    if class_installed:  # `make class` adds the class extra (not the one-machine hub's own)
        asked += extras["class"]
    test_install = installed_closure([Requirement(line) for line in asked])
    wrong = []
    for pin in read_lock(LOCK.read_text()):
        if pin.marker is not None and not pin.marker.evaluate():
            continue
        pinned = next(iter(pin.specifier)).version
        try:
            installed = version(pin.name)
        except PackageNotFoundError:
            installed = None
        wanted_here = canonicalize_name(pin.name) in test_install
        if installed is None and not wanted_here:
            continue
        # a local label is the same release built another way (torch 2.13.0+cpu)
        if installed is None or Version(installed).public != Version(pinned).public:
            wrong.append(f"{pin.name}: {installed or 'not installed'}, the lock says {pinned}")
    assert not wrong, "the test venv differs from the lock (run make test):\n  " + "\n  ".join(
        wrong
    )
