"""The simulated class's own machinery (tests/classhub/simulation.py), without a hub:
a kernel connection that drops comes back as JupyterLab's does and is counted, and a
run's log is kept split by where each line came from."""

import json

import pytest

websocket = pytest.importorskip("websocket", reason="pip install websocket-client")
pytest.importorskip("psutil", reason="pip install psutil (the test extra)")
from classhub import simulation as sim  # noqa: E402 (tests/ is on sys.path under pytest)


class FakeSocket:
    """A kernel's websocket: answers each execute_request with output, idle and a reply,
    or drops (raises) at the moment `drop_on` says."""

    def __init__(self, drop_on: str | None = None):
        self.drop_on = drop_on
        self.queue: list[str] = []
        self.sent: list[dict] = []

    def send(self, text: str) -> None:
        if self.drop_on == "send":
            raise websocket.WebSocketConnectionClosedException("socket is already closed.")
        msg = json.loads(text)
        self.sent.append(msg)
        parent = {"msg_id": msg["header"]["msg_id"]}
        for kind, content in (
            ("stream", {"name": "stdout", "text": "42\n"}),
            ("execute_reply", {"status": "ok"}),
            ("status", {"execution_state": "idle"}),
        ):
            self.queue.append(
                json.dumps({"msg_type": kind, "content": content, "parent_header": parent})
            )

    def recv(self):
        if self.drop_on == "recv":
            # the request reached the kernel; its replies wait in the server's buffer
            raise websocket.WebSocketConnectionClosedException(
                "Connection to remote host was lost."
            )
        return self.queue.pop(0)

    def close(self) -> None:
        pass


@pytest.fixture
def sockets(monkeypatch):
    """The connections a Kernel opens, in order; set `plan` to what each one does."""
    opened: list[FakeSocket] = []
    plan: list = []

    def create_connection(url, header, timeout):
        step = plan.pop(0) if plan else None
        if isinstance(step, Exception):
            raise step
        sock = FakeSocket(drop_on=step)
        if opened and opened[-1].drop_on == "recv":
            sock.queue = opened[-1].queue  # the server replays the session's buffer
        sock.url = url
        opened.append(sock)
        return sock

    monkeypatch.setattr(sim.websocket, "create_connection", create_connection)
    monkeypatch.setattr(sim.time, "sleep", lambda s: None)
    return opened, plan


def test_a_dropped_connection_comes_back_with_the_same_session_and_is_counted(sockets):
    opened, plan = sockets
    plan += ["recv", None]
    kernel = sim.Kernel("ws://hub/user/ada/api/kernels/k1/channels", "token")
    out = kernel.execute("print(42)")
    assert out["stdout"] == "42\n"
    assert len(opened) == 2
    assert (
        opened[0].url
        == opened[1].url
        == (f"ws://hub/user/ada/api/kernels/k1/channels?session_id={kernel.session}")
    )
    (event,) = kernel.reconnects
    assert event["tries"] == 1 and "remote host was lost" in event["why"]


def test_a_request_that_could_not_be_sent_is_sent_again_after_reconnecting(sockets):
    opened, plan = sockets
    plan += ["send", None]
    kernel = sim.Kernel("ws://hub/k", "token")
    assert kernel.execute("print(42)")["stdout"] == "42\n"
    assert len(opened[1].sent) == 1 and len(kernel.reconnects) == 1


def test_reconnecting_gives_up_after_jupyterlabs_number_of_tries(sockets):
    _, plan = sockets
    plan += ["recv"] + [ConnectionRefusedError("hub down")] * sim.Kernel.RECONNECT_TRIES
    kernel = sim.Kernel("ws://hub/k", "token")
    with pytest.raises(sim.KernelError, match=f"not back after {sim.Kernel.RECONNECT_TRIES} tries"):
        kernel.execute("print(42)")
    assert kernel.reconnects == []


def test_a_refused_reconnection_is_not_retried(sockets):
    _, plan = sockets
    refused = websocket.WebSocketBadStatusException("Handshake status %d", 403)
    plan += ["recv", refused, None]
    kernel = sim.Kernel("ws://hub/k", "token")
    with pytest.raises(websocket.WebSocketBadStatusException):
        kernel.execute("print(42)")
    assert plan == [None]  # no third connection was tried


def test_a_runs_log_is_kept_whole_and_split_by_source(tmp_path):
    log = tmp_path / "jupyterhub.log"
    log.write_text(
        "[I 2026-12-01 10:00:00.000 JupyterHub app:3000] Starting\n"
        "10:00:01.000 [ConfigProxy] info: Proxying http://127.0.0.1:8000\n"
        "[I 2026-12-01 10:00:02.000 ServerApp] Jupyter Server is running\n"
        "Traceback (most recent call last):\n"
        '  File "x.py", line 1\n'
        "[W 2026-12-01 10:00:03.000 JupyterHub base:1] 429 Too many users\n"
    )
    counts = sim.split_log(log, tmp_path / "run")
    assert counts == {"hub": 2, "proxy": 1, "servers": 3}
    assert (tmp_path / "run" / "jupyterhub.log").read_text() == log.read_text()
    assert "Traceback" in (tmp_path / "run" / "servers.log").read_text()
    assert "429" in (tmp_path / "run" / "hub.log").read_text()
