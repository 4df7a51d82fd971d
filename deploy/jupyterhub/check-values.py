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

With --chart DIR, the chart itself as `helm pull jupyterhub/jupyterhub --version 4.4.0
--untar` leaves it (DIR is the jupyterhub folder), the check goes as far as helm's own
before it renders anything: the chart must be the version these files were written
for, the values are merged over the chart's whole values.yaml, and the result is
validated against the chart's values.schema.json, as `helm template` and `helm upgrade`
do (a misspelt or misplaced key is refused there). That needs jsonschema too
(`pip install jsonschema`). `helm template` itself goes further (it renders every
template) and needs no cluster either.
"""

from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

# The chart these values were written for (the helm commands' --version; tests/test_image.py
# holds every mention of it, and the JupyterHub it runs, together).
CHART_VERSION = "4.4.0"
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


def chart_problems(chart: Path, values: dict, yaml) -> tuple[dict, list[str]]:
    """The values merged over the chart's own values.yaml, and what the chart's
    values.schema.json refuses in them (each as 'where: what'), as helm checks them."""
    meta = yaml.safe_load((chart / "Chart.yaml").read_text(encoding="utf-8")) or {}
    if str(meta.get("version")) != CHART_VERSION:
        return values, [
            f"{chart} is the jupyterhub chart {meta.get('version')}; these values were "
            f"written for {CHART_VERSION} (helm pull jupyterhub/jupyterhub --version "
            f"{CHART_VERSION} --untar)"
        ]
    defaults = yaml.safe_load((chart / "values.yaml").read_text(encoding="utf-8")) or {}
    full = merged(defaults, values)
    try:
        import jsonschema
    except ImportError:
        return full, ["--chart needs jsonschema: pip install jsonschema"]
    schema = json.loads((chart / "values.schema.json").read_text(encoding="utf-8"))
    validator = jsonschema.validators.validator_for(schema)(schema)
    problems = []
    for error in sorted(validator.iter_errors(full), key=lambda e: list(map(str, e.path))):
        where = ".".join(str(part) for part in error.path) or "(top level)"
        problems.append(f"{where}: {error.message} (the chart's values.schema.json)")
    return full, problems


def main(argv: list[str]) -> int:
    chart = None
    if argv[:1] == ["--chart"] and len(argv) >= 2:
        chart, argv = Path(argv[1]), argv[2:]
    if not argv:
        print(
            "usage: check-values.py [--chart CHART_DIR] VALUES.yaml [MORE_VALUES.yaml ...]",
            file=sys.stderr,
        )
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
    if chart is not None:
        try:
            values, problems = chart_problems(chart, values, yaml)
        except (OSError, ValueError, yaml.YAMLError) as error:
            print(f"check-values: cannot read the chart in {chart}: {error}", file=sys.stderr)
            return 1
        if problems:
            print(
                "check-values: the chart would refuse these values:\n  - "
                + "\n  - ".join(problems),
                file=sys.stderr,
            )
            return 1
    status = run_check(values)
    if status == 0:
        print(f"values ready for helm: {' '.join(argv)}")
        if chart is not None:
            print(f"  and valid for the jupyterhub chart {CHART_VERSION} in {chart}")
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
