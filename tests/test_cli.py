"""python -m attnlib: writes the picture, prints where, exits 2 on bad arguments."""

from __future__ import annotations

import subprocess
import sys

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
