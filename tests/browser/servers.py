"""Start and stop the servers the browser tests drive (JupyterLab, Notebook 7, Voilà)
and choose the Chromium they run in.

Nothing here is a test: conftest.py turns these helpers into fixtures. The browser
itself, its contexts and pages come from pytest-playwright; the process tree of a
server (its kernels) from psutil.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

import psutil

from attnlib.i18n.languages import EDITIONS

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = REPO / "notebooks"
ARTIFACTS = REPO / "test-artifacts"
# Project-level Jupyter files that `make lab` and `make present` use too: Lab's
# settings overrides (no news, no update check) and Voilà's offline template.
PROJECT_JUPYTER = REPO / "jupyter"
LAB_SETTINGS = REPO / EDITIONS["en"].lab_settings
# `make lab EDITION=zh`: the same, plus JupyterLab's menus in Chinese (the zh-CN language pack)
LAB_SETTINGS_ZH = REPO / EDITIONS["zh"].lab_settings
# The same server flags as the Makefile's JUPYTER_FLAGS (notebook_shim off).
SERVER_FLAGS = ["--ServerApp.jpserver_extensions=notebook_shim=False"]
# ... and as its VOILA_FLAGS for `make present`
VOILA_EXTENSIONS = [
    "@jupyter-widgets/jupyterlab-manager",
    "anywidget",
    "@voila-dashboards/widgets-manager8",
    "@voila-dashboards/widgets-manager7",
]
VOILA_FLAGS = [
    "--theme=light",
    "--template=offline",
    *(f"--VoilaConfiguration.extension_allowlist={e}" for e in VOILA_EXTENSIONS),
]

# Chromium flags for a closed network and for running as root in a container.
# Every request off this machine goes to a proxy that is not there (port 9, discard)
# and fails at once, so that a machine with internet behaves like a classroom
# without; Chromium never sends 127.0.0.1 to a proxy. The pages report each such
# request (pages.Tab) without intercepting any: interception routes every request
# of JupyterLab's hundreds through this process and slowed each page load by a second.
DEAD_PROXY = "http://127.0.0.1:9"
CHROMIUM_ARGS = [
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-gpu",
    f"--proxy-server={DEAD_PROXY}",
]

HOW_TO_GET_A_BROWSER = (
    "no Chromium for the browser tests: `apt-get install chromium` (Debian) or "
    "`.venv/bin/playwright install chromium`, or set ATTNLIB_CHROMIUM=/path/to/chromium"
)


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def _root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --------------------------------------------------------------------------- servers


def isolated_env(home: Path) -> dict[str, str]:
    """Environment for a Jupyter server whose config, data and runtime live under `home`.

    The interpreter's own prefix (the .venv) stays on the Jupyter paths, so its
    kernel spec and its labextensions (ipywidgets) are found; the user's
    ~/.jupyter and ~/.local/share/jupyter are not.
    """
    env = dict(os.environ)
    dirs = {
        "JUPYTER_CONFIG_DIR": home / "config",
        "JUPYTER_DATA_DIR": home / "data",
        "JUPYTER_RUNTIME_DIR": home / "runtime",
        "IPYTHONDIR": home / "ipython",
        "MPLCONFIGDIR": home / "matplotlib",
    }
    for name, path in dirs.items():
        path.mkdir(parents=True, exist_ok=True)
        env[name] = str(path)
    for name in ("JUPYTER_PATH", "JUPYTER_CONFIG_PATH", "JUPYTER_PREFER_ENV_PATH"):
        env.pop(name, None)
    env["JUPYTER_PLATFORM_DIRS"] = "0"
    # The kernel must be this interpreter's: put its bin first.
    env["PATH"] = str(Path(sys.executable).parent) + os.pathsep + env.get("PATH", "")
    env["PYTHONUNBUFFERED"] = "1"
    return env


def alive(pid: int) -> bool:
    """True while `pid` runs (a zombie counts as gone)."""
    try:
        return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except psutil.NoSuchProcess:
        return False


def _die_with_parent() -> None:
    """In the child: get SIGTERM if pytest itself is killed (Linux), so that even
    then no server is left behind; its kernels follow, as ipykernel exits when
    its parent goes."""
    try:
        import ctypes

        ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):
        pass


class Server:
    """A Jupyter-family server (JupyterLab or Voilà) run as a child process.

    Started in a new session so that stop() can signal the whole process group;
    kernels start sessions of their own, so stop() also walks the process tree.
    """

    def __init__(
        self,
        name: str,
        argv: Sequence[str],
        env: dict[str, str],
        cwd: Path,
        port: int,
        token: str,
        log: Path,
    ):
        self.name, self.port, self.token, self.log_path = name, port, token, log
        self.url = f"http://127.0.0.1:{port}"
        self._log = open(log, "wb")
        self.proc = subprocess.Popen(
            list(argv),
            env=env,
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=_die_with_parent,
        )
        self._known: dict[int, psutil.Process] = {}

    # -- REST
    def request(self, method: str, path: str, timeout: float = 10) -> tuple[int, bytes]:
        req = urllib.request.Request(self.url + path, method=method)
        if self.token:
            req.add_header("Authorization", f"token {self.token}")
        try:
            with urllib.request.urlopen(req, timeout=timeout) as resp:
                return resp.status, resp.read()
        except urllib.error.HTTPError as err:
            return err.code, err.read()

    def api(self, method: str, path: str):
        status, body = self.request(method, path)
        if status >= 400:
            raise RuntimeError(f"{self.name}: {method} {path} -> {status}: {body[:300]!r}")
        return json.loads(body) if body else None

    def log_tail(self, chars: int = 3000) -> str:
        if not self._log.closed:
            self._log.flush()
        return self.log_path.read_text(errors="replace")[-chars:]

    def wait_ready(self, path: str, timeout: float = 60, ok=(200,)) -> None:
        """Poll `path` until it answers with a status in `ok`; fail with the log otherwise."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(
                    f"{self.name} exited with {self.proc.returncode}:\n" + self.log_tail()
                )
            try:
                if self.request("GET", path, timeout=2)[0] in ok:
                    return
            except (OSError, urllib.error.URLError):
                pass
            time.sleep(0.2)
        self.stop()
        raise RuntimeError(f"{self.name} not ready after {timeout:.0f} s:\n" + self.log_tail())

    def remember_children(self) -> None:
        """Note the current process tree (kernels), so stop() can reap them even
        after the server itself has gone (kernels start sessions of their own,
        so a process-group signal alone misses them)."""
        try:
            children = psutil.Process(self.proc.pid).children(recursive=True)
        except psutil.NoSuchProcess:
            return
        self._known.update((child.pid, child) for child in children)

    def stop(self, graceful: str | None = None, timeout: float = 10) -> list[int]:
        """Stop the server and every process it started; return pids that needed SIGKILL."""
        self.remember_children()
        if self.proc.poll() is None and graceful:
            try:  # lets the server shut its kernels down cleanly
                self.request("POST", graceful, timeout=5)
                self.proc.wait(timeout=timeout)
            except (OSError, urllib.error.URLError, subprocess.TimeoutExpired):
                pass
        if self.proc.poll() is None:
            self.remember_children()
            try:
                os.killpg(self.proc.pid, signal.SIGTERM)
            except ProcessLookupError:
                pass
            try:
                self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                pass
        # psutil.Process objects remember their start time: a pid reused by an
        # unrelated process since is not touched
        processes = [p for p in self._known.values() if p.is_running()]
        _, left = psutil.wait_procs(processes, timeout=0.5 if graceful else 0.1)
        if self.proc.poll() is None:
            left.append(psutil.Process(self.proc.pid))
        killed = []
        for process in left:
            try:
                process.kill()
                killed.append(process.pid)
            except psutil.NoSuchProcess:
                pass
        psutil.wait_procs(left, timeout=5)
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        self._log.close()
        return killed


def start_jupyter(
    app: str, root_dir: Path, home: Path, log: Path, settings: Path = LAB_SETTINGS
) -> Server:
    """`jupyter lab` or `jupyter notebook` (Notebook 7) on `root_dir`, with the
    project's settings (as `make lab`; LAB_SETTINGS_ZH as `make lab EDITION=zh`) and
    everything a user keeps under `home`."""
    env = isolated_env(home)
    env["JUPYTER_CONFIG_PATH"] = str(PROJECT_JUPYTER / "server")  # as `make lab` sets it
    for attempt in range(3):
        # free_port() lets go of the port it found: another worker's server can take it
        # first ("could not be started because port ... is not available"); try another
        try:
            return _start_jupyter_on(app, root_dir, home, log, settings, env, free_port())
        except RuntimeError as err:
            if "is not available" not in str(err) or attempt == 2:
                raise
    raise AssertionError("unreachable")  # pragma: no cover


def _start_jupyter_on(app, root_dir, home, log, settings, env, port) -> Server:
    token = secrets.token_hex(24)
    cls = {"lab": "LabApp", "notebook": "JupyterNotebookApp"}[app]
    for name in ("user-settings", "workspaces"):
        (home / name).mkdir(exist_ok=True)
    argv = [
        sys.executable, "-m", "jupyter", app, "--no-browser",
        "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}", f"--ServerApp.root_dir={root_dir}",
        "--ServerApp.terminals_enabled=False", *SERVER_FLAGS,
        f"--{cls}.app_settings_dir={settings}",
        f"--{cls}.user_settings_dir={home / 'user-settings'}",
        f"--{cls}.workspaces_dir={home / 'workspaces'}",
    ]  # fmt: skip
    if app == "lab":
        # no PyPI look-ups from the extension manager; window.jupyterapp for the
        # tests (pages.open_notebook opens each notebook in one JupyterLab page)
        argv += ["--LabApp.extension_manager=readonly", "--LabApp.expose_app_in_browser=True"]
    if _root():
        argv.append("--allow-root")
    server = Server(f"jupyter {app}", argv, env, root_dir, port, token, log)
    server.wait_ready("/api/status")
    return server


def start_voila(notebook: Path, home: Path, log: Path, extra: Sequence[str] = ()) -> Server:
    """Voilà on one notebook, as `make present` serves it: the offline template,
    the notebook trusted first (in `home`'s signature store)."""
    env = isolated_env(home)
    env["JUPYTER_PATH"] = str(PROJECT_JUPYTER)
    bin_dir = Path(sys.executable).parent
    subprocess.run(
        [str(bin_dir / "jupyter"), "trust", str(notebook)], env=env, check=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    port = free_port()
    argv = [
        str(bin_dir / "voila"), str(notebook), "--no-browser", "--Voila.ip=127.0.0.1",
        f"--port={port}", "--Voila.port_retries=0", *VOILA_FLAGS, *extra,
    ]  # fmt: skip
    server = Server("voila", argv, env, notebook.parent, port, "", log)
    # Voilà has no status API and GET / would run the notebook: any answer from
    # its static handler (404 here) means that it listens.
    server.wait_ready("/voila/static/readiness-probe", ok=range(200, 500))
    return server


# --------------------------------------------------------------------------- browser


class Chromium(NamedTuple):
    """Which Chromium to launch: `executable` None means Playwright's own."""

    executable: str | None
    description: str


def choose_chromium(bundled: str | None) -> Chromium | None:
    """$ATTNLIB_CHROMIUM if set, else Playwright's own Chromium if installed
    (`bundled` is where Playwright expects it), else the system's (Debian's
    /usr/bin/chromium first). None if there is none: see HOW_TO_GET_A_BROWSER."""
    wanted = os.environ.get("ATTNLIB_CHROMIUM")
    if wanted:
        return Chromium(wanted, wanted) if _executable(wanted) else None
    if bundled and _executable(bundled):
        return Chromium(None, "Playwright's Chromium")
    for exe in ["/usr/bin/chromium", *(shutil.which(n) for n in ("chromium", "chromium-browser"))]:
        if exe and _executable(exe):
            return Chromium(exe, exe)
    return None


def no_chromium_reason() -> str:
    wanted = os.environ.get("ATTNLIB_CHROMIUM")
    if wanted:
        return f"ATTNLIB_CHROMIUM={wanted} is not an executable; {HOW_TO_GET_A_BROWSER}"
    return HOW_TO_GET_A_BROWSER


def _executable(path: str) -> bool:
    return os.path.isfile(path) and os.access(path, os.X_OK)


def launch_args() -> list[str]:
    """Chromium flags: a closed network, and --no-sandbox as root (containers)."""
    return (["--no-sandbox"] if _root() else []) + CHROMIUM_ARGS
