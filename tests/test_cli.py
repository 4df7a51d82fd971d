"""python -m attnlib: writes the picture, prints where, exits 2 on bad arguments."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from attnlib.__main__ import main


def test_main_writes_the_png_and_says_where(tmp_path, capsys):
    out = tmp_path / "attention.png"
    assert main(["--n", "6", "--d-k", "4", "--seed", "0", "--out", str(out)]) == 0
    assert f"wrote {out}" in capsys.readouterr().out
    with Image.open(out) as picture:
        assert picture.format == "PNG" and picture.size[0] > picture.size[1] > 200


def test_large_size_and_other_formats(tmp_path, capsys):
    normal, large = tmp_path / "a.png", tmp_path / "b.png"
    main(["--n", "32", "--out", str(normal)])
    main(["--n", "32", "--size", "large", "--d", "16", "--out", str(large)])
    with Image.open(normal) as a, Image.open(large) as b:
        assert b.size[0] > 1.5 * a.size[0]
    main(["--out", str(tmp_path / "c.svg")])
    assert (tmp_path / "c.svg").read_text().lstrip().startswith("<?xml")


@pytest.mark.parametrize(
    ("argv", "words"),
    [
        (["--n", "0"], "--n must be from 1 to 64"),
        (["--n", "six"], "--n must be an integer"),
        (["--d-k", "0"], "--d-k must be from 1 to 512"),
        (["--seed", "-1"], "--seed must be from 0"),
        (["--size", "huge"], "invalid choice"),
        (["--out", "picture.gif"], "--out must end in .png, .pdf or .svg"),
        (["--out", "no/such/folder/a.png"], "does not exist"),
        (["--colour", "red"], "unrecognized arguments"),
    ],
)
def test_bad_arguments_exit_2_with_usage(argv, words, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: python -m attnlib") and words in err
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_python_dash_m(tmp_path):
    ok = subprocess.run(
        [sys.executable, "-m", "attnlib", "--n", "3", "--out", "x.png"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert ok.returncode == 0 and "wrote x.png" in ok.stdout and (tmp_path / "x.png").is_file()
    bad = subprocess.run(
        [sys.executable, "-m", "attnlib", "--d-k", "0"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2 and "usage:" in bad.stderr


@pytest.mark.parametrize("folder", ["pictures/", "pictures"])
def test_a_folder_for_out_is_one_line_and_exit_2(folder, tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "pictures").mkdir()
    assert main(["--out", folder]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1, err  # one line, no usage, no traceback
    assert f"--out {folder!r} is a folder" in err and "pictures/attention.png" in err
    assert list((tmp_path / "pictures").iterdir()) == []


def test_a_folder_without_write_permission_is_one_line_and_exit_2(tmp_path, capsys, monkeypatch):
    # as root every folder is writable, so the permission is taken away here
    monkeypatch.setattr("attnlib.__main__.os.access", lambda path, mode: False)
    assert main(["--out", str(tmp_path / "a.png")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot write" in err and "no permission" in err, err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux /proc")
def test_a_place_that_refuses_the_file_is_one_line_and_exit_2(capsys):
    # /proc passes the folder checks (it exists, root may write there) but refuses new files
    assert main(["--n", "3", "--out", "/proc/attnlib-test.png"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot write '/proc/attnlib-test.png'" in err, err


def test_readme_example_output_is_ignored_by_git():
    # the example is in the teaching guides (pictures for slides), and may be in any guide
    root = Path(__file__).resolve().parent.parent
    docs = [root / "README.md", root / "README.zh.md", *sorted((root / "docs").rglob("*.md"))]
    text = "\n".join(doc.read_text(encoding="utf-8") for doc in docs)
    outs = sorted(set(re.findall(r"python -m attnlib .*--out (\S+)", text)))
    assert outs, "no README or guide shows a `python -m attnlib ... --out` example"
    if shutil.which("git") is None or not (root / ".git").exists():
        pytest.skip("not a git checkout")
    ignored = subprocess.run(
        ["git", "check-ignore", "--no-index", *outs], cwd=root, capture_output=True, text=True
    )
    assert sorted(ignored.stdout.split()) == sorted(outs), (
        f"the guides write {outs}; .gitignore covers only {ignored.stdout.split()}"
    )
