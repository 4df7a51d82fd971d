"""The simulated class needs JupyterHub and friends, installed by `make class` (the
"class" extra), not by `make test`. Without them there is nothing here to collect;
with them the test is still deselected by default (marker `hub`, see pyproject.toml).
"""

import importlib.util

if any(importlib.util.find_spec(name) is None for name in ("jupyterhub", "psutil")):
    collect_ignore_glob = ["*.py"]
