"""JupyterHub for a class on one machine: one server per student, the course in each home.

    jupyterhub -f /opt/attnlib/deploy/jupyterhub/jupyterhub_config.py

(or the systemd unit attnlib-hub.service beside this file, which sets all of the
below). Students log in with their machine account (PAM); create them with
create-students.sh. At every login they land on an nbgitpuller link (README.md in
this folder) that clones the course into ~/attnlib-course the first time and
updates it afterwards, keeping the student's own edits. Each server is a systemd
unit with the memory and CPU limits measured by the simulated class (`make class`,
figures in the main README's "For a class").

The hub listens on 127.0.0.1:8000 only, over plain HTTP: a TLS reverse proxy on
the same machine (Caddyfile beside this file) is the only way in from the network.
To listen elsewhere, give ATTNLIB_HUB_URL; an address other than the loopback is
refused over plain HTTP unless ATTNLIB_SSL_CERT and ATTNLIB_SSL_KEY give the hub
its own certificate.

Set before starting (environment variables, so that this file needs no edit):
  ATTNLIB_CLASS_LIST    file with one username per line: the students allowed in (required)
  ATTNLIB_TEACHERS      comma-separated admin usernames (default: none)
  ATTNLIB_COURSE_REPO   git URL of this repository, as students' servers can reach it
                        (required)
  ATTNLIB_COURSE_BRANCH branch to pull (default main)
  ATTNLIB_HUB_STATE     folder for the cookie secret, the database and the pid files
                        (default /var/lib/attnlib-hub; must exist and lie outside
                        this repository)
  ATTNLIB_USER_ENV      the course's environment for students' servers (default:
                        the one running the hub)

The simulated class (tests/classhub) loads this file and then replaces the login
and the spawner with test-only ones; everything else here is what it measured.
"""

import os
import sys
from pathlib import Path
from urllib.parse import urlencode, urlsplit

c = get_config()  # noqa: F821 (JupyterHub's config loader provides it)

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
# class_list.py and quick_ready.py live beside this file
sys.path.insert(0, str(HERE))
from class_list import check_name, read_class_list  # noqa: E402
from node_check import node_problem  # noqa: E402

# ----------------------------------------------------------------- measured limits
# From the simulated class (make class, README "For a class"): a student's server
# plus kernel holds 0.27-0.3 GB (RSS; 0.21-0.23 GB PSS) after notebook 05 and its
# explorer; the limit leaves room for a second notebook's kernel. CPU comes in
# bursts, most of it at a server's start (a slider move is drawn in the browser and
# costs the server and kernel about 4 ms, benchmarks/bench_move.py): one core per
# student at most. On 2 cores, 40 students logging in over a minute were ready within
# 30 s; 60 and 80 moved their explorers with no one dropped but the last logins took up
# to 55 and 82 s (make class-curve, 2026-12-04; README "Capacity").
MEM_LIMIT = "1G"
CPU_LIMIT = 1.0
IDLE_TIMEOUT_S = 3600  # stop a server after an hour without activity

# ----------------------------------------------------------------- the course link
COURSE_REPO = os.environ.get("ATTNLIB_COURSE_REPO", "")
if not COURSE_REPO or "example.edu" in COURSE_REPO:
    # (a default here once sent every student to git.example.edu: a landing page that
    # fails in each student's browser, far from the setting that was forgotten)
    raise ValueError(
        f"ATTNLIB_COURSE_REPO is {COURSE_REPO!r}: set it to this repository's git URL as "
        "the students' servers reach it (in /etc/attnlib-hub/env), e.g. "
        "https://git.your-university.edu/teaching/attnlib.git"
    )
COURSE_BRANCH = os.environ.get("ATTNLIB_COURSE_BRANCH", "main")
COURSE_DIR = "attnlib-course"  # where the course lands, relative to the server root (home)
# The landing page: the start page of the edition ATTNLIB_EDITION names (en by default;
# zh: notebooks/zh/00_start_here.ipynb), its folder read from attnlib's list of editions
# (attnlib/i18n/languages.py, as the Makefile and TLJH's setup.sh read it). An edition
# the course has not stops the hub here, before any student is sent to a missing page.
sys.path.insert(0, str(REPO / "attnlib" / "i18n"))  # the records only: no attnlib import
from languages import edition  # noqa: E402

EDITION = os.environ.get("ATTNLIB_EDITION", "en")
try:
    _record = edition(EDITION)
except ValueError as error:
    raise ValueError(
        f"ATTNLIB_EDITION={EDITION} is not an edition of the course: {error}"
    ) from None
FIRST_NOTEBOOK = f"{COURSE_DIR}/{_record.notebooks}/00_start_here.ipynb"


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


# ----------------------------------------------------------------- the hub's state
# The cookie secret signs every login: it must never be committed. It, the user
# database and the pid files live in a folder of their own, outside the course's
# repository (.gitignore lists them anyway, in case JupyterHub is run without this file).
STATE = Path(os.environ.get("ATTNLIB_HUB_STATE", "/var/lib/attnlib-hub")).resolve()
if STATE == REPO or REPO in STATE.parents:
    raise ValueError(
        f"ATTNLIB_HUB_STATE={STATE} is inside the repository {REPO}: the cookie secret "
        "and the user database would be one `git add` away from being published. "
        "Use a folder outside it, e.g. /var/lib/attnlib-hub"
    )
if not STATE.is_dir():
    raise FileNotFoundError(
        f"the hub's state folder {STATE} does not exist: create it with "
        f"`sudo install -d -m 700 {STATE}` (the systemd unit's StateDirectory= does this), "
        "or point ATTNLIB_HUB_STATE at another folder outside the repository"
    )
c.JupyterHub.cookie_secret_file = str(STATE / "jupyterhub_cookie_secret")
c.JupyterHub.db_url = f"sqlite:///{STATE / 'jupyterhub.sqlite'}"
c.JupyterHub.pid_file = str(STATE / "jupyterhub.pid")
c.ConfigurableHTTPProxy.pid_file = str(STATE / "jupyterhub-proxy.pid")
# The proxy from `npm ci --prefix deploy/jupyterhub`, so that Node.js's tools need not
# be on the hub's PATH (and from there on students').
PROXY = HERE / "node_modules" / ".bin" / "configurable-http-proxy"
if PROXY.exists():
    c.ConfigurableHTTPProxy.command = [str(PROXY)]
    _node = node_problem(HERE / "node_modules" / "configurable-http-proxy")
    if _node:
        raise RuntimeError(_node)

# Restarting the hub (a late student added to the class list, a changed setting)
# leaves the students' servers running: each is a systemd unit of its own, and the
# hub finds them again at its start. JupyterHub's default would stop them all.
c.JupyterHub.cleanup_servers = False

# ----------------------------------------------------------------- where it listens
c.JupyterHub.bind_url = os.environ.get("ATTNLIB_HUB_URL", "http://127.0.0.1:8000")
_bind = urlsplit(c.JupyterHub.bind_url)
ssl_cert, ssl_key = os.environ.get("ATTNLIB_SSL_CERT"), os.environ.get("ATTNLIB_SSL_KEY")
if ssl_cert and ssl_key:
    # The hub's own TLS, without a reverse proxy in front (then bind to :443 or :8443).
    c.JupyterHub.ssl_cert = ssl_cert
    c.JupyterHub.ssl_key = ssl_key
elif _bind.hostname not in {"127.0.0.1", "localhost", "::1"}:
    raise ValueError(
        f"ATTNLIB_HUB_URL={c.JupyterHub.bind_url} listens beyond this machine over plain "
        "HTTP, where passwords would cross the network in clear: keep the default "
        "http://127.0.0.1:8000 behind a TLS reverse proxy (Caddyfile in "
        f"{HERE}), or set ATTNLIB_SSL_CERT and ATTNLIB_SSL_KEY"
    )

# ----------------------------------------------------------------- who gets in
c.JupyterHub.authenticator_class = "pam"
class_list = os.environ.get("ATTNLIB_CLASS_LIST")
if not class_list:
    raise ValueError(
        "ATTNLIB_CLASS_LIST is not set: give a file with the students' usernames, one per "
        "line; without it every account on this machine could log in"
    )
# The same reading as create-students.sh's (class_list.py: comments, CRLF, duplicates)
c.Authenticator.allowed_users = set(read_class_list(class_list))
c.Authenticator.admin_users = {
    check_name(name.strip(), "ATTNLIB_TEACHERS")
    for name in os.environ.get("ATTNLIB_TEACHERS", "").split(",")
    if name.strip()
}

# ----------------------------------------------------------------- each student's server
# SystemdSpawner (pip install jupyterhub-systemdspawner), handing each server to the
# hub as soon as it answers rather than when the hub's backoff next asks (quick_ready.py)
c.JupyterHub.spawner_class = "quick_ready.QuickReadySystemdSpawner"
c.SystemdSpawner.mem_limit = MEM_LIMIT
c.SystemdSpawner.cpu_limit = CPU_LIMIT
c.SystemdSpawner.isolate_tmp = True
c.SystemdSpawner.isolate_devices = True
c.SystemdSpawner.disable_user_sudo = True

# The course's environment (this repository installed with `make lab`, or conda).
user_env = Path(os.environ.get("ATTNLIB_USER_ENV", sys.prefix))
c.Spawner.cmd = [str(user_env / "bin" / "jupyterhub-singleuser")]
# The server's root is the student's home: the course lands in ~/attnlib-course,
# and everything a student saves stays in their home.
c.Spawner.notebook_dir = "~"
c.Spawner.environment = {
    # A student's shell, terminal and kernel find the course's Python, pip and
    # jupyter first, and no Node.js: JupyterLab runs `node` at every start when it
    # is on the PATH (0.4 s of CPU) and students' servers build nothing with it.
    "PATH": os.pathsep.join([str(user_env / "bin"), "/usr/local/bin", "/usr/bin", "/bin"]),
    # server-config/: no Voila or language-server extension in students' servers
    # (the teacher's `make present` is not theirs; no language server is
    # installed), and a kernel idle for 20 minutes is stopped (a student who opens
    # every notebook would otherwise keep one kernel each), and JupyterLab neither
    # fetches news nor checks for updates (no pop-up in class, no calls out from
    # every student's server).
    "JUPYTER_CONFIG_PATH": str(HERE / "server-config"),
    # attnlib.require() names what the teacher does when the course needs a newer
    # attnlib: on this route, git pull in the hub's copy and pip install again
    "ATTNLIB_HUB_ROUTE": "one-machine",
}
c.Spawner.default_url = course_link()
# 20 servers starting at the same moment share the CPU: give each two minutes
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 90  # from process start to answering, same reason
# Servers starting at the same moment: the class list's size, so that a class
# logging in together all get through. Past this limit JupyterHub answers HTTP 429
# ("Too many users trying to log in right now") and the student has to retry; on
# 2 cores, 20 starting together took 20-30 s (README, "Capacity").
c.JupyterHub.concurrent_spawn_limit = max(1, len(c.Authenticator.allowed_users))

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
