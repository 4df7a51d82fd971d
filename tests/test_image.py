"""The course image and the hub around it: the smoke test the image build runs (notebook 00,
en and zh, executed here the way binder/postBuild runs it inside the image), the
JupyterHub versions of the routes held to the chart's, the chart's own schema check of
the Kubernetes values, and why jsonschema stays below 4.25.

build-image.sh and postBuild themselves run against stubs in tests/test_deploy_scripts.py."""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

from tests.test_constraints import installed_closure
from tests.test_deploy import BINDER, DEPLOY, ROOT, requirements
from tests.test_deploy_scripts import local_values, run_python

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

LOCK = ROOT / "requirements" / "test.txt"
# What each jupyterhub chart runs as its hub: the jupyterhub pin of the chart's hub image,
# images/hub/requirements.txt in jupyterhub/zero-to-jupyterhub-k8s at the chart's tag
# (and Chart.yaml's appVersion). A new chart: add its row, read from that file.
CHART_JUPYTERHUB = {"4.4.0": "5.5.0"}
# where the teacher is told which chart to install
CHART_NAMED_IN = [
    "deploy/jupyterhub/z2jh-values.yaml",
    "deploy/jupyterhub/z2jh-values.local.example.yaml",
    "deploy/jupyterhub/README.md",
    "docs/teaching.md",
    "docs/zh/teaching.md",
]


def check_values_module():
    import importlib.util

    spec = importlib.util.spec_from_file_location("check_values", DEPLOY / "check-values.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def locked(name: str) -> Version:
    pins = re.findall(rf"^{re.escape(name)}==([^\s;]+)", LOCK.read_text(), re.M)
    assert len(pins) == 1, f"{LOCK.name} pins {name} {len(pins)} times: {pins}"
    return Version(pins[0])


# ------------------------------------------------------------- the smoke test


def smoke_command() -> list[str]:
    """The line of binder/postBuild that runs the smoke test, as words."""
    lines = [
        shlex.split(line, comments=True)
        for line in (BINDER / "postBuild").read_text().splitlines()
        if "smoke_test.py" in line and not line.lstrip().startswith("#")
    ]
    assert len(lines) == 1, f"binder/postBuild runs the smoke test {len(lines)} times"
    return lines[0]


def test_the_image_build_runs_the_smoke_test_after_installing_attnlib():
    post_build = (BINDER / "postBuild").read_text()
    assert smoke_command() == ["python", "binder/smoke_test.py"]
    # after the install, with set -e: a failing notebook fails postBuild, and so the build
    assert post_build.index("pip install") < post_build.index("binder/smoke_test.py")
    assert "set -euo pipefail" in post_build
    # the image holds the script: .dockerignore leaves binder/ in
    ignored = (ROOT / ".dockerignore").read_text().split()
    assert not {"binder", "binder/", "binder/smoke_test.py", "*.py"} & set(ignored)


def test_smoke_test_runs_notebook_00_in_both_editions_as_the_image_build_does():
    # postBuild's own command, with this environment's python, in the repository's root
    # (repo2docker runs postBuild in the image's copy of it)
    python, *args = smoke_command()
    assert python == "python"
    result = subprocess.run(
        [sys.executable, *args], cwd=ROOT, capture_output=True, text=True, timeout=600
    )
    assert result.returncode == 0, result.stdout + result.stderr
    for notebook in ("notebooks/00_start_here.ipynb", "notebooks/zh/00_start_here.ipynb"):
        assert f"{ROOT / notebook} ran to the end" in result.stdout, result.stdout


def test_smoke_test_fails_on_a_cell_that_raises(tmp_path):
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell("x = 1"),
        nbformat.v4.new_code_cell("1 / 0"),
        nbformat.v4.new_code_cell("print('never')"),
    ]
    path = tmp_path / "broken.ipynb"
    nbformat.write(nb, path)
    result = run_python(BINDER / "smoke_test.py", str(path), cwd=tmp_path)
    assert result.returncode == 1
    assert f"{path} FAILED" in result.stderr and "ZeroDivisionError" in result.stderr
    assert "the build stops" in result.stderr
    assert nbformat.read(path, as_version=4).cells[1].outputs == [], "the file is not rewritten"


def test_smoke_test_fails_when_the_images_attnlib_is_older_than_its_course(tmp_path):
    # notebook 00's first cell, attnlib.require(), against a course that asks for more
    course = tmp_path / "course"
    (course / "notebooks").mkdir(parents=True)
    shutil.copy2(ROOT / "notebooks" / "00_start_here.ipynb", course / "notebooks")
    (course / "pyproject.toml").write_text('[project]\nname = "attnlib"\nversion = "99.0.0"\n')
    result = run_python(
        BINDER / "smoke_test.py", str(course / "notebooks" / "00_start_here.ipynb"), cwd=tmp_path
    )
    assert result.returncode == 1, result.stdout
    assert "99.0.0" in result.stderr, result.stderr


# ------------------------------------------------------------- one JupyterHub


def chart_versions_named() -> dict[str, set[str]]:
    found = {}
    for name in CHART_NAMED_IN:
        text = (ROOT / name).read_text(encoding="utf-8")
        found[name] = set(re.findall(r"jupyterhub/jupyterhub\s+--version\s+(\S+)", text))
    return found


def test_every_helm_command_installs_the_chart_the_values_were_written_for():
    chart = check_values_module().CHART_VERSION
    named = chart_versions_named()
    assert all(named.values()), f"no helm command with --version in {named}"
    assert {v for versions in named.values() for v in versions} == {chart}, named
    assert chart in CHART_JUPYTERHUB, f"chart {chart}: add its hub's JupyterHub to the table"


def test_the_one_machine_hub_and_make_class_run_the_charts_jupyterhub():
    # the lock (one machine, make class) against the hub that chart runs on Kubernetes:
    # the lock held JupyterHub 6.1.1 while the chart runs 5.5.0
    hub = Version(CHART_JUPYTERHUB[check_values_module().CHART_VERSION])
    assert locked("jupyterhub") == hub, (
        f"requirements/test.txt pins jupyterhub {locked('jupyterhub')}, the chart's hub runs "
        f"{hub}: pin it in deploy/jupyterhub/requirements.txt and run make lock"
    )
    (pin,) = [str(r.specifier) for r in [requirements(DEPLOY / "requirements.txt")["jupyterhub"]]]
    assert pin == f"=={hub}"


def test_the_images_single_user_server_runs_the_charts_jupyterhub():
    # the students' servers and the hub of the same JupyterHub: the image took
    # repo2docker's base (5.4.0) or whatever conda-forge had within 5.x
    hub = Version(CHART_JUPYTERHUB[check_values_module().CHART_VERSION])
    assert image_pins()["jupyterhub"] == hub, (
        f"binder/requirements.txt pins jupyterhub {image_pins()['jupyterhub']}, the chart's hub "
        f"runs {hub}"
    )


# ------------------------------------------------------------- the image from the lock
# repo2docker's rules (its docs, configuration/ and howto/languages, and its buildpacks at
# 2026.4.0): in binder/, an environment.yml makes the image a conda build and
# requirements.txt is then ignored; without one, the Python is runtime.txt's and
# `pip install -r binder/requirements.txt` runs over its base environment, replacing
# whatever version the base has of each package named there.


def image_python() -> str:
    return (BINDER / "runtime.txt").read_text().strip().removeprefix("python-")


def linux(python: str) -> dict[str, str]:
    """The marker environment of the image: Linux, CPython `python`."""
    return {
        "python_version": python,
        "python_full_version": f"{python}.0",
        "sys_platform": "linux",
        "platform_system": "Linux",
        "os_name": "posix",
        "implementation_name": "cpython",
        "platform_python_implementation": "CPython",
        "platform_machine": "x86_64",
        "extra": "",
    }


def lock_entries(python: str) -> dict[str, tuple[Version, set[str]]]:
    """The lock's pins that apply in the image: name -> (version, the packages it is
    there for, from the lock's `# via` lines)."""
    entries: dict[str, tuple[Version, set[str]]] = {}
    current = None
    for line in LOCK.read_text().splitlines():
        if line and not line.startswith((" ", "#")):
            req = Requirement(line)
            current = None
            if req.marker is None or req.marker.evaluate(linux(python)):
                current = canonicalize_name(req.name)
                (pin,) = req.specifier
                entries[current] = (Version(pin.version), set())
        elif current and line.lstrip().startswith("#"):
            words = line.strip("# ").removeprefix("via").split()
            if words and not words[0].startswith("-") and "(" not in line:
                entries[current][1].add(canonicalize_name(words[0]))
    return entries


def image_pins() -> dict[str, Version]:
    pins = {}
    for name, req in requirements(BINDER / "requirements.txt").items():
        (pin,) = req.specifier
        assert pin.operator == "==" and req.marker is None, f"binder/requirements.txt: {req}"
        pins[name] = Version(pin.version)
    return pins


def test_the_image_installs_every_package_at_the_locks_version():
    # binder/environment.yml asked conda-forge for ranges (numpy>=1.24, jupyterlab>=4.0, ...):
    # each build took the newest, whatever make test and make class had run with
    locked = {name: version for name, (version, _) in lock_entries(image_python()).items()}
    pins = image_pins()
    assert pins, "binder/requirements.txt pins nothing"
    differ = {n: (str(v), str(locked.get(n))) for n, v in pins.items() if locked.get(n) != v}
    assert not differ, (
        f"binder/requirements.txt (the image) against the lock, (image, lock): {differ}: "
        "run make lock"
    )


def test_the_image_pins_what_it_names_and_what_that_needs_nothing_else():
    # every package named in binder/requirements.in is pinned, and every pin is there for
    # one of them (the lock's `# via` lines): a name added or removed without make lock
    # fails here. (That nothing is missing from the pins is uv's compile's job, and a
    # package missing would be installed at whatever version pip finds.)
    entries = lock_entries(image_python())
    named = set(requirements(BINDER / "requirements.in"))
    reached, grew = set(named), True
    while grew:
        more = {name for name, (_, wanted_by) in entries.items() if wanted_by & reached}
        grew = not more <= reached
        reached |= more
    pins = set(image_pins())
    assert named <= pins, f"named in binder/requirements.in, not pinned: {sorted(named - pins)}"
    assert pins <= reached, f"pinned for no package the image names: {sorted(pins - reached)}"


def test_the_image_pins_everything_its_packages_need():
    # the other way round, through the metadata installed here (this Python's markers):
    # whatever the named packages need and the lock pins for the image's Python is pinned,
    # so pip finds nothing left to choose
    named = [Requirement(name) for name in requirements(BINDER / "requirements.in")]
    entries = lock_entries(image_python())
    needed = {name for name in installed_closure(named) if name in entries}
    missing = sorted(needed - set(image_pins()))
    assert not missing, f"binder/requirements.txt lacks {missing}: run make lock"


def test_repo2docker_builds_the_image_from_the_pinned_file():
    # what would make repo2docker ignore binder/requirements.txt or the Python of runtime.txt
    for other in ("environment.yml", "Pipfile", "Pipfile.lock", "Dockerfile", "Project.toml"):
        assert not (BINDER / other).exists(), f"binder/{other}: repo2docker would build from it"
    lock_python = re.search(r"--python-version (\S+)", (ROOT / "Makefile").read_text())
    assert lock_python and Version(image_python()) >= Version(lock_python.group(1)), (
        f"the lock is compiled for Python {lock_python.group(1)} and newer"
    )
    # no -r, -c, -e or path: repo2docker then installs the file before it copies the
    # repository in, so a rebuild after a change of the notebooks reuses that layer
    for line in (BINDER / "requirements.txt").read_text().splitlines():
        line = line.split("#", 1)[0].strip()
        assert not line or re.fullmatch(r"[A-Za-z0-9._-]+==[A-Za-z0-9.+!-]+", line), line


def test_make_lock_compiles_the_image_from_the_lock_for_the_images_python():
    recipe = subprocess.run(
        ["make", "-n", "lock"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    commands = [shlex.split(c) for c in recipe.replace("\\\n", " ").splitlines()]
    outputs = [c[c.index("-o") + 1] for c in commands if "compile" in c and "-o" in c]
    assert outputs == [str(LOCK.relative_to(ROOT)), "binder/requirements.txt"], outputs
    image = " ".join(commands[[i for i, c in enumerate(commands) if "-o" in c][1]])
    for needed in (
        "binder/requirements.in",
        f"-c {LOCK.relative_to(ROOT)}",
        f"--python-version {image_python()}",
        "--python-platform linux",
    ):
        assert needed in image, f"make lock's compile of the image lacks {needed!r}: {image}"


def chart_dir() -> Path:
    """The jupyterhub chart as `helm pull jupyterhub/jupyterhub --version V --untar` leaves
    it: the copy in tests/data (its README says what it holds and from where), or the
    folder named by ATTNLIB_Z2JH_CHART."""
    version = check_values_module().CHART_VERSION
    where = os.environ.get("ATTNLIB_Z2JH_CHART") or (
        ROOT / "tests" / "data" / f"z2jh-chart-{version}" / "jupyterhub"
    )
    assert (Path(where) / "values.schema.json").is_file(), (
        f"no jupyterhub chart {version} at {where}: helm pull jupyterhub/jupyterhub "
        f"--version {version} --untar, and copy it there (tests/data/z2jh-chart-*/README.md)"
    )
    return Path(where)


def test_the_chart_runs_the_jupyterhub_the_table_says():
    meta = yaml.safe_load((chart_dir() / "Chart.yaml").read_text())
    assert str(meta["version"]) == check_values_module().CHART_VERSION
    assert CHART_JUPYTERHUB[str(meta["version"])] == str(meta["appVersion"])


# ------------------------------------------------------------- the chart's schema


def test_the_kubernetes_values_pass_the_charts_own_schema(tmp_path):
    chart = chart_dir()
    local = local_values(tmp_path)
    base = str(DEPLOY / "z2jh-values.yaml")
    result = run_python(DEPLOY / "check-values.py", "--chart", str(chart), base, str(local))
    assert result.returncode == 0, result.stderr
    assert "valid for the jupyterhub chart" in result.stdout
    # a key the chart does not have, and a pull secret as the README writes it
    text = local.read_text()
    misspelt = tmp_path / "misspelt.yaml"
    misspelt.write_text(text.replace("    tag: ", "    tga: "))
    result = run_python(DEPLOY / "check-values.py", "--chart", str(chart), base, str(misspelt))
    assert result.returncode == 1 and "'tga' was unexpected" in result.stderr, result.stderr
    pulled = tmp_path / "pull-secret.yaml"
    pulled.write_text(text + "imagePullSecrets:\n  - attnlib-registry\n")
    result = run_python(DEPLOY / "check-values.py", "--chart", str(chart), base, str(pulled))
    assert result.returncode == 0, result.stderr


def fake_chart(tmp_path: Path, version: str) -> Path:
    """A chart folder of the shape helm pull leaves, with a small schema of its own."""
    chart = tmp_path / "jupyterhub"
    chart.mkdir()
    (chart / "Chart.yaml").write_text(f"name: jupyterhub\nversion: {version}\n")
    (chart / "values.yaml").write_text("custom: {}\nsingleuser:\n  image:\n    pullPolicy: null\n")
    image = {"type": "object", "additionalProperties": False}
    image["properties"] = {k: {} for k in ("name", "tag", "pullPolicy")}
    schema = {
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "required": ["custom"],
        "properties": {"singleuser": {"properties": {"image": image}}},
    }
    (chart / "values.schema.json").write_text(json.dumps(schema))
    return chart


def test_check_values_with_a_chart_validates_against_its_schema(tmp_path):
    # the plumbing, on a chart of our own making: merged over the chart's values.yaml
    # (which supplies "custom"), then the schema's refusals named with their path
    chart = fake_chart(tmp_path, check_values_module().CHART_VERSION)
    base = str(DEPLOY / "z2jh-values.yaml")
    local = local_values(tmp_path)
    result = run_python(DEPLOY / "check-values.py", "--chart", str(chart), base, str(local))
    assert result.returncode == 0, result.stderr
    misspelt = tmp_path / "misspelt.yaml"
    misspelt.write_text(local.read_text().replace("    tag: ", "    tga: "))
    result = run_python(DEPLOY / "check-values.py", "--chart", str(chart), base, str(misspelt))
    assert result.returncode == 1
    assert "singleuser.image: Additional properties are not allowed ('tga'" in result.stderr


def test_check_values_refuses_a_chart_of_another_version(tmp_path):
    chart = fake_chart(tmp_path, "3.3.8")
    result = run_python(
        DEPLOY / "check-values.py", "--chart", str(chart), str(DEPLOY / "z2jh-values.yaml")
    )
    assert result.returncode == 1
    assert "is the jupyterhub chart 3.3.8; these values were written for 4.4.0" in result.stderr


# ------------------------------------------------------------- jsonschema below 4.25


def test_the_locked_jsonschema_builds_no_iri_parsers_at_import():
    # Why the pin (deploy/jupyterhub/README.md, "Start-up CPU"): jsonschema 4.25 and 4.26
    # import rfc3987_syntax, which builds its Lark parsers at import: 1.0-1.2 s of CPU in
    # every process that imports jsonschema (every Jupyter server), 0.13 s with 4.24.1
    # (measured 2026-12-04 with jsonschema 4.25.1, rfc3987-syntax 1.1.0 and lark 1.3.1,
    # the versions of repo2docker's Python 3.12 base, so of the image without the pin).
    # This fails if the lock lets a jsonschema through that still does that.
    assert locked("jsonschema") < Version("4.25")
    probe = "import sys, jsonschema; print('rfc3987_syntax' in sys.modules)"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert result.stdout.strip() == "False", result.stdout + result.stderr
    # every file that installs a class's servers holds it back, the image's included
    for where in (BINDER / "requirements.txt", DEPLOY / "requirements.txt"):
        spec = requirements(where)["jsonschema"].specifier
        assert not spec.contains("4.25.1") and spec.contains(str(locked("jsonschema"))), where


def test_build_image_reads_the_version_pyproject_declares():
    # build-image.sh labels the image with pyproject.toml's version, read by sed: one line
    text = (ROOT / "pyproject.toml").read_text()
    found = re.findall(r'^version = "(.*)"$', text, re.M)
    assert found == [tomllib.loads(text)["project"]["version"]], found


def test_the_deploy_readme_tells_the_teacher_what_the_build_and_the_chart_check_do():
    text = (DEPLOY / "README.md").read_text(encoding="utf-8")
    for needed in (
        "--allow-dirty",
        "org.opencontainers.image.revision",
        "binder/smoke_test.py",
        "helm template class jupyterhub/jupyterhub",
        "check-values.py --chart",
        "jupyter-repo2docker==",
    ):
        assert needed in text, f"deploy/jupyterhub/README.md does not say {needed!r}"
    # helm template comes before the install it guards
    assert text.index("helm template class") < text.index("helm upgrade --install")
