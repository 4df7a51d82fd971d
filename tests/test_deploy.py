"""deploy/jupyterhub: the one-machine config, the Kubernetes values and the server
settings agree with each other and with the repository (the hub itself runs in
`make class`, tests/classhub)."""

import json
import os
import stat
import sys
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import yaml
from packaging.requirements import Requirement
from packaging.version import Version
from traitlets.config import Config

if sys.version_info >= (3, 11):
    import tomllib
else:
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
DEPLOY = ROOT / "deploy" / "jupyterhub"
SERVER_CONFIG_DIR = DEPLOY / "server-config"
SERVER_CONFIG = SERVER_CONFIG_DIR / "jupyter_server_config.d" / "attnlib-class.json"


def load_hub_config(env: dict[str, str]) -> Config:
    c = Config()
    old = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
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


def test_landing_page_is_the_course_link_to_a_notebook_that_exists():
    c = load_hub_config({"ATTNLIB_COURSE_REPO": "https://git.example.edu/x/attnlib.git"})
    url = urlsplit(c.Spawner.default_url)
    query = {k: v[0] for k, v in parse_qs(url.query).items()}
    assert url.path == "/git-pull"
    assert query["repo"] == "https://git.example.edu/x/attnlib.git"
    target = query["targetpath"]
    opened = query["urlpath"].removeprefix("lab/tree/")
    assert opened.startswith(target + "/")
    assert (ROOT / opened.removeprefix(target + "/")).exists(), opened


def test_students_servers_read_server_config():
    c = load_hub_config({})
    config_dir = Path(c.Spawner.environment["JUPYTER_CONFIG_PATH"])
    assert config_dir / "jupyter_server_config.d" / SERVER_CONFIG.name == SERVER_CONFIG
    assert SERVER_CONFIG.exists()


def test_culler_service_has_the_scopes_it_needs():
    c = load_hub_config({})
    (service,) = c.JupyterHub.services
    (role,) = c.JupyterHub.load_roles
    assert service["name"] in role["services"]
    assert "jupyterhub_idle_culler" in service["command"]
    assert {"list:users", "read:users:activity", "delete:servers"} <= set(role["scopes"])


def test_kubernetes_values_carry_the_same_server_settings():
    values = yaml.safe_load((DEPLOY / "z2jh-values.yaml").read_text())
    single = values["singleuser"]
    config_path = single["extraEnv"]["JUPYTER_CONFIG_PATH"]
    mounted = {f["mountPath"]: f["data"] for f in single["extraFiles"].values()}
    ours = {
        f"{config_path}/{p.relative_to(SERVER_CONFIG_DIR)}": json.loads(p.read_text())
        for p in SERVER_CONFIG_DIR.rglob("*.json")
    }
    assert len(ours) == 2
    assert mounted == ours
    assert values["cull"]["enabled"] is True


def test_kubernetes_memory_matches_the_one_machine_limit():
    def mb(text: str) -> float:
        units = {"M": 1e6, "G": 1e9, "Mi": 2**20, "Gi": 2**30}
        number = text.rstrip("MGi")
        return float(number) * units[text[len(number) :]] / 1e6

    memory = yaml.safe_load((DEPLOY / "z2jh-values.yaml").read_text())["singleuser"]["memory"]
    c = load_hub_config({})
    assert mb(memory["guarantee"]) < mb(memory["limit"])
    assert mb(memory["limit"]) == mb(c.SystemdSpawner.mem_limit)


def test_repo2docker_gets_nbgitpuller_from_postbuild():
    post_build = ROOT / "postBuild"
    assert post_build.stat().st_mode & stat.S_IXUSR, "repo2docker runs postBuild only if executable"
    assert "nbgitpuller" in post_build.read_text()


def test_students_environments_leave_out_the_slow_iri_checker():
    # jsonschema 4.25 is the first release whose import builds rfc3987-syntax's
    # parsers (half of a server's start-up CPU). The "notebook" extra keeps below it,
    # and with it every environment made from it: make lab, make class, make test;
    # environment.yml (Binder, the Kubernetes image) is held to the same list by
    # tests/test_packaging.py.
    extras = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    notebook = {r.name: r for r in map(Requirement, extras["optional-dependencies"]["notebook"])}
    jsonschema = notebook.get("jsonschema")
    assert jsonschema is not None, "the notebook extra does not pin jsonschema"
    assert not jsonschema.specifier.contains(Version("4.25.0")), jsonschema
    assert jsonschema.specifier.contains(Version("4.24.1")), jsonschema
