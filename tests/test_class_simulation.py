"""The simulated class's own machinery (tests/classhub/simulation.py), without a hub:
a kernel connection that drops comes back as JupyterLab's does and is counted, and a
run's log is kept split by where each line came from."""

import json

import pytest

websocket = pytest.importorskip("websocket", reason="pip install websocket-client")
pytest.importorskip("psutil", reason="pip install psutil (the test extra)")
from classhub import simulation as sim  # noqa: E402 (tests/ is on sys.path under pytest)


def frame(kind: str, content: dict, parent: dict, buffers=()) -> bytes:
    """A message from the server, as a v1-protocol frame (what JupyterLab receives)."""
    parts = [json.dumps(x).encode() for x in ({"msg_type": kind}, parent, {}, content)]
    return sim.serialize_msg_to_ws_v1([*parts, *buffers], "iopub")


class FakeSocket:
    """A kernel's websocket (protocol v1): answers each execute_request with output, a
    reply and idle, each comm_msg with a new picture (unless `picture` is False) and
    idle, or drops (raises) at the moment `drop_on` says."""

    def __init__(self, drop_on: str | None = None, picture: bool = True):
        self.drop_on = drop_on
        self.picture = picture
        self.queue: list[bytes] = []
        self.sent: list[dict] = []

    def getsubprotocol(self):
        return sim.V1

    def send_binary(self, data: bytes) -> None:
        if self.drop_on == "send":
            raise websocket.WebSocketConnectionClosedException("socket is already closed.")
        _channel, parts = sim.deserialize_msg_from_ws_v1(data)
        header, _, _, content = (json.loads(p) for p in parts[:4])
        self.sent.append({"header": header, "content": content})
        parent = {"msg_id": header["msg_id"]}
        if header["msg_type"] == "comm_msg":
            picture = {"method": "update", "state": {}, "buffer_paths": [["value"]]}
            replies = [("comm_msg", {"comm_id": "image-1", "data": picture})] * self.picture
        else:
            replies = [
                ("stream", {"name": "stdout", "text": "42\n"}),
                ("execute_reply", {"status": "ok"}),
            ]
        for kind, body in [*replies, ("status", {"execution_state": "idle"})]:
            self.queue.append(frame(kind, body, parent, [b"png"] if kind == "comm_msg" else ()))

    def recv(self):
        if self.drop_on == "close" and not getattr(self, "closed", False):
            self.closed = True
            return ""  # websocket-client's recv() on the server's close frame
        if self.drop_on == "recv":
            # the request reached the kernel; its replies wait in the server's buffer
            raise websocket.WebSocketConnectionClosedException(
                "Connection to remote host was lost."
            )
        return self.queue.pop(0)

    def settimeout(self, seconds) -> None:
        self.timeouts = [*getattr(self, "timeouts", []), seconds]

    def close(self) -> None:
        pass


@pytest.fixture
def sockets(monkeypatch):
    """The connections a Kernel opens, in order; set `plan` to what each one does."""
    opened: list[FakeSocket] = []
    plan: list = []

    def create_connection(url, header, timeout, subprotocols=None):
        assert subprotocols == [sim.V1]  # as JupyterLab asks
        step = plan.pop(0) if plan else None
        if isinstance(step, Exception):
            raise step
        sock = FakeSocket(drop_on=step)
        if opened and opened[-1].drop_on in ("recv", "close"):
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


def test_a_connection_the_server_closed_cleanly_comes_back_and_is_counted(sockets):
    opened, plan = sockets
    plan += ["close", None]
    kernel = sim.Kernel("ws://hub/k", "token")
    assert kernel.execute("print(42)")["stdout"] == "42\n"
    assert len(opened) == 2
    (event,) = kernel.reconnects
    assert "closed by the server" in event["why"]


def test_a_close_waiting_unread_is_seen_before_the_next_request_is_sent(sockets):
    import socket

    opened, plan = sockets
    plan += [None, None]
    kernel = sim.Kernel("ws://hub/k", "token")
    first = opened[0]
    first.drop_on = "close"  # the server closed it while the student was not reading
    first.sock, other = socket.socketpair()
    other.send(b"x")  # the close frame, waiting to be read
    try:
        assert kernel.execute("print(42)")["stdout"] == "42\n"
    finally:
        first.sock.close()
        other.close()
    assert first.sent == [] and len(opened[1].sent) == 1  # sent on the new connection
    assert len(kernel.reconnects) == 1


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


def test_a_slider_move_is_a_widget_message_answered_by_a_new_picture(sockets):
    opened, _ = sockets
    kernel = sim.Kernel("ws://hub/k", "token")
    out = kernel.comm_update("slider-7", {"value": 5}, image_id="image-1")
    (sent,) = opened[0].sent
    assert sent["header"]["msg_type"] == "comm_msg"
    assert sent["content"] == {
        "comm_id": "slider-7",
        "data": {"method": "update", "state": {"value": 5}, "buffer_paths": []},
    }
    assert 0 <= out["image_ms"] <= out["idle_ms"]


def test_a_move_that_draws_no_new_picture_is_an_error(sockets):
    opened, _ = sockets
    kernel = sim.Kernel("ws://hub/k", "token")
    opened[0].picture = False
    with pytest.raises(sim.KernelError, match="without a new picture"):
        kernel.comm_update("slider-7", {"value": 5}, image_id="image-1")


def test_a_move_sent_into_a_dropped_connection_is_answered_after_reconnecting(sockets):
    _, plan = sockets
    plan += ["recv", None]
    kernel = sim.Kernel("ws://hub/k", "token")
    assert kernel.comm_update("slider-7", {"value": 5}, image_id="image-1")["image_ms"] >= 0
    assert len(kernel.reconnects) == 1


def test_a_ping_waiting_before_a_request_does_not_hold_the_student(sockets):
    # select() says the connection is readable, but what waits is a ping: recv()
    # answers it and then waits for a message, as long as the socket's timeout says
    import socket

    opened, _ = sockets
    kernel = sim.Kernel("ws://hub/k", "token")
    first = opened[0]
    first.sock, other = socket.socketpair()
    other.send(b"x")  # readable: the ping's bytes

    def ping_then_wait():
        first.sock.recv(1)  # the ping, answered
        # the socket was made with the connection's timeout; a drain must set a short one
        wait = getattr(first, "timeouts", [sim.Kernel.TIMEOUT_S])[-1]
        if wait > 1:
            raise AssertionError(f"a drain read that may wait {wait} s")
        raise websocket.WebSocketTimeoutException("timed out")

    first.recv, queued = ping_then_wait, first.queue
    try:
        kernel._drain()
    finally:
        first.sock.close()
        other.close()
        del first.sock
    assert first.timeouts[-1] == sim.Kernel.TIMEOUT_S  # reads after it wait as before
    first.recv = lambda: queued.pop(0)
    assert kernel.execute("print(42)")["stdout"] == "42\n"  # and the request goes out
    assert kernel.reconnects == []


# -- waiting keeps the connection answered ------------------------------------------


class PingingSocket:
    """A connection the server pings while the student waits: recv() answers a ping
    (as websocket-client does inside recv) and then times out, as a quiet kernel does."""

    def __init__(self):
        self.pongs = 0
        self.timeouts: list[float] = []

    def getsubprotocol(self):
        return sim.V1

    def settimeout(self, seconds):
        self.timeouts.append(seconds)

    def recv(self):
        self.pongs += 1
        raise websocket.WebSocketTimeoutException("timed out")

    def close(self):
        pass


def test_a_waiting_student_keeps_reading_so_the_servers_pings_are_answered(monkeypatch):
    sock = PingingSocket()
    monkeypatch.setattr(sim.websocket, "create_connection", lambda *args, **kw: sock)
    clock = iter(range(100))
    monkeypatch.setattr(sim.time, "monotonic", lambda: next(clock) * 0.5)
    kernel = sim.Kernel("ws://hub/k", "token")
    kernel.idle(3.0)
    assert sock.pongs >= 3  # read, not slept: a ping in that time would be answered
    assert all(0 < t <= 1.0 for t in sock.timeouts[:-1])
    assert sock.timeouts[-1] == sim.Kernel.TIMEOUT_S  # an execute waits as long as before
    assert kernel.reconnects == []


# -- arrivals ----------------------------------------------------------------------


def test_all_at_once_means_every_student_at_zero():
    assert sim.arrival_offsets(4, 0) == [0.0, 0.0, 0.0, 0.0]
    assert sim.arrival_label(0, "even") == "all at once"


def test_an_even_arrival_puts_student_k_at_k_spread_over_n():
    assert sim.arrival_offsets(4, 60) == [0.0, 15.0, 30.0, 45.0]
    assert sim.arrival_label(60, "even") == "spread over 60 s (even)"


def test_a_random_arrival_is_seeded_and_within_the_spread():
    a = sim.arrival_offsets(40, 60, "random", seed=3)
    assert a == sim.arrival_offsets(40, 60, "random", seed=3)
    assert a != sim.arrival_offsets(40, 60, "random", seed=4)
    assert all(0 <= t <= 60 for t in a) and len(set(a)) == 40
    assert max(a) - min(a) > 30  # spread out, not bunched at one end


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((0, 60), "at least 1"),
        ((2.5, 60), "whole number"),
        ((3, -1), "finite number >= 0"),
        ((3, float("nan")), "finite number >= 0"),
        ((3, 60, "poisson"), "expected one of even, random"),
    ],
)
def test_a_bad_arrival_is_refused_with_what_was_expected(args, message):
    with pytest.raises(ValueError, match=message):
        sim.arrival_offsets(*args)


# -- the class's starting moment ---------------------------------------------------


def test_the_class_starts_when_everyone_still_here_has_arrived():
    import threading

    calls = []
    barrier = sim.ClassBarrier(["ada", "bob", "cy"], action=lambda: calls.append(1), step_s=0.01)
    done = []
    t = threading.Thread(target=lambda: (barrier.wait("ada", timeout=5), done.append("ada")))
    t.start()
    barrier.leave("bob")  # bob failed: no one waits for him
    assert not barrier.released  # cy has not arrived yet
    barrier.wait("cy", timeout=5)
    t.join(5)
    assert done == ["ada"] and calls == [1]


def test_waiting_calls_idle_and_names_who_never_came():
    idled = []
    barrier = sim.ClassBarrier(["ada", "bob"], step_s=0.01)
    with pytest.raises(TimeoutError, match=r"ada waited 0\.05 s for bob"):
        barrier.wait("ada", timeout=0.05, idle=lambda s: (idled.append(s), sim.time.sleep(s)))
    assert idled and all(s == 0.01 for s in idled)


def test_a_student_who_left_cannot_arrive():
    barrier = sim.ClassBarrier(["ada"])
    barrier.leave("ada")
    with pytest.raises(ValueError, match="'ada' is not in this class"):
        barrier.wait("ada", timeout=1)


# -- the curve ---------------------------------------------------------------------


def figures(ready_max=20.0, p95=300.0, failed=None, reconnects=None):
    def s(x):
        return {"n": 3, "median": x / 2, "p95": x, "max": x}

    return {
        "login_to_ready_s": s(ready_max),
        "redraw_ms": s(p95),
        "cpu_ms_per_move": s(40.0),
        "failed": failed or {},
        "kernel_reconnects": reconnects or {},
    }


def test_each_target_missed_is_named():
    assert sim.targets_missed(figures()) == []
    missed = sim.targets_missed(
        figures(31, 501, failed={"student07": "KernelError"}, reconnects={"student02": [{}]})
    )
    assert missed == [
        "login -> ready max 31.0 s > 30 s",
        "redraw p95 501 ms > 500 ms",
        "1 dropped (student07)",
        "1 reconnected",
    ]
    nothing = figures()
    nothing["redraw_ms"] = sim.summary([])
    assert sim.targets_missed(nothing) == ["redraw p95 nan ms > 500 ms"]  # unmeasured


def run(n, arrival, missed=()):
    return {"N": n, "arrival": arrival, "missed": list(missed), "figures": figures()}


SPREAD = "spread over 60 s (even)"


def test_the_largest_n_held_counts_only_up_to_the_first_miss():
    runs = [run(10, SPREAD), run(20, SPREAD), run(40, SPREAD, ["redraw p95 900 ms > 500 ms"])]
    assert sim.largest_held(runs, SPREAD) == 20
    # an at-once run that missed does not change the spread line
    assert sim.largest_held([*runs, run(20, "all at once", ["x"])], SPREAD) == 20
    # held at 40 after a miss at 20 is luck, not capacity
    lucky = [run(10, SPREAD), run(20, SPREAD, ["x"]), run(40, SPREAD)]
    assert sim.largest_held(lucky, SPREAD) == 10
    assert sim.largest_held([run(10, SPREAD, ["x"])], SPREAD) is None
    assert sim.largest_held(list(reversed(runs)), SPREAD) == 20  # order of runs irrelevant


def test_the_curve_prints_one_row_per_run_and_the_line_with_the_answer():
    runs = [run(20, "all at once", ["1 reconnected"]), run(10, SPREAD), run(20, SPREAD)]
    text = sim.curve_table(runs, SPREAD)
    rows = [line for line in text.splitlines() if line[:4].strip().isdigit()]
    assert [r.split()[0] for r in rows] == ["10", "20", "20"]
    assert "all at once" in rows[2] and "missed: 1 reconnected" in rows[2]
    assert text.splitlines()[-1] == (
        f"two cores hold 20 students within the targets (logins {SPREAD}; tried N = 10, 20)"
    )
    none = sim.curve_table([run(10, SPREAD, ["x"])], SPREAD)
    assert none.splitlines()[-1].startswith("two cores hold none of N = 10")


class SilentSocket(PingingSocket):
    """The request was lost: only the server's pings come, every read times out."""

    def send_binary(self, data):
        pass

    def recv(self):
        sim.time.sleep(0.01)
        return super().recv()


def test_a_lost_reply_ends_in_a_clear_error_not_a_read_kept_alive_by_pings(monkeypatch):
    sock = SilentSocket()
    monkeypatch.setattr(sim.websocket, "create_connection", lambda *args, **kw: sock)
    kernel = sim.Kernel("ws://hub/k", "token")
    with pytest.raises(sim.KernelError, match=r"no reply in 0\.2 s"):
        kernel.execute("print(42)", timeout_s=0.2)
    reads = [t for t in sock.timeouts[:-1] if t != sim.Kernel.TIMEOUT_S]  # (restored after
    assert max(reads) <= 0.2 and sock.timeouts[-1] == sim.Kernel.TIMEOUT_S  # the drain)
