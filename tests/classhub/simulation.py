"""A simulated class on one machine: JupyterHub, N students, their servers and kernels.

(Not a test file but the harness `make class` runs; long because it is a whole
class: the hub's config, the students' logins, websockets and timings.)

The hub runs deploy/jupyterhub/jupyterhub_config.py with three test-only changes:
it listens on 127.0.0.1 only, each student logs in with a password of their own
(`ClassListAuthenticator`, defined in the generated config), and servers are local
processes with a home in a temporary folder (SimpleLocalProcessSpawner), which stop
with the hub (cleanup_servers, which the deploy config leaves to systemd). The proxy
is the npm configurable-http-proxy from deploy/jupyterhub/node_modules.

A student (`Student`) does over HTTP and the kernel's websocket what a learner's
browser does: log in through the form, start a server, pull the course with the
nbgitpuller link, open the main explorer's notebook, run it, move the sliders. The
timings are taken at the student's end: a slider move is a widget message, as
JupyterLab sends it, and ends when the new picture arrives.
`BrowserStudent` does the same in Chromium, through the same hub.
"""

from __future__ import annotations

import contextlib
import inspect
import json
import math
import os
import random
import select
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import quote, urljoin

import psutil
import requests
import websocket
from jupyter_server.services.kernels.connection.base import (
    deserialize_msg_from_ws_v1,
    serialize_msg_to_ws_v1,
)

ROOT = Path(__file__).resolve().parents[2]
DEPLOY = ROOT / "deploy" / "jupyterhub"
CHP = DEPLOY / "node_modules" / ".bin" / "configurable-http-proxy"
COURSE_DIR = "attnlib-course"
V1 = "v1.kernel.websocket.jupyter.org"  # the kernel websocket protocol JupyterLab asks for
NOTEBOOK = f"{COURSE_DIR}/notebooks/05_weighted_sum.ipynb"  # where the main explorer is


def explorer_model(explorer):
    """The widget model a move is sent to: the one place that knows it.

    Runs in the student's kernel (its source is sent there). attnlib's explorers draw in
    the page (an anywidget): the page tells the explorer's own model of a move, as
    ``controls``, and a new seed's numbers come back on that model as ``data``.
    """
    return explorer


# Sent to each kernel after the notebook has run: find the explorer the notebook
# displayed (the first output with n, d_k and seed controls) and print their values and
# the widget model id a browser would know it by: a move is then a widget message to
# that model, and a seed's answer the model's new numbers.
KERNEL_CODE = """
import json as _class_json
{helper}
_class_explorers = [v for v in Out.values() if all(hasattr(v, s) for s in ("n", "d_k", "seed"))]
if not _class_explorers:
    raise RuntimeError("the notebook displayed no explorer with n, d_k and seed controls")
_class_explorer = _class_explorers[0]
print(_class_json.dumps({{
    "values": dict(_class_explorer.controls),
    "models": {{"explorer": explorer_model(_class_explorer).model_id}},
}}))
"""

LIMITS = {"n": (2, 32), "d_k": (1, 64), "seed": (0, 99)}

# The targets for a class on a 2-core machine (test_class checks them).
REDRAW_P95_MS = 500
SETTLE_S = 0.02  # after a move's "idle": the server's last bookkeeping, counted in its CPU
READY_S = 30
MEMORY_MB = 250


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_ns(pids: list[int]) -> int:
    """CPU time (user + system) of every live thread of `pids`, in nanoseconds
    (/proc/<pid>/task/*/schedstat; psutil's cpu_times count in 10 ms ticks, too coarse
    for one move)."""
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            for task in Path(f"/proc/{pid}/task").iterdir():
                with contextlib.suppress(OSError, ValueError, IndexError):
                    total += int((task / "schedstat").read_text().split()[0])
    return total


def summary(values: list[float]) -> dict:
    """n, median, p95 (nearest rank) and max; NaN for an empty list."""
    if not values:
        return {"n": 0, "median": float("nan"), "p95": float("nan"), "max": float("nan")}
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, max(0, -(-95 * len(ordered) // 100) - 1))]
    return {"n": len(ordered), "median": statistics.median(ordered), "p95": p95, "max": ordered[-1]}


# ------------------------------------------------------------- arrival and the curve

ARRIVALS = ("even", "random")


def arrival_offsets(n: int, spread_s: float, pattern: str = "even", seed: int = 0) -> list[float]:
    """Seconds after the lesson starts at which each of `n` students begins to log in.

    spread_s = 0: all at once. "even": student k (from 0) at k * spread_s / n, so the
    last one starts one interval before spread_s; "random": each at a time drawn
    uniformly from [0, spread_s] by a generator seeded with `seed` (the same class
    arrives the same way on every run).
    """
    if not isinstance(n, int) or n < 1:
        raise ValueError(f"n = {n!r}: a class needs a whole number of students, at least 1")
    if not (isinstance(spread_s, (int, float)) and math.isfinite(spread_s) and spread_s >= 0):
        raise ValueError(f"spread_s = {spread_s!r}: expected seconds, a finite number >= 0")
    if pattern not in ARRIVALS:
        raise ValueError(f"arrival pattern {pattern!r}: expected one of {', '.join(ARRIVALS)}")
    if pattern == "even":
        return [k * spread_s / n for k in range(n)]
    rng = random.Random(seed)
    return [rng.uniform(0, spread_s) for _ in range(n)]


def arrival_label(spread_s: float, pattern: str) -> str:
    """How the class arrived, in words, for the figures and the curve's table."""
    if spread_s == 0:
        return "all at once"
    return f"spread over {spread_s:g} s ({pattern})"


class ClassBarrier:
    """The moment the whole class starts moving sliders together ("now, everyone").

    Unlike threading.Barrier, a student who fails before getting there `leave`s, and
    the others go on without them (threading.Barrier could only be aborted, which
    failed every other student with BrokenBarrierError). `action` runs once, when the
    last expected student arrives. A waiting student can pass `idle`, called with a
    number of seconds, to keep its connection alive while it waits.
    """

    def __init__(self, names, action=None, step_s: float = 0.5):
        self.expected = set(names)
        self.arrived: set[str] = set()
        self.action = action
        self.step_s = step_s
        self.released = False
        self._cond = threading.Condition()

    def _release_if_all_here(self) -> None:  # with the lock held
        if not self.released and self.expected <= self.arrived:
            self.released = True
            if self.action:
                self.action()
            self._cond.notify_all()

    def leave(self, name: str) -> None:
        """`name` will not come (failed): the others stop waiting for them."""
        with self._cond:
            self.expected.discard(name)
            self.arrived.discard(name)
            self._release_if_all_here()

    def wait(self, name: str, timeout: float, idle=None) -> None:
        """Arrive, and return when every expected student has arrived; TimeoutError
        naming who is missing after `timeout` seconds."""
        deadline = time.monotonic() + timeout
        with self._cond:
            if name not in self.expected:
                raise ValueError(f"{name!r} is not in this class (or has left it)")
            self.arrived.add(name)
            self._release_if_all_here()
        while True:
            with self._cond:
                if self.released:
                    return
                if time.monotonic() > deadline:
                    missing = sorted(self.expected - self.arrived)
                    raise TimeoutError(f"{name} waited {timeout} s for {', '.join(missing)}")
                if idle is None:
                    self._cond.wait(self.step_s)
                    continue
            idle(self.step_s)


def targets_missed(f: dict) -> list[str]:
    """The targets a run's figures miss, in words; [] when all hold. No student
    dropped means none failed and no kernel connection was lost, even if it came
    back; a figure that was not measured (no student got that far) is a miss."""
    missed = []
    ready, redraw = f["login_to_ready_s"]["max"], f["redraw_ms"]["p95"]
    if not ready <= READY_S:  # NaN (not measured) is a miss too
        missed.append(f"login -> ready max {ready:.1f} s > {READY_S} s")
    if not redraw <= REDRAW_P95_MS:
        missed.append(f"redraw p95 {redraw:.0f} ms > {REDRAW_P95_MS} ms")
    if f["failed"]:
        missed.append(f"{len(f['failed'])} dropped ({', '.join(sorted(f['failed']))})")
    if f["kernel_reconnects"]:
        missed.append(f"{len(f['kernel_reconnects'])} reconnected")
    return missed


def largest_held(runs: list[dict], arrival: str) -> int | None:
    """The largest N such that the runs with this arrival at N and at every smaller N
    held the targets (`runs`: dicts with "N", "arrival" and "missed"); None if the
    smallest did not. A larger N that held above one that missed does not count:
    on a machine at its limit that is luck, not capacity."""
    ours = sorted((r for r in runs if r["arrival"] == arrival), key=lambda r: r["N"])
    held = None
    for r in ours:
        if r["missed"]:
            break
        held = r["N"]
    return held


def curve_table(runs: list[dict], arrival: str) -> str:
    """The capacity curve as one table, and the line that says how many two cores hold
    (with logins arriving as `arrival` says)."""

    def two(s: dict, fmt: str, a: str = "median", b: str = "max") -> str:
        return f"{s[a]:{fmt}} / {s[b]:{fmt}}" if s["n"] else "-"

    head = (
        f"{'N':>4}  {'arrival':<26} {'login->ready s':>15}  {'redraw ms':>13}  "
        f"{'CPU/move ms':>11}  {'dropped/reconn.':>15}  targets"
    )
    lines = [
        "",
        "== capacity curve: login -> ready median / max; move -> new picture median / p95; "
        "CPU per move (server + kernel) median ==",
        head,
    ]
    for r in sorted(runs, key=lambda r: (r["N"], r["arrival"] == "all at once")):
        f = r["figures"]
        cpu = f["cpu_ms_per_move"]
        cpu_text = f"{cpu['median']:.1f}" if cpu["n"] else "-"
        lines.append(
            f"{r['N']:>4}  {r['arrival']:<26} {two(f['login_to_ready_s'], '.1f'):>15}  "
            f"{two(f['redraw_ms'], '.0f', 'median', 'p95'):>13}  "
            f"{cpu_text:>11}  "
            f"{len(f['failed'])} / {len(f['kernel_reconnects']):<11}  "
            + ("held" if not r["missed"] else "missed: " + "; ".join(r["missed"]))
        )
    tried = ", ".join(str(n) for n in sorted({r["N"] for r in runs if r["arrival"] == arrival}))
    held = largest_held(runs, arrival)
    if held is None:
        lines.append(f"two cores hold none of N = {tried} within the targets (logins {arrival})")
    else:
        lines.append(
            f"two cores hold {held} students within the targets (logins {arrival}; "
            f"tried N = {tried})"
        )
    return "\n".join(lines)


# --------------------------------------------------------------------------- the hub

HUB_CONFIG = '''
import hmac
from traitlets import Dict
from jupyterhub.auth import Authenticator

load_subconfig({deploy_config!r})


class ClassListAuthenticator(Authenticator):
    """Test only: each student has a password of their own, given in the config."""

    passwords = Dict(config=True)

    async def authenticate(self, handler, data):
        expected = self.passwords.get(data.get("username", ""))
        if expected and hmac.compare_digest(expected, data.get("password", "")):
            return data["username"]
        return None


c.JupyterHub.bind_url = "http://127.0.0.1:{port}"
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = {hub_port}
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{api_port}"
c.ConfigurableHTTPProxy.command = [{chp!r}]
c.JupyterHub.db_url = "sqlite:///{tmp}/jupyterhub.sqlite"
c.JupyterHub.cookie_secret_file = "{tmp}/cookie_secret"
c.JupyterHub.pid_file = "{tmp}/jupyterhub.pid"
c.JupyterHub.authenticator_class = ClassListAuthenticator
c.ClassListAuthenticator.passwords = {passwords!r}
c.Authenticator.allowed_users = set({passwords!r})
c.Authenticator.admin_users = set()
from jupyterhub.spawner import SimpleLocalProcessSpawner
from quick_ready import quick_ready  # deploy/jupyterhub, on the path from the config above

c.JupyterHub.spawner_class = quick_ready(SimpleLocalProcessSpawner)
c.SimpleLocalProcessSpawner.home_dir_template = "{homes}/{{username}}"
c.Spawner.ip = "127.0.0.1"
c.Spawner.args = {spawner_args!r}
c.JupyterHub.concurrent_spawn_limit = {n}
# local processes, not systemd units: they stop with the test's hub
c.JupyterHub.cleanup_servers = True
'''


@dataclass
class Hub:
    """JupyterHub in `tmp`, for `passwords` (username -> password); a context manager."""

    tmp: Path
    passwords: dict[str, str]
    course_repo: str
    port: int = field(default_factory=free_port)
    log: Path | None = None
    keep_log: Path | None = None  # where to copy the hub's log when it stops
    run_label: str = ""  # added to the name of the run's log folder (runs/<time>-<label>)
    proc: subprocess.Popen | None = None
    seen: dict[int, tuple[float, str]] = field(default_factory=dict)  # pid -> (created, name)
    homes: Path | None = None  # the students' homes (made by __enter__, removed by __exit__)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def __enter__(self) -> Hub:
        if not CHP.exists():
            raise RuntimeError(f"{CHP} is missing: run `make class` (npm install in {DEPLOY})")
        # The homes at a path as short as /home/<name>: a kernel's Unix sockets sit in
        # ~/.local/share/jupyter/runtime and a socket's path holds 107 bytes at most
        # (server-config/jupyter_server_config.py); pytest's tmp folder is deeper.
        self.homes = Path(tempfile.mkdtemp(prefix="c", dir="/tmp"))
        link = self.tmp / "home"  # where the homes were, for whoever looks there
        if link.is_symlink():
            link.unlink()
        link.symlink_to(self.homes)
        config = self.tmp / "jupyterhub_config.py"
        config.write_text(
            HUB_CONFIG.format(
                deploy_config=str(DEPLOY / "jupyterhub_config.py"),
                port=self.port,
                hub_port=free_port(),
                api_port=free_port(),
                chp=str(CHP),
                tmp=self.tmp,
                homes=self.homes,
                passwords=self.passwords,
                spawner_args=["--allow-root"] if os.geteuid() == 0 else [],
                n=max(1, len(self.passwords)),
            )
        )
        config.chmod(0o600)
        # what the deploy config requires before it lets a hub start: the class
        # list, and a state folder outside the repository
        class_list = self.tmp / "class.txt"
        class_list.write_text("".join(f"{name}\n" for name in self.passwords))
        state = self.tmp / "state"
        state.mkdir(mode=0o700, exist_ok=True)
        env = dict(os.environ)
        env.update(
            ATTNLIB_COURSE_REPO=self.course_repo,
            ATTNLIB_USER_ENV=sys.prefix,
            ATTNLIB_CLASS_LIST=str(class_list),
            ATTNLIB_HUB_STATE=str(state),
            PATH=f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}",
        )
        self.log = self.tmp / "jupyterhub.log"
        self.proc = subprocess.Popen(
            [str(Path(sys.executable).parent / "jupyterhub"), "-f", str(config)],
            cwd=self.tmp,
            env=env,
            stdout=self.log.open("w"),
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"jupyterhub exited {self.proc.returncode}:\n{self.tail()}")
            with contextlib.suppress(requests.RequestException):
                if requests.get(f"{self.url}/hub/api/", timeout=2).ok:
                    self.remember()
                    return self
            time.sleep(0.25)
        self.__exit__(None, None, None)
        raise RuntimeError(f"jupyterhub did not answer in 60 s:\n{self.tail()}")

    def tail(self, lines: int = 40) -> str:
        text = self.log.read_text(errors="replace") if self.log and self.log.exists() else ""
        return "\n".join(text.splitlines()[-lines:])

    def tree(self) -> list[psutil.Process]:
        """The hub and every process under it (proxy, culler, servers, kernels)."""
        try:
            hub = psutil.Process(self.proc.pid)
            return [hub, *hub.children(recursive=True)]
        except psutil.NoSuchProcess:
            return []

    def remember(self) -> None:
        """Note every process under the hub now, to check at the end that all are gone."""
        for p in self.tree():
            with contextlib.suppress(psutil.Error):
                self.seen.setdefault(p.pid, (p.create_time(), " ".join(p.cmdline())[:120]))

    def listening(self) -> list[str]:
        """'ip:port' of every listening TCP socket of the hub's processes."""
        pids = {p.pid for p in self.tree()}
        return sorted(
            f"{c.laddr.ip}:{c.laddr.port}"
            for c in psutil.net_connections(kind="tcp")
            if c.status == psutil.CONN_LISTEN and c.pid in pids
        )

    def servers(self) -> dict[str, list[psutil.Process]]:
        """username -> [single-user server, its kernels...]."""
        out = {}
        for p in self.tree():
            with contextlib.suppress(psutil.Error):
                if any("jupyterhub-singleuser" in part for part in p.cmdline()[:2]):
                    user = p.environ().get("JUPYTERHUB_USER")
                    if user:
                        out[user] = [p, *p.children(recursive=True)]
        return out

    def server_cpu_s(self, user: str) -> float | None:
        """CPU seconds (user + system) `user`'s server has used so far, with the
        processes it ran and waited for (JupyterLab asks `node` for yarn's settings);
        None if it is not running."""
        procs = self.servers().get(user, [])
        with contextlib.suppress(psutil.Error):
            if procs:
                cpu = procs[0].cpu_times()
                return cpu.user + cpu.system + cpu.children_user + cpu.children_system
        return None

    def memory(self) -> dict[str, dict[str, float]]:
        """username -> memory of their server and kernels, in MB, and CPU seconds used.

        'rss', 'uss' and 'pss' are summed over the user's processes; 'server_rss' and
        'kernels_rss' split the RSS; 'cpu_s' is user + system time so far.
        """
        out = {}
        for user, procs in self.servers().items():
            total = dict.fromkeys(("rss", "uss", "pss", "server_rss", "kernels_rss", "cpu_s"), 0.0)
            total["processes"] = 0
            for i, p in enumerate(procs):
                with contextlib.suppress(psutil.Error):
                    info = p.memory_full_info()
                    cpu = p.cpu_times()
                    total["rss"] += info.rss / 1e6
                    total["uss"] += info.uss / 1e6
                    total["pss"] += getattr(info, "pss", 0) / 1e6
                    total["server_rss" if i == 0 else "kernels_rss"] += info.rss / 1e6
                    total["cpu_s"] += cpu.user + cpu.system
                    total["processes"] += 1
            out[user] = total
        return out

    def __exit__(self, *exc) -> None:
        self.remember()
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)  # the hub stops the servers and the proxy
            try:
                self.proc.wait(60)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(10)
        if self.keep_log and self.log and self.log.exists():
            self.keep_log.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(self.log, self.keep_log)
            run = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
            run += f"-{self.run_label}" if self.run_label else ""
            split_log(self.log, self.keep_log.parent / "runs" / run)
        if self.homes:
            shutil.rmtree(self.homes, ignore_errors=True)

    def leftovers(self, grace_s: float = 15) -> list[str]:
        """Processes seen under the hub that still run after it stopped (then killed)."""
        deadline = time.monotonic() + grace_s
        while True:
            alive = []
            for pid, (created, cmd) in self.seen.items():
                with contextlib.suppress(psutil.NoSuchProcess):
                    p = psutil.Process(pid)
                    if p.create_time() == created and p.status() != psutil.STATUS_ZOMBIE:
                        alive.append((p, cmd))
            if not alive or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        for p, _ in alive:
            with contextlib.suppress(psutil.Error):
                p.kill()
        return [f"pid {p.pid}: {cmd}" for p, cmd in alive]


# Where a line of the hub's log comes from: the proxy and each student's server write
# to the hub's output too (they inherit it), each with its own logger's name.
_LOG_SOURCES = {
    "proxy": ("ConfigProxy",),
    "servers": (
        "ServerApp",
        "SingleUser",
        "LabApp",
        "NotebookApp",
        "KernelRestarter",
        "nbgitpuller",
    ),
}


def split_log(log: Path, run_dir: Path) -> dict[str, int]:
    """Keep one run's log in `run_dir`: all of it (jupyterhub.log), and split by source
    into hub.log, proxy.log and servers.log (a line that names no source, such as a
    traceback's, goes with the line before it). Returns the number of lines in each."""
    run_dir.mkdir(parents=True, exist_ok=True)
    text = log.read_text(errors="replace")
    (run_dir / "jupyterhub.log").write_text(text)
    parts: dict[str, list[str]] = {"hub": [], "proxy": [], "servers": []}
    source = "hub"
    for line in text.splitlines(keepends=True):
        head = line[:160]
        named = [name for name, marks in _LOG_SOURCES.items() if any(m in head for m in marks)]
        if named:
            source = named[0]
        elif head.startswith("[") or head[:4].isdigit():
            source = "hub"  # a new record from the hub itself
        parts[source].append(line)
    for name, lines in parts.items():
        (run_dir / f"{name}.log").write_text("".join(lines))
    return {name: len(lines) for name, lines in parts.items()}


def make_course(repo: Path, target: Path) -> str:
    """A bare git repository holding the committed course (HEAD of `repo`) as main."""
    subprocess.run(
        ["git", "init", "--quiet", "--bare", "--initial-branch=main", str(target)], check=True
    )
    subprocess.run(
        ["git", "-C", str(repo), "push", "--quiet", str(target), "HEAD:refs/heads/main"],
        check=True,
    )
    return f"file://{target}"


def update_course(course: Path, work: Path) -> str:
    """The teacher updates the course: a new file and a changed README. Returns the file."""
    subprocess.run(
        ["git", "clone", "--quiet", "--branch", "main", str(course), str(work)], check=True
    )
    name = "notebooks/UPDATE_FROM_TEACHER.md"
    (work / name).write_text("The teacher added this after the first lesson.\n")
    with (work / "README.md").open("a") as f:
        f.write("\nUpdated for the second lesson.\n")
    git = ["git", "-C", str(work), "-c", "user.name=teacher", "-c", "user.email=t@example.edu"]
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "--quiet", "-m", "second lesson"], check=True)
    subprocess.run([*git, "push", "--quiet", "origin", "HEAD:main"], check=True)
    return f"{COURSE_DIR}/{name}"


# --------------------------------------------------------------------------- a student


class KernelError(RuntimeError):
    pass


class Kernel:
    """A kernel's websocket through the hub's proxy: execute code, collect its output.

    When the connection drops, it reconnects as JupyterLab does: to the same kernel
    with the same session id (the server keeps the kernel's messages for that session
    while no one is connected and sends them on reconnection), after a growing pause,
    up to RECONNECT_TRIES times. Each reconnection is counted in `reconnects`, with
    when and why, so that a class run reports dropped connections instead of failing
    on the first one.
    """

    RECONNECT_TRIES = 7  # JupyterLab's KernelConnection gives up after 7 tries
    TIMEOUT_S = 300  # a read that waits longer than this fails
    DRAIN_S = 0.05  # _drain's reads: only what has already arrived

    def __init__(self, ws_url: str, token: str):
        self.session = uuid.uuid4().hex
        self.url = f"{ws_url}?session_id={self.session}"
        self.token = token
        self.reconnects: list[dict] = []
        self.ws = self._connect()

    def _connect(self) -> websocket.WebSocket:
        ws = websocket.create_connection(
            self.url,
            header=[f"Authorization: token {self.token}"],
            subprotocols=[V1],
            timeout=self.TIMEOUT_S,
        )
        if ws.getsubprotocol() != V1:
            ws.close()
            raise KernelError(f"the server did not accept {V1}: got {ws.getsubprotocol()!r}")
        return ws

    def _reconnect(self, why: Exception) -> None:
        dropped = time.time()
        with contextlib.suppress(Exception):
            self.ws.close()
        for attempt in range(self.RECONNECT_TRIES):
            time.sleep(min(2**attempt, 16) * 0.25)
            try:
                self.ws = self._connect()
            except websocket.WebSocketBadStatusException:
                raise  # refused (403) or gone (404): reconnecting will not help
            except (OSError, websocket.WebSocketException):
                continue
            self.reconnects.append(
                {
                    "at": time.strftime("%H:%M:%S", time.gmtime(dropped)),
                    "why": f"{type(why).__name__}: {why}",
                    "tries": attempt + 1,
                    "down_s": round(time.time() - dropped, 2),
                }
            )
            return
        raise KernelError(
            f"connection lost ({type(why).__name__}: {why}) and not back after "
            f"{self.RECONNECT_TRIES} tries"
        )

    def _send(self, frame: bytes) -> None:
        try:
            self.ws.send_binary(frame)
        except (OSError, websocket.WebSocketException) as exc:
            self._reconnect(exc)
            self.ws.send_binary(frame)

    @staticmethod
    def _decode(frame: bytes) -> dict:
        """A v1 frame as a message: msg_type, parent_header, content (buffers dropped)."""
        _channel, parts = deserialize_msg_from_ws_v1(frame)
        header, parent, _metadata, content = (json.loads(p) for p in parts[:4])
        return {"msg_type": header["msg_type"], "parent_header": parent, "content": content}

    def _recv(self):
        try:
            frame = self.ws.recv()
        except websocket.WebSocketTimeoutException:
            raise
        except (OSError, websocket.WebSocketException) as exc:
            self._reconnect(exc)  # replies sent meanwhile arrive on the new connection
            return None
        if frame in ("", b""):
            # websocket-client's recv() returns "" for a close frame: the server ended
            # the connection cleanly (its ping timeout does). Without this the empty
            # frame reached json.loads and the student failed with JSONDecodeError.
            self._reconnect(websocket.WebSocketConnectionClosedException("closed by the server"))
            return None
        return frame

    def _drain(self) -> None:
        """Read what already waits on the connection before a new request is sent:
        replies to earlier requests (dropped), or the server's close frame, which
        reconnects now. Sent into a connection the server has already closed, the
        request would be lost, and its reply waited for in vain.

        Each read waits DRAIN_S at most. What waits may be only a ping, which recv()
        answers and then goes on waiting for a message; with the connection's long
        timeout, that wait held a student for TIMEOUT_S (seen: a class of 20 stalled
        for minutes, one student in this read). A frame cut short by the timeout is
        kept by websocket-client and finished by the next read."""
        self.ws.settimeout(self.DRAIN_S)
        try:
            while (sock := getattr(self.ws, "sock", None)) is not None and select.select(
                [sock], [], [], 0
            )[0]:
                try:
                    if self._recv() is None:  # reconnected: the new connection starts clean
                        return
                except websocket.WebSocketTimeoutException:
                    return  # nothing but a ping (answered), or part of a frame
        finally:
            self.ws.settimeout(self.TIMEOUT_S)

    def idle(self, seconds: float) -> None:
        """Wait as an open JupyterLab tab waits: still reading the connection.

        The server pings each kernel websocket every 30 s and closes it when no pong
        has come for 90 s ("WebSocket ping timeout" in its log). A browser answers
        pings by itself; websocket-client answers one only inside recv(). A student
        who slept (waiting for the class, thinking between moves) without reading
        lost the connection after 90 s, which is how students were dropped
        mid-run. Frames read here belong to no request and are dropped.
        """
        deadline = time.monotonic() + seconds
        try:
            while (left := deadline - time.monotonic()) > 0:
                self.ws.settimeout(min(left, 1.0))
                with contextlib.suppress(websocket.WebSocketTimeoutException):
                    self._recv()  # answers a ping; reconnects (counted) if dropped
        finally:
            self.ws.settimeout(self.TIMEOUT_S)

    def _message(self, msg_type: str, content: dict) -> tuple[str, bytes]:
        """(msg_id, the frame) of a shell message, as JupyterLab sends it (protocol v1)."""
        msg_id = uuid.uuid4().hex
        header = {
            "msg_id": msg_id,
            "username": "student",
            "session": self.session,
            "msg_type": msg_type,
            "version": "5.3",
            "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        }
        parts = [json.dumps(part).encode() for part in (header, {}, {}, content)]
        return msg_id, serialize_msg_to_ws_v1(parts, "shell")

    def comm_update(
        self,
        comm_id: str,
        state: dict,
        image_id: str,
        timeout_s: float = 60,
        *,
        picture: bool = True,
    ) -> dict:
        """Tell a widget model of a move, as the page does: one ``comm_msg`` ``update`` of
        its state. Waits for the kernel's "idle" for this message and, with `picture`,
        for a binary update of model `image_id` (a new picture, or an explorer's new
        numbers); returns {'image_ms', 'idle_ms'} after sending (image_ms None without
        `picture`). KernelError if the kernel went idle without sending what was awaited."""
        msg_id, frame = self._message(
            "comm_msg",
            {"comm_id": comm_id, "data": {"method": "update", "state": state, "buffer_paths": []}},
        )
        self._drain()
        self._send(frame)
        start = time.perf_counter()
        image_ms = idle_ms = None
        deadline = time.monotonic() + timeout_s
        try:
            while idle_ms is None:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise KernelError(f"no answer in {timeout_s} s to the update of {state}")
                self.ws.settimeout(min(left, 5.0))  # short spells, as in execute()
                try:
                    raw = self._recv()
                except websocket.WebSocketTimeoutException:
                    continue
                if raw is None:  # reconnected: the server replays what it buffered
                    continue
                msg = self._decode(raw)
                if msg.get("parent_header", {}).get("msg_id") != msg_id:
                    continue
                kind, content = msg["msg_type"], msg["content"]
                paths = (
                    content.get("data", {}).get("buffer_paths", []) if kind == "comm_msg" else []
                )
                if (
                    content.get("comm_id") == image_id
                    and any(p[:1] in (["value"], ["data"]) for p in paths)
                    and image_ms is None
                ):
                    image_ms = (time.perf_counter() - start) * 1e3
                elif kind == "status" and content["execution_state"] == "idle":
                    idle_ms = (time.perf_counter() - start) * 1e3
        finally:
            self.ws.settimeout(self.TIMEOUT_S)
        if picture and image_ms is None:
            raise KernelError(f"the update of {state} ended without a new picture")
        return {"image_ms": image_ms, "idle_ms": idle_ms}

    def execute(self, code: str, timeout_s: float = 300, store_history: bool = True) -> dict:
        """Run `code`; returns {'stdout', 'reply_s'}; raises KernelError on an error."""
        msg_id, frame = self._message(
            "execute_request",
            {
                "code": code,
                "silent": False,
                "store_history": store_history,
                "user_expressions": {},
                "allow_stdin": False,
                "stop_on_error": False,
            },
        )
        self._drain()
        self._send(frame)
        start = time.perf_counter()
        stdout, error, reply, idle = [], None, None, False
        deadline = time.monotonic() + timeout_s
        try:
            while not (reply and idle):
                left = deadline - time.monotonic()
                if left <= 0:
                    raise KernelError(f"no reply in {timeout_s} s to {code[:60]!r}")
                # read in short spells: the server's pings, answered inside recv(),
                # would otherwise keep a long read waiting forever for a lost reply
                self.ws.settimeout(min(left, 5.0))
                try:
                    frame = self._recv()
                except websocket.WebSocketTimeoutException:
                    continue
                if frame is None:  # reconnected
                    continue
                msg = self._decode(frame)
                if msg.get("parent_header", {}).get("msg_id") != msg_id:
                    continue
                kind, content = msg["msg_type"], msg["content"]
                if kind == "stream" and content.get("name") == "stdout":
                    stdout.append(content["text"])
                elif kind == "error":
                    error = f"{content['ename']}: {content['evalue']}"
                elif kind == "status" and content["execution_state"] == "idle":
                    idle = True
                elif kind == "execute_reply":
                    reply = content
                    if content["status"] != "ok" and not error:
                        error = f"{content.get('ename')}: {content.get('evalue')}"
        finally:
            self.ws.settimeout(self.TIMEOUT_S)
        if error:
            raise KernelError(f"{error} (in {code[:80]!r})")
        return {"stdout": "".join(stdout), "reply_s": time.perf_counter() - start}

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.ws.close()


@dataclass
class Student:
    """One learner, over HTTP and the kernel websocket."""

    hub: Hub
    name: str
    password: str
    course_repo: str
    http: requests.Session = field(default_factory=requests.Session)
    token: str = ""
    kernel: Kernel | None = None
    kernel_id: str = ""
    values: dict = field(default_factory=dict)  # the sliders' values in the kernel
    models: dict = field(default_factory=dict)  # widget model ids: "n", "d_k", "seed", "image"
    pids: list = field(default_factory=list)  # their server's, then kernel's: CPU per move
    timings: dict = field(
        default_factory=lambda: {
            "redraw_ms": [],
            "idle_ms": [],
            "cpu_ms": [],
            "server_cpu_ms": [],
            "moves": [],
        }
    )

    # -- the hub

    def login(self, password: str | None = None) -> requests.Response:
        """The login form, as a browser posts it (with the _xsrf field)."""
        http = requests.Session() if password is not None else self.http
        self.open_login(http)
        return self.submit_login(password, http)

    def open_login(self, http: requests.Session | None = None) -> None:
        """The hub's login page, as a browser opens it (its _xsrf cookie comes with it)."""
        (http or self.http).get(f"{self.hub.url}/hub/login", timeout=30).raise_for_status()

    def submit_login(
        self, password: str | None = None, http: requests.Session | None = None
    ) -> requests.Response:
        """The login form, posted from the page `open_login` opened."""
        http = http or self.http
        return http.post(
            f"{self.hub.url}/hub/login",
            data={
                "username": self.name,
                "password": self.password if password is None else password,
                "_xsrf": http.cookies.get("_xsrf", ""),
            },
            allow_redirects=False,
            timeout=60,
        )

    def get_token(self) -> None:
        """An API token for this student, asked for with the login cookie (as the UI does)."""
        self.http.get(f"{self.hub.url}/hub/token", timeout=30).raise_for_status()
        r = self.http.post(
            f"{self.hub.url}/hub/api/users/{self.name}/tokens",
            json={"note": "simulated class", "expires_in": 7200},
            headers={
                "X-XSRFToken": next((c.value for c in self.http.cookies if c.name == "_xsrf"), "")
            },
            timeout=30,
        )
        r.raise_for_status()
        self.token = r.json()["token"]

    def api(self, method: str, path: str, token: str | None = None, **kw) -> requests.Response:
        """A request to the hub or a server with this student's token (or another)."""
        headers = {"Authorization": f"token {token or self.token}"}
        return requests.request(
            method, f"{self.hub.url}{path}", headers=headers, timeout=kw.pop("timeout", 60), **kw
        )

    def spawn_after_login(self, login: requests.Response) -> float:
        """Follow the login's redirect as a browser does: the hub's spawn page starts
        the server (and sends the browser on to the page that waits for it). Returns
        the time of that request (``time.perf_counter``), from which `wait_until_ready`
        counts."""
        where = login.headers.get("Location", "")
        if not where.rstrip("/").endswith("/hub/spawn"):
            raise RuntimeError(
                f"{self.name}: the login sent the browser to {where!r}, not the spawn page"
            )
        start = time.perf_counter()
        r = self.http.get(urljoin(self.hub.url, where), allow_redirects=False, timeout=60)
        if r.status_code != 302:
            raise RuntimeError(f"{self.name}: the spawn page -> {r.status_code} {r.text[:200]}")
        return start

    def start_server(self, timeout_s: float = 180) -> float:
        """Ask the hub's API for a server; seconds until it answers through the proxy."""
        start = time.perf_counter()
        r = self.api("POST", f"/hub/api/users/{self.name}/server")
        if r.status_code not in (201, 202):
            raise RuntimeError(f"{self.name}: start server -> {r.status_code} {r.text[:200]}")
        return self.wait_until_ready(start, timeout_s)

    def wait_until_ready(self, start: float, timeout_s: float = 180) -> float:
        """Seconds from `start` (``time.perf_counter``) until the hub calls this student's
        server ready and it answers through the proxy.

        Waits as the hub's spawn page does in a browser: on the spawn's progress stream
        (server-sent events; the hub sends each step, then "ready" or "failed"), not by
        asking the hub again and again, which twenty students at twice a second turned
        into forty requests a second on the hub while it started their servers.
        """
        deadline = time.monotonic() + timeout_s
        url = f"{self.hub.url}/hub/api/users/{self.name}/server/progress"
        headers = {"Authorization": f"token {self.token}", "Accept": "text/event-stream"}
        # the hub sends a keepalive every 8 s: a read that waits longer has lost the stream
        with requests.get(url, headers=headers, stream=True, timeout=(30, 60)) as r:
            r.raise_for_status()
            for line in r.iter_lines(decode_unicode=True):
                if line and line.startswith("data:"):
                    event = json.loads(line[len("data:") :])
                    if event.get("failed"):
                        raise RuntimeError(f"{self.name}: spawn failed: {event.get('message')}")
                    if event.get("ready"):
                        break
                if time.monotonic() > deadline:
                    raise RuntimeError(f"{self.name}: server not ready in {timeout_s} s")
            else:
                raise RuntimeError(f"{self.name}: the progress stream ended before 'ready'")
        while time.monotonic() < deadline:  # the proxy's route, as the browser's next page
            if self.api("GET", f"/user/{self.name}/api/status").ok:
                return time.perf_counter() - start
            time.sleep(0.1)
        raise RuntimeError(f"{self.name}: server ready but not answering in {timeout_s} s")

    def stop_server(self, timeout_s: float = 60) -> None:
        r = self.api("DELETE", f"/hub/api/users/{self.name}/server")
        if r.status_code not in (202, 204):
            raise RuntimeError(f"{self.name}: stop server -> {r.status_code} {r.text[:200]}")
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if not self.api("GET", f"/hub/api/users/{self.name}").json().get("servers"):
                return
            time.sleep(0.5)
        raise RuntimeError(f"{self.name}: server still there {timeout_s} s after stop")

    # -- the course

    def pull_course(self) -> None:
        """What the nbgitpuller link does: clone (or update, keeping edits) the course."""
        query = f"repo={quote(self.course_repo, safe='')}&branch=main&targetpath={COURSE_DIR}"
        r = self.api("GET", f"/user/{self.name}/git-pull/api?{query}", timeout=300)
        r.raise_for_status()
        events = [
            json.loads(line[len("data: ") :])
            for line in r.text.splitlines()
            if line.startswith("data: ")
        ]
        phases = [e.get("phase") for e in events]
        if "finished" not in phases:
            bad = [e for e in events if e.get("phase") == "error"]
            raise RuntimeError(f"{self.name}: git-pull did not finish: {bad[:1] or phases}")

    def contents(self, path: str, token: str | None = None) -> requests.Response:
        return self.api("GET", f"/user/{self.name}/api/contents/{path}", token=token)

    def save(self, path: str, model: dict) -> None:
        r = self.api("PUT", f"/user/{self.name}/api/contents/{path}", json=model)
        r.raise_for_status()

    # -- the notebook

    def open_notebook(self) -> None:
        r = self.api(
            "POST",
            f"/user/{self.name}/api/sessions",
            json={"path": NOTEBOOK, "type": "notebook", "kernel": {"name": "python3"}},
        )
        r.raise_for_status()
        self.kernel_id = r.json()["kernel"]["id"]
        ws = self.hub.url.replace("http://", "ws://")
        self.kernel = Kernel(
            f"{ws}/user/{self.name}/api/kernels/{self.kernel_id}/channels", self.token
        )

    def run_notebook(self) -> float:
        """Every code cell of the notebook, in order, as Run All does; seconds taken."""
        r = self.contents(NOTEBOOK)
        r.raise_for_status()
        cells = [c for c in r.json()["content"]["cells"] if c["cell_type"] == "code"]
        start = time.perf_counter()
        for cell in cells:
            source = "".join(cell["source"])
            if not source.strip():
                continue
            try:
                self.kernel.execute(source)
            except KernelError:
                # an error shown on purpose (nbval's tag, as in the stored notebook)
                if "raises-exception" not in cell.get("metadata", {}).get("tags", []):
                    raise
        out = self.kernel.execute(KERNEL_CODE.format(helper=inspect.getsource(explorer_model)))
        found = json.loads(out["stdout"].strip().splitlines()[-1])
        self.values, self.models = found["values"], found["models"]
        return time.perf_counter() - start

    def move_sliders(self, k: int, rng, think_s: float) -> None:
        """K moves, as arrow keys do: one slider one step (d_k, seed, n in turn), each told
        to the explorer's model as its page tells it (``controls``) once it has drawn it.

        Per move: for a seed, the time until its new numbers reach the student
        (`redraw_ms`; n and d_k are drawn in the page from numbers it holds: None), the
        time until the kernel is idle (`idle_ms`), and the CPU that this student's server
        and kernel spent from sending the move until SETTLE_S after the kernel's idle
        (`cpu_ms`; the class's other processes are not counted, only the student's own).
        """
        names = ["d_k", "seed", "n"]
        for i in range(k):
            name = names[i % len(names)]
            low, high = LIMITS[name]
            now = self.values[name]
            step = rng.choice((-1, 1))
            value = now + step if low <= now + step <= high else now - step
            server0, kernel0 = cpu_ns(self.pids[:1]), cpu_ns(self.pids[1:])
            model = self.models["explorer"]
            controls = {**self.values, name: value}
            out = self.kernel.comm_update(
                model, {"controls": controls}, model, picture=name == "seed"
            )
            time.sleep(SETTLE_S)
            if self.pids:
                server_ms = (cpu_ns(self.pids[:1]) - server0) / 1e6
                kernel_ms = (cpu_ns(self.pids[1:]) - kernel0) / 1e6
                self.timings["cpu_ms"].append(server_ms + kernel_ms)
                self.timings["server_cpu_ms"].append(server_ms)
            self.values[name] = value
            self.timings["redraw_ms"].append(out["image_ms"])
            self.timings["idle_ms"].append(out["idle_ms"])
            self.timings["moves"].append(name)
            if think_s:
                self.kernel.idle(rng.uniform(0.5, 1.5) * think_s)

    def close(self) -> None:
        if self.kernel:
            self.kernel.close()


# --------------------------------------------------------------------------- Chromium

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]

# The first explorer on the page has drawn (its canvas has a picture)
_IMG_SRC = """() => {
  const box = document.querySelector('.attnlib-page-explorer');
  return box && box.dataset.drawn ? box.dataset.drawn : null;
}"""

# A move is told by the explorer's data-drawn stamp: the page sets it when it has drawn
_SNAPSHOT = """() => document.querySelector('.attnlib-page-explorer').dataset.drawn"""

_CHANGED = (
    """(before) => document.querySelector('.attnlib-page-explorer').dataset.drawn !== before"""
)


def accept_kernel_choice(page) -> int:
    """Click "Select" while JupyterLab asks which kernel to start (it does when its first
    look for the notebook's kernel is slow, as on a machine a whole class shares, and it
    can ask once per way the notebook was opened): the preferred kernel is chosen, as a
    student would. Returns how many times it asked."""
    dialogs = page.locator(".jp-Dialog").filter(has_text="Select Kernel")
    answered = 0
    while answered < 5 and dialogs.count():
        before = dialogs.count()
        dialogs.first.locator(".jp-mod-accept").click()
        answered += 1
        with contextlib.suppress(Exception):  # closed, or another one still open
            page.wait_for_function(
                """n => document.querySelectorAll('.jp-Dialog').length < n""",
                arg=before,
                timeout=5_000,
            )
    return answered


def chromium_path() -> str | None:
    for path in (os.environ.get("ATTNLIB_CHROMIUM"), "/usr/bin/chromium", shutil.which("chromium")):
        if path and Path(path).exists():
            return path
    return None


def browser_student(
    hub: Hub,
    student: Student,
    k: int,
    start: ClassBarrier,
    think_s: float,
    rng,
    arrive=lambda: None,
) -> dict:
    """Open the hub's login page in Chromium and fill it in; at `arrive()` (which returns
    when this student logs in) sign in, land on the course link (the server starts and
    nbgitpuller pulls), Run All in JupyterLab, then move the explorer's d_k slider with
    the arrow keys K times; times each move until the picture changes.
    """
    from browser import pages  # tests/browser: the JupyterLab page helpers
    from playwright.sync_api import sync_playwright

    result = {"name": student.name, "redraw_ms": [], "problems": []}
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=chromium_path(), args=CHROMIUM_ARGS)
        try:
            page = browser.new_page(viewport={"width": 1400, "height": 1000})
            page.on("pageerror", lambda e: result["problems"].append(f"uncaught: {e}"))
            opened = time.perf_counter()
            page.goto(f"{hub.url}/hub/login", timeout=60_000)
            page.fill("#username_input", student.name)
            page.fill("#password_input", student.password)
            result["login_page_s"] = time.perf_counter() - opened
            arrive()
            t0 = time.perf_counter()
            page.click("#login_submit")
            # the spawn page until the server is up, then the git-pull page on the
            # student's server, then JupyterLab with the first notebook
            page.wait_for_url(f"**/user/{student.name}/**", timeout=120_000)
            result["login_to_server_s"] = time.perf_counter() - t0
            page.wait_for_url("**/lab/tree/**", timeout=120_000)
            page.wait_for_selector(".jp-NotebookPanel", timeout=120_000)
            result["login_to_lab_s"] = time.perf_counter() - t0
            page.goto(f"{hub.url}/user/{student.name}/lab/tree/{NOTEBOOK}?reset", timeout=60_000)
            page.wait_for_selector(".jp-NotebookPanel .jp-Cell", timeout=60_000)
            page.wait_for_function(
                """() => { const i = document.querySelector(
                     '.jp-NotebookPanel:not(.lm-mod-hidden) .jp-Notebook-ExecutionIndicator');
                   return i && i.dataset.status === 'idle'; }""",
                timeout=120_000,
            )
            for _ in range(3):  # just after opening, the command may not reach the notebook
                result["kernel_choices"] = result.get("kernel_choices", 0) + (
                    accept_kernel_choice(page)
                )
                with contextlib.suppress(Exception):  # a dialog opened meanwhile: again
                    page.locator(".lm-MenuBar").get_by_role(
                        "menuitem", name="Run", exact=True
                    ).click(timeout=15_000)
                    page.locator(".lm-Menu").get_by_role(
                        "menuitem", name="Run All Cells", exact=True
                    ).click(timeout=15_000)
                with contextlib.suppress(Exception):
                    page.wait_for_function(_IMG_SRC, timeout=20_000)
                    break
            else:
                page.wait_for_function(_IMG_SRC, timeout=120_000)
            # the explorer of notebook 05 is in a "Deeper" section, which opens
            # collapsed: the student opens the sections, as a learner clicks them open
            if pages.expand_all_headings(page) < 0:
                result["problems"].append("some collapsed sections did not open")
            start.wait(student.name, timeout=900)  # Chromium answers pings itself
            handle = page.locator(".attnlib-page-explorer").first.locator("[data-control=d_k]")
            handle.scroll_into_view_if_needed()
            handle.focus()
            for i in range(k):
                sets = page.evaluate(_SNAPSHOT)
                t = time.perf_counter()
                page.keyboard.press("ArrowRight" if i % 2 == 0 else "ArrowLeft")
                page.wait_for_function(_CHANGED, arg=sets, timeout=30_000)
                result["redraw_ms"].append((time.perf_counter() - t) * 1e3)
                if think_s:
                    time.sleep(rng.uniform(0.5, 1.5) * think_s)
            shot = hub.tmp / f"{student.name}.png"
            page.screenshot(path=str(shot))
            result["screenshot"] = str(shot)
        except Exception:
            # what the student saw when it went wrong, beside the run's logs
            where = hub.keep_log.parent if hub.keep_log else hub.tmp
            with contextlib.suppress(Exception):
                where.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(where / f"{student.name}-failed.png"))
            raise
        finally:
            browser.close()
    return result
