"""deploy/jupyterhub/server-config/jupyter_server_config.py: the students' kernel websocket,
no Node.js run at a server's start, and kernels on Unix sockets."""

from __future__ import annotations

import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

import pytest

pytest.importorskip("jupyter_server", reason="pip install -e .[notebook] for Jupyter Server")
from jupyter_server.services.kernels.connection.channels import (
    ZMQChannelsWebsocketConnection,
)
from traitlets.config.loader import PyFileConfigLoader

CONFIG = Path(__file__).resolve().parents[1] / "deploy" / "jupyterhub" / "server-config"


@pytest.fixture(autouse=True)
def _jupyterlab_as_installed(monkeypatch):
    """Loading the config patches JupyterLab in this process: undone after each test."""
    commands = pytest.importorskip("jupyterlab.commands", reason="pip install jupyterlab")
    monkeypatch.setattr(commands, "_yarn_config", commands._yarn_config)


class FakeHandler:
    def __init__(self):
        self.nodelay = []

    def set_nodelay(self, value: bool) -> None:
        self.nodelay.append(value)


def test_the_kernel_websocket_sends_each_message_at_once(monkeypatch):
    config = PyFileConfigLoader("jupyter_server_config.py", path=str(CONFIG)).load_config()
    connection = config.ServerApp.kernel_websocket_connection_class
    assert issubclass(connection, ZMQChannelsWebsocketConnection)
    # connect() turns Nagle's algorithm off, then connects as usual (what it returns too)
    sentinel = object()
    monkeypatch.setattr(ZMQChannelsWebsocketConnection, "connect", lambda self: sentinel)
    fake = connection.__new__(connection)  # no kernel: only connect() is under test
    handler = FakeHandler()
    monkeypatch.setattr(connection, "websocket_handler", handler, raising=False)
    assert connection.connect(fake) is sentinel
    assert handler.nodelay == [True]


def test_a_students_server_does_not_run_node_at_start(monkeypatch, tmp_path):
    commands = pytest.importorskip("jupyterlab.commands", reason="pip install jupyterlab")
    assert hasattr(commands, "_yarn_config"), "JupyterLab renamed _yarn_config: update the config"
    # a node on the PATH that leaves a mark when run, as /usr/bin/node would run
    ran = tmp_path / "node-ran"
    node = tmp_path / "bin" / "node"
    node.parent.mkdir()
    node.write_text(f"#!/bin/sh\ntouch {ran}\necho '{{}}'\n")
    node.chmod(0o755)
    monkeypatch.setenv("PATH", f"{node.parent}:/usr/bin:/bin")
    commands.AppOptions().registry  # noqa: B018 (what JupyterLab reads at every start)
    assert ran.exists(), "the fake node was not found: this test proves nothing"
    ran.unlink()

    PyFileConfigLoader("jupyter_server_config.py", path=str(CONFIG)).load_config()
    assert commands.AppOptions().registry == "https://registry.yarnpkg.com"
    assert not ran.exists(), "a student's server ran node at start"


def load(monkeypatch, runtime: str):
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", runtime)
    return PyFileConfigLoader("jupyter_server_config.py", path=str(CONFIG)).load_config()


@pytest.fixture
def short_tmp():
    """A folder with a short path (pytest's tmp_path can be too deep for a Unix socket)."""
    folder = tempfile.mkdtemp(prefix="sc", dir="/tmp")
    yield folder
    shutil.rmtree(folder, ignore_errors=True)


def test_kernels_use_unix_sockets_when_their_paths_fit(monkeypatch, short_tmp):
    config = load(monkeypatch, os.path.join(short_tmp, "runtime"))
    assert config.KernelManager.transport == "ipc"
    # /home/<name>/.local/share/jupyter/runtime: names of up to 22 characters fit
    fits = load(monkeypatch, "/home/" + "n" * 22 + "/.local/share/jupyter/runtime")
    assert fits.KernelManager.transport == "ipc"


def test_a_runtime_folder_too_deep_for_a_socket_keeps_tcp(monkeypatch):
    deep = "/home/" + "n" * 23 + "/.local/share/jupyter/runtime"
    config = load(monkeypatch, deep)
    assert "transport" not in config.KernelManager  # jupyter_client's default: TCP
    assert not os.path.exists(deep)  # nothing made on the way


@pytest.mark.parametrize("depth", ["short", "deep"])
def test_a_students_server_runs_a_kernel(short_tmp, depth):
    """The real thing: a Jupyter server with the students' settings starts a kernel that
    answers, over ipc:// sockets in its runtime folder when their paths fit, else TCP."""
    pytest.importorskip("websocket", reason="pip install websocket-client")
    sys.path.insert(0, str(CONFIG.parents[2] / "benchmarks"))
    try:
        import bench_move
    finally:
        sys.path.pop(0)
    home = Path(short_tmp) / ("x" * 60 if depth == "deep" else "")
    home.mkdir(exist_ok=True)
    with bench_move.Server(home) as server:
        kernel = server.api("POST", "/api/kernels", json={"name": "python3"}).json()["id"]
        runtime = home / "runtime_dir"
        info = json.loads((runtime / f"kernel-{kernel}.json").read_text())
        assert info["transport"] == ("ipc" if depth == "short" else "tcp")
        channel = bench_move.Channel(server, kernel, "v1")
        channel.send("kernel_info_request", {})
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            msg, _ = channel.recv(60)
            if msg["header"]["msg_type"] == "kernel_info_reply":
                break
        else:  # pragma: no cover
            pytest.fail(f"the kernel ({info['transport']}) did not answer in 60 s")
        sockets = sorted(p.name[-5:] for p in runtime.glob(f"kernel-{kernel}-ipc-*"))
        assert sockets == ([f"ipc-{k}" for k in range(1, 6)] if depth == "short" else [])


def test_make_lab_gets_the_students_server_settings(monkeypatch, short_tmp):
    """jupyter/server (JUPYTER_CONFIG_PATH of `make lab` and of the browser tests' servers)
    loads the students' server settings: a learner's own picture does not wait either."""
    monkeypatch.setenv("JUPYTER_RUNTIME_DIR", short_tmp)
    project = CONFIG.parents[2] / "jupyter" / "server"
    config = PyFileConfigLoader("jupyter_server_config.py", path=str(project)).load_config()
    students = PyFileConfigLoader("jupyter_server_config.py", path=str(CONFIG)).load_config()
    assert config.ServerApp.kernel_websocket_connection_class.__name__ == "NoDelayKernelWebsocket"
    assert config.KernelManager.transport == students.KernelManager.transport == "ipc"
    # the class's JSON settings (idle kernels culled after 20 minutes) are not a learner's
    assert "cull_idle_timeout" not in config.MappingKernelManager
    makefile = (CONFIG.parents[2] / "Makefile").read_text()
    assert "JUPYTER_CONFIG_PATH=$(CURDIR)/jupyter/server" in makefile
    assert "$(SERVER_CONFIG_PATH) $(BIN)/jupyter lab" in makefile


class FakeStream:
    def on_recv(self, callback):
        self.callback = callback


class FakeKernel:
    def __init__(self, session):
        self.session = session
        self.execution_state = "starting"
        self.last_activity = None

    def connect_iopub(self):
        return FakeStream()


def watch(manager, session):
    kernel = FakeKernel(session)
    manager._kernels["k"] = kernel
    manager.start_watching_activity("k")
    return kernel


def test_the_lean_activity_watcher_records_what_jupyter_servers_records():
    from jupyter_client.session import Session
    from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager

    config = PyFileConfigLoader("jupyter_server_config.py", path=str(CONFIG)).load_config()
    lean_class = config.ServerApp.kernel_manager_class
    assert issubclass(lean_class, AsyncMappingKernelManager) and lean_class is not (
        AsyncMappingKernelManager
    )
    session = Session(key=b"a key")
    stock, lean = AsyncMappingKernelManager(), lean_class()
    kernels = {"stock": watch(stock, session), "lean": watch(lean, session)}

    def iopub(msg_type, content, parent_type=None):
        parent = session.msg(parent_type, {}) if parent_type else {}
        msg = session.msg(msg_type, content, parent=parent)
        return session.serialize(msg, ident=[b"kernel.k." + msg_type.encode()])

    # a kernel's life: starting, a kernel_info (untracked), a cell with output, a slider
    # move (comm_msg in, echo and picture out), a message of its own while idle
    sequence = [
        iopub("status", {"execution_state": "starting"}),
        iopub("status", {"execution_state": "busy"}, "kernel_info_request"),
        iopub("status", {"execution_state": "idle"}, "kernel_info_request"),
        iopub("status", {"execution_state": "busy"}, "execute_request"),
        iopub("execute_input", {"code": "1", "execution_count": 1}, "execute_request"),
        iopub("stream", {"name": "stdout", "text": "1\n"}, "execute_request"),
        iopub("stream", {"name": "stdout", "text": "2\n"}, "comm_info_request"),  # while busy
        iopub("status", {"execution_state": "idle"}, "execute_request"),
        iopub("stream", {"name": "stdout", "text": "late\n"}, "execute_request"),
        iopub("status", {"execution_state": "busy"}, "comm_msg"),
        iopub("comm_msg", {"comm_id": "c", "data": {"method": "echo_update"}}, "comm_msg"),
        iopub("comm_msg", {"comm_id": "i", "data": {"method": "update"}}, "comm_msg"),
        iopub("status", {"execution_state": "idle"}, "comm_msg"),
        iopub("comm_msg", {"comm_id": "t", "data": {"method": "update"}}),
        iopub("display_data", {"data": {}, "metadata": {}}),
    ]
    seen = {"stock": [], "lean": []}
    for frames in sequence:
        frames = [bytes(f) for f in frames]
        for name, manager in (("stock", stock), ("lean", lean)):
            kernel = kernels[name]
            kernel.last_activity = None
            manager._kernels["k"]._activity_stream.callback(list(frames))
            seen[name].append((kernel.execution_state, kernel.last_activity is not None))
    assert seen["lean"] == seen["stock"]
    # the sequence tries both answers of each rule
    assert {state for state, _ in seen["stock"]} == {"starting", "idle", "busy"}
    assert {recorded for _, recorded in seen["stock"]} == {True, False}
    # and what has no headers is reported, not raised
    kernels["lean"].last_activity = None
    lean._kernels["k"]._activity_stream.callback([b"<IDS|MSG>", b"sig"])
    assert kernels["lean"].last_activity is None
