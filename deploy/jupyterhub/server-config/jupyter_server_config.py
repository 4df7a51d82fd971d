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
