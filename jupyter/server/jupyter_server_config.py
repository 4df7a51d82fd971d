# `make lab` (JUPYTER_CONFIG_PATH): the Jupyter Server settings that the
# students' servers of a class get, for a learner's own server too. What they do and why
# is said in that file: the kernel websocket sends each message at once (with Nagle's
# algorithm a move's picture waited behind the slider's small echo), kernels on Unix
# sockets, no Node.js run at start. Its folder's JSON settings (culling idle kernels after
# 20 minutes, extensions off) are a class's only and are not read here.
from pathlib import Path

load_subconfig(  # noqa: F821 (traitlets gives config files load_subconfig)
    "jupyter_server_config.py",
    path=str(Path(__file__).resolve().parents[2] / "deploy" / "jupyterhub" / "server-config"),
)
