"""A spawner that hands a student's server to the hub as soon as the server answers.

After a spawner has started a server, JupyterHub asks the server's URL whether it
answers, waiting between tries with exponential backoff and full jitter: up to
0.2, 0.4, ... then 5 s, each wait a random share of that. A server that comes up
20 s into a class's login is found, on average, a second or two later; in the
simulated class of README "Capacity" (20 servers starting together) the hub's
"took N seconds to start" came about 2 s after the servers' own "is running at"
(the sorted times of the two log lines paired: median 2.1 s, most 1.2-3.5 s).
`quick_ready(SpawnerClass)` asks every 0.1 s instead (a refused connection costs
next to nothing), and returns from ``start()`` once the server answers, so the
hub's first try succeeds. Nothing else of the spawner changes.
"""

from __future__ import annotations

import asyncio
import time
from functools import cache

from tornado.httpclient import AsyncHTTPClient, HTTPClientError

__all__ = ["INTERVAL_S", "answering", "quick_ready"]  # and QuickReadySystemdSpawner, on demand

INTERVAL_S = 0.1


async def answering(url: str, timeout_s: float, interval_s: float = INTERVAL_S) -> bool:
    """Whether `url` answers (any HTTP status under 500) within `timeout_s` seconds,
    asking every `interval_s`."""
    client = AsyncHTTPClient()
    deadline = time.monotonic() + timeout_s
    while True:
        try:
            response = await client.fetch(
                url, raise_error=False, follow_redirects=False, request_timeout=5
            )
        except (OSError, HTTPClientError):  # refused, reset: not listening yet
            pass
        else:
            if response.code < 500:  # 599: tornado's own "no answer"
                return True
        if time.monotonic() + interval_s > deadline:
            return False
        await asyncio.sleep(interval_s)


def quick_ready(spawner_class: type) -> type:
    """`spawner_class` whose ``start()`` returns when the server answers, or when the
    spawner's ``http_timeout`` has passed (the hub then waits as usual, and fails the
    spawn as usual if it still does not answer)."""

    class QuickReady(spawner_class):
        async def start(self):
            where = await super().start()
            if isinstance(where, str):  # a URL (KubeSpawner and others)
                root = where.rstrip("/")
            else:  # (ip, port)
                ip, port = where
                root = f"http://{ip or '127.0.0.1'}:{port}"
            await answering(root + self.server.base_url, self.http_timeout)
            return where

    QuickReady.__name__ = QuickReady.__qualname__ = f"QuickReady{spawner_class.__name__}"
    return QuickReady


@cache
def _systemd():
    from systemdspawner import SystemdSpawner  # pip install jupyterhub-systemdspawner

    return quick_ready(SystemdSpawner)


def __getattr__(name: str):
    # "quick_ready.QuickReadySystemdSpawner" (jupyterhub_config.py): made when the hub
    # asks for it, so that this module imports where systemdspawner is not installed
    if name == "QuickReadySystemdSpawner":
        return _systemd()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
