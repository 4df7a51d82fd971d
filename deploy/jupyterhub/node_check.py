"""Whether this machine's Node.js can run the proxy that `npm ci` installed.

configurable-http-proxy says which Node.js it needs (its package.json's "engines":
">= 20" for 5.3); Ubuntu 22.04's and 24.04's apt packages are older (12 and 18).
With an older `node` the proxy dies at start and the hub only reports that the proxy
did not answer; jupyterhub_config.py asks here first and names what to install.
Standard library only.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path


def required_major(package_json: Path) -> int | None:
    """The lowest Node.js major version `package_json`'s engines.node allows (">= 20" -> 20)."""
    engines = json.loads(package_json.read_text()).get("engines", {})
    found = re.match(r"\s*>=?\s*v?(\d+)", engines.get("node", ""))
    return int(found.group(1)) if found else None


def node_problem(proxy_dir: Path, path: str | None = None) -> str | None:
    """None if `node` on `path` (default: this process's PATH) can run the proxy package
    in `proxy_dir` (node_modules/configurable-http-proxy); else what is wrong and what to do."""
    package = proxy_dir / "package.json"
    need = required_major(package)
    if need is None:
        return None
    node = shutil.which("node", path=path)
    install = (
        f"install Node.js {need} or newer (https://nodejs.org/en/download, or NodeSource's "
        "packages: Ubuntu 22.04's and 24.04's apt nodejs are 12 and 18)"
    )
    if node is None:
        return (
            f"the proxy ({proxy_dir}) needs Node.js {need} or newer, and no `node` is on "
            f"the PATH: {install}"
        )
    try:
        version = subprocess.run(
            [node, "--version"], capture_output=True, text=True, timeout=10, check=True
        ).stdout.strip()
    except (OSError, subprocess.SubprocessError) as error:
        return f"`{node} --version` failed ({error}): the proxy needs Node.js {need} or newer"
    major = re.match(r"v?(\d+)", version)
    if major is None or int(major.group(1)) < need:
        return (
            f"the proxy ({proxy_dir}) needs Node.js {need} or newer, but {node} is "
            f"{version or 'of unknown version'}: {install}"
        )
    return None
