"""deploy/jupyterhub/server-config/jupyter_server_config.py: the students' kernel websocket,
and no Node.js run at a server's start."""

from __future__ import annotations

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
