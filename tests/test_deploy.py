"""deploy/: each route to a class (Kubernetes, one machine, The Littlest JupyterHub,
the image) rendered to the settings that take effect, and checked for what a class
must not lose: no open login, the server's root in the student's home, the course
pulled where the landing page looks, and no secret inside the repository. The hub
itself runs in `make class` (tests/classhub).

One file, though long (about 500 lines of code): the routes are checked against
each other (the same course link, the same server root, the same state folder
rules), so their renderers live together."""

from __future__ import annotations

import copy
import io
import json
import os
import re
import shlex
import stat
import subprocess
import sys
from contextlib import redirect_stderr
from importlib import metadata
from pathlib import Path, PurePosixPath
from urllib.parse import parse_qs, urlsplit

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version
from traitlets.config import Config

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy" / "jupyterhub"
TLJH = ROOT / "deploy" / "tljh"
BINDER = ROOT / "binder"
VALUES = DEPLOY / "z2jh-values.yaml"
SERVER_CONFIG_DIR = DEPLOY / "server-config"
SERVER_CONFIG = SERVER_CONFIG_DIR / "jupyter_server_config.d" / "attnlib-class.json"
SECRET_FILES = ("jupyterhub_cookie_secret", "jupyterhub.sqlite", "jupyterhub-proxy.pid")
# a class's personal data, wherever a teacher saves it (the values file's filled-in copy
# is z2jh-values.local.yaml)
CLASS_FILES = ("passwords.txt", "class.txt", "z2jh-values.local.yaml")
# The chart's own defaults that this file relies on (jupyterhub chart 4.4.0, values.yaml):
# the login when none is set, and where each student's volume is mounted.
CHART_DEFAULTS = {
    "hub": {"config": {"JupyterHub": {"authenticator_class": "dummy"}}},
    "singleuser": {"storage": {"homeMountPath": "/home/jovyan"}},
}


# ------------------------------------------------------------- helpers


def merged(base: dict, override: dict) -> dict:
    """Helm's merge of a values file over the chart's defaults (dicts deep, rest replaced)."""
    out = copy.deepcopy(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merged(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def values(text: str | None = None) -> dict:
    return merged(CHART_DEFAULTS, yaml.safe_load(text if text is not None else VALUES.read_text()))


def filled_values_text() -> str:
    """The values file as a teacher would fill it in: every placeholder replaced."""
    text = VALUES.read_text()
    text = text.replace("CHANGE-ME-student01", "ada").replace("CHANGE-ME-student02", "alan")
    text = text.replace("CHANGE-ME-teacher", "grace")
    text = text.replace("CHANGE-ME.hub.example.edu", "hub.uni.test")
    text = text.replace("CHANGE-ME@example.edu", "teacher@uni.test")
    text = text.replace('tag: "CHANGE-ME"', 'tag: "2026-12-01"')
    text = text.replace("registry.example.edu/", "registry.uni.test/")
    text = text.replace(
        "ATTNLIB_COURSE_REPO: CHANGE-ME", "ATTNLIB_COURSE_REPO: https://git.uni.test/a"
    )
    return re.sub(r"\s*# CHANGE-ME[^\n]*", "", text)


def get_config_from(vals: dict):
    """The chart's z2jh.get_config: a dotted key into the values, or a default."""

    def get_config(key: str, default=None):
        node = vals
        for part in key.split("."):
            if not isinstance(node, dict) or part not in node:
                return default
            node = node[part]
        return node

    return get_config


def hub_config_of(vals: dict) -> Config:
    """What the chart's jupyterhub_config.py makes of hub.config: one section per class."""
    c = Config()
    for section, settings in vals["hub"].get("config", {}).items():
        c[section].update(settings)
    return c


def start_hub_on_kubernetes(vals: dict) -> tuple[Config, str]:
    """Run the values' hub.extraConfig as the chart does at the hub's start.

    Returns the config and what it printed; raises SystemExit if it stops the hub.
    """
    c = hub_config_of(vals)
    namespace = {"c": c, "get_config": get_config_from(vals)}
    err = io.StringIO()
    with redirect_stderr(err):
        try:
            for _key, code in sorted(vals["hub"].get("extraConfig", {}).items()):
                exec(compile(code, f"hub.extraConfig.{_key}", "exec"), namespace)
        except SystemExit as stop:
            stop.printed = err.getvalue()
            raise
    return c, err.getvalue()


def load_hub_config(tmp_path: Path, **env: str | None) -> Config:
    """Exec the one-machine jupyterhub_config.py with `env` (None: unset) over defaults
    that let it load: a class list and a state folder in `tmp_path`."""
    state = tmp_path / "state"
    state.mkdir(parents=True, exist_ok=True)
    class_list = tmp_path / "class.txt"
    if not class_list.exists():
        class_list.write_text("ada\nalan\n\ngrace\n")
    settings = {
        "ATTNLIB_CLASS_LIST": str(class_list),
        "ATTNLIB_HUB_STATE": str(state),
        "ATTNLIB_HUB_URL": None,
        "ATTNLIB_SSL_CERT": None,
        "ATTNLIB_SSL_KEY": None,
        "ATTNLIB_TEACHERS": None,
        "ATTNLIB_USER_ENV": None,
        "ATTNLIB_COURSE_REPO": "https://git.uni.test/teaching/attnlib.git",
        **env,
    }
    c = Config()
    old = {k: os.environ.get(k) for k in settings}
    for k, v in settings.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v
    try:
        path = DEPLOY / "jupyterhub_config.py"
        code = compile(path.read_text(), str(path), "exec")
        exec(code, {"get_config": lambda: c, "__file__": str(path)})
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    return c


def load_tljh_dropin(
    tmp_path: Path, repo: str, allowed: set[str], settings: dict | None = None
) -> Config:
    """Exec deploy/tljh/attnlib_course.py as TLJH does, after TLJH's own settings, with
    `settings` (what setup.sh writes beside it; default: `repo` on main) in its .json."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    dropin = tmp_path / "attnlib_course.py"
    dropin.write_text((TLJH / "attnlib_course.py").read_text())
    dropin.with_suffix(".json").write_text(json.dumps(settings or {"repo": repo, "branch": "main"}))
    c = Config()
    c.Authenticator.allowed_users = allowed  # TLJH: tljh-config users.allowed
    c.Spawner.default_url = "/lab"  # TLJH: user_environment.default_app
    exec(
        compile(dropin.read_text(), str(dropin), "exec"),
        {"get_config": lambda: c, "__file__": str(dropin)},
    )
    return c


def nbgitpuller_link(url: str) -> dict[str, str]:
    parts = urlsplit(url)
    assert parts.path == "/git-pull", url
    return {k: v[0] for k, v in parse_qs(parts.query).items()}


def lands_in(root: PurePosixPath, targetpath: str) -> PurePosixPath:
    """Where nbgitpuller clones: targetpath is relative to the server's root."""
    assert not targetpath.startswith("/") and ".." not in PurePosixPath(targetpath).parts, (
        f"targetpath {targetpath!r} must stay inside the server's root"
    )
    return root / targetpath


def image_working_dir() -> PurePosixPath:
    """The course image's working directory: repo2docker's --target-repo-dir (its
    default is the home folder) in the build command of build-image.sh."""
    words = shlex.split((DEPLOY / "build-image.sh").read_text(), comments=True)
    if "--target-repo-dir" in words:
        return PurePosixPath(words[words.index("--target-repo-dir") + 1])
    return PurePosixPath("/home/jovyan")


def kubernetes_server_root(vals: dict) -> PurePosixPath:
    """Where a student's server starts on Kubernetes: KubeSpawner's notebook_dir, else
    its working_dir, else the image's working directory."""
    c = hub_config_of(vals)
    for section, name in (
        ("KubeSpawner", "notebook_dir"),
        ("Spawner", "notebook_dir"),
        ("KubeSpawner", "working_dir"),
    ):
        if c[section].get(name):
            return PurePosixPath(c[section][name])
    return image_working_dir()


def requirements(path: Path) -> dict[str, Requirement]:
    lines = [line.split(" #")[0].strip() for line in path.read_text().splitlines()]
    reqs = [Requirement(line) for line in lines if line and not line.startswith(("#", "-"))]
    return {canonicalize_name(r.name): r for r in reqs}


# ------------------------------------------------------------- Kubernetes: fail closed


def test_kubernetes_values_as_shipped_stop_the_hub_naming_every_placeholder():
    with pytest.raises(SystemExit) as stop:
        start_hub_on_kubernetes(values())
    printed = stop.value.printed
    for key in (
        "allowed_users/admin_users: CHANGE-ME-student01, CHANGE-ME-student02, CHANGE-ME-teacher",
        "proxy.https.hosts",
        "proxy.https.letsencrypt.contactEmail",
        "singleuser.image.tag",
        "singleuser.extraEnv.ATTNLIB_COURSE_REPO",
    ):
        assert key in printed, f"the start-up check did not name {key!r}:\n{printed}"


def test_kubernetes_values_filled_in_start_the_hub():
    c, printed = start_hub_on_kubernetes(values(filled_values_text()))
    assert printed == ""
    assert "dummy" not in c.JupyterHub.authenticator_class.lower()
    assert c.FirstUseAuthenticator.create_users is False  # only the class list
    assert set(c.Authenticator.allowed_users) == {"ada", "alan"}
    assert set(c.Authenticator.admin_users) == {"grace"}


@pytest.mark.parametrize(
    ("change", "named"),
    [
        # a teacher deletes the authenticator line: the chart's default (dummy) returns
        (
            lambda v: v["hub"]["config"]["JupyterHub"].pop("authenticator_class"),
            "authenticator_class is 'dummy', which lets anyone in",
        ),
        (lambda v: v["hub"]["config"]["Authenticator"].update(allowed_users=[]), "allowed_users"),
        (lambda v: v["hub"]["config"]["Authenticator"].update(admin_users=[]), "admin_users"),
        (lambda v: v["proxy"]["https"].update(enabled=False), "proxy.https.enabled"),
        (lambda v: v["proxy"]["https"].update(hosts=[]), "proxy.https.hosts"),
        (
            lambda v: v["hub"]["config"]["JupyterHub"].update(concurrent_spawn_limit=2),
            "concurrent_spawn_limit is 2",
        ),
        (
            lambda v: v["hub"]["config"]["JupyterHub"].update(authenticator_class="tmp"),
            "authenticator_class is 'tmp', which lets anyone in",
        ),
        (
            lambda v: v["hub"]["config"]["JupyterHub"].update(
                authenticator_class="tmpauthenticator.TmpAuthenticator"
            ),
            "lets anyone in",
        ),
        (
            lambda v: v["hub"]["config"]["Authenticator"].update(allow_all=True),
            "hub.config.Authenticator.allow_all is true",
        ),
        (
            lambda v: v["hub"]["config"].update(FirstUseAuthenticator={"allow_all": True}),
            "hub.config.FirstUseAuthenticator.allow_all is true",
        ),
        (
            lambda v: v["hub"]["config"]["KubeSpawner"].pop("delete_pvc"),
            "delete_pvc is not false: deleting a user on the admin page would delete",
        ),
        (
            lambda v: v["singleuser"]["image"].update(name="registry.example.edu/x/course"),
            "singleuser.image.name is 'registry.example.edu/x/course'",
        ),
        (
            lambda v: v["singleuser"]["extraEnv"].update(
                ATTNLIB_COURSE_REPO="https://git.example.edu/a"
            ),
            "ATTNLIB_COURSE_REPO is 'https://git.example.edu/a'",
        ),
    ],
    ids=[
        "no-authenticator",
        "no-class-list",
        "no-teacher",
        "no-https",
        "no-host",
        "spawn-limit",
        "tmp",
        "tmp-class",
        "allow-all",
        "allow-all-of-the-login",
        "volume-deleted-with-user",
        "example-image",
        "example-course",
    ],
)
def test_kubernetes_start_up_check_refuses_each_open_door(change, named):
    vals = yaml.safe_load(filled_values_text())
    change(vals)
    with pytest.raises(SystemExit) as stop:
        start_hub_on_kubernetes(merged(CHART_DEFAULTS, vals))
    assert named in stop.value.printed, stop.value.printed


def test_kubernetes_accepts_a_certificate_of_ones_own():
    vals = yaml.safe_load(filled_values_text())
    vals["proxy"]["https"] = {"enabled": True, "type": "secret", "secret": {"name": "hub-tls"}}
    start_hub_on_kubernetes(merged(CHART_DEFAULTS, vals))


# ------------------------------------------------------------- Kubernetes: the home volume


def test_kubernetes_server_root_is_the_home_volume():
    vals = values()
    home = PurePosixPath(vals["singleuser"]["storage"]["homeMountPath"])
    root = kubernetes_server_root(vals)
    # the image alone would start servers off the volume: the values file must say so
    assert image_working_dir() != home
    assert root == home, f"students' servers start in {root}, not on their volume {home}"
    working_dir = hub_config_of(vals)["KubeSpawner"].get("working_dir")
    assert working_dir and home in (PurePosixPath(working_dir), *PurePosixPath(working_dir).parents)


def test_kubernetes_course_pull_and_landing_page_agree():
    vals = values()
    root = kubernetes_server_root(vals)
    command = " ".join(vals["singleuser"]["lifecycleHooks"]["postStart"]["exec"]["command"])
    # gitpuller REPO BRANCH DIR (the hook itself runs in tests/test_deploy_scripts.py)
    pull = re.search(r'gitpuller "\$ATTNLIB_COURSE_REPO" "\$ATTNLIB_COURSE_BRANCH" (\S+)', command)
    assert pull, command
    assert {"ATTNLIB_COURSE_REPO", "ATTNLIB_COURSE_BRANCH"} <= set(vals["singleuser"]["extraEnv"])
    pulled_to = PurePosixPath(pull.group(1))
    assert root in pulled_to.parents, f"gitpuller clones to {pulled_to}, outside {root}"
    opened = PurePosixPath(vals["singleuser"]["defaultUrl"].removeprefix("/lab/tree/"))
    assert vals["singleuser"]["defaultUrl"].startswith("/lab/tree/")
    assert root / opened.parts[0] == pulled_to, (opened, pulled_to)
    # ... and the page opened is a notebook of this course
    assert (ROOT / PurePosixPath(*opened.parts[1:])).exists(), opened
    # the nbgitpuller link handed out (README) pulls to the same place
    assert lands_in(root, pulled_to.name) == pulled_to


def test_kubernetes_keeps_a_students_volume_when_their_user_is_deleted():
    # KubeSpawner deletes the user's volume with the user by default
    assert hub_config_of(values()).KubeSpawner.delete_pvc is False


def test_kubernetes_hub_secrets_live_on_the_hub_volume():
    c = hub_config_of(values())
    passwords = PurePosixPath(c.FirstUseAuthenticator.dbm_path)
    assert passwords.is_absolute() and PurePosixPath("/srv/jupyterhub") in passwords.parents


def test_kubernetes_private_ip_rule_is_explained_and_left_closed():
    vals = values()
    rules = vals["singleuser"].get("networkPolicy", {}).get("egressAllowRules", {})
    assert rules.get("privateIPs") is not True  # a campus server is allowed one address at a time
    text = VALUES.read_text()
    assert "privateIPs" in text and "ipBlock" in text


# ------------------------------------------------------------- one machine


def test_one_machine_server_root_is_home_and_the_course_lands_there(tmp_path):
    c = load_hub_config(tmp_path, ATTNLIB_COURSE_REPO="https://git.uni.test/x/attnlib.git")
    assert c.Spawner.notebook_dir == "~"
    home = PurePosixPath("/home/ada")  # "~" is each student's home
    link = nbgitpuller_link(c.Spawner.default_url)
    assert link["repo"] == "https://git.uni.test/x/attnlib.git"
    course = lands_in(home, link["targetpath"])
    opened = home / link["urlpath"].removeprefix("lab/tree/")
    assert link["urlpath"].startswith("lab/tree/")
    assert course in opened.parents, f"the landing page {opened} is not in the course {course}"
    assert (ROOT / opened.relative_to(course)).exists(), opened


def test_one_machine_state_lives_outside_the_repository(tmp_path):
    c = load_hub_config(tmp_path)
    state = (tmp_path / "state").resolve()
    paths = {
        "cookie secret": c.JupyterHub.cookie_secret_file,
        "database": c.JupyterHub.db_url.removeprefix("sqlite:///"),
        "hub pid": c.JupyterHub.pid_file,
        "proxy pid": c.ConfigurableHTTPProxy.pid_file,
    }
    assert c.JupyterHub.db_url.startswith("sqlite:///")
    for what, path in paths.items():
        path = Path(path)
        assert path.is_absolute() and path.parent == state, f"{what}: {path}"
        assert ROOT not in path.parents, f"{what} inside the repository: {path}"


def test_one_machine_refuses_a_state_folder_inside_the_repository(tmp_path):
    inside = ROOT / "test-artifacts"
    with pytest.raises(ValueError, match="inside the repository"):
        load_hub_config(tmp_path, ATTNLIB_HUB_STATE=str(inside))
    with pytest.raises(ValueError, match="inside the repository"):
        load_hub_config(tmp_path, ATTNLIB_HUB_STATE=str(ROOT))


def test_one_machine_names_a_missing_state_folder(tmp_path):
    missing = tmp_path / "nowhere"
    with pytest.raises(FileNotFoundError, match=f"{missing}.*install -d -m 700"):
        load_hub_config(tmp_path, ATTNLIB_HUB_STATE=str(missing))


def test_git_ignores_a_hubs_state_anyway():
    for name in SECRET_FILES:
        for where in (name, f"deploy/jupyterhub/{name}"):
            result = subprocess.run(
                ["git", "check-ignore", "--quiet", "--no-index", where], cwd=ROOT, check=False
            )
            if result.returncode == 128:
                pytest.skip("not a git checkout")
            assert result.returncode == 0, f".gitignore does not cover {where}"


def test_git_and_docker_ignore_passwords_class_lists_and_filled_values():
    patterns = {
        line.strip()
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    }
    assert {"**/passwords.txt", "**/class.txt", "**/*.local.yaml"} <= patterns
    for name in CLASS_FILES:
        for where in (name, f"deploy/jupyterhub/{name}", f"deploy/tljh/{name}"):
            result = subprocess.run(
                ["git", "check-ignore", "--quiet", "--no-index", where], cwd=ROOT, check=False
            )
            if result.returncode == 128:
                pytest.skip("not a git checkout")
            assert result.returncode == 0, f".gitignore does not cover {where}"


def test_one_machine_listens_on_the_loopback_unless_it_has_a_certificate(tmp_path):
    c = load_hub_config(tmp_path)
    assert urlsplit(c.JupyterHub.bind_url).hostname == "127.0.0.1"
    with pytest.raises(ValueError, match="plain HTTP"):
        load_hub_config(tmp_path, ATTNLIB_HUB_URL="http://:8000")
    with pytest.raises(ValueError, match="plain HTTP"):
        load_hub_config(tmp_path, ATTNLIB_HUB_URL="http://0.0.0.0:80")
    c = load_hub_config(
        tmp_path,
        ATTNLIB_HUB_URL="https://0.0.0.0:443",
        ATTNLIB_SSL_CERT="/etc/ssl/hub.pem",
        ATTNLIB_SSL_KEY="/etc/ssl/hub.key",
    )
    assert (c.JupyterHub.ssl_cert, c.JupyterHub.ssl_key) == ("/etc/ssl/hub.pem", "/etc/ssl/hub.key")
    caddy = (DEPLOY / "Caddyfile").read_text()
    assert "reverse_proxy 127.0.0.1:8000" in caddy


def test_one_machine_lets_in_the_class_list_only_and_all_of_it_at_once(tmp_path):
    with pytest.raises(ValueError, match="ATTNLIB_CLASS_LIST"):
        load_hub_config(tmp_path, ATTNLIB_CLASS_LIST="")
    c = load_hub_config(tmp_path, ATTNLIB_TEACHERS="grace, ")
    assert c.Authenticator.allowed_users == {"ada", "alan", "grace"}
    assert c.Authenticator.admin_users == {"grace"}
    assert c.JupyterHub.concurrent_spawn_limit == 3  # past it, HTTP 429
    assert "429" in (DEPLOY / "jupyterhub_config.py").read_text()


def test_students_path_is_the_course_environment_without_nodejs(tmp_path):
    env_dir = tmp_path / "course-env"
    c = load_hub_config(tmp_path, ATTNLIB_USER_ENV=str(env_dir))
    path = c.Spawner.environment["PATH"].split(os.pathsep)
    assert path[0] == str(env_dir / "bin")
    assert c.Spawner.cmd == [str(env_dir / "bin" / "jupyterhub-singleuser")]
    assert not [p for p in path if "node" in p], path


def test_systemd_unit_keeps_state_outside_the_repository_and_starts_this_config():
    unit = (DEPLOY / "attnlib-hub.service").read_text()
    settings: dict[str, list[str]] = {}
    for line in unit.splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, value = line.split("=", 1)
            settings.setdefault(key, []).append(value)
    env = dict(e.split("=", 1) for e in settings["Environment"])
    state = PurePosixPath("/var/lib") / settings["StateDirectory"][0]
    assert PurePosixPath(env["ATTNLIB_HUB_STATE"]) == state
    assert PurePosixPath(settings["WorkingDirectory"][0]) == state
    assert settings["StateDirectoryMode"] == ["0700"]
    assert "node" not in env["PATH"]
    command = shlex.split(settings["ExecStart"][0])
    config = PurePosixPath(command[command.index("-f") + 1])
    clone = PurePosixPath("/opt/attnlib")
    assert (ROOT / config.relative_to(clone)).exists(), config
    assert state != clone and clone not in state.parents
    example = dict(
        line.split("=", 1)
        for line in (DEPLOY / "env.example").read_text().splitlines()
        if line and not line.startswith("#")
    )
    assert "ATTNLIB_CLASS_LIST" in example and "ATTNLIB_HUB_STATE" not in example


def test_shell_scripts_parse_and_are_executable():
    for script in (
        DEPLOY / "create-students.sh",
        DEPLOY / "build-image.sh",
        TLJH / "setup.sh",
        BINDER / "postBuild",
    ):
        assert script.stat().st_mode & stat.S_IXUSR, f"{script.name} is not executable"
        result = subprocess.run(["bash", "-n", str(script)], capture_output=True, text=True)
        assert result.returncode == 0, f"{script.name}: {result.stderr}"


# ------------------------------------------------------------- The Littlest JupyterHub


def test_tljh_lands_on_the_same_course_link_in_the_home(tmp_path):
    repo = "https://git.uni.test/x/attnlib.git"
    c = load_tljh_dropin(tmp_path, repo, allowed={f"s{i}" for i in range(35)})
    one_machine = load_hub_config(tmp_path, ATTNLIB_COURSE_REPO=repo)
    assert c.Spawner.notebook_dir == "~"
    assert nbgitpuller_link(c.Spawner.default_url) == nbgitpuller_link(
        one_machine.Spawner.default_url
    )
    assert c.JupyterHub.concurrent_spawn_limit >= 35
    # setup.sh itself runs in tests/test_deploy_scripts.py, against a stub tljh-config


def test_tljh_pins_attnlib_to_this_releases_tag():
    # a branch (@main) is not reinstalled while its version number stays the same
    (req,) = [r for r in requirements(TLJH / "requirements.txt").values() if r.name == "attnlib"]
    ref = req.url.rsplit("@", 1)[1]
    version = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
    assert ref == f"v{version}" or re.fullmatch(r"[0-9a-f]{40}", ref), (
        f"deploy/tljh/requirements.txt installs attnlib from @{ref}: expected the release's "
        f"tag v{version} (or a full commit hash)"
    )


@pytest.mark.parametrize(
    "readme", ["docs/teaching.md", "docs/zh/teaching.md", "deploy/jupyterhub/README.md"]
)
def test_tljh_admin_gets_a_password_at_install(readme):
    text = (ROOT / readme).read_text(encoding="utf-8")
    assert '--admin "teacher:' in text, f"{readme}: TLJH's admin has no password at install"
    assert not re.search(r"--admin teacher(?!:)\s+\\", text), readme


# ------------------------------------------------------------- the image


def test_the_image_installs_pyprojects_packages_and_the_class_ones():
    # binder/requirements.in names what the image installs; make lock pins it
    # (tests/test_image.py holds the pins to the lock)
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    wanted = {
        canonicalize_name(Requirement(r).name)
        for r in project["dependencies"] + project["optional-dependencies"]["notebook"]
    }
    class_only = {"nbgitpuller", "jupyterhub", "jsonschema"}
    named = requirements(BINDER / "requirements.in")
    assert set(named) == wanted | class_only, (
        "binder/requirements.in and pyproject.toml (dependencies + [notebook]) differ:\n"
        f"  only in binder/: {sorted(set(named) - wanted - class_only)}\n"
        f"  only in pyproject.toml: {sorted(wanted - set(named))}"
    )
    # names only: the versions come from the lock, through make lock
    assert not [str(r) for r in named.values() if r.specifier or r.extras or r.marker]


def test_binder_pins_python_as_repo2docker_reads_it():
    # repo2docker reads binder/runtime.txt as NAME-VERSION ("python-3.12"); with requirements.txt
    # it is the only place the Python version can be given, and without it repo2docker
    # picks its own default, which changes with its releases
    name, _, version = (BINDER / "runtime.txt").read_text().strip().partition("-")
    assert name == "python" and re.fullmatch(r"3\.\d+", version), (name, version)
    minimum = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["requires-python"]
    assert Version(version) in Requirement(f"python{minimum}").specifier


def test_image_installs_a_fixed_copy_of_attnlib_and_records_its_version():
    post_build = (BINDER / "postBuild").read_text()
    install = [line for line in post_build.splitlines() if "pip install" in line]
    assert install and all(" -e " not in f" {line} " for line in install), install
    assert any(line.rstrip().endswith(" .") for line in install), install
    assert "attnlib.version_check" in post_build
    assert not (ROOT / "postBuild").exists(), "repo2docker reads binder/ and ignores ./postBuild"


def test_dockerignore_keeps_environments_test_output_and_secrets_out_of_the_image():
    patterns = {
        line.strip()
        for line in (ROOT / ".dockerignore").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    }
    for needed in (".venv", "test-artifacts", "**/node_modules", ".git"):
        assert needed in patterns, needed
    for name in SECRET_FILES:
        assert f"**/{name}" in patterns, name


def test_attnlib_version_is_the_same_in_the_code_and_the_package():
    import attnlib

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert attnlib.__version__ == project["version"]
    try:
        installed = metadata.version("attnlib")
    except metadata.PackageNotFoundError:
        pytest.skip("attnlib is not installed (pip install -e .)")
    assert installed == project["version"], "reinstall: pip install -e ."


# ------------------------------------------------------------- the jsonschema pin

PIN = "<4.25"


def test_jsonschema_is_held_below_425_where_servers_start_and_nowhere_else():
    pins = {
        "binder/requirements.txt": requirements(BINDER / "requirements.txt").get("jsonschema"),
        "deploy/jupyterhub/requirements.txt": requirements(DEPLOY / "requirements.txt").get(
            "jsonschema"
        ),
        "deploy/tljh/requirements.txt": requirements(TLJH / "requirements.txt").get("jsonschema"),
    }
    for where, req in pins.items():
        assert req is not None, f"{where} does not pin jsonschema"
        assert not req.specifier.contains("4.25.0") and req.specifier.contains("4.24.1"), where
    # learners installing the notebook extra get what pip picks
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    notebook = [Requirement(r).name for r in extras["optional-dependencies"]["notebook"]]
    assert "jsonschema" not in notebook


def jsonschema_holdbacks(distributions) -> list[str]:
    """'name version requires jsonschema SPEC' for each distribution whose own
    requirement on jsonschema leaves no release below 4.25: with the pin, pip would
    go back to an older release of it rather than install it."""
    below = [Version(f"4.{minor}.{micro}") for minor in range(25) for micro in range(10)]
    found = []
    for dist in distributions:
        for line in dist.requires or []:
            req = Requirement(line)
            if canonicalize_name(req.name) != "jsonschema":
                continue
            if req.marker is not None and not req.marker.evaluate({"extra": ""}):
                continue  # only under an extra not installed, or another platform
            if not any(req.specifier.contains(v) for v in below):
                found.append(f"{dist.metadata['Name']} {dist.version} requires {line}")
    return found


class FakeDistribution:
    def __init__(self, name: str, requires: list[str]):
        self.metadata = {"Name": name}
        self.version = "9.9"
        self.requires = requires


def test_holdback_check_names_a_package_that_needs_jsonschema_425():
    fakes = [
        FakeDistribution("jupyter-events", ["jsonschema[format-nongpl]>=4.18.0"]),
        FakeDistribution("nbformat", ["jsonschema>=2.6"]),
        FakeDistribution("future-jupyter-server", ["jsonschema>=4.25.1"]),
        FakeDistribution("docs-only", ['jsonschema>=5; extra == "docs"']),
    ]
    assert jsonschema_holdbacks(fakes) == ["future-jupyter-server 9.9 requires jsonschema>=4.25.1"]


def test_no_installed_jupyter_package_needs_a_jsonschema_the_pin_excludes():
    # When this fails, the pin in binder/, deploy/*/requirements.txt and the test
    # constraints holds that package back (pip picks an older release of it): lift the
    # pin there if jsonschema no longer builds its IRI parsers at import
    # (jupyter_server issue 1559), or measure what the newer package costs.
    found = jsonschema_holdbacks(metadata.distributions())
    assert not found, "jsonschema" + PIN + " holds back: " + "; ".join(found)


# ------------------------------------------------------------- settings shared by the routes


def test_students_servers_read_server_config(tmp_path):
    c = load_hub_config(tmp_path)
    config_dir = Path(c.Spawner.environment["JUPYTER_CONFIG_PATH"])
    assert config_dir / "jupyter_server_config.d" / SERVER_CONFIG.name == SERVER_CONFIG
    assert SERVER_CONFIG.exists()


def test_culler_service_has_the_scopes_it_needs(tmp_path):
    c = load_hub_config(tmp_path)
    (service,) = c.JupyterHub.services
    (role,) = c.JupyterHub.load_roles
    assert service["name"] in role["services"]
    assert "jupyterhub_idle_culler" in service["command"]
    assert {"list:users", "read:users:activity", "delete:servers"} <= set(role["scopes"])


def test_kubernetes_values_carry_the_same_server_settings():
    single = values()["singleuser"]
    config_path = single["extraEnv"]["JUPYTER_CONFIG_PATH"]
    files = single["extraFiles"].values()
    mounted = {f["mountPath"]: f.get("data", f.get("stringData")) for f in files}
    ours = {
        f"{config_path}/{p.relative_to(SERVER_CONFIG_DIR)}": json.loads(p.read_text())
        for p in SERVER_CONFIG_DIR.rglob("*.json")
    }
    ours.update(
        {
            f"{config_path}/{p.relative_to(SERVER_CONFIG_DIR)}": p.read_text()
            for p in SERVER_CONFIG_DIR.rglob("*.py")
        }
    )
    assert len(ours) == 3
    assert mounted == ours
    assert values()["cull"]["enabled"] is True


def test_kubernetes_memory_matches_the_one_machine_limit(tmp_path):
    def mb(text: str) -> float:
        units = {"M": 1e6, "G": 1e9, "Mi": 2**20, "Gi": 2**30}
        number = text.rstrip("MGi")
        return float(number) * units[text[len(number) :]] / 1e6

    memory = values()["singleuser"]["memory"]
    c = load_hub_config(tmp_path)
    assert mb(memory["guarantee"]) < mb(memory["limit"])
    assert mb(memory["limit"]) == mb(c.SystemdSpawner.mem_limit)


def test_each_route_tells_attnlib_require_which_it_is(tmp_path):
    # the version check's advice follows the route: reinstall on TLJH and one machine,
    # rebuild the image on Kubernetes (attnlib/version_check.py)
    from attnlib.version_check import ROUTE_VARIABLE, ROUTES

    one_machine = load_hub_config(tmp_path).Spawner.environment
    tljh = load_tljh_dropin(tmp_path / "tljh", "https://git.uni.test/x/attnlib.git", {"ada"})
    local = yaml.safe_load((DEPLOY / "z2jh-values.local.example.yaml").read_text())
    kubernetes = merged(values(), local)["singleuser"]["extraEnv"]
    routes = {
        "one-machine": one_machine.get(ROUTE_VARIABLE),
        "tljh": tljh.Spawner.environment.get(ROUTE_VARIABLE),
        "kubernetes": kubernetes.get(ROUTE_VARIABLE),
    }
    assert routes == {route: route for route in ROUTES}


# ------------------------------------------------------------- the teacher's path


# What a teacher needs through a term, and words by which each guide shows it: the
# deploy README gives the commands, the teaching guides (en, zh) the short path.
TEACHERS_PATH = {
    "deploy/jupyterhub/README.md": {
        "Chinese landing page, TLJH": ["sudo ATTNLIB_EDITION=zh deploy/tljh/setup.sh"],
        "registry login": ["docker login", "pip install jupyter-repo2docker"],
        "pull secret": ["kubectl create secret docker-registry", "imagePullSecrets:"],
        "mid-term update": [
            "Updating the course mid-term",
            "only at their next server start",
        ],
        "late student, TLJH": ["tljh-config add-item users.allowed NAME"],
        "late student, one machine": [
            "create-students.sh /etc/attnlib-hub/class.txt",
            "systemctl restart attnlib-hub",
        ],
        "late student, Kubernetes": ["add the name to `allowed_users`"],
        "forgotten password": [
            "reset-password.py --dbm /opt/tljh/state/passwords.dbm NAME",
            "| sudo chpasswd",
            "python3 - NAME < deploy/jupyterhub/reset-password.py",
        ],
        "fresh copy": ["git show origin/main:notebooks/"],
        "backup": [
            "/home/jupyter-*",
            "class_list.py /etc/attnlib-hub/class.txt",
            "persistentVolumeClaim",
            '"readOnly": true',
        ],
    },
    "docs/teaching.md": {
        "Chinese landing page, TLJH": ["sudo ATTNLIB_EDITION=zh deploy/tljh/setup.sh"],
        "registry login": ["docker login", "imagePullSecrets"],
        "mid-term update": ["only at their next server start"],
        "late student": [
            "tljh-config add-item users.allowed",
            "create-students.sh",
            "`allowed_users`",
        ],
        "fresh copy": ["git show origin/main:notebooks/"],
        "backup": ["/home/jupyter-*", "claim-NAME"],
    },
    "docs/zh/teaching.md": {
        "Chinese landing page, TLJH": ["sudo ATTNLIB_EDITION=zh deploy/tljh/setup.sh"],
        "registry login": ["docker login", "imagePullSecrets"],
        "mid-term update": ["新镜像要等学生的服务器下次启动时才会用上"],
        "late student": [
            "tljh-config add-item users.allowed",
            "create-students.sh",
            "`allowed_users`",
        ],
        "fresh copy": ["git show origin/main:notebooks/zh/"],
        "backup": ["/home/jupyter-*", "claim-用户名"],
    },
}


def flat(text: str) -> str:
    """Text with its line breaks (and a comment's leading #) read as one space."""
    return re.sub(r"[ \t]*\n[ \t]*(?:# ?)?", " ", text)


@pytest.mark.parametrize("readme", list(TEACHERS_PATH))
def test_the_teachers_path_covers_the_term(readme):
    text = flat((ROOT / readme).read_text(encoding="utf-8"))
    missing = [
        f"{topic}: {word!r}"
        for topic, words in TEACHERS_PATH[readme].items()
        for word in words
        if word not in text
    ]
    assert missing == [], f"{readme} lacks:\n  " + "\n  ".join(missing)


def test_the_local_values_name_a_pull_secret_when_uncommented():
    # the commented block in the example is what the deploy README tells the teacher to
    # write: a top-level list that helm merges over the chart's empty one
    text = (DEPLOY / "z2jh-values.local.example.yaml").read_text()
    block = re.search(r"^# imagePullSecrets:\n(?:#   - .*\n)+", text, re.M)
    assert block, "z2jh-values.local.example.yaml shows no imagePullSecrets block"
    local = yaml.safe_load(text.replace(block.group(), block.group().replace("# ", "")))
    assert merged(values(), local)["imagePullSecrets"] == ["attnlib-registry"]
    assert "attnlib-registry" in (DEPLOY / "README.md").read_text(encoding="utf-8")


# the capacity figures measured while the kernel drew the explorers' pictures
STALE_FIGURES = re.compile(r"60\s*[-–]\s*90 ms|12\s*[-–]\s*15 students|about\s+30 on a 4-vCPU")


@pytest.mark.parametrize(
    "path",
    [
        "deploy/jupyterhub/README.md",
        "deploy/jupyterhub/z2jh-values.yaml",
        "deploy/jupyterhub/jupyterhub_config.py",
    ],
)
def test_old_capacity_figures_are_gone_or_said_to_be_the_kernel_drawn_explorers(path):
    text = flat((ROOT / path).read_text(encoding="utf-8"))
    for found in STALE_FIGURES.finditer(text):
        around = text[max(0, found.start() - 400) : found.end() + 400]
        assert "the kernel drew" in around, f"{path}: {found.group()!r} is given as current"
    assert "bench_move" in text, f"{path}: the move's CPU now comes from benchmarks/bench_move.py"
    # the capacity measured with the explorers drawn in the browser, and where it is told
    assert "make class-curve" in text and "2026-12-04" in text, f"{path}: quote the new class run"


@pytest.mark.parametrize(
    ("guide", "heading", "row"),
    [
        ("docs/teaching.md", "## Capacity", "| 40 | 14.1 / 22.5 s |"),
        ("docs/zh/teaching.md", "## 容量", "| 40 | 14.1 / 22.5 秒 |"),
    ],
)
def test_the_teaching_guides_capacity_is_the_class_measured_since_the_page_draws(
    guide, heading, row
):
    # one table, with the date it was measured, and no earlier run beside it
    text = (ROOT / guide).read_text(encoding="utf-8")
    section = text.split(f"\n{heading}\n", 1)[1].split("\n## ", 1)[0]
    assert "make class-curve" in section and "2026-12-04" in section, guide
    assert row in section, guide  # the curve's table, each size a row
    tables = re.findall(r"(?:^\|.*\|\n)+", section, re.M)
    assert len(tables) == 1, f"{guide}: capacity is one table, found {len(tables)}"
    assert not re.search(r"2026-12-0[1-3]", section), f"{guide}: an earlier run in {heading}"


@pytest.mark.parametrize(
    ("edition", "page"), [(None, "notebooks"), ("en", "notebooks"), ("zh", "notebooks/zh")]
)
def test_one_machine_lands_on_the_start_page_of_the_edition_asked_for(tmp_path, edition, page):
    c = load_hub_config(tmp_path, ATTNLIB_EDITION=edition)
    urlpath = parse_qs(urlsplit(c.Spawner.default_url).query)["urlpath"][0]
    assert urlpath == f"lab/tree/attnlib-course/{page}/00_start_here.ipynb"
    assert (ROOT / page / "00_start_here.ipynb").is_file()


def test_one_machine_refuses_an_edition_the_course_has_not(tmp_path):
    with pytest.raises(ValueError, match=r"ATTNLIB_EDITION=xx is not an edition.*'en', 'zh'"):
        load_hub_config(tmp_path, ATTNLIB_EDITION="xx")


def test_every_route_s_chinese_landing_page_is_the_one_the_teaching_guides_give():
    # the Kubernetes value a teacher types, in both guides, is the page the chart would open
    page = "/lab/tree/attnlib-course/notebooks/zh/00_start_here.ipynb"
    for guide in ("docs/teaching.md", "docs/zh/teaching.md"):
        text = (ROOT / guide).read_text(encoding="utf-8")
        assert page in re.sub(r"\s+", "", text), f"{guide} does not give {page}"
    values = (DEPLOY / "z2jh-values.yaml").read_text(encoding="utf-8")
    assert page.replace("/zh/", "/") in values  # the English default the guides change
