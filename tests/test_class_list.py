"""deploy/jupyterhub/class_list.py: the one reading of a class list that the one-machine
hub's config, create-students.sh and TLJH's setup.sh share (the scripts' runs are in
tests/test_deploy_scripts.py). Before it, the hub let in "ada   # TA" and the shell
loops skipped a last line without its newline: both students locked out."""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest

from tests.test_deploy import DEPLOY, load_hub_config


def _load():
    spec = importlib.util.spec_from_file_location("class_list", DEPLOY / "class_list.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class_list = _load()

# A class list as teachers write them: a comment after a name, a comment line, a blank
# line, Windows line ends, a name twice, and the last line without its newline.
TRICKY = "ada   # TA\r\n# week 2\r\n\r\n  alan\r\nada\r\ngrace"


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("ada\nalan\n", ["ada", "alan"]),
        ("ada\nalan", ["ada", "alan"]),  # no final newline
        ("ada\r\nalan\r\n", ["ada", "alan"]),  # CRLF
        ("ada\ralan", ["ada", "alan"]),  # old Mac line ends
        ("\ufeffada\nalan\n", ["ada", "alan"]),  # a byte-order mark (Notepad)
        ("ada   # TA\n#alan\n\n", ["ada"]),  # comments after a name and on their own
        ("  ada\t\n\talan  \n", ["ada", "alan"]),
        ("ada\nalan\nada\n", ["ada", "alan"]),  # twice: once, first place kept
        ("s_01\nx.y\nab-c\n_t\n", ["s_01", "x.y", "ab-c", "_t"]),
        (TRICKY, ["ada", "alan", "grace"]),
    ],
    ids=[
        "plain",
        "no-final-newline",
        "crlf",
        "cr",
        "bom",
        "comments",
        "spaces",
        "twice",
        "characters",
        "all-at-once",
    ],
)
def test_class_list_reads_each_way_teachers_write_it(text, names):
    assert class_list.parse_class_list(text) == names


def test_a_name_listed_twice_is_named_with_both_lines(capsys):
    class_list.parse_class_list("ada\nalan\nada\n", "class.txt")
    assert "class.txt line 3: ada is listed already (line 1)" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            "ada\nAda Lovelace\n",
            r"class\.txt line 2: 'Ada Lovelace' is not a login name \(one name per line",
        ),
        (
            "ada\nAlan\n",
            r"line 2: 'Alan' is not a login name \(login names are lower-case: write 'alan'\)",
        ),
        ("ada, alan\n", r"line 1: 'ada, alan' is not a login name"),
        ("1ada\n", r"'1ada' is not a login name; expected lower-case letters, digits"),
        ("a" * 33 + "\n", r"at most 32"),
        ("# nobody yet\n\n", r"class\.txt has no names: expected one login name per line"),
    ],
    ids=["space", "upper-case", "comma", "digit-first", "too-long", "empty"],
)
def test_a_line_that_is_not_a_login_name_stops_everything_naming_it(text, message):
    with pytest.raises(class_list.ClassListError, match=message):
        class_list.parse_class_list(text, "class.txt")


def test_reading_a_file_names_a_missing_or_non_utf8_file(tmp_path):
    with pytest.raises(
        FileNotFoundError, match=f"the class list {tmp_path / 'no.txt'} does not exist"
    ):
        class_list.read_class_list(tmp_path / "no.txt")
    latin1 = tmp_path / "latin1.txt"
    latin1.write_bytes("ada\nzoë\n".encode("latin-1"))
    with pytest.raises(
        class_list.ClassListError, match=r"is not UTF-8 text.*save the class list as UTF-8"
    ):
        class_list.read_class_list(latin1)


def test_the_command_prints_one_name_a_line_or_names_the_bad_line(tmp_path):
    good, bad = tmp_path / "good.txt", tmp_path / "bad.txt"
    good.write_bytes(TRICKY.encode())
    bad.write_text("ada\nAda Lovelace\n")
    run = lambda *a: subprocess.run(  # noqa: E731
        [sys.executable, str(DEPLOY / "class_list.py"), *a], capture_output=True, text=True
    )
    result = run(str(good))
    assert (result.returncode, result.stdout) == (0, "ada\nalan\ngrace\n")
    result = run(str(bad))
    assert result.returncode == 1 and result.stdout == ""
    assert f"{bad} line 2: 'Ada Lovelace' is not a login name" in result.stderr
    assert run().returncode == 2


def test_one_machine_hub_reads_the_class_list_as_the_scripts_do(tmp_path):
    (tmp_path / "class.txt").write_bytes(TRICKY.encode())
    c = load_hub_config(tmp_path, ATTNLIB_TEACHERS="grace,turing")
    assert c.Authenticator.allowed_users == {"ada", "alan", "grace"}
    assert c.Authenticator.admin_users == {"grace", "turing"}


def test_one_machine_hub_refuses_a_class_list_it_cannot_read_naming_the_line(tmp_path):
    (tmp_path / "class.txt").write_text("ada\nAda Lovelace\n")
    with pytest.raises(ValueError, match=r"class\.txt line 2: 'Ada Lovelace' is not a login name"):
        load_hub_config(tmp_path)
    (tmp_path / "class.txt").write_text("ada\n")
    with pytest.raises(ValueError, match="ATTNLIB_TEACHERS: 'Grace' is not a login name"):
        load_hub_config(tmp_path, ATTNLIB_TEACHERS="Grace")
