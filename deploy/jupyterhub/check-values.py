"""Check the Helm values before `helm upgrade`, with the hub's own start-up check.

    python3 deploy/jupyterhub/check-values.py deploy/jupyterhub/z2jh-values.yaml \\
        deploy/jupyterhub/z2jh-values.local.yaml

The files are merged as helm merges its --values (later files win; maps merge, lists
and other values are replaced) over the chart's defaults that the check relies on.
Then the check in hub.extraConfig.attnlib-fail-closed runs on them, the very code the
hub runs at its start: placeholders left, a login that lets anyone in (dummy, tmp,
allow_all), HTTPS off, example image or git names, a volume deleted with its user.
Prints "values ready for helm" and exits 0, or names every problem and exits 1.

Why before helm: with a placeholder image the chart's pre-puller cannot pull it, and
`helm --wait` times out before the hub pod, which would say what is wrong, exists.
Needs PyYAML (`pip install pyyaml`; the course's test environment has it).
"""

from __future__ import annotations

import copy
import sys

# What the chart (jupyterhub 4.4.0, values.yaml) sets when the values do not: the
# login, and where each student's volume is mounted.
CHART_DEFAULTS = {
    "hub": {"config": {"JupyterHub": {"authenticator_class": "dummy"}}},
    "singleuser": {"storage": {"homeMountPath": "/home/jovyan"}},
}
CHECK = "attnlib-fail-closed"


def merged(base: dict, override: dict) -> dict:
    """Helm's merge of one values file over another (maps deep, the rest replaced)."""
    out = copy.deepcopy(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = merged(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


class _Section(dict):
    """hub.config.<Class>: what the chart hands the hub as c.<Class>."""


class _HubConfig(dict):
    """The hub's `c` as the chart fills it from hub.config: c.Section and c["Section"]."""

    def __getattr__(self, name: str) -> _Section:
        return self.setdefault(name, _Section())

    def __getitem__(self, name: str) -> _Section:
        return self.setdefault(name, _Section())


def run_check(values: dict) -> int:
    """Run the values' own start-up check as the hub would; 0 if it lets the hub start."""
    code = ((values.get("hub") or {}).get("extraConfig") or {}).get(CHECK)
    if not code:
        print(
            f"check-values: hub.extraConfig.{CHECK} is missing from the values: expected "
            "deploy/jupyterhub/z2jh-values.yaml first, your z2jh-values.local.yaml after it",
            file=sys.stderr,
        )
        return 1
    c = _HubConfig()
    for section, settings in ((values.get("hub") or {}).get("config") or {}).items():
        c[section].update(settings or {})

    def get_config(key: str, default=None):
        node = values
        for part in key.split("."):
            if not isinstance(node, dict) or part not in node:
                return default
            node = node[part]
        return node

    try:
        exec(compile(code, f"hub.extraConfig.{CHECK}", "exec"), {"c": c, "get_config": get_config})
    except SystemExit as stop:  # the check printed the problems
        return 1 if stop.code else 0
    return 0


def main(argv: list[str]) -> int:
    if not argv:
        print("usage: check-values.py VALUES.yaml [MORE_VALUES.yaml ...]", file=sys.stderr)
        return 2
    try:
        import yaml
    except ImportError:
        print("check-values: needs PyYAML: pip install pyyaml", file=sys.stderr)
        return 2
    values = copy.deepcopy(CHART_DEFAULTS)
    for path in argv:
        try:
            with open(path, encoding="utf-8") as f:
                loaded = yaml.safe_load(f) or {}
        except (OSError, yaml.YAMLError) as error:
            print(f"check-values: cannot read {path}: {error}", file=sys.stderr)
            return 1
        if not isinstance(loaded, dict):
            print(f"check-values: {path} is not a map of values", file=sys.stderr)
            return 1
        values = merged(values, loaded)
    status = run_check(values)
    if status == 0:
        print(f"values ready for helm: {' '.join(argv)}")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
