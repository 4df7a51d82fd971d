"""The README's learner path without make, run as a learner runs it.

README.md ("Two commands") gives the plain commands for Linux and macOS: create a
venv, activate it, `pip install -e ".[notebook]"`, `jupyter lab notebooks`. This
test reads that block from the README, runs it with bash in a copy of the repository
(in a temporary folder: a fresh venv, no make, pyproject's ranges and not the test
lock, pip's cache as usual), and checks over HTTP that JupyterLab serves its page and
the notebooks. So the README's commands cannot go wrong without this test failing.
Only flags are added: pip's --no-compile (Python compiles what it imports anyway;
compiling all of JupyterLab up front took CPU the shared test machine lacks), and the
server's: no browser, a free port, a token, 127.0.0.1.

It takes a minute or two (the install); `-m "not install and not hub"` leaves it out.
"""

import json
import os
import re
import secrets
import shlex
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

import psutil
import pytest

ROOT = Path(__file__).resolve().parent.parent
LABEL = "Linux and macOS"
START_TIMEOUT = 900  # s: the install and the server's start, on a loaded machine


def readme_block(text, label):
    """The lines of the first fenced block after the line that starts with `label`."""
    lines = text.splitlines()
    starts = [i for i, line in enumerate(lines) if line.startswith(label)]
    if not starts:
        raise LookupError(f"no line starting with {label!r} in the README")
    fences = [i for i in range(starts[0] + 1, len(lines)) if lines[i].startswith("```")]
    if len(fences) < 2:
        raise LookupError(f"no fenced block after {label!r} in the README")
    return lines[fences[0] + 1 : fences[1]]


def commands(block):
    """The block's commands as written, less comments (a `#` after a space) and spaces."""
    out = []
    for line in block:
        line = re.sub(r"(^|\s)#.*", "", line)
        if line.strip():
            out.append(" ".join(line.split()))
    return out


def learner_script(block, port, token):
    """A bash script of the README's commands; the last one, `jupyter lab DIR`, gets
    the flags a test server needs and replaces the shell (so its pid is the server's)."""
    lines = commands(block)
    if not lines or not lines[-1].startswith("jupyter lab"):
        raise ValueError(f"the README's commands should end with `jupyter lab DIR`: {lines}")
    lines = [line + " --no-compile" if line.startswith("pip install") else line for line in lines]
    flags = [
        "--no-browser",
        f"--port={port}",
        f"--ServerApp.token={token}",
        "--ServerApp.ip=127.0.0.1",
        "--ServerApp.port_retries=0",
    ]
    if os.geteuid() == 0:
        flags.append("--allow-root")  # containers and CI run as root
    return "set -e\n" + "\n".join(lines[:-1]) + f"\nexec {lines[-1]} {shlex.join(flags)}\n"


def _scratch_folder():
    """A folder in memory (/dev/shm) where there is room: the learner's venv, 20 000
    files, took 90 s to delete from the disk of a loaded machine; else the usual one."""
    shm = Path("/dev/shm")
    if shm.is_dir() and os.access(shm, os.W_OK) and shutil.disk_usage(shm).free > 4e9:
        return str(shm)
    return None


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _copy_of_the_repository(dest):
    """The repository's files as a clone has them (tracked and new, not ignored)."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    if listed.returncode != 0:  # not a git checkout: everything but the venvs
        ignore = shutil.ignore_patterns(".venv*", "test-artifacts", "__pycache__", ".git")
        shutil.copytree(ROOT, dest, ignore=ignore)
        return
    for name in filter(None, listed.stdout.split("\0")):
        source = ROOT / name
        if source.is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)


def _learner_environment(home):
    """This environment, less what would make the new venv not fresh: an activated
    venv, PYTHONPATH, Jupyter's folders (given empty ones of their own here)."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("JUPYTER", "PYTHON", "PIP_REQUIRE_VIRTUALENV"))
        and k not in {"VIRTUAL_ENV", "MAKEFLAGS", "MAKELEVEL", "MFLAGS"}
    }
    if os.environ.get("VIRTUAL_ENV"):
        venv_bin = str(Path(os.environ["VIRTUAL_ENV"]) / "bin")
        env["PATH"] = os.pathsep.join(p for p in env["PATH"].split(os.pathsep) if p != venv_bin)
    for name in ("config", "data", "runtime"):
        (home / name).mkdir()
        env[f"JUPYTER_{name.upper()}_DIR"] = str(home / name)
    env["PIP_QUIET"] = "1"
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def _pypi_reachable():
    index = os.environ.get("PIP_INDEX_URL", "https://pypi.org/simple/").rstrip("/")
    try:
        with urllib.request.urlopen(f"{index}/pip/", timeout=20):
            return True
    except (urllib.error.URLError, OSError):
        return False


def _get(url, token):
    request = urllib.request.Request(url, headers={"Authorization": f"token {token}"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status, response.read().decode("utf-8")


def _wait_until_served(server, base, token, log):
    deadline = time.monotonic() + START_TIMEOUT
    while time.monotonic() < deadline:
        if server.poll() is not None:
            pytest.fail(f"the README's commands stopped (exit {server.returncode}):\n{_tail(log)}")
        try:
            if _get(f"{base}/api/status", token)[0] == 200:
                return
        except (urllib.error.URLError, OSError):
            pass
        time.sleep(1)
    pytest.fail(f"JupyterLab did not answer within {START_TIMEOUT} s:\n{_tail(log)}")


def _tail(log, lines=40):
    return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])


def _stop(server):
    """End the server and everything it started; return what is still alive."""
    try:
        family = [psutil.Process(server.pid), *psutil.Process(server.pid).children(True)]
    except psutil.NoSuchProcess:
        family = []
    if server.poll() is None:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait(timeout=30)
    _, alive = psutil.wait_procs(family, timeout=10)
    for process in alive:
        process.kill()
    return alive


def test_the_readme_block_is_found_and_ends_with_jupyter_lab():
    block = readme_block((ROOT / "README.md").read_text("utf-8"), LABEL)
    script = learner_script(block, port=8888, token="t")
    assert 'pip install -e ".[notebook]" --no-compile' in script
    assert "exec jupyter lab notebooks --no-browser --port=8888" in script
    with pytest.raises(LookupError, match="no line starting with"):
        readme_block("# README\n", LABEL)
    with pytest.raises(ValueError, match="should end with"):
        learner_script(["python3 -m venv .venv"], port=8888, token="t")


def test_every_jupyter_lab_folder_the_readme_names_holds_the_notebooks():
    # the comments name the Chinese edition's folder; it must exist and hold its twins
    text = (ROOT / "README.md").read_text("utf-8")
    named = re.findall(r"jupyter lab (notebooks\S*)", "\n".join(readme_block(text, LABEL)))
    assert named == ["notebooks", "notebooks/zh"], named
    english = sorted(p.name for p in (ROOT / "notebooks").glob("0*.ipynb"))
    for folder in named:
        assert sorted(p.name for p in (ROOT / folder).glob("0*.ipynb")) == english, folder


@pytest.mark.parametrize(
    ("en_label", "zh_label", "sep"),
    [(LABEL, "Linux 和 macOS", "/"), ("Windows (PowerShell)", "Windows（PowerShell）", "\\")],
)
def test_the_chinese_readme_gives_the_same_commands_for_the_chinese_edition(
    en_label, zh_label, sep
):
    english = commands(readme_block((ROOT / "README.md").read_text("utf-8"), en_label))
    chinese = commands(readme_block((ROOT / "README.zh.md").read_text("utf-8"), zh_label))
    assert chinese == [*english[:-1], english[-1] + sep + "zh"], (
        f"README.zh.md's commands after {zh_label!r} are not README.md's with notebooks{sep}zh"
    )


@pytest.mark.install
@pytest.mark.skipif(not hasattr(os, "killpg"), reason="the Linux and macOS commands")
def test_the_readme_commands_without_make_serve_the_notebooks_in_jupyterlab():
    if not _pypi_reachable():
        if os.environ.get("CI") == "true":
            pytest.fail("PyPI is not reachable: the learner's install cannot be tested")
        pytest.skip("PyPI is not reachable: the README's pip install needs it")
    block = readme_block((ROOT / "README.md").read_text("utf-8"), LABEL)
    port, token = _free_port(), secrets.token_hex(16)
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="attnlib-no-make-", dir=_scratch_folder()) as tmp:
        clone, home, log = Path(tmp) / "attnlib", Path(tmp) / "jupyter", Path(tmp) / "log"
        _copy_of_the_repository(clone)
        home.mkdir()
        script = Path(tmp) / "learner.sh"  # beside the clone, not in it
        script.write_text(learner_script(block, port, token))
        started = time.monotonic()
        with log.open("w") as out:
            server = subprocess.Popen(
                ["bash", str(script)],
                cwd=clone,
                env=_learner_environment(home),
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group, ended as one
            )
        try:
            _wait_until_served(server, base, token, log)
            print(f"README commands -> JupyterLab answering: {time.monotonic() - started:.0f} s")

            # JupyterLab's page, with the application's own settings and its code
            status, page = _get(f"{base}/lab", token)
            assert status == 200
            found = re.search(r'<script id="jupyter-config-data"[^>]*>(.*?)</script>', page, re.S)
            assert found, "no jupyter-config-data on /lab: not JupyterLab's page"
            config = json.loads(found.group(1))
            assert config["appName"] == "JupyterLab", config.get("appName")
            bundles = re.findall(r'<script[^>]+src="([^"]+\.js[^"]*)"', page)
            assert bundles, "JupyterLab's page loads no script"
            for src in bundles:
                assert _get(base + src if src.startswith("/") else src, token)[0] == 200, src

            # the notebooks, both editions, listed and readable
            english = sorted(p.name for p in (ROOT / "notebooks").glob("*.ipynb"))
            chinese = sorted(p.name for p in (ROOT / "notebooks" / "zh").glob("*.ipynb"))
            listing = json.loads(_get(f"{base}/api/contents", token)[1])
            names = {item["name"]: item["type"] for item in listing["content"]}
            assert [n for n in english if names.get(n) != "notebook"] == [], names
            assert names.get("zh") == "directory", names
            listing = json.loads(_get(f"{base}/api/contents/zh", token)[1])
            assert sorted(i["name"] for i in listing["content"] if i["type"] == "notebook") == (
                chinese
            )
            notebook = json.loads(_get(f"{base}/api/contents/03_qkv.ipynb?content=1", token)[1])
            assert notebook["type"] == "notebook" and notebook["content"]["cells"]

            # the notebooks' imports work in the learner's venv
            python = clone / ".venv" / "bin" / "python"
            imports = "import attnlib, ipywidgets, anywidget, matplotlib; print(attnlib.__file__)"
            result = subprocess.run(
                [python, "-c", imports], cwd=home, capture_output=True, text=True, check=False
            )
            assert result.returncode == 0, result.stderr
            assert Path(result.stdout.strip()).resolve().is_relative_to(clone.resolve())
        finally:
            alive = _stop(server)
        assert not alive, f"still running after the test: {alive}"
        with socket.socket() as s:
            assert s.connect_ex(("127.0.0.1", port)) != 0, f"port {port} still answers"
