"""The attnlib course on The Littlest JupyterHub: TLJH loads this file from
/opt/tljh/config/jupyterhub_config.d/ after its own settings (setup.sh puts it
there, with attnlib_course.json beside it holding the course's git URL and branch,
and the landing page's notebook).

What it adds to TLJH: every student's server starts in their home and opens the
nbgitpuller link that brings the course into ~/attnlib-course (the same link as the
plain one-machine hub's, deploy/jupyterhub/jupyterhub_config.py), with the server
settings of deploy/jupyterhub/server-config, and as many servers may start at the
same moment as the class list has names.
"""

import json
from pathlib import Path
from urllib.parse import urlencode

c = get_config()  # noqa: F821 (JupyterHub's config loader provides it)

_course = json.loads(Path(__file__).with_suffix(".json").read_text())
COURSE_DIR = "attnlib-course"  # relative to the server root, the student's home

c.Spawner.notebook_dir = "~"
c.Spawner.default_url = "/git-pull?" + urlencode(
    {
        "repo": _course["repo"],
        "branch": _course.get("branch", "main"),
        "targetpath": COURSE_DIR,
        # the start page of the edition setup.sh was given (ATTNLIB_EDITION=zh: the
        # Chinese one); the English one for a .json from before the choice
        "urlpath": f"lab/tree/{COURSE_DIR}/"
        + _course.get("landing", "notebooks/00_start_here.ipynb"),
    }
)
# the folder setup.sh copied deploy/jupyterhub/server-config/ into
c.Spawner.environment = {
    "JUPYTER_CONFIG_PATH": _course.get("server_config", "/etc/jupyter/attnlib-class"),
    # attnlib.require() names what the teacher does when the course needs a newer
    # attnlib: on TLJH, the release's tag in deploy/tljh/requirements.txt, pip again
    "ATTNLIB_HUB_ROUTE": "tljh",
}
# Past this many servers starting at once JupyterHub answers HTTP 429 and the
# student has to retry: let the whole class (and its teachers) in together.
_users = set(c.Authenticator.get("allowed_users", ())) | set(c.Authenticator.get("admin_users", ()))
c.JupyterHub.concurrent_spawn_limit = max(20, len(_users))
