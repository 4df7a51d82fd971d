"""JupyterHub for a class on one machine: one server per student, the course in each home.

    jupyterhub -f deploy/jupyterhub/jupyterhub_config.py

Students log in with their machine account (PAM). At every login they land on an
nbgitpuller link (see README.md in this folder) that clones the course into
~/attnlib-course the first time and updates it afterwards, keeping the student's
own edits. Each server is a systemd unit with the memory and CPU limits measured by
the simulated class (`make class`, figures in the README's "For a class").

Set before starting (environment variables, so that this file needs no edit):
  ATTNLIB_COURSE_REPO   git URL of this repository, as students' servers can reach it
  ATTNLIB_COURSE_BRANCH branch to pull (default main)
  ATTNLIB_CLASS_LIST    file with one username per line: the students allowed in
  ATTNLIB_TEACHERS      comma-separated admin usernames (default: none)

The simulated class (tests/classhub) loads this file and then replaces the login
and the spawner with test-only ones; everything else here is what it measured.
"""

import os
import sys
from pathlib import Path
from urllib.parse import urlencode

c = get_config()  # noqa: F821 (JupyterHub's config loader provides it)

# ----------------------------------------------------------------- measured limits
# From the simulated class (make class, README "For a class"): a student's server
# plus kernel holds 0.27-0.3 GB (RSS; 0.21-0.23 GB PSS) after notebook 05 and its
# explorer; the limit leaves room for a second notebook's kernel. CPU comes in
# bursts (about 4 s to start and run notebook 05, 60-90 ms per slider move): one
# core per student at most.
MEM_LIMIT = "1G"
CPU_LIMIT = 1.0
IDLE_TIMEOUT_S = 3600  # stop a server after an hour without activity

# ----------------------------------------------------------------- the course link
COURSE_REPO = os.environ.get("ATTNLIB_COURSE_REPO", "https://git.example.edu/teaching/attnlib")
COURSE_BRANCH = os.environ.get("ATTNLIB_COURSE_BRANCH", "main")
COURSE_DIR = "attnlib-course"  # where the course lands in each home
FIRST_NOTEBOOK = f"{COURSE_DIR}/notebooks/00_start_here.ipynb"


def course_link(notebook: str = FIRST_NOTEBOOK) -> str:
    """The nbgitpuller path (relative to a student's server) that pulls, then opens."""
    query = urlencode(
        {
            "repo": COURSE_REPO,
            "branch": COURSE_BRANCH,
            "targetpath": COURSE_DIR,
            "urlpath": f"lab/tree/{notebook}",
        }
    )
    return f"/git-pull?{query}"


# ----------------------------------------------------------------- the hub
c.JupyterHub.bind_url = os.environ.get("ATTNLIB_HUB_URL", "http://:8000")
# Put TLS in front (a reverse proxy, or c.JupyterHub.ssl_cert / ssl_key) before students log in.

c.JupyterHub.authenticator_class = "pam"
class_list = os.environ.get("ATTNLIB_CLASS_LIST")
if class_list:
    c.Authenticator.allowed_users = {
        line.strip() for line in Path(class_list).read_text().splitlines() if line.strip()
    }
c.Authenticator.admin_users = {
    name.strip() for name in os.environ.get("ATTNLIB_TEACHERS", "").split(",") if name.strip()
}

# ----------------------------------------------------------------- each student's server
c.JupyterHub.spawner_class = (
    "systemdspawner.SystemdSpawner"  # pip install jupyterhub-systemdspawner
)
c.SystemdSpawner.mem_limit = MEM_LIMIT
c.SystemdSpawner.cpu_limit = CPU_LIMIT
c.SystemdSpawner.isolate_tmp = True
c.SystemdSpawner.isolate_devices = True
c.SystemdSpawner.disable_user_sudo = True

# The course's environment (this repository installed with `make lab`, or conda).
user_env = Path(os.environ.get("ATTNLIB_USER_ENV", sys.prefix))
c.Spawner.cmd = [str(user_env / "bin" / "jupyterhub-singleuser")]
# server-config/: no Voila or language-server extension in students' servers (the
# teacher's `make present` is not theirs; no language server is installed), and a
# kernel idle for 20 minutes is stopped (a student who opens every notebook would
# otherwise keep one kernel each), and JupyterLab neither fetches news nor checks
# for updates (no pop-up in class, no calls out from every student's server).
c.Spawner.environment = {"JUPYTER_CONFIG_PATH": str(Path(__file__).parent / "server-config")}
c.Spawner.default_url = course_link()
# 20 servers starting at the same moment share the CPU: give each two minutes
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 90  # from process start to answering, same reason
# 20 students at once were measured; more may log in together, spawn them in batches
c.JupyterHub.concurrent_spawn_limit = 20

# ----------------------------------------------------------------- the idle culler
c.JupyterHub.load_roles = [
    {
        "name": "idle-culler",
        "scopes": ["list:users", "read:users:activity", "read:servers", "delete:servers"],
        "services": ["idle-culler"],
    }
]
c.JupyterHub.services = [
    {
        "name": "idle-culler",
        "command": [sys.executable, "-m", "jupyterhub_idle_culler", f"--timeout={IDLE_TIMEOUT_S}"],
    }
]
