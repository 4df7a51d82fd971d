#!/bin/bash
# Machine accounts for the one-machine hub, one per name in the class list, each
# with a random password; prints "name password" lines for the teacher to hand
# out, and writes nothing else. Names that already have an account are left alone.
#   sudo deploy/jupyterhub/create-students.sh /etc/attnlib-hub/class.txt > passwords.txt
# Keep passwords.txt private (it is created readable by you only) and delete it
# once handed out; a student can change theirs in a JupyterLab terminal (`passwd`).
set -euo pipefail
class_list=${1:?usage: create-students.sh CLASS_LIST (one username per line)}
[ -r "$class_list" ] || { echo "create-students.sh: cannot read $class_list" >&2; exit 1; }
here=$(cd "$(dirname "$0")" && pwd)
# the class list read as the hub reads it (class_list.py: comments, CRLF, duplicates);
# a line that is not a login name stops here, before any account is made
names=$(python3 "$here/class_list.py" "$class_list")
umask 077
while read -r name; do
    if id "$name" >/dev/null 2>&1; then
        echo "$name: account exists, left as it is" >&2
        continue
    fi
    # a home of their own, readable by them only: the course lands in ~/attnlib-course
    useradd --create-home --shell /bin/bash "$name"
    chmod 700 "$(getent passwd "$name" | cut -d: -f6)"
    password=$(python3 -c 'import secrets; print(secrets.token_urlsafe(9))')
    echo "$name:$password" | chpasswd
    echo "$name $password"
done <<<"$names"
