# Students' servers (found through JUPYTER_CONFIG_PATH, beside jupyter_server_config.d/).
#
# The kernel websocket without Nagle's algorithm. Tornado leaves it on for websockets and
# Jupyter Server does not turn it off, so a small message written while an earlier one is
# not yet acknowledged waits for that acknowledgement, which the browser may delay by up
# to 40 ms. A slider move sends several messages in a row (the slider's echo, the new
# picture, the readout under it): measured with benchmarks/bench_move.py, the readout
# arrived about 30 ms after the picture with Nagle, 3 ms after without.

from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection


class NoDelayKernelWebsocket(ZMQChannelsWebsocketConnection):
    """The usual kernel websocket, each message sent as soon as it is written."""

    def connect(self):
        self.websocket_handler.set_nodelay(True)
        return super().connect()


c.ServerApp.kernel_websocket_connection_class = NoDelayKernelWebsocket  # noqa: F821
