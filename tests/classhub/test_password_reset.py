"""A forgotten password on a live hub, with the login of TLJH and the Kubernetes values
(FirstUseAuthenticator, create_users false, as z2jh-values.yaml sets it): a student
logs in, saves work and stops; the teacher removes only their password entry
(deploy/jupyterhub/reset-password.py); their next login sets a new password, and their
server starts on their home with the work in it. Beside it, the advice it replaces:
deleting the user on the admin page locks that student out until the hub restarts.

JupyterHub on 127.0.0.1 with the npm proxy, servers as local processes (about 30 s):
run by `make class` (marker `hub`), or alone:
    .venv/bin/python -m pytest -m hub -n 0 tests/classhub/test_password_reset.py
"""

from __future__ import annotations

import contextlib
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
import requests
import yaml

from .simulation import CHP, DEPLOY, free_port

pytestmark = pytest.mark.hub

TOKEN = secrets.token_hex(16)

HUB_CONFIG = """
c.JupyterHub.bind_url = "http://127.0.0.1:{port}"
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = {hub_port}
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{api_port}"
c.ConfigurableHTTPProxy.command = [{chp!r}]
c.JupyterHub.db_url = "sqlite:///{tmp}/jupyterhub.sqlite"
c.JupyterHub.cookie_secret_file = "{tmp}/cookie_secret"
c.JupyterHub.pid_file = "{tmp}/jupyterhub.pid"
# the login as z2jh-values.yaml sets it (its hub.config), the password file moved here
c.JupyterHub.authenticator_class = {authenticator!r}
for _name, _value in {first_use!r}.items():
    setattr(c.FirstUseAuthenticator, _name, _value)
c.FirstUseAuthenticator.dbm_path = "{tmp}/passwords.dbm"
c.Authenticator.allowed_users = {{"ada", "alan"}}
c.Authenticator.admin_users = {{"grace"}}
# the teacher's hands on the admin page, as an API token
c.JupyterHub.services = [{{"name": "teacher", "api_token": {token!r}}}]
c.JupyterHub.load_roles = [
    {{"name": "teacher", "scopes": ["admin:users", "admin:servers"], "services": ["teacher"]}}
]
c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = "{homes}/{{username}}"
c.Spawner.ip = "127.0.0.1"
c.Spawner.args = {spawner_args!r}
c.JupyterHub.cleanup_servers = True
"""


class LiveHub:
    def __init__(self, tmp: Path):
        if not CHP.exists():
            pytest.fail(f"{CHP} is missing: make class installs it (npm ci in {DEPLOY})")
        self.tmp = tmp
        self.url = f"http://127.0.0.1:{free_port()}"
        # short homes: a kernel's Unix socket path holds 107 bytes at most
        self.homes = Path(tempfile.mkdtemp(prefix="r", dir="/tmp"))
        hub = yaml.safe_load((DEPLOY / "z2jh-values.yaml").read_text())["hub"]["config"]
        config = tmp / "jupyterhub_config.py"
        config.write_text(
            HUB_CONFIG.format(
                port=self.url.rsplit(":", 1)[1],
                hub_port=free_port(),
                api_port=free_port(),
                chp=str(CHP),
                tmp=tmp,
                homes=self.homes,
                authenticator=hub["JupyterHub"]["authenticator_class"],
                first_use={
                    k: v for k, v in hub["FirstUseAuthenticator"].items() if k != "dbm_path"
                },
                token=TOKEN,
                spawner_args=["--allow-root"] if os.geteuid() == 0 else [],
            )
        )
        env = dict(
            os.environ, PATH=f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"
        )
        self.log = tmp / "jupyterhub.log"
        self.proc = subprocess.Popen(
            [str(Path(sys.executable).parent / "jupyterhub"), "-f", str(config)],
            cwd=tmp,
            env=env,
            stdout=self.log.open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.wait(lambda: requests.get(f"{self.url}/hub/api/", timeout=2).ok, "the hub")

    def wait(self, ready, what: str, timeout: float = 90) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"jupyterhub exited:\n{self.tail()}")
            with contextlib.suppress(requests.RequestException):
                if ready():
                    return
            time.sleep(0.25)
        raise RuntimeError(f"{what} not ready in {timeout} s:\n{self.tail()}")

    def tail(self) -> str:
        return "\n".join(self.log.read_text(errors="replace").splitlines()[-40:])

    def api(self, method: str, path: str) -> requests.Response:
        return requests.request(
            method,
            f"{self.url}/hub/api{path}",
            headers={"Authorization": f"token {TOKEN}"},
            timeout=30,
        )

    def login(self, name: str, password: str) -> requests.Session | None:
        """The login form, as a browser sends it: the session if the hub let them in."""
        s = requests.Session()
        s.get(f"{self.url}/hub/login", timeout=30)
        answer = s.post(
            f"{self.url}/hub/login",
            data={"username": name, "password": password, "_xsrf": s.cookies.get("_xsrf", "")},
            allow_redirects=False,
            timeout=30,
        )
        return s if answer.status_code == 302 else None

    def start(self, name: str) -> None:
        assert self.api("POST", f"/users/{name}/server").status_code in (201, 202)
        self.wait(
            lambda: self.api("GET", f"/users/{name}").json()["servers"].get("", {}).get("ready"),
            f"{name}'s server",
        )

    def stop(self, name: str) -> None:
        assert self.api("DELETE", f"/users/{name}/server").status_code in (202, 204)
        self.wait(lambda: not self.api("GET", f"/users/{name}").json()["servers"], "the stop")

    def close(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        shutil.rmtree(self.homes, ignore_errors=True)


@pytest.fixture
def hub(tmp_path):
    live = LiveHub(tmp_path)
    try:
        yield live
    finally:
        live.close()


def contents(hub: LiveHub, s: requests.Session, name: str, path: str) -> requests.Response:
    """The student's server's files, through the hub's proxy, as JupyterLab asks for them."""
    url = f"{hub.url}/user/{name}/api/contents/{path}"
    s.get(f"{hub.url}/user/{name}/lab", timeout=60)  # the OAuth round trip to the server
    return s.get(url, params={"content": "1"}, timeout=30)


def save(hub: LiveHub, s: requests.Session, name: str, path: str, text: str) -> None:
    s.get(f"{hub.url}/user/{name}/lab", timeout=60)
    answer = s.put(
        f"{hub.url}/user/{name}/api/contents/{path}",
        json={"type": "file", "format": "text", "content": text},
        headers={"X-XSRFToken": s.cookies.get("_xsrf", path=f"/user/{name}/") or ""},
        timeout=30,
    )
    assert answer.status_code in (200, 201), answer.text


def test_a_reset_password_lets_the_student_back_in_to_their_work(hub):
    ada = hub.login("ada", "first-password")  # the first login sets it
    assert ada is not None, hub.tail()
    hub.start("ada")
    save(hub, ada, "ada", "my-notes.txt", "softmax runs along each row")
    hub.stop("ada")

    # forgotten: another password is refused
    assert hub.login("ada", "another-password") is None
    reset = subprocess.run(
        [
            sys.executable,
            str(DEPLOY / "reset-password.py"),
            "--dbm",
            str(hub.tmp / "passwords.dbm"),
            "ada",
        ],
        capture_output=True,
        text=True,
    )
    assert reset.returncode == 0, reset.stderr
    # the next login sets the new password; the old one no longer opens the account
    ada = hub.login("ada", "second-password")
    assert ada is not None, hub.tail()
    assert hub.login("ada", "first-password") is None
    hub.start("ada")
    got = contents(hub, ada, "ada", "my-notes.txt")
    assert got.status_code == 200, got.text
    assert got.json()["content"] == "softmax runs along each row"


def test_deleting_the_user_instead_locks_the_student_out(hub):
    # the advice reset-password.py replaces (live hub, 2026: login 302, DELETE 204, 403)
    assert hub.login("alan", "alans-password") is not None
    assert hub.api("DELETE", "/users/alan").status_code == 204
    assert hub.login("alan", "alans-password") is None
    assert hub.login("alan", "a-new-password") is None
