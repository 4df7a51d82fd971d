#!/bin/bash
# Machine accounts for the one-machine hub, one per name in the class list (and per
# teacher named in ATTNLIB_TEACHERS, if set), each with a random password. Names that
# already have an account are left alone, so run it again for a late student.
#
#   sudo deploy/jupyterhub/create-students.sh /etc/attnlib-hub/class.txt
#
# The "name password" lines are appended to PASSWORD_FILE (second argument, default
# /etc/attnlib-hub/passwords.txt), which this script creates readable by root only
# (0600). It refuses a file inside the course's repository (every student's server
# reads it, and git or an image build could carry it off) and a folder that others
# may write to. Hand the passwords out, then delete the file; a student can change
# theirs in a JupyterLab terminal (`passwd`).
set -euo pipefail
usage="usage: create-students.sh CLASS_LIST [PASSWORD_FILE]  (default /etc/attnlib-hub/passwords.txt)"
if [ $# -lt 1 ] || [ $# -gt 2 ]; then
    echo "create-students.sh: expected 1 or 2 arguments, got $#" >&2
    echo "$usage" >&2
    exit 2
fi
class_list=$1
password_file=${2:-/etc/attnlib-hub/passwords.txt}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd -P)
[ -r "$class_list" ] || { echo "create-students.sh: cannot read $class_list" >&2; exit 1; }

# the class list read as the hub reads it (class_list.py: comments, CRLF, duplicates);
# a line that is not a login name stops here, before any account is made
names=$(python3 "$here/class_list.py" "$class_list")
if [ -n "${ATTNLIB_TEACHERS:-}" ]; then
    # the teachers log in with a machine account too (the hub's admin_users)
    teachers=$(printf '%s\n' "${ATTNLIB_TEACHERS//,/$'\n'}" | python3 "$here/class_list.py" /dev/stdin)
    names=$(printf '%s\n%s\n' "$names" "$teachers" | awk '!seen[$0]++')
fi

# Where the passwords go: checked before any account is made.
umask 077
folder=$(dirname "$password_file")
[ -d "$folder" ] || install -d -m 700 "$folder"  # an existing folder keeps its mode
folder=$(cd "$folder" && pwd -P)
case "$folder/" in
    "$repo"/*)
        echo "create-students.sh: $password_file is inside the course's repository $repo," \
            "which every student's server can read: give a path outside it," \
            "e.g. /etc/attnlib-hub/passwords.txt" >&2
        exit 1 ;;
esac
# a folder others may write to (/tmp) would let them put a file of theirs in its place
if [ -n "$(find "$folder" -maxdepth 0 -perm /022)" ]; then
    echo "create-students.sh: others may write to $folder: give a password file in a" \
        "folder only root writes to, e.g. /etc/attnlib-hub/passwords.txt" >&2
    exit 1
fi
if [ -L "$password_file" ] || { [ -e "$password_file" ] && { [ ! -f "$password_file" ] || [ ! -O "$password_file" ]; }; }; then
    echo "create-students.sh: $password_file exists and is not a plain file of yours:" \
        "expected a plain file you own, or none" >&2
    exit 1
fi
touch "$password_file"
chmod 600 "$password_file"

made=0
while read -r name; do
    if id "$name" >/dev/null 2>&1; then
        echo "$name: account exists, left as it is" >&2
        continue
    fi
    # a home of their own, readable by them only: the course lands in ~/attnlib-course
    useradd --create-home --shell /bin/bash "$name"
    chmod 700 "$(getent passwd "$name" | cut -d: -f6)"
    password=$(python3 -c 'import secrets; print(secrets.token_urlsafe(12))')
    echo "$name:$password" | chpasswd
    echo "$name $password" >>"$password_file"
    echo "$name: account made"
    made=$((made + 1))
done <<<"$names"
echo "$made new accounts; their passwords are in $password_file (readable by root only)"
