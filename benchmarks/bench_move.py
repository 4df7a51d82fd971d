"""What one slider move costs end to end: a Jupyter server, a kernel, and the websocket between.

    python benchmarks/bench_move.py                 # about a minute
    python benchmarks/bench_move.py --moves 150 --profile test-artifacts/move-profile

Starts one Jupyter server from this environment (127.0.0.1, a token, temporary
config, data and runtime folders; the students' server settings of
``deploy/jupyterhub/server-config`` on ``JUPYTER_CONFIG_PATH``), opens a kernel
session on ``notebooks/05_weighted_sum.ipynb`` and runs that notebook's
explorer, ``attnlib.explorer(n=6, d_k=4, seed=0)``, in it. Then it moves the
sliders over the kernel's websocket the way JupyterLab does when a learner
presses an arrow key on a focused slider: one ``comm_msg`` ``update`` of the
slider model's ``value`` (the websocket subprotocol JupyterLab asks for,
``v1.kernel.websocket.jupyter.org``, unless ``--protocol legacy``). Moves go to
d_k, seed and n in turn, one step each, ``--moves`` times.

Per move it prints the median and p95 of

- CPU time of the server process and of the kernel process (every thread, from
  /proc/<pid>/task/*/schedstat: nanoseconds, where psutil's cpu_times counts in
  10 ms ticks; the psutil totals over all moves are printed beside them),
  read after the kernel's "idle" for the move has arrived and 20 ms more;
- wall time from sending the update to the new picture arriving (the Image
  model's ``value`` buffer), and to the kernel's "idle";
- websocket frames and bytes each way, and what they were: message type, and
  for a ``comm_msg`` the widget (by its model and description) and the state
  keys it carried.

``--via execute`` moves the slider as ``make class`` does (an ``execute_request``
of code that sets ``.value``), to compare the two. ``--profile DIR`` runs the
moves a second time under py-spy (``pip install py-spy``; needs ptrace) on the
kernel and on the server, keeps the raw (collapsed) stacks in DIR and prints the
functions that took the most samples, inclusive and self.

Last it sends the same number of updates to a bare ipywidgets ``IntSlider``
that nothing observes, and prints their CPU: the floor of any widget message on
this server and kernel, which a move the page draws cannot go under.

The machine's load average is printed with the figures: CPU time is less
sensitive to other work on the machine than wall time, but not immune.
"""

from __future__ import annotations

import argparse
import collections
import contextlib
import json
import os
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import psutil
import requests
import websocket
from jupyter_server.services.kernels.connection.base import (
    deserialize_msg_from_ws_v1,
    serialize_msg_to_ws_v1,
)

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = "notebooks/05_weighted_sum.ipynb"
EXPLORER = "import attnlib\nattnlib.explorer(n={n}, d_k=4, seed=0)"  # notebook 05's cell: n = 6
SELECT = (  # as after a click on cell (i, j): its outline, and its breakdown under the picture
    "import attnlib\n_bench_e = attnlib.explorer(n={n}, d_k=4, seed=0)\n"
    "_bench_e.select({cell})\n_bench_e"
)
LIMITS = {"n": (2, 32), "d_k": (1, 64), "seed": (0, 99)}
V1 = "v1.kernel.websocket.jupyter.org"
RATE = 500  # py-spy samples per second
SETTLE_S = 0.02  # after the move's "idle": let the server finish its bookkeeping


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def cpu_ns(pid: int) -> int:
    """CPU time (user + system) of every live thread of `pid`, in nanoseconds."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):
            total += int((task / "schedstat").read_text().split()[0])
    return total


def psutil_cpu_s(pid: int) -> float:
    t = psutil.Process(pid).cpu_times()
    return t.user + t.system


def summary(values: list[float]) -> tuple[float, float]:
    """(median, p95 by nearest rank)."""
    ordered = sorted(values)
    return statistics.median(ordered), ordered[max(0, -(-95 * len(ordered) // 100) - 1)]


class Server:
    """`jupyter server` in a temporary folder; a context manager."""

    def __init__(self, tmp: Path, config: dict | None = None, config_path: list[str] = ()):
        self.tmp, self.port, self.token = tmp, free_port(), secrets.token_hex(16)
        self.config, self.config_path = config or {}, list(config_path)
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc = None

    def __enter__(self) -> Server:
        env = dict(os.environ)
        for name in ("CONFIG_DIR", "DATA_DIR", "RUNTIME_DIR"):
            (self.tmp / name.lower()).mkdir()
            env[f"JUPYTER_{name}"] = str(self.tmp / name.lower())
        env["JUPYTER_CONFIG_PATH"] = os.pathsep.join(
            [*self.config_path, str(ROOT / "deploy" / "jupyterhub" / "server-config")]
        )
        if self.config:  # --server-config: on top of the students' settings
            (self.tmp / "config_dir" / "jupyter_server_config.json").write_text(
                json.dumps(self.config)
            )
        env["IPYTHONDIR"] = str(self.tmp / "ipython")
        self.log = (self.tmp / "server.log").open("w")
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "jupyter_server",
                "--no-browser",
                "--ServerApp.ip=127.0.0.1",
                f"--ServerApp.port={self.port}",
                f"--IdentityProvider.token={self.token}",
                f"--ServerApp.root_dir={ROOT}",
                *(["--allow-root"] if os.geteuid() == 0 else []),
            ],
            env=env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"jupyter server exited:\n{self.tail()}")
            with contextlib.suppress(requests.RequestException):
                if self.api("GET", "/api/status").ok:
                    return self
            time.sleep(0.2)
        raise RuntimeError(f"jupyter server did not answer in 60 s:\n{self.tail()}")

    def tail(self) -> str:
        return "\n".join((self.tmp / "server.log").read_text().splitlines()[-30:])

    def api(self, method: str, path: str, **kw) -> requests.Response:
        headers = {"Authorization": f"token {self.token}"}
        return requests.request(method, self.url + path, headers=headers, timeout=60, **kw)

    def __exit__(self, *exc) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            self.proc.send_signal(signal.SIGINT)  # the second one skips "are you sure?"
            try:
                self.proc.wait(20)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(5)
        self.log.close()


class Channel:
    """The kernel's websocket, as JupyterLab opens it; counts every frame each way."""

    def __init__(self, server: Server, kernel_id: str, protocol: str):
        self.protocol = protocol
        self.session = uuid.uuid4().hex
        url = server.url.replace("http", "ws") + f"/api/kernels/{kernel_id}/channels"
        self.ws = websocket.create_connection(
            f"{url}?session_id={self.session}",
            header=[f"Authorization: token {server.token}"],
            subprotocols=[V1] if protocol == "v1" else None,
            timeout=60,
        )
        if protocol == "v1" and self.ws.getsubprotocol() != V1:
            raise RuntimeError(f"the server did not accept {V1}: got {self.ws.getsubprotocol()!r}")
        self.sent = [0, 0]  # frames, bytes
        self.received = [0, 0]

    def send(self, msg_type: str, content: dict, channel: str = "shell") -> str:
        msg_id = uuid.uuid4().hex
        header = {
            "msg_id": msg_id,
            "username": "learner",
            "session": self.session,
            "msg_type": msg_type,
            "version": "5.3",
            "date": time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime()),
        }
        if self.protocol == "v1":
            parts = [json.dumps(p).encode() for p in (header, {}, {}, content)]
            frame = serialize_msg_to_ws_v1(parts, channel)
            self.ws.send_binary(frame)
        else:
            frame = json.dumps(
                {
                    "header": header,
                    "parent_header": {},
                    "metadata": {},
                    "content": content,
                    "channel": channel,
                    "buffers": [],
                }
            )
            self.ws.send(frame)
        self.sent[0] += 1
        self.sent[1] += len(frame)
        return msg_id

    def recv(self, timeout: float) -> tuple[dict, int]:
        """The next message (header, parent_header, content, channel, buffers) and its size."""
        self.ws.settimeout(timeout)
        frame = self.ws.recv()
        self.received[0] += 1
        self.received[1] += len(frame)
        if isinstance(frame, str):  # legacy protocol, a message without buffers
            return json.loads(frame), len(frame)
        if self.protocol == "v1":
            channel, parts = deserialize_msg_from_ws_v1(frame)
            msg = {
                "channel": channel,
                **{
                    k: json.loads(p)
                    for k, p in zip(
                        ("header", "parent_header", "metadata", "content"), parts[:4], strict=True
                    )
                },
                "buffers": [bytes(b) for b in parts[4:]],
            }
            return msg, len(frame)
        # legacy binary frame: n, offsets, JSON, buffers
        n = int.from_bytes(frame[:4], "big")
        offsets = [int.from_bytes(frame[4 * (i + 1) : 4 * (i + 2)], "big") for i in range(n)]
        msg = json.loads(frame[offsets[0] : offsets[1] if n > 1 else None])
        msg["buffers"] = [
            frame[offsets[i] : offsets[i + 1] if i + 1 < n else None] for i in range(1, n)
        ]
        return msg, len(frame)


class Explorer:
    """The explorer's widgets as the browser knows them: model id by role, from comm_open."""

    def __init__(self):
        self.models = {}  # comm_id -> label ("IntSlider n", "Image", "HTML readout", ...)
        self.sliders = {}  # "n" -> comm_id
        self.values = {}
        self.image = None
        self.page = None  # the explorer's own model, when it draws in the page
        self.controls = {}

    def opened(self, content: dict) -> None:
        state = content["data"]["state"]
        name = state.get("_model_name", "?").removesuffix("Model")
        label = name
        if state.get("description"):
            label += f" {state['description']}"
        elif name == "HTML" and str(state.get("value", "")).startswith('<div style="font-size'):
            label += " readout"
        self.models[content["comm_id"]] = label
        if name == "IntSlider" and state.get("description") in LIMITS:
            self.sliders[state["description"]] = content["comm_id"]
            self.values[state["description"]] = state["value"]
        if name == "Image":
            self.image = content["comm_id"]
        if name == "Any" and "controls" in state:  # an explorer drawn in the page
            self.page = content["comm_id"]
            self.controls = dict(state["controls"])
            self.values.update({k: v for k, v in state["controls"].items() if k in LIMITS})


def execute(channel: Channel, code: str, explorer: Explorer | None = None) -> None:
    msg_id = channel.send(
        "execute_request",
        {
            "code": code,
            "silent": False,
            "store_history": True,
            "user_expressions": {},
            "allow_stdin": False,
            "stop_on_error": True,
        },
    )
    idle = reply = False
    while not (idle and reply):
        msg, _ = channel.recv(120)
        kind = msg["header"]["msg_type"]
        if kind == "comm_open" and explorer is not None:
            explorer.opened(msg["content"])
        if msg["parent_header"].get("msg_id") != msg_id:
            continue
        if kind == "error":
            raise RuntimeError(f"{msg['content']['ename']}: {msg['content']['evalue']}")
        idle |= kind == "status" and msg["content"]["execution_state"] == "idle"
        reply |= kind == "execute_reply"


def describe(msg: dict, explorer: Explorer) -> str:
    """What a message is: its type, and for a comm_msg the widget and the keys it changed."""
    kind = msg["header"]["msg_type"]
    content = msg["content"]
    if kind == "status":
        return f"status {content['execution_state']}"
    if kind == "comm_msg":
        data = content.get("data", {})
        model = explorer.models.get(content.get("comm_id"), "?")
        state = data.get("state", {})
        if model == "HTML" and str(state.get("value", "")).startswith('<div style="font-size'):
            model = "HTML readout"
        keys = ",".join(
            sorted([*state, *(".".join(map(str, p)) for p in data.get("buffer_paths", []))])
        )
        echo = " (echo)" if data.get("method") == "echo_update" else ""
        return f"comm_msg {data.get('method', '?')}{echo}: {model} [{keys}]"
    return kind


def move(channel: Channel, explorer: Explorer, name: str, value: int, via: str) -> dict:
    """One move; returns its wall times and the messages it caused (with their sizes)."""
    if via == "comm" and explorer.page is not None:
        # the page has drawn the move itself; it tells the kernel (one update of controls)
        explorer.controls[name] = value
        msg_id = channel.send(
            "comm_msg",
            {
                "comm_id": explorer.page,
                "data": {
                    "method": "update",
                    "state": {"controls": dict(explorer.controls)},
                    "buffer_paths": [],
                },
            },
        )
    elif via == "comm":
        msg_id = channel.send(
            "comm_msg",
            {
                "comm_id": explorer.sliders[name],
                "data": {"method": "update", "state": {"value": value}, "buffer_paths": []},
            },
        )
    else:
        msg_id = channel.send(
            "execute_request",
            {
                "code": f"_bench_explorer.{name}.value = {value}",
                "silent": False,
                "store_history": False,
                "user_expressions": {},
                "allow_stdin": False,
                "stop_on_error": True,
            },
        )
    start = time.perf_counter()
    out = {"kinds": collections.Counter(), "bytes": collections.Counter(), "image_ms": None}
    out["at_ms"] = collections.Counter()  # summed arrival times (ms after sending), by kind
    idle = False
    while not idle:
        msg, size = channel.recv(60)
        if msg["parent_header"].get("msg_id") != msg_id:
            out["kinds"]["(not of this move) " + describe(msg, explorer)] += 1
            continue
        label = describe(msg, explorer)
        out["kinds"][label] += 1
        out["bytes"][label] += size
        out["at_ms"][label] += (time.perf_counter() - start) * 1e3
        content = msg["content"]
        if (
            msg["header"]["msg_type"] == "comm_msg"
            and content.get("comm_id") in (explorer.image, explorer.page)
            and any(p[0] in ("value", "data") for p in content["data"].get("buffer_paths", []))
            and out["image_ms"] is None
        ):
            out["image_ms"] = (time.perf_counter() - start) * 1e3
        if msg["header"]["msg_type"] == "error":
            raise RuntimeError(f"{content['ename']}: {content['evalue']}")
        idle = msg["header"]["msg_type"] == "status" and content["execution_state"] == "idle"
    out["idle_ms"] = (time.perf_counter() - start) * 1e3
    # an explorer drawn in the page gets new numbers for a seed only; an old one, a picture
    wanted = explorer.page is None or name == "seed"
    if wanted and out["image_ms"] is None:
        raise RuntimeError(f"{name} = {value}: nothing new arrived before idle")
    if not wanted and out["image_ms"] is not None:
        raise RuntimeError(f"{name} = {value}: the kernel sent numbers for a move the page draws")
    explorer.values[name] = value
    return out


def moves(channel, explorer, server_pid, kernel_pid, k, via, names) -> dict:
    """K moves (`names` in turn, one step each); per-move CPU, wall times, messages."""
    rows = []
    ps_before = psutil_cpu_s(server_pid), psutil_cpu_s(kernel_pid)
    for i in range(k):
        name = names[i % len(names)]
        low, high = LIMITS[name]
        now = explorer.values[name]
        step = 1 if (i // len(names)) % 2 == 0 else -1
        value = now + step if low <= now + step <= high else now - step
        s0, k0 = cpu_ns(server_pid), cpu_ns(kernel_pid)
        sent0 = list(channel.sent)
        recv0 = list(channel.received)
        row = move(channel, explorer, name, value, via)
        time.sleep(SETTLE_S)
        row["server_ms"] = (cpu_ns(server_pid) - s0) / 1e6
        row["kernel_ms"] = (cpu_ns(kernel_pid) - k0) / 1e6
        row["sent"] = [a - b for a, b in zip(channel.sent, sent0, strict=True)]
        row["received"] = [a - b for a, b in zip(channel.received, recv0, strict=True)]
        row["name"] = name
        rows.append(row)
    ps_after = psutil_cpu_s(server_pid), psutil_cpu_s(kernel_pid)
    return {
        "rows": rows,
        "psutil_ms": [(a - b) * 1e3 / k for a, b in zip(ps_after, ps_before, strict=True)],
    }


FLOOR = (  # a widget with no observer of ours: what any comm update costs here
    "import ipywidgets\n_bench_bare = ipywidgets.IntSlider(description='bare', max=10**6)\n"
    "_bench_bare"
)


def floor(channel, explorer, server_pid, kernel_pid, k) -> list[float]:
    """Server + kernel CPU (ms) of K updates of a bare IntSlider's value: the message's floor.

    The same message as a move that the page has drawn (one ``comm_msg`` ``update``), to a
    widget that does nothing with it: what is left of a move's cost is Jupyter's own
    (the server relays the message, the kernel parses and dispatches it and publishes
    "busy" and "idle"), which no explorer can remove.
    """
    execute(channel, FLOOR, explorer)
    comm_id = next(c for c, label in explorer.models.items() if label == "IntSlider bare")
    costs = []
    for value in range(1, k + 1):
        s0, k0 = cpu_ns(server_pid), cpu_ns(kernel_pid)
        msg_id = channel.send(
            "comm_msg",
            {
                "comm_id": comm_id,
                "data": {"method": "update", "state": {"value": value}, "buffer_paths": []},
            },
        )
        while True:
            msg, _ = channel.recv(60)
            if (
                msg["parent_header"].get("msg_id") == msg_id
                and msg["header"]["msg_type"] == "status"
                and msg["content"]["execution_state"] == "idle"
            ):
                break
        time.sleep(SETTLE_S)
        costs.append((cpu_ns(server_pid) - s0 + cpu_ns(kernel_pid) - k0) / 1e6)
    return costs


def idle_rate(server_pid: int, kernel_pid: int, seconds: float = 2.0) -> tuple[float, float]:
    """CPU ms per second of server and kernel while nothing happens (the floor of a move)."""
    s0, k0 = cpu_ns(server_pid), cpu_ns(kernel_pid)
    time.sleep(seconds)
    return (cpu_ns(server_pid) - s0) / 1e6 / seconds, (cpu_ns(kernel_pid) - k0) / 1e6 / seconds


def report(result: dict, title: str) -> dict:
    rows = result["rows"]
    k = len(rows)
    print(f"\n{title}: {k} moves, load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    figures = {}
    for key, label in (
        ("server_ms", "server CPU"),
        ("kernel_ms", "kernel CPU"),
        ("total_ms", "server + kernel CPU"),
        ("image_ms", "wall: send -> new picture"),
        ("idle_ms", "wall: send -> kernel idle"),
    ):
        values = [r["server_ms"] + r["kernel_ms"] if key == "total_ms" else r[key] for r in rows]
        values = [v for v in values if v is not None]  # in-page moves bring no new numbers
        if not values:
            print(f"  {label:<28} (none: every move was drawn in the page)")
            continue
        med, p95 = summary(values)
        figures[key] = {"median": round(med, 2), "p95": round(p95, 2)}
        print(f"  {label:<28} median {med:7.2f} ms   p95 {p95:7.2f} ms")
    for name in dict.fromkeys(r["name"] for r in rows):
        mine = [r for r in rows if r["name"] == name]
        med = statistics.median(r["server_ms"] + r["kernel_ms"] for r in mine)
        print(f"    moves of {name:<5} server + kernel CPU median {med:6.2f} ms")
    print(
        "  psutil cpu_times over all moves, mean per move: "
        f"server {result['psutil_ms'][0]:.1f} ms, kernel {result['psutil_ms'][1]:.1f} ms"
    )
    sent = [sum(r["sent"][0] for r in rows) / k, sum(r["sent"][1] for r in rows) / k]
    got = [sum(r["received"][0] for r in rows) / k, sum(r["received"][1] for r in rows) / k]
    print(
        f"  websocket per move: sent {sent[0]:.1f} frames, {sent[1]:.0f} B; "
        f"received {got[0]:.1f} frames, {got[1]:.0f} B"
    )
    figures["frames_in"], figures["bytes_in"] = got
    figures["frames_out"], figures["bytes_out"] = sent
    kinds, sizes, at = collections.Counter(), collections.Counter(), collections.Counter()
    for r in rows:
        kinds.update(r["kinds"])
        sizes.update(r["bytes"])
        at.update(r["at_ms"])
    print("  received per move, by kind (count, mean bytes, mean arrival after sending):")
    for label, count in sorted(kinds.items(), key=lambda item: at[item[0]] / item[1]):
        print(
            f"    {count / k:5.2f} x {sizes[label] / count:8.0f} B {at[label] / count:6.1f} ms  "
            f"{label}"
        )
    return figures


# --------------------------------------------------------------------------- py-spy


# Where a thread waits rather than works: py-spy samples these too (it cannot always tell
# an idle thread inside a container), so they are left out of the counts.
WAITING = (
    "select (selectors",
    "_watch_pipe_fd (",
    "Condition.wait (",
    "GarbageCollectorThread.run (",
    "device (",
    "ParentPollerUnix.run (",
    "poll (",
)


def collapsed_top(path: Path, cpu_ms: float, count: int = 25) -> str:
    """The functions with most working samples in a py-spy raw (collapsed) file.

    Inclusive (the function or anything it called; the trunk that nearly every sample
    passes through, the event loop and the app's start, is left out) and self (the
    function itself), as a share of the working samples and as ms of `cpu_ms`, the
    process's mean CPU per move measured without py-spy (which slows what it samples).
    """
    inclusive, own, threads, total = collections.Counter(), collections.Counter(), {}, 0
    for line in path.read_text().splitlines():
        stack, _, n = line.rpartition(" ")
        frames = stack.split(";")
        if not stack or any(w in frames[-1] for w in WAITING):
            continue
        n = int(n)
        total += n
        thread = frames[0].split(": ")[-1]
        threads[thread] = threads.get(thread, 0) + n
        names = [f.split(" (")[0] for f in frames[1:]]
        for name in set(names):
            inclusive[name] += n
        own[frames[-1].rsplit(":", 1)[0]] += n
    per_ms = cpu_ms / max(total, 1)
    trunk = [name for name, n in inclusive.items() if n > 0.96 * total]
    for name in trunk:
        del inclusive[name]
    lines = [
        f"{path.name}: {total} working samples, shares of {cpu_ms:.1f} ms per move "
        f"(threads: {', '.join(f'{t} {n}' for t, n in threads.items())})"
    ]
    for title, counter in (("inclusive", inclusive), ("self", own)):
        lines.append(f"  top {title}:")
        lines += [
            f"    {100 * n / max(total, 1):5.1f}%  {n * per_ms:6.2f} ms  {name}"
            for name, n in counter.most_common(count)
        ]
    return "\n".join(lines)


def profiled(args, channel, explorer, server_pid, kernel_pid, cpu_ms: dict) -> None:
    out = Path(args.profile)
    out.mkdir(parents=True, exist_ok=True)
    spies = []
    for who, pid in (("kernel", kernel_pid), ("server", server_pid)):
        raw = out / f"{who}.txt"
        spies.append(
            (
                raw,
                subprocess.Popen(
                    [
                        str(Path(sys.executable).parent / "py-spy"),
                        *f"record --pid {pid} --rate {RATE} --format raw --threads".split(),
                        *["--duration", "600", "--output", str(raw)],
                    ],
                    stdout=subprocess.DEVNULL,
                    stderr=(out / f"{who}.py-spy.log").open("w"),
                ),
            )
        )
    time.sleep(2)  # py-spy attaches
    result = moves(channel, explorer, server_pid, kernel_pid, args.moves, args.via, args.sliders)
    time.sleep(0.5)
    for _, spy in spies:
        spy.send_signal(signal.SIGINT)  # py-spy writes its file on Ctrl-C
    for _, spy in spies:
        spy.wait(60)
    print(f"\nunder py-spy (slower): {len(result['rows'])} moves; profiles in {out}/")
    text = "\n\n".join(
        collapsed_top(raw, cpu_ms[who])
        for (raw, _), who in zip(spies, ("kernel", "server"), strict=True)
    )
    (out / "summary.txt").write_text(text + "\n")
    print(text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=60)
    parser.add_argument("--n", type=int, default=6, help="the explorer's n at the start")
    parser.add_argument(
        "--select",
        metavar="I,J",
        type=lambda t: tuple(int(x) for x in t.split(",")),
        help="select cell (i, j) first, as a click does (outline and breakdown)",
    )
    parser.add_argument(
        "--sliders",
        default="d_k,seed,n",
        type=lambda t: t.split(","),
        help="the sliders moved in turn (default d_k,seed,n)",
    )
    parser.add_argument("--via", choices=("comm", "execute"), default="comm")
    parser.add_argument("--protocol", choices=("v1", "legacy"), default="v1")
    parser.add_argument("--profile", metavar="DIR", help="profile with py-spy, write DIR/")
    parser.add_argument("--json", metavar="FILE", help="write the figures as JSON")
    parser.add_argument(
        "--config-path",
        metavar="DIR",
        action="append",
        default=[],
        help="a folder of server settings to try, searched before deploy/jupyterhub/server-config",
    )
    parser.add_argument(
        "--server-config",
        metavar="JSON",
        type=json.loads,
        help='extra server settings to try, e.g. \'{"ZMQChannelsWebsocketConnection": '
        '{"limit_rate": false}}\'',
    )
    args = parser.parse_args()
    with (
        tempfile.TemporaryDirectory(prefix="bench-move-") as tmp,
        Server(Path(tmp), args.server_config, args.config_path) as server,
    ):
        r = server.api(
            "POST",
            "/api/sessions",
            json={"path": NOTEBOOK, "type": "notebook", "kernel": {"name": "python3"}},
        )
        r.raise_for_status()
        kernel_id = r.json()["kernel"]["id"]
        channel = Channel(server, kernel_id, args.protocol)
        kernel_pid = next(
            p.pid
            for p in psutil.Process(server.proc.pid).children(recursive=True)
            if any(kernel_id in part for part in p.cmdline())
        )
        explorer = Explorer()
        code = (SELECT if args.select else EXPLORER).format(n=args.n, cell=args.select)
        execute(channel, code, explorer)
        old_style = set(explorer.sliders) == set(LIMITS) and explorer.image is not None
        if not old_style and explorer.page is None:
            raise RuntimeError(f"no explorer among the widgets: {explorer.models}")
        if args.via == "execute":
            execute(channel, "_bench_explorer = next(v for v in Out.values() if hasattr(v, 'd_k'))")
        import attnlib

        print(
            f"attnlib {attnlib.__version__}; one server and one kernel; explorer at n = {args.n}"
            f"{f', cell {args.select} selected' if args.select else ''}; moves of "
            f"{', '.join(args.sliders)} via {args.via} over the {args.protocol} websocket protocol"
        )
        idle = idle_rate(server.proc.pid, kernel_pid)
        print(f"idle CPU: server {idle[0]:.2f} ms/s, kernel {idle[1]:.2f} ms/s")
        pids = server.proc.pid, kernel_pid
        moves(channel, explorer, *pids, 6, args.via, args.sliders)  # warm up
        result = moves(channel, explorer, *pids, args.moves, args.via, args.sliders)
        figures = report(result, "per move")
        bare = floor(channel, explorer, *pids, args.moves)
        med, p95 = summary(bare)
        figures["floor_ms"] = {"median": round(med, 2), "p95": round(p95, 2)}
        print(
            f"\nfloor: one update of a bare IntSlider (no observer), {len(bare)} times: "
            f"server + kernel CPU median {med:.2f} ms, p95 {p95:.2f} ms"
        )
        figures["load"] = os.getloadavg()
        if args.json:
            Path(args.json).write_text(json.dumps(figures, indent=1))
        if args.profile:
            cpu_ms = {
                who: statistics.mean(r[f"{who}_ms"] for r in result["rows"])
                for who in ("kernel", "server")
            }
            profiled(args, channel, explorer, server.proc.pid, kernel_pid, cpu_ms)
        channel.ws.close()


if __name__ == "__main__":
    main()
