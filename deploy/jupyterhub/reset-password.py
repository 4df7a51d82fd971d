"""Let a student who forgot their password set a new one at their next login.

First-use passwords (FirstUseAuthenticator, on Kubernetes and TLJH) keep one entry
per login name in a dbm file. This removes that one entry and nothing else: the
student's user, server and files stay, and the next login with that name sets the
password. (Deleting the user on the admin page does not do this: with create_users
false the hub then refuses the name until it restarts, and on Kubernetes it would
delete their volume unless KubeSpawner.delete_pvc is false.)

Kubernetes, from this repository (the hub's own Python reads the file):
    kubectl exec -i -n class deploy/hub -- python3 - ada < deploy/jupyterhub/reset-password.py
TLJH, on the machine:
    sudo /opt/tljh/hub/bin/python3 deploy/jupyterhub/reset-password.py \\
        --dbm /opt/tljh/state/passwords.dbm ada
"""

import argparse
import dbm
import sys

DEFAULT_DBM = "/srv/jupyterhub/passwords.dbm"  # z2jh-values.yaml's FirstUseAuthenticator.dbm_path


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description="Remove one first-use password entry.")
    parser.add_argument("name", help="the student's login name")
    parser.add_argument(
        "--dbm", default=DEFAULT_DBM, help=f"the password file (default {DEFAULT_DBM})"
    )
    args = parser.parse_args(argv)
    try:
        db = dbm.open(args.dbm, "w")
    except dbm.error as error:  # (a tuple: dbm's own error and OSError)
        print(
            f"reset-password: cannot open {args.dbm}: {error}; expected the hub's "
            "password file (--dbm PATH)",
            file=sys.stderr,
        )
        return 1
    with db:
        if args.name.encode() not in db:
            print(
                f"reset-password: {args.name} has no password in {args.dbm}: their next "
                "login sets one already (check the spelling of the name)",
                file=sys.stderr,
            )
            return 1
        del db[args.name.encode()]
    print(f"{args.name}: password removed; their next login sets a new one")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
