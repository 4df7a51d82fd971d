# Students' servers (found through JUPYTER_CONFIG_PATH, beside jupyter_server_config.d/).
#
# The kernel websocket without Nagle's algorithm. Tornado leaves it on for websockets and
# Jupyter Server does not turn it off, so a small message written while an earlier one is
# not yet acknowledged waits for that acknowledgement, which the browser may delay by up
# to 40 ms. A slider move sends several messages in a row (the slider's echo, the new
# picture, the readout under it): measured with benchmarks/bench_move.py, the readout
# arrived about 30 ms after the picture with Nagle, 3 ms after without.

import os

from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection


class NoDelayKernelWebsocket(ZMQChannelsWebsocketConnection):
    """The usual kernel websocket, each message sent as soon as it is written."""

    def connect(self):
        self.websocket_handler.set_nodelay(True)
        return super().connect()


c.ServerApp.kernel_websocket_connection_class = NoDelayKernelWebsocket  # noqa: F821


# JupyterLab runs Node.js at every start when `node` is on the PATH, to read yarn's
# settings for the npm registry it would build extensions from: 0.3 s of CPU per
# server, 6 s for a class of twenty logging in at once. A student's server builds
# nothing, and a system with Node.js installed (the hub's proxy needs it) has `node`
# in /usr/bin, which no PATH can leave out. So the registry keeps its default and
# Node.js is not run. tests/test_server_config.py fails if JupyterLab renames this.
def _no_yarn_config(logger):
    return {"yarn config": {}, "npm config": {}}


try:
    import jupyterlab.commands as _lab_commands
except ImportError:  # a server without JupyterLab runs no node either
    pass
else:
    _lab_commands._yarn_config = _no_yarn_config


# Kernels reach their server over Unix sockets, not TCP ports. A server gives a new kernel
# five ports by binding port 0 and letting go of them; twenty servers starting kernels at
# once can hand out the same port twice (jupyter/jupyter_client's known race). The kernel
# that loses cannot bind, never exits (ipykernel waits in zmq's Context.term), and the
# student's notebook waits for it until someone restarts the kernel by hand: one student
# of twenty in a `make class` run on 2026-12-01. Unix sockets need no ports, and they sit
# in the student's own runtime folder (mode 700), where other users cannot reach them.
# A socket's path holds at most 107 bytes: /home/<name>/.local/share/jupyter/runtime/
# leaves room for names of up to 22 characters. A runtime folder deeper than that (a
# longer name, JUPYTER_RUNTIME_DIR set deep) keeps TCP, and the race with it.
def _sockets_fit() -> bool:
    from jupyter_core.paths import jupyter_runtime_dir

    longest = "kernel-" + "0" * 36 + "-ipc-5"  # kernel-<id>-ipc-<1..5>, beside kernel-<id>.json
    return len(os.path.join(jupyter_runtime_dir(), longest)) <= 107


if os.name != "nt" and _sockets_fit():  # zmq has no ipc on Windows
    c.KernelManager.transport = "ipc"  # noqa: F821


# The kernels' activity, as Jupyter Server records it (for the culler, and the kernel
# list's last_activity and execution_state), for less work. Its watcher reads every
# IOPub message a kernel sends: it checks the signature and parses the header, parent
# header and metadata with their dates (about 35 µs a message alone), and a slider move
# sends five to seven. What it records needs two fields of the headers (the message's
# type and its parent's) and, for a "status" message, the state: parsed here with
# json.loads alone (about 5 µs). The rules are Jupyter Server 2's, and
# tests/test_server_config.py feeds the same messages to both watchers. Measured with
# benchmarks/bench_move.py, alternating: the server's CPU per slider move 4.5 and 4.6 ms
# with Jupyter Server's watcher, 3.4 and 3.0 ms with this one.
def _lean_activity(kernel_manager_class):
    import json
    from datetime import datetime, timezone

    from jupyter_client.session import DELIM

    def utcnow():
        return datetime.now(timezone.utc)

    class LeanActivityKernelManager(kernel_manager_class):
        def start_watching_activity(self, kernel_id):
            kernel = self._kernels[kernel_id]
            kernel.reason = ""
            kernel.last_activity = utcnow()
            kernel._activity_stream = kernel.connect_iopub()
            counts = self.track_message_type  # False for kernel_info, status, stream...

            def record_activity(frames):
                # frames: identities, DELIM, signature, header, parent header, metadata,
                # content, buffers
                try:
                    at = frames.index(DELIM) + 2
                    kind = json.loads(frames[at]).get("msg_type")
                    parent = json.loads(frames[at + 1]).get("msg_type")
                except (ValueError, IndexError, AttributeError):
                    self.log.warning("kernel %s sent an IOPub message without headers", kernel_id)
                    return
                if counts(kind) or counts(parent) or kernel.execution_state == "busy":
                    self.last_kernel_activity = kernel.last_activity = utcnow()
                if kind == "status":
                    state = json.loads(frames[at + 3]).get("execution_state")
                    if counts(parent):
                        kernel.execution_state = state
                    elif kernel.execution_state == "starting" and state != "starting":
                        kernel.execution_state = "idle"  # as Jupyter Server settles a new kernel

            kernel._activity_stream.on_recv(record_activity)

    return LeanActivityKernelManager


# (Jupyter Server's own kernel manager when no gateway is configured, as for students)
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager  # noqa: E402

c.ServerApp.kernel_manager_class = _lean_activity(AsyncMappingKernelManager)  # noqa: F821
