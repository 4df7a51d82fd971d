"""Packaging: environment.yml in step with pyproject.toml, a light import, clean lint."""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from attnlib.i18n.languages import EDITIONS

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent


def _parse(requirements):
    """{'numpy': '>=1.24', 'jsonschema': '<4.25', ...} from strings like 'numpy>=1.24'
    (pip's and conda's simple specs alike: a name and version bounds)."""
    out = {}
    for req in map(Requirement, requirements):
        out[canonicalize_name(req.name)] = str(req.specifier) or None
    return out


def _pyproject():
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def _conda():
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    packages = [d for d in env["dependencies"] if isinstance(d, str)]
    pip = [d for d in env["dependencies"] if isinstance(d, dict)]
    return env, _parse(packages), pip


def test_environment_yml_lists_the_same_packages_and_lower_bounds():
    project = _pyproject()
    wanted = _parse(project["dependencies"] + project["optional-dependencies"]["notebook"])
    env, conda, _ = _conda()
    conda_python = conda.pop("python")
    conda.pop("pip", None)
    assert conda == wanted, (
        "environment.yml and pyproject.toml (dependencies + [notebook]) differ:\n"
        f"  only in environment.yml: { {k: v for k, v in conda.items() if wanted.get(k) != v} }\n"
        f"  only in pyproject.toml:  { {k: v for k, v in wanted.items() if conda.get(k) != v} }"
    )
    assert conda_python == project["requires-python"]
    assert env["channels"] == ["conda-forge"]


def test_environment_yml_installs_attnlib_itself():
    _, _, pip = _conda()
    assert pip and "-e ." in pip[0]["pip"], "environment.yml must pip-install the project (-e .)"


def test_parser_catches_a_drifted_bound():
    # the comparison above is only worth something if a changed bound shows up
    assert _parse(["numpy>=1.24"]) != _parse(["numpy>=1.25"])
    assert _parse(["numpy"]) != _parse(["numpy>=1.24"])
    assert _parse(["jsonschema<4.25"]) != _parse(["jsonschema<4.26"])
    assert _parse(["jsonschema<4.25"]) != _parse(["jsonschema"])


def test_import_attnlib_stays_light():
    code = (
        "import sys, attnlib\n"
        "heavy = [m for m in ('matplotlib', 'ipywidgets', 'IPython') if m in sys.modules]\n"
        "print(','.join(heavy))\n"
        "attnlib.self_attention(*attnlib.toy_example()[1:])\n"
        "attnlib.set_language('en')\n"  # English needs no font: matplotlib stays unloaded
        "assert 'matplotlib' not in sys.modules\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "", f"import attnlib loaded {result.stdout.strip()}"


def test_plotting_loads_when_first_used():
    code = "import sys, attnlib\nattnlib.plotting\nprint('matplotlib' in sys.modules)\n"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "True"


def test_unknown_attribute_is_an_attribute_error():
    import attnlib

    with pytest.raises(AttributeError, match="no attribute 'nonexistent'"):
        attnlib.nonexistent  # noqa: B018


@pytest.mark.parametrize("command", [["check"], ["format", "--check"]])
def test_ruff_is_clean(command):
    # ruff comes with the test extras, next to this interpreter; `ruff format` is
    # enforced too, so that no diff is ever only a reformatting
    ruff = shutil.which("ruff", path=str(Path(sys.executable).parent))
    assert ruff, "ruff not found beside the interpreter: install the test extras (make test)"
    result = subprocess.run(
        [ruff, *command, "--quiet", str(ROOT)], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize("code", [c for c in EDITIONS if EDITIONS[c].lab_locale])
def test_each_editions_lab_settings_are_the_english_ones_plus_the_language(code):
    # `make lab EDITION=zh` points JupyterLab at the edition's settings folder (its record
    # in attnlib/i18n/languages.py) instead of English's: it must keep every project setting
    # (no news, no update check) and add only the interface language, from the language
    # pack its pip extra installs.
    import json

    record, english = EDITIONS[code], EDITIONS["en"]
    read = lambda folder: json.loads((ROOT / folder / "overrides.json").read_text("utf-8"))  # noqa: E731
    own, base = read(record.lab_settings), read(english.lab_settings)
    language = "@jupyterlab/translation-extension:plugin"
    assert own.pop(language) == {"locale": record.lab_locale}
    assert own == base
    extras = _pyproject()["optional-dependencies"]
    pack = f"jupyterlab-language-pack-{record.lab_locale.replace('_', '-')}"
    assert any(r.startswith(pack) for r in extras[record.lab_extra])


def test_make_lab_reads_the_edition_from_its_record_and_lang_still_works():
    # `make -n` prints the commands without running them: the folders come from the record.
    def lab(*args):
        out = subprocess.run(
            [
                "make",
                "-n",
                "-o",
                ".venv/.installed-notebook",
                "-o",
                ".venv/.installed-zh",
                "lab",
                *args,
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=False,
        )
        return out.returncode, out.stdout + out.stderr

    code, out = lab("EDITION=zh")
    assert code == 0 and f"--ServerApp.root_dir={EDITIONS['zh'].notebooks}" in out, out
    assert f"{EDITIONS['zh'].lab_settings} " in out, out
    code, out = lab("LANG=zh")
    assert code == 0 and f"--ServerApp.root_dir={EDITIONS['zh'].notebooks}" in out, out
    assert "EDITION=zh" in out  # the one-line notice
    code, out = lab()
    assert code == 0 and "--ServerApp.root_dir=notebooks " in out, out
    code, out = lab("EDITION=fr")
    assert code != 0 and "language must be one of 'en', 'zh', got 'fr'" in out, out


def test_no_merge_conflict_marker_is_left_in_any_tracked_text_file():
    # Notebooks merge badly: a marker inside a cell's source still makes valid JSON.
    tracked = subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=False
    ).stdout.split()
    if not tracked:
        pytest.skip("not a git checkout")
    marker = re.compile(r"^(?:\s*\")?(<{7} |>{7} |={7}\\n|={7}$)", re.M)
    found = []
    for name in tracked:
        path = ROOT / name
        if path.suffix in {".png", ".otf", ".pdf"} or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="ignore")
        if marker.search(text):
            found.append(name)
    assert not found, f"merge conflict markers in {found}"


def test_the_readme_layout_names_every_tool_make_target_and_wing():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    layout = readme[readme.index("## Repository layout") :]
    layout = layout[: layout.index("\n## ", 5)]
    tools = [p.name for p in (ROOT / "tools").glob("*.py")]
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    targets = {t for line in re.findall(r"^\.PHONY:(.*)$", makefile, re.M) for t in line.split()}
    wings = [p.name for p in (ROOT / "attnlib").iterdir() if (p / "__init__.py").exists()]
    missing = [name for name in [*tools, *targets, *wings] if name not in layout]
    assert not missing, f"README's Repository layout does not mention {missing}"
    assert "CONTRIBUTING.md" in layout


def test_a_wheel_holds_each_language_s_font_and_its_licence(tmp_path):
    # built as pip builds it from a clean checkout: only tracked files, pyproject's
    # package-data, the build backend it names (fetched by pip into an isolated build)
    import zipfile

    from attnlib.pictures import fonts

    fonts_wanted = [lang.font for lang in EDITIONS.values() if lang.font is not None]
    assert fonts_wanted, "no language has a font: nothing to check"
    tracked = subprocess.run(
        ["git", "ls-files", "attnlib", "pyproject.toml", "README.md", "LICENSE"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    source = tmp_path / "source"
    for name in tracked:
        (source / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, source / name)
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(source)],
        capture_output=True,
        text=True,
    )
    if built.returncode and os.environ.get("CI") != "true":
        pytest.skip(f"pip could not build a wheel (no build backend?): {built.stderr[-300:]}")
    assert built.returncode == 0, built.stderr
    (wheel,) = tmp_path.glob("attnlib-*.whl")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        for font in fonts_wanted:
            inside = f"attnlib/pictures/font_files/{font.file}"
            assert inside in names and f"attnlib/pictures/font_files/{font.licence_file}" in names
            assert archive.read(inside) == fonts.font_file(font).read_bytes()
