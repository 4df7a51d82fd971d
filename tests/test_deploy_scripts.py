"""The project's shell scripts: each passes shellcheck, and each route's scripts run here
against stub commands (`tljh-config`, `useradd`, ...) with their paths pointed into a
scratch folder, so that a script that parses but stops half-way fails a test.

`bash -n` alone let through a setup.sh that stopped on every run: an apostrophe inside
`${2:?...}` opened a quote that swallowed the next line (shellcheck SC1011, SC2154)."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

from tests.test_class_list import TRICKY
from tests.test_deploy import (
    DEPLOY,
    ROOT,
    TLJH,
    load_hub_config,
    load_tljh_dropin,
    nbgitpuller_link,
)

SHEBANG_SHELLS = ("sh", "bash", "dash")


def shell_scripts() -> list[str]:
    """Every tracked file whose first line runs a shell (#!/bin/bash, #!/usr/bin/env bash)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    if listed.returncode != 0:
        pytest.skip("not a git checkout: cannot list the tracked shell scripts")
    found = []
    for name in filter(None, listed.stdout.split("\0")):
        path = ROOT / name
        if not path.is_file() or path.is_symlink():
            continue
        with path.open("rb") as f:
            first = f.readline(200).decode("utf-8", "replace")
        if first.startswith("#!") and first.split()[-1].rsplit("/", 1)[-1] in SHEBANG_SHELLS:
            found.append(name)
    return sorted(found)


def makefile_shell_scripts() -> list[str]:
    """SHELL_SCRIPTS as make expands it (the list `make lint` gives shellcheck)."""
    out = subprocess.run(
        ["make", "-s", "--no-print-directory", "-f", "Makefile", "-f", "-", "show"],
        input="show:\n\t@echo $(SHELL_SCRIPTS)\n",
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    )
    return sorted(out.stdout.split())


def need_shellcheck() -> str:
    found = shutil.which("shellcheck")
    if found:
        return found
    message = "shellcheck is not installed: apt-get install shellcheck (or brew install shellcheck)"
    if os.environ.get("CI") == "true":
        pytest.fail(message + " (CI=true: the check may not be skipped)")
    pytest.skip(message)


# ------------------------------------------------------------- shellcheck


def test_shell_scripts_are_found_and_all_listed_for_make_lint():
    scripts = shell_scripts()
    # the finder is only worth something if it finds the scripts we know of
    assert {"deploy/tljh/setup.sh", "deploy/jupyterhub/create-students.sh"} <= set(scripts)
    assert "binder/postBuild" in scripts  # no .sh suffix: found by its first line
    assert makefile_shell_scripts() == scripts, (
        "the Makefile's SHELL_SCRIPTS (what `make lint` checks) and the tracked shell "
        f"scripts differ: Makefile {makefile_shell_scripts()}, tracked {scripts}"
    )


@pytest.mark.parametrize("script", shell_scripts() if (ROOT / ".git").exists() else [])
def test_shell_script_passes_shellcheck(script):
    shellcheck = need_shellcheck()
    assert (ROOT / script).stat().st_mode & 0o100, f"{script} is not executable (chmod +x)"
    result = subprocess.run(
        [shellcheck, "-S", "warning", script], cwd=ROOT, capture_output=True, text=True
    )
    assert result.returncode == 0, f"shellcheck -S warning {script}:\n{result.stdout}"


def test_shellcheck_finds_the_quote_that_broke_tljh_setup(tmp_path):
    # the check must see the bug it is here for: an apostrophe inside ${VAR:?...}
    shellcheck = need_shellcheck()
    broken = tmp_path / "broken.sh"
    broken.write_text(  # setup.sh's lines 16-17 before the fix
        "#!/bin/bash\n"
        "email=${2:?$usage (EMAIL: for Let's Encrypt)}\n"
        "host=${3:?$usage (HOSTNAME: the hub's DNS name)}\n"
        'echo "$email $host"\n'
    )
    result = subprocess.run([shellcheck, "-S", "warning", str(broken)], capture_output=True)
    assert result.returncode != 0 and b"SC1011" in result.stdout, result.stdout


# ------------------------------------------------------------- stub commands


def stub(folder: Path, name: str, body: str = "") -> None:
    """A command `name` on the stub PATH that logs its arguments (tab-separated) to
    $STUB_LOG as `name<TAB>arg...`, then runs `body`."""
    path = folder / name
    path.write_text(
        "#!/bin/bash\n"
        f'{{ printf "%s" {name}; printf "\\t%s" "$@"; echo; }} >>"$STUB_LOG"\n' + body + "\n"
    )
    path.chmod(0o755)


def calls(log: Path) -> list[tuple[str, ...]]:
    if not log.exists():
        return []
    return [tuple(line.split("\t")) for line in log.read_text().splitlines()]


def run_script(script: Path, args: list[str], stubs: Path, log: Path, **env: str):
    # the stubs first, then the system's own tools (install, cp, python3)
    environment = {
        "PATH": f"{stubs}:/usr/local/bin:/usr/bin:/bin",
        "STUB_LOG": str(log),
        "HOME": str(stubs.parent),
        "LANG": "C.UTF-8",
        **env,
    }
    return subprocess.run(
        ["bash", str(script), *args], env=environment, capture_output=True, text=True
    )


# ------------------------------------------------------------- TLJH setup.sh


def run_tljh_setup(tmp_path: Path, class_text: str, *extra: str, **env: str):
    stubs = tmp_path / "stubs"
    stubs.mkdir(parents=True)
    stub(stubs, "tljh-config")
    class_list = tmp_path / "class.txt"
    class_list.write_bytes(class_text.encode())
    prefix, class_config, log = tmp_path / "tljh", tmp_path / "attnlib-class", tmp_path / "log"
    args = [str(class_list), "teacher@uni.test", "hub.uni.test", "https://git.uni.test/attnlib.git"]
    result = run_script(
        TLJH / "setup.sh",
        [*args, *extra],
        stubs,
        log,
        TLJH_INSTALL_PREFIX=str(prefix),
        ATTNLIB_CLASS_CONFIG=str(class_config),
        **env,
    )
    return result, calls(log), prefix, class_config


def test_tljh_setup_runs_to_the_end_against_a_stub_tljh_config(tmp_path):
    result, made, prefix, class_config = run_tljh_setup(tmp_path, "ada\nalan\n")
    assert result.returncode == 0, f"setup.sh stopped:\n{result.stderr}"
    config = [c[1:] for c in made if c[0] == "tljh-config"]
    for command in (
        ("set", "auth.type", "firstuseauthenticator.FirstUseAuthenticator"),
        ("set", "auth.FirstUseAuthenticator.create_users", "false"),
        ("add-item", "users.allowed", "ada"),
        ("add-item", "users.allowed", "alan"),
        ("set", "limits.memory", load_hub_config(tmp_path / "one").SystemdSpawner.mem_limit),
        ("set", "limits.cpu", "1"),
        ("set", "services.cull.timeout", "3600"),
        ("set", "https.enabled", "true"),
        ("set", "https.letsencrypt.email", "teacher@uni.test"),
        ("add-item", "https.letsencrypt.domains", "hub.uni.test"),
    ):
        assert command in config, f"setup.sh did not run tljh-config {' '.join(command)}"
    # HTTPS is only turned on together with its domain, and the reloads come last
    assert config.index(("set", "https.enabled", "true")) < config.index(
        ("add-item", "https.letsencrypt.domains", "hub.uni.test")
    )
    assert config[-2:] == [("reload", "proxy"), ("reload",)]
    # the drop-in and its settings, where TLJH reads them
    dropins = prefix / "config" / "jupyterhub_config.d"
    assert (dropins / "attnlib_course.py").read_text() == (TLJH / "attnlib_course.py").read_text()
    course = json.loads((dropins / "attnlib_course.json").read_text())
    assert course == {
        "repo": "https://git.uni.test/attnlib.git",
        "branch": "main",
        "server_config": str(class_config),
        "landing": "notebooks/00_start_here.ipynb",
    }
    served = {p.relative_to(class_config) for p in class_config.rglob("*") if p.is_file()}
    shipped = {
        p.relative_to(DEPLOY / "server-config")
        for p in (DEPLOY / "server-config").rglob("*")
        if p.is_file() and "__pycache__" not in p.parts
    }
    assert shipped and shipped <= served


def test_tljh_setup_installs_a_dropin_that_sends_students_to_the_course(tmp_path):
    result, _, prefix, class_config = run_tljh_setup(tmp_path, "ada\n", "spring")
    assert result.returncode == 0, result.stderr
    installed = prefix / "config" / "jupyterhub_config.d"
    course = json.loads((installed / "attnlib_course.json").read_text())
    c = load_tljh_dropin(tmp_path / "hub", course["repo"], allowed={"ada"}, settings=course)
    link = nbgitpuller_link(c.Spawner.default_url)
    assert (link["repo"], link["branch"]) == ("https://git.uni.test/attnlib.git", "spring")
    assert c.Spawner.environment["JUPYTER_CONFIG_PATH"] == str(class_config)


@pytest.mark.parametrize(
    ("edition", "landing"),
    [(None, "notebooks/00_start_here.ipynb"), ("zh", "notebooks/zh/00_start_here.ipynb")],
)
def test_tljh_setup_lands_on_the_start_page_of_the_edition_asked_for(tmp_path, edition, landing):
    env = {"ATTNLIB_EDITION": edition} if edition else {}
    result, _, prefix, _ = run_tljh_setup(tmp_path, "ada\n", **env)
    assert result.returncode == 0, result.stderr
    course = json.loads(
        (prefix / "config" / "jupyterhub_config.d" / "attnlib_course.json").read_text()
    )
    c = load_tljh_dropin(tmp_path / "hub", course["repo"], allowed={"ada"}, settings=course)
    urlpath = nbgitpuller_link(c.Spawner.default_url)["urlpath"]
    assert urlpath == f"lab/tree/attnlib-course/{landing}"
    assert (ROOT / landing).is_file()


def test_tljh_setup_refuses_an_edition_the_course_has_not(tmp_path):
    result, made, prefix, _ = run_tljh_setup(tmp_path, "ada\n", ATTNLIB_EDITION="fr")
    assert result.returncode == 2
    assert "ATTNLIB_EDITION=fr is not an edition" in result.stderr
    assert "'en', 'zh'" in result.stderr  # languages.py names the editions there are
    assert made == [] and not prefix.exists(), (
        "nothing may be changed before the edition is checked"
    )


def test_tljh_dropin_from_before_the_edition_lands_on_the_english_start_page(tmp_path):
    # an attnlib_course.json written by an older setup.sh has no "landing"
    c = load_tljh_dropin(tmp_path, "https://git.uni.test/attnlib.git", allowed={"ada"})
    urlpath = nbgitpuller_link(c.Spawner.default_url)["urlpath"]
    assert urlpath == "lab/tree/attnlib-course/notebooks/00_start_here.ipynb"


@pytest.mark.parametrize("count", [0, 3, 6])
def test_tljh_setup_names_a_wrong_number_of_arguments(tmp_path, count):
    stubs = tmp_path / "stubs"
    stubs.mkdir()
    stub(stubs, "tljh-config")
    args = ["class.txt", "t@uni.test", "hub.uni.test", "https://git.uni.test/a.git", "main", "x"]
    result = run_script(TLJH / "setup.sh", args[:count], stubs, tmp_path / "log")
    assert result.returncode == 2
    assert f"expected 4 or 5 arguments, got {count}" in result.stderr
    assert "Let's Encrypt" in result.stderr and "HOSTNAME" in result.stderr
    assert calls(tmp_path / "log") == [], "nothing may be changed before the arguments are checked"


# ------------------------------------------------------------- one machine: create-students.sh


def user_stubs(tmp_path: Path, existing: tuple[str, ...] = ()) -> tuple[Path, Path]:
    """Stubs of the account commands: `id` knows `existing` and whoever `useradd` made;
    homes go to tmp_path/home; `chpasswd` keeps what it is given in chpasswd.txt."""
    stubs, homes = tmp_path / "stubs", tmp_path / "home"
    stubs.mkdir(parents=True)
    homes.mkdir()
    for name in existing:
        (homes / name).mkdir()
    stub(stubs, "id", f'[ -d "{homes}/${{1:?}}" ]')
    stub(stubs, "useradd", f'mkdir "{homes}/${{!#}}"')
    stub(stubs, "getent", f'echo "$2:x:1001:1001::{homes}/$2:/bin/bash"')
    stub(stubs, "chpasswd", f'cat >>"{tmp_path}/chpasswd.txt"')
    return stubs, homes


def run_create_students(tmp_path: Path, class_text: str, *args: str, existing=(), **env):
    """create-students.sh on `class_text`, its passwords to tmp_path/private/passwords.txt
    unless `args` give another file. Returns the run, the accounts made and their homes."""
    if not (tmp_path / "stubs").exists():
        user_stubs(tmp_path, existing)
    stubs, homes = tmp_path / "stubs", tmp_path / "home"
    class_list = tmp_path / "class.txt"
    class_list.write_bytes(class_text.encode())
    log = tmp_path / "log"
    args = args or (str(tmp_path / "private" / "passwords.txt"),)
    before = len(calls(log))
    result = run_script(DEPLOY / "create-students.sh", [str(class_list), *args], stubs, log, **env)
    made = [c[-1] for c in calls(log)[before:] if c[0] == "useradd"]
    return result, made, homes


def test_create_students_makes_an_account_for_every_name_on_a_tricky_list(tmp_path):
    result, made, homes = run_create_students(tmp_path, TRICKY, existing=("alan",))
    assert result.returncode == 0, result.stderr
    assert made == ["ada", "grace"]  # alan has an account already
    assert "alan: account exists, left as it is" in result.stderr
    for name in made:
        assert (homes / name).stat().st_mode & 0o777 == 0o700, f"{name}'s home is not 0700"
    passwords = (tmp_path / "chpasswd.txt").read_text().splitlines()
    assert [line.split(":")[0] for line in passwords] == ["ada", "grace"]
    assert all(len(line.split(":", 1)[1]) >= 12 for line in passwords)


def test_create_students_stops_before_any_account_on_a_bad_line(tmp_path):
    result, made, _ = run_create_students(tmp_path, "ada\nAda Lovelace\n")
    assert result.returncode != 0 and made == []
    assert "line 2: 'Ada Lovelace' is not a login name" in result.stderr


# ------------------------------------------------------------- every route, one class list


def test_every_route_reads_the_same_names_from_the_same_class_list(tmp_path):
    (tmp_path / "hub").mkdir()
    (tmp_path / "hub" / "class.txt").write_bytes(TRICKY.encode())
    hub = load_hub_config(tmp_path / "hub").Authenticator.allowed_users
    result, made, _ = run_create_students(tmp_path / "one", TRICKY)
    assert result.returncode == 0, result.stderr
    result, config, _, _ = run_tljh_setup(tmp_path / "tljh", TRICKY)
    assert result.returncode == 0, result.stderr
    tljh = [c[-1] for c in config if c[1:3] == ("add-item", "users.allowed")]
    assert hub == set(made) == set(tljh) == {"ada", "alan", "grace"}
    assert sorted(made) == sorted(tljh)  # each once


def test_create_students_writes_the_passwords_itself_readable_by_root_only(tmp_path):
    result, made, _ = run_create_students(tmp_path, "ada\nalan\n")
    assert result.returncode == 0, result.stderr
    passwords = tmp_path / "private" / "passwords.txt"
    assert passwords.stat().st_mode & 0o777 == 0o600, oct(passwords.stat().st_mode)
    assert (tmp_path / "private").stat().st_mode & 0o777 == 0o700
    lines = passwords.read_text().splitlines()
    given = dict(line.split(":", 1) for line in (tmp_path / "chpasswd.txt").read_text().split())
    assert dict(line.split(" ", 1) for line in lines) == given  # the passwords that were set
    assert not [p for p in given.values() if p in result.stdout + result.stderr]
    assert f"2 new accounts; their passwords are in {passwords}" in result.stdout
    # a late student: the same command again adds one account and one line
    result, made, _ = run_create_students(tmp_path, "ada\nalan\nlinus\n")
    assert result.returncode == 0 and made == ["linus"], result.stderr
    assert passwords.read_text().splitlines()[:2] == lines
    assert passwords.read_text().splitlines()[2].startswith("linus ")
    assert passwords.stat().st_mode & 0o777 == 0o600


def test_create_students_makes_the_teachers_accounts_too(tmp_path):
    result, made, _ = run_create_students(
        tmp_path, "ada\ngrace\n", ATTNLIB_TEACHERS="grace, turing"
    )
    assert result.returncode == 0, result.stderr
    assert made == ["ada", "grace", "turing"]


@pytest.mark.parametrize("where", ["repository", "others-write", "symlink", "not-yours"])
def test_create_students_refuses_a_password_file_others_could_read(tmp_path, where):
    user_stubs(tmp_path)
    if where == "repository":
        target, named = ROOT / "deploy" / "passwords.txt", "inside the course's repository"
        mode = (ROOT / "deploy").stat().st_mode
    elif where == "others-write":
        shared = tmp_path / "shared"
        shared.mkdir(mode=0o777)
        shared.chmod(0o1777)  # as /tmp
        target, named = shared / "passwords.txt", "others may write to"
    elif where == "symlink":
        (tmp_path / "private").mkdir(mode=0o700)
        target, named = tmp_path / "private" / "passwords.txt", "not a plain file of yours"
        target.symlink_to(tmp_path / "elsewhere.txt")
    else:
        if os.geteuid() != 0:
            pytest.skip("needs root, to give the file to another user")
        (tmp_path / "private").mkdir(mode=0o700)
        target, named = tmp_path / "private" / "passwords.txt", "not a plain file of yours"
        target.touch()
        os.chown(target, 65534, 65534)
    result, made, _ = run_create_students(tmp_path, "ada\n", str(target))
    assert result.returncode == 1 and named in result.stderr, result.stderr
    assert made == [], "no account may be made before the password file is known to be safe"
    assert where in {"symlink", "not-yours"} or not target.exists()
    if where == "repository":  # and the folder it names is left as it was
        assert (ROOT / "deploy").stat().st_mode == mode


# ------------------------------------------------------------- Kubernetes


def run_python(script: Path, *args: str, cwd: Path = ROOT):
    return subprocess.run(
        [sys.executable, str(script), *args], cwd=cwd, capture_output=True, text=True
    )


def local_values(tmp_path: Path, **changes: str) -> Path:
    """z2jh-values.local.example.yaml filled in as a teacher would, then `changes`
    (text replaced) applied."""
    text = (DEPLOY / "z2jh-values.local.example.yaml").read_text()
    for old, new in {
        "CHANGE-ME.hub.example.edu": "hub.uni.test",
        "CHANGE-ME@example.edu": "teacher@uni.test",
        "CHANGE-ME-student01": "ada",
        "CHANGE-ME-student02": "alan",
        "CHANGE-ME-teacher": "grace",
        "registry.example.edu/": "registry.uni.test/",
        'tag: "CHANGE-ME"': 'tag: "2026-12-01"',
        "ATTNLIB_COURSE_REPO: CHANGE-ME": "ATTNLIB_COURSE_REPO: https://git.uni.test/a.git",
        **changes,
    }.items():
        text = text.replace(old, new)
    path = tmp_path / "z2jh-values.local.yaml"
    path.write_text(text)
    return path


def test_check_values_names_every_placeholder_before_helm():
    result = run_python(
        DEPLOY / "check-values.py",
        str(DEPLOY / "z2jh-values.yaml"),
        str(DEPLOY / "z2jh-values.local.example.yaml"),
    )
    assert result.returncode == 1
    for named in (
        "CHANGE-ME-student01, CHANGE-ME-student02, CHANGE-ME-teacher",
        "proxy.https.hosts",
        "proxy.https.letsencrypt.contactEmail",
        "singleuser.image.name is 'registry.example.edu/teaching/attnlib-course'",
        "singleuser.image.tag",
        "singleuser.extraEnv.ATTNLIB_COURSE_REPO",
    ):
        assert named in result.stderr, f"check-values did not name {named!r}:\n{result.stderr}"


def test_check_values_passes_the_filled_in_local_file(tmp_path):
    local = local_values(tmp_path)
    result = run_python(DEPLOY / "check-values.py", str(DEPLOY / "z2jh-values.yaml"), str(local))
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("values ready for helm")
    # ... and the hub, given the same two files, starts (the same check, run by the chart)
    import yaml

    from tests.test_deploy import CHART_DEFAULTS, merged, start_hub_on_kubernetes

    both = merged(
        yaml.safe_load((DEPLOY / "z2jh-values.yaml").read_text()), yaml.safe_load(local.read_text())
    )
    start_hub_on_kubernetes(merged(CHART_DEFAULTS, both))


@pytest.mark.parametrize(
    ("change", "named"),
    [
        ({"Authenticator:\n": "Authenticator:\n      allow_all: true\n"}, "allow_all is true"),
        (
            {"concurrent_spawn_limit: 60": "concurrent_spawn_limit: 1"},
            "concurrent_spawn_limit is 1",
        ),
        (
            {"hub:\n  config:\n": "hub:\n  config:\n    KubeSpawner:\n      delete_pvc: true\n"},
            "delete_pvc is not false",
        ),
        (
            {
                "concurrent_spawn_limit: 60": "concurrent_spawn_limit: 60\n      "
                "authenticator_class: tmp"
            },
            "is 'tmp', which lets anyone in",
        ),
    ],
    ids=["allow-all", "spawn-limit", "delete-pvc", "tmp"],
)
def test_check_values_refuses_an_open_or_losing_local_file(tmp_path, change, named):
    local = local_values(tmp_path, **change)
    result = run_python(DEPLOY / "check-values.py", str(DEPLOY / "z2jh-values.yaml"), str(local))
    assert result.returncode == 1 and named in result.stderr, result.stderr + result.stdout


def test_check_values_names_a_missing_base_file_or_file(tmp_path):
    local = local_values(tmp_path)
    result = run_python(DEPLOY / "check-values.py", str(local))
    assert result.returncode == 1
    assert "hub.extraConfig.attnlib-fail-closed is missing" in result.stderr
    result = run_python(DEPLOY / "check-values.py", str(tmp_path / "nope.yaml"))
    assert result.returncode == 1 and "cannot read" in result.stderr


def test_check_values_merges_as_the_tests_and_helm_do():
    spec = importlib.util.spec_from_file_location("check_values", DEPLOY / "check-values.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    from tests.test_deploy import CHART_DEFAULTS

    assert module.CHART_DEFAULTS == CHART_DEFAULTS
    assert module.merged({"a": {"b": 1, "c": [1]}}, {"a": {"c": [2]}}) == {"a": {"b": 1, "c": [2]}}


def test_kubernetes_course_pull_runs_and_leaves_its_output_in_the_home(tmp_path):
    import yaml

    vals = yaml.safe_load((DEPLOY / "z2jh-values.yaml").read_text())["singleuser"]
    shell, flag, script = vals["lifecycleHooks"]["postStart"]["exec"]["command"]
    home = tmp_path / "home"
    home.mkdir()
    script = script.replace("/home/jovyan", str(home))
    stubs = tmp_path / "stubs"
    stubs.mkdir()
    for outcome, body in (
        ("pulled", 'echo "pulled $1 $2 into $3"'),
        ("failed", "echo 'fatal: unreachable' >&2; exit 1"),
    ):
        stub(stubs, "gitpuller", body)
        env = {
            "PATH": f"{stubs}:/usr/bin:/bin",
            "STUB_LOG": str(tmp_path / "log"),
            "ATTNLIB_COURSE_REPO": "https://git.uni.test/a.git",
            "ATTNLIB_COURSE_BRANCH": vals["extraEnv"]["ATTNLIB_COURSE_BRANCH"],
        }
        result = subprocess.run([shell, flag, script], env=env, capture_output=True, text=True)
        log = (home / ".attnlib-course-pull.log").read_text()
        if outcome == "pulled":
            assert result.returncode == 0
            assert f"pulled https://git.uni.test/a.git main into {home}/attnlib-course" in log
        else:
            assert "fatal: unreachable" in log and "course not updated: git failed" in log


# ------------------------------------------------------------- a forgotten password


def test_reset_password_removes_that_students_entry_only(tmp_path):
    import dbm

    path = str(tmp_path / "passwords.dbm")
    with dbm.open(path, "c", 0o600) as db:  # as FirstUseAuthenticator stores them
        db["ada"] = b"$2b$12$hash-of-ada"
        db["alan"] = b"$2b$12$hash-of-alan"
    result = run_python(DEPLOY / "reset-password.py", "--dbm", path, "ada")
    assert result.returncode == 0, result.stderr
    assert "ada: password removed; their next login sets a new one" in result.stdout
    with dbm.open(path, "r") as db:
        assert set(db.keys()) == {b"alan"} and db["alan"] == b"$2b$12$hash-of-alan"
    result = run_python(DEPLOY / "reset-password.py", "--dbm", path, "ada")
    assert result.returncode == 1 and "ada has no password in" in result.stderr
    result = run_python(DEPLOY / "reset-password.py", "--dbm", str(tmp_path / "none"), "ada")
    assert result.returncode == 1 and "expected the hub's password file" in result.stderr


def test_reset_password_reads_the_password_file_the_values_name():
    import yaml

    spec = importlib.util.spec_from_file_location("reset_password", DEPLOY / "reset-password.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    config = yaml.safe_load((DEPLOY / "z2jh-values.yaml").read_text())["hub"]["config"]
    assert module.DEFAULT_DBM == config["FirstUseAuthenticator"]["dbm_path"]


@pytest.mark.parametrize("readme", ["README.md", "README.zh.md", "deploy/jupyterhub/README.md"])
def test_readmes_check_values_before_helm_and_reset_without_deleting_the_user(readme):
    text = (ROOT / readme).read_text(encoding="utf-8")
    assert "check-values.py" in text, f"{readme} does not run check-values.py"
    assert text.index("check-values.py") < text.index("helm upgrade --install"), readme
    assert "z2jh-values.local.yaml" in text, readme
    assert "reset-password.py" in text, readme
    assert "delete the user on the admin page (`/hub/admin`) so that" not in text, readme


# ------------------------------------------------------------- one machine: the hub's start


def test_one_machine_hub_restart_leaves_students_servers_running(tmp_path):
    # a late student means a restart of the hub; JupyterHub's default stops every server
    assert load_hub_config(tmp_path).JupyterHub.cleanup_servers is False


@pytest.mark.parametrize("repo", [None, "", "https://git.example.edu/teaching/attnlib"])
def test_one_machine_hub_needs_the_course_repository_named(tmp_path, repo):
    with pytest.raises(ValueError, match=r"ATTNLIB_COURSE_REPO is '.*': set it to this repo"):
        load_hub_config(tmp_path, ATTNLIB_COURSE_REPO=repo)


def _node_check():
    spec = importlib.util.spec_from_file_location("node_check", DEPLOY / "node_check.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("version", "problem"),
    [
        ("v20.20.2", None),
        ("v22.1.0", None),
        ("v18.19.1", "needs Node.js 20 or newer, but {node} is v18.19.1: install Node.js 20"),
        ("v12.22.9", "is v12.22.9"),
        (None, "needs Node.js 20 or newer, and no `node` is on the PATH"),
    ],
    ids=["20", "22", "ubuntu-24.04-apt", "ubuntu-22.04-apt", "none"],
)
def test_one_machine_hub_names_a_nodejs_too_old_for_the_proxy(tmp_path, version, problem):
    node_check = _node_check()
    # the proxy's own requirement, as npm ci installs it from the lock
    lock = json.loads((DEPLOY / "package-lock.json").read_text())
    engines = lock["packages"]["node_modules/configurable-http-proxy"]["engines"]
    proxy = tmp_path / "configurable-http-proxy"
    proxy.mkdir()
    (proxy / "package.json").write_text(json.dumps({"engines": engines}))
    assert node_check.required_major(proxy / "package.json") == 20
    stubs = tmp_path / "bin"
    stubs.mkdir()
    if version:
        (stubs / "node").write_text(f"#!/bin/sh\necho {version}\n")
        (stubs / "node").chmod(0o755)
    found = node_check.node_problem(proxy, path=str(stubs))
    if problem is None:
        assert found is None
    else:
        assert found and problem.format(node=stubs / "node") in found, found


# ------------------------------------------------------------- the course image: build-image.sh

GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@uni.test", "-c", "commit.gpgsign=false"]


def course_checkout(tmp_path: Path) -> tuple[Path, str]:
    """A git checkout holding build-image.sh where the course has it, and pyproject.toml;
    returns its folder and the commit checked out."""
    repo = tmp_path / "course"
    (repo / "deploy" / "jupyterhub").mkdir(parents=True)
    shutil.copy2(DEPLOY / "build-image.sh", repo / "deploy" / "jupyterhub" / "build-image.sh")
    shutil.copy2(ROOT / "pyproject.toml", repo / "pyproject.toml")
    (repo / ".gitignore").write_text("passwords.txt\n")
    for command in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "course"]):
        subprocess.run([*GIT, *command], cwd=repo, check=True, capture_output=True)
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=repo, check=True, capture_output=True, text=True
    )
    return repo, head.stdout.strip()


def image_stubs(tmp_path: Path, build: str = "") -> Path:
    """jupyter-repo2docker, which keeps the labels it was given in labels.txt (then runs
    `build`), and docker, whose `inspect` reads them back: the real git is used."""
    stubs = tmp_path / "stubs"
    stubs.mkdir()
    labels = tmp_path / "labels.txt"
    stub(
        stubs,
        "jupyter-repo2docker",
        'while [ $# -gt 0 ]; do [ "$1" = --label ] && echo "$2" >>"' + str(labels) + '"; '
        "shift; done\n" + build,
    )
    # docker inspect --format '{{ index .Config.Labels "KEY" }}' IMAGE: "<no value>" when unset
    stub(
        stubs,
        "docker",
        'if [ "$1" = inspect ]; then key=${3#*\\"}; key=${key%%\\"*}; '
        f'value=$(sed -n "s/^$key=//p" "{labels}" 2>/dev/null); echo "${{value:-<no value>}}"; fi',
    )
    return stubs


def run_build_image(tmp_path: Path, *args: str, build: str = "", repo: Path | None = None):
    if repo is None:
        repo, _ = course_checkout(tmp_path)
    stubs = image_stubs(tmp_path, build)
    log = tmp_path / "log"
    result = run_script(repo / "deploy" / "jupyterhub" / "build-image.sh", list(args), stubs, log)
    return result, calls(log)


def test_build_image_labels_the_image_with_its_commit_and_pushes_it(tmp_path):
    repo, head = course_checkout(tmp_path)
    image = "registry.uni.test/teaching/attnlib-course"
    result, made = run_build_image(tmp_path, image, "2026-12-01", repo=repo)
    assert result.returncode == 0, result.stderr
    (build,) = [c[1:] for c in made if c[0] == "jupyter-repo2docker"]
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    for label in (
        f"org.opencontainers.image.revision={head}",
        f"org.opencontainers.image.version={version}",
    ):
        assert label in build and build[build.index(label) - 1] == "--label", build
    assert build[build.index("--image-name") + 1] == f"{image}:2026-12-01"
    assert build[build.index("--target-repo-dir") + 1] == "/srv/attnlib"
    assert build[-1] == "."  # the checkout itself
    docker = [c[1:] for c in made if c[0] == "docker"]
    assert docker[-1] == ("push", f"{image}:2026-12-01"), docker
    assert ("run", "--rm", f"{image}:2026-12-01", "python", "-m", "attnlib.version_check") in docker
    assert f"revision {head}" in result.stdout


@pytest.mark.parametrize("change", ["edited", "staged", "untracked"])
def test_build_image_refuses_a_working_tree_with_changes_not_committed(tmp_path, change):
    repo, head = course_checkout(tmp_path)
    if change == "edited":
        (repo / "pyproject.toml").write_text("# changed\n", encoding="utf-8")
    elif change == "staged":
        (repo / "notes.md").write_text("x\n")
        subprocess.run(["git", "add", "notes.md"], cwd=repo, check=True)
    else:
        (repo / "notes.md").write_text("x\n")
    (repo / "passwords.txt").write_text("ignored by git: not a change\n")
    result, made = run_build_image(tmp_path, "registry.uni.test/a", "t1", repo=repo)
    assert result.returncode == 1
    assert f"the working tree differs from commit {head}" in result.stderr
    assert "--allow-dirty" in result.stderr and "git stash -u" in result.stderr
    assert ("pyproject.toml" if change == "edited" else "notes.md") in result.stderr
    assert made == [], "nothing may be built or pushed from a tree that differs from its label"


def test_build_image_with_allow_dirty_builds_and_says_so_in_the_label(tmp_path):
    repo, head = course_checkout(tmp_path)
    (repo / "notes.md").write_text("x\n")
    result, made = run_build_image(
        tmp_path, "--allow-dirty", "registry.uni.test/a", "t1", repo=repo
    )
    assert result.returncode == 0, result.stderr
    (build,) = [c[1:] for c in made if c[0] == "jupyter-repo2docker"]
    assert f"org.opencontainers.image.revision={head}-dirty" in build
    assert "--allow-dirty: building with changes not in" in result.stdout
    assert made[-1] == ("docker", "push", "registry.uni.test/a:t1")


def test_build_image_pushes_nothing_when_the_build_fails(tmp_path):
    # repo2docker stops when postBuild fails: the smoke test's notebook 00 raised
    result, made = run_build_image(
        tmp_path, "registry.uni.test/a", "t1", build="echo 'smoke test: FAILED' >&2; exit 1"
    )
    assert result.returncode == 1 and "smoke test: FAILED" in result.stderr
    assert not [c for c in made if c[0] == "docker"], made


def test_build_image_pushes_nothing_when_the_label_is_missing(tmp_path):
    # a repo2docker that took --label but set no label: inspect finds none
    result, made = run_build_image(
        tmp_path, "registry.uni.test/a", "t1", build=f'rm -f "{tmp_path}/labels.txt"'
    )
    assert result.returncode == 1 and "revision label is '<no value>'" in result.stderr, (
        result.stderr
    )
    assert ("docker", "push", "registry.uni.test/a:t1") not in made


@pytest.mark.parametrize(
    "args", [[], ["registry.uni.test/a"], ["a", "b", "c"], ["--allow-dirty", "a"], ["--dirty", "a"]]
)
def test_build_image_names_its_usage(tmp_path, args):
    result, made = run_build_image(tmp_path, *args)
    assert result.returncode == 2 and "usage: build-image.sh [--allow-dirty]" in result.stderr
    assert made == []


def test_build_image_outside_a_git_checkout_says_why(tmp_path):
    folder = tmp_path / "copy" / "deploy" / "jupyterhub"
    folder.mkdir(parents=True)
    shutil.copy2(DEPLOY / "build-image.sh", folder / "build-image.sh")
    result, made = run_build_image(tmp_path, "registry.uni.test/a", "t1", repo=tmp_path / "copy")
    assert result.returncode == 1 and "is not a git checkout" in result.stderr
    assert made == []


# ------------------------------------------------------------- the course image: postBuild


def test_postbuild_installs_attnlib_then_runs_notebook_00(tmp_path):
    # repo2docker runs it in the image's copy of the repository with the image's python
    stubs = tmp_path / "stubs"
    stubs.mkdir()
    stub(stubs, "python")
    result = run_script(ROOT / "binder" / "postBuild", [], stubs, tmp_path / "log")
    assert result.returncode == 0, result.stderr
    assert [c[1:] for c in calls(tmp_path / "log")] == [
        ("-m", "pip", "install", "--no-cache-dir", "--no-deps", "."),
        ("-m", "attnlib.version_check"),
        ("binder/smoke_test.py",),
    ]


def test_postbuild_stops_the_build_when_the_smoke_test_fails(tmp_path):
    stubs = tmp_path / "stubs"
    stubs.mkdir()
    stub(stubs, "python", '[ "$1" = binder/smoke_test.py ] && exit 1; exit 0')
    result = run_script(ROOT / "binder" / "postBuild", [], stubs, tmp_path / "log")
    assert result.returncode == 1


# ------------------------------------------------------------- CI: .ci/run


def test_ci_run_installs_what_the_tests_need_and_runs_make_test(tmp_path):
    stubs = tmp_path / "stubs"
    stubs.mkdir()
    stub(stubs, "apt-get")
    stub(stubs, "make", 'echo "ATTNLIB_CHROMIUM=$ATTNLIB_CHROMIUM"')
    result = run_script(ROOT / ".ci" / "run", [], stubs, tmp_path / "log")
    assert result.returncode == 0, result.stderr
    made = calls(tmp_path / "log")
    assert made[-1] == ("make", "test")
    assert "ATTNLIB_CHROMIUM=/usr/bin/chromium" in result.stdout
    for call in made[:-1]:  # apt-get only where chromium, the CJK font or shellcheck is missing
        assert call[0] == "apt-get", call
    installs = [c for c in made if c[:2] == ("apt-get", "install")]
    assert not installs or {"chromium", "fonts-noto-cjk", "shellcheck"} <= set(installs[0])


def test_build_image_names_a_missing_repo2docker(tmp_path):
    repo, _ = course_checkout(tmp_path)
    image_stubs(tmp_path)
    (tmp_path / "stubs" / "jupyter-repo2docker").unlink()
    result = run_script(
        repo / "deploy" / "jupyterhub" / "build-image.sh",
        ["registry.uni.test/a", "t1"],
        tmp_path / "stubs",
        tmp_path / "log",
    )
    assert result.returncode == 1
    assert "jupyter-repo2docker not found (deploy/jupyterhub/README.md" in result.stderr
    assert calls(tmp_path / "log") == []
