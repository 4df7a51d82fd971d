#!/bin/bash
# The Littlest JupyterHub (https://tljh.jupyter.org) set up for a class on the attnlib
# course. Run as root on the TLJH machine, after the installer, from a clone of this
# repository:
#
#   sudo deploy/tljh/setup.sh class.txt teacher@example.edu hub.example.edu \
#       https://git.example.edu/teaching/attnlib.git
#
# class.txt: the students' login names, one per line. TLJH makes each a machine
# account jupyter-NAME at the first login, with its home in /home/jupyter-NAME.
# Run it once; a student who joins later:
#   sudo tljh-config add-item users.allowed NAME && sudo tljh-config reload
#
# The Chinese edition: ATTNLIB_EDITION=zh makes the Chinese start page
# (notebooks/zh/00_start_here.ipynb) every student's landing page, as
# `make lab EDITION=zh` does on a laptop:
#   sudo ATTNLIB_EDITION=zh deploy/tljh/setup.sh class.txt ...
#
# Where it writes (the defaults are TLJH's; the tests point them into a scratch folder):
#   TLJH_INSTALL_PREFIX   TLJH's installation, default /opt/tljh (TLJH's own variable)
#   ATTNLIB_CLASS_CONFIG  the students' server settings, default /etc/jupyter/attnlib-class
set -euo pipefail
usage="usage: [ATTNLIB_EDITION=zh] setup.sh CLASS_LIST EMAIL HOSTNAME COURSE_GIT_URL [BRANCH]
  EMAIL: for Let's Encrypt; HOSTNAME: the hub's DNS name;
  COURSE_GIT_URL: this repository, as the hub machine reaches it;
  ATTNLIB_EDITION: the landing page's edition (en, the default, or zh)"
if [ $# -lt 4 ] || [ $# -gt 5 ]; then
    echo "setup.sh: expected 4 or 5 arguments, got $#" >&2
    echo "$usage" >&2
    exit 2
fi
class_list=$1
email=$2
host=$3
course_repo=$4
course_branch=${5:-main}
prefix=${TLJH_INSTALL_PREFIX:-/opt/tljh}
class_config=${ATTNLIB_CLASS_CONFIG:-/etc/jupyter/attnlib-class}
here=$(cd "$(dirname "$0")" && pwd)
[ -r "$class_list" ] || { echo "setup.sh: cannot read the class list $class_list" >&2; exit 1; }

# the class list read as the hubs read it (deploy/jupyterhub/class_list.py: comments,
# CRLF, duplicates); a line that is not a login name stops here, before any change
names=$(python3 "$here/../jupyterhub/class_list.py" "$class_list")

# The landing page: the start page of the edition asked for, its notebooks folder
# taken from attnlib's own list of editions (attnlib/i18n/languages.py, which the
# Makefile reads too); an edition that is not there stops here, before any change.
edition=${ATTNLIB_EDITION:-en}
if ! record=$(python3 "$here/../../attnlib/i18n/languages.py" "$edition"); then
    echo "setup.sh: ATTNLIB_EDITION=$edition is not an edition of the course" >&2
    exit 2
fi
landing="${record%% *}/00_start_here.ipynb"
[ -f "$here/../../$landing" ] || { echo "setup.sh: this clone has no $landing" >&2; exit 1; }

# Who gets in: first-use passwords (the student's first login sets it), and only
# the names on the class list; nobody can make up a new account.
tljh-config set auth.type firstuseauthenticator.FirstUseAuthenticator
tljh-config set auth.FirstUseAuthenticator.create_users false
while read -r name; do
    tljh-config add-item users.allowed "$name"
done <<<"$names"

# Per student, as measured by `make class` (main README, "Capacity"): 1 GB and one core.
tljh-config set limits.memory 1G
tljh-config set limits.cpu 1

# Stop a server after an hour without activity (its files stay in the home).
tljh-config set services.cull.timeout 3600
tljh-config set services.cull.every 300

# HTTPS from Let's Encrypt: the host name must point at this machine, ports 80 and 443 open.
tljh-config set https.enabled true
tljh-config set https.letsencrypt.email "$email"
tljh-config add-item https.letsencrypt.domains "$host"

# The course link as every student's landing page, the server's root in the home
# folder, and the server settings of deploy/jupyterhub/server-config.
dropins=$prefix/config/jupyterhub_config.d
install -d -m 755 "$dropins" "$class_config"
cp -r "$here/../jupyterhub/server-config/." "$class_config/"
install -m 644 "$here/attnlib_course.py" "$dropins/attnlib_course.py"
python3 -c 'import json, sys; print(json.dumps(dict(zip(("repo", "branch", "server_config", "landing"), sys.argv[1:]))))' \
    "$course_repo" "$course_branch" "$class_config" "$landing" >"$dropins/attnlib_course.json"

tljh-config reload proxy
tljh-config reload
