"""Start and stop the servers (JupyterLab, Voilà) and the browser the tests drive.

Nothing here is a test: conftest.py turns these helpers into fixtures, shared by
test_lab.py and test_voila.py.
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

REPO = Path(__file__).resolve().parents[2]
NOTEBOOKS = REPO / "notebooks"
ARTIFACTS = REPO / "test-artifacts"

# Chromium flags for a closed network and for running as root in a container.
CHROMIUM_ARGS = [
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-gpu",
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


def _children() -> dict[int, list[int]]:
    """ppid -> [pid] for every process (Linux /proc)."""
    tree: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        # the command name is in parentheses and may contain spaces
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        tree.setdefault(ppid, []).append(int(entry))
    return tree


def descendants(pid: int) -> list[int]:
    """Every process below `pid` (kernels run in sessions of their own, so
    a process-group kill alone would miss them)."""
    tree, found, todo = _children(), [], [pid]
    while todo:
        for child in tree.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie is dead for our purposes
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
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
        self._known: set[int] = set()

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
        """Note the current process tree (kernels), so stop() can reap them."""
        if self.proc.poll() is None:
            self._known.update(descendants(self.proc.pid))

    def stop(self, graceful: str | None = None, timeout: float = 10) -> list[int]:
        """Stop the server and every process it started; return pids that needed SIGKILL."""
        self.remember_children()
        if self.proc.poll() is None and graceful:
            try:  # lets the server shut its kernels down cleanly
                self.request("POST", graceful, timeout=5)
            except (OSError, urllib.error.URLError):
                pass
        if self.proc.poll() is None:
            try:
                self.proc.wait(timeout=timeout if graceful else 0.1)
            except subprocess.TimeoutExpired:
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
        killed = []
        for pid in [self.proc.pid, *sorted(self._known)]:
            if _alive(pid):
                killed.append(pid)
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        try:
            os.killpg(self.proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        deadline = time.monotonic() + 5  # SIGKILL is delivered asynchronously
        while any(_alive(pid) for pid in killed) and time.monotonic() < deadline:
            time.sleep(0.05)
        self._log.close()
        return killed


def lab_settings(home: Path) -> dict[str, Path]:
    """Settings for JupyterLab under `home`: user settings, workspaces and app
    overrides. The overrides switch news and update checks off (no requests to
    the internet, no toast over the notebook)."""
    dirs = {
        name: home / name for name in ("lab-user-settings", "lab-workspaces", "lab-app-settings")
    }
    for path in dirs.values():
        path.mkdir(parents=True, exist_ok=True)
    overrides = {
        "@jupyterlab/apputils-extension:notification": {
            "checkForUpdates": False,
            "fetchNews": "false",
        },
    }
    (dirs["lab-app-settings"] / "overrides.json").write_text(json.dumps(overrides, indent=2))
    return dirs


def start_lab(root_dir: Path, home: Path, log: Path) -> Server:
    env = isolated_env(home)
    dirs = lab_settings(home)
    port, token = free_port(), secrets.token_hex(24)
    argv = [
        sys.executable,
        "-m",
        "jupyter",
        "lab",
        "--no-browser",
        "--ServerApp.ip=127.0.0.1",
        f"--ServerApp.port={port}",
        "--ServerApp.port_retries=0",
        f"--IdentityProvider.token={token}",
        f"--ServerApp.root_dir={root_dir}",
        "--ServerApp.terminals_enabled=False",
        "--LabApp.news_url=None",
        "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
        f"--LabApp.user_settings_dir={dirs['lab-user-settings']}",
        f"--LabApp.workspaces_dir={dirs['lab-workspaces']}",
        f"--LabApp.app_settings_dir={dirs['lab-app-settings']}",
        # no PyPI look-ups from the extension manager
        "--LabApp.extension_manager=readonly",
    ]
    if _root():
        argv.append("--allow-root")
    server = Server("jupyter lab", argv, env, root_dir, port, token, log)
    server.wait_ready("/api/status")
    return server


def start_voila(notebook: Path, home: Path, log: Path, extra: Sequence[str] = ()) -> Server:
    env = isolated_env(home)
    port = free_port()
    voila = Path(sys.executable).parent / "voila"
    argv = [
        str(voila) if voila.exists() else "voila",
        str(notebook),
        "--no-browser",
        "--Voila.ip=127.0.0.1",
        f"--port={port}",
        "--Voila.port_retries=0",
        "--theme=light",
        *extra,
    ]  # as `make present` serves it
    server = Server("voila", argv, env, notebook.parent, port, "", log)
    # Voilà has no status API and GET / would run the notebook: any answer from
    # its static handler (404 here) means that it listens.
    server.wait_ready("/voila/static/readiness-probe", ok=range(200, 500))
    return server


# --------------------------------------------------------------------------- browser


def launch_chromium(playwright, headless: bool = True):
    """Playwright's own Chromium if installed, else $ATTNLIB_CHROMIUM, else the
    system's chromium. Returns (browser, description) or (None, reason)."""
    args = list(CHROMIUM_ARGS)
    if _root():
        args.insert(0, "--no-sandbox")
    try:
        browser = playwright.chromium.launch(headless=headless, args=args, timeout=30_000)
        return browser, "Playwright's Chromium"
    except Exception as err:
        if "Executable doesn't exist" not in str(err) and "playwright install" not in str(err):
            raise
    candidates = []
    if os.environ.get("ATTNLIB_CHROMIUM"):
        candidates.append(os.environ["ATTNLIB_CHROMIUM"])
    candidates += ["/usr/bin/chromium"]
    candidates += [
        p
        for p in (
            shutil.which("chromium"),
            shutil.which("chromium-browser"),
            shutil.which("google-chrome"),
        )
        if p
    ]
    for exe in candidates:
        if os.path.isfile(exe) and os.access(exe, os.X_OK):
            browser = playwright.chromium.launch(
                executable_path=exe, headless=headless, args=args, timeout=30_000
            )
            return browser, exe
    if os.environ.get("ATTNLIB_CHROMIUM"):
        return None, (
            f"ATTNLIB_CHROMIUM={os.environ['ATTNLIB_CHROMIUM']} is not an "
            f"executable; {HOW_TO_GET_A_BROWSER}"
        )
    return None, HOW_TO_GET_A_BROWSER
