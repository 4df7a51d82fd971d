"""deploy/jupyterhub/quick_ready.py: a spawner hands its server to the hub once it answers."""

from __future__ import annotations

import asyncio
import socket
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import tornado.web as tornado_web
from tornado.httpserver import HTTPServer

DEPLOY = Path(__file__).resolve().parents[1] / "deploy" / "jupyterhub"


def run(main):
    """asyncio.run(main()) in a thread of its own: this process may already run an event
    loop in its main thread (another test's, in the same pytest worker)."""
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(lambda: asyncio.run(main())).result()


sys.path.insert(0, str(DEPLOY))
import quick_ready  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Answer(tornado_web.RequestHandler):
    def get(self):
        self.redirect("/user/ada/lab")  # a 302, as a server's root answers


async def serve_after(port: int, delay_s: float) -> HTTPServer:
    await asyncio.sleep(delay_s)
    server = HTTPServer(tornado_web.Application([(r"/.*", Answer)]))
    server.listen(port, "127.0.0.1")
    return server


def test_answering_waits_for_the_server_and_no_longer():
    async def main():
        port = free_port()
        url = f"http://127.0.0.1:{port}/user/ada/"
        later = asyncio.ensure_future(serve_after(port, 0.5))
        t0 = time.monotonic()
        found = await quick_ready.answering(url, timeout_s=10)
        waited = time.monotonic() - t0
        (await later).stop()
        return found, waited

    found, waited = run(main)
    assert found
    assert 0.5 <= waited < 0.5 + 5 * quick_ready.INTERVAL_S  # found within a few tries


def test_answering_gives_up_at_its_timeout():
    async def main():
        t0 = time.monotonic()
        found = await quick_ready.answering(f"http://127.0.0.1:{free_port()}/", timeout_s=0.4)
        return found, time.monotonic() - t0

    found, waited = run(main)
    assert not found and 0.3 < waited < 2


class FakeServer:
    base_url = "/user/ada/"


class FakeSpawner:
    """What quick_ready uses of a spawner: start() -> (ip, port), http_timeout, server."""

    http_timeout = 10
    server = FakeServer()

    def __init__(self, port: int):
        self.port = port
        self.started = None

    async def start(self):
        self.started = asyncio.ensure_future(serve_after(self.port, 0.5))  # the process
        return ("", self.port)


def test_a_quick_ready_spawner_returns_when_its_server_answers():
    spawner_class = quick_ready.quick_ready(FakeSpawner)
    assert issubclass(spawner_class, FakeSpawner)
    assert spawner_class.__name__ == "QuickReadyFakeSpawner"

    async def main():
        spawner = spawner_class(free_port())
        t0 = time.monotonic()
        where = await spawner.start()
        waited = time.monotonic() - t0
        server = await spawner.started
        # what the hub gets, and that the server answers by then
        answered = await quick_ready.answering(
            f"http://127.0.0.1:{spawner.port}/user/ada/", timeout_s=0
        )
        server.stop()
        return where, waited, answered, spawner.port

    where, waited, answered, port = run(main)
    assert where == ("", port)  # unchanged, for the hub
    assert answered and 0.5 <= waited < 0.5 + 5 * quick_ready.INTERVAL_S


def test_the_one_machine_hub_uses_it(tmp_path, monkeypatch):
    import types

    from test_deploy import load_hub_config

    c = load_hub_config(tmp_path)
    assert c.JupyterHub.spawner_class == "quick_ready.QuickReadySystemdSpawner"
    # the name the hub imports: SystemdSpawner made quick (a stand-in for the package,
    # which only the hub's machine needs)
    stand_in = types.ModuleType("systemdspawner")
    stand_in.SystemdSpawner = type("SystemdSpawner", (FakeSpawner,), {})
    monkeypatch.setitem(sys.modules, "systemdspawner", stand_in)
    quick_ready._systemd.cache_clear()
    try:
        spawner_class = quick_ready.QuickReadySystemdSpawner
        assert issubclass(spawner_class, stand_in.SystemdSpawner)
        assert spawner_class.__name__ == "QuickReadySystemdSpawner"
        assert spawner_class.start is not stand_in.SystemdSpawner.start
    finally:
        quick_ready._systemd.cache_clear()
