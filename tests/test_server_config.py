"""deploy/jupyterhub/server-config/jupyter_server_config.py: the students' kernel websocket."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("jupyter_server", reason="pip install -e .[notebook] for Jupyter Server")
from jupyter_server.services.kernels.connection.channels import (
    ZMQChannelsWebsocketConnection,
)
from traitlets.config.loader import PyFileConfigLoader

CONFIG = Path(__file__).resolve().parents[1] / "deploy" / "jupyterhub" / "server-config"


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
